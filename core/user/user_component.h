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

// A user's symbol: `symbol` as given when it is not an SVG file; else the
// SVG (relative to the folder of `file`, the definition's) checked to mark
// each of `ports` with an element id="port-<name>", its absolute path
// returned. A missing SVG of a project's own copy (`file` *.pneumech.json)
// gives "" (the generated box). Throws std::invalid_argument naming the
// SVG and the port without a mark.
std::string checkedSymbol(const std::string& symbol, const std::string& file, const std::vector<std::string>& ports);

// The line (1-based) of the `occurrence`-th appearance of `needle` in
// `text` at or after `from`; 0 when not found.
int lineOf(const std::string& text, const std::string& needle, size_t from = 0, int occurrence = 0);

}  // namespace pm::user
