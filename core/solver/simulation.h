// The one entry point the CLI, the GUI and the tests use to run a project:
// compile, then integrate the whole system as one DAE with SUNDIALS IDA
// (variable-order BDF), with root finding for switching events and a
// consistent re-initialisation after each of them.
#pragma once

#include "model/project.h"
#include "solver/result_store.h"
#include "solver/run_control.h"
#include "solver/system.h"

#include <atomic>
#include <memory>
#include <string>

namespace pm {

class CoSimulation;

struct RunStats {
  long steps = 0;
  long residualEvals = 0;
  long jacobianEvals = 0;
  long events = 0;
  double tReached = 0.0;
  double wallSeconds = 0.0;
  // "monolithic" (one DAE) or "cosimulation" (seed 000 backplane, see
  // solver/cosimulation.h): then the exchange interval, the number of
  // exchanges and each integrator's steps (steps is their sum).
  std::string coupling = "monolithic";
  double exchangeInterval = 0.0;
  long exchanges = 0;
  long stepsPneumatic = 0, stepsMechanical = 0;
  bool outputThread = false;  // the result rows were computed on a second thread
  bool outputCopy = false;    // ... by a copy of the System (on either thread)
  double realTimeFactor() const { return wallSeconds > 0 ? tReached / wallSeconds : 0.0; }
};

enum class RunStatus { Completed, Failed, Cancelled };

struct RunResult {
  RunStatus status = RunStatus::Completed;
  std::string message;
  // Failed runs: the component, joint or part whose state had the largest
  // weighted local error when the solver gave up (empty when unknown).
  std::string object;
  RunStats stats;
  bool ok() const { return status == RunStatus::Completed; }
};

class Simulation {
 public:
  // Compiles the project; throws ProjectError naming `file` on bad input.
  // `options`: switches for tests and pneumech-bench (BuildOptions; what the
  // copies of the System share is the Simulation's own).
  explicit Simulation(const Project& project, const std::string& file = {}, const BuildOptions& options = {});
  ~Simulation();

  // The monolithic System (also when co-simulating, where it serves
  // descriptions: states, channels, equations).
  System& system() { return *system_; }
  const SimulationSettings& settings() const { return settings_; }
  // The channels run() writes: the System's, or the co-simulation's merged set.
  std::vector<ChannelInfo> channels() const;

  // Integrates from 0 to settings().t_end, appending to `out` at every output
  // interval. `cancel` may be set from another thread; `control` (also
  // driven from another thread) adds pause/resume and wall-clock pacing.
  // A run longer than settings().wall_time_limit fails, saying so.
  RunResult run(ResultStore& out, const std::atomic<bool>* cancel = nullptr, RunControl* control = nullptr);

  // Where the result rows are computed (solver/output_pipeline.h). Auto:
  // by a copy of the System for projects with a mechanism, on a second
  // thread where the machine has a second core; by the solver's own System
  // for circuits (their rows are cheap, and the same either way). Thread: by
  // a copy on a second thread, also for circuits. Solver: by a copy on the
  // solver's thread (the same rows as Thread's, bit for bit). A copy needs
  // every element to hand over its discrete state; where one cannot (a
  // scripted controller), the solver's own System computes the rows.
  enum class OutputRows { Auto, Thread, Solver };
  void setOutputRows(OutputRows where) { outputRows_ = where; }

 private:
  RunResult runMonolithic(ResultStore& out, const std::atomic<bool>* cancel, RunControl* control);

  Project project_;  // for the output thread's copy of the System
  std::string file_;
  // How the System and its copy are built; they share options_.shared.
  BuildOptions options_;
  OutputRows outputRows_ = OutputRows::Auto;
  std::unique_ptr<System> system_;
  SimulationSettings settings_;
  std::unique_ptr<CoSimulation> cosim_;  // when settings_.coupling is "cosimulation"
};

}  // namespace pm
