// Pieces the cylinder pairs of the narrow phase share (cylinder_box.cpp,
// cylinder_cylinder.cpp): polygon clipping, points below a reference
// surface, and a cylinder's support, nearest point and way out.
#pragma once

#include "mechanics/contact/narrow_phase.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pm::contact::cyl {

// Keeps the part of a convex polygon (or a segment, or a point) where
// nrm . x <= d (Sutherland-Hodgman; a segment is clipped by its parameter).
inline void clipHalfSpace(std::vector<V3>& poly, const V3& nrm, double d) {
  auto h = [&](const V3& x) { return nrm.dot(x) - d; };
  if (poly.size() == 2) {
    const double h0 = h(poly[0]), h1 = h(poly[1]);
    if (h0 > 0.0 && h1 > 0.0) poly.clear();
    else if (h0 > 0.0) poly[0] = poly[0] + (poly[1] - poly[0]) * (h0 / (h0 - h1));
    else if (h1 > 0.0) poly[1] = poly[1] + (poly[0] - poly[1]) * (h1 / (h1 - h0));
    return;
  }
  std::vector<V3> out;
  for (size_t m = 0; m < poly.size(); ++m) {
    const V3& p = poly[m];
    const V3& q = poly[(m + 1) % poly.size()];
    const double hp = h(p), hq = h(q);
    if (hp <= 0.0) out.push_back(p);
    if (poly.size() > 1 && ((hp < 0.0 && hq > 0.0) || (hp > 0.0 && hq < 0.0))) out.push_back(p + (q - p) * (hp / (hp - hq)));
  }
  poly.swap(out);
}

// Points of `poly` below the reference surface through c with outward
// normal nr (from the reference shape towards the other): each midway
// between the surfaces with its depth; near-duplicates are dropped.
inline void addBelow(const std::vector<V3>& poly, const V3& c, const V3& nr, double tol, std::vector<ContactPoint>& pts) {
  for (const V3& p : poly) {
    const double hgt = nr.dot(p - c);
    if (hgt >= 0.0) continue;
    const V3 q = p - 0.5 * hgt * nr;
    const bool seen = std::any_of(pts.begin(), pts.end(), [&](const ContactPoint& o) { return (o.point - q).norm() <= tol; });
    if (!seen) pts.push_back({q, -hgt});
  }
}

struct Cyl {
  V3 c, a;  // centre, unit axis
  double r, h;
  double support(const V3& L) const {
    const double ca = a.dot(L);
    return h * std::abs(ca) + r * std::sqrt(std::max(0.0, 1.0 - ca * ca));
  }
  // A unit vector across the axis, along L's part across it (the fallback's
  // part across it when L is along the axis).
  V3 across(const V3& L, const V3& fallback) const {
    const V3 u = L - a.dot(L) * a;
    if (u.norm() > 1e-12) return u.normalized();
    const V3 f = fallback - a.dot(fallback) * a;
    return f.norm() > 1e-12 ? V3(f.normalized()) : V3(a.unitOrthogonal());
  }
  // The nearest point of the solid cylinder to x (x itself when inside).
  V3 nearest(const V3& x) const {
    const V3 d = x - c;
    const double z = std::clamp(a.dot(d), -h, h);
    V3 rad = d - a.dot(d) * a;
    if (rad.norm() > r) rad *= r / rad.norm();
    return c + z * a + rad;
  }
  // From inside, the way out through the nearer of the side and the caps.
  V3 exit(const V3& x, const V3& fallback) const {
    const V3 d = x - c;
    const double z = a.dot(d), rho = (d - z * a).norm();
    if (r - rho < h - std::abs(z)) return across(d, fallback);
    return z >= 0.0 ? a : V3(-a);
  }
  bool contains(const V3& x) const {
    const V3 d = x - c;
    return std::abs(a.dot(d)) <= h && (d - a.dot(d) * a).norm() <= r;
  }
};

}  // namespace pm::contact::cyl
