// Runs one simulation on a worker thread. The GUI polls store() (thread-safe,
// ResultStore::copyRows) while the run is in progress; finished() is emitted
// in the GUI thread when the worker has ended. stop(), pause() and resume()
// act through the run's RunControl, which the solver polls between output
// steps (so they take effect within one output interval of solver work).
#pragma once

#include "engine/engine.h"

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
  void pause();
  void resume();
  bool isRunning() const { return running_; }
  bool isPaused() const { return running_ && control_ && control_->paused(); }
  // Paused and the solver thread is blocked (no more rows will come).
  bool isHeld() const { return running_ && control_ && control_->holding(); }
  // Simulated seconds per wall second for the next and the current run
  // (interactive mode); 0 runs as fast as possible.
  void setPacing(double factor);
  // Interactive mode: a hand operation on component `id` (1 pressed, 0
  // released), applied at the solver's next output step.
  void operate(const std::string& id, double value);
  double pacing() const { return pacing_; }

  // The store of the current (or last) run; never null after start().
  std::shared_ptr<const ResultStore> store() const { return store_; }
  const RunResult& lastResult() const { return result_; }
  // Wall time of the run so far, without the time spent paused.
  double wallSecondsSinceStart() const;

 signals:
  void finished(bool ok);

 private:
  void onWorkerDone(RunResult r);

  std::thread worker_;
  std::shared_ptr<ResultStore> store_;
  std::shared_ptr<RunControl> control_;
  bool running_ = false;
  RunResult result_;
  double pacing_ = 0.0;
  std::chrono::steady_clock::time_point started_, pausedAt_;
  std::chrono::steady_clock::duration pausedFor_{};
};

}  // namespace pm::gui
