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

StudyPlot::StudyPlot(QWidget* parent) : QWidget(parent) {
  setMinimumSize(320, 200);
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

void StudyPlot::setData(std::vector<double> x, std::vector<double> y, std::vector<bool> feasible, const QString& xLabel,
                        const QString& yLabel) {
  x_ = std::move(x);
  y_ = std::move(y);
  feasible_ = std::move(feasible);
  xLabel_ = xLabel;
  yLabel_ = yLabel;
  front_ = pareto_ ? paretoFront(x_, y_) : std::vector<size_t>{};
  update();
}

void StudyPlot::setPareto(bool on) {
  pareto_ = on;
  front_ = pareto_ ? paretoFront(x_, y_) : std::vector<size_t>{};
  update();
}

size_t StudyPlot::pointCount() const {
  size_t n = 0;
  for (size_t i = 0; i < x_.size() && i < y_.size(); ++i) n += std::isfinite(x_[i]) && std::isfinite(y_[i]);
  return n;
}

void StudyPlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF area = QRectF(rect()).adjusted(64, 12, -16, -40);
  p.setPen(palette().color(QPalette::Text));
  p.drawRect(area);
  p.drawText(QRectF(area.left(), area.bottom() + 18, area.width(), 20), Qt::AlignHCenter, xLabel_);
  p.save();
  p.translate(14, area.center().y());
  p.rotate(-90);
  p.drawText(QRectF(-area.height() / 2, -12, area.height(), 20), Qt::AlignHCenter, yLabel_);
  p.restore();
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (size_t i = 0; i < x_.size() && i < y_.size(); ++i)
    if (std::isfinite(x_[i]) && std::isfinite(y_[i])) {
      x0 = std::min(x0, x_[i]), x1 = std::max(x1, x_[i]);
      y0 = std::min(y0, y_[i]), y1 = std::max(y1, y_[i]);
    }
  if (!(x1 >= x0)) {
    p.drawText(area, Qt::AlignCenter, tr("no finished variants"));
    return;
  }
  // 5 % room so that the extreme points are not cut by the frame.
  const double px = 0.05 * (x1 - x0), py = 0.05 * (y1 - y0);
  x0 -= px, x1 += px, y0 -= py, y1 += py;
  if (x1 == x0) x0 -= 0.5 * std::max(1e-12, std::abs(x0)), x1 += 0.5 * std::max(1e-12, std::abs(x1));
  if (y1 == y0) y0 -= 0.5 * std::max(1e-12, std::abs(y0)), y1 += 0.5 * std::max(1e-12, std::abs(y1));
  auto at = [&](size_t i) {
    return QPointF(area.left() + (x_[i] - x0) / (x1 - x0) * area.width(),
                   area.bottom() - (y_[i] - y0) / (y1 - y0) * area.height());
  };
  p.drawText(QRectF(area.left() - 60, area.bottom() - 8, 56, 16), Qt::AlignRight, QString::number(y0, 'g', 4));
  p.drawText(QRectF(area.left() - 60, area.top() - 8, 56, 16), Qt::AlignRight, QString::number(y1, 'g', 4));
  p.drawText(QRectF(area.left(), area.bottom() + 2, 80, 16), Qt::AlignLeft, QString::number(x0, 'g', 4));
  p.drawText(QRectF(area.right() - 80, area.bottom() + 2, 80, 16), Qt::AlignRight, QString::number(x1, 'g', 4));
  const QColor blue(40, 90, 200), red(210, 40, 40);
  for (size_t i = 0; i < x_.size() && i < y_.size(); ++i) {
    if (!std::isfinite(x_[i]) || !std::isfinite(y_[i])) continue;
    p.setPen(QPen(blue, 1.5));
    p.setBrush(i < feasible_.size() && feasible_[i] ? QBrush(blue) : Qt::NoBrush);
    p.drawEllipse(at(i), 4, 4);
  }
  if (!front_.empty()) {
    QPainterPath line;
    line.moveTo(at(front_[0]));
    for (size_t k = 1; k < front_.size(); ++k) line.lineTo(at(front_[k]));
    p.setPen(QPen(red, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawPath(line);
    for (size_t i : front_) p.drawEllipse(at(i), 6, 6);
  }
}

}  // namespace pm::gui
