#include "analyses/circuit_checks.h"

#include "model/component_type.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace pm {

namespace {

std::string name(const Component& c) { return c.label.empty() ? c.id : c.label + " (" + c.id + ")"; }

bool flag(const Component& c, const ComponentType& t, const char* param) {
  return t.param(param) && paramValue(c, t, param) > 0.5;
}

// Every "<id>.<channel>" string anywhere in `j` adds <id> to `ids`.
void referencedIds(const nlohmann::json& j, std::set<std::string>& ids) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    // A reference "a1.out", or a condition naming several ("a1.out && b0.out"): may name several signals ("a1.out && b0.out"): every word with a dot.
    size_t start = 0;
    while (start < s.size()) {
      size_t end = start;
      while (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_' || s[end] == '.')) ++end;
      if (end > start) {
        const std::string w = s.substr(start, end - start);
        const size_t d = w.find('.');
        if (d != std::string::npos && d > 0) ids.insert(w.substr(0, d));
        start = end;
      } else {
        ++start;
      }
    }
  } else if (j.is_array()) {
    for (const auto& e : j) referencedIds(e, ids);
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      ids.insert(it.key().substr(0, it.key().find('.')));  // {"a1.out": ...} keys too
      referencedIds(it.value(), ids);
    }
  }
}

class Circuit {
 public:
  explicit Circuit(const Project& p) : p_(p) {
    for (const Connection& k : p.connections) {
      links_[k.from.str()].push_back(k.to);
      links_[k.to.str()].push_back(k.from);
    }
  }
  bool connected(const Component& c, const std::string& port) const { return links_.count(c.id + "." + port) > 0; }

  // True when a line from `start` leads to a directional valve through parts
  // that pass air on (anything but supplies, actuators and valves).
  bool reachesValve(const Component& start) const {
    std::set<std::string> seen{start.id};
    std::vector<const Component*> todo{&start};
    while (!todo.empty()) {
      const Component* c = todo.back();
      todo.pop_back();
      const ComponentType* t = Registry::instance().find(c->type);
      if (!t) continue;
      for (const PortDecl& port : t->ports) {
        auto it = links_.find(c->id + "." + port.name);
        if (it == links_.end()) continue;
        for (const PortRef& r : it->second) {
          const Component* o = p_.find(r.component);
          const ComponentType* ot = o ? Registry::instance().find(o->type) : nullptr;
          if (!ot || !seen.insert(o->id).second) continue;
          if (ot->category == "Directional valves") return true;
          if (ot->category != "Supply" && ot->category != "Actuators") todo.push_back(o);
        }
      }
    }
    return false;
  }

 private:
  const Project& p_;
  std::map<std::string, std::vector<PortRef>> links_;
};

void openPorts(const Component& c, const ComponentType& t, const Circuit& circuit, std::vector<CircuitFinding>& out) {
  for (const PortDecl& port : t.ports) {
    if (port.domain != Domain::Pneumatic || port.vents_when_open) continue;
    if (port.doc.find("optional") != std::string::npos) continue;
    if (circuit.connected(c, port.name)) continue;
    const bool working = t.category == "Directional valves" && port.doc == "working port";
    out.push_back({c.id, name(c) + ": " + (working ? "working port " : "port ") + port.name +
                             " is not connected (plugged)" +
                             (working ? ": the valve switches air to nothing there" : "")});
  }
}

// The sides of a directional valve that nothing actuates.
void unactuatedSides(const Component& c, const ComponentType& t, const Circuit& circuit,
                     std::vector<CircuitFinding>& out) {
  if (t.category != "Directional valves" || !t.input("sol14")) return;  // the proportional valve's u is required
  const bool threePos = c.type.rfind("valve_5_3", 0) == 0;  // spring-centred
  const bool spring = flag(c, t, "spring_return");
  auto side = [&](const std::string& s, bool needed, const std::string& why) {
    if (!needed) return;
    const bool signal = c.inputs.count("sol" + s) && !c.inputs.at("sol" + s).empty();
    const bool pilot = t.port(s) && circuit.connected(c, s);
    const bool hand = s == "14" && flag(c, t, "manual");
    if (signal || pilot || hand) return;
    out.push_back({c.id, name(c) + ": solenoid " + s + " has no signal" +
                             (t.port(s) ? " and pilot port " + s + " is not connected" : std::string()) + ": " + why});
  };
  side("14", true, "nothing switches the valve");
  if (t.input("sol12")) {
    if (threePos) side("12", true, "the valve never reaches its position 12");
    else side("12", !spring && !flag(c, t, "manual"), "without a spring return nothing switches the valve back");
  }
}

}  // namespace

std::vector<CircuitFinding> checkCircuit(const Project& p) {
  std::vector<CircuitFinding> out;
  const Circuit circuit(p);
  std::set<std::string> read;
  for (const Component& c : p.components) {
    for (const auto& [input, ref] : c.inputs) referencedIds(ref, read);
    referencedIds(c.data, read);
  }
  referencedIds(p.extra, read);
  for (const LatchDef& l : p.mechanism.latches)  // a latch engages or lets go on a sensor's signal
    for (const std::string* ref : {&l.engage, &l.release}) referencedIds(*ref, read);

  bool supply = false, pneumatic = false;
  for (const Component& c : p.components) {
    const ComponentType* t = Registry::instance().find(c.type);
    if (!t) continue;
    if (t->category == "Supply" && c.type != "atmosphere") supply = true;
    if (std::any_of(t->ports.begin(), t->ports.end(), [](const PortDecl& d) { return d.domain == Domain::Pneumatic; }))
      pneumatic = true;
    openPorts(c, *t, circuit, out);
    unactuatedSides(c, *t, circuit, out);
    const bool hasLines = std::any_of(t->ports.begin(), t->ports.end(),
                                      [&](const PortDecl& d) { return d.domain == Domain::Pneumatic; });
    if (t->category == "Actuators" && hasLines && !circuit.reachesValve(c))
      out.push_back({c.id, name(c) + ": no directional valve controls it (its lines reach none)"});
    if (t->category == "Sensors" && !read.count(c.id))
      out.push_back({c.id, name(c) + ": nothing reads this sensor (no input, latch, sequence, script or plot names " + c.id +
                               "." + (t->channels.empty() ? std::string("out") : t->channels.front().quantity) + ")"});
  }
  if (!supply && pneumatic)
    out.insert(out.begin(), {{}, "No supply: add a compressed-air supply to the circuit", true});
  return out;
}

}  // namespace pm
