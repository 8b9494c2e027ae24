// Coordinate partitioning (Wehage and Haug): a mechanism with f degrees of
// freedom integrated as an ODE in f independent coordinates z, chosen among
// the parts' absolute coordinates q = (r, p) of seed 004, and their rates
// u = dz/dt. At every evaluation the dependent coordinates follow from
// Phi(q, t) = 0 and p.p = 1 by Newton, their rates from Phi_q qdot = -Phi_t,
// and the accelerations from the equations of motion projected onto the
// independent directions (no multipliers). The integrator then carries 2 f
// states instead of 14 per part plus two multipliers per constraint row, and
// the constraints hold to the Newton tolerance at every evaluation (no drift,
// no index-2 variables). When the dependent block of Phi_q grows
// ill-conditioned (the chosen coordinates stop describing the motion well)
// the caller asks for a new partition at the current pose.
//
// Every expansion starts from an anchor pose (the last partition, restart
// or output that moved far enough; a tabulated expansion's nodes continue
// from their neighbours instead) and iterates with the anchor's
// factorisation, so the absolute state is a function of (t, z) alone while
// the anchor stays: a part at rest gives bit-identical positions at every
// evaluation, and root functions on them (a piston resting on its stop) do
// not chatter on rounding noise.
#pragma once

#include "mechanics/multibody.h"

#include <Eigen/Dense>

#include <atomic>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace pm::mb {

class ReducedCoordinates {
 private:
  // Dense LU with partial pivoting, skipping zero multipliers (the
  // dependent block is sparse: a row touches at most two parts).
  struct Lu {
    int n = 0;
    std::vector<double> a;  // column-major factors
    std::vector<int> piv;
    bool factor(const Eigen::MatrixXd& m);
    void solve(double* b) const;
  };

 public:
  // A node of the tabulated expansion (Sharing::tabulate) at z0 + k step.
  struct Node {
    std::vector<double> q, dq, ddq;  // coordinates (7 per moving part) and d/dz, d2/dz2
    double margin = 1.0;
    Lu lu;  // exact factors of the dependent block here: the next node's Newton starts with them
  };
  // The tabulated expansion's nodes of one partition, shared by the
  // ReducedCoordinates of the solver's System and of its copy on the output
  // thread (solver/output_pipeline.h): the copy makes the nodes ahead of the
  // motion while it waits for rows (prefetch()), and the solver finds them
  // made. A node is a function of its index alone (it continues from its
  // neighbour towards node 0, the partition's pose, with that neighbour's
  // factors), so the results do not depend on which copy made it, or when.
  // Readers take a made node without a lock; makers hold `make`.
  class Table {
   public:
    static constexpr long kHalf = 4096;  // indices -kHalf .. kHalf - 1 (+-12 scaled units at kGridStep)
    Table() : slot_(2 * kHalf) {}
    static bool inRange(long k) { return k >= -kHalf && k < kHalf; }
    const Node* find(long k) const { return inRange(k) ? slot_[k + kHalf].load(std::memory_order_acquire) : nullptr; }
    std::mutex make;
    // Under `make`: stores n as node k and publishes it.
    const Node* publish(long k, Node&& n);
    // Where the solver's expansions last were (z, u), for prefetchAhead();
    // on a cache line of their own (the solver writes, the other reads).
    alignas(64) std::atomic<double> hintZ{std::numeric_limits<double>::quiet_NaN()};
    std::atomic<double> hintU{0.0};

   private:
    std::vector<std::atomic<const Node*>> slot_;
    std::deque<Node> store_;
  };
  // The tables of a run, per partition (in the order the solver makes
  // them), for both copies of its System (Sharing::tables).
  class Tables {
   public:
    std::shared_ptr<Table> at(long partition);
    // The solver's newest partition: its number, time and pose (the
    // prefetcher follows it before the rows get there).
    struct Partition {
      long index = -1;
      double t = 0.0;
      std::vector<double> pose;
    };
    void announce(long index, double t, const std::vector<double>& pose);
    Partition newest();

   private:
    std::mutex m_;
    std::map<long, std::shared_ptr<Table>> tables_;
    Partition newest_;
  };
  // How one takes part in a run's tables.
  struct Sharing {
    // One degree of freedom and constraints of the positions alone: the
    // dependent coordinates, their first and second derivatives along z are
    // tabulated on a grid (exact expansions at the nodes, made as the motion
    // reaches them) and interpolated by quintic Hermite polynomials between:
    // an expansion then costs an interpolation instead of a Newton solution.
    // Off: the reference the tests compare with.
    bool tabulate = true;
    std::shared_ptr<Tables> tables;  // null: tables of its own
    bool solver = false;             // the solver's: it leaves hints in the tables
  };

  // Throws std::runtime_error when the active constraint rows are not
  // independent in the absolute coordinates (the formulation needs full rank).
  ReducedCoordinates(MultibodySystem& mb, double t0, const double* y0, const Sharing& sharing);
  // One that makes the shared tables' nodes ahead of the solver (on the
  // output thread, between rows), following its newest partition; null when
  // this one shares no tables.
  std::unique_ptr<ReducedCoordinates> prefetcher(double t0, const double* y0) const;
  // Makes one missing node ahead of the solver's motion in its newest
  // partition (prefetcher() only); false when there is none to make.
  bool prefetchAhead();

  int dof() const { return static_cast<int>(indep_.size()); }
  // "<part>.<x|y|z|e0..e3>" of independent coordinate i, and whether it is
  // an Euler parameter (dimensionless) or a position (m).
  std::string coordinateName(int i) const;
  bool isEulerParameter(int i) const { return indep_[i] % 7 >= 3; }

  // Chooses the independent coordinates at the local state y (positions on
  // the constraints): the columns left over by a fully pivoted LU of the
  // scaled Phi_q, i.e. those whose complement is best conditioned.
  // `index`: the partition's number in the run (default: the next one), by
  // which a copy of the System finds the solver's table (Tables).
  void partition(double t, const double* y, long index = -1);
  // The last partition's number, time and pose (the local state it was made at).
  long partitionIndex() const { return partitionIndex_; }
  double partitionTime() const { return partT_; }
  const std::vector<double>& partitionPose() const { return pose_; }
  // z and u of a local state.
  void reduce(const double* y, double* z, double* u) const;
  // The local state (positions, velocities; multipliers zero) for (t, z, u),
  // windings copied from `windings` (in windingStates() order). Returns false
  // when Newton does not close the constraints (the caller reports a
  // recoverable failure so the integrator cuts its step).
  bool expand(double t, const double* z, const double* u, const double* windings, double* y);
  // Makes the pose of y (an accepted point) the anchor when it has moved
  // from the anchor by more than a small fraction of its scale, or always
  // with `force` (after a restart).
  void setAnchor(double t, const double* y, bool force);
  // d2z/dt2 at the local state of the last expand() under the applied
  // forces F (world, at the centres of mass) and torques N (part axes), per
  // body: (W^T M W) du/dt = W^T (F - w' x J w' - M a_c) with v = W u + (the
  // motions' rates) and a_c the accelerations at du/dt = 0 (C a = gamma).
  // W spans the null space of the constraint Jacobian, so no multipliers.
  // What does not depend on the forces is kept until the next expand().
  void accelerations(double t, const double* y, const std::vector<V3>& F, const std::vector<V3>& N, double* zdd);
  // The parts' accelerations (v' and w' rows of yp, local slots) at the
  // local state y of the last expand() for independent accelerations zdd:
  // W zdd + a_c.
  void partAccelerations(double t, const double* y, const double* zdd, double* yp);
  // 1 at a fresh partition, falling to 0 where it must be redone: the
  // sensitivity of the dependent coordinates to the independent ones
  // (dq_D/dz, scaled) reaching kGrowth times its value at the partition.
  double margin() const { return margin_; }
  // The expansion is tabulated (Sharing::tabulate, where it applies).
  bool tabulated() const { return tabulate_; }
  // margin() at (t, z) of a tabulated expansion from the table's nodes
  // alone, without the state (the partition's root function); false where
  // the loop does not close (as expand).
  bool tableMargin(double t, const double* z, const double* windings, double& margin);

 private:

  MultibodySystem& mb_;
  std::vector<int> slot_;      // per moving part: first local state
  std::vector<int> movingOf_;  // per body: index among the moving parts, -1 for the ground
  std::vector<int> bodyOf_;    // per moving part: its body
  std::vector<int> active_;    // active row indices
  std::vector<int> indep_, dep_;  // coordinate indices 7 k + c (k: moving part, c: r0..2, p0..3)
  std::vector<int> column_;    // per coordinate: dependent column j >= 0, or -1 - (independent i)
  std::vector<bool> lengthRow_;   // per active row: a length (scaled by 1/L) or dimensionless
  double L_ = 1.0;                // characteristic length scaling r
  double limit_ = 1.0;            // max |dq_D/dz| (scaled) allowed before a new partition
  double margin_ = 1.0;
  int neq_ = 0;                   // active rows + normalisations

  // The anchor: pose, independent coordinates, sensitivity and factorisation.
  std::vector<double> qA_;
  Eigen::VectorXd zA_;
  Eigen::MatrixXd BA_;  // dq_D/dz (unscaled)
  Lu luA_, luTmp_;
  const Lu* lu_ = &luA_;  // the factors the current expansion iterates with
  int iterations_ = 0;    // Newton iterations of the current expansion
  Eigen::VectorXd dq_, res_;

  // Scratch of one expansion and its force-independent acceleration terms.
  std::vector<Kin> kin_;
  std::vector<Row> rows_;
  Eigen::MatrixXd Jd_, Ji_, X_, R_;  // scaled Phi_q blocks; solves
  Eigen::VectorXd phi_, phit_;
  Eigen::MatrixXd Bs_;  // dq_D/dz (scaled) at the expanded pose
  bool prepared_ = false;
  Eigen::MatrixXd W_;    // 6 per moving part x f
  Eigen::VectorXd base_;  // W^T (-w' x J w' - M a_c)
  Eigen::VectorXd ac_;    // a_c: 6 per moving part (v', w' at du/dt = 0)
  Eigen::LDLT<Eigen::MatrixXd> Mr_;
  double mass1_ = 0.0;  // W^T M W of one degree of freedom
  std::vector<double> ys_;  // shifted state for gamma
  std::vector<Kin> kinS_;
  std::vector<Row> rowsS_;

  double coordinateScale(int c) const { return c % 7 < 3 ? L_ : 1.0; }
  double& coordinate(double* y, int c) const { return y[slot_[c / 7] + c % 7]; }
  double coordinate(const double* y, int c) const { return y[slot_[c / 7] + c % 7]; }
  // Rows at the local state y: fills rows_, phi_ (scaled) and phit_.
  // Returns max |phi| (scaled).
  double evaluate(double t, const double* y);
  // Every entry (row, coordinate, value) of the scaled Phi_q from rows_.
  template <class Put>
  void jacobianEntries(const double* y, Put put) const;
  // Jd_, Ji_ (scaled Phi_q, dependent and independent columns) from rows_.
  void jacobianBlocks(const double* y);
  // Scaled Phi_q of all coordinates from rows_ (for the partition).
  Eigen::MatrixXd fullJacobian(const double* y) const;
  // Newton on Phi = 0 for the dependent coordinates of y: with the anchor's
  // factorisation, or a fresh one per iteration when that converges slowly.
  // polish: a table's node, closed on to kNodeTol.
  // start: the factors to begin with (a node's neighbour's), else the anchor's.
  bool newton(double t, double* y, int maxIterations, bool polish, const Lu* start = nullptr);
  // Solves Jd_ X_ = R_ with the factors of the last Newton refined against
  // Jd_ (a fresh factorisation when the refinement stalls). False when the
  // factors needed more than one refinement pass or were replaced.
  bool solveDependent();
  void prepare(double t, const double* y);
  // qdd_ alone: the coordinates' accelerations at du/dt = 0 (what a node keeps).
  void zeroRateAccelerations(double t, const double* y);

  bool tabulate_ = false;
  double gridZ0_ = 0.0, gridStep_ = 0.0;
  std::shared_ptr<Tables> tables_;  // shared with a copy of the System, or null
  std::shared_ptr<Table> table_;    // the current partition's
  long partitionIndex_ = -1;
  double partT_ = 0.0;
  std::vector<double> pose_;  // the local state the partition was made at
  bool hints_ = false;              // the solver's: leaves hints in the table
  long hintCell_ = 0;               // the cell of the last hint (a new one only on a new cell)
  double hintSign_ = 0.0;           // and the sign of its u
  bool tabled_ = false;         // the last expansion came from the table
  double tabledU_ = 0.0;        // its rate u
  std::vector<double> tq1_, tq2_;  // its d q/dz, d2 q/dz2
  std::vector<double> qdd_;     // prepare(): the coordinates' accelerations at du/dt = 0
  std::vector<double> yNode_;
  std::vector<char> indepEuler_;  // per moving part: one of its Euler parameters is independent
  void normalise(double* y) const;
  // A table's node being made: the neighbour it continues from (null: from
  // the anchor) at dz from it.
  struct NodeStart {
    const Node* from;
    double dz;
  };
  bool expandExact(double t, const double* z, const double* u, const double* windings, double* y,
                   const NodeStart* node = nullptr);
  // The table's cell around z: its nodes a (below) and b (above) and z's
  // place s in [0, 1) between them; false beyond where the loop closes.
  bool cell(double t, const double* z, const double* windings, const Node*& a, const Node*& b, double& s);
  // y zeroed, then the winding states copied in (every expansion starts so).
  void clearState(const double* windings, double* y) const;
  // The winding states of a local state, in windingStates() order.
  std::vector<double> windingsOf(const double* y) const;
  // The table's cell (its lower node's index) around z.
  long cellOf(double z) const { return static_cast<long>(std::floor((z - gridZ0_) / gridStep_)); }
  std::vector<int> wind_;  // the winding states' local slots
  const Node* node(double t, long k, const double* windings);
  // Node k made from its neighbour `from` towards node 0 (null for node 0:
  // from the anchor, the partition's pose then), published in table_.
  const Node* makeNode(double t, long k, const Node* from, double dz, const double* windings);
};

}  // namespace pm::mb
