// The bill of materials a buyer reads: per component its function, its
// ISO 1219-2 code, its size in catalogue terms (bore x stroke, nominal flow
// in Nl/min, tube inner/outer diameter, volume) and its part number when a
// catalogue entry was chosen (report.parts). Model parameters (C, b,
// friction) stay out: the report's assumptions list those. Signal and logic
// objects (time switches, sequences, controllers) are the machine's control
// program, listed as one line. Plain C++.
//
// Nominal flow (ISO 6358-1, as catalogues quote qnN): the flow at
// p1 = 6 bar gauge to p2 = 5 bar gauge (ambient 1.01325 bar, T1 = T0 =
// 293.15 K) in normal litres per minute (ISO 8778, rho0 = 1.185 kg/m3):
//   Q = C p1 [1 - ((p2/p1 - b) / (1 - b))^2]^m   (subsonic, p2/p1 > b)
// with C the path's sonic conductance, b its critical pressure ratio and m
// its subsonic index (0.5 classic). C alone sets the ANR volume flow: rho0
// cancels (q_m = C p1 rho0, V_N = q_m / rho0).
#pragma once

#include "model/project.h"
#include "results/pressure_text.h"
#include "results/report_settings.h"

#include <string>
#include <vector>

namespace pm {

struct BomItem {
  std::string code;      // ISO 1219-2 label ("1A1"), may be empty
  std::string id;        // component id
  std::string function;  // what it is and does, in a buyer's words
  std::string size;      // catalogue terms
  std::string part;      // part number of the chosen catalogue entry ("" when none)
  bool operator==(const BomItem&) const = default;
};

// Nominal flow [Nl/min] of a path of sonic conductance C [m3/(s Pa)],
// critical pressure ratio b and subsonic index m (see above).
double nominalFlowNlPerMin(double C, double b, double m = 0.5);

// The items, in project order, then the control line and the notes on
// what the circuit leaves out (unconnected exhausts need silencers, lines
// drawn without tubes). Pressure levels (a supply's, a regulator's setting)
// are stated in `pressure`'s reference, gauge relative to the project's ambient.
// A sub-circuit's parts are listed each, as `<instance>.<inner id>` (the
// project expanded as the compiler expands it).
std::vector<BomItem> billOfMaterials(const Project& project, const ReportSettings& settings,
                                     PressureReference pressure = PressureReference::Gauge);

}  // namespace pm
