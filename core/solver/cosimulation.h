// The "simulator backplane" co-simulation of seed 000 (sec. 5-6): the
// circuit and the mechanism are compiled into two Systems and integrated by
// two IDA instances that exchange the attached actuators' stroke, velocity
// and pressure force every exchange interval H (element/backplane.h says how
// each side sees the other inside an interval). Per interval [t0, t1]:
//   1. the pneumatics restarts at t0 (its actuators' motion changed) and
//      integrates to t1 with the motion extrapolated from the mechanics;
//   2. the pressure force at t1 closes the interpolation line;
//   3. the mechanics integrates to t1 (IDA stop time t1, so no request
//      falls beyond it) with the interpolated pressure force and its own
//      friction and stop forces;
//   4. the mechanics' x, v at t1 start the next interval.
// Result rows merge both Systems' channels; where both write a channel
// (the actuator's x, v, friction, stop force) the mechanics' value is kept.
#pragma once

#include "element/backplane.h"
#include "model/project.h"
#include "solver/result_store.h"
#include "solver/simulation.h"
#include "solver/system.h"

#include <atomic>
#include <memory>
#include <string>

namespace pm {

class CoSimulation {
 public:
  // Compiles both sides; throws ProjectError naming `file` on bad input.
  // `options`: the switches of BuildOptions (nothing is shared).
  CoSimulation(const Project& project, const std::string& file = {}, const BuildOptions& options = {});
  ~CoSimulation();

  // The channels run() writes, in its column order.
  std::vector<ChannelInfo> channels() const;
  RunResult run(ResultStore& out, const std::atomic<bool>* cancel = nullptr, RunControl* control = nullptr);

  System& pneumatics() { return *pneu_; }
  System& mechanics() { return *mech_; }

 private:
  Backplane bp_;
  std::unique_ptr<System> pneu_, mech_;
  SimulationSettings settings_;
};

}  // namespace pm
