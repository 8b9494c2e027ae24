// Orientations as the files write them: roll-pitch-yaw angles [rad],
// R = Rz(yaw) Ry(pitch) Rx(roll), mapping the rotated frame to its parent.
#pragma once

#include "model/mechanism.h"

#include <Eigen/Geometry>

namespace pm {

inline Eigen::Matrix3d rotationFromRpy(const Vec3& a) {
  return (Eigen::AngleAxisd(a[2], Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(a[1], Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(a[0], Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

}  // namespace pm
