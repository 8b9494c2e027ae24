// The dynamics in the independent coordinates (accelerations projected
// onto the null space of the constraint Jacobian, no multipliers) and the
// dense LU of the dependent block.
#include "mechanics/reduced_coordinates.h"

#include <cmath>

namespace pm::mb {

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
    const V3 ar(qdd[7 * k], qdd[7 * k + 1], qdd[7 * k + 2]);
    const V3 aw = 2.0 * L * Q4(qdd[7 * k + 3], qdd[7 * k + 4], qdd[7 * k + 5], qdd[7 * k + 6]);
    ac_.segment<3>(6 * k) = ar;
    ac_.segment<3>(6 * k + 3) = aw;
    // Fully driven (no freedom left): W has no columns and no storage to take blocks of.
    if (f == 0) continue;
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
