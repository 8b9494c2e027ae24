#include "mechanics/reduced_coordinates.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace pm::mb {

namespace {
// Newton on Phi = 0 stops at this max |Phi| (lengths scaled by L): near
// rounding, so that difference quotients of the expansion are clean.
constexpr double kTol = 1e-12;
constexpr int kMaxIterations = 12;
// A new partition is asked for when |dq_D/dz| has grown this much since the
// last one (the dependent block of Phi_q approaching singularity).
constexpr double kGrowth = 8.0;
// An accepted pose becomes the anchor when its independent coordinates
// moved by more than this (scaled) from the anchor's: the predictor from
// the anchor then stays within ~1e-8 and Newton within two iterations.
constexpr double kAnchorMove = 1e-4;
// Newton takes fresh factors when the residual falls by less than this.
constexpr double kSlow = 0.25;
const char* kNames[7] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
}  // namespace

ReducedCoordinates::ReducedCoordinates(MultibodySystem& mb, double t0, const double* y0) : mb_(mb) {
  movingOf_.assign(mb.bodies().size(), -1);
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (size_t b = 0; b < mb.bodies().size(); ++b) {
    const BodyRT& B = mb.bodies()[b];
    if (B.ground) continue;
    movingOf_[b] = static_cast<int>(slot_.size());
    slot_.push_back(B.slot);
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

void ReducedCoordinates::partition(double t, const double* y) {
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
  qA_.assign(J.cols(), 0.0);
  setAnchor(t, y, true);
  limit_ = kGrowth * std::max(1.0, Bs_.size() ? Bs_.cwiseAbs().maxCoeff() : 0.0);
  margin_ = 1.0;
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

bool ReducedCoordinates::newton(double t, double* y, int maxIterations) {
  // The anchor's factors first (the start is a function of the anchor and z
  // alone, so the result does not depend on earlier evaluations); fresh
  // factors at the iterate only when they contract slowly.
  double prev = std::numeric_limits<double>::infinity();
  lu_ = &luA_;
  for (int it = 0;; ++it) {
    const double res = evaluate(t, y);
    if (!std::isfinite(res)) return false;
    if (res <= kTol) return true;
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

bool ReducedCoordinates::expand(double t, const double* z, const double* u, const double* windings, double* y) {
  const int f = dof();
  std::fill(y, y + mb_.size(), 0.0);
  const std::vector<int> wind = mb_.windingStates();
  for (size_t i = 0; i < wind.size(); ++i) y[wind[i]] = windings[i];
  auto start = [&](bool predict) {
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
  if (!newton(t, y, kMaxIterations)) {
    start(false);
    if (!newton(t, y, 3 * kMaxIterations)) return false;
  }
  // Rates from the exact Phi_q at the converged pose: Jd qd_D = -(Ji u + Phi_t).
  jacobianBlocks(y);
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
  if (!quick || iterations_ > 2) {
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
  const int f = dof(), nm = static_cast<int>(slot_.size()), na = static_cast<int>(active_.size());
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
  std::vector<double> qdd(7 * nm, 0.0);
  for (int j = 0; j < neq_; ++j) qdd[dep_[j]] = X_(j, 0) * coordinateScale(dep_[j]);
  // Velocity-space columns: W (6 per part x f) and a_c; w' = 2 L(p) dp/dt,
  // dw'/dt = 2 L(p) d2p/dt2 (L(dp/dt) dp/dt = 0). Then the force-independent
  // parts of (W^T M W) du/dt = W^T (F - w' x J w' - M a_c).
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(f, f);
  base_.setZero(f);
  W_.setZero(6 * nm, f);
  int body = 0;
  for (int k = 0; k < nm; ++k) {
    while (mb_.bodies()[body].ground) ++body;
    const BodyRT& B = mb_.bodies()[body];
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
    const V3 w(y[s + 10], y[s + 11], y[s + 12]);
    const auto Wr = W.topRows<3>();
    const auto Ww = W.bottomRows<3>();
    M.noalias() += B.m * (Wr.transpose() * Wr) + Ww.transpose() * (B.J * Ww);
    base_.noalias() -= Wr.transpose() * (B.m * ar) + Ww.transpose() * (w.cross(B.J * w) + B.J * aw);
    ++body;
  }
  Mr_.compute(M);
  prepared_ = true;
}

void ReducedCoordinates::accelerations(double t, const double* y, const std::vector<V3>& F, const std::vector<V3>& N,
                                       double* zdd) {
  const int f = dof();
  if (f == 0) return;
  if (!prepared_) prepare(t, y);
  Eigen::VectorXd rhs = base_;
  for (size_t k = 0; k < slot_.size(); ++k) {
    int body = 0;
    while (movingOf_[body] != static_cast<int>(k)) ++body;
    const auto W = W_.middleRows<6>(6 * static_cast<int>(k));
    rhs.noalias() += W.topRows<3>().transpose() * F[body] + W.bottomRows<3>().transpose() * N[body];
  }
  const Eigen::VectorXd udot = Mr_.solve(rhs);
  for (int i = 0; i < f; ++i) zdd[i] = udot[i];
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
