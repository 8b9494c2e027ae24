#include "marker_placement.h"

#include <algorithm>
#include <cmath>

namespace pm::gui {

QMatrix4x4 rotationFromRpy(const Vec3& rpy) {
  QMatrix4x4 m;
  constexpr double deg = 180.0 / M_PI;
  m.rotate(float(rpy[2] * deg), 0, 0, 1);
  m.rotate(float(rpy[1] * deg), 0, 1, 0);
  m.rotate(float(rpy[0] * deg), 1, 0, 0);
  return m;
}

Vec3 rpyFromRotation(const QMatrix4x4& r) {
  const double s = std::clamp(double(-r(2, 0)), -1.0, 1.0);
  // Pitch +-90 deg (x along +-z): roll and yaw turn about the same axis;
  // all of it goes to yaw.
  if (std::abs(s) > 1.0 - 1e-6) return {0.0, std::asin(s), std::atan2(double(-r(0, 1)), double(r(1, 1)))};
  return {std::atan2(double(r(2, 1)), double(r(2, 2))), std::asin(s), std::atan2(double(r(1, 0)), double(r(0, 0)))};
}

namespace {

// Rounds to the grid, else to micrometres (the view computes in float);
// + 0.0 keeps negative zero out of the file.
double snapTo(double v, double grid) {
  if (grid > 0) return std::round(v / grid) * grid + 0.0;
  return std::round(v * 1e6) / 1e6 + 0.0;
}

// Angles within 1e-4 rad of a multiple of 15 degrees are that multiple
// (float noise of the view's matrices, not the user's intent).
void cleanAngles(Vec3& rpy) {
  const double step = M_PI / 12;
  for (double& a : rpy)
    if (const double k = std::round(a / step); std::abs(a - k * step) < 1e-4) a = k * step + 0.0;
}

}  // namespace

MarkerPlacement placeOnSurface(const QMatrix4x4& part, const QVector3D& world, const QVector3D& normal, double grid) {
  bool invertible = false;
  const QMatrix4x4 inv = part.inverted(&invertible);
  const QVector3D local = inv.map(world);
  QVector3D n = inv.mapVector(normal).normalized();
  // A normal within 2 degrees of a part axis is that axis.
  for (int k = 0; k < 3; ++k)
    if (std::abs(n[k]) > std::cos(2.0 * M_PI / 180.0)) {
      n = QVector3D();
      n[k] = normal.isNull() ? 1.0f : (inv.mapVector(normal)[k] > 0 ? 1.0f : -1.0f);
    }
  MarkerPlacement p;
  for (int k = 0; k < 3; ++k)  // along the surface only: the point stays on it
    p.position[k] = snapTo(local[k], std::abs(n[k]) < 1e-6 ? grid : 0.0);
  // z along the normal; x the part axis least aligned with it, made square.
  int least = 0;
  for (int k = 1; k < 3; ++k)
    if (std::abs(n[k]) < std::abs(n[least])) least = k;
  QVector3D x;
  x[least] = 1.0f;
  x = (x - QVector3D::dotProduct(x, n) * n).normalized();
  const QVector3D y = QVector3D::crossProduct(n, x);
  QMatrix4x4 r;
  r.setColumn(0, QVector4D(x, 0));
  r.setColumn(1, QVector4D(y, 0));
  r.setColumn(2, QVector4D(n, 0));
  p.orientation = rpyFromRotation(r);
  cleanAngles(p.orientation);
  return p;
}

MarkerPlacement coincideWith(const QMatrix4x4& part, const QMatrix4x4& other) {
  const QMatrix4x4 rel = part.inverted() * other;
  MarkerPlacement p;
  const QVector3D t = rel.column(3).toVector3D();
  for (int k = 0; k < 3; ++k) p.position[k] = snapTo(t[k], 0.0);
  p.orientation = rpyFromRotation(rel);
  cleanAngles(p.orientation);
  return p;
}

}  // namespace pm::gui
