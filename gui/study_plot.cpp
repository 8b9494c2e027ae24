#include "study_plot.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pm::gui {

std::vector<size_t> paretoFront(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<size_t> idx;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    if (std::isfinite(x[i]) && std::isfinite(y[i])) idx.push_back(i);
  // By x, then y: a point is on the front when its y is below every y before it.
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return x[a] != x[b] ? x[a] < x[b] : y[a] < y[b]; });
  std::vector<size_t> front;
  double best = std::numeric_limits<double>::infinity();
  for (size_t i : idx)
    if (y[i] < best) {
      front.push_back(i);
      best = y[i];
    }
  return front;
}

QColor heatColor(double t) {
  // Five stops of viridis, linear between them.
  static const double stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 4.0;
  const int k = std::min(3, static_cast<int>(t));
  const double f = t - k;
  auto mix = [&](int c) { return static_cast<int>(std::lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c]))); };
  return QColor(mix(0), mix(1), mix(2));
}

namespace {

QString num(double v) { return QString::number(v, 'g', 4); }

// The frame and the axis titles; the plot area inside.
QRectF frame(QPainter& p, const QRectF& r, const QString& xLabel, const QString& yLabel, double px, double right) {
  const QRectF area = r.adjusted(84 * px, 12 * px, -(16 + right) * px, -40 * px);
  p.drawRect(area);
  p.drawText(QRectF(area.left(), area.bottom() + 18 * px, area.width(), 20 * px), Qt::AlignHCenter, xLabel);
  p.save();
  p.translate(r.left() + 14 * px, area.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-area.height() / 2, -12 * px, area.height(), 20 * px), Qt::AlignHCenter, yLabel);
  p.restore();
  return area;
}

void yTicks(QPainter& p, const QRectF& area, const QString& lo, const QString& hi, double px) {
  p.drawText(QRectF(area.left() - 80 * px, area.bottom() - 8 * px, 76 * px, 16 * px), Qt::AlignRight | Qt::AlignVCenter, lo);
  p.drawText(QRectF(area.left() - 80 * px, area.top() - 8 * px, 76 * px, 16 * px), Qt::AlignRight | Qt::AlignVCenter, hi);
}

QRectF heatArea(const QRectF& r, const StudyPlotData& d, double px) {
  (void)d;
  return r.adjusted(84 * px, 12 * px, -(16 + 70) * px, -40 * px);
}

void drawHeatMap(QPainter& p, const QRectF& r, const StudyPlotData& d, double px) {
  const QColor ink = p.pen().color();
  const QRectF area = frame(p, r, d.heatXLabel, d.heatYLabel, px, 70);
  const size_t nx = d.gridX.size(), ny = d.gridY.size();
  if (nx == 0 || ny == 0 || d.z.size() != nx * ny) {
    p.drawText(area, Qt::AlignCenter, QObject::tr("a heat map needs a grid of two parameters"));
    return;
  }
  double z0 = std::numeric_limits<double>::infinity(), z1 = -z0;
  for (double v : d.z)
    if (std::isfinite(v)) z0 = std::min(z0, v), z1 = std::max(z1, v);
  const double cw = area.width() / nx, ch = area.height() / ny;
  for (size_t i = 0; i < nx; ++i)
    for (size_t j = 0; j < ny; ++j) {
      const QRectF cell(area.left() + i * cw, area.bottom() - (j + 1) * ch, cw, ch);
      const double v = d.z[i * ny + j];
      const double t = z1 > z0 ? (v - z0) / (z1 - z0) : 0.5;
      p.fillRect(cell, std::isfinite(v) ? heatColor(t) : QColor(190, 190, 190));
      if (std::isfinite(v) && i * ny + j < d.cellFeasible.size() && !d.cellFeasible[i * ny + j]) {
        p.setPen(QPen(Qt::white, 1.5 * px));  // infeasible: crossed
        p.drawLine(cell.topLeft(), cell.bottomRight());
        p.drawLine(cell.topRight(), cell.bottomLeft());
      }
    }
  p.setPen(ink);
  p.setBrush(Qt::NoBrush);
  p.drawRect(area);
  // The grid's values at the cells' centres (first and last).
  auto xLabelAt = [&](size_t i) {
    p.drawText(QRectF(area.left() + (i + 0.5) * cw - 40 * px, area.bottom() + 2 * px, 80 * px, 16 * px),
               Qt::AlignHCenter, QString::number(d.gridX[i], 'g', 6));
  };
  xLabelAt(0);
  if (nx > 1) xLabelAt(nx - 1);
  p.drawText(QRectF(area.left() - 80 * px, area.bottom() - 0.5 * ch - 8 * px, 76 * px, 16 * px),
             Qt::AlignRight | Qt::AlignVCenter, QString::number(d.gridY[0], 'g', 6));
  if (ny > 1)
    p.drawText(QRectF(area.left() - 80 * px, area.top() + 0.5 * ch - 8 * px, 76 * px, 16 * px),
               Qt::AlignRight | Qt::AlignVCenter, QString::number(d.gridY[ny - 1], 'g', 6));
  // The colour bar with the result's range.
  const QRectF bar(area.right() + 10 * px, area.top(), 12 * px, area.height());
  const int steps = 32;
  for (int k = 0; k < steps; ++k)
    p.fillRect(QRectF(bar.left(), bar.bottom() - (k + 1) * bar.height() / steps, bar.width(), bar.height() / steps + px),
               heatColor((k + 0.5) / steps));
  p.drawRect(bar);
  if (z1 >= z0) {
    p.drawText(QRectF(bar.right() + 3 * px, bar.top() - 2 * px, 60 * px, 16 * px), Qt::AlignLeft, num(z1));
    p.drawText(QRectF(bar.right() + 3 * px, bar.bottom() - 14 * px, 60 * px, 16 * px), Qt::AlignLeft, num(z0));
  }
  p.save();
  p.translate(bar.right() + 30 * px, bar.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-bar.height() / 2, -8 * px, bar.height(), 20 * px), Qt::AlignHCenter, d.zLabel);
  p.restore();
}

void drawScatter(QPainter& p, const QRectF& r, const StudyPlotData& d, double px) {
  const QRectF area = frame(p, r, d.xLabel, d.yLabel, px, 0);
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (size_t i = 0; i < d.x.size() && i < d.y.size(); ++i)
    if (std::isfinite(d.x[i]) && std::isfinite(d.y[i])) {
      x0 = std::min(x0, d.x[i]), x1 = std::max(x1, d.x[i]);
      y0 = std::min(y0, d.y[i]), y1 = std::max(y1, d.y[i]);
    }
  if (!(x1 >= x0)) {
    p.drawText(area, Qt::AlignCenter, QObject::tr("no finished variants"));
    return;
  }
  // 5 % room so that the extreme points are not cut by the frame.
  const double mx = 0.05 * (x1 - x0), my = 0.05 * (y1 - y0);
  x0 -= mx, x1 += mx, y0 -= my, y1 += my;
  if (x1 == x0) x0 -= 0.5 * std::max(1e-12, std::abs(x0)), x1 += 0.5 * std::max(1e-12, std::abs(x1));
  if (y1 == y0) y0 -= 0.5 * std::max(1e-12, std::abs(y0)), y1 += 0.5 * std::max(1e-12, std::abs(y1));
  auto at = [&](size_t i) {
    return QPointF(area.left() + (d.x[i] - x0) / (x1 - x0) * area.width(),
                   area.bottom() - (d.y[i] - y0) / (y1 - y0) * area.height());
  };
  yTicks(p, area, num(y0), num(y1), px);
  p.drawText(QRectF(area.left(), area.bottom() + 2 * px, 80 * px, 16 * px), Qt::AlignLeft, num(x0));
  p.drawText(QRectF(area.right() - 80 * px, area.bottom() + 2 * px, 80 * px, 16 * px), Qt::AlignRight, num(x1));
  const QColor blue(40, 90, 200), red(210, 40, 40);
  for (size_t i = 0; i < d.x.size() && i < d.y.size(); ++i) {
    if (!std::isfinite(d.x[i]) || !std::isfinite(d.y[i])) continue;
    p.setPen(QPen(blue, 1.5 * px));
    p.setBrush(i < d.feasible.size() && d.feasible[i] ? QBrush(blue) : Qt::NoBrush);
    p.drawEllipse(at(i), 4 * px, 4 * px);
  }
  if (!d.front.empty()) {
    QPainterPath line;
    line.moveTo(at(d.front[0]));
    for (size_t k = 1; k < d.front.size(); ++k) line.lineTo(at(d.front[k]));
    p.setPen(QPen(red, 1.5 * px));
    p.setBrush(Qt::NoBrush);
    p.drawPath(line);
    for (size_t i : d.front) p.drawEllipse(at(i), 6 * px, 6 * px);
  }
}

}  // namespace

void drawStudyPlot(QPainter& p, const QRectF& r, const StudyPlotData& d, double px) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  if (d.heatMap) drawHeatMap(p, r, d, px);
  else drawScatter(p, r, d, px);
  p.restore();
}

StudyPlot::StudyPlot(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 200);
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

void StudyPlot::setData(std::vector<double> x, std::vector<double> y, std::vector<bool> feasible, const QString& xLabel,
                        const QString& yLabel) {
  data_.x = std::move(x);
  data_.y = std::move(y);
  data_.feasible = std::move(feasible);
  data_.xLabel = xLabel;
  data_.yLabel = yLabel;
  data_.front = data_.pareto ? paretoFront(data_.x, data_.y) : std::vector<size_t>{};
  update();
}

void StudyPlot::setPareto(bool on) {
  data_.pareto = on;
  data_.front = on ? paretoFront(data_.x, data_.y) : std::vector<size_t>{};
  update();
}

void StudyPlot::setHeatMap(std::vector<double> gridX, std::vector<double> gridY, std::vector<double> z,
                           std::vector<bool> cellFeasible, const QString& xLabel, const QString& yLabel,
                           const QString& zLabel) {
  data_.gridX = std::move(gridX);
  data_.gridY = std::move(gridY);
  data_.z = std::move(z);
  data_.cellFeasible = std::move(cellFeasible);
  data_.heatXLabel = xLabel;
  data_.heatYLabel = yLabel;
  data_.zLabel = zLabel;
  update();
}

void StudyPlot::setHeatMapOn(bool on) {
  data_.heatMap = on;
  update();
}

size_t StudyPlot::pointCount() const {
  size_t n = 0;
  for (size_t i = 0; i < data_.x.size() && i < data_.y.size(); ++i)
    n += std::isfinite(data_.x[i]) && std::isfinite(data_.y[i]);
  return n;
}

QPointF StudyPlot::cellCentre(size_t i, size_t j) const {
  const QRectF area = heatArea(QRectF(rect()), data_, 1.0);
  const double cw = area.width() / std::max<size_t>(1, data_.gridX.size());
  const double ch = area.height() / std::max<size_t>(1, data_.gridY.size());
  return {area.left() + (i + 0.5) * cw, area.bottom() - (j + 0.5) * ch};
}

void StudyPlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setPen(palette().color(QPalette::Text));
  drawStudyPlot(p, QRectF(rect()), data_, 1.0);
}

}  // namespace pm::gui
