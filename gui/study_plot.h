// The study dialog's plot: one point per finished variant, a result (or
// parameter) against another; feasible variants filled, infeasible hollow,
// failed ones left out. With "Pareto" on, both axes are objectives to
// minimise and the non-dominated variants are marked and joined. A study
// over a grid of two parameters can instead be drawn as a heat map: one cell
// per grid point coloured by a result, infeasible cells crossed, failed
// ones grey. The drawing is a free function so the PDF report draws the
// same plot (gui/report/report_study.*).
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <string>
#include <vector>

class QPainter;

namespace pm::gui {

// Indices of the points no other point dominates (<= in both, < in one),
// minimising x and y, in increasing x. NaN points take no part.
std::vector<size_t> paretoFront(const std::vector<double>& x, const std::vector<double>& y);

struct StudyPlotData {
  // Scatter: per variant (NaN: not drawn).
  std::vector<double> x, y;
  std::vector<bool> feasible;
  // The values are in display units (study_summary.h) and each label says
  // which: "src.p [bar (g)]".
  QString xLabel, yLabel;
  bool pareto = false;
  std::vector<size_t> front;  // filled by setData when pareto is on
  // Heat map (when heatMap): the grid's values along x and y, and per cell
  // z[i * gridY.size() + j] (x index i, y index j; NaN: failed or not run)
  // and whether it met the constraints.
  bool heatMap = false;
  std::vector<double> gridX, gridY, z;
  std::vector<bool> cellFeasible;
  QString heatXLabel, heatYLabel, zLabel;
};

// The colour of fraction t in [0, 1] of the heat map's range (dark blue
// through teal and green to yellow, a viridis-like ramp).
QColor heatColor(double t);

// Draws `d` into `r`; `px` is the size of one screen pixel in the painter's
// units (1 on screen; the report's device pixels per 1/96 inch).
void drawStudyPlot(QPainter& p, const QRectF& r, const StudyPlotData& d, double px = 1.0);

class StudyPlot : public QWidget {
  Q_OBJECT
 public:
  explicit StudyPlot(QWidget* parent = nullptr);
  void setData(std::vector<double> x, std::vector<double> y, std::vector<bool> feasible, const QString& xLabel,
               const QString& yLabel);
  void setPareto(bool on);
  // Heat map of a two-parameter grid (see StudyPlotData); off: the scatter.
  void setHeatMap(std::vector<double> gridX, std::vector<double> gridY, std::vector<double> z,
                  std::vector<bool> cellFeasible, const QString& xLabel, const QString& yLabel, const QString& zLabel);
  void setHeatMapOn(bool on);
  bool heatMapOn() const { return data_.heatMap; }
  const StudyPlotData& data() const { return data_; }
  const std::vector<size_t>& front() const { return data_.front; }  // empty unless Pareto is on
  size_t pointCount() const;                                         // finite points drawn
  // The plot area's heat-map cell (i, j) centre in widget coordinates.
  QPointF cellCentre(size_t i, size_t j) const;
  QSize sizeHint() const override { return {420, 260}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  StudyPlotData data_;
};

}  // namespace pm::gui
