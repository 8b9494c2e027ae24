// A time plot for the PDF report, painted with QPainter (vector output, no
// widgets): one or two y axes (one per display unit, left and right), grid on
// round tick values, a legend, the channels converted to engineering units
// (m -> mm, Pa -> the studio's pressure units, gui/units.h, K -> degC,
// kg/s -> Nl/min, kg -> g).
#pragma once

#include "engine/engine.h"
#include "plot_unit.h"

#include <QPainter>
#include <QRectF>
#include <QString>

#include <string>
#include <vector>

namespace pm::gui {

struct PlotSeries {
  QString name;   // legend text
  PlotUnit unit;
  std::vector<double> t, v;  // display units
};

// Reads the named channels (all must exist) into display-unit series.
std::vector<PlotSeries> plotSeries(const ResultStore& rs, const std::vector<std::string>& channels, double ambient);

// Paints the plot into `r` (device pixels); `mm` is the device size of 1 mm.
void paintPlot(QPainter& p, const QRectF& r, double mm, const QString& title, const std::vector<PlotSeries>& series);

}  // namespace pm::gui
