#include "analyses/simulation.h"

#include "build/compiler.h"
#include "model/project_error.h"
#include "solver/cosimulation.h"
#include "solver/integration_run.h"

namespace pm {

Simulation::Simulation(const Project& project, const std::string& file, const BuildOptions& options)
    : project_(project),
      file_(file),
      options_([&] {
        BuildOptions o = options;
        o.shared = std::make_shared<SharedAcrossCopies>();
        o.solverCopy = true;
        return o;
      }()),
      system_(Compiler::compile(project, file, options_)),
      settings_(project.simulation) {
  // A run integrates the dynamics: what only it needs (a part with mass) is
  // checked here (the compiler leaves it to the runs, as the analyses accept it).
  for (const auto& el : system_->elements()) el->checkForRun(file);
  if (settings_.coupling == "cosimulation") {
    BuildOptions switches;  // the multibody switches; nothing shared: the sides are no copies of system_
    switches.lumpFixedJoints = options.lumpFixedJoints;
    switches.forceDense = options.forceDense;
    if (project.mechanism.empty())
      throw ProjectError(file, "simulation", "coupling",
                         "co-simulation couples a circuit with a mechanism; this project has no mechanism");
    cosim_ = std::make_unique<CoSimulation>(settings_, file, [&](CouplingRole role, Backplane* backplane) {
      return Compiler::compile(project, file, role, backplane, switches);
    });
  }
}

Simulation::~Simulation() = default;

std::vector<ChannelInfo> Simulation::channels() const {
  return cosim_ ? cosim_->channels() : system_->channels();
}

RunResult Simulation::run(RowConsumer& out, const std::atomic<bool>* cancel, RunControl* control) {
  const WallTimeLimit limit(settings_.wall_time_limit, cancel, control);
  RunResult r = cosim_ ? cosim_->run(out, limit.stop(), control) : runMonolithic(out, limit.stop(), control);
  if (limit.exceeded() && r.status != RunStatus::Completed) {
    r.status = RunStatus::Failed;
    r.message = limit.message(r.stats.tReached);
    r.object.clear();
  }
  return r;
}

RunResult Simulation::runMonolithic(RowConsumer& out, const std::atomic<bool>* cancel, RunControl* control) {
  IntegrationRun run(*system_, settings_, out, cancel, control, outputRows_, [this] {
    BuildOptions copy = options_;
    copy.solverCopy = false;
    return Compiler::compile(project_, file_, copy);
  });
  return run.run();
}

}  // namespace pm
