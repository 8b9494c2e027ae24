// One live plot of result channels against time (Qt Charts). Channels are
// dropped onto it from the results tree (mime type kChannelMime: channel
// names, one a line), picked from its context menu (Add Channel) or added by
// name; an empty plot says so. Each display unit gets its own y axis
// (alternating left and right) titled with what it shows ("pressure pA, pB
// [bar (g)]"); the legend sits beside the plot. Follows the run while auto-range is on;
// zooming or panning turns it off, a double click turns it back on.
//
// Mouse: left drag zooms to the rectangle, a left click moves the studio's
// time cursor (timeClicked), middle drag or Ctrl + left drag pans, the wheel
// zooms time around the pointer (Shift + wheel: the y axes), a double click
// auto-ranges. A crosshair follows the pointer with the values at its time
// in a box beside the pointer; it goes when the pointer leaves the plot.
//
// Series are rebuilt from the ResultBuffer's SI columns on refresh() with
// one replace() per series, decimated to min/max pairs per bucket over the
// visible time range (more than 2 kMaxBuckets rows there: a bucket per
// pixel column of the plot area, at most kMaxBuckets), so long runs stay cheap.
#pragma once

#include <QChartView>
#include <QPointF>
#include <QString>

#include <limits>
#include <map>
#include <string>
#include <vector>

class QLineSeries;
class QMenu;
class QValueAxis;

namespace pm::gui {

class ResultBuffer;

inline constexpr const char* kChannelMime = "application/x-pneumech-channels";

class PlotPane : public QChartView {
  Q_OBJECT
 public:
  static constexpr size_t kMaxBuckets = 2000;
  static constexpr size_t kMinBuckets = 100;  // below it (not laid out yet): kMaxBuckets

  explicit PlotPane(ResultBuffer* data, QWidget* parent = nullptr);

  // Shows a channel by engine name; false when the run has no such channel
  // or it is shown already. Names stay across runs (shown when present).
  bool addChannel(const std::string& name);
  bool removeChannel(const std::string& name);
  void clearChannels();
  // The channels wanted, by name, whether or not the results hold them yet
  // (a layout remembered from another session; shown when a run has them).
  void setChannelNames(const std::vector<std::string>& names);
  bool hasChannel(const std::string& name) const;
  const std::vector<std::string>& channelNames() const { return wanted_; }
  QLineSeries* series(const std::string& name) const;
  std::vector<QValueAxis*> yAxes() const;
  // A y axis's whole title ("pressure pA, pB [bar (g)]"); the axis shows a
  // shorter form when the plot is too low for it ("pressure [bar (g)]").
  QString axisTitle(QValueAxis* axis) const;
  QValueAxis* timeAxis() const { return axisX_; }
  // Extra room [px] left and right of the plot area, so that its time axis
  // lines up with those of the panes stacked with it whatever the width of
  // their y-axis labels and legends (ResultsPanel::alignTimeAxes).
  void setTimeAxisInsets(double left, double right);
  double leftInset() const { return insetLeft_; }
  double rightInset() const { return insetRight_; }
  // The plot area (the curves' rectangle) in the coordinates of `ancestor`.
  QRectF plotAreaIn(const QWidget* ancestor) const;

  // End of the run's time range (the x axis while auto-ranging).
  void setTimeEnd(double tEnd);
  void setAutoRange(bool on);
  bool autoRange() const { return auto_; }
  // Time window shown [s]; turns auto-range off.
  void setTimeWindow(double t0, double t1);
  void zoomTime(double factor, double aroundT);
  void pan(double dxPixels, double dyPixels);

  // The studio's shared time cursor (a vertical line); NaN hides it.
  void setCursorTime(double t);
  double cursorTime() const { return cursor_; }
  // Crosshair at time t (as the pointer sets it; NaN hides it) and its text.
  void setCrosshair(double t);
  QString crosshairText() const;
  // Where the crosshair's box was last drawn (viewport pixels; empty: none).
  QRect crosshairBox() const { return crossBox_; }
  // What an empty plot says (empty once it shows channels).
  QString hintText() const;
  // Adds "Add Channel" (the run's channels not shown, by object) to `parent`.
  QMenu* addChannelMenu(QMenu* parent);

  // Rebuilds the series from the data (after new rows, a new run).
  void refresh();
  // Channels of a new run: series for the wanted names present in it.
  void rebuild();

  // The pane as a picture, PNG or SVG (vector), laid out at `size` pixels
  // (empty: its size on screen); the chart is re-laid out for it, so fonts
  // and margins keep their size instead of being scaled.
  bool exportPng(const QString& path, QString* error, QSize size = {});
  bool exportSvg(const QString& path, QString* error, QSize size = {});
  // Asks for the picture's size (ExportSizeDialog, the on-screen size
  // first), then for the file, and writes it; reports through message().
  void exportDialog(bool svg);

 signals:
  void timeClicked(double t);
  void channelsChanged();
  void activated();  // clicked or received a drop (the panel's current pane)
  void plotAreaMoved();  // the plot area's place or size changed (a new layout)
  void message(const QString& text);  // an export failed

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dragMoveEvent(QDragMoveEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void leaveEvent(QEvent* e) override;
  void hideEvent(QHideEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;
  void drawForeground(QPainter* p, const QRectF& rect) override;

 private:
  QRect cursorStrip(double t) const;
  // The series painted from device-coordinate pixmaps (on screen) or drawn (exports).
  void cacheItems(bool on);
  // Buckets a refresh decimates to now, and what the screen's series were decimated for.
  size_t bucketCount() const;
  size_t decimatedFor_ = 0;
  struct Shown {
    int channel;
    QLineSeries* series;
    QValueAxis* axis;
  };
  QValueAxis* axisFor(const QString& unit);
  void removeUnusedAxes();
  void updateAxisTitles();
  void fitY();
  double timeAt(const QPointF& viewportPos) const;
  QRectF plotRectInViewport() const;
  // Lays the chart out at `size`, paints it into `p` and restores the layout.
  bool render(QPainter& p, const QSize& size);

  ResultBuffer* data_;
  QChart* chart_;
  QValueAxis* axisX_;
  std::map<QString, QValueAxis*> axes_;  // per display unit
  std::map<QValueAxis*, QString> fullTitles_;
  std::vector<std::string> wanted_;
  std::vector<Shown> shown_;
  double tEnd_ = 1.0;
  bool auto_ = true;
  bool updating_ = false;
  bool exporting_ = false;
  bool titling_ = false;
  double cursor_ = std::numeric_limits<double>::quiet_NaN();
  double cross_ = std::numeric_limits<double>::quiet_NaN();
  double crossY_ = 0.0;  // viewport y of the pointer
  QRect crossBox_;
  enum class Drag { None, Zoom, Pan } drag_ = Drag::None;
  QPoint pressPos_, lastPos_;
  double insetLeft_ = 0.0, insetRight_ = 0.0;
};

}  // namespace pm::gui
