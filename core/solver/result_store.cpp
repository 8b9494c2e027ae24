#include "solver/result_store.h"

#include "io/atomic_file.h"
#include "solver/result_file.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>

namespace pm {

namespace {

bool kept(const std::vector<std::string>& keep, const std::string& name) {
  return keep.empty() || std::find(keep.begin(), keep.end(), name) != keep.end();
}

}  // namespace

void ResultStore::keepOnly(std::vector<std::string> names) {
  std::lock_guard lock(m_);
  keep_ = std::move(names);
}

size_t ResultStore::keptCount(const std::vector<ChannelInfo>& all) const {
  std::lock_guard lock(m_);
  return static_cast<size_t>(
      std::count_if(all.begin(), all.end(), [&](const ChannelInfo& c) { return kept(keep_, c.name); }));
}

void ResultStore::setChannels(std::vector<ChannelInfo> channels) {
  std::lock_guard lock(m_);
  channels_.clear();
  source_.clear();
  for (size_t i = 0; i < channels.size(); ++i)
    if (kept(keep_, channels[i].name)) {
      channels_.push_back(std::move(channels[i]));
      source_.push_back(static_cast<int>(i));
    }
  t_.clear();
  data_.assign(channels_.size(), {});
}

std::vector<ChannelInfo> ResultStore::channels() const {
  std::lock_guard lock(m_);
  return channels_;
}

size_t ResultStore::channelCount() const {
  std::lock_guard lock(m_);
  return channels_.size();
}

int ResultStore::find(const std::string& name) const {
  std::lock_guard lock(m_);
  for (size_t i = 0; i < channels_.size(); ++i)
    if (channels_[i].name == name) return static_cast<int>(i);
  return -1;
}

void ResultStore::append(double t, const double* row) {
  std::lock_guard lock(m_);
  t_.push_back(t);
  for (size_t i = 0; i < data_.size(); ++i) data_[i].push_back(row[source_[i]]);
}

void ResultStore::appendColumns(const double* t, const std::vector<const double*>& columns, size_t count) {
  std::lock_guard lock(m_);
  t_.insert(t_.end(), t, t + count);
  for (size_t i = 0; i < data_.size(); ++i) {
    const double* c = columns[static_cast<size_t>(source_[i])];
    data_[i].insert(data_[i].end(), c, c + count);
  }
}

void ResultStore::expectRows(size_t rows) {
  std::lock_guard lock(m_);
  // Beyond the run's output-size limit (2e8 values, build/validation.cpp)
  // the columns grow as rows come instead: a run that was not checked
  // against it reserves nothing it may never fill.
  constexpr double kMaxReserved = 2e8;
  if (rows <= t_.capacity() || static_cast<double>(rows) * static_cast<double>(data_.size() + 1) > kMaxReserved) return;
  t_.reserve(rows);
  for (auto& c : data_) c.reserve(rows);
}

size_t ResultStore::rows() const {
  std::lock_guard lock(m_);
  return t_.size();
}

std::vector<double> ResultStore::times() const {
  std::lock_guard lock(m_);
  return t_;
}

std::vector<double> ResultStore::column(int channel) const {
  std::lock_guard lock(m_);
  return data_.at(channel);
}

std::vector<double> ResultStore::column(const std::string& name) const {
  const int i = find(name);
  if (i < 0) throw std::runtime_error("no result channel '" + name + "'");
  return column(i);
}

double ResultStore::last(const std::string& name) const {
  auto c = column(name);
  if (c.empty()) throw std::runtime_error("no results yet for '" + name + "'");
  return c.back();
}

size_t ResultStore::copyRows(size_t from, std::vector<double>& t, std::vector<std::vector<double>>& cols) const {
  std::lock_guard lock(m_);
  const size_t n = t_.size();
  t.assign(t_.begin() + std::min(from, n), t_.end());
  cols.resize(data_.size());
  for (size_t i = 0; i < data_.size(); ++i) cols[i].assign(data_[i].begin() + std::min(from, n), data_[i].end());
  return n;
}

size_t ResultStore::appendRowsTo(size_t from, std::vector<double>& t, std::vector<std::vector<double>>& cols,
                                 const std::vector<int>& channels) const {
  std::lock_guard lock(m_);
  const size_t n = t_.size(), first = std::min(from, n);
  t.insert(t.end(), t_.begin() + first, t_.end());
  cols.resize(std::max(cols.size(), channels.size()));
  for (size_t k = 0; k < channels.size(); ++k) {
    const int c = channels[k];
    if (c < 0 || static_cast<size_t>(c) >= data_.size()) continue;
    const auto& d = data_[static_cast<size_t>(c)];
    cols[k].insert(cols[k].end(), d.begin() + first, d.end());
  }
  return n;
}

void ResultStore::writeCsv(const std::string& path, const std::vector<std::string>& select) const {
  std::lock_guard lock(m_);
  const std::vector<int> idx = csv::columnsOf(channels_, select);
  auto write = [&](std::ostream& o) {
    std::vector<const ChannelInfo*> shown;
    for (int i : idx) shown.push_back(&channels_[i]);
    csv::putHeader(o, shown);
    for (size_t r = 0; r < t_.size(); ++r) {
      csv::putNumber(o, t_[r]);
      for (int i : idx) {
        o.put(',');
        csv::putNumber(o, data_[i][r]);
      }
      o.put('\n');
    }
  };
  // "-" is standard output (`pneumech simulate -o -`); a file is replaced
  // atomically.
  if (path == "-") {
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw std::runtime_error("standard output: write failed");
    return;
  }
  writeFileAtomically(path, write);
}

}  // namespace pm
