// The studio's main window as the GUI tests set it up: shown and exposed
// (the offscreen platform), on a new circuit with the schematic zoomed where
// the test works, or on an example project. Header-only; GUI tests only.
#pragma once

#include "engine/engine.h"
#include "main_window.h"
#include "schematic_view.h"
#include "time_cursor.h"

#include <QPointF>
#include <QSize>
#include <QSignalSpy>
#include <QString>
#include <QtTest>

#include <optional>

namespace pm::test {

// The size of the window for tests that place symbols far apart.
inline const QSize kLargeWindow(1400, 1000);

// Shows w (resized to `size` first when it is valid) and waits until it is exposed.
inline bool showWindow(gui::MainWindow& w, QSize size = {}) {
  if (size.isValid()) w.resize(size);
  w.show();
  return QTest::qWaitForWindowExposed(&w);
}

// The schematic at `scale` (pixels per scene unit) centred on `centre`.
struct Zoom {
  double scale = 1.0;
  QPointF centre;
};

// w shown on a new, empty circuit; the schematic zoomed to `zoom` when given.
inline bool showNewCircuit(gui::MainWindow& w, std::optional<Zoom> zoom = std::nullopt, QSize size = {}) {
  if (!showWindow(w, size)) return false;
  w.newProject();
  if (zoom) {
    gui::SchematicView* view = w.schematicView();
    view->setTransform(QTransform::fromScale(zoom->scale, zoom->scale));
    view->centerOn(zoom->centre);
    QTest::qWait(10);
  }
  return true;
}

// The example projects/<stem>.pneumech.json of the source tree.
inline QString examplePath(const QString& stem) {
  return QString(PM_SOURCE_DIR) + "/projects/" + stem + ".pneumech.json";
}

// w shown (resized to `size` first when it is valid) with the project at `path` open.
inline bool showProject(gui::MainWindow& w, const QString& path, QSize size = {}) {
  return showWindow(w, size) && w.openProject(path);
}

// w shown (resized to `size` first when it is valid) with `p` saved to
// `path` and opened from there.
inline bool showSavedProject(gui::MainWindow& w, const Project& p, const QString& path, QSize size = {}) {
  engine::save(p, path.toStdString());
  return showProject(w, path, size);
}

// Runs w's simulation and waits (up to `timeoutMs`) until it has finished,
// the views at its last row: playback "as fast as possible" (by default a
// run plays at real speed and the views reach the end t_end after its start).
inline bool runToEnd(gui::MainWindow& w, int timeoutMs = 120000) {
  w.timeCursor()->setSpeed(gui::TimeCursor::asFastAsPossible());
  QSignalSpy done(&w, &gui::MainWindow::simulationFinished);
  w.runSimulation();
  return done.wait(timeoutMs);
}

}  // namespace pm::test
