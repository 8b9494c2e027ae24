// The studio's ONE unit layer: everything the user sees or types goes through
// here; the Project and the engine stay in SI.
//
// Rules (kept deliberately simple):
//   Pa          -> bar. Parameters named p, p0, pA0, pB0, p_set are shown as
//                  gauge pressure "bar(g)" (SI absolute - 101325 Pa); every
//                  other pressure (other parameters, result channels) is
//                  absolute "bar".
//   m           -> mm
//   m3          -> cm3, or l when the value is > 1e-3 m3 (1 l)
//   m3/(s Pa)   -> dm3/(s bar)  (1e-8 SI = 1 unit, ISO 6358 sonic conductance)
//   K           -> °C
//   kg/s, s     -> unchanged
//   anything else is shown unchanged in its SI unit.
// display = (si + offset) * scale;  si = display / scale - offset  (offset in SI,
// so a gauge 0 or 0 °C is exact).
#pragma once

#include "model/component_type.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace pm::gui::units {

constexpr double kGaugeReference = 101325.0;  // Pa, for bar(g)

struct DisplayUnit {
  QString unit;       // what the user sees, e.g. "bar(g)", "cm3", "°C"
  double scale = 1.0;
  double offset = 0.0;  // SI

  double toDisplay(double si) const { return (si + offset) * scale; }
  double toSi(double display) const { return display / scale - offset; }
};

// True for the parameter names whose pressures are shown as gauge.
bool isGaugeParam(const std::string& paramName);

// Display unit of an SI unit string; `siValue` picks cm3 vs l for volumes.
DisplayUnit forUnit(const std::string& siUnit, double siValue = 0.0, bool gauge = false);
// Display unit of a component parameter with its current SI value.
DisplayUnit forParam(const ParamDecl& decl, double siValue);
// Display unit of a result channel ("<id>.<quantity>", SI unit): absolute.
DisplayUnit forChannel(const std::string& siUnit);

// The units a user may pick to show a parameter in (the default one first).
std::vector<DisplayUnit> choices(const ParamDecl& decl);

// Number formatting used everywhere in the studio (6 significant digits).
QString formatNumber(double v);
// The parameter's admissible range in display units, e.g. "(-1.01325, 999)".
QString rangeText(const ParamDecl& decl, const DisplayUnit& du);

// Parses what the user typed for a parameter: a number in the shown unit
// `du`, optionally followed by an explicit unit of the same quantity ("2.5 l",
// "2500 cm3", "7 bar", "6 bar(g)", "20 °C", "293 K", or the SI unit itself).
// Returns the SI value, or nothing with `error` set.
std::optional<double> parseToSi(const QString& text, const ParamDecl& decl, const DisplayUnit& du,
                                QString* error);

}  // namespace pm::gui::units
