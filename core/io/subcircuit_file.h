// Sub-circuits (issue 24, docs/user-components.md): a group of components
// saved as one component type with its own external ports, exposed
// parameters and signal inputs. The type is registered like a user
// component (origin, definition) and has no element of its own: the
// compiler replaces each instance by its inside (build/subcircuit_expansion.h).
#pragma once

#include "model/component_type.h"
#include "model/project.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pm {

inline constexpr const char* kSubcircuitFormat = "pneumech-subcircuit";

bool isSubcircuitDefinition(const nlohmann::json& def);
bool isSubcircuit(const ComponentType& t);

// Reads one definition into a type: ports (each `connect`ed to an inner
// port), parameters and inputs (each with inner `targets`). Throws
// ProjectError(file, type name, field, "line N: what is wrong").
ComponentType readSubcircuit(const nlohmann::json& def, const std::string& file, const std::string& text);
// Reads and registers (Registry::addUser); returns the type's name.
std::string registerSubcircuit(const nlohmann::json& def, const std::string& file, const std::string& text);

// The inside of a sub-circuit type: its components and connections with the
// ids they have in the definition. Throws ProjectError naming its file.
Project subcircuitInside(const ComponentType& t);

// Every user type (user component or sub-circuit) `components` use, and
// those the sub-circuits among them use inside, each once: what a saved
// project carries along.
std::vector<std::string> userTypesUsed(const std::vector<Component>& components);

}  // namespace pm
