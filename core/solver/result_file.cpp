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

void putNumber(std::ostream& o, double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 10).ptr;
  o.write(buf, end - buf);
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

ResultFile::~ResultFile() = default;

void ResultFile::setChannels(std::vector<ChannelInfo> channels) {
  columns_ = csv::columnsOf(channels, select_);
  std::vector<const ChannelInfo*> shown;
  for (int i : columns_) shown.push_back(&channels[static_cast<size_t>(i)]);
  csv::putHeader(out_, shown);
}

void ResultFile::append(double t, const double* row) {
  csv::putNumber(out_, t);
  for (int i : columns_) {
    out_.put(',');
    csv::putNumber(out_, row[i]);
  }
  out_.put('\n');
  if (!out_) throw std::runtime_error(path_ + ": writing the results failed (disk full?)");
  rows_.fetch_add(1, std::memory_order_relaxed);
}

void ResultFile::close() {
  if (!out_.is_open()) return;
  out_.flush();
  const bool ok = static_cast<bool>(out_);
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
