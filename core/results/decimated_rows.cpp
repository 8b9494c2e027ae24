#include "results/decimated_rows.h"

#include <algorithm>
#include <cmath>

namespace pm {

DecimatedRows::DecimatedRows(size_t targetRows) : target_(std::max<size_t>(targetRows, 2)) {}

void DecimatedRows::setChannels(size_t channels) {
  stride_ = 1;
  seen_ = 0;
  ++generation_;
  t_.clear();
  g_.clear();
  cols_.assign(channels, {});
  min_.assign(channels, {});
  max_.assign(channels, {});
  pins_.clear();
}

void DecimatedRows::pin(Extreme& e, size_t g, double v) {
  if (e.row != kNone)
    if (auto it = pins_.find(e.row); it != pins_.end() && --it->second == 0) pins_.erase(it);
  e = {g, v};
  ++pins_[g];
}

void DecimatedRows::popBack() {
  t_.pop_back();
  g_.pop_back();
  for (auto& c : cols_) c.pop_back();
}

void DecimatedRows::append(double t, const double* row) {
  const size_t g = seen_++;
  for (size_t c = 0; c < cols_.size(); ++c) {
    const double v = row[c];
    if (std::isnan(v)) continue;
    if (min_[c].row == kNone || v < min_[c].value) pin(min_[c], g, v);
    if (max_[c].row == kNone || v > max_[c].value) pin(max_[c], g, v);
  }
  // The newest row so far was kept for being the newest alone: this one
  // takes its place.
  if (!g_.empty() && g_.back() == g - 1 && (g - 1) % stride_ != 0 && !pinned(g - 1)) popBack();
  t_.push_back(t);
  g_.push_back(g);
  for (size_t c = 0; c < cols_.size(); ++c) cols_[c].push_back(row[c]);
  if (t_.size() > 2 * target_ + 2 * cols_.size() + 1) compact();
}

// Doubles the stride until the regular rows fit the target again, and drops
// the rows kept for an extreme that has since moved on.
void DecimatedRows::compact() {
  while ((seen_ + stride_ - 1) / stride_ > target_) stride_ *= 2;
  size_t k = 0;
  for (size_t i = 0; i < g_.size(); ++i) {
    const size_t g = g_[i];
    if (g % stride_ != 0 && !pinned(g) && g + 1 != seen_) continue;
    t_[k] = t_[i];
    g_[k] = g;
    for (auto& c : cols_) c[k] = c[i];
    ++k;
  }
  t_.resize(k);
  g_.resize(k);
  for (auto& c : cols_) {
    c.resize(k);
    c.shrink_to_fit();  // the columns' capacity doubled on the way up
  }
  ++generation_;
}

}  // namespace pm
