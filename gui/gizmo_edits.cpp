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

// A marker's axes in the world, as placed.
Eigen::Matrix3d worldAxes(const Mechanism& m, const std::string& ref) {
  const PartDef* part = m.part(ref.substr(0, ref.find('.')));
  const MarkerDef* mk = findMarker(m, ref);
  if (!part || !mk) return Eigen::Matrix3d::Identity();
  return pm::rotationFromRpy(part->orientation) * pm::rotationFromRpy(mk->orientation);
}

}  // namespace

double zAxisAngle(const Mechanism& m, const std::string& a, const std::string& b) {
  return std::acos(std::clamp(worldAxes(m, a).col(2).dot(worldAxes(m, b).col(2)), -1.0, 1.0));
}

double frameAngle(const Mechanism& m, const std::string& a, const std::string& b) {
  return Eigen::AngleAxisd(worldAxes(m, a).transpose() * worldAxes(m, b)).angle();
}

bool alignFrames(Project& p, const std::string& id, const std::string& marker, const std::string& onto) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  Vec3 c{};
  if (!resolve(p, id, part, mk) || !findMarker(p.mechanism, marker) || !findMarker(p.mechanism, onto) ||
      !markerWorld(p.mechanism, marker, c))
    return false;
  const Eigen::Matrix3d r = pm::rotationFromRpy(part->orientation);
  if (mk) {  // the marker itself takes the other's axes, in its part's frame
    mk->orientation = rpyOf(r.transpose() * worldAxes(p.mechanism, onto));
    return true;
  }
  // The turn taking the marker's axes onto the other's: T A_marker = A_onto.
  const Eigen::Matrix3d turn = worldAxes(p.mechanism, onto) * worldAxes(p.mechanism, marker).transpose();
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

bool moveAlong(Project& p, const std::string& id, int axis, double distance, double step) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  if (!resolve(p, id, part, mk) || axis < 0 || axis > 2) return false;
  // The axis in the frame the position is given in: the world for a part,
  // the part's frame for a marker.
  Eigen::Vector3d dir = pm::rotationFromRpy(mk ? mk->orientation : part->orientation).col(axis);
  for (double& c : dir)
    if (std::abs(c) < 1e-12) c = 0.0;
  Vec3& pos = mk ? mk->position : part->position;
  const bool onGrid = (dir.array().abs() == 1.0).any();
  for (int k = 0; k < 3; ++k)
    if (dir[k] != 0.0)
      pos[k] = onGrid ? rounded(pos[k] + dir[k] * distance, step) : std::round((pos[k] + dir[k] * distance) * 1e12) / 1e12 + 0.0;
  return true;
}

bool turnObject(Project& p, const std::string& id, int axis, double angle, bool local) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  if (!resolve(p, id, part, mk) || axis < 0 || axis > 2) return false;
  const Eigen::Matrix3d turn(Eigen::AngleAxisd(angle, Eigen::Vector3d::Unit(axis)));
  const Eigen::Matrix3d r = pm::rotationFromRpy(part->orientation);
  if (!mk) {
    // About its own axis: the turn comes after the part's rotation.
    part->orientation = rpyOf(local ? Eigen::Matrix3d(r * turn) : Eigen::Matrix3d(turn * r));
    return true;
  }
  const Eigen::Matrix3d rm = pm::rotationFromRpy(mk->orientation);
  // The marker's axes turn in the world: in its part's frame R^T T R.
  mk->orientation = rpyOf(local ? Eigen::Matrix3d(rm * turn) : Eigen::Matrix3d(r.transpose() * turn * r * rm));
  return true;
}

}  // namespace pm::gui
