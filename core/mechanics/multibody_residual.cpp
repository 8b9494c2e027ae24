// The DAE of MultibodySystem (the equations in multibody.h): its local
// states, the structure of its Jacobian, its residual, and the applied
// forces the reduced formulation integrates with.
#include "mechanics/multibody.h"

#include <algorithm>
#include <cmath>

namespace pm::mb {

std::vector<MultibodySystem::StateDecl> MultibodySystem::stateDecls(double atolPos) const {
  std::vector<StateDecl> d(nStates_);
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    const char* xyz[] = {"x", "y", "z"};
    for (int k = 0; k < 3; ++k) {
      d[b.slot + k] = {b.id + ".r" + xyz[k], "m", std::string("dr/dt - v + Phi_r^T mu   [centre of mass]"), true, atolPos};
      // Velocities as tight as positions: the velocity constraints are met
      // only as well as Newton meets these states.
      d[b.slot + 7 + k] = {b.id + ".v" + xyz[k], "m/s", "dv/dt - (F - Phi_r^T lambda)/m", true, atolPos};
      d[b.slot + 10 + k] = {b.id + ".w" + xyz[k] + "'", "rad/s", "dw'/dt - J'^-1 (n' - w' x J'w' - Phi_pi'^T lambda)",
                            true, atolPos};
    }
    for (int k = 0; k < 4; ++k)
      d[b.slot + 3 + k] = {b.id + ".e" + std::to_string(k), "1",
                           "dp/dt - 1/2 L^T w' + 2 L^T Phi_pi'^T mu + p mu_n   [Euler parameters]", true, atolPos};
    d[b.slot + 13] = {b.id + ".mu_n", "1", "(p.p - 1)/2", false, kMultiplierAtol};
  }
  for (const RowInfo& r : rowInfo_) {
    if (r.mu >= 0) d[r.mu] = {r.owner + ".mu", "1", r.equation + "   [position level]", false, kMultiplierAtol};
    d[r.lambda] = {r.owner + ".lambda", "N", "d/dt(" + r.equation + ")   [velocity level]", false, kMultiplierAtol};
  }
  // Only the branch (whole turns) is taken from a winding state; it is
  // integrated as tightly as the positions all the same.
  for (const JointRT& j : joints_)
    if (j.wind >= 0)
      d[j.wind] = {j.id + ".winding", "rad", "d theta/dt - rate   [continuous angle: the atan2 branch nearest theta]", true, atolPos};
  for (const ForceRT& f : forces_)
    if (f.wind >= 0)
      d[f.wind] = {f.id + ".winding", "rad", "d theta/dt - rate   [continuous angle: the atan2 branch nearest theta]", true, atolPos};
  // A stick state's deflection is below delta: its tolerance a thousandth of it.
  for (const contact::PairRT& p : contacts_)
    if (p.stick >= 0)
      for (int a = 0; a < contact::kStickStates; ++a)
        d[p.stick + a] = {p.id + (a < 3 ? std::string(".stick_") + "xyz"[a] : std::string(".twist")), "m",
                          a < 3 ? "dz/dt - (v_t - sigma0 w z / g(w))   [stick state: bristle deflection, world]"
                                : "ds/dt - (rho w_n - sigma0 w s / g(w))   [stick state: twist deflection at the arm rho]",
                          true, std::min(atolPos, 1e-3 * p.friction.stictionDeformation)};
  return d;
}

std::vector<std::vector<int>> MultibodySystem::couplingGroups() const {
  std::vector<std::vector<int>> g;
  auto bodyStates = [&](int b, std::vector<int>& v) {
    if (bodies_[b].ground) return;
    for (int k = 0; k < 14; ++k) v.push_back(bodies_[b].slot + k);
  };
  // Joint limit stops act like force elements between the joint's parts.
  for (const JointRT& j : joints_) {
    if (j.kind == JointRT::Kind::Coupler || (!std::isfinite(j.lower) && !std::isfinite(j.upper))) continue;
    std::vector<int> v;
    bodyStates(markers_[j.I].body, v);
    bodyStates(markers_[j.J].body, v);
    if (!v.empty()) g.push_back(v);
  }
  for (const ForceRT& f : forces_) {
    std::vector<int> v;
    bodyStates(markers_[f.I].body, v);
    if (f.J >= 0) bodyStates(markers_[f.J].body, v);
    if (f.ref >= 0) bodyStates(markers_[f.ref].body, v);
    if (!v.empty()) g.push_back(v);
  }
  contactCouplings(g);
  return g;
}

std::vector<std::pair<int, int>> MultibodySystem::couplingEntries() const {
  std::vector<std::pair<int, int>> e;
  auto block = [&](int r0, int nr, int c0, int nc) {
    for (int i = 0; i < nr; ++i)
      for (int j = 0; j < nc; ++j) e.emplace_back(r0 + i, c0 + j);
  };
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    const int s = b.slot;
    for (int a = 0; a < 3; ++a) e.emplace_back(s + a, s + 7 + a);  // dr/dt - v
    block(s + 3, 4, s + 3, 4);                                      // Euler parameter rows: p, w', mu_n
    block(s + 3, 4, s + 10, 3);
    block(s + 3, 4, s + 13, 1);
    block(s + 10, 3, s + 10, 3);  // gyroscopic w' x J w'
    block(s + 13, 1, s + 3, 4);   // normalisation
  }
  for (const Winding& w : windings_)  // d theta/dt - z_J . (w_I - w_J)
    for (int m : {w.I, w.J}) {
      const BodyRT& b = bodies_[markers_[m].body];
      if (b.ground) continue;
      block(w.state, 1, b.slot + 3, 4);
      block(w.state, 1, b.slot + 10, 3);
    }
  // Parts each constraint row acts on, and whether its Jacobian row depends
  // on the parts' positions r: only the dot-2 primitive's does (the point and
  // dot-1 rows' coefficients depend on the orientations alone).
  std::vector<std::vector<int>> rowBodies(rowInfo_.size());
  std::vector<char> rowOnR(rowInfo_.size(), 0);
  using K = JointRT::Kind;
  auto hasDot2 = [](const JointRT& j) { return j.kind == K::Translational || j.kind == K::Cylindrical || j.kind == K::Planar; };
  auto addBodies = [&](int r, const JointRT& j, bool onR) {
    rowOnR[r] = onR;
    if (j.kind == K::Coupler) {
      for (int c : j.coupled)
        for (int m : {joints_[c].I, joints_[c].J}) rowBodies[r].push_back(markers_[m].body);
    } else {
      rowBodies[r].push_back(markers_[j.I].body);
      rowBodies[r].push_back(markers_[j.J].body);
    }
  };
  for (const JointRT& j : joints_) {
    const bool onR = j.kind == K::Coupler ? joints_[j.coupled[0]].kind != K::Revolute || joints_[j.coupled[1]].kind != K::Revolute
                                          : hasDot2(j);
    for (int r = j.firstRow; r < j.firstRow + j.nRows; ++r) addBodies(r, j, onR);
  }
  for (const MotionRT& mo : motions_) addBodies(mo.row, joints_[mo.joint], joints_[mo.joint].kind != K::Revolute);
  for (const LatchRT& l : latches_)
    for (int r = l.joint.firstRow; r < l.joint.firstRow + l.joint.nRows; ++r) addBodies(r, l.joint, hasDot2(l.joint));
  for (size_t r = 0; r < rowInfo_.size(); ++r) {
    const RowInfo& info = rowInfo_[r];
    // Off: y = 0, the diagonal only; a latch's rows may switch on later.
    if (!info.active && static_cast<int>(r) < firstLatchRow_) continue;
    for (int b : rowBodies[r]) {
      if (bodies_[b].ground) continue;
      const int s = bodies_[b].slot;
      if (info.mu >= 0) {
        block(info.mu, 1, s, 7);  // Phi(r, p)
        block(s, 7, info.mu, 1);  // Phi_q^T mu in the position rows
      }
      const int q0 = rowOnR[r] ? 0 : 3;  // first coordinate C depends on: r, or p only
      block(info.lambda, 1, s + q0, 13 - q0);  // C v + Phi_t
      block(s + 7, 6, info.lambda, 1);         // reactions C^T lambda
      // C depends on the parts' positions, in the momentum rows (times lambda)
      // and in the position rows (times mu). mu vanishes on the solution, but
      // not during Newton's iteration: without those entries a ladder of 32
      // four-bars stalled (corrector failures at t = 0.78 s).
      for (int b2 : rowBodies[r])
        if (!bodies_[b2].ground) {
          block(s + 7, 6, bodies_[b2].slot + q0, 7 - q0);
          if (info.mu >= 0) block(s, 7, bodies_[b2].slot + q0, 7 - q0);
        }
    }
  }
  return e;
}

void MultibodySystem::residual(double t, const double* y, const double* yp, double* res) {
  const size_t nb = bodies_.size();
  kinematics(y, kin_);
  F_.assign(nb, V3::Zero());
  N_.assign(nb, V3::Zero());
  CR_.assign(nb, V3::Zero());
  CP_.assign(nb, V3::Zero());
  for (size_t b = 0; b < nb; ++b)
    if (!bodies_[b].ground) F_[b] = bodies_[b].m * g_;
  forces(t, y, kin_);
  if (externalForces) externalForces(t, y, kin_, *this);
  buildRows(t, y, kin_, rowsScratch_);
  for (size_t i = 0; i < rowsScratch_.size(); ++i) {
    const RowInfo& info = rowInfo_[i];
    const Row& r = rowsScratch_[i];
    if (!info.active) {
      if (info.mu >= 0) res[info.mu] = y[info.mu];
      res[info.lambda] = y[info.lambda];
      continue;
    }
    const double lam = y[info.lambda], mu = info.mu >= 0 ? y[info.mu] : 0.0;
    double vel = r.phit;
    for (int q = 0; q < r.n; ++q) {
      const int b = r.b[q];
      if (bodies_[b].ground) continue;
      F_[b] -= r.r[q] * lam;
      N_[b] -= r.p[q] * lam;
      CR_[b] += r.r[q] * mu;
      CP_[b] += r.p[q] * mu;
      vel += r.r[q].dot(kin_[b].v) + r.p[q].dot(kin_[b].w);
    }
    // Regularised by compliance_ (see multibody.h): the iteration matrix
    // stays regular where the constraints lose rank.
    if (info.mu >= 0) res[info.mu] = r.phi - compliance_ * mu;
    res[info.lambda] = vel - compliance_ * lam;
  }
  for (size_t b = 0; b < nb; ++b) {
    const BodyRT& B = bodies_[b];
    if (B.ground) continue;
    const Kin& k = kin_[b];
    const int s = B.slot;
    const Eigen::Matrix<double, 3, 4> L = Lmat(k.p);
    const Q4 pd = 0.5 * L.transpose() * k.w - 2.0 * L.transpose() * CP_[b] - k.p * y[s + 13];
    const V3 acc = F_[b] / B.m;
    const V3 alpha = B.Jinv * (N_[b] - k.w.cross(B.J * k.w));
    for (int a = 0; a < 3; ++a) {
      res[s + a] = yp[s + a] - k.v[a] + CR_[b][a];
      res[s + 7 + a] = yp[s + 7 + a] - acc[a];
      res[s + 10 + a] = yp[s + 10 + a] - alpha[a];
    }
    for (int a = 0; a < 4; ++a) res[s + 3 + a] = yp[s + 3 + a] - pd[a];
    res[s + 13] = 0.5 * (k.p.squaredNorm() - 1.0);
  }
  for (const Winding& w : windings_) {
    // The rate alone (relativeAngle's): no atan2 and one marker axis.
    const MarkerRT &mi = markers_[w.I], &mj = markers_[w.J];
    const V3 z = kin_[mj.body].A * mj.A.col(2);
    res[w.state] = yp[w.state] - z.dot(kin_[mi.body].ww - kin_[mj.body].ww);
  }
  for (size_t i = 0; i < contacts_.size(); ++i)  // the rates contactForces left
    if (contacts_[i].stick >= 0)
      for (int a = 0; a < contact::kStickStates; ++a)
        res[contacts_[i].stick + a] = yp[contacts_[i].stick + a] - stickRates_[i][a];
}

void MultibodySystem::appliedForces(double t, const double* y, std::vector<V3>& F, std::vector<V3>& N, double* rates) {
  const size_t nb = bodies_.size();
  kinematics(y, kin_);
  if (rates) windingRatesOf(kin_, rates);
  F_.assign(nb, V3::Zero());
  N_.assign(nb, V3::Zero());
  for (size_t b = 0; b < nb; ++b)
    if (!bodies_[b].ground) F_[b] = bodies_[b].m * g_;
  forces(t, y, kin_);
  if (externalForces) externalForces(t, y, kin_, *this);
  F = F_;
  N = N_;
}

}  // namespace pm::mb
