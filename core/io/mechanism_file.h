// The "mechanism" section of a project file (docs/file-format.md): parts with
// markers and display geometry, joints, motions and forces. Errors name the
// file, the object id and the field, like the rest of the project file.
#pragma once

#include "model/mechanism.h"

#include <nlohmann/json.hpp>

#include <string>

namespace pm {

Mechanism parseMechanism(const nlohmann::json& section, const std::string& file);
nlohmann::json serializeMechanism(const Mechanism& m);
// References, ids, types, parameter ranges; `componentIds` share the id space.
void validateMechanism(const Mechanism& m, const std::string& file, const std::vector<std::string>& componentIds = {});

}  // namespace pm
