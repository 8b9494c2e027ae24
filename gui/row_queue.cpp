#include "row_queue.h"

#include <algorithm>
#include <utility>

namespace pm::gui {

RowQueue::RowQueue(size_t maxRows) : max_(std::max<size_t>(maxRows, 2)) {}

void RowQueue::setWidth(size_t width) {
  std::lock_guard lock(m_);
  width_ = std::max<size_t>(width, 1);
  rows_.clear();
  held_ = seen_ = 0;
  stride_ = 1;
  newest_.assign(width_, 0.0);
  newestHeld_ = false;
  dropped_ = 0;
}

void RowQueue::push(double t, const double* values) {
  std::lock_guard lock(m_);
  const size_t i = seen_++;
  if (newestHeld_) ++dropped_;  // the newest held off the stride: a newer one came
  newestHeld_ = false;
  if (i % stride_ != 0) {
    newest_[0] = t;
    std::copy(values, values + width_ - 1, newest_.begin() + 1);
    newestHeld_ = true;
    return;
  }
  rows_.push_back(t);
  rows_.insert(rows_.end(), values, values + width_ - 1);
  if (++held_ > max_) thin();
}

// Keeps the rows at even places (every 2 stride-th row since the last take)
// and the newest, held apart when its place is odd.
void RowQueue::thin() {
  const size_t last = held_ - 1;
  if (last % 2 == 1) {
    std::copy(rows_.begin() + std::ptrdiff_t(last * width_), rows_.begin() + std::ptrdiff_t(held_ * width_),
              newest_.begin());
    newestHeld_ = true;
  }
  size_t kept = 0;
  for (size_t j = 0; j < held_; j += 2, ++kept)
    if (kept != j)
      std::copy_n(rows_.begin() + std::ptrdiff_t(j * width_), width_, rows_.begin() + std::ptrdiff_t(kept * width_));
  dropped_ += held_ - kept - (newestHeld_ ? 1 : 0);
  held_ = kept;
  rows_.resize(held_ * width_);
  stride_ *= 2;
}

size_t RowQueue::take(std::vector<double>& rows) {
  std::lock_guard lock(m_);
  if (newestHeld_) rows_.insert(rows_.end(), newest_.begin(), newest_.end());
  const size_t n = held_ + (newestHeld_ ? 1 : 0);
  rows.clear();
  rows.swap(rows_);
  held_ = seen_ = 0;
  stride_ = 1;
  newestHeld_ = false;
  return n;
}

uint64_t RowQueue::dropped() const {
  std::lock_guard lock(m_);
  return dropped_;
}

}  // namespace pm::gui
