#include "mechanics/reduced_coordinates.h"

#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pm::mb {

namespace {
// Newton on Phi = 0 stops at this max |Phi| (lengths scaled by L): near
// rounding, so that difference quotients of the expansion are clean.
constexpr double kTol = 1e-12;
constexpr int kMaxIterations = 12;
// A node of the table closes its constraints to this: its interpolant's
// second derivative weighs the nodes' positions by ~60/step^2 (7e6), so
// Newton's usual 1e-12 would show in the accelerations.
constexpr double kNodeTol = 1e-14;
// A new partition is asked for when |dq_D/dz| has grown this much since the
// last one (the dependent block of Phi_q approaching singularity).
constexpr double kGrowth = 8.0;
// With a table, sooner: its interpolation error follows the high
// derivatives of q(z), which grow much faster than dq/dz towards the
// partition's edge. Largest acceleration error at the output rows (against
// the exact index-1 solution) and loop residual, growth 8 with step 1e-3
// -> growth 2 with step 3e-3 (a third of the nodes): tool changer 5.7e-5 ->
// 2.5e-7 m/s2 (largest acceleration 374), 2.4e-12 -> 1.2e-14 m; knuckle
// press, where its toggle nears dead centre (not a partition's edge),
// 4e-6 -> 3.9e-4 m/s2 (largest 5065), 1.4e-14 -> 1e-11 m.
constexpr double kGrowthTable = 2.0;
// An accepted pose becomes the anchor when its independent coordinates
// moved by more than this (scaled) from the anchor's: the predictor from
// the anchor then stays within ~1e-8 and Newton within two iterations.
constexpr double kAnchorMove = 1e-4;
// Newton takes fresh factors when the residual falls by less than this.
constexpr double kSlow = 0.25;
const char* kNames[7] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
// Grid of the tabulated expansion, in scaled units of z (lengths / L). The
// quintic Hermite interpolant's error goes with step^6 (positions) and
// step^4 (accelerations): with kGrowthTable, the tool changer's largest
// acceleration error is 7e-8, 2.5e-7, 5.5e-7 m/s2 at 2e-3, 3e-3, 4e-3.
constexpr double kGridStep = 3e-3;
}  // namespace

ReducedCoordinates::ReducedCoordinates(MultibodySystem& mb, double t0, const double* y0, const Sharing& sharing)
    : mb_(mb) {
  movingOf_.assign(mb.bodies().size(), -1);
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (size_t b = 0; b < mb.bodies().size(); ++b) {
    const BodyRT& B = mb.bodies()[b];
    if (B.ground) continue;
    movingOf_[b] = static_cast<int>(slot_.size());
    slot_.push_back(B.slot);
    bodyOf_.push_back(static_cast<int>(b));
    centroid += Eigen::Vector3d(y0[B.slot], y0[B.slot + 1], y0[B.slot + 2]);
  }
  const int nm = static_cast<int>(slot_.size());
  if (nm > 0) centroid /= nm;
  // Characteristic length: how far the parts lie from their centroid (or
  // from the ground origin for one part); lengths are divided by it so that
  // positions and Euler parameters weigh alike in the pivoting.
  L_ = 0.0;
  for (int k = 0; k < nm; ++k) {
    const Eigen::Vector3d r(y0[slot_[k]], y0[slot_[k] + 1], y0[slot_[k] + 2]);
    L_ = std::max(L_, nm == 1 ? r.norm() : (r - centroid).norm());
  }
  L_ = std::max(L_, 1e-2);
  for (size_t i = 0; i < mb.rows().size(); ++i)
    if (mb.rows()[i].active) active_.push_back(static_cast<int>(i));
  neq_ = static_cast<int>(active_.size()) + nm;
  mb.constraintRows(t0, y0, kin_, rows_);
  for (int i : active_) {
    bool length = false;
    for (int q = 0; q < rows_[i].n; ++q) length = length || rows_[i].r[q].squaredNorm() > 0.0;
    lengthRow_.push_back(length);
  }
  wind_ = mb.windingStates();
  // Before the partition, whose growth limit depends on it (its rank check
  // makes 7 per part - rows the degrees of freedom).
  tabulate_ = sharing.tabulate && 7 * nm - neq_ == 1 && mb.scleronomic();
  if (tabulate_) tables_ = sharing.tables, hints_ = sharing.tables && sharing.solver;
  partition(t0, y0);
}

std::string ReducedCoordinates::coordinateName(int i) const {
  const int c = indep_[i];
  for (const BodyRT& B : mb_.bodies())
    if (!B.ground && B.slot == slot_[c / 7]) return B.id + "." + kNames[c % 7];
  return kNames[c % 7];
}

double ReducedCoordinates::evaluate(double t, const double* y) {
  mb_.constraintRows(t, y, kin_, rows_);
  const int na = static_cast<int>(active_.size());
  phi_.resize(neq_);
  phit_.resize(neq_);
  double big = 0.0;
  for (int i = 0; i < na; ++i) {
    const Row& r = rows_[active_[i]];
    const double s = lengthRow_[i] ? 1.0 / L_ : 1.0;
    phi_[i] = r.phi * s;
    phit_[i] = r.phit * s;
    big = std::max(big, std::abs(phi_[i]));
  }
  for (size_t k = 0; k < slot_.size(); ++k) {
    const double* p = y + slot_[k] + 3;
    phi_[na + k] = 0.5 * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - 1.0);
    phit_[na + k] = 0.0;
    big = std::max(big, std::abs(phi_[na + k]));
  }
  return big;
}

template <class Put>
void ReducedCoordinates::jacobianEntries(const double* y, Put put) const {
  const int na = static_cast<int>(active_.size());
  for (int i = 0; i < na; ++i) {
    const Row& r = rows_[active_[i]];
    const double s = lengthRow_[i] ? 1.0 / L_ : 1.0;
    for (int q = 0; q < r.n; ++q) {
      const int k = movingOf_[r.b[q]];
      if (k < 0) continue;
      const double* p = y + slot_[k] + 3;
      // d phi = Phi_r dr + Phi_pi' dpi', dpi' = 2 L(p) dp (seed 004 with
      // Euler parameters); r is scaled by L.
      const Eigen::Matrix<double, 1, 4> dp = (2.0 * s) * (r.p[q].transpose() * Lmat(Q4(p[0], p[1], p[2], p[3])));
      for (int a = 0; a < 3; ++a) put(i, 7 * k + a, r.r[q][a] * L_ * s);
      for (int a = 0; a < 4; ++a) put(i, 7 * k + 3 + a, dp[a]);
    }
  }
  for (size_t k = 0; k < slot_.size(); ++k)  // normalisation rows
    for (int a = 0; a < 4; ++a) put(na + static_cast<int>(k), 7 * static_cast<int>(k) + 3 + a, y[slot_[k] + 3 + a]);
}

Eigen::MatrixXd ReducedCoordinates::fullJacobian(const double* y) const {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(neq_, 7 * static_cast<int>(slot_.size()));
  jacobianEntries(y, [&](int row, int c, double v) { J(row, c) += v; });
  return J;
}

void ReducedCoordinates::jacobianBlocks(const double* y) {
  Jd_.setZero(neq_, neq_);
  Ji_.setZero(neq_, dof());
  jacobianEntries(y, [&](int row, int c, double v) {
    const int col = column_[c];
    if (col >= 0) Jd_(row, col) += v;
    else Ji_(row, -1 - col) += v;
  });
}

void ReducedCoordinates::partition(double t, const double* y, long index) {
  evaluate(t, y);
  const Eigen::MatrixXd J = fullJacobian(y);
  Eigen::FullPivLU<Eigen::MatrixXd> lu(J);
  if (lu.rank() < neq_)
    throw std::runtime_error("the constraint rows are not independent at the start (" + std::to_string(neq_ - lu.rank()) +
                             " redundant); the reduced formulation needs them independent");
  const auto& Q = lu.permutationQ().indices();
  std::vector<bool> isDep(J.cols(), false);
  for (int j = 0; j < neq_; ++j) isDep[Q[j]] = true;
  indep_.clear();
  dep_.clear();
  column_.assign(J.cols(), 0);
  for (int c = 0; c < J.cols(); ++c) {
    if (isDep[c]) {
      column_[c] = static_cast<int>(dep_.size());
      dep_.push_back(c);
    } else {
      column_[c] = -1 - static_cast<int>(indep_.size());
      indep_.push_back(c);
    }
  }
  indepEuler_.assign(slot_.size(), 0);
  for (int c : indep_)
    if (c % 7 >= 3) indepEuler_[c / 7] = 1;
  qA_.assign(J.cols(), 0.0);
  setAnchor(t, y, true);
  limit_ = (tabulate_ ? kGrowthTable : kGrowth) * std::max(1.0, Bs_.size() ? Bs_.cwiseAbs().maxCoeff() : 0.0);
  margin_ = 1.0;
  // A new independent coordinate: a new table, its grid through this pose,
  // and its node 0 at this pose (from the anchor, this pose now).
  partitionIndex_ = index >= 0 ? index : partitionIndex_ + 1;
  partT_ = t;
  pose_.assign(y, y + mb_.size());
  tabled_ = false;
  table_.reset();
  if (!tabulate_ || indep_.empty()) return;
  gridZ0_ = coordinate(y, indep_[0]);
  gridStep_ = kGridStep * coordinateScale(indep_[0]);
  table_ = tables_ ? tables_->at(partitionIndex_) : std::make_shared<Table>();
  if (hints_) tables_->announce(partitionIndex_, t, pose_);
  const std::vector<double> windings = windingsOf(y);
  std::lock_guard<std::mutex> lock(table_->make);
  if (!table_->find(0)) makeNode(t, 0, nullptr, 0.0, windings.data());
}

void ReducedCoordinates::setAnchor(double t, const double* y, bool force) {
  const int f = dof();
  if (!force && zA_.size() == f) {
    // Every coordinate counts: a motion moves the dependent ones alone, and
    // Newton from an anchor far behind may find another branch of
    // sin(angle - f(t)) = 0.
    double moved = 0.0;
    for (size_t c = 0; c < qA_.size(); ++c)
      moved = std::max(moved, std::abs(coordinate(y, static_cast<int>(c)) - qA_[c]) / coordinateScale(static_cast<int>(c)));
    if (moved <= kAnchorMove) return;
  }
  evaluate(t, y);
  jacobianBlocks(y);
  if (!luA_.factor(Jd_)) {
    if (force) throw std::runtime_error("the constraint Jacobian is singular in the dependent coordinates");
    return;  // keep the old anchor
  }
  for (size_t c = 0; c < qA_.size(); ++c) qA_[c] = coordinate(y, static_cast<int>(c));
  zA_.resize(f);
  for (int i = 0; i < f; ++i) zA_[i] = coordinate(y, indep_[i]);
  Bs_ = -Ji_;
  for (int i = 0; i < f; ++i) luA_.solve(Bs_.col(i).data());
  BA_ = Bs_;
  for (int j = 0; j < neq_; ++j)
    for (int i = 0; i < f; ++i) BA_(j, i) *= coordinateScale(dep_[j]) / coordinateScale(indep_[i]);
}

void ReducedCoordinates::reduce(const double* y, double* z, double* u) const {
  // u: the rates of the chosen coordinates, from the velocities.
  for (int i = 0; i < dof(); ++i) {
    const int c = indep_[i], s = slot_[c / 7];
    z[i] = coordinate(y, c);
    if (c % 7 < 3) {
      u[i] = y[s + 7 + c % 7];
    } else {
      const Q4 p(y[s + 3], y[s + 4], y[s + 5], y[s + 6]);
      const Q4 pd = 0.5 * Lmat(p).transpose() * V3(y[s + 10], y[s + 11], y[s + 12]);
      u[i] = pd[c % 7 - 3];
    }
  }
}

bool ReducedCoordinates::newton(double t, double* y, int maxIterations, bool polish, const Lu* start) {
  // The anchor's factors first (the start is a function of the anchor and z
  // alone, so the result does not depend on earlier evaluations), or a
  // node's neighbour's; fresh factors at the iterate only when they
  // contract slowly.
  double prev = std::numeric_limits<double>::infinity();
  lu_ = start ? start : &luA_;
  int polished = 0;
  for (int it = 0;; ++it) {
    const double res = evaluate(t, y);
    if (!std::isfinite(res)) return false;
    if (res <= kTol) {
      // A node goes on (kNodeTol) while Newton still gains.
      if (!polish || res <= kNodeTol || res > 0.5 * prev || polished >= 3) return true;
      ++polished;
    }
    if (it >= maxIterations) return false;
    if (res > kSlow * prev) {
      jacobianBlocks(y);
      if (!luTmp_.factor(Jd_)) return false;
      lu_ = &luTmp_;
    }
    prev = res;
    dq_ = -phi_;
    lu_->solve(dq_.data());
    for (int j = 0; j < neq_; ++j) coordinate(y, dep_[j]) += dq_[j] * coordinateScale(dep_[j]);
    normalise(y);
    iterations_ = it + 1;
  }
}

bool ReducedCoordinates::solveDependent() {
  // The factors of this expansion's Newton, refined against the exact Jd_:
  // each pass multiplies the error by (distance of their pose) x curvature.
  X_ = R_;
  for (int c = 0; c < X_.cols(); ++c) lu_->solve(X_.col(c).data());
  const double scale = std::max(1.0, R_.cwiseAbs().maxCoeff());
  for (int pass = 0; pass < 4; ++pass) {
    double big = 0.0;
    for (int c = 0; c < X_.cols(); ++c) {
      res_ = R_.col(c);
      for (int k = 0; k < neq_; ++k) {
        const double x = X_(k, c);
        if (x != 0.0) res_.noalias() -= Jd_.col(k) * x;
      }
      big = std::max(big, res_.cwiseAbs().maxCoeff());
      if (pass < 3) {
        lu_->solve(res_.data());
        X_.col(c) += res_;
      }
    }
    if (big <= 1e-15 * scale) return pass <= 1;
  }
  // The factors were from too far away: factorise here.
  if (luTmp_.factor(Jd_)) {
    lu_ = &luTmp_;
    X_ = R_;
    for (int c = 0; c < X_.cols(); ++c) luTmp_.solve(X_.col(c).data());
  }
  return false;
}

void ReducedCoordinates::normalise(double* y) const {
  // The Jacobian differentiates the rows along rotations (d pi' = 2 L(p) dp),
  // not along |p|, on which A(p) also depends off the unit sphere (the
  // tool changer's nodes: the first Newton step raised the residual from
  // 5e-10 to 8e-10). Newton stays on it when the parts' Euler parameters
  // are rescaled after each step (not those of a part whose parameter is
  // independent: z must stay).
  for (size_t k = 0; k < slot_.size(); ++k) {
    if (indepEuler_[k]) continue;
    double* p = y + slot_[k] + 3;
    const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    if (n > 0.0)
      for (int a = 0; a < 4; ++a) p[a] /= n;
  }
}

std::vector<double> ReducedCoordinates::windingsOf(const double* y) const {
  std::vector<double> w(wind_.size());
  for (size_t i = 0; i < wind_.size(); ++i) w[i] = y[wind_[i]];
  return w;
}

void ReducedCoordinates::clearState(const double* windings, double* y) const {
  std::fill(y, y + mb_.size(), 0.0);
  for (size_t i = 0; i < wind_.size(); ++i) y[wind_[i]] = windings[i];
}

bool ReducedCoordinates::expand(double t, const double* z, const double* u, const double* windings, double* y) {
  if (!tabulate_) return expandExact(t, z, u, windings, y);
  const Node *a = nullptr, *b = nullptr;
  double s = 0.0;
  if (!cell(t, z, windings, a, b, s)) return false;  // beyond where the loop closes: the integrator cuts its step
  if (hints_) {
    const long k = cellOf(z[0]);
    const double sign = u[0] >= 0.0 ? 1.0 : -1.0;
    if (k != hintCell_ || sign != hintSign_ || !std::isfinite(table_->hintZ.load(std::memory_order_relaxed))) {
      table_->hintZ.store(z[0], std::memory_order_relaxed);
      table_->hintU.store(u[0], std::memory_order_relaxed);
      hintCell_ = k;
      hintSign_ = sign;
    }
  }
  // Quintic Hermite on [0, 1] from value, slope and curvature at both ends.
  const double s2 = s * s, s3 = s2 * s, s4 = s3 * s, s5 = s4 * s;
  const double h = gridStep_;
  const double H[6] = {1 - 10 * s3 + 15 * s4 - 6 * s5,   s - 6 * s3 + 8 * s4 - 3 * s5,   0.5 * (s2 - 3 * s3 + 3 * s4 - s5),
                       10 * s3 - 15 * s4 + 6 * s5,       -4 * s3 + 7 * s4 - 3 * s5,       0.5 * (s3 - 2 * s4 + s5)};
  const double D[6] = {-30 * s2 + 60 * s3 - 30 * s4,     1 - 18 * s2 + 32 * s3 - 15 * s4, 0.5 * (2 * s - 9 * s2 + 12 * s3 - 5 * s4),
                       30 * s2 - 60 * s3 + 30 * s4,      -12 * s2 + 28 * s3 - 15 * s4,   0.5 * (3 * s2 - 8 * s3 + 5 * s4)};
  const double C[6] = {-60 * s + 180 * s2 - 120 * s3,    -36 * s + 96 * s2 - 60 * s3,     0.5 * (2 - 18 * s + 36 * s2 - 20 * s3),
                       60 * s - 180 * s2 + 120 * s3,     -24 * s + 84 * s2 - 60 * s3,     0.5 * (6 * s - 24 * s2 + 20 * s3)};
  const size_t nc = a->q.size();
  tq1_.resize(nc);
  tq2_.resize(nc);
  clearState(windings, y);
  // Relative to node a (H0 + H3 = 1, D0 + D3 = C0 + C3 = 0): the
  // derivatives, which divide by step and step^2, then carry the rounding
  // of the nodes' difference, not that of their coordinates.
  for (size_t c = 0; c < nc; ++c) {
    const double v[6] = {0.0, h * a->dq[c], h * h * a->ddq[c], b->q[c] - a->q[c], h * b->dq[c], h * h * b->ddq[c]};
    double q = 0.0, d = 0.0, dd = 0.0;
    for (int i = 1; i < 6; ++i) q += H[i] * v[i], d += D[i] * v[i], dd += C[i] * v[i];
    coordinate(y, static_cast<int>(c)) = a->q[c] + q;
    tq1_[c] = d / h;
    tq2_[c] = dd / (h * h);
  }
  coordinate(y, indep_[0]) = z[0];
  for (size_t m = 0; m < slot_.size(); ++m) {
    const int sl = slot_[m];
    const Q4 p(y[sl + 3], y[sl + 4], y[sl + 5], y[sl + 6]);
    const Q4 pd(tq1_[7 * m + 3], tq1_[7 * m + 4], tq1_[7 * m + 5], tq1_[7 * m + 6]);
    const V3 w = 2.0 * Lmat(p) * pd * u[0];
    for (int i = 0; i < 3; ++i) {
      y[sl + 7 + i] = tq1_[7 * m + i] * u[0];
      y[sl + 10 + i] = w[i];
    }
  }
  margin_ = (1.0 - s) * a->margin + s * b->margin;
  tabled_ = true;
  tabledU_ = u[0];
  prepared_ = false;
  return true;
}

bool ReducedCoordinates::expandExact(double t, const double* z, const double* u, const double* windings, double* y,
                                     const NodeStart* node) {
  tabled_ = false;
  const int f = dof();
  clearState(windings, y);
  auto start = [&](bool predict) {
    if (predict && node && node->from) {
      const Node& n = *node->from;
      const double h = node->dz;
      for (size_t c = 0; c < qA_.size(); ++c)
        coordinate(y, static_cast<int>(c)) = n.q[c] + h * (n.dq[c] + 0.5 * h * n.ddq[c]);
      coordinate(y, indep_[0]) = z[0];
      normalise(y);
      return;
    }
    for (size_t c = 0; c < qA_.size(); ++c) coordinate(y, static_cast<int>(c)) = qA_[c];
    for (int i = 0; i < f; ++i) coordinate(y, indep_[i]) = z[i];
    if (!predict) return;
    for (int j = 0; j < neq_; ++j) {  // first order along the anchor's sensitivity
      double d = 0.0;
      for (int i = 0; i < f; ++i) d += BA_(j, i) * (z[i] - zA_[i]);
      coordinate(y, dep_[j]) += d;
    }
  };
  iterations_ = 0;
  start(true);
  if (!newton(t, y, kMaxIterations, node, node && node->from ? &node->from->lu : nullptr)) {
    start(false);
    if (!newton(t, y, 3 * kMaxIterations, node)) return false;
  }
  // Rates from the exact Phi_q at the converged pose: Jd qd_D = -(Ji u + Phi_t).
  jacobianBlocks(y);
  // A node: exact factors here (its rates and accelerations then need no
  // refinement, and the next node's Newton, a step away, contracts fast).
  if (node && luTmp_.factor(Jd_)) lu_ = &luTmp_;
  R_.resize(neq_, f + 1);
  R_.leftCols(f) = -Ji_;
  R_.col(f) = -phit_;
  const bool quick = solveDependent();
  Bs_ = X_.leftCols(f);
  // The anchor's factors contracted slowly here (the mechanism moved far
  // from it): this pose, factorised, becomes the anchor, so the next
  // expansions along the motion start close and converge in one or two
  // iterations. A part at rest never gets here, so its pose stays a
  // function of (t, z) alone.
  if (!quick || iterations_ > 2 || node) {
    if (lu_ != &luTmp_ && !luTmp_.factor(Jd_)) return true;
    std::swap(luA_, luTmp_);
    lu_ = &luA_;
    for (size_t c = 0; c < qA_.size(); ++c) qA_[c] = coordinate(y, static_cast<int>(c));
    for (int i = 0; i < f; ++i) zA_[i] = coordinate(y, indep_[i]);
    BA_ = Bs_;
    for (int j = 0; j < neq_; ++j)
      for (int i = 0; i < f; ++i) BA_(j, i) *= coordinateScale(dep_[j]) / coordinateScale(indep_[i]);
  }
  std::vector<double> qd(qA_.size(), 0.0);
  for (int i = 0; i < f; ++i) qd[indep_[i]] = u[i];
  for (int j = 0; j < neq_; ++j) {
    double v = X_(j, f);
    for (int i = 0; i < f; ++i) v += Bs_(j, i) * u[i] / coordinateScale(indep_[i]);
    qd[dep_[j]] = v * coordinateScale(dep_[j]);
  }
  for (size_t k = 0; k < slot_.size(); ++k) {
    const int s = slot_[k];
    const Q4 p(y[s + 3], y[s + 4], y[s + 5], y[s + 6]);
    const Q4 pd(qd[7 * k + 3], qd[7 * k + 4], qd[7 * k + 5], qd[7 * k + 6]);
    const V3 w = 2.0 * Lmat(p) * pd;
    for (int a = 0; a < 3; ++a) {
      y[s + 7 + a] = qd[7 * k + a];
      y[s + 10 + a] = w[a];
    }
  }
  margin_ = 1.0 - (Bs_.size() ? Bs_.cwiseAbs().maxCoeff() : 0.0) / limit_;
  prepared_ = false;
  return true;
}

}  // namespace pm::mb
