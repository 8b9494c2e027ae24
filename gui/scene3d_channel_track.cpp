#include "scene3d_channel_track.h"

#include "engine/engine.h"

#include <algorithm>
#include <cmath>

namespace pm::gui::scene3d {

namespace {
constexpr size_t kKeptScratchRows = 8192;
}  // namespace

void ChannelTrack::setStore(const ResultStore* store, std::vector<std::string> names) {
  store_ = store;
  names_ = std::move(names);
  channel_.assign(names_.size(), -1);
  data_.assign(names_.size(), {});
  t_.clear();
  channelCount_ = 0;
  firstNew_ = 0;
  refresh();
}

bool ChannelTrack::refresh() {
  if (!store_) return false;
  const auto channels = store_->channels();
  const size_t n = store_->rows();
  if (channels.size() != channelCount_ || n < t_.size()) {  // a new run: start over
    channelCount_ = channels.size();
    t_.clear();
    for (size_t k = 0; k < names_.size(); ++k) {
      data_[k].clear();
      channel_[k] = store_->find(names_[k]);
    }
  }
  if (n == t_.size()) return false;
  std::vector<double>& t = newT_;
  std::vector<std::vector<double>>& cols = newCols_;
  store_->copyRows(t_.size(), t, cols);
  firstNew_ = t_.size();
  t_.insert(t_.end(), t.begin(), t.end());
  for (size_t k = 0; k < names_.size(); ++k) {
    const int c = channel_[k];
    if (c >= 0 && static_cast<size_t>(c) < cols.size())
      data_[k].insert(data_[k].end(), cols[static_cast<size_t>(c)].begin(), cols[static_cast<size_t>(c)].end());
  }
  // A start-over's copy of every row is not kept (it can be tens of MB).
  if (t.size() > kKeptScratchRows) {
    newT_ = {};
    newCols_ = {};
  }
  return true;
}

ChannelTrack::Bracket ChannelTrack::bracket(double t) const {
  Bracket b;
  b.i1 = static_cast<size_t>(std::lower_bound(t_.begin(), t_.end(), t) - t_.begin());
  if (b.i1 >= t_.size()) b.i1 = t_.size() - 1;
  b.i0 = b.i1 > 0 ? b.i1 - 1 : 0;
  if (b.i1 != b.i0 && t_[b.i1] > t_[b.i0]) b.w = std::clamp((t - t_[b.i0]) / (t_[b.i1] - t_[b.i0]), 0.0, 1.0);
  return b;
}

size_t ChannelTrack::rowAtOrBefore(double t) const {
  const size_t after =
      static_cast<size_t>(std::upper_bound(t_.begin(), t_.end(), t + 1e-12 * std::max(1.0, std::abs(t))) - t_.begin());
  return after > 0 ? after - 1 : 0;
}

}  // namespace pm::gui::scene3d
