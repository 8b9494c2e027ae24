#include "solver/system.h"

#include "model/message_text.h"
#include "solver/colored_jacobian.h"
#include "solver/matched_klu.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace pm {

namespace {
constexpr double kJunctionEps = 1e-9;  // kg/s, see system.h
}

// ---------------------------------------------------------------- System

System::System() = default;
System::~System() = default;

std::vector<double> System::initialState() const {
  std::vector<double> y(states_.size());
  for (size_t i = 0; i < states_.size(); ++i) y[i] = states_[i].initial;
  return y;
}

bool System::fillNodes(double t, const double* y, bool clearSums) {
  for (Node& n : nodes_) {
    if (n.kind == NodeKind::Boundary) {
      n.boundary(t, n.p, n.T);
    } else {
      n.p = y[n.slotP];
      n.T = y[n.slotT];
      if (!(n.p > 0.0) || !(n.T > 0.0)) return false;
    }
    if (!clearSums) continue;
    n.sumQ = n.sumQT = n.sumQin = n.sumQinT = n.sumOut = 0.0;
    n.V = n.dVdt = n.Q = 0.0;
  }
  if (clearSums) links_.clear();
  return true;
}

void System::evaluateAll(Eval& e, bool energy) {
  e.nodes_ = nodes_.data();
  e.massOnly_ = !energy;
  e.links_ = energy ? &links_ : nullptr;
  for (auto& el : elements_) el->evaluate(e);
  if (energy) handOffJunctionSurplus();
}

// Eval::flow has recorded the flows touching a junction, with their
// hand-off weights, and summed each junction's outflow weights (sumOut).
void System::handOffJunctionSurplus() {
  if (links_.empty()) return;
  listJunctions();
  Node* nodes = nodes_.data();
  // Per junction, before any hand-off: what its mixing equation balances,
  // minus what the flows carried in, T_j (sum w + eps) - sum w T_far - eps T_amb
  // + sum q T* - T_j sum q (= sum (w - q s)(T_j - T_far) + eps (T_j - T_amb)).
  // With both balances satisfied this is the energy that would pile up in
  // the junction; it is zero at rest, where w = eps_mix / 2 each and T_j is
  // its neighbours' mean. Handed on, energy is conserved to the solver's
  // tolerance on the junction's own equations, as with the old form.
  // Only junctions' entries of surplus_ are read below, and each is
  // written here, so the vector is not cleared at every evaluation.
  for (int j : junctions_) {
    const Node& n = nodes_[j];
    if (!(n.sumOut > 0.0)) {
      surplus_[j] = 0.0;
      continue;
    }
    const double G = n.T * (n.sumQin + kJunctionEps) - n.sumQinT - kJunctionEps * TAmb_ + n.sumQT - n.T * n.sumQ;
    surplus_[j] = G / n.sumOut;
  }
  // A neighbouring junction takes its share into its mixing equation (H_in):
  // it moves that junction's temperature, and so leaves with its outflows.
  auto give = [&](int k, double share) {
    Node& n = nodes[k];
    (n.kind == NodeKind::Junction ? n.sumQinT : n.sumQT) += share;
  };
  for (const JunctionLink& l : links_) {
    if (nodes[l.from].kind == NodeKind::Junction) give(l.to, surplus_[l.from] * l.weight);
    if (nodes[l.to].kind == NodeKind::Junction) give(l.from, surplus_[l.to] * l.weightBack);
  }
}

int System::residual(double t, const double* y, const double* yp, double* res) {
  if (!fillNodes(t, y)) return 1;
  Eval e = makeEval(t, y, yp, res);
  try {
    evaluateAll(e);
  } catch (const RecoverableError& x) {
    refusalT_ = t;
    refusal_ = x.what();
    return 1;
  }
  return nodeResiduals(yp, res);
}

int System::nodeResiduals(const double* yp, double* res) const {
  const double R = gas_.R, kappa = gas_.kappa, cp = gas_.cp;
  for (const Node& n : nodes_) {
    switch (n.kind) {
      case NodeKind::Boundary:
        // Delivered = leaving the boundary into the circuit.
        res[n.slotM] = yp[n.slotM] + n.sumQ;
        res[n.slotH] = yp[n.slotH] + cp * n.sumQT;
        break;
      case NodeKind::Junction:
        res[n.slotP] = n.sumQ;
        res[n.slotT] = n.T * (n.sumQin + kJunctionEps) - (n.sumQinT + kJunctionEps * TAmb_);
        break;
      case NodeKind::Capacity: {
        if (!(n.V > 0.0)) return 1;
        if (n.isothermal) {
          // p V = m R T with T = T_wall: V dp/dt + p dV/dt = R T sum(q).
          res[n.slotP] = yp[n.slotP] - (R * n.T * n.sumQ - n.p * n.dVdt) / n.V;
          res[n.slotT] = n.T - n.Twall;
        } else {
          // Energy: V dp/dt = k R sum(q T*) - k p dV/dt + (k-1) Q   (seed 000, seed 003 eq. 10)
          res[n.slotP] = yp[n.slotP] - (kappa * R * n.sumQT - kappa * n.p * n.dVdt + (kappa - 1.0) * n.Q) / n.V;
          // T = p V / (m R) differentiated, with dm/dt = sum(q).
          const double dT = R * n.T / (n.p * n.V) * (kappa * n.sumQT - n.T * n.sumQ) -
                            (kappa - 1.0) * n.T * n.dVdt / n.V + (kappa - 1.0) * n.T * n.Q / (n.p * n.V);
          res[n.slotT] = yp[n.slotT] - dT;
        }
        break;
      }
    }
  }
  return 0;
}

int System::roots(double t, const double* y, const double* yp, double* g) {
  if (numRoots_ == 0) return 0;
  if (rootsNeedEvaluation_ < 0) {
    rootsNeedEvaluation_ = 0;
    for (auto [el, first] : rootOwners_)
      if (!el->rootsReadStatesOnly()) rootsNeedEvaluation_ = 1;
  }
  // Unevaluated, the roots read node pressures and temperatures, no sums.
  if (!fillNodes(t, y, rootsNeedEvaluation_ == 1)) return 1;
  scratch_.resize(states_.size());
  Eval e = makeEval(t, y, yp, scratch_.data());
  e.forRoots = true;
  e.stopsAtTimeEvents = stopsAtTimeEvents_;
  if (rootsNeedEvaluation_) evaluateAll(e, false);  // roots read no energy sums
  for (auto [el, first] : rootOwners_) el->roots(e, g + first);
  return 0;
}

bool System::updateDiscrete(double t, const double* y, const double* yp, bool initializing, EventResiduals* r) {
  ++discreteVersion_;
  scratch_.resize(states_.size());
  listJunctions();
  bool any = false;
  for (int pass = 0; pass < 100; ++pass) {
    if (!fillNodes(t, y)) throw std::runtime_error("non-physical state at an event");
    Eval e = makeEval(t, y, yp, scratch_.data());
    e.initializing = initializing;
    const bool wanted = r && ((pass == 0 && r->before) || r->after);
    // Of the rows an event compares (the algebraic ones), only a junction's
    // temperature reads energy sums.
    evaluateAll(e, wanted && !junctions_.empty());
    const bool ok = wanted && nodeResiduals(yp, scratch_.data()) == 0;
    if (pass == 0 && r && r->before) {
      r->beforeOk = ok;
      std::copy(scratch_.begin(), scratch_.end(), r->before);
    }
    bool changed = false;
    for (auto& el : elements_) changed = el->update(e) || changed;
    if (!changed) {
      if (r && r->after) {
        r->afterOk = ok;
        std::copy(scratch_.begin(), scratch_.end(), r->after);
      }
      return any;
    }
    any = true;
  }
  throw std::runtime_error("discrete logic does not settle at t = " + numberText(t) +
                           " s (a switching loop between valves, switches or sequences?)");
}

bool System::saveDiscrete(std::vector<double>& out) {
  out.clear();
  DiscreteState s(out);
  for (auto& el : elements_)
    if (!el->discrete(s)) return false;
  return true;
}

void System::loadDiscrete(const double* in) {
  DiscreteState s(in);
  for (auto& el : elements_) el->discrete(s);
}

bool System::idleWork() {
  for (auto& el : elements_)
    if (el->idleWork()) return true;
  return false;
}

double System::nextTimeEvent() const {
  double t = std::numeric_limits<double>::infinity();
  for (const auto& el : elements_) t = std::min(t, el->nextTimeEvent());
  return t;
}

void System::outputs(double t, const double* y, const double* yp, double* row) {
  scratch_.resize(states_.size());
  fillNodes(t, y);
  Eval e = makeEval(t, y, yp, scratch_.data());
  evaluateAll(e, false);  // a row reads p, T, volumes and the mass sums, no energy sums
  for (size_t i = 0; i < elements_.size(); ++i)
    if (elementChannels_[i].second > 0) elements_[i]->output(e, row + elementChannels_[i].first);
  int c = firstNodeChannel_;
  size_t k = 0;
  auto put = [&](double v) {
    if (nodeChannelUsed_[k++]) row[c++] = v;
  };
  for (const Node& n : nodes_) {
    switch (n.kind) {
      case NodeKind::Boundary:
        put(-n.sumQ);
        put(y[n.slotM]);
        put(y[n.slotH]);
        break;
      case NodeKind::Junction:
        put(n.p);
        put(n.T);
        break;
      case NodeKind::Capacity:
        put(n.p);
        put(n.T);
        put(n.p * n.V / (gas_.R * n.T));
        put(n.V);
        break;
    }
  }
}

void System::listJunctions() {
  if (junctionsListed_) return;  // the nodes' kinds are final once a run evaluates
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].kind == NodeKind::Junction) junctions_.push_back(static_cast<int>(i));
  surplus_.assign(nodes_.size(), 0.0);
  junctionsListed_ = true;
}

// The elements whose evaluations junction j's mass balance reads, in
// element order: those whose flows reach it (an element flows only into the
// nodes of its footprint), and the publishers of every signal they read that
// is not a function of t, y and discrete states alone (its value is what the
// publisher's evaluation left), theirs in turn. Evaluated alone, they give
// the balance of an evaluation of all, bit for bit: the same flows, summed
// in the same order. Empty (evaluate all) where a publisher is not known
// (a signal of the co-simulation's other side, or one whose name does not
// start with an element's id).
std::vector<Element*> System::elementsAt(int j) const {
  if (footprints_.size() != elements_.size()) return {};
  std::vector<char> in(elements_.size(), 0);
  std::vector<size_t> todo;
  for (size_t k = 0; k < elements_.size(); ++k) {
    const std::vector<int>& n = footprints_[k].nodes;
    if (std::find(n.begin(), n.end(), j) != n.end()) in[k] = 1, todo.push_back(k);
  }
  while (!todo.empty()) {
    const Element* reader = elements_[todo.back()].get();
    todo.pop_back();
    for (const auto& [el, input] : inputs_) {
      if (el != reader || !input->connected() || input->readsStatesOnly) continue;
      // "<id>.<name>" (SystemBuilder::publish): the element with the
      // longest id that prefixes the reference.
      size_t k = elements_.size(), longest = 0;
      for (size_t e = 0; e < elements_.size(); ++e) {
        const std::string& id = elements_[e]->id();
        if (id.size() > longest && input->ref.size() > id.size() && input->ref[id.size()] == '.' &&
            input->ref.compare(0, id.size(), id) == 0)
          k = e, longest = id.size();
      }
      if (k == elements_.size() || !signals_.count(input->ref)) return {};
      if (!in[k]) in[k] = 1, todo.push_back(k);
    }
  }
  std::vector<Element*> at;
  for (size_t k = 0; k < elements_.size(); ++k)
    if (in[k]) at.push_back(elements_[k].get());
  return at;
}

void System::presolveJunctions(double t, double* y, const double* yp) {
  listJunctions();
  const std::vector<int>& junctions = junctions_;
  if (junctions.empty()) return;
  if (bisectionElements_.size() != junctions.size())
    for (int j : junctions) bisectionElements_.push_back(elementsAt(j));
  scratch_.resize(states_.size());
  // The bisection needs only the mass balance (no energy sums, no
  // hand-off), and only of junction k (bisectionElements_: a fraction
  // of the cost where a mechanism is evaluated with the circuit); the mixing
  // temperature needs every element and the hand-off (a neighbouring
  // junction's share). The other elements' evaluations at the bisection's
  // states are not read: the full evaluation after it makes theirs again.
  auto balance = [&](size_t k, double& sumQ, double& Tmix, bool energy) {
    if (!fillNodes(t, y)) return false;
    Eval e = makeEval(t, y, yp, scratch_.data());
    const std::vector<Element*>& only = bisectionElements_[k];
    if (energy || only.empty()) {
      evaluateAll(e, energy);
    } else {
      e.nodes_ = nodes_.data();
      e.massOnly_ = true;
      for (Element* el : only) el->evaluate(e);
    }
    const Node& n = nodes_[junctions[k]];
    sumQ = n.sumQ;
    if (energy) Tmix = (n.sumQinT + kJunctionEps * TAmb_) / (n.sumQin + kJunctionEps);
    return true;
  };
  // Bracket: no junction can sit outside the range of the imposed and stored pressures.
  double lo = pAmb_, hi = pAmb_;
  fillNodes(t, y);
  for (const Node& n : nodes_)
    if (n.kind != NodeKind::Junction) lo = std::min(lo, n.p), hi = std::max(hi, n.p);
  for (int sweep = 0; sweep < 30; ++sweep) {
    double change = 0.0;
    for (size_t k = 0; k < junctions.size(); ++k) {
      Node& n = nodes_[junctions[k]];
      double a = lo, b = hi, q = 0.0, Tm = TAmb_;
      const double before = y[n.slotP];
      for (int it = 0; it < 60 && b - a > 1e-10 * hi; ++it) {
        y[n.slotP] = 0.5 * (a + b);
        if (!balance(k, q, Tm, false)) break;
        (q > 0.0 ? a : b) = y[n.slotP];
      }
      y[n.slotP] = 0.5 * (a + b);
      if (balance(k, q, Tm, true)) y[n.slotT] = Tm;
      change = std::max(change, std::abs(y[n.slotP] - before) / hi);
    }
    if (change < 1e-9) break;
  }
}

void System::checkStates(double t, const double* y, const double* yp) {
  // Nothing evaluates here (a check reads states and node values): the
  // nodes' sums are not read, so not cleared either.
  scratch_.resize(states_.size());
  fillNodes(t, y, false);
  Eval e = makeEval(t, y, yp, scratch_.data());
  for (const auto& el : elements_) el->checkState(e);
}

void System::withEval(double t, const double* y, const double* yp, const std::function<void(Eval&)>& f) {
  scratch_.resize(states_.size());
  fillNodes(t, y);
  Eval e = makeEval(t, y, yp, scratch_.data());
  f(e);
}

void System::makeConsistent(double t, double* y, double* yp) {
  ++discreteVersion_;  // a mechanism's new partition
  for (auto& el : elements_) el->makeConsistent(*this, t, y, yp);
}

std::vector<int> System::nodeSlots(int node) const {
  std::vector<int> v;
  const Node& n = nodes_[node];
  for (int s : {n.slotP, n.slotT, n.slotM, n.slotH})
    if (s >= 0) v.push_back(s);
  return v;
}

std::vector<std::vector<int>> System::sparsity(double t, const double* y0, const double* yp0) {
  const int N = size();
  std::vector<double> y(y0, y0 + N), yp(yp0, yp0 + N), r0(N), r1(N);
  std::vector<std::vector<int>> rows(N);
  if (residual(t, y.data(), yp.data(), r0.data()) != 0) return rows;
  for (int j = 0; j < N; ++j) {
    for (int which = 0; which < 2; ++which) {
      auto& v = which == 0 ? y : yp;
      const double save = v[j];
      const double h = 1e-6 * std::max(1.0, std::abs(save));
      v[j] = save + h;
      if (residual(t, y.data(), yp.data(), r1.data()) == 0)
        for (int i = 0; i < N; ++i)
          if (r1[i] != r0[i] && (rows[i].empty() || rows[i].back() != j)) rows[i].push_back(j);
      v[j] = save;
    }
  }
  return rows;
}

std::string System::describe() {
  std::ostringstream o;
  const int N = size();
  o << "States (" << N << "):\n";
  for (int i = 0; i < N; ++i) {
    const StateInfo& s = states_[i];
    o << "  [" << i << "] " << s.name << " [" << s.unit << "]  "
      << (s.kind == StateKind::Differential ? "differential" : "algebraic") << "  owner " << s.owner
      << "  initial " << s.initial << "\n      0 = " << s.equation << "\n";
  }
  o << "\nNodes (" << nodes_.size() << "):\n";
  for (const Node& n : nodes_) {
    o << "  " << n.name << "  "
      << (n.kind == NodeKind::Boundary ? "boundary" : n.kind == NodeKind::Capacity ? "volume" : "junction");
    if (n.kind == NodeKind::Capacity) {
      o << (n.isothermal ? " (isothermal)" : " (energy balance)") << ", volume from:";
      for (auto& v : n.volumeOwners) o << " " << v;
    }
    if (n.kind == NodeKind::Boundary) o << " imposed by " << n.boundaryOwner;
    o << "\n    ports:";
    for (auto& m : n.members) o << " " << m;
    o << "\n";
  }
  // The pattern the solver's coloured Jacobian uses (structure + samples).
  std::vector<double> y = initialState(), yp(N, 0.0), r(N);
  residual(0.0, y.data(), yp.data(), r.data());
  for (int i = 0; i < N; ++i)
    if (states_[i].kind == StateKind::Differential) yp[i] = yp[i] - r[i];
  const ColoredJacobian jac(*this, 0.0, y.data(), yp.data());
  std::vector<std::string> rows(N, std::string(N, '.'));
  for (int j = 0; j < N; ++j)
    for (int i : jac.rowsOf(j)) rows[i][j] = 'x';
  o << "\nJacobian sparsity dF/dy + cj dF/dy' (" << N << " x " << N << ", " << jac.nonZeros()
    << " non-zeros, " << jac.colors() << " colours = residual evaluations per Jacobian; rows = equations,"
    << " columns = states):\n";
  for (int i = 0; i < N; ++i) o << "  " << rows[i] << "  " << states_[i].name << "\n";
  return o.str();
}

const Element* System::elementOf(int state) const {
  if (stateElement_.size() != states_.size()) {
    stateElement_.assign(states_.size(), -1);
    for (size_t e = 0; e < footprints_.size() && e < elements_.size(); ++e)
      for (int i : footprints_[e].states) stateElement_[i] = static_cast<int>(e);
  }
  const int e = stateElement_[state];
  return e < 0 ? nullptr : elements_[e].get();
}

bool System::secondOrder() const {
  return std::any_of(elements_.begin(), elements_.end(), [](const auto& e) { return e->integrationNeeds().secondOrder; });
}

bool System::residualHasHistory() const {
  return std::any_of(elements_.begin(), elements_.end(),
                     [](const auto& e) { return e->integrationNeeds().residualHasHistory; });
}

bool System::sparseJacobian(int n) const {
  using LS = IntegrationNeeds::LinearSolver;
  bool dense = false;
  for (const auto& e : elements_) {
    const LS want = e->integrationNeeds().linearSolver;
    if (want == LS::Sparse) return true;
    dense = dense || want == LS::Dense;
  }
  return !dense && n >= kSparseFrom;
}

std::string System::stateObject(int state) const {
  const StateInfo& s = states_[state];
  const Element* el = elementOf(state);
  if (el && s.name.rfind(s.owner + ".", 0) == 0) return el->stateObject(s.name.substr(s.owner.size() + 1));
  return s.owner;
}

}  // namespace pm
