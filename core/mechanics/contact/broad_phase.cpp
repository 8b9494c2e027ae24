#include "mechanics/contact/broad_phase.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pm::contact {

namespace {

// The axis along which the (finite) box centres spread most.
int sweepAxis(const std::vector<Aabb>& boxes) {
  V3 sum = V3::Zero(), sq = V3::Zero();
  int n = 0;
  for (const Aabb& b : boxes) {
    const V3 c = 0.5 * (b.lo + b.hi);
    if (!c.allFinite()) continue;  // a plane's box is unbounded
    sum += c;
    sq += c.cwiseProduct(c);
    ++n;
  }
  if (n == 0) return 0;
  const V3 var = sq / n - (sum / n).cwiseProduct(sum / n);
  int axis = 0;
  var.maxCoeff(&axis);
  return axis;
}

}  // namespace

std::vector<std::pair<int, int>> overlappingPairs(const std::vector<Aabb>& boxes, SweepStats* stats) {
  const int n = static_cast<int>(boxes.size());
  const int ax = sweepAxis(boxes);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return boxes[a].lo[ax] < boxes[b].lo[ax]; });
  std::vector<std::pair<int, int>> pairs;
  std::vector<int> open;  // boxes whose interval along ax may still overlap the next
  long long tests = 0;
  for (int i : order) {
    const Aabb& bi = boxes[i];
    // Drop the boxes that end before this one starts: they end before every later one starts too.
    open.erase(std::remove_if(open.begin(), open.end(), [&](int j) { return boxes[j].hi[ax] < bi.lo[ax]; }),
               open.end());
    for (int j : open) {
      ++tests;
      if (bi.overlaps(boxes[j])) pairs.emplace_back(std::min(i, j), std::max(i, j));
    }
    open.push_back(i);
  }
  std::sort(pairs.begin(), pairs.end());
  if (stats) stats->overlapTests = tests;
  return pairs;
}

}  // namespace pm::contact
