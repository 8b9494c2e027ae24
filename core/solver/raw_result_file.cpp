#include "solver/raw_result_file.h"

#include "io/atomic_file.h"
#include "solver/result_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

namespace pm {

namespace {

constexpr size_t kBufferDoubles = 1 << 17;  // 1 MB: few, large writes
constexpr size_t kReadRows = 4096;

bool writeAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool readAll(int fd, char* p, size_t n, off_t at) {
  while (n > 0) {
    const ssize_t r = ::pread(fd, p, n, at);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
    at += r;
  }
  return true;
}

}  // namespace

RawResultFile::RawResultFile(const std::string& folder) : folder_(folder) {
  std::string name = folder + "/pneumech-results-XXXXXX";
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(folder + ": cannot create a results file: " + std::strerror(errno));
  ::unlink(name.c_str());  // the descriptor keeps it; nothing is left behind
}

RawResultFile::~RawResultFile() {
  if (fd_ >= 0) ::close(fd_);
}

void RawResultFile::setChannels(std::vector<ChannelInfo> channels) {
  channels_ = std::move(channels);
  width_ = channels_.size() + 1;
  buffer_.assign(std::max(kBufferDoubles, width_), 0.0);
  filled_ = 0;
}

void RawResultFile::append(double t, const double* row) {
  if (failed_) throw std::runtime_error("the studio's results file: writing failed (disk full in " + folder_ + "?)");
  if (filled_ + width_ > buffer_.size()) writeOut();
  double* at = buffer_.data() + filled_;
  at[0] = t;
  std::copy(row, row + channels_.size(), at + 1);
  filled_ += width_;
  ++pending_;
}

void RawResultFile::writeOut() {
  if (filled_ == 0) return;
  if (!writeAll(fd_, reinterpret_cast<const char*>(buffer_.data()), filled_ * sizeof(double))) {
    failed_ = true;
    throw std::runtime_error("the studio's results file: writing failed (disk full in " + folder_ + "?)");
  }
  rows_ += pending_;
  pending_ = 0;
  filled_ = 0;
}

void RawResultFile::flush() { writeOut(); }

void RawResultFile::forEachRow(const std::vector<int>& columns,
                               const std::function<void(double, const double*)>& row) const {
  std::vector<double> chunk(kReadRows * width_);
  std::vector<double> picked(columns.size());
  for (size_t r0 = 0; r0 < rows_; r0 += kReadRows) {
    const size_t n = std::min(kReadRows, rows_ - r0);
    const off_t at = static_cast<off_t>(r0 * width_ * sizeof(double));
    if (!readAll(fd_, reinterpret_cast<char*>(chunk.data()), n * width_ * sizeof(double), at))
      throw std::runtime_error("the studio's results file: cannot read it back");
    for (size_t r = 0; r < n; ++r) {
      const double* v = chunk.data() + r * width_;
      for (size_t c = 0; c < columns.size(); ++c) picked[c] = v[1 + columns[c]];
      row(v[0], picked.data());
    }
  }
}

void RawResultFile::writeCsv(const std::string& path, const std::vector<std::string>& select) const {
  const std::vector<int> idx = csv::columnsOf(channels_, select);
  auto write = [&](std::ostream& o) {
    std::vector<const ChannelInfo*> shown;
    for (int i : idx) shown.push_back(&channels_[static_cast<size_t>(i)]);
    csv::putHeader(o, shown);
    // A row's text is made in one piece: the stream's per-call overhead
    // would cost more than the numbers.
    std::vector<char> line(32 * (idx.size() + 1) + 1);
    forEachRow(idx, [&](double t, const double* v) {
      char* p = csv::formatNumber(line.data(), t);
      for (size_t c = 0; c < idx.size(); ++c) {
        *p++ = ',';
        p = csv::formatNumber(p, v[c]);
      }
      *p++ = '\n';
      o.write(line.data(), p - line.data());
    });
  };
  if (path == "-") {
    write(std::cout);
    std::cout.flush();
    if (!std::cout) throw std::runtime_error("standard output: write failed");
    return;
  }
  writeFileAtomically(path, write);
}

void RawResultFile::load(ResultStore& into, const std::vector<std::string>& names) const {
  std::vector<ChannelInfo> kept;
  std::vector<int> idx;
  for (size_t i = 0; i < channels_.size(); ++i)
    if (std::find(names.begin(), names.end(), channels_[i].name) != names.end()) {
      kept.push_back(channels_[i]);
      idx.push_back(static_cast<int>(i));
    }
  into.keepOnly({});
  into.setChannels(kept);
  forEachRow(idx, [&](double t, const double* v) { into.append(t, v); });
}

}  // namespace pm
