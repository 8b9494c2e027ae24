// The conclusion of a report: does the machine meet the customer's required
// cycle time (meta.required_cycle_time, Metadata::requiredCycleTime) and each cylinder's cushioning limit
// (its catalogue E_cushion_max), and by what margin; and why a chamber's
// pressure rises above the supply pressure where it does. Plain C++.
//
// - Cycle time: the key results' closed cycle time against the requirement;
//   margin = required - simulated (and as a share of the requirement).
// - Cushioning: the largest arrival energy of the cylinder's complete
//   strokes against E_cushion_max; margin = limit - largest energy.
// - Pressure above supply (more than 0.5 % above the highest supply
//   pressure): at the instant of the chamber's peak, "cushioning" when the
//   piston is inside that end's cushion (cushion_length_A from the retracted
//   end, cushion_length_B from the extended end), else "compression by the
//   load": the moving mass or the load drives the piston into the chamber
//   faster than its air escapes (a meter-out throttle, a closed valve).
#pragma once

#include "model/project.h"
#include "results/key_results.h"
#include "results/pressure_text.h"
#include "solver/result_store.h"

#include <string>
#include <vector>

namespace pm {

enum class VerdictStatus { Met, NotMet, NotChecked, Note };

struct Verdict {
  std::string topic;  // "Cycle time", "Cushioning 1A1", "Pressure above supply 1A1 B"
  VerdictStatus status = VerdictStatus::NotChecked;
  double margin = 0.0;  // in the topic's unit (s, J); meaningful for Met / NotMet
  std::string text;     // one or two sentences for the customer
};

// Pressures in the texts are stated in `pressure`'s reference (gauge relative to kr.ambientPressure, or absolute).
// Sub-circuits are seen expanded, as computeKeyResults sees them.
std::vector<Verdict> conclusions(const Project& project, const ResultStore& results, const KeyResults& kr,
                                 PressureReference pressure = PressureReference::Gauge);

}  // namespace pm
