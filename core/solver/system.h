// The compiled runtime model: nodes (pneumatic nets and internal volumes),
// elements, and one state vector y with its residual F(t, y, y') = 0.
//
// Node kinds, decided once after all elements are set up:
//  - Boundary: p and T imposed by a supply/atmosphere element (seed 000:
//    0 = p - p(t), 0 = T - T(t)); it owns two accumulator states, the mass and
//    the enthalpy it has delivered, so air consumption and the energy balance
//    are exact integrals rather than sums of samples.
//  - Capacity: a net holding at least one volume (chamber, tube, reservoir);
//    differential p and T from mass and energy conservation (seed 000 volume
//    equations, seed 003 eq. 10), with wall heat flow; isothermal volumes
//    have T fixed at the wall temperature instead.
//  - Junction: a net without volume (seed 000 flow divider); algebraic mass
//    balance sum(q) = 0 and enthalpy balance written as a mixing temperature
//    T * (sum q_in + eps) = sum(q_in * T_in) + eps * T_ambient + H_in;
//    eps = 1e-9 kg/s keeps T defined when nothing flows. The inflow q_in of
//    each flow is a smooth positive part, (q + sqrt(q^2 + eps_mix^2))/2 with
//    eps_mix = 1e-5 kg/s, so T stays continuous when a flow reverses (a jump
//    there stalls Newton). The energy this mixing leaves unbalanced against
//    the enthalpy the flows carry goes to the junction's neighbours (H_in for
//    a neighbouring junction): see handOffJunctionSurplus and decision 0003.
#pragma once

#include "element/backplane.h"
#include "element/element.h"
#include "element/footprint.h"
#include "element/system_builder.h"
#include "model/project.h"
#include "solver/channel_info.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <limits>
#include <string>
#include <vector>

namespace pm {

struct StateInfo {
  std::string name;   // "cyl1.x", "n:v1.4.p"
  std::string unit;
  std::string owner;  // element id or node name
  std::string equation;
  StateKind kind = StateKind::Differential;
  double initial = 0.0;
  double atol = 1e-6;
};

class System final : public Evaluator {
 public:
  System();
  ~System();

  int size() const { return static_cast<int>(states_.size()); }
  int numRoots() const { return numRoots_; }
  const std::vector<StateInfo>& states() const { return states_; }
  const std::vector<ChannelInfo>& channels() const { return channels_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<std::unique_ptr<Element>>& elements() const { return elements_; }
  double ambientPressure() const { return pAmb_; }
  double ambientTemperature() const { return TAmb_; }
  const NodeGas& gas() const { return gas_; }

  std::vector<double> initialState() const;

  // Returns 0 on success, 1 for a recoverable error (non-physical state).
  int residual(double t, const double* y, const double* yp, double* res);
  // The last evaluation an element refused (RecoverableError): its time and
  // text, for a failed run's message (a mechanism that cannot close its
  // loop past a dead point makes every step beyond fail).
  double lastRefusalTime() const { return refusalT_; }
  const std::string& lastRefusal() const { return refusal_; }
  int roots(double t, const double* y, const double* yp, double* g);
  // Discrete updates to a fixed point; true when anything changed. Each
  // pass evaluates every element, so the residuals before the updates and
  // after them come for free: their algebraic rows as residual() would give
  // them (an event between two steps compares those). The volumes' rows
  // lack the energy sums when no junction needs them.
  struct EventResiduals {
    double* before = nullptr;  // where to write them (either may be null)
    double* after = nullptr;
    bool beforeOk = false, afterOk = false;  // residual() would have returned 0
  };
  bool updateDiscrete(double t, const double* y, const double* yp, bool initializing, EventResiduals* r = nullptr);
  void outputs(double t, const double* y, const double* yp, double* row);
  // Element::checkState of every element (a result row's health check).
  void checkStates(double t, const double* y, const double* yp);
  // The elements' discrete states (Element::discrete) in element order, for
  // a second copy of this System (the output thread's); false when an element
  // cannot give its own. Meaningful after the first updateDiscrete().
  bool saveDiscrete(std::vector<double>& out);
  void loadDiscrete(const double* in);
  // Counts the calls that may change a discrete state (updateDiscrete,
  // makeConsistent, hand operations): a copy needs a new saveDiscrete()
  // only when this moved.
  unsigned long discreteVersion() const { return discreteVersion_; }
  void discreteMayHaveChanged() { ++discreteVersion_; }
  // One piece of the elements' idle work (Element::idleWork); false when
  // none has any.
  bool idleWork();
  // The earliest of the elements' next clock instants (Element::nextTimeEvent).
  double nextTimeEvent() const;
  // The solver ends a step at every nextTimeEvent(): clock roots are off
  // (Eval::stopsAtTimeEvents).
  void setStopsAtTimeEvents(bool on) { stopsAtTimeEvents_ = on; }
  // Solves the junction balances for fixed differential states (bisection on
  // each junction pressure, Gauss-Seidel over junctions). Newton from a poor
  // guess fails on the square-root shape of the flow functions; this gives
  // IDA's consistent-initialisation a start it converges from.
  void presolveJunctions(double t, double* y, const double* yp);

  // Numerical sparsity of dF/dy + dF/dy' at (t, y, yp): entry (i, j) set when
  // residual i changes with state j.
  std::vector<std::vector<int>> sparsity(double t, const double* y, const double* yp);
  // Structural coupling per element (element/footprint.h), in element order.
  using Footprint = pm::Footprint;
  const std::vector<Footprint>& footprints() const { return footprints_; }
  // All state slots of a node (p, T or the boundary accumulators).
  std::vector<int> nodeSlots(int node) const;
  // Readable listing of states, equations and sparsity (`pneumech equations`).
  std::string describe();
  // Index-2 constraints present (a mechanism): the multipliers are kept out
  // of the error test and the start is made consistent by the elements.
  bool highIndex() const { return highIndex_; }
  void makeConsistent(double t, double* y, double* yp);
  // Runs `f` with an Eval whose node pressures and temperatures are filled
  // from y (no residual is written).
  void withEval(double t, const double* y, const double* yp, const std::function<void(Eval&)>& f) override;
  CouplingRole couplingRole() const { return role_; }
  // The first element of type T, or null.
  template <class T>
  T* find() const {
    for (const auto& e : elements_)
      if (auto* t = dynamic_cast<T*>(e.get())) return t;
    return nullptr;
  }
  // The element that owns state i (null for a node's states).
  const Element* elementOf(int state) const;
  // What the elements ask of the integrator, combined (IntegrationNeeds):
  // true when any asks for it.
  bool secondOrder() const;
  bool residualHasHistory() const;
  // Whether IDA factorises a sparse Jacobian (KLU) for this system of n
  // states: the elements' IntegrationNeeds::linearSolver, else n >= kSparseFrom.
  bool sparseJacobian(int n) const;
  // The model object state i belongs to (Element::stateObject), else its owner.
  std::string stateObject(int state) const;

 private:
  // The nodes' own rows of the residual, from the sums evaluateAll left.
  int nodeResiduals(const double* yp, double* res) const;
  friend class SystemBuilder;
  friend class Compiler;
  // Node pressures and temperatures from y (false: not physical); with
  // clearSums, the per-evaluation sums start again from zero.
  bool fillNodes(double t, const double* y, bool clearSums = true);
  // energy: false sums only the mass flows (no energy sums, no
  // handOffJunctionSurplus), where only p, T, volumes and the mass sums are
  // read (root functions, result rows, the junction bisection).
  void evaluateAll(Eval& e, bool energy = true);
  // A junction has no volume: the energy its mixing weights leave unbalanced
  // against the carried enthalpy (zero at rest) goes to its neighbours, in
  // proportion to their mixing weights of it (decision 0003).
  void handOffJunctionSurplus();

  std::vector<std::unique_ptr<Element>> elements_;
  double refusalT_ = -std::numeric_limits<double>::infinity();
  std::string refusal_;
  std::vector<Node> nodes_;
  std::vector<StateInfo> states_;
  std::vector<ChannelInfo> channels_;
  std::vector<std::pair<int, int>> elementChannels_;  // per element: first channel, count
  int firstNodeChannel_ = 0;  // node channels follow element channels
  std::vector<bool> nodeChannelUsed_;  // per node quantity, in node order
  struct Published {
    std::function<double(const Eval&)> read;
    bool readsStatesOnly = false;  // see SystemBuilder::publish
    bool step = false;             // see SystemBuilder::publishNamed
  };
  std::map<std::string, Published> signals_;
  std::vector<std::pair<Element*, int>> rootOwners_;  // element, first root
  std::vector<Footprint> footprints_;                   // per element, in element order
  int numRoots_ = 0;
  unsigned long discreteVersion_ = 0;
  bool stopsAtTimeEvents_ = false;
  int rootsNeedEvaluation_ = -1;  // -1 not yet known (see Element::rootsReadStatesOnly)
  double pAmb_ = 101325.0, TAmb_ = 293.15;
  NodeGas gas_;
  double atolPosition_ = 1e-8;
  double relTol_ = 1e-6;
  std::vector<double> scratch_;
  // An evaluation at (t, y, yp) writing its rows to res; nodes filled by the caller.
  Eval makeEval(double t, const double* y, const double* yp, double* res) {
    Eval e;
    e.nodes_ = nodes_.data();
    e.t = t;
    e.y = y;
    e.yp = yp;
    e.res = res;
    return e;
  }
  std::vector<JunctionLink> links_;  // per evaluation (Eval::flow)
  std::vector<double> surplus_;      // per node, handOffJunctionSurplus
  std::vector<int> junctions_;       // the junction nodes, listed on first use
  bool junctionsListed_ = false;
  void listJunctions();
  std::vector<Element*> elementsAt(int junction) const;
  std::vector<std::vector<Element*>> bisectionElements_;  // per junctions_ entry (presolveJunctions)
  // Every bound signal input and the element it belongs to (SystemBuilder::input).
  std::vector<std::pair<const Element*, const SignalInput*>> inputs_;
  bool initializing_ = false;
  bool highIndex_ = false;
  std::vector<Element*> setUp_;  // in the order of their setup (see SystemBuilder::elementsSetUp)
  mutable std::vector<int> stateElement_;  // elementOf(), made on first use
  CouplingRole role_ = CouplingRole::Monolithic;
  BuildOptions options_;
  Backplane* backplane_ = nullptr;  // co-simulation only
};

}  // namespace pm
