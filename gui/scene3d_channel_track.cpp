#include "scene3d_channel_track.h"

#include "engine/engine.h"

#include <algorithm>
#include <cmath>

namespace pm::gui::scene3d {

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
  const size_t channels = store_->channelCount();
  const size_t n = store_->rows();
  if (channels != channelCount_ || n < t_.size()) {  // a new run: start over
    channelCount_ = channels;
    t_.clear();
    for (size_t k = 0; k < names_.size(); ++k) {
      data_[k].clear();
      channel_[k] = store_->find(names_[k]);
    }
  }
  if (n == t_.size()) return false;
  // Only the named channels of the new rows, straight onto the columns.
  firstNew_ = t_.size();
  store_->appendRowsTo(t_.size(), t_, data_, channel_);
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
