// A local copy of some channels of a ResultStore, named up front and copied
// incrementally while a run appends rows: what the 3D view's layers (part
// poses, contact arrows, latch states, beam stresses) read at the time
// cursor without locking the store at every frame.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pm {
class ResultStore;
}

namespace pm::gui::scene3d {

class ChannelTrack {
 public:
  // Follows `store` (read, never owned; null: no rows) for the channels
  // `names` (a name the store lacks gives an empty column).
  void setStore(const ResultStore* store, std::vector<std::string> names);
  const ResultStore* store() const { return store_; }
  // Pulls the rows appended since the last call, or every row when the store
  // began a new run (different channels, fewer rows); true when rows came.
  bool refresh();
  // The first row the last refresh() brought (0 after a new run began):
  // layers that keep figures over the rows (a largest force) update them
  // from here and start them over at 0.
  size_t firstNew() const { return firstNew_; }

  size_t rows() const { return t_.size(); }
  const std::vector<double>& times() const { return t_; }
  // Column k (index into `names`); has(k): the store has the channel and
  // every row of it was copied.
  bool has(size_t k) const { return k < channel_.size() && channel_[k] >= 0 && data_[k].size() == t_.size(); }
  const std::vector<double>& column(size_t k) const { return data_[k]; }

  // The rows around time t and the later one's weight for linear
  // interpolation; t at or before the first row, or past the last: that
  // row (w = 1). rows() must be > 0.
  struct Bracket {
    size_t i0 = 0, i1 = 0;
    double w = 1.0;
    double at(const std::vector<double>& v) const { return v[i0] * (1 - w) + v[i1] * w; }
  };
  Bracket bracket(double t) const;
  // The row at or just before time t (a row written at an event holds the
  // new state); 0 when t precedes every row.
  size_t rowAtOrBefore(double t) const;

 private:
  const ResultStore* store_ = nullptr;
  std::vector<std::string> names_;
  std::vector<int> channel_;  // per name: the store's channel (-1 absent)
  std::vector<std::vector<double>> data_;
  std::vector<double> t_;
  size_t channelCount_ = 0, firstNew_ = 0;
};

}  // namespace pm::gui::scene3d
