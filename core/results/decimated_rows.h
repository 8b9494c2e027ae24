// A bounded copy of a run's rows, for plots and animation of runs of any
// length (issue 26 point 6): the studio keeps this, the full rows go to a
// file. Rows are kept whole (each kept row is a row of the run, so an
// animation frame is a state the system was in), and:
//   - every row while the run is short (up to twice `targetRows`);
//   - after that every stride-th row, the stride doubling as the run grows,
//     so at most about 2 x targetRows of them;
//   - each channel's first row of its exact minimum and of its exact maximum
//     (NaN ignored), at most 2 rows per channel;
//   - the newest row.
// So the memory is at most (2 targetRows + 2 channels + 1) rows whatever the
// run's length, and a plot of the copy shows every channel's true extremes
// and its final value. Rows a short spike lies between may lose the spike
// (only the run's overall extremes are certain).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pm {

class DecimatedRows {
 public:
  explicit DecimatedRows(size_t targetRows = 20000);

  // Forgets every row; rows then have `channels` values.
  void setChannels(size_t channels);
  void append(double t, const double* row);
  // `count` rows at once, row after row as [t, value per channel] (`width`
  // doubles apart): the same rows kept as appending them one by one, but a
  // row that the next one would drop at once (off the stride, its extremes
  // all moved on) is never copied in.
  void append(const double* rows, size_t count, size_t width);

  size_t channels() const { return cols_.size(); }
  size_t rows() const { return t_.size(); }
  size_t rowsSeen() const { return seen_; }
  // Row i of this copy is row index(i) of the run.
  size_t index(size_t i) const { return g_[i]; }
  const std::vector<double>& times() const { return t_; }
  const std::vector<std::vector<double>>& columns() const { return cols_; }
  // Counts the times kept rows were dropped other than the newest being
  // replaced: a reader copying rows incrementally starts over when it changes.
  uint64_t generation() const { return generation_; }
  // Every `stride` rows of the run one is kept (1 while the run is short).
  size_t stride() const { return stride_; }

 private:
  struct Extreme {
    size_t row = kNone;  // run row index
    double value = 0.0;
  };
  static constexpr size_t kNone = static_cast<size_t>(-1);

  void step(double t, const double* row, bool mayDefer);
  void pushBack(size_t g, double t, const double* row);
  void popBack();
  void compact();
  size_t most() const { return 2 * target_ + 2 * cols_.size() + 1; }  // rows before compact()

  size_t target_;
  size_t stride_ = 1;
  size_t seen_ = 0;
  uint64_t generation_ = 0;
  std::vector<double> t_;
  std::vector<std::vector<double>> cols_;
  std::vector<size_t> g_;                    // run row index of each kept row
  std::vector<Extreme> min_, max_;           // per channel
  size_t newestPins_ = 0;                    // extremes held at the newest kept row
  // Within a batch: the newest row, not copied in yet (the next row of the
  // batch decides whether it stays); null otherwise.
  const double* deferred_ = nullptr;
  double deferredT_ = 0.0;
};

}  // namespace pm
