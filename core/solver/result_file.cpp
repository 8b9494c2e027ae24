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

namespace {

constexpr size_t kBufferBytes = 1 << 20;  // rows are small: write to disk in large pieces

// The fields of one CSV line (no quoting: names and numbers hold no comma).
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> f;
  for (size_t a = 0;;) {
    const size_t b = line.find(',', a);
    f.push_back(line.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
    if (b == std::string_view::npos) return f;
    a = b + 1;
  }
}

}  // namespace

ResultFile::ResultFile(std::string path, std::vector<std::string> select)
    : path_(std::move(path)), select_(std::move(select)), buffer_(new char[kBufferBytes]) {
  out_.rdbuf()->pubsetbuf(buffer_.get(), kBufferBytes);
  out_.open(path_, std::ios::binary | std::ios::trunc);
  if (!out_) throw std::runtime_error(path_ + ": cannot write the results file");
}

ResultFile::~ResultFile() {
  try {
    close();
  } catch (const std::exception&) {
    // a destructor does not throw: close() first to hear of a failure
  }
}

void ResultFile::setChannels(std::vector<ChannelInfo> channels) {
  columns_ = csv::columnsOf(channels, select_);
  std::vector<const ChannelInfo*> shown;
  for (int i : columns_) shown.push_back(&channels[static_cast<size_t>(i)]);
  csv::putHeader(out_, shown);  // before the first row: the writer has nothing yet
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
    out_.write(line_.data(), p - line_.data());
  }
  if (!out_) {
    std::lock_guard lock(m_);
    error_ = path_ + ": writing the results failed (disk full?)";
    failed_ = true;
    cv_.notify_all();
  }
}

void ResultFile::close() {
  if (!out_.is_open()) return;
  if (writer_.joinable()) {
    handOver();
    {
      std::lock_guard lock(m_);
      closing_ = true;
    }
    cv_.notify_all();
    writer_.join();
  }
  out_.flush();
  const bool ok = static_cast<bool>(out_) && !failed_.load();
  out_.close();
  if (!ok) throw std::runtime_error(path_ + ": writing the results failed (disk full?)");
}

void ResultFile::copyColumns(const std::string& from, const std::string& to, const std::vector<std::string>& select) {
  std::ifstream in(from, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line)) throw std::runtime_error(from + ": cannot read the results file");
  // The header's "name [unit]" fields after "time [s]" give the channels.
  std::vector<ChannelInfo> all;
  const auto head = fields(line);
  for (size_t i = 1; i < head.size(); ++i) {
    const std::string_view f = head[i];
    const size_t cut = f.rfind(" [");
    all.push_back({std::string(f.substr(0, cut)), cut == std::string_view::npos ? "" : std::string(f.substr(cut + 2, f.size() - cut - 3))});
  }
  const std::vector<int> idx = csv::columnsOf(all, select);
  auto write = [&](std::ostream& o) {
    // Fields are copied as text: the numbers stay the bytes written.
    for (bool first = true; first || std::getline(in, line); first = false) {
      const auto f = fields(line);
      o << f[0];
      for (int i : idx) {
        if (static_cast<size_t>(i) + 1 >= f.size()) throw std::runtime_error(from + ": a row is cut short");
        o.put(',');
        o << f[static_cast<size_t>(i) + 1];
      }
      o.put('\n');
    }
  };
  if (to == "-") {
    write(std::cout);
    std::cout.flush();
    return;
  }
  writeFileAtomically(to, write);
}

}  // namespace pm
