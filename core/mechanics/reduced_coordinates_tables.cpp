// The tables of the tabulated expansion shared by the solver's System and
// its copy on the output thread: nodes published without a lock for the
// readers (see ReducedCoordinates::Table).
#include "mechanics/reduced_coordinates.h"

#include <memory>
#include <mutex>

namespace pm::mb {

const ReducedCoordinates::Node* ReducedCoordinates::Table::publish(long k, Node&& n) {
  store_.push_back(std::move(n));
  const Node* p = &store_.back();
  slot_[k + kHalf].store(p, std::memory_order_release);
  return p;
}

std::shared_ptr<ReducedCoordinates::Table> ReducedCoordinates::Tables::at(long partition) {
  std::lock_guard<std::mutex> lock(m_);
  auto& t = tables_[partition];
  if (!t) t = std::make_shared<Table>();
  return t;
}

void ReducedCoordinates::Tables::announce(long index, double t, const std::vector<double>& pose) {
  std::lock_guard<std::mutex> lock(m_);
  newest_.index = index;
  newest_.t = t;
  newest_.pose = pose;
}

ReducedCoordinates::Tables::Partition ReducedCoordinates::Tables::newest() {
  std::lock_guard<std::mutex> lock(m_);
  return newest_;
}

}  // namespace pm::mb
