#include "simulation_runner.h"

#include "model/project_error.h"

#include <QMetaObject>

#include <chrono>
#include <exception>

namespace pm::gui {

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {}

SimulationRunner::~SimulationRunner() {
  if (cancel_) cancel_->store(true);
  if (worker_.joinable()) worker_.join();
}

bool SimulationRunner::start(const Project& project, const std::string& file) {
  if (running_) return false;
  if (worker_.joinable()) worker_.join();
  store_ = std::make_shared<ResultStore>();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  result_ = RunResult{};
  running_ = true;
  started_ = std::chrono::steady_clock::now();

  worker_ = std::thread([this, project, file, store = store_, cancel = cancel_]() {
    RunResult r;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      Simulation sim(project, file);  // compiling may throw ProjectError
      r = sim.run(*store, cancel.get());
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
  if (running_ && cancel_) cancel_->store(true);
}

double SimulationRunner::wallSecondsSinceStart() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void SimulationRunner::onWorkerDone(RunResult r) {
  if (worker_.joinable()) worker_.join();
  result_ = std::move(r);
  running_ = false;
  emit finished(result_.ok());
}

}  // namespace pm::gui
