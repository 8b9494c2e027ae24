// Runs one simulation on a worker thread through engine::stream. The rows
// are pushed, never polled: the run's recorder (a RowConsumer, on the thread
// computing rows) writes each row to the run's results file (the doubles,
// unformatted: the CSV is made when saved), keeps the rows
// of the channels the after-run checks read, and queues the row for the GUI
// thread, posting rowsReady() there once per batch (the next post waits
// until takeRows() has taken the batch, so a busy window is never flooded).
// The queue is bounded (RowQueue): a GUI thread slower than the rows gets
// every k-th row and the newest at each intake, so it never lags behind.
// finished() is emitted in the GUI thread when the worker has ended.
// stop(), pause() and resume() act through the run's RunControl, which the
// solver polls between output steps (so they take effect within one output
// interval of solver work).
#pragma once

#include "engine/engine.h"

#include <QObject>
#include <QString>

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

  // GUI thread: the rows that came since the last call, row after row as
  // [t, value per channel]; `channels` is filled (else left alone) when the
  // run's channels came with them (a new run's first rows). Returns the
  // number of rows.
  size_t takeRows(std::vector<double>& rows, std::vector<ChannelInfo>* channels);
  // At most this many rows wait between two takeRows(): a GUI thread that
  // falls behind gets every k-th row and the newest (RowQueue).
  static constexpr size_t kIntakeRows = 2048;
  // Rows of the current (or last) run were left out of takeRows() (the GUI
  // fell behind); every row is in resultsFile().
  bool rowsThinned() const;

  // The current (or last) run's every row of the channels the checks after
  // a run read (engine::deadPointChannels); never null after start().
  std::shared_ptr<const ResultStore> checkedRows() const { return checked_; }
  // The results file of the current (or last) run: every channel, every
  // row (its writeCsv() gives the bytes `pneumech simulate -o` writes for the
  // same run). Read it once finished() came; null before the first run or
  // when it could not be created. Gone with the last holder.
  std::shared_ptr<const RawResultFile> resultsFile() const { return file_; }
  const RunResult& lastResult() const { return result_; }
  // Wall time of the run so far, without the time spent paused.
  double wallSecondsSinceStart() const;

 signals:
  void rowsReady();  // takeRows() has rows
  void finished(bool ok);

 private:
  class Recorder;
  void onWorkerDone(RunResult r);

  std::thread worker_;
  std::shared_ptr<Recorder> recorder_;
  std::shared_ptr<ResultStore> checked_;
  std::shared_ptr<RawResultFile> file_;
  std::shared_ptr<RunControl> control_;
  bool running_ = false;
  RunResult result_;
  double pacing_ = 0.0;
  std::chrono::steady_clock::time_point started_, pausedAt_;
  std::chrono::steady_clock::duration pausedFor_{};
};

}  // namespace pm::gui
