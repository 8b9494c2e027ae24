// The "simulator backplane" co-simulation of seed 000 (sec. 5-6): the
// circuit and the mechanism are compiled into two Systems and integrated by
// two IDA instances that exchange the attached actuators' stroke, velocity
// and pressure force every exchange interval H (element/backplane.h says how
// each side sees the other inside an interval). Per interval [t0, t1]:
//   1. the pneumatics restarts at t0 (its actuators' motion changed) and
//      integrates to t1 with the motion extrapolated from the mechanics;
//   2. the pressure force at t1 closes the interpolation line (and the
//      circuit values a user component's force reads, element/backplane.h);
//   3. the mechanics integrates to t1 (IDA stop time t1, so no request
//      falls beyond it) with the interpolated pressure force and its own
//      friction and stop forces;
//   4. the mechanics' x, v at t1 start the next interval.
// Result rows merge both Systems' channels; where both write a channel
// (the actuator's x, v, friction, stop force) the mechanics' value is kept.
#pragma once

#include "element/backplane.h"
#include "model/project.h"
#include "solver/row_consumer.h"
#include "solver/run_control.h"
#include "solver/run_result.h"
#include "solver/system.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace pm {

class CoSimulation {
 public:
  // Compiles one side of the project against the backplane that joins them
  // (the build layer's Compiler::compile with a CouplingRole).
  using SideMaker = std::function<std::unique_ptr<System>(CouplingRole role, Backplane* backplane)>;

  // Makes both sides; throws ProjectError naming `file` when no actuator is
  // attached to the mechanism (nothing to exchange).
  CoSimulation(const SimulationSettings& settings, const std::string& file, const SideMaker& makeSide);
  ~CoSimulation();

  // The channels run() writes, in its column order.
  std::vector<ChannelInfo> channels() const;
  RunResult run(RowConsumer& out, const std::atomic<bool>* cancel = nullptr, RunControl* control = nullptr);

  System& pneumatics() { return *pneu_; }
  System& mechanics() { return *mech_; }

 private:
  Backplane bp_;
  std::unique_ptr<System> pneu_, mech_;
  SimulationSettings settings_;
};

}  // namespace pm
