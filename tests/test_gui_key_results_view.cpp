// The results dock's Key Results tab: after Run, the studio shows the key
// results `pneumech results` and the report give (stroke times, cycle time,
// air, peak pressures, contacts, latches), as the report rounds them, with
// pressures in the studio's pressure unit; cleared on Open and on a new run.
#include "key_results_view.h"
#include "main_window.h"
#include "results_panel.h"
#include "simulation_runner.h"
#include "support/studio_window.h"
#include "units.h"

#include "engine/engine.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

using namespace pm;
using namespace pm::gui;

namespace {

QString num(double v, int decimals) { return QString::number(v, 'f', decimals); }

QString cell(const QTableWidget* t, int row, int column) {
  const QTableWidgetItem* item = t ? t->item(row, column) : nullptr;
  return item ? item->text() : QString();
}

// The first row whose `column` reads `text` (-1: none).
int rowWith(const QTableWidget* t, int column, const QString& text) {
  for (int r = 0; t && r < t->rowCount(); ++r)
    if (cell(t, r, column) == text) return r;
  return -1;
}

// The key results of w's last run as the report computes them: every row,
// the report settings' cycles per minute.
KeyResults expected(MainWindow& w) {
  KeyResultOptions opt;
  opt.cyclesPerMinute = reportSettings(w.project()).cyclesPerMinute;
  return engine::keyResults(w.project(), *w.keyResultRows(), opt);
}

// Runs w to the end and shows the Key Results tab; the view says "running" meanwhile.
bool runAndShow(MainWindow& w, KeyResultsView* view) {
  w.timeCursor()->setSpeed(TimeCursor::asFastAsPossible());
  QSignalSpy done(&w, &MainWindow::simulationFinished);
  w.runSimulation();
  if (!view->status().startsWith("Running") || view->table("machine")) return false;
  if (!done.wait(120000) || !w.runner()->lastResult().ok()) return false;
  w.resultsPanel()->tabs()->setCurrentWidget(view);
  return view->isVisible() && view->results();
}

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(name); }

// With PM_KEY_RESULTS_SHOTS=<folder>: the window as a picture, <folder>/<name>.png, to look at.
void shoot(MainWindow& w, const char* name) {
  const QString dir = qEnvironmentVariable("PM_KEY_RESULTS_SHOTS");
  if (dir.isEmpty()) return;
  QTest::qWait(100);
  w.grab().save(dir + "/" + name + ".png");
}

}  // namespace

class TestGuiKeyResultsView : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
  }

  void meterOutCycleAirAndStroke() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("seed003_meter_out"), test::kLargeWindow));
    KeyResultsView* view = w.resultsPanel()->keyResultsView();
    QVERIFY(view);
    QVERIFY(view->status().startsWith("No results"));
    QVERIFY(runAndShow(w, view));
    const KeyResults kr = expected(w);
    QVERIFY(kr.hasCycle && !kr.supplies.empty() && kr.cyclesPerMinute == 30);

    const QTableWidget* machine = view->table("machine");
    QVERIFY(machine);
    QCOMPARE(cell(machine, 0, 0), kr.cycleClosed ? QString("Cycle time") : QString("Motion time (open cycle)"));
    QCOMPARE(cell(machine, 0, 1), num(kr.cycleTime(), 3) + " s");
    const int air = rowWith(machine, 0, "Air consumption per cycle");
    QVERIFY(air >= 0);
    QCOMPARE(cell(machine, air, 1), num(kr.airNormalLitres, 3) + " Nl");
    const int perMinute = rowWith(machine, 0, "Air consumption per minute");
    QCOMPARE(cell(machine, perMinute, 1), num(kr.airNormalLitresPerMinute(), 1) + " Nl/min");
    QVERIFY(cell(machine, perMinute, 2).contains("at 30 cycles per minute"));
    const int filling = rowWith(machine, 0, "Initial filling (not counted)");
    QVERIFY(filling >= 0);
    QCOMPARE(cell(machine, filling, 1), num(normalLitres(kr.airMassBeforeCycle), 3) + " Nl");

    // The first cylinder's extension: its movement time.
    QVERIFY(!kr.cylinders.empty());
    const CylinderResult& cyl = kr.cylinders.front();
    const StrokeResult* ext = cyl.firstStroke(true);
    QVERIFY(ext);
    const QTableWidget* strokes = view->table("cylinder:" + QString::fromStdString(cyl.id));
    QVERIFY(strokes);
    QCOMPARE(strokes->horizontalHeaderItem(5)->text(), QString("Movement\n[s]"));
    const int row = rowWith(strokes, 1, "extend");
    QVERIFY(row >= 0);
    QCOMPARE(cell(strokes, row, 3), num(ext->tStart, 3));
    QCOMPARE(cell(strokes, row, 5), num(ext->duration(), 3));
    // Copy: the CLI's text.
    view->copyText();
    QCOMPARE(QApplication::clipboard()->text(), QString::fromStdString(kr.toText()));
    shoot(w, "seed003");
  }

  void boomDockingContactsLatchesAndPressureUnit() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("seed003_meter_out"), test::kLargeWindow));
    KeyResultsView* view = w.resultsPanel()->keyResultsView();
    QVERIFY(runAndShow(w, view));
    QVERIFY(view->table("machine"));
    // Open clears the last project's results.
    QVERIFY(w.openProject(test::examplePath("seed004_boom_docking")));
    QVERIFY(!view->results() && !view->table("machine"));
    QVERIFY(view->status().startsWith("No results"));
    QVERIFY(runAndShow(w, view));
    const KeyResults kr = expected(w);

    QVERIFY(!kr.latches.empty() && !kr.latches.front().engagements.empty());
    const LatchResult& latch = kr.latches.front();
    const LatchEngagement& e = latch.engagements.front();
    const QTableWidget* latches = view->table("latches");
    const int lr = rowWith(latches, 0, QString::fromStdString(latch.id));
    QVERIFY(lr >= 0);
    QCOMPARE(cell(latches, lr, 2), num(e.t, 3));
    QCOMPARE(cell(latches, lr, 4), num(e.velocityJump, 3));
    QCOMPARE(cell(latches, lr, 5), num(e.energyLost, 3));
    QVERIFY(e.velocityJump > 0.0005 && e.energyLost > 0.0005);  // nonzero at the digits shown

    QVERIFY(!kr.contacts.empty());
    const ContactPairResult& pair = kr.contacts.front();
    QVERIFY(!pair.touches.empty());
    const QTableWidget* contacts = view->table("contacts");
    const int cr = rowWith(contacts, 0, QString::fromStdString(pair.id));
    QVERIFY(cr >= 0);
    QCOMPARE(cell(contacts, cr, 2), QString::number(pair.touches.size()));
    QCOMPARE(cell(contacts, cr, 3), num(pair.touches.front().tStart, 3));

    // View > Pressure Units: the peak pressure in the other unit.
    QVERIFY(!kr.cylinders.empty());
    const CylinderResult& cyl = kr.cylinders.front();
    const QTableWidget* peaks = view->table("peaks");
    QVERIFY(peaks);
    QCOMPARE(peaks->horizontalHeaderItem(2)->text(), QString("Peak chamber A\n[bar (g)]"));
    QCOMPARE(cell(peaks, 0, 2), num((cyl.pAMax - kr.ambientPressure) / 1e5, 2));
    QAction* absolute = action(w, "actionPressureAbsolute");
    QVERIFY(absolute);
    absolute->trigger();
    peaks = view->table("peaks");
    QVERIFY(peaks);
    QCOMPARE(peaks->horizontalHeaderItem(2)->text(), QString("Peak chamber A\n[bar (abs)]"));
    QCOMPARE(cell(peaks, 0, 2), num(cyl.pAMax / 1e5, 2));
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
    QCOMPARE(view->table("peaks")->horizontalHeaderItem(2)->text(), QString("Peak chamber A\n[bar (g)]"));

    // A new run: "running" again, the tables gone until it ends.
    w.runSimulation();
    QVERIFY(view->status().startsWith("Running") && !view->table("latches"));
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    QVERIFY(done.wait(120000));
    QVERIFY(view->table("latches"));

    shoot(w, "seed004_top");
    auto* scroll = view->findChild<QScrollArea*>();
    QTest::qWait(50);  // the wrapped text laid out
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    shoot(w, "seed004_bottom");
  }
};

QTEST_MAIN(TestGuiKeyResultsView)
#include "test_gui_key_results_view.moc"
