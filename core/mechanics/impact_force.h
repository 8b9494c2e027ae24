// ADAMS's STEP and IMPACT force laws, shared by the mechanism's 1D `impact`
// element and joint limits (multibody) and by 3D contact (mechanics/contact).
#pragma once

#include <algorithm>
#include <cmath>

namespace pm::mb {

// ADAMS STEP(x, x0, h0, x1, h1), cubic.
inline double step(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  const double s = (x - x0) / (x1 - x0);
  return h0 + (h1 - h0) * s * s * (3.0 - 2.0 * s);
}

// Contact force of penetration pen >= 0 and penetration rate: k pen^e with
// damping ramped over the depth d; never pulls.
inline double contact(double pen, double penRate, double k, double e, double c, double d) {
  if (pen <= 0.0) return 0.0;
  const double f = k * std::pow(pen, e) + step(pen, 0.0, 0.0, d, c) * penRate;
  return std::max(f, 0.0);
}

}  // namespace pm::mb
