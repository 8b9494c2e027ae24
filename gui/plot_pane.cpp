#include "plot_pane.h"

#include "export_size_dialog.h"

#include "result_buffer.h"
#include "units.h"

#include <QChart>
#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFontMetricsF>
#include <QFileDialog>
#include <QGraphicsLayout>
#include <QImage>
#include <QLegendMarker>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QLineSeries>
#include <QMenu>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTimer>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace pm::gui {

namespace {

QString unitOf(const ResultBuffer::Channel& c) {
  if (c.unit.empty() || c.unit == "1") return QStringLiteral("-");
  return units::forChannel(c.name, c.unit).unit;
}

// "pressure pA, pB [bar (g)]": what the channels on one axis measure, their
// names within their objects, and the unit; shorter forms follow, for an
// axis too short to show it ("pressure [bar (g)]", "[bar (g)]").
QStringList axisTitles(const QString& unit, const std::vector<const ResultBuffer::Channel*>& channels) {
  QStringList quantities, symbols;
  for (const ResultBuffer::Channel* c : channels) {
    const QString q = units::quantityName(c->name, c->unit);
    if (!q.isEmpty() && !quantities.contains(q)) quantities << q;
    if (!symbols.contains(c->quantity)) symbols << c->quantity;
  }
  if (symbols.size() > 3) symbols = symbols.mid(0, 3) << QStringLiteral("…");
  const QString u = QString("[%1]").arg(unit);
  QString what = quantities.join(", ");
  if (!symbols.isEmpty()) what += (what.isEmpty() ? QString() : QStringLiteral(" ")) + symbols.join(", ");
  QStringList titles{what + " " + u};
  if (!quantities.isEmpty()) titles << quantities.join(", ") + " " + u;
  titles << u;
  return titles;
}

// Round axis limits on a 1-2-2.5-5 step with at most 6 intervals.
void setNiceRange(QValueAxis* axis, double lo, double hi) {
  const double raw = (hi - lo) / 6.0;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw * (1 - 1e-9)) {
      step = m * mag;
      break;
    }
  const double a = std::floor(lo / step + 1e-9) * step, b = std::ceil(hi / step - 1e-9) * step;
  axis->setRange(a, b);
  axis->setTickCount(std::clamp(int(std::lround((b - a) / step)) + 1, 2, 12));
}

// Channel names carried by a drag from the results tree.
std::vector<std::string> droppedNames(const QMimeData* mime) {
  std::vector<std::string> names;
  if (!mime || !mime->hasFormat(kChannelMime)) return names;
  for (const QByteArray& line : mime->data(kChannelMime).split('\n'))
    if (!line.trimmed().isEmpty()) names.push_back(line.trimmed().toStdString());
  return names;
}

}  // namespace

PlotPane::PlotPane(ResultBuffer* data, QWidget* parent) : QChartView(parent), data_(data) {
  chart_ = new QChart;
  // The legend beside the plot: it stays in view however low the pane is,
  // and the height goes to the curves and the axis titles (the panes are
  // wide, seldom high).
  chart_->legend()->setAlignment(Qt::AlignRight);
  chart_->legend()->setVisible(true);
  // Little frame around the plot: the pane's height goes to the curves.
  chart_->setMargins(QMargins(2, 2, 6, 2));
  chart_->setBackgroundRoundness(0);
  if (chart_->layout()) chart_->layout()->setContentsMargins(0, 0, 0, 0);
  QFont small = chart_->legend()->font();
  small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
  chart_->legend()->setFont(small);
  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("time [s]"));
  axisX_->setTitleFont(small);
  axisX_->setLabelFormat("%g");
  axisX_->setRange(0, 1);
  chart_->addAxis(axisX_, Qt::AlignBottom);
  setChart(chart_);
  setRenderHint(QPainter::Antialiasing);
  setAcceptDrops(true);
  setMouseTracking(true);
  setMinimumHeight(200);
  // No tool-tip: it would stand still over the plot while the crosshair's
  // values follow the pointer. The mouse's uses go to the status bar.
  setStatusTip(tr("Drag: zoom, Ctrl+drag or middle drag: pan, wheel: zoom time, Shift+wheel: zoom values, "
                  "double click: auto range, click: move the time cursor, right click: add or remove channels"));
  // Other units (View > Pressure Units): the same channels in the new ones.
  connect(data_, &ResultBuffer::relabelled, this, &PlotPane::rebuild);
  // A plot made lower or higher: the axis titles that fit it.
  connect(chart_, &QChart::plotAreaChanged, this, [this] {
    if (!titling_) QTimer::singleShot(0, this, [this] { updateAxisTitles(); });
    if (!exporting_) emit plotAreaMoved();
    // Laid out anew: every item drawn afresh into its cache and the whole
    // plot repainted (a cursor strip drawn from pixmaps of the earlier
    // layout left pieces of old labels and lines behind).
    if (!exporting_) {
      cacheItems(false);
      cacheItems(true);
      viewport()->update();
    }
    // Wider: decimated again for the new pixel columns.
    if (!exporting_ && !updating_ && bucketCount() > decimatedFor_)
      QTimer::singleShot(0, this, [this] { refresh(); });
  });
  // A zoom or pan changes what is visible: decimate again for that window.
  connect(axisX_, &QValueAxis::rangeChanged, this, [this] {
    if (!updating_) QTimer::singleShot(0, this, [this] { refresh(); });
  });
}

bool PlotPane::addChannel(const std::string& name) {
  if (hasChannel(name) || data_->find(name) < 0) return false;
  wanted_.push_back(name);
  rebuild();
  emit channelsChanged();
  return true;
}

bool PlotPane::removeChannel(const std::string& name) {
  const auto it = std::find(wanted_.begin(), wanted_.end(), name);
  if (it == wanted_.end()) return false;
  wanted_.erase(it);
  rebuild();
  emit channelsChanged();
  return true;
}

void PlotPane::clearChannels() {
  wanted_.clear();
  rebuild();
  emit channelsChanged();
}

void PlotPane::setChannelNames(const std::vector<std::string>& names) {
  wanted_.clear();
  for (const std::string& n : names)
    if (!n.empty() && !hasChannel(n)) wanted_.push_back(n);
  rebuild();
  emit channelsChanged();
}

bool PlotPane::hasChannel(const std::string& name) const {
  return std::find(wanted_.begin(), wanted_.end(), name) != wanted_.end();
}

QLineSeries* PlotPane::series(const std::string& name) const {
  for (const Shown& s : shown_)
    if (data_->channels()[static_cast<size_t>(s.channel)].name == name) return s.series;
  return nullptr;
}

std::vector<QValueAxis*> PlotPane::yAxes() const {
  std::vector<QValueAxis*> v;
  for (const auto& [unit, axis] : axes_) v.push_back(axis);
  return v;
}

QValueAxis* PlotPane::axisFor(const QString& unit) {
  if (auto it = axes_.find(unit); it != axes_.end()) return it->second;
  auto* axis = new QValueAxis;
  axis->setLabelFormat("%g");
  axis->setTitleText(QString("[%1]").arg(unit));  // named by updateAxisTitles()
  axis->setTitleFont(axisX_->titleFont());
  // One axis per unit, alternating sides so their labels stay readable.
  chart_->addAxis(axis, axes_.size() % 2 == 0 ? Qt::AlignLeft : Qt::AlignRight);
  axes_[unit] = axis;
  return axis;
}

void PlotPane::removeUnusedAxes() {
  for (auto it = axes_.begin(); it != axes_.end();) {
    const bool used = std::any_of(shown_.begin(), shown_.end(), [&](const Shown& s) { return s.axis == it->second; });
    if (used) {
      ++it;
      continue;
    }
    chart_->removeAxis(it->second);
    fullTitles_.erase(it->second);
    it->second->deleteLater();
    it = axes_.erase(it);
  }
}

void PlotPane::rebuild() {
  for (Shown& s : shown_) {
    chart_->removeSeries(s.series);
    delete s.series;
  }
  shown_.clear();
  // Axes anew as well, so their sides follow the order of the channels.
  for (auto& [unit, axis] : axes_) {
    chart_->removeAxis(axis);
    axis->deleteLater();
  }
  axes_.clear();
  fullTitles_.clear();
  for (const std::string& name : wanted_) {
    const int ch = data_->find(name);
    if (ch < 0) continue;
    const ResultBuffer::Channel& c = data_->channels()[static_cast<size_t>(ch)];
    auto* series = new QLineSeries;
    series->setName(c.label);
    chart_->addSeries(series);
    QValueAxis* axis = axisFor(unitOf(c));
    series->attachAxis(axisX_);
    series->attachAxis(axis);
    shown_.push_back({ch, series, axis});
  }
  removeUnusedAxes();
  updateAxisTitles();
  refresh();
}

void PlotPane::updateAxisTitles() {
  titling_ = true;
  // Qt Charts elides a title longer than the axis, less some padding.
  const double room = chart_->plotArea().height() - 8;
  for (auto& [unit, axis] : axes_) {
    std::vector<const ResultBuffer::Channel*> on;
    for (const Shown& s : shown_)
      if (s.axis == axis) on.push_back(&data_->channels()[static_cast<size_t>(s.channel)]);
    const QStringList titles = axisTitles(unit, on);
    fullTitles_[axis] = titles.front();
    // The longest form the axis has room for (all of it before the first layout).
    const QFontMetricsF fm(axis->titleFont());
    QString shown = titles.back();
    for (const QString& t : titles)
      if (room <= 0 || fm.horizontalAdvance(t) <= room) {
        shown = t;
        break;
      }
    if (axis->titleText() != shown) axis->setTitleText(shown);
  }
  titling_ = false;
}

QString PlotPane::axisTitle(QValueAxis* axis) const {
  const auto it = fullTitles_.find(axis);
  return it == fullTitles_.end() ? QString() : it->second;
}



QString PlotPane::hintText() const {
  if (!shown_.empty()) return {};
  if (data_->channels().empty()) return tr("Run the simulation, then drag channels here from the results tree");
  return tr("Drag channels here from the results tree\n(or right-click a channel there, or here: Add Channel)");
}

void PlotPane::setTimeEnd(double tEnd) {
  tEnd_ = tEnd > 0 ? tEnd : 1.0;
  if (auto_) refresh();
}

void PlotPane::setAutoRange(bool on) {
  auto_ = on;
  refresh();
}

void PlotPane::setTimeWindow(double t0, double t1) {
  if (!(t1 > t0)) return;
  auto_ = false;
  updating_ = true;
  axisX_->setRange(t0, t1);
  updating_ = false;
  refresh();
}

void PlotPane::zoomTime(double factor, double aroundT) {
  const double a = axisX_->min(), b = axisX_->max();
  setTimeWindow(aroundT - (aroundT - a) / factor, aroundT + (b - aroundT) / factor);
}

void PlotPane::pan(double dx, double dy) {
  const QRectF pa = chart_->plotArea();
  if (pa.width() <= 0 || pa.height() <= 0) return;
  auto_ = false;
  const double dt = -dx / pa.width() * (axisX_->max() - axisX_->min());
  for (auto& [unit, axis] : axes_) {
    const double dv = dy / pa.height() * (axis->max() - axis->min());
    axis->setRange(axis->min() + dv, axis->max() + dv);
  }
  setTimeWindow(axisX_->min() + dt, axisX_->max() + dt);
}

void PlotPane::refresh() {
  updating_ = true;
  const auto& t = data_->times();
  const size_t n = t.size();
  if (auto_) axisX_->setRange(0.0, std::max(tEnd_, n ? t.back() : 0.0));
  const double x0 = axisX_->min(), x1 = axisX_->max();
  // Rows in the window plus one either side, so lines run to the edges.
  size_t i0 = static_cast<size_t>(std::lower_bound(t.begin(), t.end(), x0) - t.begin());
  size_t i1 = static_cast<size_t>(std::upper_bound(t.begin(), t.end(), x1) - t.begin());
  if (i0 > 0) --i0;
  if (i1 < n) ++i1;
  std::map<QValueAxis*, std::pair<double, double>> span;
  const size_t buckets = bucketCount();
  if (!exporting_) decimatedFor_ = buckets;
  for (Shown& s : shown_) {
    const ResultBuffer::Channel& c = data_->channels()[static_cast<size_t>(s.channel)];
    const units::DisplayUnit du = units::forChannel(c.name, c.unit);
    const auto& col = data_->columns()[static_cast<size_t>(s.channel)];
    const size_t m = std::min(i1, col.size());
    QList<QPointF> pts;
    auto& [lo, hi] = span.try_emplace(s.axis, INFINITY, -INFINITY).first->second;
    auto add = [&](size_t r) {
      const double v = du.toDisplay(col[r]);
      pts.append(QPointF(t[r], v));
      if (std::isfinite(v) && t[r] >= x0 && t[r] <= x1) lo = std::min(lo, v), hi = std::max(hi, v);
    };
    if (m > i0 && m - i0 <= 2 * kMaxBuckets) {  // few rows: each of them
      pts.reserve(static_cast<qsizetype>(m - i0));
      for (size_t r = i0; r < m; ++r) add(r);
    } else if (m > i0) {
      // Min and max of each bucket, in time order: the envelope survives.
      const size_t b = (m - i0 + buckets - 1) / buckets;
      pts.reserve(static_cast<qsizetype>(2 * buckets + 2));
      add(i0);
      for (size_t a0 = i0 + 1; a0 < m - 1; a0 += b) {
        const size_t a1 = std::min(m - 1, a0 + b);
        size_t rlo = a0, rhi = a0;
        for (size_t r = a0; r < a1; ++r) {
          if (col[r] < col[rlo]) rlo = r;
          if (col[r] > col[rhi]) rhi = r;
        }
        add(std::min(rlo, rhi));
        if (rlo != rhi) add(std::max(rlo, rhi));
      }
      add(m - 1);
    }
    s.series->replace(pts);
  }
  if (auto_) {
    for (auto& [axis, range] : span) {
      auto [lo, hi] = range;
      if (!(lo <= hi)) {
        axis->setRange(0, 1);
        continue;
      }
      // A curve that rests on zero (a vented chamber in bar (g), a retracted
      // piston) keeps zero as the axis end despite a numerical overshoot.
      const double span = hi - lo;
      if (lo < 0 && hi > 0 && -lo < 0.02 * span) lo = 0;
      double pad = 0.05 * span;
      if (pad <= 0) pad = std::max(1e-9, 0.05 * std::abs(hi));
      setNiceRange(axis, lo == 0 ? 0.0 : lo - pad, hi + pad);
    }
  }
  updating_ = false;
  // The cursor line moving over the plot repaints a strip 30 times a
  // second: from each item's pixmap (redrawn only when the item changes)
  // instead of stroking every curve again. The pixmaps are dropped first:
  // an axis's labels (new range, new margins) are not always redrawn into
  // them otherwise, and a pane would keep an earlier run's labels or none.
  cacheItems(false);
  cacheItems(true);
  viewport()->update();
}

// One bucket (its min and max) per pixel column of the plot area draws the
// curve every row would: Qt Charts strokes each series point by point, at
// every replace() for its shape and at every paint, so points beyond that
// cost without showing. Exports (other sizes, SVG) take kMaxBuckets.
size_t PlotPane::bucketCount() const {
  const double px = std::ceil(chart_->plotArea().width() * devicePixelRatioF());
  if (exporting_ || !(px >= double(kMinBuckets))) return kMaxBuckets;
  return std::min(kMaxBuckets, static_cast<size_t>(px));
}

// Only the series' items are cached: they are what the cursor strip's
// repaint would stroke again. Qt Charts' axis labels and titles (text items
// it re-texts and moves at each layout) came out blank from such caches,
// on the offscreen platform and under Xvfb alike (test_gui_plot_labels).
void PlotPane::cacheItems(bool on) {
  for (QGraphicsItem* i : scene()->items()) {
    const QGraphicsObject* o = i->toGraphicsObject();
    const bool series = o && o->inherits("ChartItem");
    const auto mode = on && series ? QGraphicsItem::DeviceCoordinateCache : QGraphicsItem::NoCache;
    if (i->cacheMode() != mode) i->setCacheMode(mode);
  }
}

void PlotPane::setCursorTime(double t) {
  if (t == cursor_) return;
  // Only the strips under the old and the new line are repainted: a
  // playing cursor must not redraw every curve 30 times a second.
  const QRect before = cursorStrip(cursor_);
  cursor_ = t;
  const QRect after = cursorStrip(cursor_);
  if (before.isEmpty() && after.isEmpty()) return;
  viewport()->update(before);
  viewport()->update(after);
}

// The viewport's strip under the cursor line at t (as drawForeground draws
// it); empty when no line is drawn there.
QRect PlotPane::cursorStrip(double t) const {
  const double a = axisX_->min(), b = axisX_->max();
  if (!std::isfinite(t) || data_->rows() == 0 || !(b > a) || t < a || t > b) return {};
  const QRectF pa = chart_->mapRectToScene(chart_->plotArea());
  const double x = pa.left() + (t - a) / (b - a) * pa.width();
  const QPoint top = mapFromScene(QPointF(x, pa.top()));
  const QPoint bottom = mapFromScene(QPointF(x, pa.bottom()));
  return QRect(QPoint(top.x() - 3, top.y() - 3), QPoint(bottom.x() + 3, bottom.y() + 3));
}

void PlotPane::setCrosshair(double t) {
  cross_ = t;
  viewport()->update();
}

QString PlotPane::crosshairText() const {
  if (!std::isfinite(cross_)) return {};
  QStringList lines{QString("t = %1 s").arg(units::formatNumber(cross_))};
  for (const Shown& s : shown_) {
    const ResultBuffer::Channel& c = data_->channels()[static_cast<size_t>(s.channel)];
    const double v = units::forChannel(c.name, c.unit).toDisplay(data_->valueAt(s.channel, cross_));
    lines << QString("%1 = %2 %3")
                 .arg(QString::fromStdString(c.name), units::formatNumber(v), unitOf(c) == "-" ? QString() : unitOf(c));
  }
  return lines.join('\n');
}

void PlotPane::setTimeAxisInsets(double left, double right) {
  if (std::abs(left - insetLeft_) < 0.5 && std::abs(right - insetRight_) < 0.5) return;
  insetLeft_ = left;
  insetRight_ = right;
  chart_->setMargins(QMargins(2 + int(std::lround(left)), 2, 6 + int(std::lround(right)), 2));
  cacheItems(false);  // laid out anew: drawn afresh (refresh() caches again)
}

QRectF PlotPane::plotAreaIn(const QWidget* ancestor) const {
  const QRectF r = plotRectInViewport();
  return r.translated(viewport()->mapTo(ancestor, QPoint(0, 0)));
}

QRectF PlotPane::plotRectInViewport() const {
  return mapFromScene(chart_->mapRectToScene(chart_->plotArea())).boundingRect();
}

double PlotPane::timeAt(const QPointF& pos) const {
  const QRectF pa = plotRectInViewport();
  if (pa.width() <= 0) return axisX_->min();
  return axisX_->min() + (pos.x() - pa.left()) / pa.width() * (axisX_->max() - axisX_->min());
}

// ------------------------------------------------------------------ input

void PlotPane::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasFormat(kChannelMime)) e->acceptProposedAction();
  else QChartView::dragEnterEvent(e);
}

void PlotPane::dragMoveEvent(QDragMoveEvent* e) {
  if (e->mimeData()->hasFormat(kChannelMime)) e->acceptProposedAction();
  else QChartView::dragMoveEvent(e);
}

void PlotPane::dropEvent(QDropEvent* e) {
  const auto names = droppedNames(e->mimeData());
  if (names.empty()) {
    QChartView::dropEvent(e);
    return;
  }
  bool added = false;
  for (const std::string& n : names)
    if (!hasChannel(n) && data_->find(n) >= 0) {
      wanted_.push_back(n);
      added = true;
    }
  if (added) {
    rebuild();
    emit channelsChanged();
  }
  e->acceptProposedAction();
  emit activated();
}

void PlotPane::mousePressEvent(QMouseEvent* e) {
  emit activated();
  pressPos_ = lastPos_ = e->position().toPoint();
  if (e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ControlModifier)))
    drag_ = Drag::Pan;
  else if (e->button() == Qt::LeftButton)
    drag_ = Drag::Zoom;
  else
    QChartView::mousePressEvent(e);
}

void PlotPane::mouseMoveEvent(QMouseEvent* e) {
  const QPoint pos = e->position().toPoint();
  if (drag_ == Drag::Pan) pan(pos.x() - lastPos_.x(), pos.y() - lastPos_.y());
  lastPos_ = pos;
  const QRectF pa = plotRectInViewport();
  if (pa.contains(pos)) {
    crossY_ = pos.y();
    setCrosshair(timeAt(pos));
  } else if (std::isfinite(cross_)) {
    setCrosshair(std::numeric_limits<double>::quiet_NaN());
  }
  viewport()->update();
}

void PlotPane::mouseReleaseEvent(QMouseEvent* e) {
  const Drag d = drag_;
  drag_ = Drag::None;
  const QPoint pos = e->position().toPoint();
  if (d == Drag::Zoom) {
    const QRectF r = QRectF(pressPos_, pos).normalized();
    const QRectF pa = plotRectInViewport();
    if (r.width() > 4 && pa.width() > 0 && pa.height() > 0) {
      // Each y axis keeps its own scale: map the rectangle into every one.
      for (auto& [unit, axis] : axes_) {
        const double span = axis->max() - axis->min();
        const double top = axis->min() + (pa.bottom() - r.top()) / pa.height() * span;
        const double bottom = axis->min() + (pa.bottom() - r.bottom()) / pa.height() * span;
        if (r.height() > 4) axis->setRange(bottom, top);
      }
      setTimeWindow(timeAt(r.topLeft()), timeAt(r.bottomRight()));
    } else if (pa.contains(pos)) {
      emit timeClicked(timeAt(pos));
    }
    viewport()->update();
    return;
  }
  if (d == Drag::Pan) return;
  QChartView::mouseReleaseEvent(e);
}

void PlotPane::mouseDoubleClickEvent(QMouseEvent*) { setAutoRange(true); }

void PlotPane::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  const double factor = std::pow(1.25, steps);
  if (e->modifiers() & Qt::ShiftModifier) {
    auto_ = false;
    for (auto& [unit, axis] : axes_) {
      const double c = 0.5 * (axis->min() + axis->max()), h = 0.5 * (axis->max() - axis->min()) / factor;
      axis->setRange(c - h, c + h);
    }
    viewport()->update();
  } else {
    zoomTime(factor, timeAt(e->position()));
  }
  e->accept();
}

void PlotPane::leaveEvent(QEvent* e) {
  setCrosshair(std::numeric_limits<double>::quiet_NaN());
  QChartView::leaveEvent(e);
}

void PlotPane::hideEvent(QHideEvent* e) {
  setCrosshair(std::numeric_limits<double>::quiet_NaN());
  QChartView::hideEvent(e);
}

QMenu* PlotPane::addChannelMenu(QMenu* parent) {
  QMenu* add = parent->addMenu(tr("Add Channel"));
  add->setObjectName("addChannelMenu");
  std::map<QString, QMenu*> groups;
  for (const ResultBuffer::Channel& c : data_->channels()) {
    if (hasChannel(c.name)) continue;
    QMenu*& g = groups[c.object];
    if (!g) g = add->addMenu(c.object);
    const std::string name = c.name;
    g->addAction(c.label.mid(c.object.size() + 1), this, [this, name] { addChannel(name); });
  }
  add->setEnabled(!groups.empty());
  return add;
}

void PlotPane::contextMenuEvent(QContextMenuEvent* e) {
  setCrosshair(std::numeric_limits<double>::quiet_NaN());  // the menu covers it
  QMenu menu(this);
  addChannelMenu(&menu);
  menu.addSeparator();
  menu.addAction(tr("Auto Range"), this, [this] { setAutoRange(true); });
  menu.addSeparator();
  menu.addAction(tr("Export as PNG..."), this, [this] { exportDialog(false); });
  menu.addAction(tr("Export as SVG..."), this, [this] { exportDialog(true); });
  if (!wanted_.empty()) {
    menu.addSeparator();
    QMenu* rm = menu.addMenu(tr("Remove"));
    for (const std::string& n : wanted_)
      rm->addAction(QString::fromStdString(n), this, [this, n] { removeChannel(n); });
    menu.addAction(tr("Remove All"), this, [this] { clearChannels(); });
  }
  menu.exec(e->globalPos());
}

// ------------------------------------------------------------------ drawing

void PlotPane::drawForeground(QPainter* p, const QRectF& rect) {
  QChartView::drawForeground(p, rect);
  if (exporting_) return;
  const QRectF pa = chart_->mapRectToScene(chart_->plotArea());
  const double a = axisX_->min(), b = axisX_->max();
  auto xOf = [&](double t) { return pa.left() + (t - a) / (b - a) * pa.width(); };
  p->save();
  // The cursor marks a time of the results: none drawn without them.
  if (std::isfinite(cursor_) && data_->rows() > 0 && b > a && cursor_ >= a && cursor_ <= b) {
    p->setPen(QPen(QColor(200, 30, 30), 1.5));
    p->drawLine(QPointF(xOf(cursor_), pa.top()), QPointF(xOf(cursor_), pa.bottom()));
  }
  if (drag_ == Drag::Zoom && (lastPos_ - pressPos_).manhattanLength() > 4) {
    p->setPen(QPen(QColor(40, 90, 200), 1, Qt::DashLine));
    p->setBrush(QColor(40, 90, 200, 30));
    p->drawRect(QRectF(mapToScene(pressPos_), mapToScene(lastPos_)).normalized());
  }
  crossBox_ = {};
  if (shown_.empty()) {
    // An empty plot says how to fill it.
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    p->setFont(f);
    p->setPen(QColor(110, 110, 110));
    p->drawText(pa, Qt::AlignCenter | Qt::TextWordWrap, hintText());
  }
  if (std::isfinite(cross_) && b > a && cross_ >= a && cross_ <= b) {
    const double x = xOf(cross_);
    const double y = std::clamp(mapToScene(QPoint(0, int(crossY_))).y(), pa.top(), pa.bottom());
    p->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
    p->drawLine(QPointF(x, pa.top()), QPointF(x, pa.bottom()));
    p->drawLine(QPointF(pa.left(), y), QPointF(pa.right(), y));
    const QString text = crosshairText();
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    p->setFont(f);
    QRectF box = p->boundingRect(QRectF(0, 0, 600, 400), Qt::AlignLeft | Qt::AlignTop, text).adjusted(-4, -3, 4, 3);
    // Beside the pointer, below and to its right; flipped to the left or
    // above near the plot's edges.
    box.moveTopLeft(QPointF(x + 12, y + 12));
    if (box.right() > pa.right()) box.moveRight(x - 12);
    if (box.bottom() > pa.bottom()) box.moveBottom(y - 12);
    if (box.top() < pa.top()) box.moveTop(pa.top());
    crossBox_ = mapFromScene(box).boundingRect();
    p->setPen(QColor(120, 120, 120));
    p->setBrush(QColor(255, 255, 240, 235));
    p->drawRect(box);
    p->setPen(Qt::black);
    p->drawText(box.adjusted(4, 3, -4, -3), Qt::AlignLeft | Qt::AlignTop, text);
  }
  p->restore();
}

bool PlotPane::render(QPainter& p, const QSize& size) {
  if (!p.isActive()) return false;
  p.setRenderHint(QPainter::Antialiasing);
  exporting_ = true;
  const QRectF onScreen = chart_->geometry();
  const bool relayout = size != onScreen.size().toSize();
  if (relayout) {
    chart_->setGeometry(QRectF(onScreen.topLeft(), QSizeF(size)));
    if (chart_->layout()) chart_->layout()->activate();
  }
  refresh();  // decimated for the export, not for the screen's pixels
  cacheItems(false);  // drawn, not copied from screen pixmaps (SVG keeps vectors and text)
  scene()->render(&p, QRectF(QPointF(0, 0), QSizeF(size)), chart_->sceneBoundingRect());
  if (relayout) {
    chart_->setGeometry(onScreen);
    if (chart_->layout()) chart_->layout()->activate();
  }
  exporting_ = false;
  refresh();  // and for the screen again (caches the items)
  return true;
}

bool PlotPane::exportPng(const QString& path, QString* error, QSize size) {
  if (size.isEmpty()) size = chart_->size().toSize();
  QImage img(size, QImage::Format_ARGB32);
  if (img.isNull()) {
    if (error) *error = tr("cannot make a %1 x %2 pixel picture").arg(size.width()).arg(size.height());
    return false;
  }
  img.fill(Qt::white);
  {
    QPainter p(&img);
    if (!render(p, size)) {
      if (error) *error = tr("cannot paint the plot");
      return false;
    }
  }
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || !img.save(&f, "PNG") || !f.commit()) {
    if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

bool PlotPane::exportSvg(const QString& path, QString* error, QSize s) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly)) {
    if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  if (s.isEmpty()) s = chart_->size().toSize();
  {
    QSvgGenerator gen;
    gen.setOutputDevice(&f);
    gen.setSize(s);
    gen.setViewBox(QRectF(QPointF(0, 0), QSizeF(s)));
    gen.setTitle(tr("PneuMech Studio plot"));
    QStringList names;
    for (const std::string& n : wanted_) names << QString::fromStdString(n);
    gen.setDescription(names.join(", "));
    QPainter p(&gen);
    if (!render(p, s)) {
      if (error) *error = tr("cannot paint the plot");
      return false;
    }
  }
  if (!f.commit()) {
    if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

void PlotPane::exportDialog(bool svg) {
  ExportSizeDialog sizeDialog(chart_->size().toSize(), this);
  if (sizeDialog.exec() != QDialog::Accepted) return;
  const QString f = QFileDialog::getSaveFileName(this, tr("Export plot"), svg ? "plot.svg" : "plot.png",
                                                 svg ? tr("SVG drawing (*.svg)") : tr("PNG image (*.png)"));
  if (f.isEmpty()) return;
  QString err;
  if (!(svg ? exportSvg(f, &err, sizeDialog.size()) : exportPng(f, &err, sizeDialog.size()))) emit message(err);
  else emit message(tr("Plot written to %1 (%2 x %3 px)").arg(f).arg(sizeDialog.size().width()).arg(sizeDialog.size().height()));
}

}  // namespace pm::gui
