// Broad phase (issue 27): sort-and-sweep on world-axis-aligned bounding boxes.
// The boxes are sorted by their lower bound along the axis with the largest
// spread of centres; a sweep keeps the boxes whose interval is still open and
// tests only those against the others' two remaining axes. For n shapes
// spread over space it costs O(n log n) for the sort plus the overlapping
// pairs, instead of n (n - 1) / 2 narrow-phase tests.
#pragma once

#include "mechanics/contact/shape.h"

#include <utility>
#include <vector>

namespace pm::contact {

struct SweepStats {
  long long overlapTests = 0;  // box-against-box tests made in the sweep
};

// Index pairs (i < j) whose boxes overlap, sorted.
std::vector<std::pair<int, int>> overlappingPairs(const std::vector<Aabb>& boxes, SweepStats* stats = nullptr);

}  // namespace pm::contact
