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
  double share = 1.0;  // of its contact point's force (ContactPoint::share)
  double gap = std::numeric_limits<double>::quiet_NaN();  // the pair's distance it reports, if not dist
  // A cylinder's: its end disc (-1, 1) for a disc's lowest rim point (and
  // its face) or for a mesh edge along the side at that disc's plane (and
  // its faces, and the share `yield` the disc's lowest rim points on them
  // give up to it: edgeAlongSide); 0 for any other.
  int disc = 0;
  int face[2] = {-1, -1};
  double yield = 0.0;
  bool rim = false;  // a disc's lowest rim point
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

// The triangles within the box [lo, hi] (mesh coordinates), and their edges and vertices (each once).
void neighbourhood(const MeshShape& m, const V3& lo, const V3& hi, std::vector<int>& tris, std::vector<int>& edgeIds,
                   std::vector<int>& vertexIds) {
  m.query(lo, hi, tris);
  for (int t : tris)
    for (int k = 0; k < 3; ++k) {
      edgeIds.push_back(m.triangleEdges(t)[k]);
      vertexIds.push_back(m.triangles()[t][k]);
    }
  for (std::vector<int>* v : {&edgeIds, &vertexIds}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
}

// The local minima of the distance from the core p0-p1 to the mesh within
// `reach` of it (mesh coordinates).
std::vector<Feature> features(const MeshShape& m, const V3& p0, const V3& p1, double r, double reach) {
  std::vector<int> tris, edgeIds, vertexIds;
  neighbourhood(m, p0.cwiseMin(p1).array() - reach, p0.cwiseMax(p1).array() + reach, tris, edgeIds, vertexIds);
  std::vector<Feature> out;
  const V3 ends[2] = {p0, p1};
  faces(m, tris, ends, p0 == p1 ? 1 : 2, r, out);
  edges(m, edgeIds, p0, p1, out);
  vertices(m, vertexIds, p0, p1, out);
  return out;
}

// The features closer than the radius r as contact points (the same point
// found twice kept once), the distance the smallest (capped at reach - r),
// the pair's normal the mean weighted by depth and share (apart: the nearest
// feature's).
Contact gather(const std::vector<Feature>& found, const Frame& fa, double r, double reach, double tol) {
  Contact c;
  c.distance = reach - r;
  V3 nearestNormal = V3::UnitZ(), weighted = V3::Zero();
  std::vector<const Feature*> kept;
  for (const Feature& f : found) {
    const double gap = std::isnan(f.gap) ? f.dist : f.gap;
    if (gap - r < c.distance) {
      c.distance = gap - r;
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
    ContactPoint cp{fa.toWorld(mid), depth, fa.R * f.normal, f.share};
    c.points.push_back(cp);
    weighted += f.share * depth * f.normal;
  }
  c.normal = fa.R * (weighted.norm() > 0.0 ? V3(weighted.normalized()) : nearestNormal);
  return c;
}

// The box B in the mesh's coordinates: centre, axes (columns), half extents.
struct BoxInMesh {
  V3 p;
  M3 R;
  V3 e;
  V3 corner(int i) const {
    return p + R * V3((i & 1) ? e.x() : -e.x(), (i & 2) ? e.y() : -e.y(), (i & 4) ? e.z() : -e.z());
  }
};

// Where a point may leave through two ways (a corner under a convex ridge:
// either face; an edge inside a cylinder: its side or a cap), the farther
// way's share of its contact (the nearer way has the rest), for depths
// near <= far along them: one half where they are equal (where the other
// way becomes the nearer, by the same rule), falling smoothly (C1) to zero
// where far - near reaches kBand of the far depth. So the force hands over
// continuously, its slope across the band independent of the depth, and it
// is the single way's beyond the band.
constexpr double kBand = 0.5;
// A mesh edge whose faces' normals are less than 89 degrees apart (n_T .
// n_W >= kRidge = cos 89 degrees) is a ridge: a cylinder lying along it
// rests on the edge, and the end discs' lowest rim points on its faces
// describe the same contact (alongSidePoint). A table's edge (90 degrees)
// or a sharper one: they are another contact. The last degree fades from
// the one to the other, so a fold rounded off 90 degrees (a mesh from
// CAD) is still a table's edge.
constexpr double kRidge = 0.017452406437283513;
// A sharp edge within this angle (its sine) of a cylinder's axis is held by
// the model of an edge along the side as well as its nearest point's
// (edgeCylinder). Why 0.01: the along-side model is the line contact (the
// stretch's two end points, each at its own depth) only while both ends
// of the stretch lie inside the side, L sin psi < sqrt(2 r delta -
// delta^2) for a side delta deep (L the half length); past that the edge
// crosses the side and only its nearest point describes it. So the band
// reaches no farther than the shallowest depth that is still to be a line
// contact allows: with 0.01, every depth above (L kAlong)^2 / (2 r) =
// 6.25 um for r 20 mm, L 50 mm (1/160 of a 1 mm depth; as L^2 / r for
// other sizes). A narrower band steepens the hand-over: the force moves
// between the two models' (by hand 2.000 and 2.510 mN for the linear
// spring per point at 1 mm deep on a 10-degree ridge, test_contact_mesh
// cylinderTurnedPastTheAlongBandByHand) across the band, |w'| <= 2 / kAlong.
constexpr double kAlong = 0.01;
double farShare(double near, double far) {
  if (!(far > 0.0)) return 0.0;
  const double s = (far - near) / (kBand * far);
  return s >= 1.0 ? 0.0 : 0.5 * (1.0 - s) * (1.0 - s);
}

// A ridge that meets triangle t only at a vertex, with a face coplanar with
// t on one side (a flat stretch split into triangles up to the ridge's
// end): its far face is t's convex neighbour too, where x lies along the
// ridge's span. f(other, p) for each such face (p: a point of its plane);
// false as soon as f is.
template <class F>
bool ridgeEndNeighbours(const MeshShape& m, int t, const V3& x, F&& f) {
  const auto& c = m.triangles()[t];
  const V3& n = m.normals()[t];
  for (int k = 0; k < 3; ++k)
    for (int id : m.ridgesAt(c[k])) {
      const MeshEdge& e = m.edges()[id];
      if (e.tri[0] == t || e.tri[1] == t) continue;
      const int s = (m.normals()[e.tri[0]] - n).norm() <= MeshShape::kFlatAngle ? 0
                    : (m.normals()[e.tri[1]] - n).norm() <= MeshShape::kFlatAngle ? 1 : -1;
      if (s < 0) continue;
      const int other = e.tri[1 - s];
      const auto& te = m.triangleEdges(t);
      if (std::any_of(te.begin(), te.end(), [&](int j) { return m.edges()[j].tri[0] == other || m.edges()[j].tri[1] == other; }))
        continue;  // already a neighbour across one of t's own edges
      const V3& p = m.vertices()[e.a];
      const V3 d = m.vertices()[e.b] - p;
      const double u = d.dot(x - p) / d.squaredNorm();
      if (u < 0.0 || u > 1.0) continue;
      if (!f(other, p)) return false;
    }
  return true;
}

// Corner x, at height h over triangle t's plane, is the face's: behind it,
// its projection lies inside t or past concave edges only, and t is the
// nearer way out than each convex neighbour (ties: the lower index); apart,
// its projection lies inside t. Behind, `normal` and `depth` (t's on entry)
// become t's blended with each convex neighbour's by farShare, so a corner
// passing under a ridge turns from one face's normal to the other's
// smoothly.
bool faceOwnsCorner(const MeshShape& m, int t, const V3& x, double h, V3& normal, double& depth) {
  const auto& c = m.triangles()[t];
  const V3& n = m.normals()[t];
  double share = 1.0, others = 0.0;
  V3 turn = V3::Zero();
  // Convex neighbour `other` whose plane is at hu over x: false when it is
  // the nearer way out, else its share of the blend taken.
  auto blendWith = [&](int other, const V3& p) {
    const double hu = m.normals()[other].dot(x - p);
    if (hu > h || (hu == h && other < t)) return false;
    const double w = farShare(-h, -hu);
    if (w > 0.0) {
      share -= w;
      others -= w * hu;
      turn += w * m.normals()[other];
    }
    return true;
  };
  for (int k = 0; k < 3; ++k) {
    const V3& p = m.vertices()[c[k]];
    const V3& q = m.vertices()[c[(k + 1) % 3]];
    const MeshEdge& e = m.edges()[m.triangleEdges(t)[k]];
    const int other = e.tri[0] == t ? e.tri[1] : e.tri[0];
    const bool concave = other >= 0 && m.normals()[e.tri[0]].dot(e.inward[1]) > MeshShape::kFlatAngle;
    // Across a flat edge the test is widened by the rounding (1e-12 of the
    // edge): a point riding along it (a rim point under an apex) is then
    // both triangles', the same point kept once (gather), never neither's.
    const double side = (q - p).cross(x - p).dot(n);
    if (side < 0.0 && (e.sharp || concave || side < -1e-12 * (q - p).squaredNorm())) {
      if (h < 0.0 && concave) continue;
      return false;
    }
    if (h < 0.0 && other >= 0 && e.sharp && !blendWith(other, p)) return false;
  }
  if (h < 0.0 && !ridgeEndNeighbours(m, t, x, blendWith)) return false;
  if (share < 1.0) {
    share = std::max(share, 0.0);
    depth = others + share * depth;
    normal = (turn + share * normal).normalized();
  }
  return true;
}

void cornerFaces(const MeshShape& m, const std::vector<int>& tris, const BoxInMesh& bx, std::vector<Feature>& out) {
  const double limit = bx.e.minCoeff();
  for (int t : tris) {
    const V3& n = m.normals()[t];
    const V3& a = m.vertices()[m.triangles()[t][0]];
    for (int i = 0; i < 8; ++i) {
      const V3 x = bx.corner(i);
      const double h = n.dot(x - a);
      V3 normal = n;
      double depth = -h;
      if (h <= -limit || !faceOwnsCorner(m, t, x, h, normal, depth)) continue;
      out.push_back({x + depth * normal, x, normal, -depth});
    }
  }
}

// Sharp mesh edges against the box's 12 edges, crossing (see mesh_pairs.h).
void edgeEdges(const MeshShape& m, const std::vector<int>& ids, const BoxInMesh& bx, std::vector<Feature>& out) {
  for (int id : ids) {
    const MeshEdge& me = m.edges()[id];
    if (!me.sharp) continue;
    const V3 &a = m.vertices()[me.a], &b = m.vertices()[me.b], dm = b - a;
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      const V3 db = 2.0 * bx.e[i] * bx.R.col(i);
      V3 N = dm.cross(db);
      const double len = N.norm();
      if (!(len > 1e-9 * dm.norm() * db.norm())) continue;  // parallel: the corners' and vertices' case
      N /= len;
      for (int s = 0; s < 4; ++s) {
        const V3 mj = ((s & 1) ? 1.0 : -1.0) * bx.R.col(j), mk = ((s & 2) ? 1.0 : -1.0) * bx.R.col(k);
        const V3 p0 = bx.p + bx.e[j] * mj + bx.e[k] * mk - 0.5 * db;
        // N from the mesh towards the box: against the box edge's outward faces.
        const V3 n = N.dot(mj + mk) > 0.0 ? V3(-N) : N;
        const double slack = 1e-9;
        if (n.dot(mj) > slack || n.dot(mk) > slack) continue;  // the box edge is not the box's nearest to the mesh edge
        if (n.dot(me.inward[0]) > slack || (me.tri[1] >= 0 && n.dot(me.inward[1]) > slack)) continue;
        V3 cm, cb;
        closestSegments(a, b, p0, p0 + db, cm, cb);
        const double tm = dm.dot(cm - a) / dm.squaredNorm(), tb = db.dot(cb - p0) / db.squaredNorm();
        if (tm <= 0.0 || tm >= 1.0 || tb <= 0.0 || tb >= 1.0) continue;  // an end: a vertex's or a corner's
        const double dist = n.dot(cb - cm);
        // Overlapping, the mesh edge's point lies in the box (else the box
        // edge is the far side's, beyond the box from the mesh edge).
        const V3 local = bx.R.transpose() * (cm - bx.p);
        if (dist < 0.0 && (local.cwiseAbs() - bx.e).maxCoeff() > 1e-12 * bx.e.norm()) continue;
        // Within `fade` of the box edge's end its depth grows from zero: a
        // ridge entering a face through a corner (whose own point already
        // pushes there) adds its crossings without a step.
        const double fade = bx.e.minCoeff(), w = std::min(1.0, std::min(tb, 1.0 - tb) * db.norm() / fade);
        out.push_back({cm, cb, n, dist < 0.0 ? w * dist : dist});
      }
    }
  }
}

// The direction d from sharp vertex i lies in its normal cone (widened by kFlatAngle).
bool inVertexCone(const MeshShape& m, int i, const V3& d) {
  const V3& v = m.vertices()[i];
  return std::all_of(m.neighbours(i).begin(), m.neighbours(i).end(), [&](int w) {
    const V3 u = m.vertices()[w] - v;
    return d.dot(u) <= MeshShape::kFlatAngle * u.norm();
  });
}
// How far the unit direction d from sharp vertex i lies inside its normal
// cone: the least -d . u / |u| over its edges u (the sine of d's angle to
// the nearest face of the cone; < 0 outside).
double vertexConeMargin(const MeshShape& m, int i, const V3& d) {
  const V3& v = m.vertices()[i];
  double least = 1.0;
  for (int w : m.neighbours(i)) {
    const V3 u = m.vertices()[w] - v;
    least = std::min(least, -d.dot(u) / u.norm());
  }
  return least;
}
// A way out of a cylinder for a sharp vertex inside it weighs
// min(1, margin / kCone) of its own (vertexCylinder), and a sharp edge's
// way out through the side fades the same way as its point nears an end
// vertex inside the body (edgeNearest): so where the side's way passes
// from the edge's point to its end vertex (the side's normal crossing the
// face of the vertex's cone that is normal to the edge) both weigh zero,
// and the force hands over without a step. 0.1: the ways of the tests'
// pyramids lie 0.17-0.45 inside their cones.
constexpr double kCone = 0.1;
double coneFade(double margin) { return std::clamp(margin / kCone, 0.0, 1.0); }

// The ways out of a point inside the body (each a depth and the body's
// outward normal there) blended: weights g_k / sum g with
// g_k = f_k / (1 - f_k), f_k = farShare(nearest depth, d_k) (1 for the
// nearest ways: f = 1/2), so two ways give the nearer 1 - farShare and the
// farther farShare, as a corner under a ridge does; the weights depend on
// the depths alone (not on which way is the nearest), so they are
// continuous where the nearest way changes. depth = sum w_k d_k, outward =
// the normalised sum w_k n_k: the single way's beyond the band, half and
// half where two are equal. Faded (fadeWays): the weights compare the
// depths d_k / present_k (ways with present_k = 0 left out), only the part
// `taken` of each g_k pushes, and `share` is that part of sum g; false
// when nothing pushes.
struct Way {
  double depth;
  V3 outward;
  double weight = 1.0;  // of its g_k: below 1 where its normal fades (a cylinder's side near the axis)
  double taken = 1.0, present = 1.0;  // fadeWays'
};
// Faded false (a box's corner, the rim's picking normal): `taken` and
// `present` are 1 and cost nothing.
template <bool Faded = false>
bool blendWays(const Way* ways, int n, double& depth, V3& outward, double* share = nullptr) {
  const auto by = [&](int k) { return Faded ? ways[k].depth / ways[k].present : ways[k].depth; };
  const auto in = [&](int k) { return !Faded || ways[k].present > 0.0; };
  int k0 = -1;
  for (int k = 0; k < n; ++k)
    if (in(k) && (k0 < 0 || by(k) < by(k0))) k0 = k;
  if (k0 < 0) return false;
  double sum = 0.0, all = 0.0, d = 0.0;
  V3 o = V3::Zero();
  for (int k = 0; k < n; ++k) {
    if (!in(k)) continue;
    const double f = k == k0 ? 0.5 : farShare(by(k0), by(k)), g = ways[k].weight * f / (1.0 - f), gt = Faded ? g * ways[k].taken : g;
    all += g;
    sum += gt;
    d += gt * ways[k].depth;
    o += gt * ways[k].outward;
  }
  if (!(sum > 0.0)) return false;
  if (share) *share = sum / all;
  // Opposite ways equally deep (a thin sheet's corner amid a box): the nearest alone (of those that push).
  if (o.norm() <= 1e-9 * sum) {
    int k1 = k0;
    for (int k = 0; k < n && !(ways[k1].taken > 0.0); ++k)
      if (in(k) && ways[k].taken > 0.0) k1 = k;
    depth = ways[k1].depth;
    outward = ways[k1].outward;
    return true;
  }
  depth = d / sum;
  outward = o.normalized();
  return true;
}

// Ways out of a sharp vertex that fade at its cone's border: in the cone
// (margin mu > 0) a way pushes with the part coneFade(mu) of its weight;
// past the border it pushes with none but keeps its place in the blend
// (its weight, measured by its depth against the others', pushes nothing:
// the point's share falls by it) until mu = -kPast, its depth compared as
// d / (1 + mu / kPast), growing from d at the border to infinity. So
// a nearest way leaving the cone takes the point's share to zero while the
// others lie beyond its band, and past the border it leaves the band
// continuously as the others come in with their farShare (a vertex deep
// behind a cap, just inside the side whose way has left the cone, is then
// pushed out through the cap as before: the faces' rim points do not take
// it there), and a vertex leaving through a way just past the border
// takes its point to zero as that way's depth does. Before, a way left
// the blend at the border: the others took the point at once at their own
// depth (steps of up to the cap's depth in test_contact_mesh
// randomPathsThroughApexes). Why kPast = 0.5: of 0.1 (kCone), 0.2, 0.3,
// 0.5 and 1, the sweep jumps on 42, 40, 38, 36 and 36 of its 180 paths
// (46 before); 0.2 adds a jump on one path, 1 on three (with 1, a vertex
// just inside the side, 2.2 mm behind the cap, its side way more than 0.5
// past the border, loses its push through the cap to that way, and where
// it leaves the side the faces' rim points take over 2.2 mm deep at once).
// With the ridges' rim points rising from zero at their end vertex and the
// vertex kept just outside the side or a cap plane (nearEndShare,
// vertexJustOutside): 0.3, 0.5, 0.7 and 1 all leave the same 7 paths, none
// under 1 mm deep; 0.5 stays, as with 1 a vertex just inside the side
// behind the cap still loses its push (path 46, 0.3 mm before the side:
// springForce 2.27 mN with 0.5, 0.0006 mN with 1).
constexpr double kPast = 0.5;
bool fadeWays(Way* ways, const double* margin, int n, double& depth, V3& outward, double& share) {
  for (int k = 0; k < n; ++k) {
    ways[k].present = std::clamp(1.0 + margin[k] / kPast, 0.0, 1.0);
    ways[k].taken = coneFade(margin[k]);  // > 0 only where present is 1
  }
  return blendWays<true>(ways, n, depth, outward, &share);
}

// Sharp mesh vertices against the box: outside, towards its nearest point;
// inside, out through the faces whose turned normals lie in the cone,
// blended (blendWays), so a vertex crossing the box's diagonal plane between
// two faces turns from one's normal to the other's without a step.
void vertexBox(const MeshShape& m, const std::vector<int>& ids, const BoxInMesh& bx, std::vector<Feature>& out) {
  for (int i : ids) {
    if (!m.sharpVertex(i)) continue;
    const V3& v = m.vertices()[i];
    const V3 x = bx.R.transpose() * (v - bx.p), q = x.cwiseMax(-bx.e).cwiseMin(bx.e);
    if (q != x) {
      const V3 w = bx.p + bx.R * q, u = w - v;
      const double L = u.norm();
      if (L > 0.0 && inVertexCone(m, i, u / L)) out.push_back({v, w, u / L, L});
      continue;
    }
    Way ways[6];
    int n = 0;
    for (int k = 0; k < 3; ++k)
      for (double sg : {1.0, -1.0}) {
        const V3 outward = sg * bx.R.col(k);
        if (inVertexCone(m, i, -outward)) ways[n++] = {bx.e[k] - sg * x[k], outward};
      }
    if (n == 0) continue;
    double depth;
    V3 nf;
    blendWays(ways, n, depth, nf);
    out.push_back({v, v + depth * nf, -nf, -depth});
  }
}

// The cylinder B in the mesh's coordinates: centre, axes (columns; the axis
// is the third), radius, half-length.
struct CylInMesh {
  V3 c;
  M3 R;
  double r, h;
  V3 world(const V3& local) const { return c + R * local; }
};

// The normal that picks an end disc's rim points (centre `centre`, axis a,
// radius r) for triangle t (rimNormal): t's own, blended (blendWays) with
// the faces of the ridges near the body that touch t's flat patch (each
// plane once, as many as there are: an apex of n facets gives n; rimPlanes)
// by the disc's deepest depths behind their planes,
// D_k = r sqrt(1 - (n_k . a)^2) - n_k . (centre - p_k). So under a ridge or
// around an apex every face picks the same points, however finely it is
// split into triangles (the faces' own lowest points differ once the axis
// leans along the ridge), turning from one face's to the other's within the
// band, and each face its own beyond it. (Up to 8 planes before: around
// an apex of 16 facets which eight were kept depended on the order the
// triangles were listed in, and so did the force.)
void rimPlanes(const MeshShape& m, int t, const std::vector<int>& ridges, std::vector<int>& planes) {
  planes.assign(1, t);
  for (int id : ridges)
    if (m.ridgeTouches(id, m.patch(t)))
      for (int f : m.edges()[id].tri) {
        const V3& nf = m.normals()[f];
        const bool seen =
            std::any_of(planes.begin(), planes.end(), [&](int g) { return (m.normals()[g] - nf).norm() <= MeshShape::kFlatAngle; });
        if (!seen) planes.push_back(f);
      }
}
V3 rimNormal(const MeshShape& m, const std::vector<int>& planes, std::vector<Way>& ways, const V3& centre, const V3& a, double r) {
  if (planes.size() == 1) return m.normals()[planes[0]];
  ways.resize(planes.size());
  for (size_t k = 0; k < planes.size(); ++k) {
    const V3& nf = m.normals()[planes[k]];
    const double na = nf.dot(a);
    ways[k] = {r * std::sqrt(std::max(0.0, 1.0 - na * na)) - nf.dot(centre - m.vertices()[m.triangles()[planes[k]][0]]), nf};
  }
  double depth;
  V3 normal;
  blendWays(ways.data(), int(ways.size()), depth, normal);
  return normal;
}

// Per face, the rim points the plane shape takes (per end disc the lowest
// one along the face's normal, rimNormal near a ridge, and those a quarter,
// a half and three quarters of a turn from it), owned by the face as the
// box's corners are. Inlined: out of line it cost the cylinder pair 4 %
// more (docs/performance.md).
[[gnu::always_inline]] inline void rimFaces(const MeshShape& m, const std::vector<int>& tris, const std::vector<int>& edgeIds,
                                            const CylInMesh& cy, std::vector<Feature>& out) {
  const double limit = std::min(cy.r, cy.h);
  const V3 a = cy.R.col(2);
  // Near the body; per triangle its picking planes (kept: no allocation per call).
  thread_local std::vector<int> ridges, planes;
  thread_local std::vector<Way> ways;
  ridges.clear();
  for (int id : edgeIds)
    if (m.edges()[id].sharp && m.edges()[id].tri[1] >= 0) ridges.push_back(id);
  for (int t : tris) {
    const V3& n = m.normals()[t];
    const V3& a0 = m.vertices()[m.triangles()[t][0]];
    if (ridges.empty())
      planes.assign(1, t);
    else
      rimPlanes(m, t, ridges, planes);
    for (double end : {-1.0, 1.0}) {
      const V3 ns = rimNormal(m, planes, ways, cy.c + end * cy.h * a, a, cy.r);
      V3 u = ns - ns.dot(a) * a;
      u = u.norm() > 1e-12 ? V3(u.normalized()) : V3(cy.R.col(0));
      const V3 w = a.cross(u);
      for (const V3& d : {V3(-u), V3(u), w, V3(-w)}) {
        const V3 x = cy.c + end * cy.h * a + cy.r * d;
        const double hgt = n.dot(x - a0);
        V3 normal = n;
        double depth = -hgt;
        if (hgt <= -limit || !faceOwnsCorner(m, t, x, hgt, normal, depth)) continue;
        out.push_back({x + depth * normal, x, normal, -depth});
        if (d == -u) {
          out.back().disc = int(end);
          out.back().face[0] = t;
          out.back().rim = true;
        }
      }
    }
  }
}

// The direction d (mesh coordinates, unit) lies in sharp edge e's normal cone.
bool inEdgeCone(const MeshEdge& e, const V3& d) {
  const double slack = 1e-9;
  return !(d.dot(e.inward[0]) > slack || (e.tri[1] >= 0 && d.dot(e.inward[1]) > slack));
}

// A sharp mesh edge parallel to the axis (cylinder-local A + t D): the two
// ends of its stretch between the cap planes, against the side. Where the
// side's normal there (towards the axis) lies outside the edge's cone, past
// one face's normal nT (the axis beyond a table's edge, over the table:
// the edge cuts the side's lowest strip), the edge still pushes along nT, as
// deep as the side reaches below it along nT, for the share of the force
// that the face's lowest rim point p (the line the side rests on) hands to
// the other face W (faceOwnsCorner's farShare of p's depths behind nT and
// W): all of it where the axis is over the edge (p's depth behind W is
// zero there and the side's normal is nT), none once p is the face's alone.
// So a cylinder lying along a table's edge is held by the table up to the
// edge and by the edge beyond, without a step. In the cone the edge's share
// is the same one (1 there but within the band of p's depths, where the
// cone's border is near), so it is continuous at the border.
// (Turned slightly off the axis, by the angle q = |D across| / |D| < kAlong,
// each end its own: the model then holds the weight w of its contact, the
// nearest-point model 1 - w: edgeCylinder.)
// x: the point, across the axis at (c.x, c.y) (an edge along the axis: all
// of it at its first end's, exactly as far from the axis at both ends).
void alongSidePoint(const MeshShape& m, const MeshEdge& e, const CylInMesh& cy, const V3& x, const V3& c, double w,
                    std::vector<Feature>& out) {
  const double rho = c.head<2>().norm();
  if (!(rho > 0.0)) return;
  const V3 er(c.x() / rho, c.y() / rho, 0.0);
  V3 n = cy.R * V3(-er);
  double depth = cy.r - rho, share = 1.0, yield = 0.0;
  const bool inCone = inEdgeCone(e, n);
  if (!inCone && (e.tri[1] < 0 || !(rho < cy.r))) return;
  if (e.tri[1] >= 0) {
    const int k = m.normals()[e.tri[0]].dot(n) >= m.normals()[e.tri[1]].dot(n) ? 0 : 1;
    const V3 nT = m.normals()[e.tri[k]], nW = m.normals()[e.tri[1 - k]];
    const V3 nl = cy.R.transpose() * nT, ml = cy.R.transpose() * nW;
    const V3 E(c.x(), c.y(), 0.0);  // the edge from the axis, across it
    const double aT = cy.r + nl.dot(E), aW = ml.dot(E) + cy.r * ml.dot(nl);  // p's depths behind nT and W
    const double s = aW < aT ? 1.0 - farShare(std::max(aW, 0.0), aT) : farShare(aT, aW);
    // Across a ridge (faces less than 89 degrees apart) the disc's lowest
    // rim points on its faces describe the edge's contact too: they give
    // up the edge's share, in the cone as beyond it, so the two sum to one.
    // Across a table's edge (90 degrees or sharper) they are another
    // contact (the wall's): they keep theirs, and in the cone the edge
    // takes all of its own; in the last degree, in proportion (kRidge).
    const double ridge = std::clamp(nT.dot(nW) / kRidge, 0.0, 1.0);
    yield = ridge * s;
    if (!inCone) {
      share = s;
      if (share <= 0.0) return;
      n = nT;
      depth = nl.dot(E) + std::sqrt(std::max(0.0, nl.dot(E) * nl.dot(E) - rho * rho + cy.r * cy.r));
    } else {
      share = 1.0 - ridge * (1.0 - s);
    }
  }
  out.push_back({cy.world(x), cy.world(x) - depth * n, n, -depth, w * share});
  out.back().disc = x.z() > 0.0 ? 1 : -1;
  out.back().face[0] = e.tri[0];
  out.back().face[1] = e.tri[1];
  out.back().yield = w * yield;
}
void edgeAlongSide(const MeshShape& m, const MeshEdge& e, const CylInMesh& cy, const V3& A, const V3& D, double w,
                   std::vector<Feature>& out) {
  double t0 = 0.0, t1 = 1.0;
  if (D.z() != 0.0) {
    double ta = (-cy.h - A.z()) / D.z(), tb = (cy.h - A.z()) / D.z();
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
  }
  for (double s : {t0, t1}) {
    if (t0 > t1 || s <= 0.0 || s >= 1.0 || (s == t1 && t1 == t0)) continue;  // an end: the vertex's
    alongSidePoint(m, e, cy, A + s * D, w < 1.0 ? V3(A + s * D) : A, w, out);
  }
}

// A sharp mesh edge out through the side, at its point x nearest the axis
// (cylinder-local; t: its parameter on the edge): false when x is an end of
// the edge (the vertex's) or the side's normal there lies outside the
// edge's cone. Inside, its depth is the nearer of side and cap: it falls to
// zero where the edge leaves through a rim.
bool edgeOutOfSide(const MeshEdge& e, const CylInMesh& cy, const V3& x, double t, Feature& f) {
  const double rho = x.head<2>().norm(), z = x.z();
  if (t <= 0.0 || t >= 1.0 || !(rho > 0.0)) return false;
  const V3 er(x.x() / rho, x.y() / rho, 0.0), n = cy.R * V3(-er);
  if (!inEdgeCone(e, n)) return false;
  const double dr = rho - cy.r, dz = std::abs(z) - cy.h;
  const double dist = (dr > 0.0 || dz > 0.0) ? std::hypot(std::max(dr, 0.0), std::max(dz, 0.0)) : std::max(dr, dz);
  f = {cy.world(x), cy.world(V3(cy.r * er.x(), cy.r * er.y(), std::clamp(z, -cy.h, cy.h))), n, dist};
  return true;
}

// The share of a sharp edge's point where it crosses a cap's rim, l from
// the edge's end and `depth` deep: 0 at the end, where the end vertex's
// point is (the vertex's inside, vertexJustOutside's just outside the
// side), rising to 1 at l = kBand depth (C1), so a ridge entering the cap's
// disc beside its end vertex takes the contact over from the vertex
// instead of adding its own at full depth at once.
double nearEndShare(double l, double depth) {
  const double u = l / (kBand * depth);
  return u >= 1.0 ? 1.0 : u * u * (3.0 - 2.0 * u);
}

// The same edge (cylinder-local A + s D; its line nearest the axis at tl;
// dd = |D across the axis|^2) out through the cap on its point's side (z):
// the points where it leaves the cap's disc (a ridge under a standing
// cylinder), each at its depth below the cap but no deeper than `side`, the
// edge's depth below the side (so they too fall to zero where it leaves
// through the rim). False when the cap's normal lies outside the edge's cone.
bool edgeOutOfCap(const MeshEdge& e, const CylInMesh& cy, const V3& A, const V3& D, double dd, double tl, double z,
                  double side, std::vector<Feature>& out) {
  const double sg = z >= 0.0 ? 1.0 : -1.0;
  const V3 n = cy.R * V3(0, 0, -sg);
  if (!inEdgeCone(e, n)) return false;
  const double half2 = cy.r * cy.r - (A + tl * D).head<2>().squaredNorm();
  if (half2 < 0.0) return true;
  const double dt = std::sqrt(half2 / dd);
  for (double s : {tl - dt, tl + dt}) {
    if (s <= 0.0 || s >= 1.0) continue;  // past the edge's end: the vertex's
    const V3 p = A + s * D;
    const double gap = sg * p.z() - cy.h, dist = gap < 0.0 ? std::max(gap, -side) : gap;
    out.push_back({cy.world(p), cy.world(V3(p.x(), p.y(), sg * cy.h)), n, dist});
    if (dist < 0.0) out.back().share = nearEndShare(std::min(s, 1.0 - s) * std::sqrt(D.squaredNorm()), -dist);
  }
  return true;
}

// The weight of the side's way out of edge A + s D (cylinder-local) at its
// point x nearest the axis. Near the axis, where the side has no normal,
// it fades to zero as a vertex's does (linearly within kBand r). Near an
// end vertex inside the side: that
// vertex takes the side's way once x reaches it (x is the end where the
// side's direction there, er, turns normal to the edge: the vertex's cone
// margin er . D / |D| for this edge passes zero), so the edge's way fades
// to zero there, by coneFade of the same margin with its sign turned,
// in proportion chi = (the vertex's depth below the side) / x's (1 where x
// is the end; 0 for a vertex outside, which has no ways).
double sideNearEnds(const CylInMesh& cy, const V3& A, const V3& D, const V3& x) {
  const double rhoX = x.head<2>().norm(), sideX = cy.r - rhoX;
  if (!(sideX > 0.0)) return 1.0;
  double w = std::min(1.0, rhoX / (kBand * cy.r));
  for (const auto& [p, dir] : {std::pair<V3, V3>{A, D}, std::pair<V3, V3>{A + D, -D}}) {
    const double rho = p.head<2>().norm(), chi = std::clamp((cy.r - rho) / sideX, 0.0, 1.0);
    if (!(chi > 0.0)) continue;
    const double margin = rho > 0.0 ? p.head<2>().dot(dir.head<2>()) / (rho * dir.norm()) : 0.0;
    w *= 1.0 - (1.0 - coneFade(-margin)) * chi;
  }
  return w;
}

// A sharp mesh edge against the cylinder's side or a cap (see mesh_pairs.h):
// out through the nearer of them whose normal lies in the edge's cone.
// Where both do and its point nearest the axis is about as deep below the
// side as below the cap, the two share its contact (farShare) and report
// the shared distance, so the force turns from one to the other without a
// dip.
void edgeNearest(const MeshEdge& e, const CylInMesh& cy, const V3& A, const V3& D, double dd, double reach,
                 std::vector<Feature>& out) {
  // The edge's line is nearest the axis at tl; its point on the edge at t.
  const double tl = -A.head<2>().dot(D.head<2>()) / dd, t = std::clamp(tl, 0.0, 1.0);
  const V3 x = A + t * D;
  const double side = cy.r - x.head<2>().norm(), cap = cy.h - std::abs(x.z());
  if (-side > reach) return;  // every point of it farther from the axis than r + the distance's cap
  // The band's share, then only the ways it needs (the other one too
  // where the first has its normal outside the cone).
  const double band = side < cap ? farShare(side, cap) : 1.0 - farShare(cap, side);
  Feature sf;
  const size_t first = out.size();
  bool bySide = band < 1.0 && edgeOutOfSide(e, cy, x, t, sf);
  const bool byCap = (band > 0.0 || !bySide) && edgeOutOfCap(e, cy, A, D, dd, tl, x.z(), side, out);
  if (band == 1.0 && !byCap) bySide = edgeOutOfSide(e, cy, x, t, sf);
  const double capShare = !bySide ? 1.0 : !byCap ? 0.0 : band;
  if (capShare == 1.0) return;
  const double ends = sideNearEnds(cy, A, D, x);
  if (capShare == 0.0) {
    out.resize(first);
    sf.share = ends;
    out.push_back(sf);
    return;
  }
  // Shared: each reports the share-weighted distance of the side's point
  // and the deeper cap point, which is the single way's at the band's ends.
  double capDist = -std::min(side, cap);
  for (size_t k = first; k < out.size(); ++k) {
    capDist = k == first ? out[k].dist : std::min(capDist, out[k].dist);
    out[k].share *= capShare;
  }
  sf.share = 1.0 - capShare;
  const double gap = sf.share * sf.dist + capShare * capDist;
  sf.share *= ends;
  out.push_back(sf);
  for (size_t k = first; k < out.size(); ++k) out[k].gap = gap;
}

// Each sharp edge near the cylinder: along the axis, edgeAlongSide; else
// its nearest point (edgeNearest), blended with edgeAlongSide within kAlong.
void edgeCylinder(const MeshShape& m, const std::vector<int>& ids, const CylInMesh& cy, std::vector<Feature>& out) {
  const double reach = std::min(cy.r, cy.h);
  for (int id : ids) {
    const MeshEdge& e = m.edges()[id];
    if (!e.sharp) continue;
    const V3 A = cy.R.transpose() * (m.vertices()[e.a] - cy.c), D = cy.R.transpose() * (m.vertices()[e.b] - m.vertices()[e.a]);
    // Wholly beyond a cap plane by more than the distance's cap: no feature of it counts.
    if (std::min(A.z(), A.z() + D.z()) > cy.h + reach || std::max(A.z(), A.z() + D.z()) < -cy.h - reach) continue;
    const double dd = D.head<2>().squaredNorm();
    if (dd <= 1e-24 * D.squaredNorm()) {
      edgeAlongSide(m, e, cy, A, D, 1.0, out);
      continue;
    }
    // Turned off the axis by q < kAlong: the along-side model's points keep
    // the weight w = (1 - q / kAlong)^2 (1 on the axis, at the band's edge 0
    // with zero slope), the nearest point's 1 - w; so the force turns from
    // one to the other without a step.
    const size_t first = out.size();
    edgeNearest(e, cy, A, D, dd, reach, out);
    if (!(dd < kAlong * kAlong * D.squaredNorm())) continue;
    const double q = std::sqrt(dd / D.squaredNorm()), w = (1.0 - q / kAlong) * (1.0 - q / kAlong);
    for (size_t k = first; k < out.size(); ++k) out[k].share *= 1.0 - w;
    edgeAlongSide(m, e, cy, A, D, w, out);
  }
}

// An end disc's lowest rim points on the faces of a mesh edge along the
// side at that disc's plane (faces coplanar with them too) give up the
// share `yield` the edge takes of their contact (edgeAlongSide); those left
// with none are dropped.
void yieldToEdgesAlong(const MeshShape& m, std::vector<Feature>& found) {
  bool any = false;
  for (const Feature& e : found) {
    if (!(e.yield > 0.0)) continue;
    any = true;
    for (Feature& f : found) {
      if (!f.rim || f.disc != e.disc) continue;
      const V3& nf = m.normals()[f.face[0]];
      if ((nf - m.normals()[e.face[0]]).norm() <= MeshShape::kFlatAngle || (nf - m.normals()[e.face[1]]).norm() <= MeshShape::kFlatAngle)
        f.share *= 1.0 - e.yield;
    }
  }
  if (!any) return;
  found.erase(std::remove_if(found.begin(), found.end(), [](const Feature& f) { return f.rim && !(f.share > 0.0); }),
              found.end());
}

// A sharp vertex's ways out of the cylinder (cylinder-local x; er its
// direction from the axis): the side's (if rho > 0) and the caps', each
// with its cone margin (vertexConeMargin); their count.
int vertexWays(const MeshShape& m, int i, const CylInMesh& cy, const V3& x, double rho, const V3& er, Way* ways, double* margin) {
  int n = 0;
  auto consider = [&](double depth, const V3& outward, double weight) {
    margin[n] = vertexConeMargin(m, i, -outward);
    ways[n++] = {depth, outward, weight};
  };
  // The side's normal turns by 1 / rho per m and has no direction on the
  // axis: its weight fades to zero there (linearly within kBand r of it).
  if (rho > 0.0) consider(cy.r - rho, cy.R * er, std::min(1.0, rho / (kBand * cy.r)));
  consider(cy.h - x.z(), cy.R.col(2), 1.0);
  consider(cy.h + x.z(), V3(-cy.R.col(2)), 1.0);
  return n;
}
// Sharp vertex i just outside the side or a cap plane (and inside the
// other): its point out through its other ways, as inside, is kept in part,
// 1 - nearEndShare(its distance outside, its depth), so it falls to zero
// kBand depth outside (C1) instead of at the surface. Outside the side,
// the rim points of the ridges from it that enter a cap's disc there rise
// from zero meanwhile (edgeOutOfCap); before, those took over at once at
// their full depth beside it (the force doubled), or, out through a cap
// plane whose way lies far past its cone, nothing took its point (the
// ridges entering through the cap report none: their points nearest the
// axis are the vertex): test_contact_mesh randomPathsThroughApexes. The
// way it lies outside of, as far as it lies outside, pushes nothing but
// keeps its place in the blend (fadeWays), so where it is present (within
// kPast of the cone) the point falls to zero at the surface from both
// sides. Out of line: inlined, the cylinder's sweeps of
// docs/performance.md, which never call it, cost 1.6 M more.
[[gnu::noinline]] void vertexJustOutside(const MeshShape& m, int i, const CylInMesh& cy, const V3& x, double rho,
                                         const V3& er, std::vector<Feature>& out) {
  Way ways[3];
  double margin[3];
  const int n = vertexWays(m, i, cy, x, rho, er, ways, margin);
  double beyond = 0.0;
  for (int k = 0; k < n; ++k)
    if (ways[k].depth < 0.0) {  // the one it lies outside: never pushes
      beyond = ways[k].depth = -ways[k].depth;
      margin[k] = std::min(margin[k], 0.0);
    }
  double depth, share;
  V3 nf;
  if (!fadeWays(ways, margin, n, depth, nf, share) || !(depth > 0.0)) return;
  const double kept = 1.0 - nearEndShare(beyond, depth);
  if (kept > 0.0) out.push_back({m.vertices()[i], m.vertices()[i] + depth * nf, -nf, -depth, share * kept});
}

// Sharp mesh vertices against the cylinder: outside, towards its nearest
// point; inside, out through those of side and caps whose normals (turned)
// lie in the vertex's normal cone, blended (blendWays). The side's weight
// fades to zero at the axis, where it has no normal (else a vertex crossing
// the axis turned the side's way by 180 degrees, or out of the cone, at once
// where its depth, about r, is within the band of a cap's).
void vertexCylinder(const MeshShape& m, const std::vector<int>& ids, const CylInMesh& cy, std::vector<Feature>& out) {
  for (int i : ids) {
    if (!m.sharpVertex(i)) continue;
    const V3& v = m.vertices()[i];
    const V3 x = cy.R.transpose() * (v - cy.c);
    const double rho = x.head<2>().norm();
    const V3 er = rho > 0.0 ? V3(x.x() / rho, x.y() / rho, 0.0) : V3::UnitX();
    if (rho > cy.r || std::abs(x.z()) > cy.h) {
      const V3 q = cy.world(V3(std::min(rho, cy.r) * er.x(), std::min(rho, cy.r) * er.y(), std::clamp(x.z(), -cy.h, cy.h)));
      const V3 u = q - v;
      const double L = u.norm();
      if (L > 0.0 && inVertexCone(m, i, u / L)) out.push_back({v, q, u / L, L});
      // Outside the side or a cap plane alone, within the band of its
      // deepest way's depth: vertexJustOutside.
      const double az = std::abs(x.z()), band = kBand * (cy.r + cy.h + az);
      if (az <= cy.h ? rho - cy.r < band : rho < cy.r && az - cy.h < band) vertexJustOutside(m, i, cy, x, rho, er, out);
      continue;
    }
    Way ways[3];
    double margin[3];
    const int n = vertexWays(m, i, cy, x, rho, er, ways, margin);
    double depth, share;
    V3 nf;
    if (fadeWays(ways, margin, n, depth, nf, share)) out.push_back({v, v + depth * nf, -nf, -depth, share});
  }
}

}  // namespace

Contact meshBody(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const MeshShape& m = *a.mesh;
  const double r = b.radius;
  const V3 p0 = fa.toLocal(fb.toWorld(V3(0, 0, -b.halfLength))), p1 = fa.toLocal(fb.toWorld(V3(0, 0, b.halfLength)));
  const double reach = 2.0 * r;  // the distance is exact up to r beyond the surface
  return gather(features(m, p0, p1, r, reach), fa, r, reach, 1e-8 * (r + (p1 - p0).norm()));
}

Contact meshBox(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const MeshShape& m = *a.mesh;
  const BoxInMesh bx{fa.toLocal(fb.p), fa.R.transpose() * fb.R, b.halfExtents};
  const double reach = bx.e.minCoeff();
  const V3 half = bx.R.cwiseAbs() * bx.e + V3::Constant(reach);
  std::vector<int> tris, edgeIds, vertexIds;
  neighbourhood(m, bx.p - half, bx.p + half, tris, edgeIds, vertexIds);
  std::vector<Feature> found;
  cornerFaces(m, tris, bx, found);
  for (int i = 0; i < 8; ++i) {  // apart: a corner's nearest edge or vertex (never a contact: behind, a face's)
    const V3 x = bx.corner(i);
    edges(m, edgeIds, x, x, found);
    vertices(m, vertexIds, x, x, found);
  }
  edgeEdges(m, edgeIds, bx, found);
  vertexBox(m, vertexIds, bx, found);
  return gather(found, fa, 0.0, reach, 1e-8 * bx.e.norm());
}

Contact meshCylinder(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const MeshShape& m = *a.mesh;
  const CylInMesh cy{fa.toLocal(fb.p), fa.R.transpose() * fb.R, b.radius, b.halfLength};
  const double reach = std::min(cy.r, cy.h);
  const V3 ax = cy.R.col(2);
  V3 half;
  for (int k = 0; k < 3; ++k) half[k] = cy.h * std::abs(ax[k]) + cy.r * std::sqrt(std::max(0.0, 1.0 - ax[k] * ax[k])) + reach;
  std::vector<int> tris, edgeIds, vertexIds;
  neighbourhood(m, cy.c - half, cy.c + half, tris, edgeIds, vertexIds);
  std::vector<Feature> found;
  rimFaces(m, tris, edgeIds, cy, found);
  edgeCylinder(m, edgeIds, cy, found);
  yieldToEdgesAlong(m, found);
  vertexCylinder(m, vertexIds, cy, found);
  return gather(found, fa, 0.0, reach, 1e-8 * (cy.r + cy.h));
}

}  // namespace pm::contact
