// Contact shapes, each attached at a marker frame (issue 27). Dimensions are
// in the marker's axes: a capsule's and a cylinder's axis is the marker's z,
// a plane is the half-space z <= 0 of its marker (outward normal +z). A
// funnel is a conical wall about the marker's z-axis, radius `radius` at
// z = 0 (its base) and `mouthRadius` at z = `length`; the wall is solid on
// its outer side (everything outside the cone between the base and the mouth
// faces, which are normal to the wall's generator), so a body inside is
// guided by the inner surface and can pass through the base.
#pragma once

#include <Eigen/Dense>

#include <memory>

namespace pm::contact {

class MeshShape;

using V3 = Eigen::Vector3d;
using M3 = Eigen::Matrix3d;

// A marker's pose in the world: x_world = p + R x_local.
struct Frame {
  V3 p = V3::Zero();
  M3 R = M3::Identity();
  V3 toWorld(const V3& local) const { return p + R * local; }
  V3 toLocal(const V3& world) const { return R.transpose() * (world - p); }
};

enum class ShapeKind { Sphere, Box, Capsule, Cylinder, Plane, Funnel, Mesh };

struct Shape {
  ShapeKind kind = ShapeKind::Sphere;
  double radius = 0.0;             // sphere, capsule, cylinder
  double halfLength = 0.0;         // capsule (of the core segment), cylinder
  V3 halfExtents = V3::Zero();     // box
  double mouthRadius = 0.0;        // funnel (its base radius is `radius`)
  double length = 0.0;             // funnel
  std::shared_ptr<const MeshShape> mesh = nullptr;  // mesh (mesh_shape.h), in the marker's frame

  static Shape sphere(double r) { return {ShapeKind::Sphere, r, 0.0, V3::Zero()}; }
  static Shape box(const V3& half) { return {ShapeKind::Box, 0.0, 0.0, half}; }
  static Shape capsule(double r, double halfLen) { return {ShapeKind::Capsule, r, halfLen, V3::Zero()}; }
  static Shape cylinder(double r, double halfLen) { return {ShapeKind::Cylinder, r, halfLen, V3::Zero()}; }
  static Shape plane() { return {ShapeKind::Plane, 0.0, 0.0, V3::Zero()}; }
  static Shape funnel(double baseR, double mouthR, double len) {
    return {ShapeKind::Funnel, baseR, 0.0, V3::Zero(), mouthR, len};
  }
  static Shape triangles(std::shared_ptr<const MeshShape> m) {
    return {ShapeKind::Mesh, 0.0, 0.0, V3::Zero(), 0.0, 0.0, std::move(m)};
  }
};

const char* kindName(ShapeKind k);

// A sphere, box, capsule or cylinder: what a mesh may touch.
inline bool convex(ShapeKind k) {
  return k == ShapeKind::Sphere || k == ShapeKind::Box || k == ShapeKind::Capsule || k == ShapeKind::Cylinder;
}

// World-axis-aligned bounding box; a plane's and a funnel's (solid outside) are unbounded.
struct Aabb {
  V3 lo, hi;
  bool overlaps(const Aabb& o) const {
    return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
  }
};

// Bounds of the shape placed at f, grown by `margin` on every side (so pairs
// about to touch are kept: the contact onset can be located as a root).
Aabb bounds(const Shape& s, const Frame& f, double margin = 0.0);

}  // namespace pm::contact
