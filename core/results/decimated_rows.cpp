#include "results/decimated_rows.h"

#include <algorithm>
#include <cmath>

namespace pm {

DecimatedRows::DecimatedRows(size_t targetRows) : target_(std::max<size_t>(targetRows, 2)) {}

void DecimatedRows::setChannels(size_t channels) {
  stride_ = 1;
  seen_ = 0;
  newestPins_ = 0;
  deferred_ = nullptr;
  ++generation_;
  // Room for the most rows ever kept (compact() runs past it), reserved
  // once: the columns never move while a run grows.
  const size_t room = 2 * target_ + 2 * channels + 2;
  t_.clear();
  t_.reserve(room);
  g_.clear();
  g_.reserve(room);
  cols_.assign(channels, {});
  for (auto& c : cols_) c.reserve(room);
  // An extreme no row has set yet holds +-inf: every value but NaN passes
  // it, so the scan in append() sends that row to the pins.
  min_.assign(channels, {kNone, INFINITY});
  max_.assign(channels, {kNone, -INFINITY});
}

void DecimatedRows::pushBack(size_t g, double t, const double* row) {
  t_.push_back(t);
  g_.push_back(g);
  for (size_t c = 0; c < cols_.size(); ++c) cols_[c].push_back(row[c]);
}

void DecimatedRows::popBack() {
  t_.pop_back();
  g_.pop_back();
  for (auto& c : cols_) c.pop_back();
}

void DecimatedRows::append(double t, const double* row) { step(t, row, false); }

void DecimatedRows::append(const double* rows, size_t count, size_t width) {
  for (size_t r = 0; r < count; ++r) step(rows[r * width], rows + r * width + 1, r + 1 < count);
}

// One row; with `mayDefer`, the next row comes in the same batch, so this
// one need not be copied in before that row says whether it stays.
void DecimatedRows::step(double t, const double* row, bool mayDefer) {
  const size_t g = seen_++;
  // Extremes are counted only at the newest kept row (whether it may be
  // replaced) and at this one; compact() finds the others from min_/max_.
  const size_t newest = deferred_ ? g - 1 : g_.empty() ? kNone : g_.back();
  size_t here = 0;
  // Most rows set no new extreme: one pass of comparisons (NaN compares
  // false) says so without touching the pins.
  bool beyond = false;
  for (size_t c = 0; c < cols_.size(); ++c) beyond |= (row[c] < min_[c].value) | (row[c] > max_[c].value);
  auto pin = [&](Extreme& e, double v) {
    if (e.row != kNone && e.row == newest) --newestPins_;
    e = {g, v};
    ++here;
  };
  for (size_t c = 0; beyond && c < cols_.size(); ++c) {
    const double v = row[c];
    if (std::isnan(v)) continue;
    if (min_[c].row == kNone || v < min_[c].value) pin(min_[c], v);
    if (max_[c].row == kNone || v > max_[c].value) pin(max_[c], v);
  }
  // The newest row so far was kept for being the newest alone: this one
  // takes its place. A deferred one stays only when it is not replaced.
  const bool replaced = newest != kNone && newest == g - 1 && (g - 1) % stride_ != 0 && newestPins_ == 0;
  if (deferred_) {
    if (!replaced) pushBack(g - 1, deferredT_, deferred_);
    deferred_ = nullptr;
  } else if (replaced) {
    popBack();
  }
  newestPins_ = here;
  // Off the stride, and copying it in would not compact: the next row of the
  // batch decides (as appending it would have, before that row's push).
  if (mayDefer && g % stride_ != 0 && t_.size() + 1 <= most()) {
    deferred_ = row;
    deferredT_ = t;
    return;
  }
  pushBack(g, t, row);
  if (t_.size() > most()) compact();
}

// Doubles the stride until the regular rows fit the target again, and drops
// the rows kept for an extreme that has since moved on.
void DecimatedRows::compact() {
  while ((seen_ + stride_ - 1) / stride_ > target_) stride_ *= 2;
  std::vector<size_t> pinned;  // the rows extremes are held at, ascending
  pinned.reserve(2 * cols_.size());
  for (const auto* side : {&min_, &max_})
    for (const Extreme& e : *side)
      if (e.row != kNone) pinned.push_back(e.row);
  std::sort(pinned.begin(), pinned.end());
  auto p = pinned.begin();
  size_t k = 0;
  for (size_t i = 0; i < g_.size(); ++i) {
    const size_t g = g_[i];
    while (p != pinned.end() && *p < g) ++p;
    const bool held = p != pinned.end() && *p == g;
    if (g % stride_ != 0 && !held && g + 1 != seen_) continue;
    t_[k] = t_[i];
    g_[k] = g;
    for (auto& c : cols_) c[k] = c[i];
    ++k;
  }
  t_.resize(k);
  g_.resize(k);
  for (auto& c : cols_) c.resize(k);  // the capacity stays: reserved for the most rows
  ++generation_;
}

}  // namespace pm
