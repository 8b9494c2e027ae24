#include "solver/compiler.h"

#include "io/mechanism_file.h"
#include "mechanics/mechanism_analysis.h"
#include "mechanics/mechanism_element.h"
#include "model/component_type.h"
#include "model/message_text.h"
#include "model/project_error.h"
#include "pneumatics/gas.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace pm {

namespace {

bool validId(const std::string& id) {
  if (id.empty() || !std::isalpha(static_cast<unsigned char>(id[0]))) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

struct UnionFind {
  std::vector<int> parent;
  int add() {
    parent.push_back(static_cast<int>(parent.size()));
    return parent.back();
  }
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int a, int b) { parent[find(a)] = find(b); }
};

// Whether a signal reference names a part, joint, motion or force (the
// mechanism publishes "<object>.<quantity>").
bool mechanismObject(const Mechanism& m, const std::string& ref) {
  const std::string id = ref.substr(0, ref.find('.'));
  auto has = [&](const auto& list) {
    return std::any_of(list.begin(), list.end(), [&](const auto& o) { return o.id == id; });
  };
  return has(m.parts) || has(m.joints) || has(m.motions) || has(m.forces);
}

}  // namespace

void validateProject(const Project& pr, const std::string& file, bool forRun) {
  auto fail = [&](const std::string& obj, const std::string& field, const std::string& msg) {
    throw ProjectError(file, obj, field, msg);
  };
  const auto& reg = Registry::instance();
  std::set<std::string> ids;
  for (const Component& c : pr.components) {
    if (!validId(c.id))
      fail(c.id, "id", "ids start with a letter and use only letters, digits, '_' and '-'");
    if (!ids.insert(c.id).second) fail(c.id, "id", "duplicate id");
    const ComponentType* t = reg.find(c.type);
    if (!t) fail(c.id, "type", "unknown component type '" + c.type + "'");
    for (const auto& [name, value] : c.params) {
      const ParamDecl* d = t->param(name);
      if (!d) fail(c.id, "params." + name, "type '" + c.type + "' has no parameter '" + name + "'");
      if (!d->accepts(value))
        fail(c.id, "params." + name,
             "value " + numberText(value) + " " + d->unit + " is outside the valid range " +
                 d->rangeText() + " (" + d->doc + ")");
    }
    for (const auto& [name, ref] : c.inputs) {
      if (!t->input(name)) fail(c.id, "inputs." + name, "type '" + c.type + "' has no input '" + name + "'");
      const auto dot = ref.find('.');
      if (ref.empty()) continue;
      if (dot == std::string::npos || dot == 0 || dot + 1 == ref.size())
        fail(c.id, "inputs." + name, "signal reference '" + ref + "' must read '<component id>.<channel>'");
    }
    for (const InputDecl& in : t->inputs)
      if (forRun && in.required && (!c.inputs.count(in.name) || c.inputs.at(in.name).empty()))
        fail(c.id, "inputs." + in.name, "required input is not connected (" + in.doc + ")");
    if (t->check_data)
      for (const std::string& e : t->check_data(c)) {
        // "points[2]: message" names a field; a message about the whole
        // data may hold ": " itself ('expected {"points": ...}').
        const auto colon = e.find(": ");
        const bool hasField = colon != std::string::npos && e.find(' ') > colon;
        fail(c.id, hasField ? "data." + e.substr(0, colon) : "data", hasField ? e.substr(colon + 2) : e);
      }
  }
  for (const Component& c : pr.components)
    for (const auto& [name, ref] : c.inputs) {
      if (ref.empty()) continue;
      const std::string target = ref.substr(0, ref.find('.'));
      if (!ids.count(target) && !mechanismObject(pr.mechanism, ref))
        fail(c.id, "inputs." + name,
             "signal reference '" + ref + "' names no component or mechanism object '" + target + "'");
    }
  std::set<std::string> connIds;
  std::set<std::pair<std::string, std::string>> pairs;
  for (const Connection& k : pr.connections) {
    if (k.id.empty()) fail("", "connections", "a connection has an empty id");
    if (!connIds.insert(k.id).second) fail(k.id, "id", "duplicate connection id");
    if (ids.count(k.id)) fail(k.id, "id", "connection id is also a component id");
    const PortDecl* ends[2] = {nullptr, nullptr};
    int i = 0;
    for (const PortRef* r : {&k.from, &k.to}) {
      const char* field = i == 0 ? "from" : "to";
      const Component* c = pr.find(r->component);
      if (!c) fail(k.id, field, "dangling connection: no component '" + r->component + "'");
      const ComponentType* t = reg.find(c->type);
      ends[i] = t->port(r->port);
      if (!ends[i]) fail(k.id, field, "component '" + c->id + "' (" + c->type + ") has no port '" + r->port + "'");
      ++i;
    }
    if (k.from == k.to) fail(k.id, "to", "connection joins a port to itself");
    if (ends[0]->domain != ends[1]->domain)
      fail(k.id, "to", "connects ports of different domains (" + k.from.str() + ", " + k.to.str() + ")");
    if (ends[0]->domain != Domain::Pneumatic)
      fail(k.id, "to", "only pneumatic lines can be drawn in this version; signal inputs are references");
    const std::string a = k.from.str(), b = k.to.str();
    const std::pair<std::string, std::string> key = a < b ? std::pair{a, b} : std::pair{b, a};
    if (!pairs.insert(key).second)
      fail(k.id, "to", "duplicate connection between " + key.first + " and " + key.second);
  }
  if (!pr.mechanism.empty()) {
    std::vector<std::string> compIds(ids.begin(), ids.end());
    validateMechanism(pr.mechanism, file, compIds);
  }
  validateSimulation(pr.simulation, file);
}

void validateSimulation(const SimulationSettings& s, const std::string& file) {
  auto fail = [&](const std::string& obj, const std::string& field, const std::string& msg) {
    throw ProjectError(file, obj, field, msg);
  };
  auto positive = [&](double v, const char* f) {
    if (!(v > 0.0) || !std::isfinite(v)) fail("simulation", f, "must be a positive number");
  };
  positive(s.t_end, "t_end");
  positive(s.output_interval, "output_interval");
  positive(s.rel_tol, "rel_tol");
  positive(s.abs_tol_pressure, "abs_tol_pressure");
  positive(s.abs_tol_temperature, "abs_tol_temperature");
  positive(s.abs_tol_position, "abs_tol_position");
  // Physical plausibility (what the solver can do anything sensible with);
  // the same bounds as a component's pressures and temperatures.
  auto within = [&](double v, const char* f, double lo, double hi, const char* unit) {
    if (!(v >= lo && v <= hi))
      fail("simulation", f, "value " + numberText(v) + (*unit ? " " : "") + unit + " is outside the valid range [" +
                                numberText(lo) + ", " + numberText(hi) + "]");
  };
  within(s.ambient_pressure, "ambient_pressure", kPlausiblePressureFloor, kPlausiblePressure, "Pa");
  within(s.ambient_temperature, "ambient_temperature", kPlausibleTemperatureMin, kPlausibleTemperatureMax, "K");
  within(s.rel_tol, "rel_tol", 1e-12, 0.5, "");
  if (!(s.wall_time_limit >= 0.0) || !std::isfinite(s.wall_time_limit))
    fail("simulation", "wall_time_limit", "must be >= 0 s (0: no limit)");
  if (s.max_step < 0.0 || !std::isfinite(s.max_step)) fail("simulation", "max_step", "must be >= 0 (0: solver's choice)");
  if (s.coupling != "monolithic" && s.coupling != "cosimulation")
    fail("simulation", "coupling", "must be \"monolithic\" or \"cosimulation\", not \"" + s.coupling + "\"");
  if (s.mechanism_formulation != "reduced" && s.mechanism_formulation != "absolute")
    fail("simulation", "mechanism_formulation",
         "must be \"absolute\" or \"reduced\", not \"" + s.mechanism_formulation + "\"");
  positive(s.exchange_interval, "exchange_interval");
  if (s.coupling == "cosimulation" && s.exchange_interval > s.t_end)
    fail("simulation", "exchange_interval", "is longer than t_end");
  if (s.output_interval > s.t_end) fail("simulation", "output_interval", "is longer than t_end");
  if (s.t_end / s.output_interval > 5e7) fail("simulation", "output_interval", "would write more than 5e7 rows");
}

namespace {
thread_local std::string tCompilingFile;
}

const std::string& compilingFile() { return tCompilingFile; }

std::unique_ptr<System> Compiler::compile(const Project& pr, const std::string& file, const BuildOptions& options) {
  return compile(pr, file, CouplingRole::Monolithic, nullptr, options);
}

namespace {
// A component whose data attaches it to the mechanism (the co-simulation's
// mechanical side keeps only these).
bool attached(const Component& c) { return c.data.is_object() && c.data.contains("attach"); }

// The markers and joints the components attach to: the mechanism keeps
// their parts as bodies of their own (never lumped into another).
mb::ExternalLoads externalLoads(const Project& pr) {
  mb::ExternalLoads loads;
  for (const Component& c : pr.components) {
    if (!attached(c) || !c.data["attach"].is_object()) continue;
    const auto& a = c.data["attach"];
    for (const char* k : {"barrel", "rod"})
      if (a.contains(k) && a[k].is_string()) loads.markers.insert(a[k].get<std::string>());
    if (a.contains("joint") && a["joint"].is_string()) loads.joints.insert(a["joint"].get<std::string>());
  }
  return loads;
}

}  // namespace

std::unique_ptr<System> Compiler::compile(const Project& pr, const std::string& file, CouplingRole role,
                                          Backplane* backplane, const BuildOptions& options) {
  validateProject(pr, file);
  struct FileScope {
    explicit FileScope(const std::string& f) { tCompilingFile = f; }
    ~FileScope() { tCompilingFile.clear(); }
  } fileScope(file);
  const auto& reg = Registry::instance();
  auto sys = std::make_unique<System>();
  sys->role_ = role;
  sys->backplane_ = backplane;
  sys->options_ = options;
  sys->pAmb_ = pr.simulation.ambient_pressure;
  sys->TAmb_ = pr.simulation.ambient_temperature;
  sys->atolPosition_ = pr.simulation.abs_tol_position;
  sys->relTol_ = pr.simulation.rel_tol;

  // Nets: union-find over every pneumatic port.
  UnionFind uf;
  std::map<std::string, int> portIndex;
  std::vector<std::string> portName;
  for (const Component& c : pr.components)
    for (const PortDecl& p : reg.find(c.type)->ports)
      if (p.domain == Domain::Pneumatic) {
        portIndex[c.id + "." + p.name] = uf.add();
        portName.push_back(c.id + "." + p.name);
      }
  std::vector<int> degree(portName.size(), 0);
  for (const Connection& k : pr.connections) {
    const int a = portIndex.at(k.from.str()), b = portIndex.at(k.to.str());
    uf.join(a, b);
    ++degree[a];
    ++degree[b];
  }
  std::map<int, int> netNode;  // union-find root -> node
  int ambientNode = -1;
  auto nodeFor = [&](const Component& c, const PortDecl& p) -> int {
    const int idx = portIndex.at(c.id + "." + p.name);
    if (degree[idx] == 0) {
      if (!p.vents_when_open) return -1;  // plugged
      if (ambientNode < 0) {
        Node n;
        n.name = "ambient";
        n.boundaryOwner = "ambient (open exhaust ports)";
        const double pa = sys->pAmb_, Ta = sys->TAmb_;
        n.boundary = [pa, Ta](double, double& p, double& T) { p = pa; T = Ta; };
        sys->nodes_.push_back(n);
        ambientNode = static_cast<int>(sys->nodes_.size()) - 1;
      }
      sys->nodes_[ambientNode].members.push_back(portName[idx]);
      return ambientNode;
    }
    const int root = uf.find(idx);
    auto it = netNode.find(root);
    if (it == netNode.end()) {
      Node n;
      // Deterministic name: the alphabetically first port of the net.
      std::string first;
      for (size_t i = 0; i < portName.size(); ++i)
        if (uf.find(static_cast<int>(i)) == root && (first.empty() || portName[i] < first)) first = portName[i];
      n.name = "n:" + first;
      sys->nodes_.push_back(n);
      it = netNode.emplace(root, static_cast<int>(sys->nodes_.size()) - 1).first;
    }
    sys->nodes_[it->second].members.push_back(portName[idx]);
    return it->second;
  };

  std::vector<SignalInput*> pending;
  std::set<std::string> held;  // "<id>.<signal>" constant between events
  for (const Component& c : pr.components)
    if (const ComponentType* t = reg.find(c.type); t && t->held_outputs)
      for (const std::string& name : t->held_outputs(c)) held.insert(c.id + "." + name);
  // The mechanism is set up first (cylinders attach to its parts during
  // their own setup) and evaluated last (it applies their forces).
  std::unique_ptr<Element> mechEl;
  System::Footprint mechFootprint;
  std::pair<int, int> mechChannels{0, 0};
  if (!pr.mechanism.empty() && role != CouplingRole::Pneumatic) {
    int firstChannel = -1;
    try {
      const std::string& formulation = pr.simulation.mechanism_formulation;
      auto el = std::make_unique<MechanismElement>(pr.mechanism, formulation, externalLoads(pr));
      SystemBuilder b(*sys, *el, {});
      b.pending_ = &pending;
      b.held_ = &held;
      el->setup(b);
      firstChannel = b.firstChannel_;
      mechFootprint = std::move(b.footprint_);
      mechEl = std::move(el);
    } catch (const ProjectError&) {
      throw;
    } catch (const std::exception& e) {
      throwMechanismError(file, e.what());
    }
    const int total = static_cast<int>(sys->channels_.size());
    mechChannels = {firstChannel < 0 ? 0 : firstChannel, firstChannel < 0 ? 0 : total - firstChannel};
  }
  for (const Component& c : pr.components) {
    if (role == CouplingRole::Mechanical && !attached(c)) continue;
    const ComponentType* t = reg.find(c.type);
    std::unique_ptr<Element> el;
    int firstChannel = -1;
    try {
      el = t->create(c);
      std::map<std::string, int> ports;
      for (const PortDecl& p : t->ports)
        if (p.domain == Domain::Pneumatic)  // the mechanical side has no circuit: ports plugged
          ports[p.name] = role == CouplingRole::Mechanical ? -1 : nodeFor(c, p);
      SystemBuilder b(*sys, *el, ports);
      b.pending_ = &pending;
      b.held_ = &held;
      el->setup(b);
      firstChannel = b.firstChannel_;
      sys->footprints_.push_back(std::move(b.footprint_));
    } catch (const ProjectError&) {
      throw;
    } catch (const std::logic_error& e) {
      // A defect of the program (a type reading a parameter it does not
      // declare, ...): nothing in the file can fix it, so it is no project
      // error (exit 1, not 2) and names no field.
      throw std::logic_error((file.empty() ? std::string("project") : file) + ": object '" + c.id + "' (" + c.type +
                             "): internal error, not a fault of the project: " + e.what());
    } catch (const std::exception& e) {
      // Elements report "params.x0: message"; split off the field.
      const std::string w = e.what();
      const auto colon = w.find(": ");
      const bool hasField = colon != std::string::npos && w.find(' ') > colon;
      throw ProjectError(file, c.id, hasField ? w.substr(0, colon) : "", hasField ? w.substr(colon + 2) : w);
    }
    const int total = static_cast<int>(sys->channels_.size());
    sys->elementChannels_.emplace_back(firstChannel < 0 ? 0 : firstChannel, firstChannel < 0 ? 0 : total - firstChannel);
    sys->elements_.push_back(std::move(el));
  }

  if (mechEl) {
    sys->footprints_.push_back(std::move(mechFootprint));
    sys->elementChannels_.push_back(mechChannels);
    sys->elements_.push_back(std::move(mechEl));
  }

  // Node kinds and their states.
  for (Node& n : sys->nodes_) {
    const std::string nm = n.name;
    auto add = [&](const std::string& q, const std::string& unit, StateKind k, double init, double atol,
                   const std::string& eq) {
      sys->states_.push_back({nm + "." + q, unit, nm, eq, k, init, atol});
      return sys->size() - 1;
    };
    const double atolP = pr.simulation.abs_tol_pressure, atolT = pr.simulation.abs_tol_temperature;
    if (n.boundary) {
      n.kind = NodeKind::Boundary;
      n.slotM = add("m_delivered", "kg", StateKind::Differential, 0.0, 1e-12,
                    "dm/dt - (-sum q_into_net)   [mass delivered by " + n.boundaryOwner + "]");
      n.slotH = add("H_delivered", "J", StateKind::Differential, 0.0, 1e-6,
                    "dH/dt - (-cp sum q T*)   [enthalpy delivered]");
    } else if (n.initV > 0.0) {
      n.kind = NodeKind::Capacity;
      const double p0 = n.initPV / n.initV, T0 = n.isothermal ? n.Twall : n.initTV / n.initV;
      n.slotP = add("p", "Pa", StateKind::Differential, p0, atolP,
                    n.isothermal ? "dp/dt - (R T sum q - p dV/dt) / V   [isothermal volume]"
                                 : "dp/dt - (k R sum(q T*) - k p dV/dt + (k-1) Qdot) / V   [mass + energy]");
      n.slotT = n.isothermal
                    ? add("T", "K", StateKind::Algebraic, T0, atolT, "T - T_wall")
                    : add("T", "K", StateKind::Differential, T0, atolT,
                          "dT/dt - R T/(p V) sum q (k T* - T) + (k-1) T dV/dt / V - (k-1) T Qdot/(p V)");
    } else {
      n.kind = NodeKind::Junction;
      // Tighter than volumes: a junction's pressure error turns straight into
      // a mass-balance error (dq/dp ~ 1e-7 kg/(s Pa)), nothing buffers it.
      n.slotP = add("p", "Pa", StateKind::Algebraic, sys->pAmb_, 1e-3 * atolP, "sum q   [mass balance of a junction]");
      n.slotT = add("T", "K", StateKind::Algebraic, sys->TAmb_, 1e-3 * atolT,
                    "T (sum q_in + eps) - (sum q_in T_in + eps T_amb)   [enthalpy balance]");
    }
  }
  // Node channels follow the element channels.
  sys->firstNodeChannel_ = static_cast<int>(sys->channels_.size());
  for (const Node& n : sys->nodes_) {
    // A volume named after its owner may already publish the same channel
    // (reservoir "tank.p"); the node's copy then stays out of the list, and
    // System::outputs skips it the same way.
    auto ch = [&](const char* q, const char* u) {
      const std::string name = n.name + "." + q;
      const bool dup = std::any_of(sys->channels_.begin(), sys->channels_.begin() + sys->firstNodeChannel_,
                                   [&](const ChannelInfo& c) { return c.name == name; });
      sys->nodeChannelUsed_.push_back(!dup);
      if (!dup) sys->channels_.push_back({name, u});
    };
    switch (n.kind) {
      case NodeKind::Boundary: ch("q", "kg/s"); ch("m_delivered", "kg"); ch("H_delivered", "J"); break;
      case NodeKind::Junction: ch("p", "Pa"); ch("T", "K"); break;
      case NodeKind::Capacity: ch("p", "Pa"); ch("T", "K"); ch("m", "kg"); ch("V", "m3"); break;
    }
  }

  // Signals by reference.
  auto unknown = [&](const std::string& ref, const std::string& owner, const std::string& field) {
    std::string known;
    const std::string target = ref.substr(0, ref.find('.'));
    for (const auto& [name, f] : sys->signals_)
      if (name.rfind(target + ".", 0) == 0) known += (known.empty() ? "" : ", ") + name;
    return ProjectError(file, owner, field,
                        "unknown signal '" + ref + "'" +
                            (known.empty() ? " (that component publishes no signals)" : " (available: " + known + ")"));
  };
  for (SignalInput* in : pending) {
    auto it = sys->signals_.find(in->ref);
    if (it != sys->signals_.end()) {
      in->read = it->second.read;
      in->readsStatesOnly = it->second.readsStatesOnly;
    } else if (role == CouplingRole::Pneumatic && backplane && mechanismObject(pr.mechanism, in->ref)) {
      // The mechanical System resolves it (below, compiled second).
      const int i = backplane->mechanismSignal(in->ref, in->owner, in->name);
      in->read = [backplane, i](const Eval& e) { return backplane->signalAt(i, e.t); };
    } else {
      throw unknown(in->ref, in->owner, in->name);
    }
  }
  if (role == CouplingRole::Mechanical && backplane)
    for (Backplane::Signal& s : backplane->mechanismSignals()) {
      auto it = sys->signals_.find(s.ref);
      if (it == sys->signals_.end()) throw unknown(s.ref, s.owner, s.field);
      s.read = it->second.read;
    }
  return sys;
}

}  // namespace pm
