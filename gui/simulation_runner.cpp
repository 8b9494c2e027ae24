#include "simulation_runner.h"

#include "row_queue.h"

#include <QDir>
#include <QMetaObject>

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>

namespace pm::gui {

// The run's consumer: called on the thread computing rows (the solver's or
// its output thread), in order.
class SimulationRunner::Recorder : public RowConsumer {
 public:
  Recorder(SimulationRunner* owner, std::shared_ptr<ResultStore> checked, bool check, std::shared_ptr<RawResultFile> file)
      : owner_(owner), checked_(std::move(checked)), check_(check), file_(std::move(file)) {}

  void setChannels(std::vector<ChannelInfo> channels) override {
    if (file_) file_->setChannels(channels);
    if (check_) checked_->setChannels(channels);
    {
      std::lock_guard lock(m_);
      queue_.setWidth(channels.size() + 1);
      channels_ = std::move(channels);
      newChannels_ = true;
    }
    post();
  }

  void append(double t, const double* row) override {
    if (file_) file_->append(t, row);
    if (check_) checked_->append(t, row);
    queue_.push(t, row);
    post();
  }

  size_t take(std::vector<double>& rows, std::vector<ChannelInfo>* channels) {
    posted_.store(false);  // a row pushed after this posts again
    // Rows first: rows of the run's width come after its channels were set.
    const size_t n = queue_.take(rows);
    std::lock_guard lock(m_);
    if (newChannels_ && channels) *channels = channels_;
    newChannels_ = false;
    return n;
  }

  bool thinned() const { return queue_.thinned(); }

  // Every row goes whole to the results file on disk (the plotted copy is
  // decimated), so the output-size limit is about that file.
  const char* keptWhere() const override { return file_ ? "in the results file on disk" : "in memory"; }

  // Worker thread, after the run: the file complete on disk.
  void close() {
    if (file_) file_->flush();
  }

 private:
  // One queued call at a time: the GUI thread takes everything that came.
  void post() {
    if (posted_.exchange(true)) return;
    SimulationRunner* o = owner_;
    QMetaObject::invokeMethod(o, [o] { emit o->rowsReady(); }, Qt::QueuedConnection);
  }

  SimulationRunner* owner_;
  std::shared_ptr<ResultStore> checked_;
  const bool check_;
  std::shared_ptr<RawResultFile> file_;
  std::mutex m_;
  std::vector<ChannelInfo> channels_;
  bool newChannels_ = false;
  // At most kIntakeRows rows wait for the GUI thread: a GUI falling behind
  // gets every k-th row and the newest (RowQueue), not a growing backlog.
  RowQueue queue_{kIntakeRows};
  std::atomic<bool> posted_{false};
};

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {}

SimulationRunner::~SimulationRunner() {
  if (control_) control_->requestStop();
  if (worker_.joinable()) worker_.join();
}

bool SimulationRunner::start(const Project& project, const std::string& file) {
  if (running_) return false;
  if (worker_.joinable()) worker_.join();
  recorder_.reset();
  file_.reset();
  checked_ = std::make_shared<ResultStore>();
  std::vector<std::string> checkedNames;
  try {
    checkedNames = engine::deadPointChannels(project);
  } catch (const std::exception&) {
    // The run's compile reports what is wrong with the project.
  }
  if (!checkedNames.empty()) checked_->keepOnly(checkedNames);
  control_ = std::make_shared<RunControl>();
  control_->setPacing(pacing_);
  result_ = RunResult{};
  running_ = true;
  started_ = std::chrono::steady_clock::now();
  pausedFor_ = {};
  try {
    file_ = std::make_shared<RawResultFile>(QDir::tempPath().toStdString());
  } catch (const std::exception&) {
    // The run goes on; saving every row is not offered, only the plotted copy.
  }
  recorder_ = std::make_shared<Recorder>(this, checked_, !checkedNames.empty(), file_);

  worker_ = std::thread([this, project, file, recorder = recorder_, control = control_]() {
    RunResult r;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      engine::CompiledProject sim(project, file);  // compiling may throw ProjectError
      r = engine::stream(sim, *recorder, control.get());
    } catch (const std::exception& e) {
      r.status = RunStatus::Failed;
      r.message = e.what();
      r.stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    try {
      recorder->close();  // the rows of a stopped or failed run are kept too
    } catch (const std::exception& e) {
      if (r.ok()) {
        r.status = RunStatus::Failed;
        r.message = e.what();
      }
    }
    // Delivered in the GUI thread. The destructor joins this thread before
    // the object goes, so `this` is valid here; a call still queued when the
    // runner is deleted is discarded by Qt (the context object is gone).
    QMetaObject::invokeMethod(this, [this, r]() { onWorkerDone(r); }, Qt::QueuedConnection);
  });
  return true;
}

bool SimulationRunner::rowsThinned() const { return recorder_ && recorder_->thinned(); }

size_t SimulationRunner::takeRows(std::vector<double>& rows, std::vector<ChannelInfo>* channels) {
  if (!recorder_) {
    rows.clear();
    return 0;
  }
  return recorder_->take(rows, channels);
}

void SimulationRunner::stop() {
  if (running_ && control_) control_->requestStop();
}

void SimulationRunner::pause() {
  if (!running_ || !control_ || control_->paused()) return;
  control_->pause();
  pausedAt_ = std::chrono::steady_clock::now();
}

void SimulationRunner::resume() {
  if (!running_ || !control_ || !control_->paused()) return;
  pausedFor_ += std::chrono::steady_clock::now() - pausedAt_;
  control_->resume();
}

void SimulationRunner::setPacing(double factor) {
  pacing_ = factor > 0 ? factor : 0.0;
  if (running_ && control_) control_->setPacing(pacing_);
}

void SimulationRunner::operate(const std::string& id, double value) {
  if (running_ && control_) control_->operate(id, value);
}

double SimulationRunner::wallSecondsSinceStart() const {
  const auto now = std::chrono::steady_clock::now();
  auto paused = pausedFor_;
  if (isPaused()) paused += now - pausedAt_;
  return std::chrono::duration<double>(now - started_ - paused).count();
}

void SimulationRunner::onWorkerDone(RunResult r) {
  if (worker_.joinable()) worker_.join();
  if (isPaused()) pausedFor_ += std::chrono::steady_clock::now() - pausedAt_;
  // The solver's own wall clock ran on while paused; report working time.
  r.stats.wallSeconds = std::max(0.0, r.stats.wallSeconds - std::chrono::duration<double>(pausedFor_).count());
  result_ = std::move(r);
  running_ = false;
  emit finished(result_.ok());
}

}  // namespace pm::gui
