// The studio as the 3D build tests open it: an example project in a window
// large enough to pick in, the 3D build tools snapping to 5 mm.
// Header-only; GUI tests only (they run under Xvfb).
#pragma once

#include "build_tools_3d.h"
#include "main_window.h"
#include "support/studio_window.h"

#include <QSize>
#include <QString>
#include <QtTest>

namespace pm::test {

// w shown at 1500 x 950 on the example projects/<stem>, the build tools'
// snap step 5 mm; with `active`, also the active window (keys go to its
// focus widget).
inline bool showExampleToBuild(gui::MainWindow& w, const QString& stem, bool active = false) {
  if (!showProject(w, examplePath(stem), QSize(1500, 950)) || !w.buildTools()) return false;
  w.buildTools()->setSnapStep(0.005);
  if (!active) return true;
  w.activateWindow();
  return QTest::qWaitForWindowActive(&w);
}

}  // namespace pm::test
