// Reading and checking a mb::MultibodySystem's local state in the mechanism
// tests: a part by id, its centre, a channel of an output row, and the
// balance of a static equilibrium (forces on every part and the constraint
// residuals). Header-only, like test_project.h.
#pragma once

#include "mechanics/multibody.h"
#include "support/test_project.h"

#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

namespace pm::test {

// Index of the part `id` among sys.bodies(); a missing one is fatal.
inline int bodyIndex(const mb::MultibodySystem& sys, const std::string& id) {
  for (size_t i = 0; i < sys.bodies().size(); ++i)
    if (sys.bodies()[i].id == id) return static_cast<int>(i);
  qFatal("no part %s", id.c_str());
  return -1;
}

// Centre of mass of part `body` in the state y.
inline mb::V3 centre(const mb::MultibodySystem& sys, const std::vector<double>& y, int body) {
  const int s = sys.bodies()[body].slot;
  return {y[s], y[s + 1], y[s + 2]};
}

// Channel `name` of an output row written by sys.outputs; a missing one is fatal.
inline double channel(const mb::MultibodySystem& sys, const std::vector<double>& row, const std::string& name) {
  for (size_t i = 0; i < sys.channels().size(); ++i)
    if (sys.channels()[i].name == name) return row[i];
  qFatal("no channel %s", name.c_str());
  return 0.0;
}

// Largest force and torque left unbalanced on any part (applied forces and
// reactions, at rest): the DAE's momentum rows at y' = 0, times mass or inertia.
inline void imbalance(mb::MultibodySystem& sys, const std::vector<double>& y, double& force, double& torque) {
  std::vector<double> zero(y.size(), 0.0), res(y.size(), 0.0);
  sys.residual(0.0, y.data(), zero.data(), res.data());
  force = torque = 0.0;
  for (const auto& b : sys.bodies()) {
    if (b.ground) continue;
    const mb::V3 acc(res[b.slot + 7], res[b.slot + 8], res[b.slot + 9]);
    const mb::V3 alpha(res[b.slot + 10], res[b.slot + 11], res[b.slot + 12]);
    force = std::max(force, b.m * acc.norm());
    torque = std::max(torque, (b.J * alpha).norm());
  }
}

// A static equilibrium y (at t = 0) holds: every part balanced to 1e-8 N and
// 1e-8 N m, the constraints closed to 1e-10 m.
inline void checkBalanced(mb::MultibodySystem& sys, const std::vector<double>& y) {
  double force, torque, pos, vel;
  imbalance(sys, y, force, torque);
  sys.constraintResiduals(0.0, y.data(), pos, vel);
  qInfo("unbalanced force %.3g N, torque %.3g N m; |Phi| %.3g m", force, torque, pos);
  CHECK_WORST(force, 1e-8);
  CHECK_WORST(torque, 1e-8);
  CHECK_WORST(pos, 1e-10);
}

// The constraints of state y at time t close on position and velocity
// (|Phi|, |C v + Phi_t|) to 1e-10.
inline void checkClosed(mb::MultibodySystem& sys, double t, const std::vector<double>& y) {
  double pos, vel;
  sys.constraintResiduals(t, y.data(), pos, vel);
  qInfo("|Phi| %.3g m, |C v + Phi_t| %.3g m/s", pos, vel);
  CHECK_WORST(pos, 1e-10);
  CHECK_WORST(vel, 1e-10);
}

}  // namespace pm::test
