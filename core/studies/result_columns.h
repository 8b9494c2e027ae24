// The key results a study collects, by name (docs/file-format.md,
// "studies"): read off KeyResults (results/key_results.h) and the run's
// channels. A value that a run does not define (no complete extension, no
// closed cycle) is NaN: the table leaves it empty and a constraint on it is
// not met.
//
//   cycle_time [s], air_per_cycle [Nl], air_mass [kg], air_per_minute [Nl/min]
//   CYL.extend_time, CYL.retract_time [s]              first complete stroke's movement time
//   CYL.extend_time_from_signal, CYL.retract_time_from_signal [s]
//   CYL.impact_speed [m/s], CYL.impact_energy [J]      largest over the complete strokes
//   CYL.v_max [m/s], CYL.pA_max, CYL.pB_max [Pa abs], CYL.force_max [N]
//   SUPPLY.air [Nl]
//   JOINT.force_max [N], JOINT.torque_max [N m]
//   max(CHANNEL), min(CHANNEL), final(CHANNEL)        any channel of the run
#pragma once

#include "model/project.h"
#include "results/key_results.h"
#include "solver/result_store.h"

#include <string>
#include <vector>

namespace pm::studies {

// The unit of result `name` in `project` whose run writes `channels`;
// throws ProjectError naming `file`, `object` and `field` for an unknown
// result, object or channel.
std::string resultUnit(const std::string& name, const Project& project, const std::vector<ChannelInfo>& channels,
                       const std::string& file, const std::string& object, const std::string& field);

// The value of result `name` (checked by resultUnit) of a finished run.
double resultValue(const std::string& name, const KeyResults& keyResults, const ResultStore& results);

}  // namespace pm::studies
