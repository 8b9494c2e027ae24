// The mechanism as one element of the System: it owns every multibody state
// (parts, multipliers), writes their residuals, and tells the solver which of
// them couple (part by part, joint by joint) so the Jacobian stays sparse.
#pragma once

#include "element/element.h"
#include "mechanics/multibody.h"
#include "mechanics/reduced_coordinates.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pm {

// Two formulations of the same equations (simulation.mechanism_formulation):
//  - absolute: every part's 14 absolute-coordinate states and two multipliers
//    per constraint row, a stabilised index-2 DAE (multibody.h);
//  - reduced: coordinate partitioning (reduced_coordinates.h), an ODE in the
//    mechanism's degrees of freedom; the absolute state is expanded from it
//    at every evaluation (local()).
class MechanismElement : public Element {
 public:
  // loads: the markers and joints the circuit's actuators act on. The
  // multibody system is built by setup() (with SystemBuilder::options()).
  explicit MechanismElement(const Mechanism& m, std::string formulation = "absolute",
                            const mb::ExternalLoads& loads = {});
  mb::MultibodySystem& multibody() { return *mb_; }
  int firstState() const { return base_; }
  bool reduced() const { return rc_ != nullptr; }
  const mb::ReducedCoordinates* reducedCoordinates() const { return rc_.get(); }
  // The mechanism's absolute-coordinate state for an evaluation: e.y's own
  // slots, or (reduced) the expansion of the independent coordinates, cached
  // per (t, z, u). Throws RecoverableError when the constraints cannot be
  // closed there.
  const double* local(const Eval& e) const;

  void setup(SystemBuilder& b) override;
  void evaluate(Eval& e) override;
  void roots(const Eval& e, double* g) override;
  void output(const Eval& e, double* channels) override;
  void makeConsistent(Evaluator& sys, double t, double* y, double* yp) override;
  bool update(const Eval& e) override;
  bool discrete(DiscreteState& s) override;
  bool idleWork() override;
  // Joint limits, impacts and the partition's conditioning read positions
  // (and, reduced, their expansion) only.
  // (and the latches' signals, when those do).
  bool rootsReadStatesOnly() const override;
  IntegrationNeeds integrationNeeds() const override;
  // "<part or joint>.<quantity>": the part or joint.
  std::string stateObject(const std::string& localName) const override;
  // Every moving part has mass (the analyses accept a massless one).
  void checkForRun(const std::string& file) const override;
  // The position constraints still hold (MultibodySystem::constraintBreach).
  void checkState(const Eval& e) override;

  // An actuator acting along the line between two markers (seed 002 sec. 3:
  // x = |d|, xdot from the markers' relative velocity): `force(e)` pushes
  // the rod-end marker away from the barrel-end marker, equal and opposite.
  // Or, with joint >= 0, an actuator driving a joint's coordinate (a
  // semi-rotary actuator on a revolute joint): `force` is then the torque
  // (or force) on I's part along the coordinate.
  struct Attachment {
    std::string owner;
    int barrel = -1, rod = -1;  // marker indices
    std::function<double(const Eval&)> force;
    int joint = -1;
    // The attached element's own stroke (or angle) and rate states, with
    // x = coordinate - offset: written from the geometry when the circuit is
    // held for an analysis (holdCircuit).
    int xState = -1, vState = -1;
    double offset = 0.0;
  };
  int jointIndex(const std::string& id, bool revoluteOnly) const;
  const std::string& jointType(int joint) const { return mb_->jointType(joint); }
  double jointCoordinate(const Eval& e, int joint, double* rate) const;
  double initialJointCoordinate(int joint) const;
  std::vector<int> jointPartStates(int joint) const;
  // Resolves "part.marker"; throws with a message naming the reference.
  int markerIndex(const std::string& ref) const;
  void attach(Attachment a) { attachments_.push_back(std::move(a)); }
  bool hasAttachments() const { return !attachments_.empty(); }
  // Static and kinematic analyses with the circuit: the attached actuators
  // act with the node pressures of the System state `y` (held: the analyses
  // do not integrate the circuit) and their x, v from the mechanism's
  // positions and velocities at every evaluation.
  void holdCircuit(Evaluator& sys, std::vector<double> y);
  // Each attachment's force (or torque) at the local mechanism state y,
  // with the held circuit.
  std::vector<std::pair<std::string, double>> heldForces(const double* y);
  // Distance between two markers and its rate, from the states in e.y.
  double distance(const Eval& e, int barrel, int rod, double* rate) const;
  double initialDistance(int barrel, int rod) const;
  // States of the part carrying a marker (empty for the ground).
  std::vector<int> partStates(int marker) const;
  // Of a part's states (as partStates gives them), the momentum rows (v, w')
  // that an attached force feeds.
  std::vector<int> forceRows(const std::vector<int>& partStates) const;

 private:
  Mechanism mechanism_;
  mb::ExternalLoads loads_;
  std::unique_ptr<mb::MultibodySystem> mb_;  // null before setup()
  std::string formulation_;
  std::unique_ptr<mb::ReducedCoordinates> rc_;
  int base_ = 0;
  int nReduced_ = 0;  // z, u, windings
  bool repartition_ = false;
  // The copy's maker of table nodes ahead of the solver (idleWork()).
  std::unique_ptr<mb::ReducedCoordinates> ahead_;
  mutable std::vector<double> full_, key_, work_, workp_;
  mutable double keyT_ = 0.0;
  mutable bool keyValid_ = false;
  std::vector<mb::V3> F_, N_;
  std::vector<double> zdd_, rates_;  // evaluate()'s and output()'s scratch
  // The evaluation F_, N_ and zdd_ are of (reduced: output() reuses them).
  struct ForcesOf {
    const Eval* eval = nullptr;
    double t = 0.0;
    const double* y = nullptr;
  } forcesOf_;
  void setupReduced(SystemBuilder& b, const std::vector<mb::MultibodySystem::StateDecl>& decls);
  void setupAbsolute(SystemBuilder& b, const std::vector<mb::MultibodySystem::StateDecl>& decls);
  void publishSignals(SystemBuilder& b);
  void build(const BuildOptions& o);  // mb_ and its external forces
  std::vector<Attachment> attachments_;
  std::vector<std::string> jointIds_;
  // Latches (mechanism_latches.cpp): their signals, their roots after the
  // multibody system's (capture distance; signals that change between
  // events), and the engagements whose impulse makeConsistent applies.
  struct LatchInputs {
    SignalInput engage, release;
    bool engageRoot = false, releaseRoot = false;
  };
  std::vector<LatchInputs> latchIn_;
  std::vector<char> latchImpulse_;
  int latchRoots_ = 0;
  void setupLatches(SystemBuilder& b);
  // Latches given params.engaged = 1 engage at the assembled start y (the
  // mechanism's local state), its velocities made consistent by the impulse.
  void engageLatchesAtStart(std::vector<double>& y);
  // Magnitude of latch l's reaction force on I's part at y (0 while off).
  double latchForce(const double* y, int l) const;
  void latchRoots(const Eval& e, double* g) const;
  bool updateLatches(const Eval& e);
  // Latch i with a closing time at an event: starts closing where its
  // condition comes, stops where it no longer holds, engages when the time is up.
  bool closeLatch(int i, double t, const double* y, bool condition, bool holds);
  void latchDiscrete(DiscreteState& s);
  void applyLatchImpulses(double t, double* y);
  const Eval* cur_ = nullptr;  // the evaluation in progress, for the attachments' forces
  Evaluator* held_ = nullptr;     // the held circuit of an analysis, with its state
  std::vector<double> heldY_, heldYp_;
  // Writes the attachments' x, v into heldY_ from the local mechanism state y.
  void syncHeld(const double* y);
  void applyAttachments(const Eval& e, const std::vector<mb::Kin>& k, mb::MultibodySystem& sys) const;
};

// The mechanism of a compiled System, or of one being built (a
// SystemBuilder: it is set up before the components that attach to it);
// null when there is none.
template <class SystemOrBuilder>
MechanismElement* mechanismOf(const SystemOrBuilder& s) {
  return s.template find<MechanismElement>();
}

}  // namespace pm
