// Live results by default (issue 25 point 7): a run plays in the views from
// its start at the playback speed the time bar shows (1x unless the user
// picks another, "As fast as possible" jumps to the newest row), and the
// toolbar's Interactive mode is what lets a click on a push button operate it
// during a run (paced at the playback speed). The layouts and the ground
// plate of point 10 are in test_gui3d_machine_layout.cpp (they need OpenGL).
#include "main_window.h"
#include "result_buffer.h"
#include "run_operator.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "simulation_runner.h"
#include "time_bar.h"
#include "time_cursor.h"
#include "support/studio_window.h"

#include "engine/engine.h"

#include <QAction>
#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using namespace pm::test;

namespace {

// Picks the speed box's item `text` as a user does: a click opens the list,
// the keys walk to the item, Return takes it.
void chooseSpeed(QComboBox* box, const QString& text) {
  const int want = box->findText(text);
  QVERIFY2(want >= 0, qPrintable(text));
  box->setFocus();
  while (box->currentIndex() < want) QTest::keyClick(box, Qt::Key_Down);
  while (box->currentIndex() > want) QTest::keyClick(box, Qt::Key_Up);
  QCOMPARE(box->currentText(), text);
}

QAction* toolbarAction(MainWindow& w, const char* name) {
  QAction* a = w.findChild<QAction*>(name);
  auto* tb = w.findChild<QToolBar*>("mainToolBar");
  return a && tb && tb->widgetForAction(a) ? a : nullptr;
}

}  // namespace

class TestGuiLiveResults : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // The default: 1x, shown in the time bar; a run starts playing in the
  // views at once and the playback waits at the newest row while the run
  // computes; it goes on to the end after the run and stops there.
  void runPlaysAtRealSpeedByDefault() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("sequence_a_b"), QSize(1500, 1000)));
    QComboBox* speed = w.timeBar()->speedBox();
    QVERIFY(speed->isVisible());
    QCOMPARE(speed->currentText(), QString("1x"));
    QCOMPARE(w.timeCursor()->speed(), 1.0);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(w.timeCursor()->isPlaying());
    QVERIFY(w.timeCursor()->isOpenEnded());
    QVERIFY(w.timePlayButton()->isChecked());
    QVERIFY(!w.timeCursor()->followsLive());
    QVERIFY(done.wait(120000));
    QVERIFY(!w.timeCursor()->isOpenEnded());
    const double tEnd = w.resultBuffer()->times().back();
    // Played to the end of the results (1.2 s at 1x), then stopped there.
    QTRY_VERIFY_WITH_TIMEOUT(!w.timeCursor()->isPlaying(), 30000);
    QCOMPARE(w.timeCursor()->time(), tEnd);
    QVERIFY(!w.timePlayButton()->isChecked());
  }

  // The speed box drives the cursor's playback rate (the clock is the test's:
  // ticks of known wall time); "As fast as possible" shows the end at once,
  // and a run at that speed shows its newest row, ending at the last.
  void speedChoiceSetsThePlaybackRate() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("sequence_a_b"), QSize(1500, 1000)));
    QComboBox* speed = w.timeBar()->speedBox();
    chooseSpeed(speed, "As fast as possible");
    QVERIFY(std::isinf(w.timeCursor()->speed()));
    QVERIFY(runToEnd(w));
    const ResultBuffer* b = w.resultBuffer();
    const double tEnd = b->times().back();
    QCOMPARE(w.timeCursor()->time(), tEnd);  // the newest row throughout, the last at the end
    QVERIFY(!w.timeCursor()->isPlaying());
    const double row = b->times()[1] - b->times()[0];

    TimeCursor* c = w.timeCursor();
    chooseSpeed(speed, "1x");
    QCOMPARE(c->speed(), 1.0);
    c->seek(0.0);
    c->play();
    c->tick(0.25);
    QVERIFY2(std::abs(c->time() - 0.25) <= row, qPrintable(QString::number(c->time())));
    chooseSpeed(speed, "2x");
    QCOMPARE(c->speed(), 2.0);
    c->tick(0.25);  // 0.5 s more
    QVERIFY2(std::abs(c->time() - 0.75) <= row, qPrintable(QString::number(c->time())));
    chooseSpeed(speed, "0.1x");
    c->tick(1.0);  // 0.1 s more
    QVERIFY2(std::abs(c->time() - 0.85) <= row, qPrintable(QString::number(c->time())));
    // The 3D toolbar's speed box is another control of the same speed; the
    // time bar shows what it set.
    c->setSpeed(5.0);
    QCOMPARE(speed->currentText(), QString("5x"));
    chooseSpeed(speed, "As fast as possible");
    c->tick(0.001);
    QCOMPARE(c->time(), tEnd);
    QVERIFY(!c->isPlaying());
  }

  // Interactive mode off (the default): a click on the start button during a
  // run selects it and does not press it. The toolbar's Interactive button
  // on: the run is paced at the playback speed and the same click presses it.
  void interactiveToolbarChoiceEnablesButtonClicks() {
    QTemporaryDir dir;
    Project p = engine::load(examplePath("sequence_a_b").toStdString());
    p.find("start")->params["t_press"] = 1e9;  // only the hand starts it
    p.simulation.t_end = 1000;
    const QString path = dir.filePath("seq_manual.pneumech.json");
    engine::save(p, path.toStdString());
    MainWindow w;
    QVERIFY(showProject(w, path, QSize(1500, 1000)));
    QAction* interactive = toolbarAction(w, "actionInteractive");
    QVERIFY(interactive);
    QVERIFY(interactive->isCheckable());
    QVERIFY(!interactive->isChecked());
    QVERIFY(interactive->toolTip().contains("push buttons"));
    auto* op = w.findChild<RunOperator*>();
    QVERIFY(op);
    QSignalSpy operated(op, &RunOperator::operated);
    ResultBuffer* data = w.resultBuffer();
    QWidget* vp = w.schematicView()->viewport();
    auto pressStart = [&] {
      const QPoint at = w.schematicView()->mapFromScene(w.scene()->componentItem("start")->sceneBoundingRect().center());
      QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, at);
      QTest::qWait(300);
      QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, at);
    };

    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QCOMPARE(w.runner()->pacing(), 0.0);  // not interactive: as fast as the solver goes
    QTRY_VERIFY_WITH_TIMEOUT(data->rows() > 20, 60000);
    const int out = data->find("start.out");
    QVERIFY(out >= 0);
    pressStart();
    QCOMPARE(operated.count(), 0);
    QVERIFY(w.scene()->selectedComponents().count("start"));  // an ordinary click: it selects
    const size_t rowsThen = data->rows();
    QTRY_VERIFY_WITH_TIMEOUT(data->rows() > rowsThen + 500 || !w.runner()->isRunning(), 30000);
    const auto& col = data->columns()[size_t(out)];
    QCOMPARE(*std::max_element(col.begin(), col.end()), 0.0);  // never pressed
    w.stopSimulation();
    QVERIFY(done.wait(30000));

    // The toolbar's button, clicked.
    auto* tb = w.findChild<QToolBar*>("mainToolBar");
    QTest::mouseClick(tb->widgetForAction(interactive), Qt::LeftButton);
    QVERIFY(interactive->isChecked());
    w.runSimulation();
    QCOMPARE(w.runner()->pacing(), 1.0);  // real time: the playback speed, 1x
    QVERIFY(w.timeCursor()->followsLive());
    QTRY_VERIFY_WITH_TIMEOUT(data->rows() > 20, 60000);
    const int out2 = data->find("start.out");
    QVERIFY(out2 >= 0);
    pressStart();
    QCOMPARE(operated.count(), 2);  // pressed, released
    QTRY_VERIFY_WITH_TIMEOUT(*std::max_element(data->columns()[size_t(out2)].begin(),
                                               data->columns()[size_t(out2)].end()) == 1.0,
                             30000);
    // Paced: simulated time kept near the wall clock, far from t_end.
    QVERIFY(data->times().back() < 100.0);
    w.stopSimulation();
    QVERIFY(done.wait(30000));
  }
};

QTEST_MAIN(TestGuiLiveResults)
#include "test_gui_live_results.moc"
