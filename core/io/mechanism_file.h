// The "mechanism" section of a project file (docs/file-format.md): parts with
// markers and display geometry, joints, motions and forces. Errors name the
// file, the object id and the field, like the rest of the project file.
// Parsing only: what the values mean is checked by build/validation.h.
#pragma once

#include "model/mechanism.h"

#include <nlohmann/json.hpp>

#include <string>

namespace pm {

Mechanism parseMechanism(const nlohmann::json& section, const std::string& file);
nlohmann::json serializeMechanism(const Mechanism& m);

}  // namespace pm
