// A run's rows written to a CSV file as they come, so that a result of any
// length costs no memory (`pneumech simulate -o`; issue 26 point 6). The
// text is the one ResultStore::writeCsv writes, byte for byte: "time [s]",
// then "name [unit]" per channel, numbers as printf's %.10g.
//
// The file is written atomically (io/atomic_file.h): the rows go to a
// temporary beside the target, and close() puts it in place; a run that
// fails, or a ResultFile dropped without close(), leaves the target as it
// was and no temporary. "-" is standard output (written as the rows come).
//
// append() only copies the row: a thread of the file's own formats and
// writes batches of rows, so the run never waits for the disk unless the
// disk falls behind by more than kMaxQueued batches.
#pragma once

#include "io/atomic_file.h"
#include "solver/row_consumer.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <ostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pm {

namespace csv {
// The header line of `channels`, newline included.
void putHeader(std::ostream& o, const std::vector<const ChannelInfo*>& channels);
// One number as %.10g (by to_chars: the stream's own formatting is slow).
void putNumber(std::ostream& o, double v);
// The same text written at `at` (room for 32 characters); returns its end.
char* formatNumber(char* at, double v);
// The indices in `all` of the channels `select` names (every one when
// empty); throws std::runtime_error naming an unknown one.
std::vector<int> columnsOf(const std::vector<ChannelInfo>& all, const std::vector<std::string>& select);
}  // namespace csv

class ResultFile : public RowConsumer {
 public:
  // Starts the temporary of `path` for the channels `select` (all when
  // empty); throws WriteRefused or std::runtime_error naming the file when
  // it cannot.
  explicit ResultFile(std::string path, std::vector<std::string> select = {});
  ~ResultFile() override;

  // Writes the header; throws when `select` names a channel the run lacks.
  void setChannels(std::vector<ChannelInfo> channels) override;
  // Queues the row; throws naming the file once the disk has refused one.
  void append(double t, const double* row) override;
  size_t keptCount(const std::vector<ChannelInfo>&) const override { return 0; }

  // Writes what is queued and puts the file in place; throws naming the
  // file when a write failed (the target is then left as it was). The
  // destructor discards what close() did not put in place.
  void close();
  const std::string& path() const { return path_; }
  size_t rows() const { return rows_.load(std::memory_order_relaxed); }  // appended


 private:
  // Rows as [t, the chosen values], back to back.
  struct Batch {
    std::vector<double> values;
    size_t rows = 0;
  };
  static constexpr size_t kBatchRows = 256;
  static constexpr size_t kMaxQueued = 64;

  void handOver();
  void stopWriter();
  void writeLoop();
  void write(const Batch& b);

  std::string path_;
  std::vector<std::string> select_;
  std::vector<int> columns_;  // in the run's row
  std::unique_ptr<AtomicFile> file_;  // null for standard output
  std::ostream* out_ = nullptr;       // the file's stream, or std::cout
  bool open_ = true;
  std::vector<char> line_;  // one row's text (the writer's)
  std::atomic<size_t> rows_{0};
  Batch filling_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Batch> queue_;
  std::vector<Batch> spare_;
  bool closing_ = false;
  std::string error_;  // the writer's, under m_
  std::atomic<bool> failed_{false};
  std::thread writer_;
};

}  // namespace pm
