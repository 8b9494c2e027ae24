// Named result channels sampled at the output interval, held in memory. The
// solver appends rows (the store is a RowConsumer); readers on other threads
// take consistent copies at any time while the run is in progress.
#pragma once

#include "solver/channel_info.h"
#include "solver/row_consumer.h"

#include <mutex>
#include <string>
#include <vector>

namespace pm {

class ResultStore : public RowConsumer {
 public:
  // The channels to hold (all when empty), set before the run: setChannels
  // then keeps only these (in the run's column order) and append() takes the
  // run's full row, storing only their values. Memory is spent on what is
  // kept alone (`pneumech simulate --channels`). Names the run lacks are ignored.
  void keepOnly(std::vector<std::string> names);
  const std::vector<std::string>& keptNames() const { return keep_; }
  // How many of `all` (a run's channels) this store would hold.
  size_t keptCount(const std::vector<ChannelInfo>& all) const override;

  void setChannels(std::vector<ChannelInfo> channels) override;
  std::vector<ChannelInfo> channels() const;  // the held ones
  size_t channelCount() const;
  int find(const std::string& name) const;  // -1 when absent

  void append(double t, const double* row) override;
  // `count` rows under one lock, given column by column: times t[0..count)
  // and, per channel of the run (as append()'s row), columns[j][0..count).
  void appendColumns(const double* t, const std::vector<const double*>& columns, size_t count);
  // Reserves every held column for `rows` (growing by doubling would copy
  // each column about once more and hold up to twice its size meanwhile).
  void expectRows(size_t rows) override;
  size_t rows() const;
  std::vector<double> times() const;
  std::vector<double> column(int channel) const;
  std::vector<double> column(const std::string& name) const;  // throws when absent
  // Row count and copy since `from` (for streaming to plots).
  size_t copyRows(size_t from, std::vector<double>& t, std::vector<std::vector<double>>& cols) const;
  // The same for some channels: appends the rows since `from` to `t` and of
  // held channel `channels[k]` to `cols[k]` (left alone for -1); returns the
  // row count.
  size_t appendRowsTo(size_t from, std::vector<double>& t, std::vector<std::vector<double>>& cols,
                      const std::vector<int>& channels) const;
  double last(const std::string& name) const;

  // Writes "time [s]" then the selected channels (all when empty), atomically; path "-" is stdout.
  // The text is ResultFile's (solver/result_file.h), byte for byte.
  void writeCsv(const std::string& path, const std::vector<std::string>& select = {}) const;

 private:
  mutable std::mutex m_;
  std::vector<std::string> keep_;  // empty: all
  std::vector<ChannelInfo> channels_;
  std::vector<int> source_;  // per held channel, its column in append()'s row
  std::vector<double> t_;
  std::vector<std::vector<double>> data_;  // per channel
};

}  // namespace pm
