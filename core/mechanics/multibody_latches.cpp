// MultibodySystem's latches (issue 27): a joint whose rows exist from the
// start but are off until the latch engages. Engaging puts the joint's J
// frame (a private anchor marker on j's part) at I's frame, so the joint
// forms where the parts are, switches its rows on, and then makes the
// velocities consistent as a plastic impact (decision 0021):
//
//   M (v+ - v-) = C^T p,   C v+ + Phi_t = 0,
//
// C the active rows (the latch's and every other joint's), M the bodies'
// masses and inertias. The constraint impulses p are internal (equal and
// opposite at one point, or pure couples), so linear and angular momentum
// are kept; the kinetic energy lost is 1/2 (v- - v+)^T M (v- - v+).
#include "mechanics/multibody.h"

#include <Eigen/Dense>

#include <cmath>

namespace pm::mb {

namespace {

// I's velocity relative to the body of j at I's origin (world).
V3 relativeVelocity(const V3& P, const V3& vP, const Kin& kj) { return vP - kj.v - kj.ww.cross(P - kj.r); }

}  // namespace

double MultibodySystem::latchDistance(const double* y, int l, double* rate) const {
  V3 pi, vi, pj, vj;
  markerState(y, latches_[l].joint.I, pi, vi);
  markerState(y, latches_[l].userJ, pj, vj);
  const V3 d = pi - pj;
  const double n = d.norm();
  if (rate) *rate = n > 0.0 ? d.dot(vi - vj) / n : 0.0;
  return n;
}

void MultibodySystem::engageLatch(int l, double t, const double* y) {
  LatchRT& L = latches_[l];
  std::vector<Kin> k;
  kinematics(y, k);
  MarkerRT& a = markers_[L.joint.J];
  const Kin& kj = k[a.body];
  a.s = kj.A.transpose() * (markerPoint(L.joint.I, k) - kj.r);
  a.A = kj.A.transpose() * markerAxes(L.joint.I, k);
  // The latch's rows that add a direction to the active ones switch on
  // (a latch to the ground of a carriage on a slide: only the slide's free
  // direction); the others would make the constraint matrix singular.
  std::vector<Row> rows;
  buildRows(t, y, k, rows);
  const Eigen::MatrixXd C = constraintMatrix(rows, true);
  Eigen::MatrixXd Q;
  if (C.rows() > 0) {
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(C.transpose());
    Q = qr.householderQ() * Eigen::MatrixXd::Identity(C.cols(), qr.rank());
  }
  for (int r = L.joint.firstRow; r < L.joint.firstRow + L.joint.nRows; ++r) {
    Eigen::VectorXd v = matrixOf({rows[r]}).row(0).transpose();
    const double n0 = v.norm();
    for (int pass = 0; pass < 2 && Q.cols() > 0; ++pass) v -= Q * (Q.transpose() * v);
    const bool independent = n0 > 0.0 && v.norm() >= 1e-9 * n0;
    rowInfo_[r].active = independent;
    if (!independent) continue;
    const Eigen::VectorXd u = v / v.norm();
    Q.conservativeResize(u.size(), Q.cols() + 1);
    Q.col(Q.cols() - 1) = u;
  }
  L.engaged = true;
  L.closing = false;
  L.engageTime = t;
}

void MultibodySystem::latchImpulse(int l, double t, double* y) {
  LatchRT& L = latches_[l];
  std::vector<Kin> k;
  kinematics(y, k);
  std::vector<Row> rows;
  buildRows(t, y, k, rows);
  std::vector<int> col(bodies_.size(), -1);
  int n6 = 0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) col[b] = n6, n6 += 6;
  // M^-1 C^T, S = C M^-1 C^T and the velocity error of the active rows.
  std::vector<int> act;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rowInfo_[i].active) act.push_back(static_cast<int>(i));
  const int m = static_cast<int>(act.size());
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(m, n6), MiCt = Eigen::MatrixXd::Zero(n6, m);
  Eigen::VectorXd err(m), v(n6);
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (col[b] >= 0) v.segment<3>(col[b]) = k[b].v, v.segment<3>(col[b] + 3) = k[b].w;
  for (int i = 0; i < m; ++i) {
    const Row& r = rows[act[i]];
    for (int q = 0; q < r.n; ++q) {
      const int c = col[r.b[q]];
      if (c < 0) continue;
      C.block<1, 3>(i, c) += r.r[q].transpose();
      C.block<1, 3>(i, c + 3) += r.p[q].transpose();
      MiCt.block<3, 1>(c, i) += r.r[q] / bodies_[r.b[q]].m;
      MiCt.block<3, 1>(c + 3, i) += bodies_[r.b[q]].Jinv * r.p[q];
    }
    err[i] = r.phit;
  }
  err += C * v;
  const Eigen::VectorXd p = (C * MiCt).completeOrthogonalDecomposition().solve(-err);
  const V3 P = markerPoint(L.joint.I, k);
  const int bi = markers_[L.joint.I].body, bj = markers_[L.userJ].body;
  const V3 before = relativeVelocity(P, markerVelocity(L.joint.I, k), k[bj]);
  const double e0 = kineticEnergy(y);
  v += MiCt * p;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (col[b] >= 0)
      for (int a = 0; a < 3; ++a) {
        y[bodies_[b].slot + 7 + a] = v[col[b] + a];
        y[bodies_[b].slot + 10 + a] = v[col[b] + 3 + a];
      }
  kinematics(y, k);
  L.velocityJump = (relativeVelocity(P, markerVelocity(L.joint.I, k), k[bj]) - before).norm();
  L.energyLost += e0 - kineticEnergy(y);
  // The latch's own impulse on I's part (its rows' share of C^T p).
  V3 J = V3::Zero();
  for (int i = 0; i < m; ++i) {
    if (act[i] < L.joint.firstRow || act[i] >= L.joint.firstRow + L.joint.nRows) continue;
    const Row& r = rows[act[i]];
    for (int q = 0; q < r.n; ++q)
      if (r.b[q] == bi) J += r.r[q] * p[i];
  }
  L.impulse = J.norm();
}

void MultibodySystem::releaseLatch(int l) {
  LatchRT& L = latches_[l];
  for (int r = L.joint.firstRow; r < L.joint.firstRow + L.joint.nRows; ++r) rowInfo_[r].active = false;
  L.engaged = false;
  L.armed = false;
}

void MultibodySystem::latchDiscrete(DiscreteState& s) {
  for (LatchRT& L : latches_) {
    MarkerRT& a = markers_[L.joint.J];
    s(L.engaged, L.armed, L.energyLost, L.velocityJump, L.impulse, L.closing, L.conditionTime, L.engageTime);
    for (int i = 0; i < 3; ++i) s(a.s[i]);
    for (int i = 0; i < 9; ++i) s(a.A.data()[i]);
    for (int r = L.joint.firstRow; r < L.joint.firstRow + L.joint.nRows; ++r) s(rowInfo_[r].active);
  }
}

void MultibodySystem::declareLatchChannels() {
  for (const LatchRT& L : latches_) {
    channels_.push_back({L.id + ".engaged", "1"});
    channels_.push_back({L.id + ".distance", "m"});
    for (const char* q : {"Fx", "Fy", "Fz"}) channels_.push_back({L.id + "." + q, "N"});
    for (const char* q : {"Tx", "Ty", "Tz"}) channels_.push_back({L.id + "." + q, "N m"});
    channels_.push_back({L.id + ".velocity_jump", "m/s"});
    channels_.push_back({L.id + ".energy_lost", "J"});
    channels_.push_back({L.id + ".impulse", "N s"});
    // Only with a closing time, so a latch without one keeps its columns.
    if (L.closingTime > 0.0) {
      channels_.push_back({L.id + ".closing", "1"});
      channels_.push_back({L.id + ".condition_time", "s"});
      channels_.push_back({L.id + ".engage_time", "s"});
    }
  }
}

void MultibodySystem::latchValues(const double* y, double* row, int& c) const {
  for (size_t l = 0; l < latches_.size(); ++l) {
    const LatchRT& L = latches_[l];
    row[c++] = L.engaged ? 1.0 : 0.0;
    row[c++] = latchDistance(y, static_cast<int>(l), nullptr);
    V3 F, T;
    jointReaction(L.joint, y, F, T);  // zero while off (its rows are inactive)
    for (int q = 0; q < 3; ++q) row[c++] = F[q];
    for (int q = 0; q < 3; ++q) row[c++] = T[q];
    row[c++] = L.velocityJump;
    row[c++] = L.energyLost;
    row[c++] = L.impulse;
    if (L.closingTime > 0.0) {
      row[c++] = L.closing ? 1.0 : 0.0;
      row[c++] = L.conditionTime;
      row[c++] = L.engageTime;
    }
  }
}

}  // namespace pm::mb
