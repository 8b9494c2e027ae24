// Narrow phase: the geometry of one pair of shapes (issue 27).
//
// For shapes A and B, `collide` gives the signed distance (positive apart,
// minus the deepest penetration when they overlap; continuous through the
// onset, so usable as a root function for the contact events), the contact
// normal n (unit, from A towards B: the normal force pushes B along +n and A
// along -n), and when they overlap the contact points, each midway between
// the two surfaces with its own penetration depth. A box on a plane has up to
// four points (its penetrating vertices); a capsule on a plane up to two.
// Supported pairs: sphere with every shape; plane with capsule, box and
// cylinder (per end disc its lowest rim point; four rim points when flat); box
// with box, capsule and cylinder (cylinder_box.h); capsule with capsule;
// cylinder with capsule and cylinder (cylinder_cylinder.h); funnel with
// capsule and cylinder (funnel_pairs.h); mesh with sphere, capsule, box and
// cylinder (mesh_pairs.h). Others throw, naming the pair.
#pragma once

#include "mechanics/contact/shape.h"

#include <vector>

namespace pm::contact {

struct ContactPoint {
  V3 point = V3::Zero();  // world, midway between the surfaces
  double depth = 0.0;     // > 0: penetration along the normal at this point
  // Unit, from A towards B at this point: the pair's normal, except for a
  // mesh, whose points each have their feature's (a sphere in a groove).
  V3 normal = V3::Zero();
  // The part of the force law's force that acts here: 1, except for a mesh
  // contact handing over between two ways out of an edge (a cylinder's side
  // and cap, mesh_pairs.h), whose two sets of points share it.
  double share = 1.0;
};

struct Contact {
  double distance = 0.0;  // signed: > 0 apart, < 0 overlapping
  V3 normal = V3::UnitZ();
  std::vector<ContactPoint> points;  // empty when apart
  bool touching() const { return !points.empty(); }
};

// True when this module has a narrow phase for the pair (in either order).
bool supported(ShapeKind a, ShapeKind b);

// The frame with its axes made orthonormal (Gram-Schmidt from x) when they
// are off by more than 1e-9: the solver's Newton iterates and Jacobian
// columns hand rotations scaled by |p|^2 of unnormalised Euler parameters
// (1 + 4e-6 seen), which would scale the shapes and tilt the features the
// pairs derive from the axes. collide() applies it to both frames.
Frame orthonormal(const Frame& f);

// Throws std::invalid_argument naming the pair when it is not supported.
Contact collide(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb);

}  // namespace pm::contact
