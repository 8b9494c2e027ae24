#include "plot_unit.h"

#include "engine/engine.h"
#include "units.h"

namespace pm::gui {

PlotUnit plotUnit(const std::string& u, double ambient, const std::string& name) {
  if (u == "m") return {"mm", 1e3, 0.0};
  if (u == "Pa") {
    // The studio's pressure units (gauge relative to this run's ambient, or absolute).
    const units::DisplayUnit du = units::pressureUnit(units::pressureKind(name),
                                                      units::UnitSettings::instance().pressureScale(), ambient);
    return {du.unit, du.scale, -du.offset};
  }
  if (u == "K") return {"°C", 1.0, 273.15};
  if (u == "kg/s") return {"Nl/min", 1000.0 * 60.0 / engine::airConstants().rho0, 0.0};
  if (u == "kg") return {"g", 1e3, 0.0};
  if (u == "m/s") return {"m/s", 1.0, 0.0};
  return {QString::fromStdString(u), 1.0, 0.0};
}

}  // namespace pm::gui
