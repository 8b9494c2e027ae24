// The display unit of a plotted SI quantity: m -> mm, Pa -> the studio's
// pressure units (gui/units.h), K -> degC, kg/s -> Nl/min, kg -> g, others
// as they are. The report's plots and the studio's study dialog (its plot and
// table) and the report's study section all convert through this one.
#pragma once

#include <QString>

#include <string>

namespace pm::gui {

struct PlotUnit {
  QString label;       // "mm", "bar (g)"
  double scale = 1.0;  // display = (si - offset) * scale
  double offset = 0.0;
};

// Display unit of a channel's SI unit; a pressure (kind from the channel's
// `name`) in the studio's pressure units, gauge relative to `ambient` [Pa].
PlotUnit plotUnit(const std::string& siUnit, double ambient, const std::string& name = {});

}  // namespace pm::gui
