// Control of a running simulation from another thread: stop, pause/resume
// and pacing to wall-clock time. The solver calls proceed() after every
// solver step and before writing each output row; it blocks there while
// the run is paused (or ahead of the wall clock when paced) and returns
// false once a stop is requested. Hand operations are applied there too.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace pm {

struct Component;
class System;

// Whether a click on the component in an interactive run operates it:
// push buttons, selector switches, and valves with manual = 1.
bool handOperable(const Component& c);

// Hands operations (component id, value) to their elements; true when any
// state changed (the solver then treats it as an event).
bool applyOperations(System& sys, const std::vector<std::pair<std::string, double>>& ops);

class RunControl {
 public:
  void requestStop();
  bool stopRequested() const { return stop_.load(); }

  void pause();
  void resume();
  bool paused() const { return paused_.load(); }
  // True while the solver thread is blocked in proceed() because of pause().
  bool holding() const { return holding_.load(); }

  // Paced run: simulated time advances at `factor` times wall-clock time
  // (1 = real time; 0 = as fast as possible). Time spent paused does not count.
  void setPacing(double factor);
  double pacing() const { return pacing_.load(); }

  // Hand operations (interactive mode): component `id` pressed (1) or
  // released (0); applied by the solver after its next proceed().
  void operate(const std::string& id, double value);
  std::vector<std::pair<std::string, double>> takeOperations();
  bool hasOperations() const { return pending_.load(); }

  // Paced runs: the simulated time the wall clock has reached (+inf when
  // not paced or not started), where the solver applies hand operations.
  double pacedTime() const;

  // Called by the solver at simulated time t (non-decreasing). Blocks
  // while paused or while ahead of the paced wall clock (returns early when
  // a hand operation arrives); false: stop.
  bool proceed(double t);

 private:
  using Clock = std::chrono::steady_clock;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::atomic<bool> stop_{false}, paused_{false}, holding_{false}, pending_{false};
  std::atomic<double> pacing_{0.0};
  // Paced runs: wall time at which simulated time `pacedT0_` was reached
  // (reset on every pause and pacing change, so pauses are not caught up).
  bool pacedStarted_ = false;
  Clock::time_point pacedWall0_;
  double pacedT0_ = 0.0;
  std::vector<std::pair<std::string, double>> operations_;
};

// A run's wall-time limit (SimulationSettings::wall_time_limit, the CLI's
// --time-limit): a watch thread raises stop() once the run has taken
// `seconds` of wall time (time `control` holds paused does not count) and
// then asks `control` to stop too. stop() also follows the caller's
// `cancel`, so the solver polls one flag. Without a limit there is no
// thread and stop() is `cancel` itself.
class WallTimeLimit {
 public:
  WallTimeLimit(double seconds, const std::atomic<bool>* cancel, RunControl* control);
  ~WallTimeLimit();
  WallTimeLimit(const WallTimeLimit&) = delete;
  WallTimeLimit& operator=(const WallTimeLimit&) = delete;

  const std::atomic<bool>* stop() const { return seconds_ > 0.0 ? &stop_ : cancel_; }
  bool exceeded() const { return exceeded_.load(); }
  // "the run took longer than its wall-time limit of 2 s (stopped at t = 0.0125 s)"
  std::string message(double tReached) const;

 private:
  void watch();
  double seconds_;
  const std::atomic<bool>* cancel_;
  RunControl* control_;
  std::atomic<bool> stop_{false}, exceeded_{false};
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace pm
