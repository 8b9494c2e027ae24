#include "mechanics/contact/box_box.h"

#include "mechanics/contact/box_face.h"
#include "mechanics/contact/segment_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pm::contact {

namespace {

// Points of box `inc` (frame fi, half-extents ei) below face i of box `ref`
// whose outward normal is n: the incident face (the one most opposed to n)
// clipped to the reference face's four side planes.
std::vector<ContactPoint> clipFaces(const Frame& fr, const V3& er, int i, const V3& n, const Frame& fi,
                                    const V3& ei) {
  std::vector<V3> poly = mostOpposedFace(fi, ei, n);
  for (int j : {(i + 1) % 3, (i + 2) % 3}) {
    for (double sg : {1.0, -1.0}) {
      // Keep sg a_j . (x - p_ref) <= e_j (Sutherland-Hodgman).
      const V3 ax = sg * fr.R.col(j);
      auto h = [&](const V3& x) { return ax.dot(x - fr.p) - er[j]; };
      std::vector<V3> out;
      for (size_t m = 0; m < poly.size(); ++m) {
        const V3& p = poly[m];
        const V3& q = poly[(m + 1) % poly.size()];
        const double hp = h(p), hq = h(q);
        if (hp <= 0.0) out.push_back(p);
        if ((hp < 0.0 && hq > 0.0) || (hp > 0.0 && hq < 0.0)) out.push_back(p + (q - p) * (hp / (hp - hq)));
      }
      poly.swap(out);
    }
  }
  const V3 faceCentre = fr.p + er[i] * n;
  std::vector<ContactPoint> pts;
  for (const V3& p : poly) {
    const double height = n.dot(p - faceCentre);
    if (height < 0.0) pts.push_back({p - 0.5 * height * n, -height});
  }
  return pts;
}

}  // namespace

Contact boxBox(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const V3 &ea = a.halfExtents, &eb = b.halfExtents;
  const V3 T = fb.p - fa.p;
  // A later axis replaces the chosen one only when clearly shallower, so
  // ties keep A's faces, then B's, then edges (faces give the full patch).
  const double bias = 1e-9 * (ea.sum() + eb.sum());
  double maxSep = -std::numeric_limits<double>::infinity(), chosenSep = maxSep;
  V3 axis = V3::UnitZ();
  int kind = -1, ia = 0, ib = 0;  // 0: face ia of A, 1: face ib of B, 2: edges ia of A and ib of B
  auto test = [&](V3 L, int kd, int i, int j) {
    const double len = L.norm();
    if (len < 1e-9) return;  // parallel edges: covered by the face axes
    L /= len;
    if (L.dot(T) < 0.0) L = -L;
    const double s = L.dot(T) - (fa.R.transpose() * L).cwiseAbs().dot(ea) - (fb.R.transpose() * L).cwiseAbs().dot(eb);
    maxSep = std::max(maxSep, s);
    if (kind < 0 || s > chosenSep + bias) {
      chosenSep = s;
      axis = L;
      kind = kd;
      ia = i;
      ib = j;
    }
  };
  for (int i = 0; i < 3; ++i) test(fa.R.col(i), 0, i, 0);
  for (int j = 0; j < 3; ++j) test(fb.R.col(j), 1, 0, j);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) test(fa.R.col(i).cross(fb.R.col(j)), 2, i, j);
  Contact c;
  c.distance = maxSep;
  c.normal = axis;
  if (maxSep >= 0.0) return c;
  if (kind == 0) {
    c.points = clipFaces(fa, ea, ia, axis, fb, eb);
  } else if (kind == 1) {
    c.points = clipFaces(fb, eb, ib, -axis, fa, ea);
  } else {
    // The edge of each box along the axis pair that reaches furthest towards the other.
    V3 pa = fa.p, pb = fb.p;
    for (int k = 0; k < 3; ++k) {
      if (k != ia) pa += ea[k] * (fa.R.col(k).dot(axis) > 0.0 ? 1.0 : -1.0) * fa.R.col(k);
      if (k != ib) pb -= eb[k] * (fb.R.col(k).dot(axis) > 0.0 ? 1.0 : -1.0) * fb.R.col(k);
    }
    const V3 da = ea[ia] * fa.R.col(ia), db = eb[ib] * fb.R.col(ib);
    V3 ca, cb;
    closestSegments(pa - da, pa + da, pb - db, pb + db, ca, cb);
    c.points.push_back({0.5 * (ca + cb), -chosenSep});
  }
  return c;
}

}  // namespace pm::contact
