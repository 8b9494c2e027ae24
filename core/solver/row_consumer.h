// Where a run's result rows go. The solver hands every row to one consumer,
// in order, on the thread that computes rows (the solver's own, or its
// output thread): a ResultStore keeps them in memory, a ResultFile writes
// them to disk, the studio's recorder hands them to its window.
#pragma once

#include "solver/channel_info.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace pm {

class RowConsumer {
 public:
  virtual ~RowConsumer() = default;
  // The run's channels, once, before its first row.
  virtual void setChannels(std::vector<ChannelInfo> channels) = 0;
  // One row: the time and a value for every channel setChannels gave, in
  // that order. May throw: the run then fails with the message.
  virtual void append(double t, const double* row) = 0;
  // How many rows the run will hand over, as far as it knows before the
  // first (its output points; fewer when it stops early, a few more are
  // allowed): a consumer that keeps rows may reserve room for them once.
  virtual void expectRows(size_t /*rows*/) {}
  // How many of a run's channels `all` this consumer keeps per row, and
  // where (the run's output-size check and its message; 0 when it keeps
  // none, as a results file the user asked for).
  virtual size_t keptCount(const std::vector<ChannelInfo>& all) const { return all.size(); }
  virtual const char* keptWhere() const { return "in memory"; }
};

// The rows of a run from 0 to tEnd every dt (0, dt, ..., tEnd), for
// RowConsumer::expectRows; 0 (no hint) when that is not a sensible count.
inline size_t outputRowCount(double tEnd, double dt) {
  const double n = std::ceil(tEnd / dt - 1e-9) + 1.0;
  return n >= 1.0 && n < 1e9 ? static_cast<size_t>(n) : 0;
}

}  // namespace pm
