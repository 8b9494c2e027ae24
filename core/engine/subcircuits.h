// Sub-circuit types for the studio's editing (issue 24): registering the
// definitions a project carries as it is edited, reading and rewriting a
// type's inside, and the compiler's expansion, for what shows it.
// The format: docs/user-components.md, "Sub-circuits".
#pragma once

#include "model/project.h"

#include <nlohmann/json.hpp>

#include <string>

namespace pm::engine {

// The origin a type a project carries is registered under: its file, or
// "untitled project".
std::string projectOrigin(const std::string& file);

// Whether `type` is a registered sub-circuit type.
bool isSubcircuitType(const std::string& type);

// Checks definition `def` and registers it (replacing a user type of its
// name); `file` names the project it belongs to in errors (empty: an
// untitled project). Returns the type's name; throws ProjectError naming
// the sub-circuit and the field.
std::string registerSubcircuit(const nlohmann::json& def, const std::string& file);

// Registers every sub-circuit definition `project` carries whose type the
// registry does not hold as written: after an edit, undo or redo the
// schematic and the compiler see the project's own definitions. Those that
// use another are registered after it. Throws ProjectError on a bad one.
void registerSubcircuits(const Project& project, const std::string& file);

// The inside of definition `def`: its components and connections with the
// ids they have there. Throws ProjectError naming `file` and the sub-circuit.
Project subcircuitInside(const nlohmann::json& def, const std::string& file);

// `def` with its inside replaced by the components and connections of
// `inside`, as a project file writes them (ports, parameters and inputs kept).
nlohmann::json withInside(nlohmann::json def, const Project& inside);

// The project as the compiler sees it: every sub-circuit instance replaced by
// its inside (`<instance>.<inner id>`). Throws ProjectError naming `file`.
Project expandSubcircuits(const Project& project, const std::string& file = {});

}  // namespace pm::engine
