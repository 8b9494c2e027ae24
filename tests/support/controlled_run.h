// A run on a thread of its own under a RunControl, as the studio drives it:
// the test pauses, resumes, stops and operates from its own thread, then
// join()s. A test that fails (returns) while the run goes on stops and joins
// it on the way out instead of destroying a running std::thread.
// Header-only, like test_project.h.
#pragma once

#include "analyses/simulation.h"
#include "model/project.h"
#include "solver/result_store.h"
#include "solver/run_control.h"

#include <chrono>
#include <functional>
#include <thread>

namespace pm::test {

struct ControlledRun {
  Simulation sim;
  ResultStore out;
  RunControl control;
  RunResult result;
  std::thread worker;

  explicit ControlledRun(const Project& p) : sim(p) {}
  ControlledRun(const ControlledRun&) = delete;
  ControlledRun& operator=(const ControlledRun&) = delete;
  ~ControlledRun() {
    if (!worker.joinable()) return;
    control.requestStop();
    control.resume();
    worker.join();
  }

  // Starts the run (control.pause() before: held at its first output step).
  void start() {
    worker = std::thread([this] { result = sim.run(out, nullptr, &control); });
  }
  // Waits for the end of the run.
  void join() { worker.join(); }
};

// Polls f every 2 ms until it holds (true) or `seconds` have passed (false).
inline bool waitFor(const std::function<bool()>& f, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!f()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

}  // namespace pm::test
