#include "build/compiler.h"

#include "build/subcircuit_expansion.h"
#include "build/validation.h"
#include "element/system_builder.h"
#include "mechanics/mechanism_element.h"
#include "model/component_type.h"
#include "model/project_error.h"
#include "pneumatics/gas.h"

#include <algorithm>
#include <map>
#include <set>

namespace pm {

namespace {

struct UnionFind {
  std::vector<int> parent;
  int add() {
    parent.push_back(static_cast<int>(parent.size()));
    return parent.back();
  }
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int a, int b) { parent[find(a)] = find(b); }
};

}  // namespace

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

// One compilation, as named steps in their order (the order of nodes,
// states and channels is the order of these steps).
class Compiler::Build {
 public:
  Build(const Project& pr, const std::string& file, CouplingRole role, Backplane* backplane,
        const BuildOptions& options);
  std::unique_ptr<System> result();

 private:
  void joinNets();           // union-find over every pneumatic port
  void collectHeldSignals();
  void setUpMechanism();     // first: cylinders attach to its parts during their setup
  void setUpComponent(const Component& c);
  void addMechanism();       // last: it applies the components' forces
  void nodeStates();         // node kinds and their states
  void nodeChannels();       // after the element channels
  void resolveSignals();     // signal inputs by reference
  int nodeFor(const Component& c, const PortDecl& p);
  ProjectError unknownSignal(const std::string& ref, const std::string& owner, const std::string& field) const;

  const Project& pr_;
  const std::string& file_;
  const CouplingRole role_;
  Backplane* const backplane_;
  const Registry& reg_ = Registry::instance();
  std::unique_ptr<System> sys_ = std::make_unique<System>();

  UnionFind uf_;
  std::map<std::string, int> portIndex_;
  std::vector<std::string> portName_;
  std::vector<int> degree_;
  std::map<int, int> netNode_;  // union-find root -> node
  int ambientNode_ = -1;

  std::vector<SignalInput*> pending_;
  std::set<std::string> held_;  // "<id>.<signal>" constant between events

  std::unique_ptr<Element> mechEl_;
  System::Footprint mechFootprint_;
  std::pair<int, int> mechChannels_{0, 0};
};

std::unique_ptr<System> Compiler::compile(const Project& pr, const std::string& file, CouplingRole role,
                                          Backplane* backplane, const BuildOptions& options) {
  validateProject(pr, file);
  if (!hasSubcircuits(pr)) return Build(pr, file, role, backplane, options).result();
  const Project flat = expandSubcircuits(pr, file);
  validateProject(flat, file, true, true);
  return Build(flat, file, role, backplane, options).result();
}

Compiler::Build::Build(const Project& pr, const std::string& file, CouplingRole role, Backplane* backplane,
                       const BuildOptions& options)
    : pr_(pr), file_(file), role_(role), backplane_(backplane) {
  System& sys = *sys_;
  sys.role_ = role;
  sys.backplane_ = backplane;
  sys.options_ = options;
  sys.pAmb_ = pr.simulation.ambient_pressure;
  sys.TAmb_ = pr.simulation.ambient_temperature;
  sys.atolPosition_ = pr.simulation.abs_tol_position;
  sys.relTol_ = pr.simulation.rel_tol;
  sys.gas_ = {gas::R, gas::kappa, gas::cp};  // what the nodes hold (air)
}

std::unique_ptr<System> Compiler::Build::result() {
  joinNets();
  collectHeldSignals();
  setUpMechanism();
  for (const Component& c : pr_.components)
    if (role_ != CouplingRole::Mechanical || attached(c)) setUpComponent(c);
  addMechanism();
  nodeStates();
  nodeChannels();
  resolveSignals();
  return std::move(sys_);
}

void Compiler::Build::joinNets() {
  for (const Component& c : pr_.components)
    for (const PortDecl& p : reg_.find(c.type)->ports)
      if (p.domain == Domain::Pneumatic) {
        portIndex_[c.id + "." + p.name] = uf_.add();
        portName_.push_back(c.id + "." + p.name);
      }
  degree_.assign(portName_.size(), 0);
  for (const Connection& k : pr_.connections) {
    const int a = portIndex_.at(k.from.str()), b = portIndex_.at(k.to.str());
    uf_.join(a, b);
    ++degree_[a];
    ++degree_[b];
  }
}

// The node of a component's port: its net's (made on first use), the
// ambient for an open exhaust port, -1 for a plugged one.
int Compiler::Build::nodeFor(const Component& c, const PortDecl& p) {
  System& sys = *sys_;
  const int idx = portIndex_.at(c.id + "." + p.name);
  if (degree_[idx] == 0) {
    if (!p.vents_when_open) return -1;  // plugged
    if (ambientNode_ < 0) {
      Node n;
      n.name = "ambient";
      n.boundaryOwner = "ambient (open exhaust ports)";
      const double pa = sys.pAmb_, Ta = sys.TAmb_;
      n.boundary = [pa, Ta](double, double& p, double& T) { p = pa; T = Ta; };
      sys.nodes_.push_back(n);
      ambientNode_ = static_cast<int>(sys.nodes_.size()) - 1;
    }
    sys.nodes_[ambientNode_].members.push_back(portName_[idx]);
    return ambientNode_;
  }
  const int root = uf_.find(idx);
  auto it = netNode_.find(root);
  if (it == netNode_.end()) {
    Node n;
    // Deterministic name: the alphabetically first port of the net.
    std::string first;
    for (size_t i = 0; i < portName_.size(); ++i)
      if (uf_.find(static_cast<int>(i)) == root && (first.empty() || portName_[i] < first)) first = portName_[i];
    n.name = "n:" + first;
    sys.nodes_.push_back(n);
    it = netNode_.emplace(root, static_cast<int>(sys.nodes_.size()) - 1).first;
  }
  sys.nodes_[it->second].members.push_back(portName_[idx]);
  return it->second;
}

void Compiler::Build::collectHeldSignals() {
  for (const Component& c : pr_.components)
    if (const ComponentType* t = reg_.find(c.type); t && t->held_outputs)
      for (const std::string& name : t->held_outputs(c)) held_.insert(c.id + "." + name);
}

void Compiler::Build::setUpMechanism() {
  if (pr_.mechanism.empty() || role_ == CouplingRole::Pneumatic) return;
  System& sys = *sys_;
  int firstChannel = -1;
  try {
    const std::string& formulation = pr_.simulation.mechanism_formulation;
    auto el = std::make_unique<MechanismElement>(pr_.mechanism, formulation, externalLoads(pr_));
    SystemBuilder b(sys, *el, {});
    b.pending_ = &pending_;
    b.held_ = &held_;
    b.file_ = &file_;
    el->setup(b);
    firstChannel = b.firstChannel_;
    mechFootprint_ = std::move(b.footprint_);
    mechEl_ = std::move(el);
  } catch (const ProjectError&) {
    throw;
  } catch (const std::exception& e) {
    throwMechanismError(file_, e.what());
  }
  const int total = static_cast<int>(sys.channels_.size());
  mechChannels_ = {firstChannel < 0 ? 0 : firstChannel, firstChannel < 0 ? 0 : total - firstChannel};
}

void Compiler::Build::setUpComponent(const Component& c) {
  System& sys = *sys_;
  const ComponentType* t = reg_.find(c.type);
  std::unique_ptr<Element> el;
  int firstChannel = -1;
  try {
    el = t->create(c);
    std::map<std::string, int> ports;
    for (const PortDecl& p : t->ports)
      if (p.domain == Domain::Pneumatic)  // the mechanical side has no circuit: ports plugged
        ports[p.name] = role_ == CouplingRole::Mechanical ? -1 : nodeFor(c, p);
    SystemBuilder b(sys, *el, ports);
    b.pending_ = &pending_;
    b.held_ = &held_;
    b.file_ = &file_;
    el->setup(b);
    firstChannel = b.firstChannel_;
    sys.footprints_.push_back(std::move(b.footprint_));
  } catch (const ProjectError&) {
    throw;
  } catch (const std::logic_error& e) {
    // A defect of the program (a type reading a parameter it does not
    // declare, ...): nothing in the file can fix it, so it is no project
    // error (exit 1, not 2) and names no field.
    throw std::logic_error((file_.empty() ? std::string("project") : file_) + ": object '" + c.id + "' (" + c.type +
                           "): internal error, not a fault of the project: " + e.what());
  } catch (const std::exception& e) {
    // Elements report "params.x0: message"; split off the field.
    const std::string w = e.what();
    const auto colon = w.find(": ");
    const bool hasField = colon != std::string::npos && w.find(' ') > colon;
    throw ProjectError(file_, c.id, hasField ? w.substr(0, colon) : "", hasField ? w.substr(colon + 2) : w);
  }
  const int total = static_cast<int>(sys.channels_.size());
  sys.elementChannels_.emplace_back(firstChannel < 0 ? 0 : firstChannel, firstChannel < 0 ? 0 : total - firstChannel);
  sys.elements_.push_back(std::move(el));
}

void Compiler::Build::addMechanism() {
  if (!mechEl_) return;
  sys_->footprints_.push_back(std::move(mechFootprint_));
  sys_->elementChannels_.push_back(mechChannels_);
  sys_->elements_.push_back(std::move(mechEl_));
}

void Compiler::Build::nodeStates() {
  System& sys = *sys_;
  for (Node& n : sys.nodes_) {
    const std::string nm = n.name;
    auto add = [&](const std::string& q, const std::string& unit, StateKind k, double init, double atol,
                   const std::string& eq) {
      sys.states_.push_back({nm + "." + q, unit, nm, eq, k, init, atol});
      return sys.size() - 1;
    };
    const double atolP = pr_.simulation.abs_tol_pressure, atolT = pr_.simulation.abs_tol_temperature;
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
      n.slotP = add("p", "Pa", StateKind::Algebraic, sys.pAmb_, 1e-3 * atolP, "sum q   [mass balance of a junction]");
      n.slotT = add("T", "K", StateKind::Algebraic, sys.TAmb_, 1e-3 * atolT,
                    "T (sum q_in + eps) - (sum q_in T_in + eps T_amb)   [enthalpy balance]");
    }
  }
}

void Compiler::Build::nodeChannels() {
  System& sys = *sys_;
  sys.firstNodeChannel_ = static_cast<int>(sys.channels_.size());
  for (const Node& n : sys.nodes_) {
    // A volume named after its owner may already publish the same channel
    // (reservoir "tank.p"); the node's copy then stays out of the list, and
    // System::outputs skips it the same way.
    auto ch = [&](const char* q, const char* u) {
      const std::string name = n.name + "." + q;
      const bool dup = std::any_of(sys.channels_.begin(), sys.channels_.begin() + sys.firstNodeChannel_,
                                   [&](const ChannelInfo& c) { return c.name == name; });
      sys.nodeChannelUsed_.push_back(!dup);
      if (!dup) sys.channels_.push_back({name, u});
    };
    switch (n.kind) {
      case NodeKind::Boundary: ch("q", "kg/s"); ch("m_delivered", "kg"); ch("H_delivered", "J"); break;
      case NodeKind::Junction: ch("p", "Pa"); ch("T", "K"); break;
      case NodeKind::Capacity: ch("p", "Pa"); ch("T", "K"); ch("m", "kg"); ch("V", "m3"); break;
    }
  }
}

ProjectError Compiler::Build::unknownSignal(const std::string& ref, const std::string& owner,
                                            const std::string& field) const {
  std::string known;
  const std::string target = ref.substr(0, ref.find('.'));
  for (const auto& [name, f] : sys_->signals_)
    if (name.rfind(target + ".", 0) == 0) known += (known.empty() ? "" : ", ") + name;
  return ProjectError(file_, owner, field,
                      "unknown signal '" + ref + "'" +
                          (known.empty() ? " (that component publishes no signals)" : " (available: " + known + ")"));
}

void Compiler::Build::resolveSignals() {
  System& sys = *sys_;
  Backplane* const backplane = backplane_;
  for (SignalInput* in : pending_) {
    auto it = sys.signals_.find(in->ref);
    if (it != sys.signals_.end()) {
      in->read = it->second.read;
      in->readsStatesOnly = it->second.readsStatesOnly;
    } else if (role_ == CouplingRole::Pneumatic && backplane && namesMechanismObject(pr_.mechanism, in->ref)) {
      // The mechanical System resolves it (below, compiled second).
      const int i = backplane->mechanismSignal(in->ref, in->owner, in->name);
      in->read = [backplane, i](const Eval& e) { return backplane->signalAt(i, e.t); };
    } else {
      throw unknownSignal(in->ref, in->owner, in->name);
    }
  }
  if (role_ == CouplingRole::Mechanical && backplane)
    for (Backplane::Signal& s : backplane->mechanismSignals()) {
      auto it = sys.signals_.find(s.ref);
      if (it == sys.signals_.end()) throw unknownSignal(s.ref, s.owner, s.field);
      s.read = it->second.read;
      s.step = it->second.step;
    }
}

}  // namespace pm
