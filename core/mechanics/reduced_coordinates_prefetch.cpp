// Making the table's nodes ahead of the solver, on the output thread's copy
// of the System while it waits for rows.
#include "mechanics/reduced_coordinates.h"

#include <cmath>
#include <memory>

namespace pm::mb {

namespace {
// Nodes made ahead of (and behind) the solver's expansions by
// prefetchAhead(), within the partition: its spare time on the output
// thread makes the tool changer's whole table about twice over.
constexpr long kPrefetch = 200;
}  // namespace

std::unique_ptr<ReducedCoordinates> ReducedCoordinates::prefetcher(double t0, const double* y0) const {
  if (!tables_) return nullptr;
  return std::make_unique<ReducedCoordinates>(mb_, t0, y0, Sharing{tabulate_, tables_, false});
}

bool ReducedCoordinates::prefetchAhead() {
  if (!tables_) return false;
  const Tables::Partition p = tables_->newest();
  if (p.index >= 0 && p.index != partitionIndex_) partition(p.t, p.pose.data(), p.index);
  if (!table_) return false;
  // Around where the solver's expansions are: ahead of the motion first, up
  // to where the partition is redone, then behind (it may turn back); the
  // nodes towards node 0 are made already (the table is contiguous).
  const double zh = table_->hintZ.load(std::memory_order_relaxed), uh = table_->hintU.load(std::memory_order_relaxed);
  const long k0 = std::isfinite(zh) ? cellOf(zh) : 0;
  const std::vector<double> windings = windingsOf(pose_.data());
  for (const long dir : {uh >= 0.0 ? 1L : -1L, uh >= 0.0 ? -1L : 1L})
    for (long d = 0; d < kPrefetch; ++d) {
      const long k = dir > 0 ? k0 + 1 + d : k0 - d;
      if (const Node* n = table_->find(k)) {
        if (n->margin <= 1e-3) break;
        continue;
      }
      if (node(partT_, k, windings.data())) return true;  // scleronomic: nodes do not depend on time
      break;  // the loop does not close there
    }
  return false;
}

}  // namespace pm::mb
