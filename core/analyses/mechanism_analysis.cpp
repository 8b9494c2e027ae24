#include "analyses/mechanism_analysis.h"

#include "build/compiler.h"
#include "build/validation.h"
#include "mechanics/mechanism_element.h"
#include "mechanics/minimum_norm.h"
#include "mechanics/multibody.h"
#include "mechanics/multibody_error.h"
#include "model/message_text.h"
#include "model/project_error.h"
#include "solver/run_control.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <Eigen/SparseQR>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <sstream>

namespace pm::mb {

namespace {

// Largest rotation of a part in one static Newton step [rad].
constexpr double kMaxStaticTurn = 0.2 * std::numbers::pi;

using SpMat = Eigen::SparseMatrix<double>;

// Groups of columns that share no row, greedily in column order (Curtis,
// Powell and Reid): a finite-difference Jacobian needs one evaluation per
// group instead of one per column.
std::vector<std::vector<int>> columnGroups(const std::vector<std::vector<int>>& colRows, int nRows) {
  std::vector<std::vector<int>> rowCols(nRows), groups;
  for (size_t c = 0; c < colRows.size(); ++c)
    for (int r : colRows[c]) rowCols[r].push_back(static_cast<int>(c));
  std::vector<int> colour(colRows.size(), -1), taken(colRows.size() + 1, -1);
  for (size_t c = 0; c < colRows.size(); ++c) {
    for (int r : colRows[c])
      for (int c2 : rowCols[r])
        if (colour[c2] >= 0) taken[colour[c2]] = static_cast<int>(c);
    int k = 0;
    while (taken[k] == static_cast<int>(c)) ++k;
    colour[c] = k;
    if (k == static_cast<int>(groups.size())) groups.emplace_back();
    groups[k].push_back(static_cast<int>(c));
  }
  return groups;
}

}  // namespace

// Newton on G(q, lambda) = [applied + reaction forces per part (world force,
// part-frame torque); Phi] = 0, the Jacobian by finite differences: dense,
// one evaluation of G per column, on small models; on large ones over
// groups of columns that share no row, and a sparse LU.
class StaticEquilibrium {
 public:
  StaticEquilibrium(MultibodySystem& sys, double t, std::vector<double>& y) : s_(sys), t_(t), y_(y) {}

  void solve(std::vector<double>& yp) {
    for (size_t b = 0; b < s_.bodies_.size(); ++b)
      if (!s_.bodies_[b].ground) {
        moving_.push_back(static_cast<int>(b));
        for (int a = 7; a < 13; ++a) y_[s_.bodies_[b].slot + a] = 0.0;  // at rest
      }
    if (moving_.empty()) {  // everything welded to the ground: at rest as it is
      yp.assign(s_.nStates_, 0.0);
      return;
    }
    for (size_t i = 0; i < s_.rowInfo_.size(); ++i)
      if (s_.rowInfo_[i].active) act_.push_back(static_cast<int>(i));
    n6_ = 6 * static_cast<int>(moving_.size());
    m_ = static_cast<int>(act_.size());
    n_ = n6_ + m_;
    zero_.assign(s_.nStates_, 0.0);
    res_.resize(s_.nStates_);
    dense_ = s_.denseAssembly();
    if (!dense_) sparseStructure();
    for (int b : moving_) scaleF_ = std::max(scaleF_, s_.bodies_[b].m * s_.g_.norm());
    Eigen::VectorXd g = G(y_);
    for (int it = 0; it < 200; ++it) {
      if (m_ > 0) balanceReactions(g);
      const Eigen::VectorXd dz = dense_ ? denseStep(g) : sparseStep(g);
      const double s = lineSearch(dz, g);
      // lpNorm<Infinity>: 0 for the empty block when no constraint row is
      // active (parts held by forces alone); maxCoeff() would read past it.
      if (dz.head(n6_).lpNorm<Eigen::Infinity>() * s < 1e-12 && g.tail(m_).lpNorm<Eigen::Infinity>() < 1e-11 &&
          g.head(n6_).lpNorm<Eigen::Infinity>() < forceTolerance())
        break;
      if (it == 199) fail("mechanism", "", "static equilibrium did not converge in 200 Newton iterations");
    }
    yp.assign(s_.nStates_, 0.0);
    s_.writeKinematicDerivatives(y_.data(), yp.data());
  }

 private:
  MultibodySystem& s_;
  const double t_;
  std::vector<double>& y_;
  std::vector<int> moving_, act_;  // moving bodies, active constraint rows
  int n6_ = 0, m_ = 0, n_ = 0;     // G's force rows, constraint rows, all
  std::vector<double> zero_, res_;
  bool dense_ = true;
  std::vector<std::vector<int>> colRows_, groups_;  // sparse: rows of each column of G's Jacobian, column groups
  double scaleF_ = 1.0;
  double stiffMax_ = 0.0;  // largest |dF/dq| in G's Jacobian seen [N/m, N m/rad]
  std::vector<Kin> k_;
  std::vector<Row> rows_;

  Eigen::VectorXd G(const std::vector<double>& yy) {
    s_.residual(t_, yy.data(), zero_.data(), res_.data());
    Eigen::VectorXd g(n_);
    for (size_t q = 0; q < moving_.size(); ++q) {
      const BodyRT& B = s_.bodies_[moving_[q]];
      g.segment<3>(6 * q) = s_.F_[moving_[q]];  // already includes -C^T lambda
      g.segment<3>(6 * q + 3) = s_.N_[moving_[q]] - s_.kin_[moving_[q]].w.cross(B.J * s_.kin_[moving_[q]].w);
    }
    for (int i = 0; i < m_; ++i) g[n6_ + i] = res_[s_.rowInfo_[act_[i]].mu];
    return g;
  }
  double norm(const Eigen::VectorXd& g) const {
    return std::sqrt(g.head(n6_).squaredNorm() / (scaleF_ * scaleF_) + 1e6 * g.tail(m_).squaredNorm());
  }
  // 1e-9 of the largest weight, or where stiff elements make G's rounding
  // larger (a steel beam's axial 4e8 N/m on positions rounded to 2e-16 m:
  // 4e-8 N), 16 times that rounding.
  double forceTolerance() const {
    double r = 1.0;
    for (int b : moving_)
      for (int a = 0; a < 3; ++a) r = std::max(r, std::abs(y_[s_.bodies_[b].slot + a]));
    return std::max(1e-9 * scaleF_, 16 * std::numeric_limits<double>::epsilon() * stiffMax_ * r);
  }
  void apply(std::vector<double>& yy, const Eigen::VectorXd& dz, double s) const {
    s_.setPositions(yy, dz.head(n6_), s);
    for (int i = 0; i < m_; ++i) yy[s_.rowInfo_[act_[i]].lambda] += s * dz[n6_ + i];
  }
  double fdStep(int c) const {
    return c < n6_ ? 1e-7 : 1e-6 * std::max(1.0, std::abs(y_[s_.rowInfo_[act_[c - n6_]].lambda]));
  }
  [[noreturn]] void noUniqueEquilibrium(Eigen::Index rank) const {
    fail("mechanism", "", "no unique static equilibrium: " + std::to_string(n_ - rank) +
                              " direction(s) with neither stiffness nor constraint (add a spring, a motion or a joint)");
  }

  // Large models: the Jacobian by finite differences over groups of columns
  // that share no row of G (columnGroups), its structure the DAE's
  // (couplingEntries, couplingGroups: the same parts and constraints) plus
  // the parts externalForces act on, all coupled with each other (they are
  // assumed to depend on those parts' positions alone, as the actuators' do).
  // About 20 evaluations of G per Newton step on a chain or a ladder, for
  // any N, where the dense path takes one per column, and a sparse LU.
  void sparseStructure() {
    const int N = s_.nStates_;
    // Local state -> first of its Jacobian columns (and how many); local
    // equation -> first of its rows of G.
    std::vector<int> colAt(N, -1), colsN(N, 0), rowAt(N, -1), rowsN(N, 0);
    for (size_t q = 0; q < moving_.size(); ++q) {
      const int s = s_.bodies_[moving_[q]].slot, c0 = 6 * static_cast<int>(q);
      for (int a = 0; a < 7; ++a) colAt[s + a] = c0 + (a < 3 ? 0 : 3), colsN[s + a] = 3;  // r -> dr, p -> dpi'
      for (int a = 7; a < 13; ++a) rowAt[s + a] = c0, rowsN[s + a] = 6;
    }
    for (int i = 0; i < m_; ++i) {
      colAt[s_.rowInfo_[act_[i]].lambda] = n6_ + i, colsN[s_.rowInfo_[act_[i]].lambda] = 1;
      rowAt[s_.rowInfo_[act_[i]].mu] = n6_ + i, rowsN[s_.rowInfo_[act_[i]].mu] = 1;
    }
    std::vector<std::pair<int, int>> entries = s_.couplingEntries();
    auto couple = [&](const std::vector<int>& states) {
      for (int r : states)
        for (int c : states) entries.emplace_back(r, c);
    };
    for (const std::vector<int>& grp : s_.couplingGroups()) couple(grp);
    if (s_.externalForces) couple(externallyLoadedStates());
    // Blocks (first column, first row) of G's Jacobian, then their entries.
    std::vector<std::pair<int, int>> blocks;
    std::vector<int> colN(n_, 0), rowN(n_, 0);
    for (const auto& [r, c] : entries) {
      if (rowAt[r] < 0 || colAt[c] < 0) continue;
      blocks.emplace_back(colAt[c], rowAt[r]);
      colN[colAt[c]] = colsN[c];
      rowN[rowAt[r]] = rowsN[r];
    }
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    colRows_.assign(n_, {});
    for (const auto& [c, r] : blocks)
      for (int j = 0; j < colN[c]; ++j)
        for (int i = 0; i < rowN[r]; ++i) colRows_[c + j].push_back(r + i);
    groups_ = columnGroups(colRows_, n_);
  }

  // The states of the parts externalForces pushes on at y (a probe: the
  // forces themselves are discarded).
  std::vector<int> externallyLoadedStates() {
    std::vector<char> pushed(s_.bodies_.size(), 0);
    s_.kinematics(y_.data(), s_.kin_);
    s_.F_.assign(s_.bodies_.size(), V3::Zero());
    s_.N_.assign(s_.bodies_.size(), V3::Zero());
    s_.pushed_ = &pushed;
    try {
      s_.externalForces(t_, y_.data(), s_.kin_, s_);
    } catch (...) {
      s_.pushed_ = nullptr;
      throw;
    }
    s_.pushed_ = nullptr;
    std::vector<int> states;
    for (size_t b = 0; b < s_.bodies_.size(); ++b)
      if (pushed[b])
        for (int a = 0; a < 14; ++a) states.push_back(s_.bodies_[b].slot + a);
    return states;
  }

  // The reactions that best balance the applied forces at these positions
  // first: Newton then linearises about the right reactions' geometric
  // stiffness. From lambda = 0 a lever pushed by a cylinder took a first
  // step the wrong way and stalled where that stiffness vanished.
  void balanceReactions(Eigen::VectorXd& g) {
    s_.kinematics(y_.data(), k_);
    s_.buildRows(t_, y_.data(), k_, rows_);
    Eigen::VectorXd dl;
    if (dense_) {
      dl = s_.constraintMatrix(rows_, true).transpose().completeOrthogonalDecomposition().solve(g.head(n6_));
    } else {
      // Least squares C^T dl = forces (C^T has full column rank: the
      // redundant rows are off) by the normal equations C C^T dl = C f:
      // only Newton's start, which then solves for lambda itself; linear
      // in N where a sparse QR of C^T grew like N^2. The QR where C C^T
      // is singular (a loop at a change point).
      const SpMat Cs = s_.sparseOf(s_.activeRows(rows_)), Ct = Cs.transpose();
      const Eigen::SimplicialLDLT<SpMat> ne(Cs * Ct);
      if (ne.info() == Eigen::Success) dl = ne.solve(Eigen::VectorXd(Cs * g.head(n6_)));
      if (ne.info() != Eigen::Success || !dl.allFinite()) {
        Eigen::SparseQR<SpMat, Eigen::COLAMDOrdering<int>> ls(Ct);
        if (ls.info() != Eigen::Success) fail("mechanism", "", "sparse QR of the constraint matrix failed");
        dl = ls.solve(Eigen::VectorXd(g.head(n6_)));
      }
    }
    for (int i = 0; i < m_; ++i) y_[s_.rowInfo_[act_[i]].lambda] += dl[i];
    g = G(y_);
  }

  // Newton's step from y_ (G there: g); where the Jacobian is singular, the
  // error, or with `quiet` an empty step.
  Eigen::VectorXd denseStep(const Eigen::VectorXd& g, bool quiet = false) {
    Eigen::MatrixXd Jm(n_, n_);
    for (int c = 0; c < n_; ++c) {
      std::vector<double> yy = y_;
      Eigen::VectorXd e = Eigen::VectorXd::Zero(n_);
      const double h = fdStep(c);
      e[c] = h;
      apply(yy, e, 1.0);
      Jm.col(c) = (G(yy) - g) / h;
    }
    stiffMax_ = std::max(stiffMax_, Jm.topLeftCorner(n6_, n6_).cwiseAbs().maxCoeff());
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Jm);
    if (qr.rank() < n_) {
      if (quiet) return {};
      noUniqueEquilibrium(qr.rank());
    }
    return qr.solve(-g);
  }

  Eigen::VectorXd sparseStep(const Eigen::VectorXd& g, bool quiet = false) {
    std::vector<Eigen::Triplet<double>> tr;
    for (const std::vector<int>& grp : groups_) {
      std::vector<double> yy = y_;
      Eigen::VectorXd e = Eigen::VectorXd::Zero(n_);
      for (int c : grp) e[c] = fdStep(c);
      apply(yy, e, 1.0);
      const Eigen::VectorXd d = G(yy) - g;
      for (int c : grp)
        for (int r : colRows_[c]) {
          tr.emplace_back(r, c, d[r] / e[c]);
          if (r < n6_ && c < n6_) stiffMax_ = std::max(stiffMax_, std::abs(d[r] / e[c]));
        }
    }
    SpMat Js(n_, n_);
    Js.setFromTriplets(tr.begin(), tr.end());
    // LU (far cheaper than a sparse QR here). Where it meets a zero pivot, the
    // dense path's QR counts the missing directions for the message (the
    // sparse QR is not rank-revealing: it found 63 of a free chain's 64),
    // up to 4000 unknowns (128 MB); above, the sparse QR's count.
    Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu(Js);
    if (lu.info() != Eigen::Success && quiet) return {};
    if (lu.info() != Eigen::Success) {
      Eigen::Index rank = n_ - 1;
      if (n_ <= 4000) {
        rank = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(Eigen::MatrixXd(Js)).rank();
      } else {
        Js.makeCompressed();
        const Eigen::SparseQR<SpMat, Eigen::COLAMDOrdering<int>> qr(Js);
        if (qr.info() == Eigen::Success) rank = qr.rank();
      }
      noUniqueEquilibrium(std::min<Eigen::Index>(rank, n_ - 1));
    }
    return lu.solve(Eigen::VectorXd(-g));
  }

  // Where the first trial point yy (G there: g1, the step s dz) raised the
  // norm of G from n0: Newton's step from yy, with the Jacobian there. Kept
  // (yy, g1 moved on) when it is a small correction, a quarter of the first
  // step at most (inside Newton's contraction, not a jump to another
  // equilibrium), and the norm over the two steps falls. A bending beam's
  // full step stretches its stiff axial elements to second order (decision
  // 0017: node bodies and element forces), a residual hundreds of times the
  // start's that Newton at yy removes, where halving the step crawled.
  bool corrected(std::vector<double>& yy, Eigen::VectorXd& g1, const Eigen::VectorXd& dz, double s, double n0) {
    const std::vector<double> y0 = y_;
    y_ = yy;
    const Eigen::VectorXd dc = dense_ ? denseStep(g1, true) : sparseStep(g1, true);
    bool ok = dc.size() == n_ && dc.allFinite() &&
              dc.head(n6_).lpNorm<Eigen::Infinity>() <= 0.25 * s * dz.head(n6_).lpNorm<Eigen::Infinity>();
    std::vector<double> y2 = yy;
    Eigen::VectorXd g2;
    if (ok) {
      apply(y2, dc, 1.0);
      s_.projectPositions(t_, y2);
      g2 = G(y2);
      ok = norm(g2) < n0;
    }
    y_ = y0;
    if (ok) yy = std::move(y2), g1 = std::move(g2);
    return ok;
  }

  // Moves y along dz, halving the step until the weighted norm of G falls
  // (or, where the first trial raised it, with a Newton correction from
  // there: corrected); returns the step taken (g: G there).
  double lineSearch(const Eigen::VectorXd& dz, Eigen::VectorXd& g) {
    // At most a tenth of a turn per step: where the stiffness of a
    // direction vanishes (a pendulum held level) Newton's step is huge, and
    // a rotation by millions of radians lands anywhere on the circle, the
    // windings counting every turn of it.
    double turnMax = 0.0;
    for (size_t q = 0; q < moving_.size(); ++q) turnMax = std::max(turnMax, dz.segment<3>(6 * q + 3).norm());
    double s = turnMax > kMaxStaticTurn ? kMaxStaticTurn / turnMax : 1.0;
    const double n0 = norm(g);
    std::vector<double> yy;
    Eigen::VectorXd g1;
    for (int ls = 0; ls < 30; ++ls, s *= 0.5) {
      yy = y_;
      apply(yy, dz, s);
      // Back onto the constraints before judging the step: a turn taken
      // along the linearised joints leaves a second-order gap that the
      // constraint weight would otherwise let through only in tiny steps.
      s_.projectPositions(t_, yy);
      g1 = G(yy);
      if (norm(g1) < n0 || ls == 29) break;
      if (ls == 0 && corrected(yy, g1, dz, s, n0)) break;
    }
    y_ = yy;
    g = g1;
    return s;
  }
};

// Contact pairs with friction hold their parts where the analysis starts
// (MultibodySystem::anchorContacts: a tangential spring per contact point,
// as stiff as the stick state's); the equilibrium stands only if every such
// pair's friction then lies inside its cone, |F_t| <= mu_static N. The
// anchors stay for the outputs (the friction channels show their forces).
void staticEquilibrium(MultibodySystem& sys, double t, std::vector<double>& y, std::vector<double>& yp) {
  sys.anchorContacts(y.data());
  StaticEquilibrium(sys, t, y).solve(yp);
  if (const std::string why = sys.frictionConeBreach(y.data()); !why.empty()) fail("mechanism", "contacts", why);
}

void kinematicAnalysis(MultibodySystem& sys, double t, std::vector<double>& y, std::vector<double>& yp) {
  if (sys.dof_ != 0)
    fail("mechanism", "motions",
         "kinematic analysis needs a fully driven mechanism; " + std::to_string(sys.dof_) +
             " degree(s) of freedom remain (add motions or run a dynamic analysis)");
  if (sys.nStates_ == 0) {  // everything welded to the ground
    yp.clear();
    return;
  }
  for (int it = 0; sys.correctPositions(t, y); ++it)
    if (it == 50)
      fail("mechanism", "",
           "kinematic analysis: the constraints cannot be met at t = " + numberText(t) + " s (a lock-up position?)");
  std::vector<Kin> k;
  std::vector<Row> rows;
  sys.projectVelocities(t, y);
  yp.assign(sys.nStates_, 0.0);
  // Accelerations from C a = gamma (the mechanism is fully driven, so the
  // masses do not matter), then the reactions from M a = Q - C^T lambda.
  std::vector<int> moving;
  for (size_t b = 0; b < sys.bodies_.size(); ++b)
    if (!sys.bodies_[b].ground) moving.push_back(static_cast<int>(b));
  const int n6 = 6 * static_cast<int>(moving.size());
  sys.kinematics(y.data(), k);
  sys.buildRows(t, y.data(), k, rows);
  // Large models: C (square, 0 DOF) by a sparse LU, used again transposed
  // for the reactions; a sparse least-squares fallback where it is singular.
  const bool dense = sys.denseAssembly();
  const Eigen::MatrixXd C = dense ? sys.constraintMatrix(rows, true) : Eigen::MatrixXd();
  const SpMat Cs = dense ? SpMat() : sys.sparseOf(sys.activeRows(rows));
  Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
  bool luOk = false;
  if (!dense && Cs.rows() == Cs.cols()) {
    lu.compute(Cs);
    luOk = lu.info() == Eigen::Success;
  }
  std::vector<double> yv = y;
  for (const RowInfo& r : sys.rowInfo_) yv[r.lambda] = 0.0;
  const Eigen::VectorXd gamma = sys.accelerationRhs(t, yv);
  const Eigen::VectorXd acc = dense  ? Eigen::VectorXd(C.completeOrthogonalDecomposition().solve(gamma))
                              : luOk ? Eigen::VectorXd(lu.solve(gamma))
                                     : minimumNorm(Cs, gamma);
  // Applied forces at lambda = 0, then C^T lambda = Q - M a - gyroscopic.
  std::vector<double> zero(sys.nStates_, 0.0), res(sys.nStates_);
  sys.residual(t, yv.data(), zero.data(), res.data());
  Eigen::VectorXd Q(n6);
  for (size_t q = 0; q < moving.size(); ++q) {
    const BodyRT& B = sys.bodies_[moving[q]];
    const Kin& kk = sys.kin_[moving[q]];
    Q.segment<3>(6 * q) = sys.F_[moving[q]] - B.m * acc.segment<3>(6 * q);
    Q.segment<3>(6 * q + 3) = sys.N_[moving[q]] - kk.w.cross(B.J * kk.w) - B.J * acc.segment<3>(6 * q + 3);
  }
  Eigen::VectorXd lam;
  if (dense) {
    lam = C.transpose().completeOrthogonalDecomposition().solve(Q);
  } else if (luOk) {
    lam = lu.transpose().solve(Q);
  } else {
    const SpMat Ct = Cs.transpose();
    Eigen::SparseQR<SpMat, Eigen::COLAMDOrdering<int>> ls(Ct);
    if (ls.info() != Eigen::Success) fail("mechanism", "", "sparse QR of the constraint matrix failed");
    lam = ls.solve(Q);
  }
  int i2 = 0;
  for (const RowInfo& r : sys.rowInfo_) y[r.lambda] = r.active ? lam[i2++] : 0.0;
  for (size_t q = 0; q < moving.size(); ++q) {
    const int s = sys.bodies_[moving[q]].slot;
    for (int a = 0; a < 3; ++a) {
      yp[s + 7 + a] = acc[6 * q + a];
      yp[s + 10 + a] = acc[6 * q + 3 + a];
    }
  }
  sys.writeKinematicDerivatives(y.data(), yp.data());
}

}  // namespace pm::mb

namespace pm {

AnalysisReport runMechanismAnalysis(const Project& pr, const std::string& file, MechanismAnalysis kind,
                                    ResultStore& out) {
  return runMechanismAnalysis(pr, file, kind, out, BuildOptions{});
}

AnalysisReport runMechanismAnalysis(const Project& pr, const std::string& file, MechanismAnalysis kind,
                                    ResultStore& out, const BuildOptions& options) {
  validateProject(pr, file);
  if (pr.mechanism.empty()) throw ProjectError(file, "mechanism", "", "the project has no mechanism to analyse");
  // With a circuit, the whole project is compiled so that the actuators
  // attached to the mechanism act on it, with the chamber pressures held at
  // their initial values (the analyses do not integrate the circuit).
  std::unique_ptr<System> circuit;
  MechanismElement* attached = nullptr;
  std::unique_ptr<mb::MultibodySystem> own;
  mb::MultibodySystem* sys = nullptr;
  if (!pr.components.empty()) {
    circuit = Compiler::compile(pr, file, options);
    attached = mechanismOf(*circuit);
    if (attached && !attached->hasAttachments()) attached = nullptr;
  }
  if (attached) {
    std::vector<double> y0 = circuit->initialState(), yp0(y0.size(), 0.0);
    circuit->updateDiscrete(0.0, y0.data(), yp0.data(), true);
    circuit->presolveJunctions(0.0, y0.data(), yp0.data());
    attached->holdCircuit(*circuit, std::move(y0));
    sys = &attached->multibody();
  } else {
    try {
      own = std::make_unique<mb::MultibodySystem>(pr.mechanism, mb::ExternalLoads{},
                                                  mb::MultibodyOptions{options.lumpFixedJoints, options.forceDense});
    } catch (const std::runtime_error& e) {
      throwMechanismError(file, e.what());
    }
    sys = own.get();
  }
  AnalysisReport rep;
  rep.dof = sys->degreesOfFreedom();
  rep.messages = sys->messages();
  std::vector<ChannelInfo> ch;
  for (const auto& c : sys->channels()) ch.push_back({c.name, c.unit});
  out.setChannels(ch);
  std::vector<double> y = sys->initialState(), yp(y.size(), 0.0), row(ch.size());
  struct Anchors {  // the static analyses' contact anchors, off when done
    mb::MultibodySystem* s;
    ~Anchors() { s->releaseContactAnchors(); }
  } anchors{sys};
  const auto wall0 = std::chrono::steady_clock::now();
  auto analyse = [&](double t) {
    try {
      if (kind == MechanismAnalysis::Kinematic) mb::kinematicAnalysis(*sys, t, y, yp);
      else mb::staticEquilibrium(*sys, t, y, yp);
    } catch (const std::runtime_error& e) {
      const std::string w = e.what();
      throw std::runtime_error("at t = " + numberText(t) + " s: " + w);
    }
    if (const std::string why = sys->constraintBreach(t, y.data()); !why.empty()) throw std::runtime_error(why);
    sys->outputs(t, y.data(), yp.data(), row.data());
    out.append(t, row.data());
  };
  // Names the circuit forces in the report, with their values at the last point.
  auto circuitNote = [&] {
    if (!attached) return;
    std::ostringstream o;
    o << "circuit forces included, chamber pressures held at their initial values (friction from the "
         "joint rates, stops and springs from the positions):";
    for (const auto& [who, f] : attached->heldForces(y.data())) o << " " << who << " " << f;
    o << " (N or N m)";
    rep.messages.push_back(o.str());
  };
  auto finish = [&] {
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    circuitNote();
    return rep;
  };
  if (kind == MechanismAnalysis::Static) {
    analyse(0.0);
    return finish();
  }
  const double dt = pr.simulation.output_interval, tEnd = pr.simulation.t_end;
  const long n = std::lround(std::ceil(tEnd / dt - 1e-9));
  const WallTimeLimit limit(pr.simulation.wall_time_limit, nullptr, nullptr);
  for (long k = 0; k <= n; ++k) {
    const double t = std::min(k * dt, tEnd), tLast = std::min((k - 1) * dt, tEnd);
    if (limit.exceeded()) throw std::runtime_error(limit.message(tLast));
    // Start Newton from a first-order prediction along the last velocities
    // (orientations and joint windings too: a fast crank keeps its turns).
    if (k > 0 && kind == MechanismAnalysis::Kinematic) sys->predict(y, t - tLast);
    // Quasi-statics has no velocities to predict with: equilibria at
    // intermediate times (not written) keep each Newton start within a
    // quarter turn of the motions, so a linkage they turn fast between two
    // outputs stays on its branch.
    if (k > 0 && kind == MechanismAnalysis::QuasiStatic) {
      const int sub = static_cast<int>(std::ceil(sys->motionTurn(tLast, t) / (0.25 * M_PI)));
      for (int s = 1; s < sub; ++s) {
        const double ts = tLast + (t - tLast) * s / sub;
        try {
          mb::staticEquilibrium(*sys, ts, y, yp);
        } catch (const std::runtime_error& e) {
          throw std::runtime_error("at t = " + numberText(ts) + " s: " + e.what());
        }
      }
    }
    analyse(t);
  }
  return finish();
}

}  // namespace pm
