#include "solver/result_file.h"

#include "io/atomic_file.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace pm {

namespace csv {

void putHeader(std::ostream& o, const std::vector<const ChannelInfo*>& channels) {
  o << "time [s]";
  for (const ChannelInfo* c : channels) o << "," << c->name << " [" << c->unit << "]";
  o << "\n";
}

char* formatNumber(char* at, double v) {
  return std::to_chars(at, at + 32, v, std::chars_format::general, 10).ptr;
}

void putNumber(std::ostream& o, double v) {
  char buf[32];
  o.write(buf, formatNumber(buf, v) - buf);
}

std::vector<int> columnsOf(const std::vector<ChannelInfo>& all, const std::vector<std::string>& select) {
  std::vector<int> idx;
  if (select.empty()) {
    for (size_t i = 0; i < all.size(); ++i) idx.push_back(static_cast<int>(i));
    return idx;
  }
  for (const auto& s : select) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const ChannelInfo& c) { return c.name == s; });
    if (it == all.end()) throw std::runtime_error("unknown channel '" + s + "' (see `pneumech info` for the list)");
    idx.push_back(static_cast<int>(it - all.begin()));
  }
  return idx;
}

}  // namespace csv


ResultFile::ResultFile(std::string path, std::vector<std::string> select)
    : path_(std::move(path)), select_(std::move(select)) {
  if (path_ == "-") {
    out_ = &std::cout;
  } else {
    file_ = std::make_unique<AtomicFile>(path_);
    out_ = &file_->stream();
  }
}

ResultFile::~ResultFile() {
  failed_ = true;  // not closed: what is queued is not written
  stopWriter();    // then file_ removes the temporary
}

// Lets the writer write what is queued, and ends it.
void ResultFile::stopWriter() {
  if (!writer_.joinable()) return;
  {
    std::lock_guard lock(m_);
    closing_ = true;
  }
  cv_.notify_all();
  writer_.join();
}

void ResultFile::setChannels(std::vector<ChannelInfo> channels) {
  columns_ = csv::columnsOf(channels, select_);
  std::vector<const ChannelInfo*> shown;
  for (int i : columns_) shown.push_back(&channels[static_cast<size_t>(i)]);
  csv::putHeader(*out_, shown);  // before the first row: the writer has nothing yet
  if (!writer_.joinable()) writer_ = std::thread([this] { writeLoop(); });
}

void ResultFile::append(double t, const double* row) {
  if (failed_.load(std::memory_order_relaxed)) {
    std::lock_guard lock(m_);
    throw std::runtime_error(error_);
  }
  auto& v = filling_.values;
  v.push_back(t);
  for (int i : columns_) v.push_back(row[i]);
  rows_.fetch_add(1, std::memory_order_relaxed);
  if (++filling_.rows == kBatchRows) handOver();
}

// The filled batch to the writer; waits while the disk is far behind.
void ResultFile::handOver() {
  if (filling_.rows == 0) return;
  std::unique_lock lock(m_);
  cv_.wait(lock, [&] { return queue_.size() < kMaxQueued || failed_.load(); });
  queue_.push_back(std::move(filling_));
  filling_ = Batch{};
  if (!spare_.empty()) {
    filling_ = std::move(spare_.back());
    spare_.pop_back();
  }
  cv_.notify_all();
}

void ResultFile::writeLoop() {
  for (;;) {
    Batch b;
    {
      std::unique_lock lock(m_);
      cv_.wait(lock, [&] { return !queue_.empty() || closing_; });
      if (queue_.empty()) return;  // closing, all written
      b = std::move(queue_.front());
      queue_.pop_front();
      cv_.notify_all();  // room for the run's next batch
    }
    if (!failed_.load()) write(b);
    b.values.clear();
    b.rows = 0;
    std::lock_guard lock(m_);
    spare_.push_back(std::move(b));
  }
}

void ResultFile::write(const Batch& b) {
  const size_t width = columns_.size() + 1;
  line_.resize(32 * width + 1);
  for (size_t r = 0; r < b.rows; ++r) {
    // A row's text is made here and written at once: the stream's per-call
    // overhead would cost more than the numbers.
    const double* v = b.values.data() + r * width;
    char* p = csv::formatNumber(line_.data(), v[0]);
    for (size_t c = 1; c < width; ++c) {
      *p++ = ',';
      p = csv::formatNumber(p, v[c]);
    }
    *p++ = '\n';
    out_->write(line_.data(), p - line_.data());
  }
  if (!*out_) {
    std::lock_guard lock(m_);
    error_ = path_ + ": writing the results failed (disk full?)";
    failed_ = true;
    cv_.notify_all();
  }
}

void ResultFile::close() {
  if (!open_) return;
  open_ = false;
  if (writer_.joinable()) handOver();
  stopWriter();
  out_->flush();
  if (!*out_ || failed_.load()) throw std::runtime_error(path_ + ": writing the results failed (disk full?)");
  if (file_) file_->commit();
}

}  // namespace pm
