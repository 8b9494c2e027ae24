#include "mechanics/contact/cylinder_box.h"

#include "mechanics/contact/box_face.h"
#include "mechanics/contact/cylinder_features.h"
#include "mechanics/contact/segment_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pm::contact {

namespace {

using cyl::addBelow;
using cyl::clipHalfSpace;
using cyl::Cyl;

// The cylinder's features nearest along n (its cap's octagon at the end
// towards n and its side line towards n), clipped to the sides of box face
// i (outward normal nb = -n) and kept where they are below that face.
std::vector<ContactPoint> onBoxFace(const Cyl& cy, const V3& fallback, const Frame& fb, const V3& eb, int i,
                                    const V3& n, double tol) {
  const V3 u = cy.across(n, fallback), w = cy.a.cross(u);
  const double s = cy.a.dot(n) >= 0.0 ? 1.0 : -1.0;
  const V3 ce = cy.c + s * cy.h * cy.a;
  std::vector<V3> cap, side{cy.c - cy.h * cy.a + cy.r * u, cy.c + cy.h * cy.a + cy.r * u};
  for (int k = 0; k < 8; ++k) {
    const double t = k * std::numbers::pi / 4;
    cap.push_back(ce + cy.r * (std::cos(t) * u + std::sin(t) * w));
  }
  for (int j : {(i + 1) % 3, (i + 2) % 3}) {
    for (double sg : {1.0, -1.0}) {
      const V3 ax = sg * fb.R.col(j);
      clipHalfSpace(cap, ax, ax.dot(fb.p) + eb[j]);
      clipHalfSpace(side, ax, ax.dot(fb.p) + eb[j]);
    }
  }
  const V3 nb = -n, faceCentre = fb.p + eb[i] * nb;
  std::vector<ContactPoint> pts;
  addBelow(cap, faceCentre, nb, tol, pts);
  addBelow(side, faceCentre, nb, tol, pts);
  return pts;
}

// The box's face most opposed to n clipped to the prism over the cap's
// octagon (the one onBoxFace takes along the face's normal, so a cap flat on
// a face gives the same points whichever axis is chosen), kept where it is
// below the cap.
std::vector<ContactPoint> onCap(const Cyl& cy, const V3& fallback, const Frame& fb, const V3& eb, const V3& n,
                                double tol) {
  V3 nf;
  std::vector<V3> poly = mostOpposedFace(fb, eb, n, &nf);
  const V3 u = cy.across(-nf, fallback), w = cy.a.cross(u);
  const double apothem = cy.r * std::cos(std::numbers::pi / 8);
  for (int m = 0; m < 8; ++m) {
    const double t = (m + 0.5) * std::numbers::pi / 4;
    const V3 dir = std::cos(t) * u + std::sin(t) * w;
    clipHalfSpace(poly, dir, dir.dot(cy.c) + apothem);
  }
  const double s = cy.a.dot(n) >= 0.0 ? 1.0 : -1.0;
  std::vector<ContactPoint> pts;
  addBelow(poly, cy.c + s * cy.h * cy.a, s * cy.a, tol, pts);
  return pts;
}

}  // namespace

Contact cylinderBox(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  // The solver's Newton iterates and Jacobian columns may hand a rotation
  // that is not quite orthonormal (a perturbed orientation): a non-unit axis
  // turns "L across the axis" into a vector along it near a flat cap, and
  // the cap's points swing out of the cap's plane.
  const Cyl cy{fa.p, fa.R.col(2).normalized(), a.radius, a.halfLength};
  const V3& eb = b.halfExtents;
  const V3 T = fb.p - fa.p;
  const double size = a.radius + a.halfLength + eb.sum(), bias = 1e-9 * size, tol = 1e-12 * size;
  double maxSep = -std::numeric_limits<double>::infinity(), chosenSep = maxSep;
  V3 axis = V3::UnitZ();
  int kind = -1, idx = 0;  // 0: box face idx, 1: the cylinder's axis, 2: axis x box edge idx, 3: a vertex
  auto test = [&](V3 L, int kd, int i) {
    const double len = L.norm();
    if (len < 1e-9) return;
    L /= len;
    if (L.dot(T) < 0.0) L = -L;
    const double s = L.dot(T) - cy.support(L) - (fb.R.transpose() * L).cwiseAbs().dot(eb);
    maxSep = std::max(maxSep, s);
    if (kind < 0 || s > chosenSep + bias) {
      chosenSep = s;
      axis = L;
      kind = kd;
      idx = i;
    }
  };
  for (int i = 0; i < 3; ++i) test(fb.R.col(i), 0, i);
  test(cy.a, 1, 0);
  for (int i = 0; i < 3; ++i) test(cy.a.cross(fb.R.col(i)), 2, i);
  V3 verts[8];
  for (int i = 0; i < 8; ++i) {
    verts[i] = fb.toWorld(V3((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1).cwiseProduct(eb));
    // Outside: towards the vertex from its nearest point; inside: its way out.
    const V3 d = verts[i] - cy.nearest(verts[i]);
    test(d.norm() > tol ? d : cy.exit(verts[i], fa.R.col(0)), 3, i);
  }
  Contact c;
  c.distance = maxSep;
  c.normal = axis;
  if (maxSep >= 0.0) return c;
  if (kind == 0) {
    c.points = onBoxFace(cy, fa.R.col(0), fb, eb, idx, axis, tol);
  } else if (kind == 1) {
    c.points = onCap(cy, fa.R.col(0), fb, eb, axis, tol);
  } else {
    // The box's vertices inside the cylinder, each as deep as it lies past
    // the cylinder's extent along the axis.
    const double reach = axis.dot(cy.c) + cy.support(axis);
    for (const V3& v : verts) {
      const double depth = reach - axis.dot(v);
      if (depth > 0.0 && cy.contains(v)) c.points.push_back({v + 0.5 * depth * axis, depth});
    }
    if (c.points.empty() && kind == 3) {
      c.points.push_back({verts[idx] - 0.5 * chosenSep * axis, -chosenSep});
    } else if (c.points.empty()) {
      // No vertex inside (an edge across the side): one point between the edge and the side line.
      V3 pb = fb.p;
      for (int k = 0; k < 3; ++k)
        if (k != idx) pb -= eb[k] * (fb.R.col(k).dot(axis) > 0.0 ? 1.0 : -1.0) * fb.R.col(k);
      const V3 db = eb[idx] * fb.R.col(idx), line = cy.c + cy.r * cy.across(axis, fa.R.col(0));
      V3 ca, cb;
      closestSegments(line - cy.h * cy.a, line + cy.h * cy.a, pb - db, pb + db, ca, cb);
      c.points.push_back({0.5 * (ca + cb), -chosenSep});
    }
  }
  return c;
}

}  // namespace pm::contact
