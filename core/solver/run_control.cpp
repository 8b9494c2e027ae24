#include "solver/run_control.h"

#include "model/component_type.h"
#include "model/project.h"

#include <utility>

namespace pm {

bool handOperable(const Component& c) {
  if (c.type == "push_button" || c.type == "selector_switch") return true;
  const ComponentType* t = Registry::instance().find(c.type);
  return t && t->param("manual") && paramValue(c, *t, "manual") > 0.5;
}

void RunControl::requestStop() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
}

void RunControl::pause() {
  std::lock_guard<std::mutex> lock(m_);
  paused_ = true;
}

void RunControl::resume() {
  {
    std::lock_guard<std::mutex> lock(m_);
    paused_ = false;
    pacedStarted_ = false;
  }
  cv_.notify_all();
}

void RunControl::setPacing(double factor) {
  {
    std::lock_guard<std::mutex> lock(m_);
    pacing_ = factor > 0.0 ? factor : 0.0;
    pacedStarted_ = false;
  }
  cv_.notify_all();
}

void RunControl::operate(const std::string& id, double value) {
  std::lock_guard<std::mutex> lock(m_);
  operations_.emplace_back(id, value);
}

std::vector<std::pair<std::string, double>> RunControl::takeOperations() {
  std::lock_guard<std::mutex> lock(m_);
  return std::exchange(operations_, {});
}

bool RunControl::proceed(double t) {
  std::unique_lock<std::mutex> lock(m_);
  if (paused_ && !stop_) {
    holding_ = true;
    cv_.wait(lock, [this] { return !paused_ || stop_; });
    holding_ = false;
  }
  while (!stop_ && !paused_ && pacing_ > 0.0) {
    const auto now = Clock::now();
    if (!pacedStarted_) {
      pacedStarted_ = true;
      pacedWall0_ = now;
      pacedT0_ = t;
      break;
    }
    const auto due = pacedWall0_ + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>((t - pacedT0_) / pacing_));
    if (now >= due) break;
    // Woken early by stop, pause or a pacing change; re-evaluated then.
    cv_.wait_until(lock, due);
  }
  if (paused_ && !stop_) {  // paused while waiting for the wall clock
    lock.unlock();
    return proceed(t);
  }
  return !stop_;
}

}  // namespace pm
