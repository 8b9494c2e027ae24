#include "displacement_step_view.h"

#include "result_buffer.h"

#include <QPaintEvent>

#include <algorithm>
#include <cmath>

namespace pm::gui {

std::string firstSequence(const Project& project) {
  for (const Component& c : project.components)
    if (c.type == "step_sequence") return c.id;
  return {};
}

double stepColumnAt(const DisplacementStepDiagram& d, double t) {
  const size_t n = d.rows.size();
  if (n == 0 || !(t > d.rows.front().t)) return 0.0;
  if (t >= d.tEnd) return double(n);
  size_t k = 0;  // the last step entered at or before t
  while (k + 1 < n && d.rows[k + 1].t <= t) ++k;
  const double t1 = k + 1 < n ? d.rows[k + 1].t : d.tEnd;
  const double f = t1 > d.rows[k].t ? (t - d.rows[k].t) / (t1 - d.rows[k].t) : 0.0;
  return double(k) + std::clamp(f, 0.0, 1.0);
}

void paintDisplacementStep(QPainter& p, const QRectF& r, double mm, const DisplacementStepDiagram& d,
                           const Project& project, double cursorT) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  const size_t nA = d.actuators.size();
  const size_t nCols = d.rows.size() + 1;  // every step entered, then the end of the run
  QFont f = p.font();
  f.setPixelSize(std::max(6, int(std::lround(2.8 * mm))));
  p.setFont(f);
  const double labelW = 24 * mm, headH = 10 * mm, footH = 1 * mm;
  const QRectF plot(r.left() + labelW, r.top() + headH, r.width() - labelW - 3 * mm, r.height() - headH - footH);
  if (nA == 0 || d.rows.empty() || plot.width() <= 0 || plot.height() <= 0) {
    p.drawText(r, Qt::AlignCenter, QStringLiteral("No actuator positions to show."));
    p.restore();
    return;
  }
  const double dx = plot.width() / double(std::max<size_t>(1, nCols - 1));
  auto xAt = [&](size_t col) { return plot.left() + dx * double(col); };
  // Step columns: the step entered (1-based, as drawn in VDI 3260), its name
  // and the time it was entered.
  const QColor grid(200, 200, 200), ink(30, 30, 30), muted(110, 110, 110);
  for (size_t k = 0; k < nCols; ++k) {
    const double x = xAt(k);
    p.setPen(QPen(grid, 0.2 * mm));
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    QString head, sub;
    if (k < d.rows.size()) {
      const auto& row = d.rows[k];
      head = row.name.empty() ? QString::number(row.step + 1) : QString::fromStdString(row.name);
      sub = QString::number(row.t, 'f', 3) + " s";
    } else {
      head = QStringLiteral("end");
      sub = QString::number(d.tEnd, 'f', 3) + " s";
    }
    p.setPen(ink);
    p.drawText(QRectF(x - dx / 2, r.top(), dx, headH * 0.5), Qt::AlignCenter, head);
    p.setPen(muted);
    p.drawText(QRectF(x - dx / 2, r.top() + headH * 0.45, dx, headH * 0.5), Qt::AlignCenter, sub);
  }
  const double bandH = plot.height() / double(nA);
  static const QColor colours[] = {QColor(0, 90, 170), QColor(200, 60, 20), QColor(20, 140, 60),
                                   QColor(140, 40, 160), QColor(180, 130, 0), QColor(0, 140, 150)};
  for (size_t a = 0; a < nA; ++a) {
    const double top = plot.top() + bandH * double(a) + bandH * 0.22, bottom = plot.top() + bandH * double(a + 1) - bandH * 0.12;
    // Position as a fraction of the stroke (of the largest travel when the
    // actuator has no stroke parameter).
    double scale = a < d.strokes.size() ? d.strokes[a] : 0.0;
    if (!(scale > 0)) {
      for (const auto& row : d.rows) scale = std::max(scale, std::abs(row.x[a]));
      if (a < d.xEnd.size()) scale = std::max(scale, std::abs(d.xEnd[a]));
      if (!(scale > 0)) scale = 1.0;
    }
    auto yAt = [&](double x) { return bottom - std::clamp(x / scale, -0.1, 1.1) * (bottom - top); };
    p.setPen(QPen(grid, 0.2 * mm, Qt::DashLine));
    p.drawLine(QPointF(plot.left(), top), QPointF(plot.right(), top));
    p.drawLine(QPointF(plot.left(), bottom), QPointF(plot.right(), bottom));
    p.setPen(muted);
    p.drawText(QRectF(plot.left() - 6 * mm, top - 2 * mm, 5 * mm, 4 * mm), Qt::AlignRight | Qt::AlignVCenter, "1");
    p.drawText(QRectF(plot.left() - 6 * mm, bottom - 2 * mm, 5 * mm, 4 * mm), Qt::AlignRight | Qt::AlignVCenter, "0");
    const Component* c = project.find(d.actuators[a]);
    const QString name = c && !c->label.empty() ? QString::fromStdString(c->label) : QString::fromStdString(d.actuators[a]);
    p.setPen(ink);
    p.drawText(QRectF(r.left(), top, labelW - 7 * mm, bottom - top), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
               name);
    QPolygonF line;
    for (size_t k = 0; k < d.rows.size(); ++k) line << QPointF(xAt(k), yAt(d.rows[k].x[a]));
    if (a < d.xEnd.size()) line << QPointF(xAt(nCols - 1), yAt(d.xEnd[a]));
    p.setPen(QPen(colours[a % 6], 0.6 * mm, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPolyline(line);
  }
  if (std::isfinite(cursorT)) {  // the same red as the plots' cursor
    const double x = plot.left() + dx * stepColumnAt(d, cursorT);
    p.setPen(QPen(QColor(200, 30, 30), 0.4 * mm));
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  p.restore();
}

DisplacementStepView::DisplacementStepView(ResultBuffer* data, QWidget* parent) : QWidget(parent), data_(data) {
  setObjectName("displacementStepView");
  setMinimumHeight(140);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, Qt::white);
  setPalette(pal);
}

void DisplacementStepView::setProject(const Project& project) {
  project_ = project;
  sequence_ = firstSequence(project_);
  recompute();
}

void DisplacementStepView::recompute() {
  diagram_.reset();
  auto store = data_->store();
  if (sequence_.empty()) note_ = tr("The project has no step sequence: no displacement-step diagram.");
  else if (!store || store->rows() == 0) note_ = tr("Run the simulation to see the displacement-step diagram.");
  else {
    try {
      diagram_ = displacementStepDiagram(project_, *store, sequence_);
      note_.clear();
    } catch (const std::exception& e) {
      note_ = QString::fromStdString(e.what());
    }
  }
  update();
}

void DisplacementStepView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const double mm = logicalDpiX() / 25.4;
  if (!diagram_) {
    p.setPen(QColor(110, 110, 110));
    p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, note_);
    return;
  }
  paintDisplacementStep(p, QRectF(rect()).adjusted(6, 6, -6, -6), mm, *diagram_, project_, cursor_);
}

void DisplacementStepView::setCursorTime(double t) {
  if (t == cursor_) return;
  cursor_ = t;
  update();
}

}  // namespace pm::gui
