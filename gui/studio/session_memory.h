// What the studio keeps from one session for the next (issue 25), per user
// in QSettings: the playback speed ("session/speed"), the window's
// arrangement ("session/...": geometry, docks, the layout chosen, the
// results panel's splitter and tab) and, per project file ("plots/<hash of
// the path>"), the plot panes, their channels and heights; whether the 3D
// dock had its first sizing ("session/dock3dSized"). Only the
// studio's own window remembers (MainWindow::rememberSessions); tests and
// benchmarks start from the built-in layout unless they ask.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

class QMainWindow;

namespace pm::gui {

class ResultsPanel;
class TimeCursor;
class WindowLayouts;

class SessionMemory : public QObject {
  Q_OBJECT
 public:
  SessionMemory(QMainWindow* window, TimeCursor* cursor, ResultsPanel* results, WindowLayouts* layouts);

  // The speed and the window's arrangement back as the last session left
  // them; false when no arrangement was kept (a first session). From then
  // on the speed is kept whenever it changes.
  bool restoreWindow();
  // What needs the window laid out first (the results panel's splitter):
  // after the first show.
  void restoreLaidOut();
  void saveWindow() const;
  // Whether the 3D dock has had its first sizing in this window's
  // arrangement (MainWindow::sync3d): in this session, or in the one a
  // restored arrangement comes from. From then on it keeps the size it has.
  bool dockSized() const { return dockSized_; }
  void setDockSized(bool on) { dockSized_ = on; }
  // The plot selection of the project at `file` (an untitled project: none).
  void savePlots(const QString& file) const;
  bool restorePlots(const QString& file);

  // "max" for "as fast as possible", else the factor.
  static QString speedText(double speed);
  static double speedFromText(const QString& text, double fallback);

 private:
  static QString plotsKey(const QString& file);

  QMainWindow* window_;
  TimeCursor* cursor_;
  ResultsPanel* results_;
  WindowLayouts* layouts_;
  bool keepsSpeed_ = false;
  bool dockSized_ = false;
  QByteArray pendingPanel_;
};

}  // namespace pm::gui
