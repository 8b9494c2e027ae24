#include "gizmo_edits.h"

#include "mechanism_editing.h"
#include "model/orientation.h"

#include <algorithm>
#include <cmath>

namespace pm::gui {

namespace {

Eigen::Vector3d eig(const Vec3& v) { return {v[0], v[1], v[2]}; }

// rpy of R = Rz(yaw) Ry(pitch) Rx(roll); angles within 1e-9 rad of a
// multiple of 15 degrees are that multiple (rounding, not intent).
Vec3 rpyOf(const Eigen::Matrix3d& r) {
  const double s = std::clamp(-r(2, 0), -1.0, 1.0);
  Vec3 a = std::abs(s) > 1.0 - 1e-12 ? Vec3{0.0, std::asin(s), std::atan2(-r(0, 1), r(1, 1))}
                                     : Vec3{std::atan2(r(2, 1), r(2, 2)), std::asin(s), std::atan2(r(1, 0), r(0, 0))};
  for (double& x : a)
    if (const double k = std::round(x / (M_PI / 12)); std::abs(x - k * M_PI / 12) < 1e-9) x = k * M_PI / 12 + 0.0;
  return a;
}

double rounded(double v, double step) {
  return step > 0 ? std::round(v / step) * step + 0.0 : std::round(v * 1e6) / 1e6 + 0.0;
}

// The part of `id` and, for a marker, the marker.
bool resolve(Project& p, const std::string& id, PartDef*& part, MarkerDef*& marker) {
  part = findPart(p.mechanism, id.substr(0, id.find('.')));
  marker = id.find('.') == std::string::npos ? nullptr : findMarker(p.mechanism, id);
  return part && (marker || id.find('.') == std::string::npos);
}

}  // namespace

bool markerWorld(const Mechanism& m, const std::string& ref, Vec3& world) {
  const PartDef* part = m.part(ref.substr(0, ref.find('.')));
  const MarkerDef* mk = findMarker(m, ref);
  if (!part || !mk) return false;
  const Eigen::Vector3d w = eig(part->position) + pm::rotationFromRpy(part->orientation) * eig(mk->position);
  world = {w[0], w[1], w[2]};
  return true;
}

namespace {

// A marker's z axis in the world, as placed.
Eigen::Vector3d worldZ(const Mechanism& m, const std::string& ref) {
  const PartDef* part = m.part(ref.substr(0, ref.find('.')));
  const MarkerDef* mk = findMarker(m, ref);
  if (!part || !mk) return Eigen::Vector3d::UnitZ();
  return pm::rotationFromRpy(part->orientation) * pm::rotationFromRpy(mk->orientation).col(2);
}

}  // namespace

double zAxisAngle(const Mechanism& m, const std::string& a, const std::string& b) {
  return std::acos(std::clamp(worldZ(m, a).dot(worldZ(m, b)), -1.0, 1.0));
}

bool alignZ(Project& p, const std::string& id, const std::string& marker, const std::string& onto) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  Vec3 c{};
  if (!resolve(p, id, part, mk) || !findMarker(p.mechanism, marker) || !findMarker(p.mechanism, onto) ||
      !markerWorld(p.mechanism, marker, c))
    return false;
  // FromTwoVectors also picks an axis for opposite z axes.
  const Eigen::Matrix3d turn =
      Eigen::Quaterniond::FromTwoVectors(worldZ(p.mechanism, marker), worldZ(p.mechanism, onto)).toRotationMatrix();
  const Eigen::Matrix3d r = pm::rotationFromRpy(part->orientation);
  if (mk) {
    mk->orientation = rpyOf(r.transpose() * turn * r * pm::rotationFromRpy(mk->orientation));
    return true;
  }
  part->orientation = rpyOf(turn * r);
  // About the marker's origin: it stays where it was, with the orientation
  // as stored (rounded).
  const Eigen::Vector3d pos = eig(c) - pm::rotationFromRpy(part->orientation) * eig(findMarker(p.mechanism, marker)->position);
  part->position = {pos[0], pos[1], pos[2]};
  return true;
}

bool moveObject(Project& p, const std::string& id, const Vec3& offset, double step) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  if (!resolve(p, id, part, mk)) return false;
  if (!mk) {
    for (int k = 0; k < 3; ++k) part->position[k] = rounded(part->position[k] + offset[k], step);
    return true;
  }
  const Eigen::Vector3d local = pm::rotationFromRpy(part->orientation).transpose() * eig(offset);
  for (int k = 0; k < 3; ++k) mk->position[k] = rounded(mk->position[k] + local[k], step);
  return true;
}

bool moveOnto(Project& p, const std::string& id, const std::string& marker, const std::string& onto) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  Vec3 target{};
  const MarkerDef* moved = findMarker(p.mechanism, marker);
  if (!resolve(p, id, part, mk) || !moved || !markerWorld(p.mechanism, onto, target)) return false;
  const Eigen::Matrix3d r = pm::rotationFromRpy(part->orientation);
  if (mk) {  // the marker itself: the target in its part's frame
    const Eigen::Vector3d local = r.transpose() * (eig(target) - eig(part->position));
    mk->position = {local[0], local[1], local[2]};
  } else {  // the part, carrying its marker there
    const Eigen::Vector3d pos = eig(target) - r * eig(moved->position);
    part->position = {pos[0], pos[1], pos[2]};
  }
  return true;
}

bool turnObject(Project& p, const std::string& id, int axis, double angle) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  if (!resolve(p, id, part, mk) || axis < 0 || axis > 2) return false;
  const Eigen::Matrix3d turn(Eigen::AngleAxisd(angle, Eigen::Vector3d::Unit(axis)));
  const Eigen::Matrix3d r = pm::rotationFromRpy(part->orientation);
  if (!mk) {
    part->orientation = rpyOf(turn * r);
    return true;
  }
  // The marker's axes turn in the world: in its part's frame R^T T R.
  mk->orientation = rpyOf(r.transpose() * turn * r * pm::rotationFromRpy(mk->orientation));
  return true;
}

}  // namespace pm::gui
