#include "project_checks.h"

#include "engine/engine.h"

#include <algorithm>
#include <set>

namespace pm::gui {

std::vector<CheckMessage> checkProject(const Project& p, const std::string& file) {
  using S = CheckMessage::Severity;
  std::vector<CheckMessage> out;
  std::set<std::string> connected;
  for (const Connection& k : p.connections) connected.insert(k.from.str()), connected.insert(k.to.str());
  bool supply = false;
  for (const Component& c : p.components) {
    const ComponentType* t = Registry::instance().find(c.type);
    if (!t) continue;
    if (t->category == "Supply" && c.type != "atmosphere") supply = true;
    for (const PortDecl& port : t->ports) {
      if (port.domain != Domain::Pneumatic || port.vents_when_open) continue;
      if (port.doc.find("optional") != std::string::npos) continue;
      if (connected.count(c.id + "." + port.name)) continue;
      out.push_back({S::Warning,
                     QString("%1: port %2 is not connected (plugged)")
                         .arg(QString::fromStdString(c.label.empty() ? c.id : c.label + " (" + c.id + ")"),
                              QString::fromStdString(port.name)),
                     c.id, {}});
    }
  }
  if (!supply && !p.components.empty())
    out.push_back({S::Error, "No supply: add a compressed-air supply to the circuit", {}, {}});
  try {
    // The mechanism's notes: parts the assembly moved, velocities it changed, redundant joints.
    for (const std::string& m : engine::check(p, file)) out.push_back({S::Warning, QString::fromStdString(m), {}, {}});
    // The mechanism's geometry: cylinders over centre or unable to move it, default inertia.
    for (const GeometryFinding& f : engine::checkGeometry(p))
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
