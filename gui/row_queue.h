// The rows a run hands to the GUI thread between two of its intakes (issue
// 25 point 7): pushed on the thread computing rows, taken in the GUI thread.
// It holds at most `maxRows` of them: when the GUI falls behind (its intakes
// come later than `maxRows` rows), every other row held is dropped and from
// then on only every k-th row is queued (k doubling at each such thinning),
// the newest row always kept. So the GUI's work per intake is bounded and
// it shows the run's newest row after each intake however fast rows come;
// the next intake starts again with every row. The full rows are elsewhere
// (the run's results file): thinned() tells a reader to go there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace pm::gui {

class RowQueue {
 public:
  explicit RowQueue(size_t maxRows = 2048);

  // Rows then have `width` doubles, [t, value per channel]; forgets what is held.
  void setWidth(size_t width);
  // Producer: one row, `width - 1` values after the time t.
  void push(double t, const double* values);
  // Consumer: the rows held, row after row (replacing `rows`' contents; its
  // capacity is reused); returns their number. The last of them is the
  // newest row pushed.
  size_t take(std::vector<double>& rows);

  // Rows pushed since the queue was set up that no take() gave (dropped).
  uint64_t dropped() const;
  bool thinned() const { return dropped() > 0; }
  size_t maxRows() const { return max_; }

 private:
  void thin();

  const size_t max_;
  mutable std::mutex m_;
  size_t width_ = 1;
  std::vector<double> rows_;  // every stride_-th row since the last take
  size_t held_ = 0;           // rows in rows_
  size_t seen_ = 0;           // rows pushed since the last take
  size_t stride_ = 1;
  std::vector<double> newest_;  // the newest row when it is off the stride
  bool newestHeld_ = false;
  uint64_t dropped_ = 0;
};

}  // namespace pm::gui
