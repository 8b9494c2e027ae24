#include "solver/run_control.h"

#include "model/component_type.h"
#include "model/project.h"
#include "solver/system.h"

#include "model/message_text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pm {

bool handOperable(const Component& c) {
  if (c.type == "push_button" || c.type == "selector_switch") return true;
  const ComponentType* t = Registry::instance().find(c.type);
  return t && t->param("manual") && paramValue(c, *t, "manual") > 0.5;
}

bool applyOperations(System& sys, const std::vector<std::pair<std::string, double>>& ops) {
  bool changed = false;
  sys.discreteMayHaveChanged();
  for (const auto& [id, value] : ops)
    for (const auto& e : sys.elements())
      if (e->id() == id) changed = e->operate(value) || changed;
  return changed;
}

void RunControl::requestStop() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
}

void RunControl::pause() {
  {
    std::lock_guard<std::mutex> lock(m_);
    paused_ = true;
  }
  cv_.notify_all();  // a paced wait holds at once
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
  {
    std::lock_guard<std::mutex> lock(m_);
    operations_.emplace_back(id, value);
    pending_ = true;
  }
  cv_.notify_all();  // a paced wait returns to apply it
}

double RunControl::pacedTime() const {
  std::lock_guard<std::mutex> lock(m_);
  if (pacing_ <= 0.0 || !pacedStarted_) return std::numeric_limits<double>::infinity();
  return pacedT0_ + std::chrono::duration<double>(Clock::now() - pacedWall0_).count() * pacing_;
}

std::vector<std::pair<std::string, double>> RunControl::takeOperations() {
  if (!pending_.load()) return {};  // the solver asks at every step: no lock then
  std::lock_guard<std::mutex> lock(m_);
  pending_ = false;
  return std::exchange(operations_, {});
}

bool RunControl::proceed(double t) {
  // Called at every solver step: no lock while there is nothing to do.
  if (!paused_.load() && !stop_.load() && pacing_.load() <= 0.0) return true;
  std::unique_lock<std::mutex> lock(m_);
  if (paused_ && !stop_) {
    holding_ = true;
    cv_.wait(lock, [this] { return !paused_ || stop_; });
    holding_ = false;
  }
  while (!stop_ && !paused_ && !pending_ && pacing_ > 0.0) {
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

WallTimeLimit::WallTimeLimit(double seconds, const std::atomic<bool>* cancel, RunControl* control)
    : seconds_(seconds > 0.0 && std::isfinite(seconds) ? seconds : 0.0), cancel_(cancel), control_(control) {
  if (seconds_ > 0.0) thread_ = std::thread([this] { watch(); });
}

WallTimeLimit::~WallTimeLimit() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void WallTimeLimit::watch() {
  using Clock = std::chrono::steady_clock;
  // Wakes every few milliseconds: to follow `cancel` and to leave paused
  // time out of the count.
  constexpr double kPoll = 0.01;
  double used = 0.0;
  auto last = Clock::now();
  std::unique_lock<std::mutex> lock(m_);
  while (!done_) {
    const double wait = std::clamp(seconds_ - used, 0.0, kPoll);
    cv_.wait_for(lock, std::chrono::duration<double>(wait), [this] { return done_; });
    if (done_) return;
    const auto now = Clock::now();
    if (!(control_ && control_->paused())) used += std::chrono::duration<double>(now - last).count();
    last = now;
    if (cancel_ && cancel_->load()) stop_ = true;
    if (used >= seconds_) {
      exceeded_ = true;
      stop_ = true;
      if (control_) control_->requestStop();
      return;
    }
  }
}

std::string WallTimeLimit::message(double tReached) const {
  return "the run took longer than its wall-time limit of " + numberText(seconds_) + " s (stopped at t = " +
         numberText(tReached) + " s; simulation.wall_time_limit, or --time-limit on the command line)";
}

}  // namespace pm
