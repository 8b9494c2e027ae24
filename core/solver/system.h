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
//    T * (sum q_in + eps) = sum(q_in * T_in) + eps * T_ambient; eps = 1e-9 kg/s
//    keeps T defined when nothing flows. The inflow q_in of each flow is a
//    smooth positive part, (q + sqrt(q^2 + eps_mix^2))/2 with eps_mix =
//    1e-5 kg/s, so T stays continuous when a flow reverses (a jump there
//    stalls Newton); see kMixEps in element.h for what this costs.
#pragma once

#include "model/project.h"
#include "solver/backplane.h"
#include "solver/element.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace pm {

class MechanismElement;

struct StateInfo {
  std::string name;   // "cyl1.x", "n:v1.4.p"
  std::string unit;
  std::string owner;  // element id or node name
  std::string equation;
  StateKind kind = StateKind::Differential;
  double initial = 0.0;
  double atol = 1e-6;
};

struct ChannelInfo {
  std::string name;  // "<object id>.<quantity>"
  std::string unit;
};

class System {
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

  std::vector<double> initialState() const;

  // Returns 0 on success, 1 for a recoverable error (non-physical state).
  int residual(double t, const double* y, const double* yp, double* res);
  int roots(double t, const double* y, const double* yp, double* g);
  // Discrete updates to a fixed point; true when anything changed. Each
  // pass evaluates every element, so the residuals before the updates and
  // after them come for free, as residual() would give them (an event
  // between two steps compares the two).
  struct EventResiduals {
    double* before = nullptr;  // where to write them (either may be null)
    double* after = nullptr;
    bool beforeOk = false, afterOk = false;  // residual() would have returned 0
  };
  bool updateDiscrete(double t, const double* y, const double* yp, bool initializing, EventResiduals* r = nullptr);
  void outputs(double t, const double* y, const double* yp, double* row);
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
  // Structural coupling: per element, the states it owns and the nodes it
  // touches (its ports and internal nodes), recorded by the builder. An
  // element's equations and flows can depend on all of these.
  struct Footprint {
    std::vector<int> states;
    std::vector<int> nodes;
    // When set, the element's equations couple only within each group (a
    // mechanism's parts and joints) instead of all its states together.
    std::vector<std::vector<int>> groups;
    // Single entries (row, column) of an exactly known structure.
    std::vector<std::pair<int, int>> entries;
    // States of other elements the element reads (columns only), and their
    // rows its outputs feed (rows only: a force on a mechanism's part).
    std::vector<int> reads, writes;
    // When set, the element's whole structure, block by block: the rows of
    // rowStates and of the nodes rowNodes read the columns colStates and
    // the nodes colNodes (a node's pressure and temperature together).
    // Nothing of the above is added then: not even the element's nodes
    // all-to-all, which an element with several chambers does not need.
    struct Block {
      std::vector<int> rowStates, rowNodes, colStates, colNodes;
    };
    std::vector<Block> blocks;
  };
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
  void withEval(double t, const double* y, const double* yp, const std::function<void(Eval&)>& f);
  MechanismElement* mechanism() const { return mechanism_; }
  CouplingRole couplingRole() const { return role_; }

 private:
  // The nodes' own rows of the residual, from the sums evaluateAll left.
  int nodeResiduals(const double* yp, double* res) const;
  friend class SystemBuilder;
  friend class Compiler;
  bool fillNodes(double t, const double* y);
  void evaluateAll(Eval& e);

  std::vector<std::unique_ptr<Element>> elements_;
  std::vector<Node> nodes_;
  std::vector<StateInfo> states_;
  std::vector<ChannelInfo> channels_;
  std::vector<std::pair<int, int>> elementChannels_;  // per element: first channel, count
  int firstNodeChannel_ = 0;  // node channels follow element channels
  std::vector<bool> nodeChannelUsed_;  // per node quantity, in node order
  struct Published {
    std::function<double(const Eval&)> read;
    bool readsStatesOnly = false;  // see SystemBuilder::publish
  };
  std::map<std::string, Published> signals_;
  std::vector<std::pair<Element*, int>> rootOwners_;  // element, first root
  std::vector<Footprint> footprints_;                   // per element, in element order
  int numRoots_ = 0;
  unsigned long discreteVersion_ = 0;
  bool stopsAtTimeEvents_ = false;
  int rootsNeedEvaluation_ = -1;  // -1 not yet known (see Element::rootsReadStatesOnly)
  double pAmb_ = 101325.0, TAmb_ = 293.15;
  double atolPosition_ = 1e-8;
  double relTol_ = 1e-6;
  std::vector<double> scratch_;
  bool initializing_ = false;
  bool highIndex_ = false;
  MechanismElement* mechanism_ = nullptr;
  CouplingRole role_ = CouplingRole::Monolithic;
  Backplane* backplane_ = nullptr;  // co-simulation only
};

// Handed to Element::setup: the only way an element joins the system.
class SystemBuilder {
 public:
  SystemBuilder(System& s, Element& e, std::map<std::string, int> ports);

  // Node of one of the element's pneumatic ports; -1 when plugged.
  int port(const std::string& name);
  // A node private to the element (a chamber behind a cushion throttle, ...).
  int internalNode(const std::string& name);
  // Declares that `node` holds gas volume (initial V0 at p0, T0).
  void capacity(int node, const std::string& owner, double V0, double p0, double T0,
                bool isothermal, double Twall);
  // Imposes p(t), T(t) on a node.
  void boundary(int node, std::function<void(double t, double& p, double& T)> pt);

  int state(const std::string& name, const std::string& unit, StateKind kind, double initial,
            double atol, const std::string& equation);
  int roots(int count);
  // Result channel "<id>.<quantity>"; returns its index within the element's
  // output() array (channels of one element are contiguous).
  int channel(const std::string& quantity, const std::string& unit);
  // Makes "<id>.<name>" readable by other elements. readsStatesOnly: the
  // value depends on nothing evaluate() computes (Element::rootsReadStatesOnly).
  void publish(const std::string& name, std::function<double(const Eval&)> value, bool readsStatesOnly = false);
  // Binds a signal input to a reference; resolved after all setups.
  void input(SignalInput& in, const std::string& name, const std::string& ref);
  // True when `ref` names a signal that changes only at events (see
  // ComponentType::held_outputs): constant between two discrete updates.
  bool held(const std::string& ref) const { return held_ && held_->count(ref) > 0; }
  // A result channel or signal named in full ("<part>.x"), for elements
  // that speak for several objects of the model (the mechanism).
  int channelNamed(const std::string& name, const std::string& unit);
  void publishNamed(const std::string& name, std::function<double(const Eval&)> value);
  // States (indices returned by state()) whose equations couple only among
  // themselves; see Footprint::groups.
  void couple(std::vector<int> states) { footprint_.groups.push_back(std::move(states)); }
  void entries(std::vector<std::pair<int, int>> rowColumn) {
    footprint_.entries.insert(footprint_.entries.end(), rowColumn.begin(), rowColumn.end());
  }
  void highIndex() { sys_.highIndex_ = true; }
  // States of other elements this element's equations read, and the rows
  // of other elements its outputs feed (a cylinder attached to a
  // mechanism's parts reads their positions and velocities and pushes on
  // their momentum rows).
  // See Footprint::blocks (replaces the element's default structure).
  void block(System::Footprint::Block b) { footprint_.blocks.push_back(std::move(b)); }
  void touches(const std::vector<int>& reads, const std::vector<int>& writes) {
    footprint_.reads.insert(footprint_.reads.end(), reads.begin(), reads.end());
    footprint_.writes.insert(footprint_.writes.end(), writes.begin(), writes.end());
  }
  // The project's mechanism (set up before the components), or null.
  MechanismElement* mechanism() const { return sys_.mechanism_; }
  // Co-simulation: which side this System is, and the exchange between the
  // two (null when monolithic).
  CouplingRole couplingRole() const { return sys_.role_; }
  Backplane* backplane() const { return sys_.backplane_; }

  double ambientPressure() const { return sys_.pAmb_; }
  double ambientTemperature() const { return sys_.TAmb_; }
  double absTolPosition() const { return sys_.atolPosition_; }
  // The run's relative tolerance: the absolute tolerance of quantities
  // normalised to full scale (a spool position of 1 = fully open).
  double relTol() const { return sys_.relTol_; }

 private:
  friend class Compiler;
  System& sys_;
  Element& el_;
  std::map<std::string, int> ports_;
  std::vector<SignalInput*>* pending_ = nullptr;
  const std::set<std::string>* held_ = nullptr;
  System::Footprint footprint_;
  int firstChannel_ = -1;
};

}  // namespace pm
