// The transient analysis of a project, the one the CLI, the studio (both
// through engine/engine.h) and the tests run: compile it (build/compiler.h),
// then integrate the whole system as one DAE with SUNDIALS IDA
// (solver/integration_run.h: variable-order BDF, root finding for switching
// events, a consistent re-initialisation after each of them), or its two
// sides co-simulated (solver/cosimulation.h).
#pragma once

#include "model/project.h"
#include "solver/row_consumer.h"
#include "solver/run_control.h"
#include "solver/run_result.h"
#include "solver/system.h"

#include <atomic>
#include <memory>
#include <string>

namespace pm {

class CoSimulation;

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
  RunResult run(RowConsumer& out, const std::atomic<bool>* cancel = nullptr, RunControl* control = nullptr);

  // Ends the runs at `t` instead of the project's t_end (the modal
  // analysis's run to its operating point); t = 0 runs to the consistent start alone.
  void setEndTime(double t) { settings_.t_end = t; }

  // Where the result rows are computed (solver/run_result.h).
  void setOutputRows(OutputRows where) { outputRows_ = where; }

 private:
  RunResult runMonolithic(RowConsumer& out, const std::atomic<bool>* cancel, RunControl* control);

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
