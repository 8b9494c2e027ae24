// The studio's ONE unit layer: everything the user sees or types goes through
// here; the Project and the engine stay in SI (pressures in Pa absolute).
//
// Rules (kept deliberately simple):
//   Pa          -> a pressure, see below; stresses -> MPa
//   m           -> mm
//   m3          -> cm3, or l when the value is > 1e-3 m3 (1 l)
//   m3/(s Pa)   -> dm3/(s bar)  (1e-8 SI = 1 unit, ISO 6358 sonic conductance)
//   K           -> °C
//   kg/s, s     -> unchanged
//   anything else is shown unchanged in its SI unit.
// display = (si + offset) * scale;  si = display / scale - offset  (offset in SI,
// so a gauge 0 or 0 °C is exact).
//
// Pressures: every pressure level (a supply's p, a chamber's pA, a switch's
// p_on) is shown in the studio's one pressure scale, View > Pressure Units:
// "bar (g)" (gauge, the default: absolute minus the project's ambient
// pressure) or "bar (abs)". Plots, the results tree, the property editor, the
// schematic's colour scale and key data, the report and CSV files written in
// display units all ask pressureUnit() below. A pressure difference (a
// cracking pressure, a switching band) has no reference and is shown in "bar".
#pragma once

#include "model/component_type.h"

#include <QObject>
#include <QString>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pm {
struct OverrideTarget;  // build/project_input.h
}

namespace pm::gui::units {

constexpr double kStandardAmbient = 101325.0;  // Pa, when no project says otherwise

struct DisplayUnit {
  QString unit;       // what the user sees, e.g. "bar (g)", "cm3", "°C"
  double scale = 1.0;
  double offset = 0.0;  // SI

  double toDisplay(double si) const { return (si + offset) * scale; }
  double toSi(double display) const { return display / scale - offset; }
};

enum class PressureScale { Gauge, Absolute };

// What a quantity in Pa is: a level whose SI value is absolute (nearly all),
// a level whose SI value is already gauge (a pressure switch's p_on, the
// sensors' p_gauge), a difference, or a mechanical stress.
enum class PressureKind { Absolute, Gauge, Difference, Stress };

// The studio's pressure scale (persisted in QSettings "units/pressure"), the
// ambient pressure gauge values are relative to (the open project's
// simulation.ambient_pressure) and the unit the user chose to show a
// parameter in (per type and parameter, for the session: the property
// editor and the study dialog show it alike). One per application; views
// redraw on changed().
class UnitSettings : public QObject {
  Q_OBJECT
 public:
  static UnitSettings& instance();

  PressureScale pressureScale() const { return scale_; }
  void setPressureScale(PressureScale s);
  double ambient() const { return ambient_; }  // Pa absolute
  void setAmbient(double pa);
  // The unit chosen for parameter `param` of `type` (cylinder_double, bore);
  // empty: none, the default one (forParam). An empty `unit` forgets the choice.
  QString parameterUnit(const std::string& type, const std::string& param) const;
  void setParameterUnit(const std::string& type, const std::string& param, const QString& unit);

 signals:
  void changed();

 private:
  UnitSettings();
  PressureScale scale_ = PressureScale::Gauge;
  double ambient_ = kStandardAmbient;
  std::map<std::string, QString> parameterUnits_;  // "type/param" -> display unit
};

// Kind of a Pa quantity from its name ("p_on", "dp_band", "cyl1.pA") and,
// for names not known, its description ("... gauge ...").
PressureKind pressureKind(const std::string& name, const std::string& doc = {});
// THE pressure conversion: a quantity of kind `k` in scale `s` with gauge
// values relative to `ambient` [Pa].
DisplayUnit pressureUnit(PressureKind k, PressureScale s, double ambient);
// The same in the studio's setting.
DisplayUnit pressureUnit(PressureKind k = PressureKind::Absolute);

// Display unit of an SI unit string; `siValue` picks cm3 vs l for volumes;
// a "Pa" is a pressure level (absolute SI value) in the studio's scale.
DisplayUnit forUnit(const std::string& siUnit, double siValue = 0.0);
// Display unit of a component parameter with its current SI value.
DisplayUnit forParam(const ParamDecl& decl, double siValue);
// Display unit of parameter `decl` of `type` with its current SI value: the
// one the user chose (UnitSettings::parameterUnit), else forParam's.
DisplayUnit chosenUnit(const std::string& type, const ParamDecl& decl, double siValue);
// Display unit of what `--set PATH` sets (a study's parameter): chosenUnit's.
DisplayUnit forTarget(const OverrideTarget& target);
// Display unit of a result channel ("<id>.<quantity>", its SI unit).
DisplayUnit forChannel(const std::string& name, const std::string& siUnit);

// What a channel measures, for an axis title: "pressure", "position"...
// (from its SI unit and, for pressures and angles, its name); empty when
// the unit says nothing (dimensionless signals).
QString quantityName(const std::string& name, const std::string& siUnit);

// A parameter's description as the studio shows it next to its value in
// `du`: a pressure's note on its SI reference ("absolute", "(6 bar gauge =
// 701325 Pa)") replaced by the reference of the unit shown.
QString describe(const ParamDecl& decl, const DisplayUnit& du);

// The units a user may pick to show a parameter in (the default one first).
std::vector<DisplayUnit> choices(const ParamDecl& decl);

// Number formatting used everywhere in the studio (6 significant digits).
QString formatNumber(double v);
// The parameter's admissible range in display units, e.g. "(-1.01325, 999)".
QString rangeText(const ParamDecl& decl, const DisplayUnit& du);

// Parses what the user typed for a parameter: a number in the shown unit
// `du`, optionally followed by an explicit unit of the same quantity ("2.5 l",
// "2500 cm3", "6 bar (g)", "7 bar (abs)", "20 °C", "293 K", or the SI unit
// itself). A bare "bar", "kPa" or "MPa" has the reference of the unit shown
// (gauge when "bar (g)" is shown); a bare "Pa" is the SI value as stored.
// Returns the SI value, or nothing with `error` set.
std::optional<double> parseToSi(const QString& text, const ParamDecl& decl, const DisplayUnit& du,
                                QString* error);

}  // namespace pm::gui::units
