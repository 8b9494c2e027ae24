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
// Nodes made ahead of (and behind) the solver's expansions by
// prefetchAhead(), within the partition: its spare time on the output
// thread makes the tool changer's whole table about twice over.
constexpr long kPrefetch = 200;
// A node further than this from the table's end is not made (the chain to
// it would be): such an expansion fails and the integrator cuts its step.
constexpr long kMaxChain = 64;
}  // namespace

const ReducedCoordinates::Node* ReducedCoordinates::Table::publish(long k, Node&& n) {
  store_.push_back(std::move(n));
  const Node* p = &store_.back();
  slot_[k + kHalf].store(p, std::memory_order_release);
  return p;
}

std::shared_ptr<ReducedCoordinates::Table> ReducedCoordinates::Tables::at(long partition) {
  std::lock_guard<std::mutex> lock(m_);
  auto& t = tables_[partition];
  if (!t) t = std::make_shared<Table>();
  return t;
}

void ReducedCoordinates::Tables::announce(long index, double t, const std::vector<double>& pose) {
  std::lock_guard<std::mutex> lock(m_);
  newest_.index = index;
  newest_.t = t;
  newest_.pose = pose;
}

ReducedCoordinates::Tables::Partition ReducedCoordinates::Tables::newest() {
  std::lock_guard<std::mutex> lock(m_);
  return newest_;
}

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

bool ReducedCoordinates::cell(double t, const double* z, const double* windings, const Node*& a, const Node*& b,
                              double& s) {
  const double x = (z[0] - gridZ0_) / gridStep_;
  const long k = cellOf(z[0]);
  a = node(t, k, windings);
  b = a ? node(t, k + 1, windings) : nullptr;
  s = x - static_cast<double>(k);
  return a && b;
}

bool ReducedCoordinates::tableMargin(double t, const double* z, const double* windings, double& margin) {
  const Node *a = nullptr, *b = nullptr;
  double s = 0.0;
  if (!cell(t, z, windings, a, b, s)) return false;
  margin = (1.0 - s) * a->margin + s * b->margin;
  return true;
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

// Node k of the table: the exact expansion at z0 + k step with u = 1, its
// rates (d q/dz) and its accelerations at du/dt = 0 (d2 q/dz2). Made, with
// the missing ones on the way, from the nearest node towards node 0: each
// continues from its neighbour there, so that a node is a function of its
// index alone (Table).
const ReducedCoordinates::Node* ReducedCoordinates::node(double t, long k, const double* windings) {
  if (!table_) return nullptr;
  if (const Node* n = table_->find(k)) return n;
  if (k == 0 || !Table::inRange(k)) return nullptr;  // node 0 is made with the partition
  const long toward = k > 0 ? -1 : 1;
  long first = k;  // the missing node next to a made one
  while (!table_->find(first + toward)) {
    first += toward;
    if (first == 0 || std::abs(k - first) > kMaxChain) return nullptr;
  }
  const Node* n = nullptr;
  for (long i = first;; i -= toward) {
    std::lock_guard<std::mutex> lock(table_->make);
    n = table_->find(i);  // the other copy may have made it meanwhile
    if (!n) n = makeNode(t, i, table_->find(i + toward), static_cast<double>(-toward) * gridStep_, windings);
    if (!n || i == k) return n;
  }
}

std::unique_ptr<ReducedCoordinates> ReducedCoordinates::prefetcher(double t0, const double* y0) const {
  if (!tables_) return nullptr;
  return std::make_unique<ReducedCoordinates>(mb_, t0, y0, Sharing{tabulate_, tables_, false});
}

bool ReducedCoordinates::prefetchAhead() {
  if (!tables_) return false;
  const Tables::Partition p = tables_->newest();
  if (p.index >= 0 && p.index != partitionIndex_) partition(p.t, p.pose.data(), p.index);
  if (!table_) return false;
  // Around where the solver's expansions are: ahead of the motion first, up
  // to where the partition is redone, then behind (it may turn back); the
  // nodes towards node 0 are made already (the table is contiguous).
  const double zh = table_->hintZ.load(std::memory_order_relaxed), uh = table_->hintU.load(std::memory_order_relaxed);
  const long k0 = std::isfinite(zh) ? cellOf(zh) : 0;
  const std::vector<double> windings = windingsOf(pose_.data());
  for (const long dir : {uh >= 0.0 ? 1L : -1L, uh >= 0.0 ? -1L : 1L})
    for (long d = 0; d < kPrefetch; ++d) {
      const long k = dir > 0 ? k0 + 1 + d : k0 - d;
      if (const Node* n = table_->find(k)) {
        if (n->margin <= 1e-3) break;
        continue;
      }
      if (node(partT_, k, windings.data())) return true;  // scleronomic: nodes do not depend on time
      break;  // the loop does not close there
    }
  return false;
}

const ReducedCoordinates::Node* ReducedCoordinates::makeNode(double t, long k, const Node* from, double dz,
                                                             const double* windings) {
  const double z = gridZ0_ + static_cast<double>(k) * gridStep_, one = 1.0;
  yNode_.assign(mb_.size(), 0.0);
  // Continued from a neighbour (second order: the start is within ~1e-9,
  // and Newton with the neighbour's factors gains ~1e3 per iteration),
  // else from the anchor.
  const NodeStart start{from, dz};
  if (!expandExact(t, &z, &one, windings, yNode_.data(), &start)) return nullptr;
  const double margin = margin_;
  Node n;
  n.lu = *lu_;  // the exact factors at the node (expandExact's last)
  zeroRateAccelerations(t, yNode_.data());
  const size_t nc = 7 * slot_.size();
  n.q.resize(nc);
  n.dq.resize(nc);
  for (size_t m = 0; m < slot_.size(); ++m) {
    const int sl = slot_[m];
    const Q4 p(yNode_[sl + 3], yNode_[sl + 4], yNode_[sl + 5], yNode_[sl + 6]);
    const Q4 pd = 0.5 * Lmat(p).transpose() * V3(yNode_[sl + 10], yNode_[sl + 11], yNode_[sl + 12]);
    for (int i = 0; i < 3; ++i) n.dq[7 * m + i] = yNode_[sl + 7 + i];
    for (int i = 0; i < 4; ++i) n.dq[7 * m + 3 + i] = pd[i];
  }
  for (size_t c = 0; c < nc; ++c) n.q[c] = coordinate(yNode_.data(), static_cast<int>(c));
  n.ddq = qdd_;
  n.margin = margin;
  return table_->publish(k, std::move(n));
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

void ReducedCoordinates::prepare(double t, const double* y) {
  const int f = dof(), nm = static_cast<int>(slot_.size());
  if (tabled_) {
    // From the table: W = (d r/dz, 2 L(p) d p/dz), the accelerations at
    // du/dt = 0 are d2 q/dz2 u^2 (L(dp/dt) dp/dt = 0, as below).
    double M = 0.0;
    base_.setZero(1);
    W_.setZero(6 * nm, 1);
    ac_.resize(6 * nm);
    const double u2 = tabledU_ * tabledU_;
    for (int k = 0; k < nm; ++k) {
      const BodyRT& B = mb_.bodies()[bodyOf_[k]];
      const int s = slot_[k];
      const auto L = Lmat(Q4(y[s + 3], y[s + 4], y[s + 5], y[s + 6]));
      const V3 Wr(tq1_[7 * k], tq1_[7 * k + 1], tq1_[7 * k + 2]);
      const V3 Ww = 2.0 * L * Q4(tq1_[7 * k + 3], tq1_[7 * k + 4], tq1_[7 * k + 5], tq1_[7 * k + 6]);
      W_.block<3, 1>(6 * k, 0) = Wr;
      W_.block<3, 1>(6 * k + 3, 0) = Ww;
      const V3 ar = u2 * V3(tq2_[7 * k], tq2_[7 * k + 1], tq2_[7 * k + 2]);
      const V3 aw = (2.0 * u2) * (L * Q4(tq2_[7 * k + 3], tq2_[7 * k + 4], tq2_[7 * k + 5], tq2_[7 * k + 6]));
      ac_.segment<3>(6 * k) = ar;
      ac_.segment<3>(6 * k + 3) = aw;
      const V3 w(y[s + 10], y[s + 11], y[s + 12]);
      M += B.m * Wr.squaredNorm() + Ww.dot(B.J * Ww);
      base_[0] -= Wr.dot(B.m * ar) + Ww.dot(w.cross(B.J * w) + B.J * aw);
    }
    mass1_ = M;
    prepared_ = true;
    return;
  }
  zeroRateAccelerations(t, y);
  const std::vector<double>& qdd = qdd_;
  // Velocity-space columns: W (6 per part x f) and a_c; w' = 2 L(p) dp/dt,
  // dw'/dt = 2 L(p) d2p/dt2 (L(dp/dt) dp/dt = 0). Then the force-independent
  // parts of (W^T M W) du/dt = W^T (F - w' x J w' - M a_c).
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(f, f);
  base_.setZero(f);
  W_.setZero(6 * nm, f);
  ac_.resize(6 * nm);
  for (int k = 0; k < nm; ++k) {
    const BodyRT& B = mb_.bodies()[bodyOf_[k]];
    const int s = slot_[k];
    const auto L = Lmat(Q4(y[s + 3], y[s + 4], y[s + 5], y[s + 6]));
    auto W = W_.middleRows<6>(6 * k);
    for (int i = 0; i < f; ++i)
      if (indep_[i] / 7 == k) {
        const int c = indep_[i] % 7;
        if (c < 3) W(c, i) = 1.0;
        else W.block<3, 1>(3, i) = 2.0 * L.col(c - 3);
      }
    for (int j = 0; j < neq_; ++j) {
      if (dep_[j] / 7 != k) continue;
      const int c = dep_[j] % 7;
      for (int i = 0; i < f; ++i) {
        const double b = Bs_(j, i) * coordinateScale(dep_[j]) / coordinateScale(indep_[i]);
        if (b == 0.0) continue;
        if (c < 3) W(c, i) += b;
        else W.block<3, 1>(3, i) += 2.0 * b * L.col(c - 3);
      }
    }
    const V3 ar(qdd[7 * k], qdd[7 * k + 1], qdd[7 * k + 2]);
    const V3 aw = 2.0 * L * Q4(qdd[7 * k + 3], qdd[7 * k + 4], qdd[7 * k + 5], qdd[7 * k + 6]);
    ac_.segment<3>(6 * k) = ar;
    ac_.segment<3>(6 * k + 3) = aw;
    const V3 w(y[s + 10], y[s + 11], y[s + 12]);
    const auto Wr = W.topRows<3>();
    const auto Ww = W.bottomRows<3>();
    M.noalias() += B.m * (Wr.transpose() * Wr) + Ww.transpose() * (B.J * Ww);
    base_.noalias() -= Wr.transpose() * (B.m * ar) + Ww.transpose() * (w.cross(B.J * w) + B.J * aw);
  }
  Mr_.compute(M);
  if (f == 1) mass1_ = M(0, 0);
  prepared_ = true;
}

void ReducedCoordinates::zeroRateAccelerations(double t, const double* y) {
  const int nm = static_cast<int>(slot_.size()), na = static_cast<int>(active_.size());
  // gamma = -d/dt (C v + Phi_t) at fixed v: central differences of the
  // velocity rows along the motion (as MultibodySystem::accelerationRhs).
  const double eps = 1e-5;
  auto velocityRows = [&](double h, Eigen::VectorXd& out) {
    ys_.assign(y, y + mb_.size());
    for (int k = 0; k < nm; ++k) {
      const int s = slot_[k];
      for (int a = 0; a < 3; ++a) ys_[s + a] += h * y[s + 7 + a];
      const Q4 p = rotated(Q4(ys_[s + 3], ys_[s + 4], ys_[s + 5], ys_[s + 6]), h * V3(y[s + 10], y[s + 11], y[s + 12]));
      for (int a = 0; a < 4; ++a) ys_[s + 3 + a] = p[a];
    }
    mb_.constraintRows(t + h, ys_.data(), kinS_, rowsS_);
    out.resize(na);
    for (int i = 0; i < na; ++i) {
      const Row& r = rowsS_[active_[i]];
      double v = r.phit;
      for (int q = 0; q < r.n; ++q) {
        const int k = movingOf_[r.b[q]];
        if (k < 0) continue;
        const int s = slot_[k];
        v += r.r[q].dot(V3(y[s + 7], y[s + 8], y[s + 9])) + r.p[q].dot(V3(y[s + 10], y[s + 11], y[s + 12]));
      }
      out[i] = v;
    }
  };
  Eigen::VectorXd vp, vm;
  velocityRows(eps, vp);
  velocityRows(-eps, vm);
  // Dependent accelerations at du/dt = 0: Phi_q qdd = gamma_q (scaled rows;
  // normalisation p.pdd = -|pd|^2), qdd_I = 0.
  Eigen::VectorXd g(neq_);
  for (int i = 0; i < na; ++i) g[i] = -(vp[i] - vm[i]) / (2.0 * eps) * (lengthRow_[i] ? 1.0 / L_ : 1.0);
  std::vector<Q4> pd(nm);
  for (int k = 0; k < nm; ++k) {
    const int s = slot_[k];
    pd[k] = 0.5 * Lmat(Q4(y[s + 3], y[s + 4], y[s + 5], y[s + 6])).transpose() * V3(y[s + 10], y[s + 11], y[s + 12]);
    g[na + k] = -pd[k].squaredNorm();
  }
  R_ = g;
  solveDependent();
  qdd_.assign(7 * nm, 0.0);
  for (int j = 0; j < neq_; ++j) qdd_[dep_[j]] = X_(j, 0) * coordinateScale(dep_[j]);
}

void ReducedCoordinates::accelerations(double t, const double* y, const std::vector<V3>& F, const std::vector<V3>& N,
                                       double* zdd) {
  const int f = dof();
  if (f == 0) return;
  if (!prepared_) prepare(t, y);
  if (f == 1) {  // a scalar: no temporaries
    double rhs = base_[0];
    for (size_t k = 0; k < slot_.size(); ++k) {
      const int body = bodyOf_[k];
      const auto W = W_.col(0).segment<6>(6 * static_cast<int>(k));
      rhs += W.head<3>().dot(F[body]) + W.tail<3>().dot(N[body]);
    }
    zdd[0] = rhs / mass1_;
    return;
  }
  Eigen::VectorXd rhs = base_;
  for (size_t k = 0; k < slot_.size(); ++k) {
    const int body = bodyOf_[k];
    const auto W = W_.middleRows<6>(6 * static_cast<int>(k));
    rhs.noalias() += W.topRows<3>().transpose() * F[body] + W.bottomRows<3>().transpose() * N[body];
  }
  const Eigen::VectorXd udot = Mr_.solve(rhs);
  for (int i = 0; i < f; ++i) zdd[i] = udot[i];
}

void ReducedCoordinates::partAccelerations(double t, const double* y, const double* zdd, double* yp) {
  const int f = dof();
  if (!prepared_) prepare(t, y);
  for (size_t k = 0; k < slot_.size(); ++k) {
    const int s = slot_[k], r = 6 * static_cast<int>(k);
    for (int a = 0; a < 6; ++a) {
      double v = ac_[r + a];
      for (int i = 0; i < f; ++i) v += W_(r + a, i) * zdd[i];
      yp[s + 7 + a] = v;
    }
  }
}

bool ReducedCoordinates::Lu::factor(const Eigen::MatrixXd& m) {
  n = static_cast<int>(m.rows());
  a.assign(m.data(), m.data() + static_cast<size_t>(n) * n);
  piv.resize(n);
  for (int k = 0; k < n; ++k) {
    double* colK = a.data() + static_cast<size_t>(k) * n;
    int l = k;
    for (int i = k + 1; i < n; ++i)
      if (std::abs(colK[i]) > std::abs(colK[l])) l = i;
    piv[k] = l;
    if (colK[l] == 0.0) return false;
    if (l != k)
      for (int j = 0; j < n; ++j) std::swap(a[static_cast<size_t>(j) * n + l], a[static_cast<size_t>(j) * n + k]);
    const double mult = 1.0 / colK[k];
    for (int i = k + 1; i < n; ++i) colK[i] *= mult;
    for (int j = k + 1; j < n; ++j) {
      double* __restrict colJ = a.data() + static_cast<size_t>(j) * n;
      const double akj = colJ[k];
      if (akj != 0.0)
        for (int i = k + 1; i < n; ++i) colJ[i] -= akj * colK[i];
    }
  }
  return true;
}

void ReducedCoordinates::Lu::solve(double* b) const {
  // Rows were swapped whole (as LAPACK's getrf): permute b first.
  for (int k = 0; k < n; ++k) std::swap(b[k], b[piv[k]]);
  for (int k = 0; k < n; ++k) {
    const double* colK = a.data() + static_cast<size_t>(k) * n;
    const double bk = b[k];
    if (bk != 0.0)
      for (int i = k + 1; i < n; ++i) b[i] -= colK[i] * bk;
  }
  for (int k = n - 1; k >= 0; --k) {
    const double* colK = a.data() + static_cast<size_t>(k) * n;
    b[k] /= colK[k];
    const double bk = b[k];
    if (bk != 0.0)
      for (int i = 0; i < k; ++i) b[i] -= colK[i] * bk;
  }
}

}  // namespace pm::mb
