// Rotations with Euler parameters (unit quaternions p = [e0, e1, e2, e3]),
// the singularity-free choice of seed 004: A(p) maps body to world, and the
// body angular velocity w' gives dp/dt = 1/2 p (x) [0, w'].
#pragma once

#include "model/mechanism.h"
#include "model/orientation.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace pm::mb {

using V3 = Eigen::Vector3d;
using M3 = Eigen::Matrix3d;
using Q4 = Eigen::Vector4d;  // e0, e1, e2, e3

inline V3 v3(const Vec3& a) { return {a[0], a[1], a[2]}; }

inline M3 skew(const V3& a) {
  M3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

inline M3 rotation(const Q4& p) {
  const double e0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
  M3 A;
  A << 2 * (e0 * e0 + e1 * e1) - 1, 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2),  //
      2 * (e1 * e2 + e0 * e3), 2 * (e0 * e0 + e2 * e2) - 1, 2 * (e2 * e3 - e0 * e1),   //
      2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), 2 * (e0 * e0 + e3 * e3) - 1;
  return A;
}

inline Q4 quatMul(const Q4& a, const Q4& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

// L(p) (3x4) with w' = 2 L dp/dt; dp/dt = 1/2 L^T w' for unit p.
inline Eigen::Matrix<double, 3, 4> Lmat(const Q4& p) {
  Eigen::Matrix<double, 3, 4> L;
  L << -p[1], p[0], p[3], -p[2],  //
      -p[2], -p[3], p[0], p[1],   //
      -p[3], p[2], -p[1], p[0];
  return L;
}

// Rotation by the body-frame rotation vector `phi` applied after p.
inline Q4 rotated(const Q4& p, const V3& phi) {
  const double a = phi.norm();
  Q4 d;
  if (a < 1e-12) {
    d << 1, 0.5 * phi.x(), 0.5 * phi.y(), 0.5 * phi.z();
  } else {
    const double s = std::sin(0.5 * a) / a;
    d << std::cos(0.5 * a), s * phi.x(), s * phi.y(), s * phi.z();
  }
  Q4 q = quatMul(p, d);
  return q / q.norm();
}

inline Q4 fromMatrix(const M3& A) {
  Eigen::Quaterniond q(A);
  q.normalize();
  Q4 p(q.w(), q.x(), q.y(), q.z());
  if (p[0] < 0) p = -p;
  return p;
}

// Roll-pitch-yaw as in the file format (model/orientation.h).
inline M3 fromRpy(const Vec3& a) { return rotationFromRpy(a); }

inline V3 toRpy(const M3& R) {
  // Inverse of fromRpy; pitch in [-pi/2, pi/2].
  const double pitch = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  if (std::abs(R(2, 0)) > 1.0 - 1e-12) {
    // Gimbal lock (pitch = +-90 deg): only roll -+ yaw is defined; put it in yaw.
    return {0.0, pitch, std::atan2(-R(0, 1), R(1, 1))};
  }
  const double roll = std::atan2(R(2, 1), R(2, 2));
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  return {roll, pitch, yaw};
}

}  // namespace pm::mb
