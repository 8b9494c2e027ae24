// Named result channels sampled at the output interval. The solver appends
// rows; readers (CLI, GUI plots running on another thread) take consistent
// copies at any time while the run is in progress.
#pragma once

#include "solver/channel_info.h"

#include <mutex>
#include <string>
#include <vector>

namespace pm {

class ResultStore {
 public:
  void setChannels(std::vector<ChannelInfo> channels);
  std::vector<ChannelInfo> channels() const;
  int find(const std::string& name) const;  // -1 when absent

  void append(double t, const double* row);
  size_t rows() const;
  std::vector<double> times() const;
  std::vector<double> column(int channel) const;
  std::vector<double> column(const std::string& name) const;  // throws when absent
  // Row count and copy since `from` (for streaming to plots).
  size_t copyRows(size_t from, std::vector<double>& t, std::vector<std::vector<double>>& cols) const;
  double last(const std::string& name) const;

  // Writes "time [s]" then the selected channels (all when empty), atomically; path "-" is stdout.
  void writeCsv(const std::string& path, const std::vector<std::string>& select = {}) const;

 private:
  mutable std::mutex m_;
  std::vector<ChannelInfo> channels_;
  std::vector<double> t_;
  std::vector<std::vector<double>> data_;  // per channel
};

}  // namespace pm
