// A triangle mesh as a contact shape (issue 27): the triangles, their
// normals, the edges with the triangles on either side, the vertices'
// neighbours, and a bounding-volume hierarchy over the triangles, so a query
// near a body visits ~log n nodes of an n-triangle mesh. Built once per
// pair when the project is compiled; immutable after.
//
// The narrow phase (mesh_pairs.h) reports a contact at a face, an edge or a
// vertex only where that feature is a local minimum of the distance from the
// other body's core (its closest feature): a face where the point projects
// inside it, an edge or a vertex where the direction to the point lies in
// its normal cone (between the normals of the faces around it). So a body on
// two coplanar or convex-adjacent triangles gets one contact across their
// shared edge, handed over continuously, never one per triangle.
#pragma once

#include "mechanics/contact/shape.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace pm::contact {

struct MeshEdge {
  int a = -1, b = -1;           // vertex indices, a < b
  int tri[2] = {-1, -1};        // the triangles on either side (tri[1] = -1: a boundary edge)
  V3 inward[2] = {V3::Zero(), V3::Zero()};  // per side: unit, in the triangle's plane, across the edge into it
  // A boundary edge, or one whose faces meet convex by more than kFlatAngle:
  // only such edges are contact features of their own (a flat or concave
  // edge's nearest points are its faces').
  bool sharp = false;
};

struct MeshNode {
  V3 lo, hi;             // bounds of the triangles below
  int left = -1, right = -1;  // children (inner node), or -1
  int first = 0, count = 0;   // leaf: order[first .. first + count)
};

class MeshShape {
 public:
  // Faces meeting at an angle below this [rad] count as coplanar.
  static constexpr double kFlatAngle = 1e-9;

  // What is wrong with the vertices and triangles as a contact surface
  // ({field, message}, field e.g. "triangles[3]"), or nothing.
  struct Problem {
    std::string field, message;
  };
  static std::optional<Problem> check(const std::vector<std::array<double, 3>>& vertices,
                                      const std::vector<std::array<int, 3>>& triangles);
  // Checked input (check() found nothing).
  MeshShape(const std::vector<std::array<double, 3>>& vertices, const std::vector<std::array<int, 3>>& triangles);

  const std::vector<V3>& vertices() const { return v_; }
  const std::vector<std::array<int, 3>>& triangles() const { return t_; }
  const std::vector<V3>& normals() const { return n_; }
  const std::vector<MeshEdge>& edges() const { return e_; }
  const std::array<int, 3>& triangleEdges(int t) const { return te_[t]; }
  // The vertices joined to vertex i by an edge.
  const std::vector<int>& neighbours(int i) const { return nb_[i]; }
  // Vertex i ends a sharp edge (else it lies inside a flat or concave stretch:
  // never a contact feature of its own).
  bool sharpVertex(int i) const { return sharpV_[i] != 0; }
  // The sharp edges with a triangle on either side (ridges) that end at vertex i.
  const std::vector<int>& ridgesAt(int i) const { return ridges_[i]; }
  // The flat patch triangle t lies in (triangles joined by flat edges share one).
  int patch(int t) const { return patch_[t]; }
  // Ridge e has an end vertex on patch p (a cylinder's rim points over p are
  // picked over the ridge's planes too, mesh_pairs.cpp rimNormal).
  bool ridgeTouches(int e, int p) const { return std::binary_search(ridgePatches_[e].begin(), ridgePatches_[e].end(), p); }
  V3 lo() const { return nodes_.front().lo; }
  V3 hi() const { return nodes_.front().hi; }

  // Triangles whose bounds overlap the box [lo, hi] (appended, mesh coordinates).
  void query(const V3& lo, const V3& hi, std::vector<int>& out) const;
  // Nodes visited by the last query on this thread (for the bench).
  static long long& visits();

 private:
  int build(int first, int count, int depth);
  void patches();

  std::vector<V3> v_;
  std::vector<std::array<int, 3>> t_;
  std::vector<V3> n_;
  std::vector<MeshEdge> e_;
  std::vector<std::array<int, 3>> te_;  // per triangle: its edges (opposite corners 2, 0, 1: edge k runs from corner k to k + 1)
  std::vector<std::vector<int>> nb_;
  std::vector<char> sharpV_;
  std::vector<std::vector<int>> ridges_;
  std::vector<int> patch_;
  std::vector<std::vector<int>> ridgePatches_;  // per edge (ridges only): the patches at its end vertices, sorted
  std::vector<V3> tlo_, thi_;           // per triangle bounds
  std::vector<int> order_;
  std::vector<MeshNode> nodes_;
};

}  // namespace pm::contact
