// Runs one simulation on a worker thread. The GUI polls store() (thread-safe,
// ResultStore::copyRows) while the run is in progress; finished() is emitted
// in the GUI thread when the worker has ended. stop() sets the cancel flag.
#pragma once

#include "model/project.h"
#include "solver/result_store.h"
#include "solver/simulation.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <thread>

namespace pm::gui {

class SimulationRunner : public QObject {
  Q_OBJECT
 public:
  explicit SimulationRunner(QObject* parent = nullptr);
  ~SimulationRunner() override;  // cancels and joins a running worker

  // Starts a run of a copy of `project`; false when one is already running.
  bool start(const Project& project, const std::string& file);
  void stop();
  bool isRunning() const { return running_; }

  // The store of the current (or last) run; never null after start().
  std::shared_ptr<const ResultStore> store() const { return store_; }
  const RunResult& lastResult() const { return result_; }
  double wallSecondsSinceStart() const;

 signals:
  void finished(bool ok);

 private:
  void onWorkerDone(RunResult r);

  std::thread worker_;
  std::shared_ptr<ResultStore> store_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  bool running_ = false;
  RunResult result_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace pm::gui
