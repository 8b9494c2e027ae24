#include "simulation_runner.h"


#include <QMetaObject>

#include <algorithm>
#include <chrono>
#include <exception>

namespace pm::gui {

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {}

SimulationRunner::~SimulationRunner() {
  if (control_) control_->requestStop();
  if (worker_.joinable()) worker_.join();
}

bool SimulationRunner::start(const Project& project, const std::string& file) {
  if (running_) return false;
  if (worker_.joinable()) worker_.join();
  store_ = std::make_shared<ResultStore>();
  control_ = std::make_shared<RunControl>();
  control_->setPacing(pacing_);
  result_ = RunResult{};
  running_ = true;
  started_ = std::chrono::steady_clock::now();
  pausedFor_ = {};

  worker_ = std::thread([this, project, file, store = store_, control = control_]() {
    RunResult r;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      engine::CompiledProject sim(project, file);  // compiling may throw ProjectError
      r = sim.run(*store, control.get());
    } catch (const std::exception& e) {
      r.status = RunStatus::Failed;
      r.message = e.what();
      r.stats.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // Delivered in the GUI thread. The destructor joins this thread before
    // the object goes, so `this` is valid here; a call still queued when the
    // runner is deleted is discarded by Qt (the context object is gone).
    QMetaObject::invokeMethod(this, [this, r]() { onWorkerDone(r); }, Qt::QueuedConnection);
  });
  return true;
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
