#include "mechanics/contact/mesh_pairs.h"

#include "mechanics/contact/mesh_shape.h"
#include "mechanics/contact/segment_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pm::contact {

namespace {

// A local minimum of the distance from the core to the mesh (mesh coordinates).
struct Feature {
  V3 onMesh, onCore, normal;
  double dist = 0.0;  // signed for a face (the core's height over it), else |onCore - onMesh|
};

// Point x lies over triangle t (its projection inside, edges included).
bool over(const MeshShape& m, int t, const V3& x) {
  const auto& c = m.triangles()[t];
  const V3& n = m.normals()[t];
  for (int k = 0; k < 3; ++k) {
    const V3& p = m.vertices()[c[k]];
    const V3& q = m.vertices()[c[(k + 1) % 3]];
    if ((q - p).cross(x - p).dot(n) < 0.0) return false;
  }
  return true;
}

void faces(const MeshShape& m, const std::vector<int>& tris, const V3* ends, int nEnds, double r,
           std::vector<Feature>& out) {
  for (int t : tris) {
    const V3& n = m.normals()[t];
    const V3& a = m.vertices()[m.triangles()[t][0]];
    for (int e = 0; e < nEnds; ++e) {
      const double h = n.dot(ends[e] - a);
      if (h <= -r || !over(m, t, ends[e])) continue;
      out.push_back({ends[e] - h * n, ends[e], n, h});
    }
  }
}

void edges(const MeshShape& m, const std::vector<int>& ids, const V3& p0, const V3& p1, std::vector<Feature>& out) {
  for (int id : ids) {
    const MeshEdge& e = m.edges()[id];
    if (!e.sharp) continue;
    const V3 &a = m.vertices()[e.a], &b = m.vertices()[e.b];
    V3 onCore, onEdge;
    closestSegments(p0, p1, a, b, onCore, onEdge);
    const V3 d = b - a;
    const double t = d.dot(onCore - a) / d.squaredNorm();
    if (t < 0.0 || t > 1.0) continue;  // the core is nearest an end: the vertex's
    const V3 q = a + t * d, u = onCore - q;
    const double L = u.norm();
    if (!(L > 0.0)) continue;
    // The normal cone, widened by kFlatAngle: at its border the face's own
    // (inclusive) test takes the point too, and the two are kept once; a
    // strict test would leave a sliver of directions where neither holds.
    const double slack = MeshShape::kFlatAngle * L;
    if (u.dot(e.inward[0]) > slack || (e.tri[1] >= 0 && u.dot(e.inward[1]) > slack)) continue;
    out.push_back({q, onCore, u / L, L});
  }
}

void vertices(const MeshShape& m, const std::vector<int>& ids, const V3& p0, const V3& p1, std::vector<Feature>& out) {
  for (int i : ids) {
    if (!m.sharpVertex(i)) continue;  // inside a flat or concave stretch: its faces' points
    const V3& v = m.vertices()[i];
    const V3 onCore = closestOnSegment(p0, p1, v), u = onCore - v;
    const double L = u.norm();
    if (!(L > 0.0)) continue;
    // Every edge from the vertex leads away from the core: the normal cone,
    // widened by kFlatAngle as the edges' is (its border is shared with the
    // faces' and edges' own tests; the same point found twice is kept once).
    const bool cone = std::all_of(m.neighbours(i).begin(), m.neighbours(i).end(), [&](int w) {
      const V3 d = m.vertices()[w] - v;
      return u.dot(d) <= MeshShape::kFlatAngle * L * d.norm();
    });
    if (cone) out.push_back({v, onCore, u / L, L});
  }
}

// The local minima of the distance from the core p0-p1 to the mesh within
// `reach` of it (mesh coordinates).
std::vector<Feature> features(const MeshShape& m, const V3& p0, const V3& p1, double r, double reach) {
  std::vector<int> tris;
  m.query(p0.cwiseMin(p1).array() - reach, p0.cwiseMax(p1).array() + reach, tris);
  std::vector<int> edgeIds, vertexIds;
  for (int t : tris)
    for (int k = 0; k < 3; ++k) {
      edgeIds.push_back(m.triangleEdges(t)[k]);
      vertexIds.push_back(m.triangles()[t][k]);
    }
  for (std::vector<int>* v : {&edgeIds, &vertexIds}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  std::vector<Feature> out;
  const V3 ends[2] = {p0, p1};
  faces(m, tris, ends, p0 == p1 ? 1 : 2, r, out);
  edges(m, edgeIds, p0, p1, out);
  vertices(m, vertexIds, p0, p1, out);
  return out;
}

}  // namespace

Contact meshBody(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const MeshShape& m = *a.mesh;
  const double r = b.radius;
  const V3 p0 = fa.toLocal(fb.toWorld(V3(0, 0, -b.halfLength))), p1 = fa.toLocal(fb.toWorld(V3(0, 0, b.halfLength)));
  const double reach = 2.0 * r;  // the distance is exact up to r beyond the surface
  const std::vector<Feature> found = features(m, p0, p1, r, reach);
  Contact c;
  c.distance = reach - r;
  V3 nearestNormal = V3::UnitZ(), weighted = V3::Zero();
  const double tol = 1e-8 * (r + (p1 - p0).norm());
  std::vector<const Feature*> kept;
  for (const Feature& f : found) {
    if (f.dist - r < c.distance) {
      c.distance = f.dist - r;
      nearestNormal = f.normal;
    }
    if (f.dist >= r) continue;
    const bool seen = std::any_of(kept.begin(), kept.end(), [&](const Feature* k) {
      return (k->onMesh - f.onMesh).norm() <= tol && (k->normal - f.normal).norm() <= 1e-8;
    });
    if (seen) continue;
    kept.push_back(&f);
    const double depth = r - f.dist;
    const V3 mid = 0.5 * (f.onMesh + f.onCore - r * f.normal);
    ContactPoint cp{fa.toWorld(mid), depth};
    cp.normal = fa.R * f.normal;
    c.points.push_back(cp);
    weighted += depth * f.normal;
  }
  c.normal = fa.R * (weighted.norm() > 0.0 ? V3(weighted.normalized()) : nearestNormal);
  return c;
}

}  // namespace pm::contact
