// The 3D view (issue 25 point 10): the toolbar's Machine View gives the 3D
// view most of the window with the schematic beside it, a second click goes
// back to the layout before, a layout saved under a typed name comes back
// from View > Layout; and a machine base lies under the mechanism (its top
// just under the lowest point, under every pose of a run, as wide as the
// mechanism), so parts do not float.
#include "document.h"
#include "main_window.h"
#include "mechanism_view.h"
#include "result_buffer.h"
#include "scene3d_scene.h"
#include "schematic_view.h"
#include "simulation_runner.h"
#include "time_bar.h"
#include "time_cursor.h"
#include "window_layouts.h"
#include "support/studio_window.h"

#include <osg/ComputeBoundsVisitor>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>
#include <QToolBar>
#include <QtTest>

using namespace pm;
using namespace pm::gui;
using namespace pm::test;

namespace {

void clickToolbar(MainWindow& w, QAction* a) {
  auto* tb = w.findChild<QToolBar*>("mainToolBar");
  QVERIFY(tb && tb->widgetForAction(a));
  QTest::mouseClick(tb->widgetForAction(a), Qt::LeftButton);
  QTest::qWait(100);  // the docks settle
}

int area(const QWidget* v) { return v->isVisible() ? v->width() * v->height() : 0; }

// The mechanism as drawn now, in the up frame (z against gravity): the
// pickable subtree of the scene (not the grid, background or plate).
osg::BoundingBox drawnUp(const scene3d::MechanismScene& s) {
  osg::ComputeBoundsVisitor cbv;
  osg::Matrixd down = osg::Matrixd::rotate(s.upRotation().inverse());
  cbv.pushMatrix(down);
  for (unsigned i = 0; i < s.root()->getNumChildren(); ++i) {
    osg::Node* n = s.root()->getChild(i);
    if (n->getNodeMask() & scene3d::kPickMask) n->accept(cbv);
  }
  return cbv.getBoundingBox();
}

}  // namespace

class TestGui3dMachineLayout : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove("layouts");
  }
  void cleanupTestCase() { QSettings().remove("layouts"); }

  void machineLayoutAndSavedLayouts() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("torx_open_loop"), QSize(1500, 1000)));
    MechanismView* v3 = w.mechanismView();
    QVERIFY(v3 && v3->isVisible());
    auto* layouts = w.findChild<WindowLayouts*>();
    QVERIFY(layouts);
    QCOMPARE(layouts->current(), WindowLayouts::standardName());
    auto* layoutMenu = w.findChild<QMenu*>("layoutMenu");
    QVERIFY(layoutMenu);
    bool inView = false;
    for (QAction* m : w.menuBar()->actions())
      if (m->menu() && m->text() == "&View") inView = m->menu()->actions().contains(layoutMenu->menuAction());
    QVERIFY(inView);
    auto* library = w.findChild<QDockWidget*>("libraryDock");
    const QSize before = v3->size();
    const int schematicBefore = area(w.schematicView());
    QVERIFY(library->isVisible());

    QAction* machine = w.findChild<QAction*>("actionLayoutMachine");
    QVERIFY(machine);
    QVERIFY(machine->toolTip().contains("3D view"));
    clickToolbar(w, machine);
    QVERIFY(machine->isChecked());
    QCOMPARE(layouts->current(), WindowLayouts::machineName());
    const QSize big = v3->size();
    qInfo("3D view %dx%d in the standard layout, %dx%d in the machine layout", before.width(), before.height(),
          big.width(), big.height());
    QVERIFY2(big.width() * big.height() > 2 * before.width() * before.height(), "the 3D view did not grow");
    QVERIFY(big.width() >= w.width() / 2);
    QVERIFY(!library->isVisible());
    QVERIFY(w.schematicView()->isVisible());  // beside it
    QVERIFY(area(w.schematicView()) > 0);
    // For a look: the machine layout after a run, at 40 % of it.
    chooseMaxSpeed(w);
    QVERIFY(runToEnd(w));
    w.timeCursor()->seek(0.4 * w.timeCursor()->end());
    QTest::qWait(100);
    w.grab().save(QDir::current().filePath("machine_layout.png"));

    // Saved under a typed name (View > Layout > Save Layout As...).
    QTimer::singleShot(200, this, [] {
      auto* d = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
      QVERIFY(d);
      auto* edit = d->findChild<QLineEdit*>();
      QVERIFY(edit);
      QTest::keyClicks(edit, "Demo bench");
      QTest::keyClick(edit, Qt::Key_Return);
    });
    w.findChild<QAction*>("actionLayoutSave")->trigger();
    QCOMPARE(layouts->current(), QString("Demo bench"));
    QVERIFY(layouts->savedNames().contains("Demo bench"));
    QVERIFY(!QSettings().value("layouts/Demo bench").toByteArray().isEmpty());

    // Machine again from the toolbar and clicked off: back to the standard layout.
    clickToolbar(w, machine);
    QVERIFY(machine->isChecked());
    clickToolbar(w, machine);
    QVERIFY(!machine->isChecked());
    QCOMPARE(layouts->current(), WindowLayouts::standardName());
    QVERIFY(library->isVisible());
    QVERIFY2(std::abs(v3->width() - before.width()) < 40 && std::abs(v3->height() - before.height()) < 40,
             qPrintable(QString("%1x%2").arg(v3->width()).arg(v3->height())));
    QVERIFY(std::abs(area(w.schematicView()) - schematicBefore) < schematicBefore / 10);

    // The saved layout from the menu: the 3D view big again.
    QAction* demo = nullptr;
    for (QAction* a : w.findChild<QMenu*>("layoutMenu")->actions())
      if (a->text() == "Demo bench") demo = a;
    QVERIFY(demo);
    demo->trigger();
    QTest::qWait(100);
    QCOMPARE(layouts->current(), QString("Demo bench"));
    QVERIFY(demo->isChecked());
    QVERIFY(!library->isVisible());
    QVERIFY(v3->width() * v3->height() > 2 * before.width() * before.height());
    QVERIFY(layouts->remove("Demo bench"));
    QVERIFY(!layouts->savedNames().contains("Demo bench"));
  }

  // The pendulum (gravity -z): the plate's top lies the small gap under the
  // lowest point of the bob in its initial pose and spans the mechanism
  // across gravity; after a run (started from the toolbar's Run) it lies
  // under every pose of the swing, which goes lower than the start.
  void groundPlateUnderTheMechanism() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("pendulum"), QSize(1500, 1000)));
    const scene3d::MechanismScene& s = w.mechanismView()->scene();
    const scene3d::GroundPlate& g = s.ground();
    QVERIFY(g.box().valid());
    const osg::BoundingBox start = drawnUp(s);
    QVERIFY(start.valid());
    const double topBefore = g.box().zMax();
    QVERIFY2(std::abs(topBefore - (start.zMin() - g.gap())) < 1e-6,
             qPrintable(QString("%1 vs %2").arg(topBefore).arg(start.zMin())));
    QVERIFY(g.gap() > 0 && g.gap() < 0.01 * (start.zMax() - start.zMin()) + 0.01);
    QVERIFY(g.box().xMin() < start.xMin() && g.box().xMax() > start.xMax());
    QVERIFY(g.box().yMin() < start.yMin() && g.box().yMax() > start.yMax());

    chooseMaxSpeed(w);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    QAction* run = nullptr;
    for (QAction* a : w.findChild<QToolBar*>("mainToolBar")->actions())
      if (a->text() == "&Run") run = a;
    QVERIFY(run);
    clickToolbar(w, run);
    QVERIFY(done.count() > 0 || done.wait(120000));
    QVERIFY(w.runner()->lastResult().ok());
    const double topAfter = g.box().zMax();
    qInfo("plate top %.4f m before the run, %.4f m after it", topBefore, topAfter);
    QVERIFY(topAfter < topBefore - 0.005);  // the swing goes ~1 cm under the start
    double lowest = 1e9;
    const ResultBuffer* b = w.resultBuffer();
    for (size_t r = 0; r < b->rows(); r += std::max<size_t>(1, b->rows() / 200)) {
      w.timeCursor()->seek(b->times()[r]);
      const osg::BoundingBox now = drawnUp(s);
      lowest = std::min<double>(lowest, now.zMin());
      QVERIFY2(now.zMin() >= g.box().zMax(), qPrintable(QString::number(b->times()[r])));
      QVERIFY(now.xMin() >= g.box().xMin() && now.xMax() <= g.box().xMax());
    }
    QVERIFY2(lowest - g.box().zMax() < 0.002 + g.gap(), qPrintable(QString::number(lowest - g.box().zMax())));
    w.timeCursor()->seek(1.0);
    QTest::qWait(100);
    w.mechanismView()->grabFramebuffer().save(QDir::current().filePath("ground_plate.png"));
  }

  // The plate is laid once per run, not at each pose: while a run's rows
  // come it only grows, in a few steps, when a pose leaves it (the bob never
  // passes through it as it swings lower), when the run is over it is fitted once under all of
  // them, playing the run back draws it no more, a second run fits it once
  // more to the same plate, and an edit of the model lays it anew under the
  // poses shown.
  void groundFittedOncePerRun() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("pendulum"), QSize(1500, 1000)));
    MechanismView* v3 = w.mechanismView();
    const scene3d::MechanismScene& s = v3->scene();
    const scene3d::GroundPlate& g = s.ground();
    const osg::BoundingBoxd before = g.box();
    const int fits = s.groundFits();
    // Interactive at 2x: the run takes 2.5 s and its poses are drawn as its rows come.
    QComboBox* speed = w.timeBar()->speedBox();
    speed->setCurrentIndex(speed->findText("2x"));
    clickToolbar(w, w.findChild<QAction*>("actionInteractive"));
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    std::vector<osg::BoundingBoxd> plates;  // at each pose drawn until the run is over
    std::vector<osg::BoundingBox> drawn;    // and the mechanism as drawn then
    connect(v3, &MechanismView::poseShown, this, [&] {
      if (!done.isEmpty()) return;
      plates.push_back(g.box());
      drawn.push_back(drawnUp(s));
    });
    const int redrawsBefore = g.redraws();
    w.runSimulation();
    QVERIFY(done.wait(60000));
    QVERIFY(w.runner()->lastResult().ok());
    // The last pose is the one drawn with the run's fit. Before it the plate
    // only grows, and only when a pose left it: never refitted to each row.
    const auto moved = std::count_if(plates.begin(), plates.end() - 1, [&](const osg::BoundingBoxd& b) { return !(b == before); });
    qInfo("%zu poses drawn during the run, the plate changed before %ld of them, %d redraws", plates.size() - 1,
          long(moved), g.redraws() - redrawsBefore);
    QVERIFY(plates.size() >= 5);  // ~15 at 2x on a quiet machine
    for (size_t i = 0; i + 1 < plates.size(); ++i) {
      const osg::BoundingBoxd& b = plates[i];
      QVERIFY2(drawn[i].zMin() >= b.zMax() && drawn[i].xMin() >= b.xMin() && drawn[i].xMax() <= b.xMax(),
               qPrintable(QString("pose %1 drawn through the plate (%2 under its top)").arg(i).arg(b.zMax() - drawn[i].zMin())));
      if (i > 0)
        QVERIFY2(b.zMax() <= plates[i - 1].zMax() && b.xMin() <= plates[i - 1].xMin() && b.xMax() >= plates[i - 1].xMax(),
                 qPrintable(QString("the plate shrank at pose %1").arg(i)));
    }
    QVERIFY(moved > 0);                                // the swing went under the start during the run
    QVERIFY(g.redraws() - redrawsBefore <= int(plates.size()) / 2 + 1);  // grown in steps, not at every pose
    QCOMPARE(s.groundFits(), fits + 1);
    const osg::BoundingBoxd after = g.box();
    QVERIFY(after.zMax() < before.zMax() - 0.005);  // the swing goes ~1 cm under the start
    const int redraws = g.redraws();
    QVERIFY(plateUnderEveryPose(w));
    QCOMPARE(g.redraws(), redraws);
    QCOMPARE(s.groundFits(), fits + 1);

    // Again, as fast as possible: fitted once more, to the same plate.
    clickToolbar(w, w.findChild<QAction*>("actionInteractive"));
    QVERIFY(runToEnd(w));
    QCOMPARE(s.groundFits(), fits + 2);
    QVERIFY(g.box() == after);

    // The bob twice as large: the plate is laid under the larger bob's poses.
    QVERIFY(w.document()->edit("Bob radius", [](Project& p) { p.mechanism.parts[1].geometry[0].size["radius"] = 0.08; }));
    QTest::qWait(50);
    QCOMPARE(s.groundFits(), fits + 3);
    QVERIFY2(g.box().zMax() < after.zMax() - 0.035, qPrintable(QString::number(g.box().zMax() - after.zMax())));
    QVERIFY(plateUnderEveryPose(w));
  }

 private:
  // The run's poses (every row's time, up to 200 of them) all lie on the
  // plate and within its extent across gravity.
  static bool plateUnderEveryPose(MainWindow& w) {
    const scene3d::MechanismScene& s = w.mechanismView()->scene();
    const scene3d::GroundPlate& g = s.ground();
    const ResultBuffer* b = w.resultBuffer();
    for (size_t r = 0; r < b->rows(); r += std::max<size_t>(1, b->rows() / 200)) {
      w.timeCursor()->seek(b->times()[r]);
      const osg::BoundingBox now = drawnUp(s);
      if (now.zMin() < g.box().zMax() || now.xMin() < g.box().xMin() || now.xMax() > g.box().xMax()) {
        qWarning("t = %g s: the mechanism leaves the plate", b->times()[r]);
        return false;
      }
    }
    return true;
  }

  static void chooseMaxSpeed(MainWindow& w) {
    QComboBox* speed = w.timeBar()->speedBox();
    speed->setCurrentIndex(speed->findText("As fast as possible"));
  }
};

QTEST_MAIN(TestGui3dMachineLayout)
#include "test_gui3d_machine_layout.moc"
