#include "mechanics/contact/cylinder_cylinder.h"

#include "mechanics/contact/cylinder_features.h"
#include "mechanics/contact/segment_geometry.h"

#include <array>
#include <limits>
#include <numbers>

namespace pm::contact {

namespace {

using cyl::Cyl;

// The octagon inscribed in cylinder c's rim at end s (+1 or -1), one vertex
// along `towards` (across the axis).
std::array<V3, 8> rimOctagon(const Cyl& c, double s, const V3& towards, const V3& fallback) {
  const V3 u = c.across(towards, fallback), w = c.a.cross(u), ce = c.c + s * c.h * c.a;
  std::array<V3, 8> o;
  for (int k = 0; k < 8; ++k) {
    const double t = k * std::numbers::pi / 4;
    o[k] = ce + c.r * (std::cos(t) * u + std::sin(t) * w);
  }
  return o;
}

// Points of cylinder `inc` below the cap of `ref` whose outward normal is n
// (= +-ref.a): inc's cap octagon at its end towards -n and its side line
// nearest along -n, clipped to the prism over ref's cap octagon.
std::vector<ContactPoint> onCap(const Cyl& ref, const V3& refFallback, const Cyl& inc, const V3& incFallback,
                                const V3& n, double tol) {
  const double sInc = inc.a.dot(n) > 0.0 ? -1.0 : 1.0;
  const std::array<V3, 8> o = rimOctagon(inc, sInc, -n, incFallback);
  std::vector<V3> cap(o.begin(), o.end());
  const V3 side = inc.across(-n, incFallback);
  std::vector<V3> line{inc.c - inc.h * inc.a + inc.r * side, inc.c + inc.h * inc.a + inc.r * side};
  const V3 u = ref.across(inc.c - ref.c, refFallback), w = ref.a.cross(u);
  const double apothem = ref.r * std::cos(std::numbers::pi / 8);
  for (int m = 0; m < 8; ++m) {
    const double t = (m + 0.5) * std::numbers::pi / 4;
    const V3 dir = std::cos(t) * u + std::sin(t) * w;
    cyl::clipHalfSpace(cap, dir, dir.dot(ref.c) + apothem);
    cyl::clipHalfSpace(line, dir, dir.dot(ref.c) + apothem);
  }
  const double s = ref.a.dot(n) > 0.0 ? 1.0 : -1.0;
  std::vector<ContactPoint> pts;
  cyl::addBelow(cap, ref.c + s * ref.h * ref.a, n, tol, pts);
  cyl::addBelow(line, ref.c + s * ref.h * ref.a, n, tol, pts);
  return pts;
}

}  // namespace

Contact cylinderCylinder(const Shape& sa, const Frame& fa, const Shape& sb, const Frame& fb) {
  const Cyl A{fa.p, fa.R.col(2).normalized(), sa.radius, sa.halfLength};
  const Cyl B{fb.p, fb.R.col(2).normalized(), sb.radius, sb.halfLength};
  const V3 T = B.c - A.c, fxA = fa.R.col(0), fxB = fb.R.col(0);
  const double size = A.r + A.h + B.r + B.h, bias = 1e-9 * size, tol = 1e-12 * size;
  double maxSep = -std::numeric_limits<double>::infinity(), chosenSep = maxSep;
  V3 axis = V3::UnitZ();
  int kind = -1, idx = 0;  // 0: A's cap, 1: B's cap, 2: crossed sides, 3: between the axes, 4: a rim vertex
  auto test = [&](V3 L, int kd, int i) {
    const double len = L.norm();
    if (len < 1e-9) return;
    L /= len;
    if (L.dot(T) < 0.0) L = -L;
    const double s = L.dot(T) - A.support(L) - B.support(L);
    maxSep = std::max(maxSep, s);
    if (kind < 0 || s > chosenSep + bias) {
      chosenSep = s;
      axis = L;
      kind = kd;
      idx = i;
    }
  };
  test(A.a, 0, 0);
  test(B.a, 1, 0);
  test(A.a.cross(B.a), 2, 0);
  V3 qa, qb;
  closestSegments(A.c - A.h * A.a, A.c + A.h * A.a, B.c - B.h * B.a, B.c + B.h * B.a, qa, qb);
  test(qb - qa, 3, 0);
  // Rim vertices: 0-15 B's (against A), 16-31 A's (against B).
  std::array<V3, 32> verts;
  for (int e = 0; e < 2; ++e) {
    const std::array<V3, 8> ob = rimOctagon(B, e ? 1.0 : -1.0, -T, fxB), oa = rimOctagon(A, e ? 1.0 : -1.0, T, fxA);
    for (int k = 0; k < 8; ++k) verts[8 * e + k] = ob[k], verts[16 + 8 * e + k] = oa[k];
  }
  for (int i = 0; i < 32; ++i) {
    const Cyl& other = i < 16 ? A : B;
    const V3 d = verts[i] - other.nearest(verts[i]);
    const V3 L = d.norm() > tol ? d : other.exit(verts[i], i < 16 ? fxA : fxB);
    test(i < 16 ? L : V3(-L), 4, i);
  }
  Contact c;
  c.distance = maxSep;
  c.normal = axis;
  if (maxSep >= 0.0) return c;
  if (kind == 0) {
    c.points = onCap(A, fxA, B, fxB, axis, tol);
  } else if (kind == 1) {
    c.points = onCap(B, fxB, A, fxA, -axis, tol);
  } else if (kind == 3 && A.a.cross(B.a).norm() < 1e-9) {
    // Parallel sides: B's side line towards A over the stretch both share.
    const V3 lb = B.c - B.r * axis;
    const double z0 = std::max(-A.h, A.a.dot(B.c - A.c) - B.h), z1 = std::min(A.h, A.a.dot(B.c - A.c) + B.h);
    for (double z : {z0, z1}) {
      if (z == z1 && z1 == z0) continue;
      const V3 p = lb + (z - A.a.dot(B.c - A.c)) * A.a;
      c.points.push_back({p - 0.5 * chosenSep * axis, -chosenSep});
    }
  } else if (kind == 2 || kind == 3) {
    // Crossed sides: one point between the two side lines.
    const V3 la = A.c + A.r * A.across(axis, fxA), lb = B.c + B.r * B.across(-axis, fxB);
    V3 ca, cb;
    closestSegments(la - A.h * A.a, la + A.h * A.a, lb - B.h * B.a, lb + B.h * B.a, ca, cb);
    c.points.push_back({0.5 * (ca + cb), -chosenSep});
  } else {
    // The rim vertices inside the other cylinder, each as deep as it lies
    // past the other's extent along the axis.
    const double reachA = axis.dot(A.c) + A.support(axis), reachB = axis.dot(B.c) - B.support(axis);
    for (int i = 0; i < 32; ++i) {
      const bool ofB = i < 16;
      const double depth = ofB ? reachA - axis.dot(verts[i]) : axis.dot(verts[i]) - reachB;
      if (depth > 0.0 && (ofB ? A : B).contains(verts[i]))
        c.points.push_back({verts[i] + (ofB ? 0.5 : -0.5) * depth * axis, depth});
    }
    if (c.points.empty())
      c.points.push_back({verts[idx] + (idx < 16 ? -0.5 : 0.5) * chosenSep * axis, -chosenSep});
  }
  return c;
}

}  // namespace pm::contact
