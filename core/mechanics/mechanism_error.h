// The multibody engine's errors as project errors.
#pragma once

#include <string>

namespace pm {

// Turns the multibody engine's "<object>: <field>: message" into a ProjectError.
[[noreturn]] void throwMechanismError(const std::string& file, const std::string& what);

}  // namespace pm
