// A triangle mesh read from CAD (STL, OBJ: io/mesh_file.h) and the volume
// integrals of the solid it bounds. The integrals use the divergence
// theorem: every triangle with the origin spans a signed tetrahedron, and
// their sums give the exact volume, first and second moments of a closed
// polyhedron. That holds only for a closed, consistently oriented surface,
// so closedMeshProblem checks it first. SI: m (after the file's scale).
#pragma once

#include "model/mechanism.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pm {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;  // vertex indices, counter-clockwise seen from outside
};

// Vertices with identical coordinates merged into one (STL repeats each
// vertex in every facet that uses it). Degenerate triangles (two equal
// corners) are dropped.
TriangleMesh weldVertices(const TriangleMesh& m);

// "" for a closed surface: every edge belongs to exactly two triangles that
// run along it in opposite directions. Otherwise what is wrong, with the
// first offending edge's end points ("the edge (0, 0, 0)-(1, 0, 0) belongs to
// 1 triangle: the surface has a hole there").
std::string closedMeshProblem(const TriangleMesh& m);

// Volume, centre of mass and inertia (Ixx Iyy Izz Ixy Ixz Iyz, tensor
// entries, about the centre of mass) of the solid a closed mesh bounds, at
// unit density, in mesh coordinates. An inside-out mesh (all triangles
// clockwise) gives the same solid: the orientation is taken from the sign of
// the volume.
struct MeshIntegrals {
  double volume = 0.0;
  Vec3 cm{};
  std::array<double, 6> inertia{};
};
MeshIntegrals meshIntegrals(const TriangleMesh& m);

}  // namespace pm
