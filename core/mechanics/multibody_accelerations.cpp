// Accelerations and reactions consistent with the positions and
// velocities (the index-1 system M a + C^T lambda = Q, C a = gamma): the
// start of a run, every output row, and the reactions of the reduced
// formulation.
#include "mechanics/multibody.h"

#include "mechanics/multibody_error.h"

#include <Eigen/SparseCholesky>

#include <cmath>

namespace pm::mb {

namespace {

// Up to this many rigid-body coordinates (6 per part) the index-1 solve for
// accelerations and reactions is dense.
constexpr int kDenseAccelerationsUpTo = 120;

// Cholesky in place (lower triangle, right-looking by columns so the
// inner loops run down contiguous columns), then the two triangular
// solves, the right-hand side lam overwritten with the solution. Each
// column's update runs over its nonzeros below the diagonal alone (listed
// in nz as the column is scaled; two rows meet only on a part they share):
// a zero's product would leave every entry as it is (none is -0), so the
// result is the dense loops' to the bit. Eigen's blocked LLT costs more on
// so few rows. False at a pivot that is not positive.
bool choleskySolve(double* A, int m, Eigen::VectorXd& lam, std::vector<int>& nz, std::vector<int>& nzStart) {
  nz.clear();
  nzStart.resize(static_cast<size_t>(m) + 1);
  for (int k = 0; k < m; ++k) {
    double* colK = A + static_cast<size_t>(k) * m;
    if (!(colK[k] > 0.0)) return false;
    const double d = std::sqrt(colK[k]);
    colK[k] = d;
    const size_t first = nz.size();
    nzStart[k] = static_cast<int>(first);
    for (int i = k + 1; i < m; ++i) {
      colK[i] /= d;
      if (colK[i] != 0.0) nz.push_back(i);
    }
    const size_t last = nz.size();
    for (size_t a = first; a < last; ++a) {
      const int j = nz[a];
      const double ljk = colK[j];
      double* __restrict colJ = A + static_cast<size_t>(j) * m;
      for (size_t b = a; b < last; ++b) colJ[nz[b]] -= ljk * colK[nz[b]];
    }
  }
  nzStart[m] = static_cast<int>(nz.size());
  for (int k = 0; k < m; ++k) {  // L z = b
    const double* colK = A + static_cast<size_t>(k) * m;
    lam[k] /= colK[k];
    const double zk = lam[k];
    if (zk != 0.0)
      for (int a = nzStart[k]; a < nzStart[k + 1]; ++a) lam[nz[a]] -= colK[nz[a]] * zk;
  }
  for (int k = m - 1; k >= 0; --k) {  // L^T x = z
    const double* colK = A + static_cast<size_t>(k) * m;
    double v = lam[k];
    for (int a = nzStart[k]; a < nzStart[k + 1]; ++a) v -= colK[nz[a]] * lam[nz[a]];
    lam[k] = v / colK[k];
  }
  return true;
}

}  // namespace

void MultibodySystem::writeKinematicDerivatives(double* y, double* yp, const std::vector<Kin>* k) const {
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    const int s = b.slot;
    const Q4 p(y[s + 3], y[s + 4], y[s + 5], y[s + 6]);
    const V3 w(y[s + 10], y[s + 11], y[s + 12]);
    const Q4 pd = 0.5 * Lmat(p).transpose() * w;
    for (int a = 0; a < 3; ++a) yp[s + a] = y[s + 7 + a];
    for (int a = 0; a < 4; ++a) yp[s + 3 + a] = pd[a];
    y[s + 13] = 0.0;
  }
  for (const RowInfo& r : rowInfo_)
    if (r.mu >= 0) y[r.mu] = 0.0;
  if (!windings_.empty()) {
    std::vector<double>& rates = windingRates_;
    rates.resize(windings_.size());
    if (k) windingRatesOf(*k, rates.data());
    else windingRates(y, rates.data());
    for (size_t i = 0; i < windings_.size(); ++i) yp[windings_[i].state] = rates[i];
  }
  writeStickRates(y, yp);
}

// gamma = -d/dt (C v + Phi_t) at fixed v: the right-hand side of C a = gamma.
// Central differences along the motion; the step keeps the truncation error
// near 1e-10 relative. Only the constraint rows are built at the shifted
// poses (the forces do not enter; multipliers are zero in yv).
Eigen::VectorXd MultibodySystem::accelerationRhs(double t, const std::vector<double>& yv) {
  const double eps = 1e-5;
  int m = 0;
  for (const RowInfo& r : rowInfo_)
    if (r.active) ++m;
  auto velocityRows = [&](double h) {
    shifted_ = yv;  // positions moved along the current velocities
    for (const BodyRT& b : bodies_) {
      if (b.ground) continue;
      const int s = b.slot;
      for (int a = 0; a < 3; ++a) shifted_[s + a] += h * yv[s + 7 + a];
      Q4 p(shifted_[s + 3], shifted_[s + 4], shifted_[s + 5], shifted_[s + 6]);
      p = rotated(p, h * V3(yv[s + 10], yv[s + 11], yv[s + 12]));
      for (int a = 0; a < 4; ++a) shifted_[s + 3 + a] = p[a];
    }
    kinematics(shifted_.data(), kinShifted_);
    buildRows(t + h, shifted_.data(), kinShifted_, rowsShifted_);
    Eigen::VectorXd g(m);
    int i = 0;
    for (size_t ri = 0; ri < rowsShifted_.size(); ++ri) {
      if (!rowInfo_[ri].active) continue;
      const Row& r = rowsShifted_[ri];
      double vel = r.phit;  // as the residual's velocity row
      for (int q = 0; q < r.n; ++q) {
        const int b = r.b[q];
        if (bodies_[b].ground) continue;
        vel += r.r[q].dot(kinShifted_[b].v) + r.p[q].dot(kinShifted_[b].w);
      }
      g[i++] = vel;
    }
    return g;
  };
  const Eigen::VectorXd plus = velocityRows(eps);
  return -(plus - velocityRows(-eps)) / (2.0 * eps);
}

void MultibodySystem::requireMass() const {
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    if (!(b.m > 0.0))
      fail(b.id, "mass",
           "is 0 kg: a simulation needs a positive mass on every moving part (a massless part is allowed welded by a "
           "fixed joint to a part with mass, and in the kinematic and static analyses)");
    if (!(b.Jinv.allFinite() && b.Jinv.norm() > 0.0))
      fail(b.id, "inertia",
           "is not positive definite: a simulation needs every moving part's inertia tensor positive definite "
           "(Ixx, Iyy, Izz > 0)");
  }
}

void MultibodySystem::movingColumns(std::vector<int>& moving, std::vector<int>& col) const {
  col.assign(bodies_.size(), -1);
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) {
      col[b] = 6 * static_cast<int>(moving.size());
      moving.push_back(static_cast<int>(b));
    }
}

void MultibodySystem::freeAccelerations(double t, const double* y, const std::vector<int>& moving,
                                        const std::vector<V3>* F, const std::vector<V3>* Nb, Eigen::VectorXd& a0,
                                        std::vector<double>& yv) {
  if (F) {
    kinematics(y, kin_);
    buildRows(t, y, kin_, rowsScratch_);
    for (size_t q = 0; q < moving.size(); ++q) {
      const BodyRT& B = bodies_[moving[q]];
      const Kin& k = kin_[moving[q]];
      a0.segment<3>(6 * q) = (*F)[moving[q]] / B.m;
      a0.segment<3>(6 * q + 3) = B.Jinv * ((*Nb)[moving[q]] - k.w.cross(B.J * k.w));
    }
    return;
  }
  const int N = nStates_;
  yv.assign(y, y + N);
  for (const RowInfo& r : rowInfo_) {
    yv[r.lambda] = 0.0;
    if (r.mu >= 0) yv[r.mu] = 0.0;
  }
  std::vector<double> zero(N, 0.0), res(N);
  residual(t, yv.data(), zero.data(), res.data());
  for (size_t q = 0; q < moving.size(); ++q) {
    const int s = bodies_[moving[q]].slot;
    for (int a = 0; a < 3; ++a) {
      a0[6 * q + a] = -res[s + 7 + a];
      a0[6 * q + 3 + a] = -res[s + 10 + a];
    }
  }
}

void MultibodySystem::accelerationsTimesRows(const double* yp, Eigen::VectorXd& gamma) const {
  const std::vector<Row>& rows = rowsScratch_;
  int m = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rowInfo_[i].active) ++m;
  gamma.resize(m);
  int i = 0;
  for (size_t ri = 0; ri < rows.size(); ++ri) {
    if (!rowInfo_[ri].active) continue;
    const Row& r = rows[ri];
    double v = 0.0;
    for (int q = 0; q < r.n; ++q) {
      const BodyRT& B = bodies_[r.b[q]];
      if (B.ground) continue;
      v += r.r[q].dot(V3(yp[B.slot + 7], yp[B.slot + 8], yp[B.slot + 9])) +
           r.p[q].dot(V3(yp[B.slot + 10], yp[B.slot + 11], yp[B.slot + 12]));
    }
    gamma[i++] = v;
  }
}

void MultibodySystem::solveAccelerations(double t, double* y, double* yp, const std::vector<V3>* F,
                                         const std::vector<V3>* Nb) {
  requireMass();
  const bool knownAcc = F != nullptr;
  std::vector<int>& moving = accMoving_;
  std::vector<int>& col = accCol_;
  moving.clear();
  movingColumns(moving, col);
  const int n6 = 6 * static_cast<int>(moving.size());
  // Unconstrained accelerations from the applied forces (lambda = 0).
  Eigen::VectorXd& a0 = accA0_;
  a0.resize(n6);
  std::vector<double> yv;
  freeAccelerations(t, y, moving, F, Nb, a0, yv);
  // The rows at these positions (built by the residual, or above).
  int m = 0;
  for (size_t i = 0; i < rowsScratch_.size(); ++i)
    if (rowInfo_[i].active) ++m;
  // C a of the given accelerations, or -d/dt (C v + Phi_t).
  Eigen::VectorXd& gamma = accGamma_;
  if (knownAcc) accelerationsTimesRows(yp, gamma);
  else gamma = accelerationRhs(t, yv);
  Eigen::VectorXd& lam = accLam_;
  lam.setZero(m);
  Eigen::VectorXd acc;  // a0 - M^-1 C^T lambda (with given accelerations: not needed)
  if (!knownAcc) acc = a0;
  // Small mechanisms: a dense S = C M^-1 C^T (a sparse factorisation's
  // analysis costs more than the whole dense solve below ~20 parts, and
  // this runs at every output row); C and M^-1 C^T stay row by row, as the
  // rows hold them (a row touches at most four parts).
  if (m > 0 && (n6 <= kDenseAccelerationsUpTo || denseForced()))
    solveMultipliersDense(col, a0, gamma, lam, knownAcc ? nullptr : &acc);
  else if (m > 0)
    solveMultipliersSparse(col, n6, a0, gamma, lam, knownAcc ? nullptr : &acc);
  int i2 = 0;
  for (const RowInfo& r : rowInfo_) {
    if (r.active) y[r.lambda] = lam[i2++];
    else y[r.lambda] = 0.0;
  }
  if (!knownAcc)
    for (size_t q = 0; q < moving.size(); ++q) {
      const int s = bodies_[moving[q]].slot;
      for (int a = 0; a < 3; ++a) {
        yp[s + 7 + a] = acc[6 * q + a];
        yp[s + 10 + a] = acc[6 * q + 3 + a];
      }
    }
  writeKinematicDerivatives(y, yp, &kin_);  // kin_: y's positions, from the residual or freeAccelerations
}

void MultibodySystem::makeConsistent(double t, double* y, double* yp) { solveAccelerations(t, y, yp); }

void MultibodySystem::multipliersFor(double t, double* y, double* yp, const std::vector<V3>& F,
                                     const std::vector<V3>& N) {
  solveAccelerations(t, y, yp, &F, &N);
}

void MultibodySystem::solveMultipliersDense(const std::vector<int>& col, const Eigen::VectorXd& a0,
                                            const Eigen::VectorXd& gamma, Eigen::VectorXd& lam, Eigen::VectorXd* acc) {
  const std::vector<Row>& rows = rowsScratch_;
  const int m = static_cast<int>(lam.size());
  // Scratch kept across calls (this runs at every output row): the entries
  // of C and M^-1 C^T part by part, each part's in increasing row order
  // (flat), and per row where its entries are.
  using Entry = AccEntry;
  std::vector<Entry>& ent = accEnt_;
  auto& of = accRowEnt_;
  auto& cnt = accCnt_;
  of.resize(m);
  cnt.assign(m, 0);
  const size_t nb = bodies_.size();
  accOnStart_.assign(nb + 1, 0);
  for (size_t ri = 0; ri < rows.size(); ++ri)
    if (rowInfo_[ri].active)
      for (int q = 0; q < rows[ri].n; ++q)
        if (col[rows[ri].b[q]] >= 0) ++accOnStart_[rows[ri].b[q] + 1];
  for (size_t b = 0; b < nb; ++b) accOnStart_[b + 1] += accOnStart_[b];
  accOnFill_.assign(accOnStart_.begin(), accOnStart_.end() - 1);
  ent.resize(accOnStart_[nb]);
  int i = 0;
  for (size_t ri = 0; ri < rows.size(); ++ri) {
    if (!rowInfo_[ri].active) continue;
    const Row& r = rows[ri];
    for (int q = 0; q < r.n; ++q) {
      const int b = r.b[q];
      if (col[b] < 0) continue;
      const BodyRT& B = bodies_[b];
      const int x = accOnFill_[b]++;
      of[i][cnt[i]++] = x;
      ent[x] = {i, b, r.r[q], r.p[q], r.r[q] / B.m, B.Jinv * r.p[q]};
    }
    ++i;
  }
  // The lower triangle alone (the Cholesky below reads no more): a part's
  // rows are listed in increasing order.
  Eigen::MatrixXd& S = accS_;
  S.setZero(m, m);
  for (size_t b = 0; b < nb; ++b) {
    const int first = accOnStart_[b], last = accOnStart_[b + 1];
    for (int x = first; x < last; ++x) {
      const Entry& ej = ent[x];
      double* Sj = S.data() + static_cast<size_t>(ej.row) * m;
      for (int w = x; w < last; ++w) Sj[ent[w].row] += ent[w].r.dot(ej.mr) + ent[w].p.dot(ej.mp);
    }
  }
  S.diagonal().array() += compliance_;  // the DAE's regularisation: finite where a loop loses rank
  auto a0Lin = [&](int b) { return a0.segment<3>(col[b]); };
  auto a0Ang = [&](int b) { return a0.segment<3>(col[b] + 3); };
  for (int i2 = 0; i2 < m; ++i2) {  // C a0 - gamma
    double v = 0.0;
    for (int q = 0; q < cnt[i2]; ++q) {
      const Entry& e = ent[of[i2][q]];
      v += e.r.dot(a0Lin(e.body)) + e.p.dot(a0Ang(e.body));
    }
    lam[i2] = v - gamma[i2];
  }
  if (!choleskySolve(accS_.data(), m, lam, accNz_, accNzStart_))
    fail("mechanism", "", "singular constraint set (a joint fixes what another already fixes?)");
  if (!acc) return;
  for (int i2 = 0; i2 < m; ++i2)  // a = a0 - M^-1 C^T lambda
    for (int q = 0; q < cnt[i2]; ++q) {
      const Entry& e = ent[of[i2][q]];
      acc->segment<3>(col[e.body]) -= e.mr * lam[i2];
      acc->segment<3>(col[e.body] + 3) -= e.mp * lam[i2];
    }
}

void MultibodySystem::solveMultipliersSparse(const std::vector<int>& col, int n6, const Eigen::VectorXd& a0,
                                             const Eigen::VectorXd& gamma, Eigen::VectorXd& lam,
                                             Eigen::VectorXd* acc) const {
  const std::vector<Row>& rows = rowsScratch_;
  const int m = static_cast<int>(lam.size());
  // Sparse C and M^-1 C^T: a chain's S = C M^-1 C^T is banded, so the cost
  // grows linearly with the number of parts.
  std::vector<Eigen::Triplet<double>> tc, tm;
  int i = 0;
  for (size_t ri = 0; ri < rows.size(); ++ri) {
    if (!rowInfo_[ri].active) continue;
    const Row& r = rows[ri];
    for (int q = 0; q < r.n; ++q) {
      const int c = col[r.b[q]];
      if (c < 0) continue;
      const BodyRT& B = bodies_[r.b[q]];
      const V3 jp = B.Jinv * r.p[q];
      for (int a = 0; a < 3; ++a) {
        tc.emplace_back(i, c + a, r.r[q][a]);
        tc.emplace_back(i, c + 3 + a, r.p[q][a]);
        tm.emplace_back(c + a, i, r.r[q][a] / B.m);
        tm.emplace_back(c + 3 + a, i, jp[a]);
      }
    }
    ++i;
  }
  Eigen::SparseMatrix<double> C(m, n6), MinvCt(n6, m);
  C.setFromTriplets(tc.begin(), tc.end());
  MinvCt.setFromTriplets(tm.begin(), tm.end());
  Eigen::SparseMatrix<double> I(m, m);
  I.setIdentity();
  const Eigen::SparseMatrix<double> S = C * MinvCt + compliance_ * I;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(S);
  if (ldlt.info() != Eigen::Success) fail("mechanism", "", "singular constraint set (a joint fixes what another already fixes?)");
  lam = ldlt.solve(C * a0 - gamma);
  if (acc) *acc = a0 - MinvCt * lam;
}

}  // namespace pm::mb
