// One scalar constraint equation of a MultibodySystem as evaluated at a
// state (Row), and what it is (RowInfo).
#pragma once

#include "mechanics/spatial.h"

#include <string>

namespace pm::mb {

// One scalar constraint equation with its Jacobian blocks: d(phi) =
// sum over its parts of r[k] . dr + p[k] . dpi' (virtual rotation, part axes).
// Up to four parts (a coupler joins two joints).
struct Row {
  int n = 0;
  int b[4] = {0, 0, 0, 0};
  V3 r[4], p[4];
  double phi = 0.0, phit = 0.0;
  void add(int body, const V3& dr, const V3& dp) {
    for (int k = 0; k < n; ++k)
      if (b[k] == body) {
        r[k] += dr;
        p[k] += dp;
        return;
      }
    b[n] = body;
    r[n] = dr;
    p[n] = dp;
    ++n;
  }
  Row& scaled(double s) {
    for (int k = 0; k < n; ++k) r[k] *= s, p[k] *= s;
    return *this;
  }
};

struct RowInfo {
  std::string owner;     // joint or motion id
  std::string equation;  // readable
  int mu = -1, lambda = -1;  // local state slots
  bool active = true;        // false: redundant, removed
};

}  // namespace pm::mb
