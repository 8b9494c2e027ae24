// The tabulated expansion of one degree of freedom: the table's nodes
// (exact expansions, each from its neighbour towards node 0) and the cell
// around a point.
#include "mechanics/reduced_coordinates.h"

#include <cmath>
#include <mutex>

namespace pm::mb {

namespace {
// A node further than this from the table's end is not made (the chain to
// it would be): such an expansion fails and the integrator cuts its step.
constexpr long kMaxChain = 64;
}  // namespace

bool ReducedCoordinates::cell(double t, const double* z, const double* windings, const Node*& a, const Node*& b,
                              double& s) {
  const double x = (z[0] - gridZ0_) / gridStep_;
  const long k = cellOf(z[0]);
  a = node(t, k, windings);
  b = a ? node(t, k + 1, windings) : nullptr;
  s = x - static_cast<double>(k);
  return a && b;
}

bool ReducedCoordinates::tableMargin(double t, const double* z, const double* windings, double& margin) {
  const Node *a = nullptr, *b = nullptr;
  double s = 0.0;
  if (!cell(t, z, windings, a, b, s)) return false;
  margin = (1.0 - s) * a->margin + s * b->margin;
  return true;
}

// Node k of the table: the exact expansion at z0 + k step with u = 1, its
// rates (d q/dz) and its accelerations at du/dt = 0 (d2 q/dz2). Made, with
// the missing ones on the way, from the nearest node towards node 0: each
// continues from its neighbour there, so that a node is a function of its
// index alone (Table).
const ReducedCoordinates::Node* ReducedCoordinates::node(double t, long k, const double* windings) {
  if (!table_) return nullptr;
  if (const Node* n = table_->find(k)) return n;
  if (k == 0 || !Table::inRange(k)) return nullptr;  // node 0 is made with the partition
  const long toward = k > 0 ? -1 : 1;
  long first = k;  // the missing node next to a made one
  while (!table_->find(first + toward)) {
    first += toward;
    if (first == 0 || std::abs(k - first) > kMaxChain) return nullptr;
  }
  const Node* n = nullptr;
  for (long i = first;; i -= toward) {
    std::lock_guard<std::mutex> lock(table_->make);
    n = table_->find(i);  // the other copy may have made it meanwhile
    if (!n) n = makeNode(t, i, table_->find(i + toward), static_cast<double>(-toward) * gridStep_, windings);
    if (!n || i == k) return n;
  }
}

const ReducedCoordinates::Node* ReducedCoordinates::makeNode(double t, long k, const Node* from, double dz,
                                                             const double* windings) {
  const double z = gridZ0_ + static_cast<double>(k) * gridStep_, one = 1.0;
  yNode_.assign(mb_.size(), 0.0);
  // Continued from a neighbour (second order: the start is within ~1e-9,
  // and Newton with the neighbour's factors gains ~1e3 per iteration),
  // else from the anchor.
  const NodeStart start{from, dz};
  if (!expandExact(t, &z, &one, windings, yNode_.data(), &start)) return nullptr;
  const double margin = margin_;
  Node n;
  n.lu = *lu_;  // the exact factors at the node (expandExact's last)
  zeroRateAccelerations(t, yNode_.data());
  const size_t nc = 7 * slot_.size();
  n.q.resize(nc);
  n.dq.resize(nc);
  for (size_t m = 0; m < slot_.size(); ++m) {
    const int sl = slot_[m];
    const Q4 p(yNode_[sl + 3], yNode_[sl + 4], yNode_[sl + 5], yNode_[sl + 6]);
    const Q4 pd = 0.5 * Lmat(p).transpose() * V3(yNode_[sl + 10], yNode_[sl + 11], yNode_[sl + 12]);
    for (int i = 0; i < 3; ++i) n.dq[7 * m + i] = yNode_[sl + 7 + i];
    for (int i = 0; i < 4; ++i) n.dq[7 * m + 3 + i] = pd[i];
  }
  for (size_t c = 0; c < nc; ++c) n.q[c] = coordinate(yNode_.data(), static_cast<int>(c));
  n.ddq = qdd_;
  n.margin = margin;
  return table_->publish(k, std::move(n));
}

}  // namespace pm::mb
