// The runtime contract every component type implements. A project is compiled
// into a System of Elements; each Element asks the builder for nodes and state
// slots once (setup), then contributes to the residual F(t, y, y') = 0 at every
// evaluation, and may own root functions and a discrete state updated at events.
#pragma once

#include "element/discrete_state.h"
#include "element/node.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace pm {

class SystemBuilder;
class System;

enum class StateKind { Differential, Algebraic };

// The values one residual evaluation sees. Node pressures and temperatures are
// filled by the System before elements are called. The accessors are inline
// (several per element and evaluation).
class Eval {
 public:
  double t = 0.0;
  const double* y = nullptr;
  const double* yp = nullptr;
  double* res = nullptr;
  bool initializing = false;  // discrete update at the start: switch without delay
  // Evaluated for the root functions only: no element's residual rows are
  // read, so costly ones (a mechanism's accelerations) may be skipped.
  bool forRoots = false;
  // The solver ends a step at every Element::nextTimeEvent (Simulation::run
  // does, through IDA's stop time): a sample clock's root is then redundant.
  bool stopsAtTimeEvents = false;

  double p(int node) const { return node < 0 ? 0.0 : nodes_[node].p; }
  double T(int node) const { return node < 0 ? 0.0 : nodes_[node].T; }
  // Mass flow q [kg/s] from node `from` to node `to` (negative: reverse). The
  // enthalpy carried is taken at the upstream node's temperature (smoothly
  // blended below kMixEps). A plugged port (node -1) carries nothing.
  void flow(int from, int to, double q);
  void volume(int node, double V, double dVdt) {
    if (node < 0) return;
    nodes_[node].V += V;
    nodes_[node].dVdt += dVdt;
  }
  void heat(int node, double Qdot) {  // W into the gas
    if (node >= 0) nodes_[node].Q += Qdot;
  }
  // Sum of mass flows into a node so far (boundary elements read it in output()).
  double netInflow(int node) const { return node < 0 ? 0.0 : nodes_[node].sumQ; }

 private:
  friend class System;
  Node* nodes_ = nullptr;
  // Only the mass sums are read (System::evaluateAll(e, false): root
  // functions, result rows, ...): flow() leaves the energy sums alone.
  bool massOnly_ = false;
  std::vector<JunctionLink>* links_ = nullptr;  // recorded for System::handOffJunctionSurplus
};

// Width of the smooth upwind switch in Eval::flow [kg/s] (0.5 Nl/min ANR).
// A flow above it carries exactly its upstream node's temperature; below it
// the carried temperature blends the two, and a flow of zero carries
// nothing. A junction's temperature mixes its inflows with the smooth
// positive parts of the flows, eps / 2 each at rest: a smaller eps makes it
// hypersensitive to its pressure when only leakage flows (measured: 7 K per
// Pa at 1e-7, and 160000 steps for a valve closed onto a line).
constexpr double kMixEps = 1e-5;

inline void Eval::flow(int from, int to, double q) {
  if (from < 0 || to < 0 || from == to) return;
  Node& a = nodes_[from];
  Node& b = nodes_[to];
  a.sumQ -= q;
  b.sumQ += q;
  if (massOnly_) return;
  // Enthalpy (decision 0003): q T*, T* = s T_a + (1 - s) T_b with the C2
  // switch s = 1/2 + x (15 - 10 x^2 + 3 x^4) / 16, x = q / eps in (-1, 1):
  // seed 000's upstream temperature for |q| >= eps, differentiable through
  // q = 0 (a kink there stalls IDA's Newton iteration), and exactly zero at
  // q = 0, so resting neighbours exchange no heat. The limits are tested on
  // q itself: a flow outside (-eps, eps) needs no division (x is +-1 or
  // beyond exactly there, and the polynomial is exactly 0 or 1 at x = +-1).
  double qs = 0.0;  // q s
  if (q >= kMixEps) {
    qs = q;
  } else if (q > -kMixEps) {
    const double x = q / kMixEps, x2 = x * x;
    qs = q * (0.5 + x * (15.0 + x2 * (3.0 * x2 - 10.0)) * (1.0 / 16.0));
  }
  const double H = qs * a.T + (q - qs) * b.T;  // [kg K/s], times cp gives W
  a.sumQT -= H;
  b.sumQT += H;
  // A junction (no volume) mixes its inflows with the smooth positive parts
  // wb, wa of q and -q (wb - wa = q), positive and eps / 2 at rest, so its
  // temperature is a well-defined mean of its neighbours'. A flow of exactly
  // zero counts too: its weights do not switch on from nothing when it
  // stirs. Only junctions read these sums.
  const bool aJ = a.kind == NodeKind::Junction, bJ = b.kind == NodeKind::Junction;
  if (!aJ && !bJ) return;
  const double wb = 0.5 * (q + std::sqrt(q * q + kMixEps * kMixEps));
  const double wa = wb - q;
  if (bJ) {
    b.sumQin += wb;
    b.sumQinT += wb * a.T;
  }
  if (aJ) {
    a.sumQin += wa;
    a.sumQinT += wa * b.T;
  }
  // Recorded for System::handOffJunctionSurplus, which hands a junction's
  // energy surplus on to where its gas goes: in proportion to the
  // junction's outflows, whose sums are taken here, in the same pass.
  if (!links_) return;
  JunctionLink l{from, to, q};
  handOffWeights(q, l.weight, l.weightBack);
  if (aJ) a.sumOut += l.weight;
  if (bJ) b.sumOut += l.weightBack;
  links_->push_back(l);
}

// What an element may ask of the System it is part of, outside its own
// evaluate(): an evaluation at a state of its choosing, node pressures and
// temperatures filled in and no residual written (a mechanism's consistent
// start; an analysis holding the circuit at a state).
class Evaluator {
 public:
  virtual void withEval(double t, const double* y, const double* yp, const std::function<void(Eval&)>& f) = 0;

 protected:
  ~Evaluator() = default;
};

// A signal or any scalar of the model that other elements can read by name:
// "<component id>.<channel>". Resolved after all elements are set up.
struct SignalInput {
  std::string owner; // reading component id, for messages
  std::string name;  // field on the reading component ("inputs.sol14", "data.steps[2].when")
  std::string ref;   // "cyl1.x"
  std::function<double(const Eval&)> read;
  // The source reads only t, y, y' and discrete state (see
  // SystemBuilder::publish), so a root check may read it unevaluated.
  bool readsStatesOnly = false;
  bool connected() const { return static_cast<bool>(read); }
  double operator()(const Eval& e) const { return read ? read(e) : 0.0; }
};

// What an element asks of the integrator beyond its equations (a mechanism
// now, flexible bodies next). The solver combines the answers of all
// elements of a System; the defaults ask for nothing.
struct IntegrationNeeds {
  // Second-order (mechanical) dynamics: positions, velocities and either
  // index-2 multipliers or independent coordinates. The solver then keeps
  // every algebraic state out of IDA's local error test (multipliers must
  // stay out: Brenan, Campbell, Petzold; the others follow from the tested
  // states), reuses difference-quotient Jacobians between steps (a fresh one
  // costs tens of residuals), and computes the result rows on a copy of the
  // System (they solve for reactions).
  bool secondOrder = false;
  // The residual depends on a state the element carries between
  // evaluations (an expansion anchor that follows the motion), so a copy of
  // the System could give a residual different in the last bits: no
  // Jacobian columns are computed on the copy.
  bool residualHasHistory = false;
  // The fraction of their scale by which the element's states are moved
  // when the Jacobian's pattern is sampled (1: the default moves; smaller
  // where a large move leaves the states' valid region, as a mechanism's
  // independent coordinates leave the poses where its loops close).
  double samplingMove = 1.0;
  // The linear solver the element's equations call for. Auto leaves the
  // choice to the system's size (solver/matched_klu.h's kSparseFrom); an
  // element whose Jacobian block is sparse however small the system (a long
  // chain of beam nodes) may ask for Sparse, one whose block is dense and
  // large may ask for Dense. Sparse wins when elements disagree: a dense
  // factorisation of a system someone found sparse is the costly mistake.
  enum class LinearSolver { Auto, Dense, Sparse };
  LinearSolver linearSolver = LinearSolver::Auto;
};

// What the copies of one run's System share (the solver's and the output
// thread's, solver/output_pipeline.h): an object per key (an element's id
// and what it is), made by the first copy that asks for it. The element
// that keeps it makes it safe to use from both threads.
class SharedAcrossCopies {
 public:
  template <class T>
  std::shared_ptr<T> get(const std::string& key) {
    std::lock_guard<std::mutex> lock(m_);
    std::shared_ptr<void>& p = items_[key];
    if (!p) p = std::make_shared<T>();
    return std::static_pointer_cast<T>(p);
  }

 private:
  std::mutex m_;
  std::map<std::string, std::shared_ptr<void>> items_;
};

// How the elements of a System build themselves (Compiler::compile hands
// it to them through SystemBuilder::options): what the copies of a run's
// System share, and switches that tests and pneumech-bench turn off to
// compare with (every run uses the defaults).
struct BuildOptions {
  // Null: nothing is shared (a System without copies).
  std::shared_ptr<SharedAcrossCopies> shared;
  // This System is the solver's (the others, on the output thread, follow it).
  bool solverCopy = false;
  // A mechanism of one degree of freedom in reduced coordinates tabulates
  // its expansion (mb::ReducedCoordinates); off: Newton at every evaluation.
  bool tabulateOneDof = true;
  // mb::MultibodyOptions: parts welded by fixed joints alone are lumped
  // into one rigid body; off: kept apart (the tests' reference).
  bool lumpFixedJoints = true;
  // mb::MultibodyOptions: every multibody decomposition dense.
  bool forceDense = false;
};

class Element {
 public:
  explicit Element(std::string id) : id_(std::move(id)) {}
  virtual ~Element() = default;
  Element(const Element&) = delete;
  Element& operator=(const Element&) = delete;

  const std::string& id() const { return id_; }

  // Ask for nodes, states, roots, channels and published signals.
  virtual void setup(SystemBuilder& b) = 0;
  // Add flows/volumes/heat to nodes; write residuals of own states.
  virtual void evaluate(Eval& e) = 0;
  // Root functions g[i] for i in [rootBegin, rootBegin + count) given at setup.
  virtual void roots(const Eval& e, double* g) { (void)e; (void)g; }
  // True when roots() reads nothing but t, y, y', node pressures and
  // temperatures and the element's discrete state: no flows, signals or
  // values cached by evaluate(). When every element with roots says so, a
  // root check skips the full evaluation (IDA checks roots at every step
  // and every output).
  virtual bool rootsReadStatesOnly() const { return false; }
  // Discrete update at an event (or at start). Returns true when a discrete
  // state changed, so dependent elements are updated again.
  virtual bool update(const Eval& e) {
    (void)e;
    noUpdate_ = true;
    return false;
  }
  // The element's discrete state for another copy of the System (the output
  // thread's, solver/output_pipeline.h): every field update() and operate()
  // change, listed once for saving and loading. False: the element cannot,
  // and the result rows stay on the solver's thread. The default holds for
  // an element without an update() of its own (known once the System's first
  // discrete update has run: this one then ran); an element that overrides
  // update() or operate() overrides this too.
  virtual bool discrete(DiscreteState& s) {
    (void)s;
    return noUpdate_;
  }
  // Write result channels (indices given by SystemBuilder::addChannel).
  virtual void output(const Eval& e, double* channels) = 0;
  // Completes a consistent start (at t0 and after events) where the generic
  // one cannot: index-2 multipliers and accelerations of a mechanism. May
  // evaluate the System; writes only the element's own states.
  virtual void makeConsistent(Evaluator& sys, double t, double* y, double* yp) {
    (void)sys, (void)t, (void)y, (void)yp;
  }
  // See IntegrationNeeds; asked once the System is built.
  virtual IntegrationNeeds integrationNeeds() const { return {}; }
  // The model object one of the element's states belongs to (`localName`
  // without the "<id>." prefix), for messages that name where a run failed:
  // the element itself, or one of the objects it speaks for (a mechanism's
  // part or joint).
  virtual std::string stateObject(const std::string& localName) const {
    (void)localName;
    return id_;
  }
  // Checks what only a run (integrating the dynamics) needs beyond what
  // compiling checks (a part without mass cannot be accelerated); throws
  // ProjectError naming `file`.
  virtual void checkForRun(const std::string& file) const { (void)file; }
  // Work worth doing ahead on the output thread's copy of the System while
  // it waits for rows (a mechanism's table nodes ahead of its motion): one
  // bounded piece; false when there is none. It must not change what any
  // later evaluation gives, only how soon.
  virtual bool idleWork() { return false; }
  // The next instant at which the element's equations change by the clock
  // alone (a controller's sample instant), infinity when none. The solver
  // ends a step exactly there, so such events fall on a step boundary.
  virtual double nextTimeEvent() const { return std::numeric_limits<double>::infinity(); }
  // A hand operation during a run (interactive mode): 1 pressed, 0 released.
  // Returns true when the element is operable and its state changed; the
  // solver then re-runs the discrete updates and restarts from there.
  virtual bool operate(double value) { (void)value; return false; }
  // Asked at every result row on the solver's side, from t, the states and
  // the node values (no evaluation): throws std::runtime_error, naming
  // the time and the objects, when the state no longer describes the
  // element's model (a mechanism whose loop has opened at a lock-up).
  virtual void checkState(const Eval& e) { (void)e; }

 private:
  std::string id_;
  bool noUpdate_ = false;
};

// Thrown from an element's evaluation when the state it was given is one it
// cannot evaluate but a smaller step would avoid (a mechanism whose
// constraints do not close there): the residual reports a recoverable error.
struct RecoverableError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace pm
