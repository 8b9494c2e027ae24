// A run's rows kept on disk as the doubles they are, for the studio (issue
// 26 point 6): append() copies the row into a buffer that goes to the file
// in large writes, on the thread computing rows, with no text formatting
// (the run keeps its speed); the CSV is made when asked for (writeCsv) and
// is the text ResultStore::writeCsv writes for the same rows, byte for byte.
// Every row stays readable at full resolution after the run (forEachRow,
// load), whatever the studio's plotting copy dropped.
//
// The file is an unnamed temporary in `folder` (created, then unlinked at
// once): a crash leaves nothing behind, and no one else can open it.
#pragma once

#include "solver/result_store.h"
#include "solver/row_consumer.h"

#include <functional>
#include <string>
#include <vector>

namespace pm {

class RawResultFile : public RowConsumer {
 public:
  // Throws std::runtime_error naming `folder` when no file can be made there.
  explicit RawResultFile(const std::string& folder);
  ~RawResultFile() override;
  RawResultFile(const RawResultFile&) = delete;
  RawResultFile& operator=(const RawResultFile&) = delete;

  void setChannels(std::vector<ChannelInfo> channels) override;
  // Throws once the disk has refused a write (disk full).
  void append(double t, const double* row) override;
  size_t keptCount(const std::vector<ChannelInfo>&) const override { return 0; }
  // Writes what is buffered; the readers below see every row appended
  // before it. Throws when a write failed.
  void flush();

  const std::vector<ChannelInfo>& channels() const { return channels_; }
  size_t rows() const { return rows_; }

  // Calls `row(t, values)` for every row flushed, in order, with the values
  // of the channels `columns` (indices into channels()).
  void forEachRow(const std::vector<int>& columns, const std::function<void(double, const double*)>& row) const;
  // "time [s]" and the channels `select` (all when empty) as CSV, every row,
  // to `path` atomically (io/atomic_file.h; "-" is standard output). Throws
  // naming the file or an unknown channel.
  void writeCsv(const std::string& path, const std::vector<std::string>& select = {}) const;
  // Every row of the channels `names` (those the run lacks are left out).
  void load(ResultStore& into, const std::vector<std::string>& names) const;

 private:
  void writeOut();

  std::string folder_;
  int fd_ = -1;
  std::vector<ChannelInfo> channels_;
  size_t width_ = 1;  // doubles per row: time and every channel
  std::vector<double> buffer_;
  size_t filled_ = 0;  // doubles in buffer_
  size_t rows_ = 0;    // on disk
  size_t pending_ = 0;  // rows in buffer_
  bool failed_ = false;
};

}  // namespace pm
