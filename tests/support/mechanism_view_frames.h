// The studio's 3D view as the GUI 3D tests wait on it and look at it: the
// next frame drawn, and a screenshot saved when the run asks for them.
// Header-only; GUI tests only (they run under Xvfb).
#pragma once

#include "mechanism_view.h"

#include <QByteArray>
#include <QScreen>
#include <QString>
#include <QWidget>
#include <QtTest>

namespace pm::test {

// Waits until the view has drawn a frame after this call.
inline void waitFrame(gui::MechanismView* v) {
  const quint64 n = v->frameCount();
  v->update();
  QTRY_VERIFY(v->frameCount() > n);
}

// When the environment variable `folderVariable` names a folder, saves the
// screen `w` is on there as <name>.png, after `settleMs` for the last
// repaint; otherwise does nothing.
inline void saveScreenshot(const char* folderVariable, QWidget& w, const QString& name, int settleMs = 50) {
  const QByteArray dir = qgetenv(folderVariable);
  if (dir.isEmpty()) return;
  QTest::qWait(settleMs);
  w.window()->screen()->grabWindow(0).save(QString::fromLocal8Bit(dir) + "/" + name + ".png");
}

}  // namespace pm::test
