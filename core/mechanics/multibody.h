// The multibody engine: a Mechanism compiled into the equations of seed 004
// in absolute coordinates, integrated as a stabilised index-2 DAE (Gear-
// Gupta-Leimkuhler) so that position AND velocity constraints hold:
//
//   dr/dt - v + Phi_r^T mu                        = 0   (3 per part)
//   dp/dt - 1/2 L(p)^T w' + 2 L(p)^T Phi_pi'^T mu + p mu_n = 0   (4, Euler parameters)
//   dv/dt - (F - Phi_r^T lambda) / m              = 0   (3)
//   dw'/dt - J'^-1 (n' - w' x J' w' - Phi_pi'^T lambda) = 0   (3, body frame)
//   (p^T p - 1) / 2 = 0                           (1, normalisation; mu_n)
//   Phi(q, t) - eps mu = 0                 (one per constraint equation; mu)
//   Phi_r v + Phi_pi' w' + Phi_t - eps lambda = 0   (one per equation; lambda)
//   d theta_w/dt - z_J . (w_I - w_J) = 0   (per revolute joint and torsion
//                                          spring: see trackWindings)
//
// r is the centre of mass, p the Euler parameters of the part frame, w' the
// angular velocity in the part frame; Phi_pi' is the derivative of a
// constraint with respect to a virtual rotation in the part frame (seed 004
// eqs. 2.3, 2.7, 3.1-3.5 written with Euler parameters). mu vanishes on the
// exact solution; it projects the positions back onto Phi = 0. lambda are
// the joint reactions. Constraint Jacobians are analytic, built from three
// primitives (point coincidence, two perpendicular vectors, a vector
// perpendicular to a point-to-point line).
//
// Parts that fixed joints alone hold to another body are merged into it
// first (lumpFixedJoints): a welded assembly is one rigid body.
//
// The same object assembles the mechanism at the start and writes the
// result channels; the static and kinematic analyses (mechanism_analysis.h)
// work on it. Its code, by responsibility:
//   multibody_build.cpp          the constructor's build steps
//   fixed_joint_lumping.cpp      welded parts merged into one body
//   multibody_kinematics.cpp     positions, velocities, markers, windings
//   multibody_constraints.cpp    constraint rows and matrices
//   multibody_forces.cpp         force elements, joint limits, roots
//   multibody_residual.cpp       the DAE: states, structure, residual
//   multibody_assembly.cpp       assembly, redundancy, projections
//   multibody_accelerations.cpp  consistent accelerations and reactions
//   multibody_outputs.cpp        result channels and energies
//   multibody_contacts.cpp       contact pairs between shapes (issue 27)
//   multibody_latches.cpp        latches: joints engaged by a plastic impact
//   initial_conditions.cpp, redundant_reactions.cpp: the start's checks
#pragma once

#include "element/discrete_state.h"
#include "mechanics/constraint_row.h"
#include "mechanics/contact/contact_pair.h"
#include "mechanics/multibody_elements.h"
#include "mechanics/spatial.h"
#include "model/mechanism.h"

#include <Eigen/Sparse>

#include <array>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace pm::mb {

// Absolute tolerance of the multipliers (mu_n, mu, lambda): so large that
// their weight 1/atol = 1e-50 keeps them out of IDA's norms in effect (they
// are index-2 variables), yet (x / atol)^2 stays a normal number. With 1e300
// every weighted norm underflowed into subnormals, the processor's slow path:
// a large share of a mechanism's CPU time, invisible in instruction counts.
constexpr double kMultiplierAtol = 1e50;

// What the circuit's actuators act on: markers (cylinders) and joints
// (semi-rotary drives, cylinders on a joint). Their parts are never lumped.
struct ExternalLoads {
  std::set<std::string> markers, joints;
};

class StaticEquilibrium;

// Switches that tests and pneumech-bench turn to compare with (from
// BuildOptions); every run uses the defaults.
struct MultibodyOptions {
  // Parts welded into another body (or the ground) by fixed joints that,
  // besides, carry nothing: one rigid body with it, so neither their 14
  // states nor the joint's 12 multipliers are integrated (issue 4). Off:
  // the reference the tests compare with.
  bool lumpFixedJoints = true;
  // Every decomposition dense whatever the model's size: the reference the
  // tests (and pneumech-bench --dense) check the sparse path against.
  bool forceDense = false;
};

class MultibodySystem {
 public:
  // Throws std::runtime_error with "<id>: <field>: message" on bad input
  // (the compiler turns it into a ProjectError).
  explicit MultibodySystem(const Mechanism& m, const ExternalLoads& loads = {}, const MultibodyOptions& options = {});

  int size() const { return nStates_; }
  // The moving bodies and the ground: the user's parts, less those lumped.
  const std::vector<BodyRT>& bodies() const { return bodies_; }
  // Every non-ground part of the user, in declaration order.
  const std::vector<PartRT>& parts() const { return parts_; }
  // A part's centre of mass (r), velocity (v), axes (A) and angular
  // velocity (ww, world; w in the part's axes) from the local state.
  void partKinematics(const double* y, int part, Kin& k) const;
  const std::vector<RowInfo>& rows() const { return rowInfo_; }
  int degreesOfFreedom() const { return dof_; }
  // No motions and no couplers: the constraints depend on the positions
  // alone (not on time, nor on the turns the windings count).
  bool scleronomic() const {
    for (const JointRT& j : joints_)
      if (j.kind == JointRT::Kind::Coupler) return false;
    return motions_.empty();
  }
  const std::vector<std::string>& messages() const { return messages_; }

  struct StateDecl {
    std::string name, unit, equation;
    bool differential;
    double atol;
  };
  std::vector<StateDecl> stateDecls(double atolPosition) const;
  // Groups of local states coupled by one equation set (for the sparse
  // Jacobian), each coupling all its members with each other.
  // Only force elements and joint limit stops; the rest is couplingEntries.
  std::vector<std::vector<int>> couplingGroups() const;
  // Exact structure (row, column) of the part and constraint equations, in
  // local states. A coarse "each joint with its two parts" block makes the
  // iteration matrix of a closed loop nearly dense for the factorisation.
  std::vector<std::pair<int, int>> couplingEntries() const;

  // Assembled initial state (positions and velocities on the constraints).
  const std::vector<double>& initialState() const { return y0_; }

  // Residual of the DAE on local states.
  void residual(double t, const double* y, const double* yp, double* res);
  // Dynamics need every moving body's mass > 0 and inertia positive
  // definite (a massless part welded by a fixed joint to one with mass is
  // lumped into it, so it passes); throws "<part>: mass: ..." or
  // "<part>: inertia: ..." otherwise. The analyses need neither.
  void requireMass() const;
  // Accelerations and multipliers consistent with positions and velocities:
  // fills yp (all differential rows) and the lambda slots of y; mu = 0.
  void makeConsistent(double t, double* y, double* yp);
  // The multipliers (lambda slots of y; mu = 0) that hold the parts to the
  // accelerations already in yp (v' and w' rows, e.g. from the reduced
  // formulation, which satisfy C a = gamma) under the applied forces F, N
  // (as appliedForces gives them): S lambda = C (a0 - a), one solve of the
  // index-1 system without gamma's difference quotients. The other rows of
  // yp are filled as makeConsistent does.
  void multipliersFor(double t, double* y, double* yp, const std::vector<V3>& F, const std::vector<V3>& N);

  // External generalised forces, e.g. from pneumatic cylinders (issue 4):
  // called after the force elements inside every residual.
  // y: the local state the kinematics come from.
  std::function<void(double t, const double* y, const std::vector<Kin>&, MultibodySystem&)> externalForces;
  void applyForce(int body, const V3& pointWorld, const V3& force, const V3& torque = V3::Zero());

  // Result channels.
  struct Channel {
    std::string name, unit;
  };
  const std::vector<Channel>& channels() const { return channels_; }
  // rowsCurrent: right after makeConsistent or multipliersFor at (t, y),
  // whose kinematics and constraint rows are reused.
  void outputs(double t, const double* y, const double* yp, double* row, bool rowsCurrent = false);
  // Root functions: one per impact force and per finite joint limit.
  int numRoots() const { return static_cast<int>(rootFns_.size()); }
  void roots(double t, const double* y, double* g);

  // Continuous angles: every revolute joint and every rotational
  // spring-damper has a winding state theta_w (d theta_w/dt = the joint's
  // rate); its angle is the branch of atan2 nearest theta_w, so it counts
  // whole turns. Sets each winding state to that branch (after a
  // position update of an analysis).
  void trackWindings(double* y) const;
  // Positions moved by dt along the current velocities (windings with them):
  // a start for the next point of a stepped analysis.
  void predict(std::vector<double>& y, double dt) const;
  // Path length of the revolute motions' prescribed angles over [t0, t1]
  // (the largest of them, sampled at 16 points): how far a stepped
  // analysis must turn a joint between two points.
  double motionTurn(double t0, double t1) const;

  // MultibodyOptions::forceDense switched on this system after its
  // construction (the tests solve one system both ways).
  void forceDense(bool on) { forceDense_ = on; }

  // Contact pairs between the parts' shapes (multibody_contacts.cpp): their
  // index by id (-1 if unknown) and one pair's state at the local state y.
  const std::vector<contact::PairRT>& contacts() const { return contacts_; }
  int contactIndex(const std::string& id) const;
  contact::PairResult contactAt(const double* y, int pair) const;
  // Ends the static analysis's contact anchors (staticEquilibrium sets them;
  // see anchors_): the velocity law again.
  void releaseContactAnchors() { anchors_.clear(); }

  // Latches (multibody_latches.cpp): joints switched on and off at events.
  // engageLatch puts the anchor at I's frame and switches the rows on (those
  // the active rows already imply stay off); latchImpulse then makes the
  // velocities consistent by a plastic impact, M (v+ - v-) = C^T p over all
  // active rows with C v+ + Phi_t = 0, and records the jump and the energy.
  const std::vector<LatchRT>& latches() const { return latches_; }
  // Distance between the latch's I and j markers, and its rate.
  double latchDistance(const double* y, int latch, double* rate) const;
  void engageLatch(int latch, double t, const double* y);
  void latchImpulse(int latch, double t, double* y);
  void releaseLatch(int latch);
  void setLatchArmed(int latch, bool armed) { latches_[latch].armed = armed; }
  // A latch with a closing time: its condition came at t (closing) or dropped.
  void setLatchClosing(int latch, bool closing, double t) {
    latches_[latch].closing = closing;
    if (closing) latches_[latch].conditionTime = t;
  }
  // The latches' discrete state (engaged, armed, anchors, rows, records).
  void latchDiscrete(DiscreteState& s);

  // Marker kinematics for couplings and channels.
  V3 markerPoint(int marker, const std::vector<Kin>& k) const;
  V3 markerVelocity(int marker, const std::vector<Kin>& k) const;
  M3 markerAxes(int marker, const std::vector<Kin>& k) const;
  int marker(const std::string& name) const;  // -1 if unknown
  int markerBody(int marker) const { return markers_[marker].body; }
  void kinematics(const double* y, std::vector<Kin>& k) const;
  void bodyKinematics(const double* y, int body, Kin& k) const;  // one part's entry of kinematics()
  // Joints by id (-1 if unknown), their type, coordinate (angle about z_J,
  // or travel along it) with its rate from the local state, and the parts
  // and axis a driving torque or force acts on.
  int joint(const std::string& id) const;
  const std::string& jointType(int j) const { return joints_[j].type; }
  double jointCoordinateAt(const double* y, int j, double* rate) const;
  void applyJointEffort(int j, const std::vector<Kin>& k, double effort);
  std::vector<int> jointBodies(int j) const { return {markers_[joints_[j].I].body, markers_[joints_[j].J].body}; }
  // Position and velocity of one marker's origin from the local state.
  void markerState(const double* y, int marker, V3& pos, V3& vel) const;

  // Max |Phi| and max |C v + Phi_t| over active rows.
  void constraintResiduals(double t, const double* y, double& pos, double& vel);
  // How far the position constraints may open before a run is stopped: a
  // thousandth of the mechanism's size (the extent of its markers at the
  // start), far above any integration error and far below an opened loop.
  double constraintBreachLimit() const;
  // "" while every active position constraint holds within the limit; else
  // what broke at t, naming the joints and motions whose equations opened
  // most ("joints jB, jC open by 12.5 mm").
  std::string constraintBreach(double t, const double* y) const;
  double kineticEnergy(const double* y) const;
  double potentialEnergy(double t, const double* y);
  // The same from the kinematics k of y.
  double kineticEnergyOf(const std::vector<Kin>& k) const;
  double potentialEnergyOf(double t, const double* y, const std::vector<Kin>& k) const;

  // For the reduced-coordinate formulation (reduced_coordinates.h): the
  // kinematics and every constraint row (active or not, in rows() order) at
  // the local state y, and the winding states (continuous angles).
  void constraintRows(double t, const double* y, std::vector<Kin>& k, std::vector<Row>& rows) const {
    kinematics(y, k);
    buildRows(t, y, k, rows);
  }
  std::vector<int> windingStates() const {
    std::vector<int> v;
    for (const Winding& w : windings_) v.push_back(w.state);
    return v;
  }
  // Applied forces at the local state y, per body: force at the centre of
  // mass (world) and torque (part axes) of gravity, the force elements and
  // joint limits, and externalForces; no reactions, no gyroscopic term.
  // With `rates`, also the windings' rates (windingRates) from the same
  // kinematics.
  void appliedForces(double t, const double* y, std::vector<V3>& F, std::vector<V3>& N, double* rates = nullptr);
  // d theta_w/dt of each winding (windingStates() order) at the local state y.
  void windingRates(const double* y, double* rates) const {
    if (windings_.empty()) return;
    kinematics(y, kinWindings_);
    windingRatesOf(kinWindings_, rates);
  }

 private:
  // The static and kinematic analyses (mechanism_analysis.cpp) solve on
  // the rows, projections and scratch below.
  friend class StaticEquilibrium;
  friend void kinematicAnalysis(MultibodySystem& sys, double t, std::vector<double>& y, std::vector<double>& yp);
  friend void staticEquilibrium(MultibodySystem& sys, double t, std::vector<double>& y, std::vector<double>& yp);

  // Build steps, in the constructor's order (multibody_build.cpp): the
  // ground first, then the user's parts with their markers; returns per
  // body whether the user fixed it for the assembly.
  std::vector<char> addBodies(const Mechanism& m);
  // compliance_ from the user's parts: the same with or without lumping.
  void setCompliance();
  // Local state slots: the bodies', then per constraint row its mu (position
  // level) and lambda, joints, motions and couplers in turn, then windings.
  // `lumped`: per m.joints entry its lumpedJoints_ index, or -1.
  void addJoints(const Mechanism& m, const std::vector<int>& lumped);
  void addMotions(const Mechanism& m);
  void addCouplers(const Mechanism& m);
  void addForces(const Mechanism& m);
  void addWindings();
  void addRows(const std::string& owner, int count, bool position, const std::vector<std::string>& equations);
  int markerOf(const std::string& ref, const std::string& owner, const char* field) const;  // throws if unknown
  // y0_ from the user's poses and velocities, then assembled.
  void setInitialState();
  void declareChannels();  // multibody_outputs.cpp, in outputs() order
  void declareRoots();     // multibody_forces.cpp
  // Contact pairs (multibody_contacts.cpp): built after the force elements;
  // their forces applied and channel values appended; channels, roots
  // (signed distance: onset and loss), elastic energy, coupled states.
  void addContacts(const Mechanism& m);
  // y: the pairs' stick states (contact::hasStickState) come from it; their
  // rates are left in stickRates_ for the residual.
  void contactForces(const double* y, const std::vector<Kin>& k, std::vector<double>& vals);
  void declareContactChannels();
  void declareContactRoots();
  double contactEnergy(const std::vector<Kin>& k) const;
  void contactCouplings(std::vector<std::vector<int>>& groups) const;
  // y null: no stick state read (the velocity law; the elastic energy).
  contact::PairResult contactOf(const contact::PairRT& p, const double* y, const std::vector<Kin>& k,
                                contact::StickRate* stickRate = nullptr) const;
  // d z/dt of every stick state at y, into yp (writeKinematicDerivatives).
  void writeStickRates(const double* y, double* yp) const;
  std::vector<contact::PairRT> contacts_;
  std::vector<contact::StickRate> stickRates_;  // per pair, from the last contactForces
  // The static analysis (StaticEquilibrium): while anchors are set, each
  // pair with friction holds its parts' relative pose from where the
  // analysis started by a tangential spring at every contact point
  // (sigma0 N per metre, as the stick state's), instead of the velocity law
  // (zero at rest, which leaves a part on a slope without an equilibrium).
  struct StickAnchor {
    bool on = false;
    M3 R = M3::Identity();  // B's axes in A's
    V3 t = V3::Zero();      // B's centre of mass in A's frame
  };
  std::vector<StickAnchor> anchors_;
  void anchorContacts(const double* y);
  // The anchors' tangential forces on B at each contact point of pair i.
  void anchorForces(int pair, const std::vector<Kin>& k, contact::PairResult& r) const;
  // "" when every anchored pair's friction force F and couple T about the
  // normal lie within (F / (mu_s N))^2 + (T / (mu_s N rho))^2 <= 1 at y
  // (rho: contact::twistArm); else what slides or turns, with the numbers.
  std::string frictionConeBreach(const double* y) const;
  // Latches: built after the couplers (their rows come last, from
  // firstLatchRow_); channels after the contacts'.
  void addLatches(const Mechanism& m);
  void declareLatchChannels();
  void latchValues(const double* y, double* row, int& c) const;
  std::vector<LatchRT> latches_;
  int firstLatchRow_ = 0;

  // y supplies the winding states (continuous angles); null: wrapped angles.
  // Without `jacobian` the joints' rows hold phi alone (no gradient): the
  // same phi, at a fraction of the cost.
  void buildRows(double t, const double* y, const std::vector<Kin>& k, std::vector<Row>& out,
                 bool jacobian = true) const;
  // Appends (or overwrites from index n on) the joint's rows; n advances.
  void jointRows(const JointRT& j, const std::vector<Kin>& k, std::vector<Row>& out, size_t& n,
                 bool jacobian = true) const;
  double jointCoordinate(const JointRT& j, const std::vector<Kin>& k, const double* y, double* rate = nullptr) const;
  // Second derivative of the joint coordinate from the bodies' centre of
  // mass and angular accelerations (world).
  double jointAcceleration(const JointRT& j, const std::vector<Kin>& k, const std::vector<V3>& acc,
                           const std::vector<V3>& alpha) const;
  // Angle of I's x-axis about z_J from J's x-axis, and its rate.
  double relativeAngle(int I, int J, const std::vector<Kin>& k, int wind, const double* y, double* rate) const;
  Row coordinateRow(const JointRT& j, const std::vector<Kin>& k, const double* y) const;
  void forces(double t, const double* y, const std::vector<Kin>& k);
  void forceValues(double t, const double* y, const std::vector<Kin>& k, std::vector<double>& vals);
  // The joint limit stops' contact forces (no channel values).
  void jointLimitForces(const double* y, const std::vector<Kin>& k);
  void assemble();
  // One Gauss-Newton step of the assembly onto the rows `sel` (errors phi),
  // towards the pose nearest where the user put the parts (`user`).
  void assemblyStep(std::vector<double>& y, const std::vector<double>& user, const std::vector<Row>& sel,
                    const Eigen::VectorXd& phi) const;
  // Throws naming the rows that miss most when the assembly cannot close.
  [[noreturn]] void assemblyFailed(const std::vector<const std::string*>& owner, const Eigen::VectorXd& phi,
                                   bool initialConditions) const;
  // Per column of the constraint matrix (6 per moving part): the part's assemblyScale.
  Eigen::VectorXd assemblyScales() const;
  Eigen::VectorXd offsetFrom(const std::vector<double>& from, const std::vector<double>& to) const;
  void findRedundant(const std::vector<Row>& rows);
  // After findRedundant, at the assembled pose: the reaction components its
  // removed equations leave undetermined, "jA Fz Tx Ty, jB Fz Tx Ty, ..."
  // (core/mechanics/redundant_reactions.cpp).
  std::string undeterminedReactions(const std::vector<Row>& rows) const;
  // Velocities onto C v + Phi_t = 0 (the active rows), and the `extra` rows too.
  void projectVelocities(double t, std::vector<double>& y, const std::vector<Row>* extra = nullptr);
  // Joint initial conditions and the report of the start (initial_conditions.cpp).
  // One row per joint initial condition, at the local state y: coordinates
  // (rates false: phi = q - value) or rates (true: phit = -rate, so that
  // C v + phit = 0 holds it); `owners` names them "<joint> (initial.<field>)".
  void initialConditionRows(const std::vector<Kin>& k, const double* y, bool rates, std::vector<Row>& out,
                            std::vector<std::string>* owners = nullptr) const;
  // Refuses initial conditions that the joints, motions, couplers and the
  // other initial conditions already fix, naming the joints; then puts the
  // windings of joints given an initial angle on the turn nearest it.
  void checkInitialConditions(std::vector<double>& y) const;
  // Refuses initial rates the projection could not meet (at a dead centre);
  // notes the parts the assembly moved from where the user placed them
  // (`user`: the state before assembly) and the velocities the user gave
  // that the start changed.
  void reportStart(const std::vector<double>& user);
  // Minimum-norm Gauss-Newton onto Phi(q, t) = 0 (at most 20 steps, no error).
  void projectPositions(double t, std::vector<double>& y) const;
  // One Gauss-Newton step onto the active position constraints; false (y
  // unchanged) when they already hold to 1e-13.
  bool correctPositions(double t, std::vector<double>& y) const;
  std::vector<Row> activeRows(const std::vector<Row>& rows) const;  // the rows not removed as redundant
  Eigen::MatrixXd constraintMatrix(const std::vector<Row>& rows, bool activeOnly) const;
  Eigen::MatrixXd matrixOf(const std::vector<Row>& rows) const;  // dense C of exactly these rows
  Eigen::SparseMatrix<double> sparseOf(const std::vector<Row>& rows) const;  // the same, sparse
  // Small models: dense decompositions in assembly and redundancy detection.
  bool denseAssembly() const;
  bool denseForced() const { return forceDense_; }
  // With F and N (applied forces and torques per body): the accelerations
  // in yp stay, gamma is C a from them (multipliersFor).
  void solveAccelerations(double t, double* y, double* yp, const std::vector<V3>* F = nullptr,
                          const std::vector<V3>* N = nullptr);
  // solveAccelerations' steps (multibody_accelerations.cpp). The moving
  // bodies and each one's first column (6 per body; -1 for the ground).
  void movingColumns(std::vector<int>& moving, std::vector<int>& col) const;
  // Unconstrained accelerations a0 (lambda = 0) from the given forces, or
  // from the residual at yv (y with the multipliers zeroed; the rows at y
  // are left in rowsScratch_ either way).
  void freeAccelerations(double t, const double* y, const std::vector<int>& moving, const std::vector<V3>* F,
                         const std::vector<V3>* N, Eigen::VectorXd& a0, std::vector<double>& yv);
  // gamma = C a of the accelerations in yp (active rows of rowsScratch_).
  void accelerationsTimesRows(const double* yp, Eigen::VectorXd& gamma) const;
  // S lambda = C a0 - gamma with S = C M^-1 C^T + compliance; with `acc`,
  // also a = a0 - M^-1 C^T lambda. Dense for small models, else sparse.
  void solveMultipliersDense(const std::vector<int>& col, const Eigen::VectorXd& a0, const Eigen::VectorXd& gamma,
                             Eigen::VectorXd& lam, Eigen::VectorXd* acc);
  void solveMultipliersSparse(const std::vector<int>& col, int n6, const Eigen::VectorXd& a0,
                              const Eigen::VectorXd& gamma, Eigen::VectorXd& lam, Eigen::VectorXd* acc) const;
  // Max |Phi| and max |C v + Phi_t| over the active rows of `rows` (built at k).
  void residualsOf(const std::vector<Row>& rows, const std::vector<Kin>& k, double& pos, double& vel) const;
  // gamma = -d/dt (C v + Phi_t) at fixed v, the right-hand side of C a = gamma,
  // by central differences along the motion (truncation error ~1e-10 relative).
  Eigen::VectorXd accelerationRhs(double t, const std::vector<double>& yNoMultipliers);
  void setPositions(std::vector<double>& y, const Eigen::VectorXd& dx, double scale = 1.0) const;
  // k: the kinematics of y, when at hand (the windings' rates read them).
  void writeKinematicDerivatives(double* y, double* yp, const std::vector<Kin>* k = nullptr) const;
  // Outputs' pieces (multibody_outputs.cpp): a lumped weld's reaction (its
  // leaf's Newton-Euler balance) and a joint's reaction on I's part, at the
  // I marker, world axes.
  void lumpedJointReaction(const LumpedJointRT& lj, const std::vector<V3>& acc, const std::vector<V3>& alpha, V3& F,
                           V3& T) const;
  void jointReaction(const JointRT& j, const double* y, V3& F, V3& T) const;
  std::vector<Winding> windings_;

  std::vector<BodyRT> bodies_;
  std::vector<MarkerRT> markers_;
  std::vector<JointRT> joints_;
  std::vector<MotionRT> motions_;
  std::vector<ForceRT> forces_;
  std::vector<RowInfo> rowInfo_;
  std::vector<Channel> channels_;
  std::vector<std::function<double(double, const double*, const std::vector<Kin>&)>> rootFns_;
  std::vector<std::string> messages_;
  V3 g_;
  bool forceDense_ = false;  // MultibodyOptions::forceDense
  mutable double breachLimit_ = -1.0;  // constraintBreachLimit(), once asked
  mutable std::vector<Kin> breachKin_;  // constraintBreach's scratch (asked at every result row)
  mutable std::vector<Row> breachRows_;
  int nStates_ = 0;
  int dof_ = 0;
  std::vector<double> y0_;

  std::vector<PartRT> parts_;
  std::vector<LumpedJointRT> lumpedJoints_;
  // Joint channels in the user's order: >= 0 joints_[k], < 0 lumpedJoints_[-1 - k].
  std::vector<int> jointOut_;
  // Merges into the bodies they are welded to the parts a fixed joint
  // alone holds (see lumpFixedJoints; fixed_joint_lumping.cpp); per
  // m.joints entry its lumpedJoints_ index, or -1.
  std::vector<int> lumpWelded(const Mechanism& m, const ExternalLoads& loads, const std::vector<char>& userFixed);
  // Part `p`'s centre of mass kinematics and accelerations (world) from its body's.
  void partMotion(const PartRT& p, const Kin& kb, const V3& ab, const V3& alphab, V3& r, V3& a, M3& A) const;

  // Scratch of one evaluation.
  std::vector<Kin> kin_;
  std::vector<Row> rowsScratch_;
  std::vector<V3> F_, N_, CR_, CP_;
  std::vector<double> shifted_;  // accelerationRhs
  std::vector<Kin> kinShifted_;
  std::vector<Row> rowsShifted_;
  std::vector<double> forceVals_;
  bool hasLimits_ = false;
  // While set (the sparse statics' structure probe): marks the parts applyForce acts on.
  std::vector<char>* pushed_ = nullptr;
  // eps of the regularised constraint rows, 1e-12 s / (mean part mass):
  // relative to C M^-1 C^T ~ 1/m, 1e-12. Where a loop loses rank (a
  // parallelogram four-bar with all links collinear) the multipliers of
  // the lost direction stay finite instead of the iteration matrix turning
  // singular; elsewhere the velocity rows yield by eps lambda (1e-11 m/s for
  // a reaction carrying a part's weight).
  double compliance_ = 1e-12;
  mutable std::vector<Kin> kinWindings_;  // windingRates' scratch
  void windingRatesOf(const std::vector<Kin>& k, double* rates) const {
    for (size_t i = 0; i < windings_.size(); ++i) {  // the rate alone, as residual()
      const MarkerRT &mi = markers_[windings_[i].I], &mj = markers_[windings_[i].J];
      rates[i] = (k[mj.body].A * mj.A.col(2)).dot(k[mi.body].ww - k[mj.body].ww);
    }
  }
  // solveAccelerations' dense scratch: a row's blocks of C and M^-1 C^T on
  // one part (grouped by part, from accOnStart_), and per row its entries.
  struct AccEntry {
    int row, body;
    V3 r, p, mr, mp;
  };
  std::vector<AccEntry> accEnt_;
  std::vector<std::array<int, 4>> accRowEnt_;
  std::vector<int> accCnt_, accOnStart_, accOnFill_;
  std::vector<int> accNz_, accNzStart_;  // the Cholesky factor's nonzeros per column
  // solveAccelerations' scratch kept across calls (it runs at every output row).
  std::vector<int> accMoving_, accCol_;
  Eigen::VectorXd accA0_, accGamma_, accLam_;
  mutable std::vector<double> windingRates_;  // writeKinematicDerivatives'
  Eigen::MatrixXd accS_;
};

// Marker kinematics, inline: the force elements and the joints' coordinates
// read them many times per evaluation.
inline V3 MultibodySystem::markerPoint(int m, const std::vector<Kin>& k) const {
  const MarkerRT& mk = markers_[m];
  return k[mk.body].r + k[mk.body].A * mk.s;
}
inline V3 MultibodySystem::markerVelocity(int m, const std::vector<Kin>& k) const {
  const MarkerRT& mk = markers_[m];
  return k[mk.body].v + k[mk.body].ww.cross(k[mk.body].A * mk.s);
}
inline M3 MultibodySystem::markerAxes(int m, const std::vector<Kin>& k) const {
  return k[markers_[m].body].A * markers_[m].A;
}

}  // namespace pm::mb
