// The multibody engine's error on bad input or a failed analysis:
// std::runtime_error "<id>: <field>: message" ("<id>: message" without a
// field), which the compiler turns into a ProjectError.
#pragma once

#include <stdexcept>
#include <string>

namespace pm::mb {

[[noreturn]] inline void fail(const std::string& id, const std::string& field, const std::string& msg) {
  throw std::runtime_error(id + ": " + (field.empty() ? "" : field + ": ") + msg);
}

}  // namespace pm::mb
