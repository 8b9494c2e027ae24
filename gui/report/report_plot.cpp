#include "report_plot.h"

#include "engine/engine.h"
#include "report_page.h"
#include "units.h"

#include <QFontMetricsF>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pm::gui {

using namespace report_colors;

std::vector<PlotSeries> plotSeries(const ResultStore& rs, const std::vector<std::string>& channels, double ambient) {
  std::vector<PlotSeries> out;
  const auto t = rs.times();
  const auto infos = rs.channels();
  for (const auto& name : channels) {
    const int k = rs.find(name);
    if (k < 0) continue;
    PlotSeries s;
    s.name = QString::fromStdString(name);
    s.unit = plotUnit(infos[size_t(k)].unit, ambient, name);
    s.t = t;
    s.v = rs.column(k);
    for (double& v : s.v) v = (v - s.unit.offset) * s.unit.scale;
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

struct Axis {
  double lo = 0, hi = 1, step = 0.2;
};

// Round limits and a 1-2-5 tick step giving about `target` intervals.
Axis niceAxis(double lo, double hi, int target = 5) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
    const double d = std::max(std::abs(hi) * 0.1, 1e-6);
    lo -= d, hi += d;
  }
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  Axis a;
  a.step = step;
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  return a;
}

QString tickText(double v, double step) {
  int dec = 0;  // fewest decimals that write the step exactly (0.25 -> 2)
  while (dec < 6 && std::abs(step * std::pow(10.0, dec) - std::round(step * std::pow(10.0, dec))) > 1e-6) ++dec;
  if (std::abs(v) < step * 1e-6) v = 0;
  return QString::number(v, 'f', std::min(dec, 6));
}

const QColor kSeries[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14),
                          QColor(148, 103, 189), QColor(140, 86, 75)};

}  // namespace

void paintPlot(QPainter& p, const QRectF& r, double mm, const QString& title, const std::vector<PlotSeries>& series) {
  p.save();
  // Units: first one on the left axis, a second one on the right.
  std::vector<QString> units;
  for (const auto& s : series)
    if (std::find(units.begin(), units.end(), s.unit.label) == units.end()) units.push_back(s.unit.label);
  const bool twoAxes = units.size() >= 2;

  double t0 = 0, t1 = 1;
  if (!series.empty() && !series.front().t.empty()) t0 = series.front().t.front(), t1 = series.front().t.back();
  Axis ax = niceAxis(t0, t1);
  ax.lo = t0;  // time starts where the run starts
  Axis ay[2];
  for (int side = 0; side < (twoAxes ? 2 : 1); ++side) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto& s : series)
      if (s.unit.label == units[size_t(side)])
        for (double v : s.v) lo = std::min(lo, v), hi = std::max(hi, v);
    if (units.size() > size_t(side) && units[size_t(side)].endsWith("(g)")) lo = std::min(lo, 0.0);
    // A curve that rests on zero (a retracted cylinder, a vented chamber)
    // with a tiny numerical overshoot below it keeps zero as the axis end.
    if (lo < 0 && hi > 0 && -lo < 0.02 * (hi - lo)) lo = 0;
    if (hi > 0 && lo < 0 && hi < 0.02 * (hi - lo)) hi = 0;
    // Head room so that a curve does not run along the frame.
    const double pad = 0.04 * (hi - lo);
    ay[side] = niceAxis(lo == 0 ? lo : lo - pad, hi == 0 ? hi : hi + pad);
  }

  const QFont small = [&] {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(7.5);
    return f;
  }();
  QFont bold = small;
  bold.setPointSizeF(9);
  bold.setBold(true);
  const QFontMetricsF fm(small, p.device());
  const double lineH = fm.height();

  // Title and legend above the frame.
  p.setFont(bold);
  p.setPen(kInk);
  const double titleH = QFontMetricsF(bold, p.device()).height();
  p.drawText(QRectF(r.left(), r.top(), r.width(), titleH), Qt::AlignLeft | Qt::AlignVCenter, title);
  double lx = r.left(), ly = r.top() + titleH + mm * 1;
  p.setFont(small);
  for (size_t i = 0; i < series.size(); ++i) {
    const QString text = series[i].name + " [" + series[i].unit.label + "]" +
                         (twoAxes ? (series[i].unit.label == units[0] ? " (left axis)" : " (right axis)") : QString());
    const double w = mm * 8 + fm.horizontalAdvance(text) + mm * 5;
    if (lx + w > r.right() && lx > r.left()) lx = r.left(), ly += lineH;
    p.setPen(QPen(kSeries[i % 6], mm * 0.6));
    p.drawLine(QPointF(lx, ly + lineH / 2), QPointF(lx + mm * 6, ly + lineH / 2));
    p.setPen(kInk);
    p.drawText(QPointF(lx + mm * 8, ly + fm.ascent()), text);
    lx += w;
  }
  const double top = ly + 2.2 * lineH + mm * 2;  // legend, then the axis units

  // Frame.
  const double leftW = mm * 14, rightW = twoAxes ? mm * 14 : mm * 4;
  const QRectF f(QPointF(r.left() + leftW, top), QPointF(r.right() - rightW, r.bottom() - lineH * 2 - mm * 2));
  auto X = [&](double t) { return f.left() + (t - ax.lo) / (ax.hi - ax.lo) * f.width(); };
  auto Y = [&](int side, double v) { return f.bottom() - (v - ay[side].lo) / (ay[side].hi - ay[side].lo) * f.height(); };

  p.setPen(QPen(QColor(225, 228, 232), mm * 0.15));
  for (double v = ax.lo; v <= ax.hi + ax.step * 1e-6; v += ax.step) p.drawLine(QPointF(X(v), f.top()), QPointF(X(v), f.bottom()));
  for (double v = ay[0].lo; v <= ay[0].hi + ay[0].step * 1e-6; v += ay[0].step)
    p.drawLine(QPointF(f.left(), Y(0, v)), QPointF(f.right(), Y(0, v)));

  // Tick labels.
  p.setPen(kInk);
  p.setFont(small);
  for (double v = ax.lo; v <= ax.hi + ax.step * 1e-6; v += ax.step) {
    const QString s = tickText(v, ax.step);
    p.drawText(QRectF(X(v) - mm * 10, f.bottom() + mm * 0.8, mm * 20, lineH), Qt::AlignHCenter | Qt::AlignTop, s);
  }
  p.drawText(QRectF(f.left(), f.bottom() + lineH + mm * 1.2, f.width(), lineH), Qt::AlignHCenter | Qt::AlignTop,
             QStringLiteral("time [s]"));
  for (int side = 0; side < (twoAxes ? 2 : 1); ++side) {
    for (double v = ay[side].lo; v <= ay[side].hi + ay[side].step * 1e-6; v += ay[side].step) {
      const QString s = tickText(v, ay[side].step);
      const double y = Y(side, v);
      if (side == 0)
        p.drawText(QRectF(r.left(), y - lineH / 2, leftW - mm * 1.2, lineH), Qt::AlignRight | Qt::AlignVCenter, s);
      else
        p.drawText(QRectF(f.right() + mm * 1.2, y - lineH / 2, rightW - mm * 1.2, lineH), Qt::AlignLeft | Qt::AlignVCenter, s);
    }
  }
  // Unit above each y axis.
  if (!units.empty())
    p.drawText(QRectF(r.left(), f.top() - 1.6 * lineH, leftW + mm * 20, lineH), Qt::AlignLeft | Qt::AlignBottom,
               units[0]);
  if (twoAxes)
    p.drawText(QRectF(f.right() - mm * 20, f.top() - 1.6 * lineH, rightW + mm * 20, lineH),
               Qt::AlignRight | Qt::AlignBottom, units[1]);

  // Curves, clipped to the frame; long runs decimated to min/max per column.
  p.setClipRect(f.adjusted(-mm * 0.5, -mm * 0.5, mm * 0.5, mm * 0.5));
  for (size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const int side = twoAxes && s.unit.label != units[0] ? 1 : 0;
    QPainterPath path;
    const size_t n = std::min(s.t.size(), s.v.size());
    const size_t columns = 1500;
    if (n <= 2 * columns) {
      for (size_t k = 0; k < n; ++k) {
        const QPointF q(X(s.t[k]), Y(side, s.v[k]));
        if (k == 0) path.moveTo(q);
        else path.lineTo(q);
      }
    } else {
      const size_t per = (n + columns - 1) / columns;
      bool first = true;
      for (size_t k0 = 0; k0 < n; k0 += per) {
        const size_t k1 = std::min(n, k0 + per);
        size_t imin = k0, imax = k0;
        for (size_t k = k0; k < k1; ++k) {
          if (s.v[k] < s.v[imin]) imin = k;
          if (s.v[k] > s.v[imax]) imax = k;
        }
        for (size_t k : {std::min(imin, imax), std::max(imin, imax)}) {
          const QPointF q(X(s.t[k]), Y(side, s.v[k]));
          if (first) path.moveTo(q), first = false;
          else path.lineTo(q);
        }
      }
    }
    p.setPen(QPen(kSeries[i % 6], mm * 0.35, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
  }
  p.setClipping(false);
  p.setPen(QPen(QColor(90, 90, 90), mm * 0.25));
  p.setBrush(Qt::NoBrush);
  p.drawRect(f);
  p.restore();
}

}  // namespace pm::gui
