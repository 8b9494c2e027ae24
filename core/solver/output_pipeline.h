// Result rows computed by a second copy of the System, on a second thread
// while the solver goes on (or on the solver's thread, in turn).
//
// A row is a function of (t, y, y') and of the elements' discrete state, but
// a mechanism's costs what a solver step costs: its reactions need their own
// solve. The solver hands each output
// point, with the discrete state there (System::saveDiscrete), to a copy
// compiled from the same project, which loads the discrete state, evaluates
// the row and appends it to the RowConsumer, in order. The solver's System
// is never touched by the copy, so nothing is shared but the queue and the
// store (which locks for its readers already).
//
// Why a copy even on one thread: a mechanism's output moves its expansion's
// anchor and table, and so the solver's path in the last bits; with the rows
// on a copy, the solver's path does not depend on the rows, and the rows are
// the same bit for bit with or without the thread (and on a one-core machine).
//
// Rows travel in batches (a hand-over wakes the worker: about a system call),
// so a reader of the store sees them a batch late; flush() hands over at once
// (interactive runs flush at every row). finish() waits for the last row.
#pragma once

#include "solver/row_consumer.h"
#include "solver/system.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pm {

class OutputPipeline {
 public:
  // With `threaded`, starts the worker, which first builds its System with
  // `compile` (in parallel with the solver's start); else builds it here and
  // computes each row as it is pushed. `N` is the state size.
  OutputPipeline(std::function<std::unique_ptr<System>()> compile, RowConsumer& out, int N, int channels,
                 bool threaded);
  ~OutputPipeline();
  OutputPipeline(const OutputPipeline&) = delete;
  OutputPipeline& operator=(const OutputPipeline&) = delete;

  // Queues the row at t; `discrete` as System::saveDiscrete wrote it, or
  // null when it is the same as the last row's.
  void push(double t, const double* y, const double* yp, const std::vector<double>* discrete);
  // Hands the queued rows over now.
  void flush();
  // Waits until every row pushed is in the store and stops the worker.
  // Returns the worker's error ("" when none); no row after it was stored.
  std::string finish();
  // Runs `task` on the worker with the copy as soon as it can (between two
  // rows), and returns at once. The copy's discrete state is restored after
  // it. Without the thread, nothing (the caller does the work itself).
  void aside(std::function<void(System&)> task);
  bool threaded() const { return threaded_; }
  // True once the worker has failed (the solver may stop early).
  bool failed() const { return failed_.load(std::memory_order_relaxed); }

 private:
  // Rows as records [t, y (N), y' (N), n, discrete (n)], back to back; n =
  // -1: the discrete state has not changed since the last record.
  struct Batch {
    std::vector<double> data;
    int rows = 0;
  };
  static constexpr int kBatchRows = 16;

  void run(std::function<std::unique_ptr<System>()> compile);
  void handOver();
  // Builds the copy; false (error_ set) when that fails.
  bool build(const std::function<std::unique_ptr<System>()>& compile);
  // Rows of a batch into the store; false (error_ set) when one fails.
  bool process(const Batch& b);

  RowConsumer& out_;
  const int N_, channels_;
  Batch filling_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Batch> queue_;  // handed over, not yet taken
  std::vector<Batch> spare_; // emptied batches, for reuse
  bool done_ = false;        // no more rows will come
  std::function<void(System&)> task_;  // aside(), not yet taken
  std::atomic<bool> taskPending_{false};
  std::vector<double> loaded_;  // the discrete state the rows last loaded
  void runTask();
  bool idle_ = false;        // the worker waits for rows
  std::atomic<bool> failed_{false};
  std::string error_;
  std::unique_ptr<System> sys_;  // the copy
  std::vector<double> row_;
  const bool threaded_;
  std::thread worker_;
};

}  // namespace pm
