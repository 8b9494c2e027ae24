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

namespace {

// `pos` moved by `delta`: the coordinates it changes rounded to picometres
// (positions stay readable in the file), the others untouched.
void shift(Vec3& pos, const Eigen::Vector3d& delta) {
  for (int k = 0; k < 3; ++k)
    if (delta[k] != 0.0) pos[k] = std::round((pos[k] + delta[k]) * 1e12) / 1e12 + 0.0;
}

// A rotation with the entries its rounding left near 0 set to 0.
Eigen::Matrix3d cleaned(Eigen::Matrix3d r) {
  for (int i = 0; i < 9; ++i)
    if (std::abs(r(i)) < 1e-12) r(i) = 0.0;
  return r;
}

Eigen::Vector3d roundedVec(const Vec3& v, double step) { return {rounded(v[0], step), rounded(v[1], step), rounded(v[2], step)}; }

}  // namespace

bool moveObject(Project& p, const std::string& id, const Vec3& offset, double step) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  if (!resolve(p, id, part, mk)) return false;
  const Eigen::Vector3d d = roundedVec(offset, step);
  if (!mk) shift(part->position, d);
  else shift(mk->position, cleaned(pm::rotationFromRpy(part->orientation)).transpose() * d);  // in its part's axes
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

bool moveLocal(Project& p, const std::string& id, const Vec3& offset, double step) {
  PartDef* part = nullptr;
  MarkerDef* mk = nullptr;
  if (!resolve(p, id, part, mk)) return false;
  // The own axes in the frame the position is given in: the world for a
  // part, the part's frame for a marker.
  const Eigen::Matrix3d axes = cleaned(pm::rotationFromRpy(mk ? mk->orientation : part->orientation));
  shift(mk ? mk->position : part->position, axes * roundedVec(offset, step));
  return true;
}

bool moveAlong(Project& p, const std::string& id, int axis, double distance, double step) {
  if (axis < 0 || axis > 2) return false;
  Vec3 offset{0.0, 0.0, 0.0};
  offset[size_t(axis)] = distance;
  return moveLocal(p, id, offset, step);
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
