// User components (issue 24, docs/user-components.md): component types
// defined by a data file instead of C++ (ports, parameters, states,
// equations, flows and volumes at the ports), compiled when loaded into a
// ComponentType whose elements evaluate the equations as bytecode. They come
// from a project's `user_components` section or a user library folder
// (`--user-lib DIR`), and are registered beside the built-in types.
#pragma once

#include "model/component_type.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace pm::user {

// Compiles one definition. `file` names it in messages; `text` is that
// file's text, searched for the lines of the definition's fields (empty:
// no line numbers). Throws ProjectError(file, type name, field,
// "line N: '<expression>': what is wrong").
ComponentType compileComponent(const nlohmann::json& def, const std::string& file, const std::string& text);

// Compiles and registers (Registry::addUser). Returns the type's name.
std::string registerComponent(const nlohmann::json& def, const std::string& file, const std::string& text);
// Adds a compiled user type (component or sub-circuit) to the registry;
// a clash with a registered name becomes a ProjectError naming `file`.
std::string registerUserType(ComponentType t, const std::string& file);

// Registers every *.json file of `dir` (one component per file, in name
// order). The good ones are registered even when others are bad; then a
// ProjectError lists the bad ones, each naming its file, line and
// expression (or the folder, when it cannot be read).
// `subcircuit` registers a file whose "format" is "pneumech-subcircuit"
// (io/subcircuit_file.h: the layer above): those are read after the user
// components, each once the sub-circuits it uses are registered.
using SubcircuitLoader = std::function<std::string(const nlohmann::json&, const std::string&, const std::string&)>;
std::vector<std::string> loadLibrary(const std::string& dir, const SubcircuitLoader& subcircuit = {});

// A user type's own symbol from its definition `def` into `t` (whose
// ports and inputs are read): `symbol_svg`, the SVG's text as a saved
// project carries it, else the SVG file `t.symbol` names (relative to the
// folder of `file`, the definition's; t.symbol becomes its absolute path).
// The SVG must mark each port and input with an element id="port-<name>";
// its text goes to t.symbol_svg. A `symbol` that is no SVG file is left as
// given; a missing SVG file of a project's own copy (`file`
// *.pneumech.json, saved before symbols travelled with it) gives none (the
// generated box). Throws std::invalid_argument naming the SVG and the port
// without a mark; the field at fault is symbolField(def).
void readSymbol(const nlohmann::json& def, const std::string& file, ComponentType& t);
std::string symbolField(const nlohmann::json& def);
// The largest SVG a symbol may be (a drawing, not a photograph).
inline constexpr size_t kMaxSymbolBytes = 1 << 20;

// The line (1-based) of the `occurrence`-th appearance of `needle` in
// `text` at or after `from`; 0 when not found.
int lineOf(const std::string& text, const std::string& needle, size_t from = 0, int occurrence = 0);

}  // namespace pm::user
