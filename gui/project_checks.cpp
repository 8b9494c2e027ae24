#include "project_checks.h"

#include "engine/engine.h"

#include <algorithm>

namespace pm::gui {

std::vector<CheckMessage> checkProject(const Project& p, const std::string& file) {
  using S = CheckMessage::Severity;
  std::vector<CheckMessage> out;
  // The wiring: open ports, no supply, valves nothing switches, cylinders no
  // valve controls, sensors nothing reads (the same list as `pneumech check`).
  for (const CircuitFinding& f : engine::checkCircuit(p))
    out.push_back({f.blocking ? S::Error : S::Warning, QString::fromStdString(f.message), f.object, {}});
  try {
    // The mechanism's notes: parts the assembly moved, velocities it changed, redundant joints.
    for (const std::string& m : engine::check(p, file)) out.push_back({S::Warning, QString::fromStdString(m), {}, {}});
    // The mechanism's geometry: cylinders over centre or unable to move it, default inertia.
    for (const GeometryFinding& f : engine::checkGeometry(p, file))
      out.push_back({S::Warning, QString::fromStdString(f.message), p.find(f.object) ? f.object : std::string(), {}});
  } catch (const ProjectError& e) {
    CheckMessage m{S::Error, QString::fromStdString(e.what()), {}, {}};
    if (p.find(e.object())) m.component = e.object();
    else if (std::any_of(p.connections.begin(), p.connections.end(), [&](const Connection& k) { return k.id == e.object(); }))
      m.connection = e.object();
    out.insert(out.begin(), m);
  } catch (const std::exception& e) {
    out.insert(out.begin(), {S::Error, QString::fromStdString(e.what()), {}, {}});
  }
  return out;
}

bool hasErrors(const std::vector<CheckMessage>& m) {
  return std::any_of(m.begin(), m.end(), [](const CheckMessage& x) { return x.severity == CheckMessage::Severity::Error; });
}

}  // namespace pm::gui
