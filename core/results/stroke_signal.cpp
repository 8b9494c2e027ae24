#include "results/stroke_signal.h"

#include "model/component_type.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace pm {

namespace {

bool isOnOffValve(const ComponentType& t) {
  return t.category == "Directional valves" && t.param("t_switch") &&
         std::any_of(t.channels.begin(), t.channels.end(), [](const ChannelDecl& c) { return c.quantity == "s"; });
}

}  // namespace

std::vector<std::string> onOffValves(const Project& project) {
  std::vector<std::string> ids;
  for (const Component& c : project.components)
    if (const ComponentType* t = Registry::instance().find(c.type); t && isOnOffValve(*t)) ids.push_back(c.id);
  return ids;
}

std::vector<std::string> drivingValves(const Project& project, const std::string& cylinderId) {
  const Registry& reg = Registry::instance();
  // Ports joined by lines: one net each (union-find over "<id>.<port>").
  std::map<std::string, std::string> parent;
  auto root = [&](std::string p) {
    while (parent.count(p) && parent[p] != p) p = parent[p];
    return p;
  };
  for (const Connection& k : project.connections) {
    const std::string a = root(k.from.str()), b = root(k.to.str());
    parent.try_emplace(a, a);
    parent.try_emplace(b, b);
    if (a != b) parent[a] = b;
  }
  std::map<std::string, std::vector<PortRef>> nets;
  for (const Connection& k : project.connections)
    for (const PortRef& r : {k.from, k.to}) {
      auto& n = nets[root(r.str())];
      if (std::find(n.begin(), n.end(), r) == n.end()) n.push_back(r);
    }
  std::set<std::string> found, seenNets;
  std::vector<PortRef> todo;
  const Component* cyl = project.find(cylinderId);
  const ComponentType* ct = cyl ? reg.find(cyl->type) : nullptr;
  if (!ct) return {};
  for (const PortDecl& p : ct->ports)
    if (p.domain == Domain::Pneumatic) todo.push_back({cylinderId, p.name});
  while (!todo.empty()) {
    const PortRef from = todo.back();
    todo.pop_back();
    const std::string net = root(from.str());
    if (!nets.count(net) || !seenNets.insert(net).second) continue;
    for (const PortRef& r : nets[net]) {
      const Component* c = project.find(r.component);
      const ComponentType* t = c ? reg.find(c->type) : nullptr;
      if (!t || r.component == cylinderId) continue;
      if (t->category == "Directional valves") {
        if (isOnOffValve(*t) && (r.port == "2" || r.port == "4")) found.insert(c->id);
        continue;  // never through a valve
      }
      if (t->category == "Actuators" || t->category == "Supply") continue;
      for (const PortDecl& p : t->ports)  // a line element: on through its other ports
        if (p.domain == Domain::Pneumatic && !p.vents_when_open && p.name != r.port) todo.push_back({c->id, p.name});
    }
  }
  std::vector<std::string> ids;
  for (const Component& c : project.components)
    if (found.count(c.id)) ids.push_back(c.id);
  return ids;
}

double commandInstant(const std::vector<double>& t, const std::vector<double>& s, double tSwitch, size_t i) {
  if (t.empty() || s.size() != t.size()) return std::numeric_limits<double>::quiet_NaN();
  size_t m = std::min(i, t.size() - 1);
  while (m >= 1 && s[m] == s[m - 1]) --m;  // the last sample of the latest travel
  if (m == 0) return std::numeric_limits<double>::quiet_NaN();
  // Back to its first sample: the travel moves one way (a reversal is a new command).
  const bool up = s[m] > s[m - 1];
  while (m >= 2 && s[m - 1] != s[m - 2] && (s[m - 1] > s[m - 2]) == up) --m;
  // s[m - 1]: where the spool was at the command; it has travelled |s[m] - s[m - 1]| by t[m].
  return std::clamp(t[m] - std::abs(s[m] - s[m - 1]) * tSwitch, t[m - 1], t[m]);
}

}  // namespace pm
