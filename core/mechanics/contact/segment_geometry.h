// Closest points on segments, shared by the narrow phase's pairs.
#pragma once

#include "mechanics/contact/shape.h"

#include <algorithm>

namespace pm::contact {

inline V3 closestOnSegment(const V3& p0, const V3& p1, const V3& x) {
  const V3 u = p1 - p0;
  const double uu = u.squaredNorm();
  const double t = uu > 0.0 ? std::clamp(u.dot(x - p0) / uu, 0.0, 1.0) : 0.0;
  return p0 + t * u;
}

// Closest points of segments p1-q1 and p2-q2 (Ericson, Real-Time Collision
// Detection, 5.1.9); parallel segments take the first segment's clamped end.
inline void closestSegments(const V3& p1, const V3& q1, const V3& p2, const V3& q2, V3& c1, V3& c2) {
  const V3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a <= 0.0 && e <= 0.0) {
  } else if (a <= 0.0) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= 0.0) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), den = a * e - b * b;
      s = den > 1e-14 * a * e ? std::clamp((b * f - c * e) / den, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  c1 = p1 + s * d1;
  c2 = p2 + t * d2;
}

}  // namespace pm::contact
