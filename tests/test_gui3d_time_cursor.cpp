// The 3D view and its toolbar share the document's one time cursor (issue 25
// point 1): the 3D slider, its play and step buttons move the schematic, the
// plots and the status bar; the schematic's slider and play button move the
// 3D view; during a run the 3D view shows the row the status bar reports.
// Opening another project resets the 3D time and its slider's range (issue
// 25 point 5, issue 28 section 7). Needs OpenGL: runs under Xvfb.
#include "main_window.h"
#include "mechanism_view.h"
#include "mechanism_view_controls.h"
#include "plot_pane.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "schematic_scene.h"
#include "simulation_runner.h"
#include "support/studio_window.h"
#include "support/test_project.h"
#include "time_bar.h"
#include "time_cursor.h"
#include "units.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolButton>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;

namespace {

QString example(const char* name) { return QString::fromStdString(test::projectPath(name)); }

QRect sliderHandle(QSlider* s) {
  QStyleOptionSlider o;
  o.initFrom(s);
  o.subControls = QStyle::SC_All;
  o.orientation = s->orientation();
  o.minimum = s->minimum();
  o.maximum = s->maximum();
  o.sliderPosition = s->sliderPosition();
  o.sliderValue = s->value();
  o.singleStep = s->singleStep();
  o.pageStep = s->pageStep();
  return s->style()->subControlRect(QStyle::CC_Slider, &o, QStyle::SC_SliderHandle, s);
}

bool showStudio(MainWindow& w, const char* file) { return test::showProject(w, example(file), QSize(1500, 1000)); }

// Runs to the end with the views at the last row when it ends: playback
// "as fast as possible" (by default a run plays at real speed and the views
// reach the end only t_end after its start).
bool runToEnd(MainWindow& w) {
  w.timeCursor()->setSpeed(TimeCursor::asFastAsPossible());
  QSignalSpy done(&w, &MainWindow::simulationFinished);
  w.runSimulation();
  return done.wait(120000) && w.runner()->lastResult().ok();
}

// The 3D view, its toolbar, the schematic's time bar, the plots and the
// status bar all at time t, a row of the results.
void expectEveryViewAt(MainWindow& w, double t) {
  const ResultBuffer* b = w.resultBuffer();
  QCOMPARE(w.timeCursor()->time(), t);
  const size_t row = b->rowAt(t);
  QCOMPARE(b->times()[row], t);
  QCOMPARE(w.mechanismView()->time(), t);
  AnimationControls* a = w.animationControls();
  const double frac = (t - a->start()) / (a->end() - a->start());
  QCOMPARE(a->slider()->value(), int(std::lround(frac * a->slider()->maximum())));
  const QString shown = QString::number(t, 'f', 3);
  QVERIFY2(a->label()->text().startsWith(shown + " s / "), qPrintable(a->label()->text()));
  QCOMPARE(w.timeSlider()->value(), int(row));
  QCOMPARE(w.timeBar()->label()->text(), "t = " + shown + " s");
  QCOMPARE(w.cursorStatusText(), "Cursor: t = " + shown + " s");
  for (int i = 0; i < w.resultsPanel()->paneCount(); ++i) QCOMPARE(w.resultsPanel()->pane(i)->cursorTime(), t);
  QVERIFY(w.scene()->frame().active);
}

}  // namespace

class TestGui3dTimeCursor : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void threeDControlsMoveEveryViewAndBack() {
    MainWindow w;
    QVERIFY(showStudio(w, "tool_changer.pneumech.json"));
    QVERIFY(w.mechanismView());
    QVERIFY(runToEnd(w));
    const ResultBuffer* b = w.resultBuffer();
    AnimationControls* a = w.animationControls();
    QCOMPARE(a->end(), b->times().back());
    expectEveryViewAt(w, b->times().back());
    if (QTest::currentTestFailed()) return;

    // The 3D slider, set to 30 % of the run: the nearest row.
    a->slider()->setValue(300);
    const double t30 = w.timeCursor()->time();
    QVERIFY2(std::abs(t30 - 0.3 * a->end()) < 1.1e-3, qPrintable(QString::number(t30)));
    expectEveryViewAt(w, t30);
    if (QTest::currentTestFailed()) return;
    // For a look (written to the working directory): every view at 30 %.
    w.grab().save(QDir::current().filePath("time_cursor_3d.png"));
    // ... and dragged by its handle to the right.
    QSlider* s3 = a->slider();
    const QPoint from = sliderHandle(s3).center();
    const QPoint to = from + QPoint(s3->width() / 4, 0);
    QTest::mousePress(s3, Qt::LeftButton, Qt::NoModifier, from);
    for (int i = 1; i <= 5; ++i) QTest::mouseMove(s3, from + (to - from) * i / 5);
    QTest::mouseRelease(s3, Qt::LeftButton, Qt::NoModifier, to);
    QVERIFY2(w.timeCursor()->time() > t30 + 0.1 * a->end(), qPrintable(QString::number(w.timeCursor()->time())));
    expectEveryViewAt(w, w.timeCursor()->time());
    if (QTest::currentTestFailed()) return;
    // Its step buttons.
    const double before = w.timeCursor()->time();
    a->stepForward();
    QVERIFY(w.timeCursor()->time() > before);
    expectEveryViewAt(w, w.timeCursor()->time());
    if (QTest::currentTestFailed()) return;

    // The schematic's slider moves the 3D view.
    w.timeSlider()->setValue(1234);
    expectEveryViewAt(w, b->times()[1234]);
    if (QTest::currentTestFailed()) return;

    // The 3D play button plays for every view, and the schematic's play
    // button shows it; the schematic's button stops it for the 3D view too.
    w.timeCursor()->setSpeed(1.0);  // real speed (runToEnd chose "as fast as possible")
    QTest::mouseClick(a->playButton(), Qt::LeftButton);
    QVERIFY(a->isPlaying());
    QVERIFY(w.timePlayButton()->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(w.timeCursor()->time() > b->times()[1234] + 0.2, 5000);
    expectEveryViewAt(w, w.timeCursor()->time());
    if (QTest::currentTestFailed()) return;
    QTest::mouseClick(w.timePlayButton(), Qt::LeftButton);
    QVERIFY(!a->isPlaying());
    const double stopped = w.timeCursor()->time();
    QTest::qWait(200);
    QCOMPARE(w.mechanismView()->time(), stopped);
    // The schematic's play button to the end: the 3D view goes along.
    QTest::mouseClick(w.timePlayButton(), Qt::LeftButton);
    QVERIFY(a->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(!a->isPlaying(), 10000);
    expectEveryViewAt(w, b->times().back());
  }

  // During a run paced to real time the 3D view shows the newest row the
  // studio holds, which is the time the status bar reports.
  void runningThreeDAgreesWithTheStatusBar() {
    MainWindow w;
    QVERIFY(showStudio(w, "tool_changer.pneumech.json"));
    QAction* pacing = w.findChild<QAction*>("actionInteractive");
    QVERIFY(pacing);
    pacing->setChecked(true);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    const ResultBuffer* b = w.resultBuffer();
    QTRY_VERIFY_WITH_TIMEOUT(b->rows() > 100, 10000);
    QVERIFY(w.animationControls()->followsLive());
    int samples = 0;
    for (int i = 0; i < 6 && w.runner()->isRunning(); ++i) {
      QTest::qWait(100);
      if (!w.runner()->isRunning()) break;
      const double tNow = b->times().back();
      QVERIFY2(w.statusText().startsWith("Running... t = " + units::formatNumber(tNow) + " s"), qPrintable(w.statusText()));
      expectEveryViewAt(w, tNow);
      if (QTest::currentTestFailed()) return;
      ++samples;
    }
    QVERIFY(samples >= 3);
    w.stopSimulation();
    QVERIFY(done.count() > 0 || done.wait(30000));
  }

  // Project A run and scrubbed; project B opened: the 3D view is at B's
  // initial pose (time 0, no results) and its slider spans nothing.
  void openingAnotherProjectResetsTheThreeDTime() {
    MainWindow w;
    QVERIFY(showStudio(w, "tool_changer.pneumech.json"));
    QVERIFY(runToEnd(w));
    w.animationControls()->setTime(1.0);
    QCOMPARE(w.mechanismView()->time(), 1.0);
    QVERIFY(w.mechanismView()->endTime() > 2.0);
    for (const char* next : {"slider_crank.pneumech.json", "spring_lever.pneumech.json"}) {
      QVERIFY(w.openProject(example(next)));
      AnimationControls* a = w.animationControls();
      QCOMPARE(w.mechanismView()->time(), 0.0);
      QCOMPARE(w.mechanismView()->endTime(), 0.0);  // no results drawn
      QCOMPARE(a->time(), 0.0);
      QCOMPARE(a->end(), 0.0);
      QCOMPARE(a->slider()->value(), 0);
      QCOMPARE(a->label()->text(), QString("0.000 s / 0.000 s"));
      QVERIFY(!a->isPlaying());
      QVERIFY(!a->followsLive());
      QCOMPARE(w.timeSlider()->maximum(), 0);
      // A mechanism without a circuit runs from the studio, and the 3D
      // view plays its result.
      QVERIFY(runToEnd(w));
      QCOMPARE(w.mechanismView()->time(), w.resultBuffer()->times().back());
      QCOMPARE(a->end(), w.project().simulation.t_end);
      w.animationControls()->setTime(0.5 * a->end());
    }
  }
};

QTEST_MAIN(TestGui3dTimeCursor)
#include "test_gui3d_time_cursor.moc"
