// The face of a box most opposed to a direction, shared by the narrow
// phase's face clipping (box_box.cpp, cylinder_box.cpp).
#pragma once

#include "mechanics/contact/shape.h"

#include <vector>

namespace pm::contact {

// The face of the box (frame f, half-extents e) whose outward normal is
// most opposed to n: its four corners in order around it, and (if asked)
// that outward normal.
inline std::vector<V3> mostOpposedFace(const Frame& f, const V3& e, const V3& n, V3* normal = nullptr) {
  int k = 0;
  (f.R.transpose() * n).cwiseAbs().maxCoeff(&k);
  const V3 nf = f.R.col(k) * (f.R.col(k).dot(n) > 0.0 ? -1.0 : 1.0);
  if (normal) *normal = nf;
  const V3 c = f.p + e[k] * nf;
  const int u = (k + 1) % 3, v = (k + 2) % 3;
  const V3 du = e[u] * f.R.col(u), dv = e[v] * f.R.col(v);
  return {c + du + dv, c - du + dv, c - du - dv, c + du - dv};
}

}  // namespace pm::contact
