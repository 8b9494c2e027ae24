#include "mechanics/contact/shape.h"

#include "mechanics/contact/mesh_shape.h"

#include <limits>

namespace pm::contact {

const char* kindName(ShapeKind k) {
  switch (k) {
    case ShapeKind::Sphere: return "sphere";
    case ShapeKind::Box: return "box";
    case ShapeKind::Capsule: return "capsule";
    case ShapeKind::Cylinder: return "cylinder";
    case ShapeKind::Plane: return "plane";
    case ShapeKind::Funnel: return "funnel";
    case ShapeKind::Mesh: return "mesh";
  }
  return "?";
}

Aabb bounds(const Shape& s, const Frame& f, double margin) {
  V3 half = V3::Zero();
  switch (s.kind) {
    case ShapeKind::Sphere: half = V3::Constant(s.radius); break;
    case ShapeKind::Box: half = f.R.cwiseAbs() * s.halfExtents; break;
    case ShapeKind::Capsule: half = s.halfLength * f.R.col(2).cwiseAbs() + V3::Constant(s.radius); break;
    case ShapeKind::Cylinder: {
      // A disc of radius r normal to a spans r sqrt(1 - a_i^2) along axis i.
      const V3 a = f.R.col(2);
      const V3 disc = (V3::Ones() - a.cwiseProduct(a)).cwiseMax(0.0).cwiseSqrt() * s.radius;
      half = s.halfLength * a.cwiseAbs() + disc;
      break;
    }
    case ShapeKind::Mesh: {
      const V3 c = 0.5 * (s.mesh->lo() + s.mesh->hi());
      half = f.R.cwiseAbs() * (0.5 * (s.mesh->hi() - s.mesh->lo()));
      half.array() += margin;
      return {f.toWorld(c) - half, f.toWorld(c) + half};
    }
    case ShapeKind::Plane:
    case ShapeKind::Funnel: {
      const double inf = std::numeric_limits<double>::infinity();
      return {V3::Constant(-inf), V3::Constant(inf)};
    }
  }
  half.array() += margin;
  return {f.p - half, f.p + half};
}

}  // namespace pm::contact
