// A table whose points are events: the segment in use is a discrete state
// (so the solver restarts at each corner instead of stepping across it) and
// the next point is the root. Shared by time tables, supply tables and the
// prescribed volume.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace pm::table_segments {

// Segment i covers [t_i, t_i+1); -1 lies before the first point, n-1 after
// the last. A point within 1e-9 (relative) counts as reached, so an event
// found a rounding error early still moves on.
inline int at(const std::vector<double>& t, double time) {
  const double eps = 1e-9 * std::max(1.0, std::abs(time));
  int seg = -1;
  while (seg + 1 < static_cast<int>(t.size()) && time >= t[seg + 1] - eps) ++seg;
  return seg;
}

// Root function: zero at the point that ends segment `seg` (none after the last).
inline double nextPoint(const std::vector<double>& t, int seg, double time) {
  const size_t next = static_cast<size_t>(seg + 1);
  return next < t.size() ? time - t[next] : 1.0;
}

}  // namespace pm::table_segments
