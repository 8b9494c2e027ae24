// The valve signal that starts a cylinder stroke, for the stroke time "from
// signal" that vendors' sizing tools quote (switching time plus dead time
// plus movement time).
//
// - Driving valves of a cylinder: the on/off directional valves (types with
//   a spool channel "s" and a switching time "t_switch") whose working port
//   (2 or 4) reaches one of the cylinder's chamber ports through the
//   circuit's lines and line elements (tubes, flow controls, restrictions,
//   quick exhaust, check and logic valves; never through another valve,
//   actuator or supply, nor out of an exhaust port).
// - Command instant: where the valve's spool starts its last travel at or
//   before the stroke's movement start. The spool leaves its old position
//   at the command and moves at 1/t_switch (full travel per t_switch), so
//   the instant is the first sample of the travel minus the travel seen
//   there times t_switch: exact while the travel spans an output sample,
//   else (t_switch shorter than an output interval) within one interval.
// Plain C++.
#pragma once

#include "model/project.h"

#include <string>
#include <vector>

namespace pm {

// Ids of every on/off directional valve of the project, in project order.
std::vector<std::string> onOffValves(const Project& project);

// Ids of the valves driving cylinder `cylinderId`, in project order.
std::vector<std::string> drivingValves(const Project& project, const std::string& cylinderId);

// The command instant of the spool travel in progress at sample `i`, or
// else of the last one that ended before it; NaN when the spool channel
// `s` shows no travel in [t[0], t[i]]. `tSwitch` [s]: full travel time.
double commandInstant(const std::vector<double>& t, const std::vector<double>& s, double tSwitch, size_t i);

}  // namespace pm
