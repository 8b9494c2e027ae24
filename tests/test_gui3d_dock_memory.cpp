// The 3D dock keeps the size a user gives it (issue 25, session memory):
// it takes half the window the first time a mechanism project opens; after
// the user dragged it narrower it comes back at that width when another
// mechanism project opens (after one without a mechanism hid it), and in
// the next session (MainWindow::rememberSessions). Before, every appearance
// sized it to half the window again. The settings live in a temporary
// folder (QSettings::setPath). Needs OpenGL: runs under Xvfb.
#include "main_window.h"
#include "mechanism_view.h"
#include "support/studio_window.h"

#include <QDockWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>

using namespace pm;
using namespace pm::gui;

namespace {

// Drags the separator left of the right dock column by `dx` pixels with
// the mouse (QMainWindow moves its separators on its own mouse events).
void dragSeparator(MainWindow& w, QDockWidget* dock, int dx) {
  const int x = (w.centralWidget()->geometry().right() + dock->geometry().left() + 1) / 2;
  const QPoint a(x, dock->geometry().center().y());
  qInfo("separator between x = %d and %d: pressed at %d", w.centralWidget()->geometry().right(),
        dock->geometry().left(), x);
  QTest::mouseMove(&w, a);
  QTest::mousePress(&w, Qt::LeftButton, {}, a);
  // The window moves the separator from a timer: a turn of the loop per step.
  for (int k = 1; k <= 5; ++k) {
    QTest::mouseMove(&w, a + QPoint(dx * k / 5, 0));
    QTest::qWait(30);
  }
  QTest::mouseRelease(&w, Qt::LeftButton, {}, a + QPoint(dx, 0));
  QTest::qWait(50);
}

}  // namespace

class TestGui3dDockMemory : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
    QVERIFY(dir_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.path());
    QCoreApplication::setOrganizationName("PneuMechTest");
    QCoreApplication::setApplicationName("dock-memory");
  }

  void theDockKeepsTheUsersWidth() {
    const QString mechanism = test::examplePath("four_bar");
    int narrowed = 0;
    {
      MainWindow w;
      QVERIFY(!w.rememberSessions());  // a first session
      QVERIFY(test::showProject(w, mechanism, QSize(1400, 900)));
      auto* dock = w.findChild<QDockWidget*>("mechanismDock");
      QVERIFY(dock);
      QTRY_VERIFY(dock->isVisible());
      QTest::qWait(50);
      const int first = dock->width();
      qInfo("first sizing: the 3D dock %d px wide in a %d px window", first, w.width());
      QVERIFY2(std::abs(first - w.width() / 2) < 60, "half the window");
      dragSeparator(w, dock, 250);
      narrowed = dock->width();
      qInfo("dragged narrower: %d px", narrowed);
      QVERIFY(narrowed < first - 200);
      // A circuit without a mechanism hides the dock; the next mechanism
      // brings it back as the user left it.
      QVERIFY(w.openProject(test::examplePath("seed003_meter_out")));
      QTRY_VERIFY(dock->isHidden());
      QVERIFY(w.openProject(mechanism));
      QTRY_VERIFY(dock->isVisible());
      QTest::qWait(50);
      qInfo("shown again in the same session: %d px", dock->width());
      QVERIFY2(std::abs(dock->width() - narrowed) <= 2, "the user's width within the session");
      QVERIFY(w.close());
    }
    // The next session: the studio starts on an empty project, then opens one.
    MainWindow w;
    QVERIFY(w.rememberSessions());
    QVERIFY(test::showWindow(w));
    auto* dock = w.findChild<QDockWidget*>("mechanismDock");
    QVERIFY(dock && dock->isHidden());
    QVERIFY(w.openProject(mechanism));
    QTRY_VERIFY(dock->isVisible());
    QTest::qWait(50);
    qInfo("next session: %d px", dock->width());
    QVERIFY2(std::abs(dock->width() - narrowed) <= 2, "the user's width in the next session");
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGui3dDockMemory)
#include "test_gui3d_dock_memory.moc"
