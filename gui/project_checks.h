// Checks before a run, listed in the messages panel: the circuit's wiring
// (engine::checkCircuit: open ports, no supply, unactuated valves, cylinders
// without a valve, sensors nothing reads), and everything the core's own compile refuses (invalid parameters,
// unknown signals...), each naming the object to select.
#pragma once

#include "model/project.h"

#include <QString>

#include <vector>

namespace pm::gui {

struct CheckMessage {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Warning;
  QString text;
  std::string component;   // object to select, may be empty
  std::string connection;
};

std::vector<CheckMessage> checkProject(const Project& project, const std::string& file = {});
bool hasErrors(const std::vector<CheckMessage>& messages);

}  // namespace pm::gui
