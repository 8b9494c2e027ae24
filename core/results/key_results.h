// Key results: the answers a sales engineer reads off a run (stroke times,
// impact speeds and energies, peak pressures, cycle time, air consumption,
// joint loads), computed from a Project and its ResultStore. Shared by the
// CLI (`pneumech results`), the studio and the PDF report. Plain C++.
//
// Definitions (all times linearly interpolated between output samples):
// - End zones of a cylinder: x <= 1 % of the stroke (retracted) and
//   x >= 99 % of the stroke (extended).
// - A stroke starts when the piston leaves an end zone (x crosses 1 % or
//   99 % of the stroke) and ends when it enters the other end zone; its time
//   is end - start. A motion that leaves an end zone and returns to it, or
//   is still under way when the run ends, is listed as incomplete. Its
//   movement time is end - start.
// - Direction is the actual motion: an incomplete stroke that turns round
//   (x back from its farthest point by more than an end zone's width, 1 % of
//   the stroke, and that point more than that beyond the end zone it left)
//   is split there: an incomplete stroke out, ending where it comes within
//   1 % of the stroke of the turn, then an incomplete stroke back (it did not
//   start from an end zone), starting where it leaves that band again (after
//   a dwell at the turn, say). Wobbles inside
//   a stroke and a rebound that barely leaves the end stop's zone do not
//   split a stroke.
// - Stroke time from signal (total stroke time, as vendors' sizing tools
//   quote it: switching time + dead time + movement time): from the signal
//   instant to the stroke's end. The signal instant is when the command of
//   a valve driving the cylinder last changed at or before the movement
//   start (results/stroke_signal.h: the on/off directional valves whose
//   working port reaches a chamber through lines, tubes, flow controls and
//   the like; the instant from the valve's spool channel). It must lie after
//   the cylinder's previous movement start; for the first stroke, a valve
//   that did not move before it has been in position since the run's start,
//   which is then the signal instant. No driving valve (a proportional
//   valve, a cylinder fed otherwise): no signal instant (NaN).
// - Arrival speed: the piston speed when it touches the end stop (x crosses 0
//   or the stroke), extrapolated from the two output samples before contact
//   so that the stop's rebound inside one output interval does not hide it;
//   if the piston never touches the stop during the run, the speed where the
//   stroke ended (the 1 % mark). Arrival energy: 1/2 m v^2 with the
//   cylinder's moving mass parameter "mass" (a cylinder coupled to a
//   mechanism drives more mass than that: read the joint loads then).
// - Allowed cushioning energy: the cylinder's catalogue figure E_cushion_max
//   (0: not given); a complete stroke whose arrival energy exceeds it is
//   flagged, as catalogues ask the designer to add external shock absorbers.
// - Cycle time: from the first stroke start of any cylinder to the end of the
//   last complete stroke. The cycle is "closed" when at that instant every
//   cylinder that moved is back in the end zone it started from; otherwise
//   the figure is the motion time of an open cycle (e.g. a single extension).
// - Air consumption per cycle: the mass every supply delivers from the
//   cycle's start to the end of the run (including the filling after the
//   last stroke), in normal litres of ISO 8778 (ANR: 20 degC, 100 kPa,
//   65 % RH, rho_N = gas::rho0 = 1.185 kg/m3): V_N = m / rho_N. The cycle
//   starts at the first command of an on/off directional valve (the last
//   output sample before its spool's first travel; the run's start for a
//   valve actuated from the start), or at an
//   earlier stroke's signal or start. What the supplies deliver before it is
//   the circuit pressurising from its initial state (say, a rod chamber
//   filling that a real cycle never empties): it is reported apart
//   (airMassBeforeCycle) and not counted. Without an on/off valve (servo
//   circuits) the whole run counts. Per minute: times the stated cycles per
//   minute (default: the run repeated back to back, 60 / t_end).
// - Pressures: absolute as computed; gauge = absolute - the simulation's
//   ambient pressure.
#pragma once

#include "model/project.h"
#include "results/contact_results.h"
#include "solver/result_store.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace pm {

struct StrokeResult {
  bool extend = true;      // direction: true = extension (x increasing)
  bool complete = true;    // reached the other end zone within the run
  double tStart = 0.0;     // s, left the end zone (or turned round mid-stroke)
  double tEnd = 0.0;       // s, entered an end zone (or turned round, or the run's end)
  double vMax = 0.0;       // m/s, largest |v| during the stroke
  double tContact = -1.0;  // s, touched the end stop (-1: not within the run)
  double vArrival = 0.0;   // m/s, |v| at arrival (see the definitions above)
  double eArrival = 0.0;   // J, 1/2 m vArrival^2
  // eArrival above the cylinder's catalogue cushioning energy (E_cushion_max > 0).
  bool exceedsCushioning = false;
  double tSignal = std::numeric_limits<double>::quiet_NaN();  // s, the valve signal (NaN: none found)
  std::string valve;                                          // the valve whose command it was
  double duration() const { return tEnd - tStart; }           // movement time
  double fromSignal() const { return tEnd - tSignal; }        // stroke time from signal (NaN without one)
  bool hasSignal() const { return !std::isnan(tSignal); }
};

struct CylinderResult {
  std::string id, label, type;
  double stroke = 0.0;  // m
  double bore = 0.0, rod = 0.0;  // m (rod 0: the type has none)
  double mass = 0.0;    // kg, moving mass
  double eCushionMax = 0.0;  // J, allowed cushioning energy from the catalogue (0: not given)
  std::vector<StrokeResult> strokes;
  double vMax = 0.0;                     // m/s, over the run
  double pAMax = 0.0, pBMax = 0.0;       // Pa absolute (pBMax 0 when there is no chamber B)
  bool hasB = false;
  double forceMax = 0.0;                 // N, largest |F_pressure| (net pneumatic force)
  // The first complete extension / retraction, or null.
  const StrokeResult* firstStroke(bool extend) const;
};

struct SupplyResult {
  std::string id, label;
  double mass = 0.0;          // kg delivered in the cycle (see airFrom)
  double normalLitres = 0.0;  // Nl (ISO 8778)
  double massRun = 0.0;       // kg delivered over the whole run
};

struct JointLoadResult {
  std::string id, type;
  double forceMax = 0.0, tForceMax = 0.0;    // N, |(Fx, Fy, Fz)|
  double torqueMax = 0.0, tTorqueMax = 0.0;  // N m, |(Tx, Ty, Tz)|
};

struct KeyResultOptions {
  double cyclesPerMinute = 0.0;  // 0: 60 / t_end (the run repeated back to back)
  double endZone = 0.01;         // fraction of the stroke
};

struct KeyResults {
  std::string title;
  double tEnd = 0.0;             // s, last output time
  double ambientPressure = 0.0;  // Pa
  std::vector<CylinderResult> cylinders;
  std::vector<SupplyResult> supplies;
  std::vector<JointLoadResult> joints;
  std::vector<ContactPairResult> contacts;  // results/contact_results.h
  std::vector<LatchResult> latches;

  bool hasCycle = false;      // at least one complete stroke
  bool cycleClosed = false;   // every cylinder that moved is back where it started
  double cycleStart = 0.0, cycleEnd = 0.0;
  double cycleTime() const { return cycleEnd - cycleStart; }

  double airFrom = 0.0;          // s, where the counted cycle starts
  double airMassBeforeCycle = 0.0;  // kg, initial filling before airFrom (not counted)
  double airMass = 0.0;          // kg per cycle, all supplies
  double airNormalLitres = 0.0;  // Nl per cycle
  double cyclesPerMinute = 0.0;
  double airNormalLitresPerMinute() const { return airNormalLitres * cyclesPerMinute; }

  std::string toText() const;
  nlohmann::json toJson() const;
};

// Normal litres (ISO 8778) of a mass of air.
double normalLitres(double massKg);

// Cylinder types with a "stroke" parameter and x, v, pA(, pB) channels.
bool isCylinderType(const std::string& type);

// The channels computeKeyResults (and the report's conclusions) read: a
// store holding only these, every row, gives the same key results as the
// run's full store. Some may be absent from a run (a single-acting
// cylinder's pB).
std::vector<std::string> keyResultChannels(const Project& project);

// Throws std::runtime_error when a channel a listed object should have is
// missing from `results` (a store that does not belong to the project).
// Both see sub-circuits expanded, as the run does (build/subcircuit_expansion.h:
// expandedView): an inner cylinder is `<instance>.<inner id>`.
KeyResults computeKeyResults(const Project& project, const ResultStore& results, const KeyResultOptions& options = {});

}  // namespace pm
