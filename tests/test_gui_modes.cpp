// The modes of the machine in the studio (issue #22), offscreen (no 3D
// view: tests/test_gui3d_modes.cpp animates them):
//  - Analysis > Modes shows the Modes dock; Compute lists, for the seed 001
//    flexible link, the same oscillating modes `pneumech modal` finds
//    (engine::modal), with their frequency, damping ratio and the beam
//    taking part; selecting a row animates that mode (one period of rows
//    whose tip node moves), Stop ends it;
//  - Compute works on a worker thread: the event loop runs meanwhile, Cancel
//    and a new project give it up, closing the window while it computes is
//    safe; the status names the stage, and Cancel during the eigensolution
//    ends the worker long before the eigensolution would have;
//  - the schematic plays a mode: in the swing arm's mode with the largest
//    pressure swing in the cylinder's A line, that line's colour is the
//    playback's colour of the operating point's pressure plus the scaled
//    oscillation at every phase (and changes over the period); in a mode
//    without pressure (the arm bending out of the swing's plane) it stays
//    the operating point's colour;
//    the schematic's colour legend shows meanwhile (from 0 to the supply's
//    5 bar (g)), with no run made, and goes with Stop; after a run, Stop
//    leaves the run's legend;
//  - a static equilibrium that does not exist (the link driven by a torque)
//    is said in the panel, not thrown;
//  - ticking "Table of the lowest modes" in Report Settings writes
//    report.modes into the project, and the PDF report then holds the table
//    of the lowest modes with the frequencies engine::modal gives (pdftotext).
#include "document.h"
#include "main_window.h"
#include "modes_panel.h"
#include "report_export.h"
#include "report_settings_dialog.h"
#include "result_buffer.h"
#include "run_animation.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "support/studio_window.h"

#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <time.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::runToEnd;
using pm::test::showProject;

namespace {

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(name); }

template <class T>
T* child(QWidget* w, const char* name) {
  T* c = w->findChild<T*>(name);
  if (!c) qWarning("no %s", name);
  return c;
}

void clickRow(QTableWidget* t, int row) {
  t->scrollToItem(t->item(row, 0));
  QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualItemRect(t->item(row, 0)).center());
}

// Enter is left out in a dialog (it would press OK).
void retype(QAbstractSpinBox* e, const QString& text, bool enter = true) {
  e->setFocus();
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
  if (enter) QTest::keyClick(e, Qt::Key_Enter);
}

// Clicks Compute and waits until the panel has finished computing (the
// button is enabled again): the analysis runs on a worker thread.
void computeAndWait(ModesPanel* panel) {
  auto* button = child<QPushButton>(panel, "computeModes");
  QTest::mouseClick(button, Qt::LeftButton);
  QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 120000);
}

// With PM_SCREENSHOTS=DIR the window is saved there as a PNG file.
void shoot(QWidget* w, const QString& name) {
  const QByteArray dir = qgetenv("PM_SCREENSHOTS");
  if (!dir.isEmpty()) w->grab().save(QString::fromUtf8(dir) + "/" + name);
}

// The swing arm's operating point: mid-stroke.
constexpr double kSwingAt = 0.3;

std::vector<const Mode*> oscillating(const ModalResult& r) {
  std::vector<const Mode*> out;
  for (const Mode& m : r.modes)
    if (m.oscillating) out.push_back(&m);
  return out;
}

}  // namespace

class TestGuiModes : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void modesTableAndAnimation() {
    MainWindow w;
    const QString file = examplePath("seed001_flexible_link");
    QVERIFY(showProject(w, file, QSize(1400, 900)));
    QVERIFY(w.modesDock()->isHidden());
    action(w, "actionModes")->trigger();
    QVERIFY(w.modesDock()->isVisible());
    ModesPanel* panel = w.modesPanel();
    computeAndWait(panel);
    QVERIFY2(panel->result(), qPrintable(child<QLabel>(panel, "modesStatus")->text()));

    const ModalResult expected = engine::modal(w.project(), file.toStdString(), {});
    const auto osc = oscillating(expected);
    QTableWidget* t = panel->table();
    QVERIFY(osc.size() >= 3);
    QCOMPARE(t->rowCount(), int(osc.size()));
    for (int r = 0; r < 3; ++r) {
      qInfo("row %d: mode %s, %s Hz, zeta %s, %s", r, qPrintable(t->item(r, 0)->text()), qPrintable(t->item(r, 1)->text()),
            qPrintable(t->item(r, 2)->text()), qPrintable(t->item(r, 4)->text()));
      QCOMPARE(t->item(r, 1)->text().toDouble(), QString::number(osc[size_t(r)]->frequency, 'g', 6).toDouble());
      QCOMPARE(t->item(r, 2)->text(), QString::number(osc[size_t(r)]->dampingRatio, 'g', 4));
      QVERIFY(t->item(r, 4)->text().contains("link"));
    }
    // Every mode, the non-oscillating ones too (the free rotation on the hub).
    QTest::mouseClick(child<QCheckBox>(panel, "modesShowAll"), Qt::LeftButton);
    QCOMPARE(t->rowCount(), int(expected.modes.size()));
    QTest::mouseClick(child<QCheckBox>(panel, "modesShowAll"), Qt::LeftButton);
    QCOMPARE(t->rowCount(), int(osc.size()));

    // Selecting the second row animates its mode: one period of rows in which the link's tip moves.
    clickRow(t, 1);
    const int mode = t->item(1, 0)->text().toInt() - 1;
    QCOMPARE(panel->animatedMode(), mode);
    const ResultStore* rows = panel->animationRows();
    QVERIFY(rows && rows->rows() == 61);
    auto swing = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end()); };
    // The square link bends in either plane: the tip's sideways swing, y or z.
    const std::string side = swing(rows->column("link_n7.y")) > swing(rows->column("link_n7.z")) ? "link_n7.y" : "link_n7.z";
    const double before = swing(rows->column(side));
    qInfo("tip swings %.6g m along %s at 10 %%", before, side.c_str());
    QVERIFY(before > 1e-3);
    // Twice the amplitude, twice the motion (the slider by keyboard: PageUp is +10 %).
    QSlider* amp = panel->amplitudeSlider();
    amp->setFocus();
    QTest::keyClick(amp, Qt::Key_PageUp);
    QCOMPARE(amp->value(), 20);
    // Twice to first order: each node moves by the rigid motion of its
    // twist, whose sideways reach grows as sin, so the swing at 20 % falls
    // short of twice that at 10 % by about turn^2 / 8 relative (the tip
    // turns ~0.2 rad at 20 %: 5e-3).
    const double after = swing(panel->animationRows()->column(side));
    qInfo("tip swings %.9g m at 20 %%: %.9g times that at 10 %%", after, after / before);
    QVERIFY(std::abs(after / (2 * before) - 1) < 1e-2);
    QTest::mouseClick(child<QPushButton>(panel, "stopModeAnimation"), Qt::LeftButton);
    QCOMPARE(panel->animatedMode(), -1);
    QVERIFY(!panel->animationRows());

    // Static equilibrium at 0.5 s: the torque drives the free link, there is none.
    retype(child<QDoubleSpinBox>(panel, "modesAt"), "0.5");
    QTest::mouseClick(child<QCheckBox>(panel, "modesStatic"), Qt::LeftButton);
    computeAndWait(panel);
    QVERIFY(!panel->result());
    QCOMPARE(t->rowCount(), 0);
    const QString status = child<QLabel>(panel, "modesStatus")->text();
    qInfo("%s", qPrintable(status));
    QVERIFY(status.contains("failed") && status.contains("static equilibrium"));
  }

  // Compute runs on a worker thread: the window keeps answering (a timer
  // ticks) while the button says "Computing...", then the table fills with
  // engine::modal's numbers. Cancel gives a computation up (nothing is
  // listed, and Compute works again); an edit (here New) gives it up too;
  // closing the window while it computes ends cleanly.
  void computesOnAWorkerThread() {
    MainWindow w;
    const QString file = examplePath("seed001_flexible_link");
    QVERIFY(showProject(w, file, QSize(1400, 900)));
    action(w, "actionModes")->trigger();
    ModesPanel* panel = w.modesPanel();
    auto* button = child<QPushButton>(panel, "computeModes");
    auto* status = child<QLabel>(panel, "modesStatus");
    // From 0.3 s: the run there is part of the computation.
    retype(child<QDoubleSpinBox>(panel, "modesAt"), "0.3");

    int ticks = 0, ticksComputing = 0;
    QTimer ticker;
    ticker.setInterval(1);
    connect(&ticker, &QTimer::timeout, [&] {
      ++ticks;
      if (!button->isEnabled() && !panel->result()) ++ticksComputing;
    });
    ticker.start();
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(button, Qt::LeftButton);
    const qint64 clickMs = clock.elapsed();
    // The click returns at once: nothing computed yet, the button says so.
    QVERIFY2(!panel->result(), "computed on the GUI thread");
    QVERIFY(!button->isEnabled());
    QCOMPARE(button->text(), QString("Computing..."));
    auto* cancel = child<QPushButton>(panel, "cancelModes");
    QVERIFY(cancel && cancel->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(panel->result(), 120000);
    qInfo("click returned after %lld ms; computed after %lld ms; the timer ticked %d times meanwhile (%d in all)",
          clickMs, clock.elapsed(), ticksComputing, ticks);
    QVERIFY(ticksComputing > 0);
    QVERIFY(button->isEnabled() && !cancel->isEnabled());
    QCOMPARE(button->text(), QString("Compute"));
    ModalOptions o;
    o.at = 0.3;
    const ModalResult expected = engine::modal(w.project(), file.toStdString(), o);
    const auto osc = oscillating(expected);
    QTableWidget* t = panel->table();
    QCOMPARE(t->rowCount(), int(osc.size()));
    for (int r = 0; r < t->rowCount(); ++r) {
      QCOMPARE(t->item(r, 1)->text(), QString::number(osc[size_t(r)]->frequency, 'g', 6));
      QCOMPARE(t->item(r, 2)->text(), QString::number(osc[size_t(r)]->dampingRatio, 'g', 4));
    }
    QCOMPARE(panel->result()->modes.size(), expected.modes.size());
    for (size_t k = 0; k < expected.modes.size(); ++k)
      QCOMPARE(panel->result()->modes[k].lambda, expected.modes[k].lambda);

    // Cancel: nothing listed, no late result, and Compute works again.
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(button->isEnabled() && !panel->result());
    QVERIFY2(status->text().contains("Cancelled"), qPrintable(status->text()));
    QTest::qWait(1500);
    QVERIFY(!panel->result());
    QCOMPARE(t->rowCount(), 0);
    computeAndWait(panel);
    QVERIFY(panel->result());
    QCOMPARE(t->rowCount(), int(osc.size()));

    // A new project while computing: the computation is given up.
    QTest::mouseClick(button, Qt::LeftButton);
    w.newProject();
    QVERIFY(button->isEnabled());
    QTest::qWait(1500);
    QVERIFY(!panel->result());
    QCOMPARE(t->rowCount(), 0);
    QVERIFY2(status->text().contains("changed"), qPrintable(status->text()));
  }

  void closingWhileComputing() {
    auto* w = new MainWindow;
    QVERIFY(showProject(*w, examplePath("seed001_flexible_link"), QSize(1400, 900)));
    action(*w, "actionModes")->trigger();
    QTest::mouseClick(child<QPushButton>(w->modesPanel(), "computeModes"), Qt::LeftButton);
    QVERIFY(!w->modesPanel()->result());
    delete w;  // the worker is given up and joined; its posted result is dropped
    QTest::qWait(200);
  }

  // Cancel interrupts the eigensolution itself: on the swing arm with its
  // arm in 40 elements (over 400 states: the sparse solver) the status
  // names the stage; Cancel
  // clicked while it says "solving the eigenproblem" ends the worker
  // (closing the window joins it) well before the eigensolution would have
  // ended, timed here in full by engine::modal with the same stages. CPU
  // time of the process (the machine may be shared; the GUI thread idles).
  void cancelStopsTheEigensolution() {
    auto cpu = [] {
      timespec ts{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
      return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
    };
    QFile example(examplePath("flexible_swing_arm"));
    QVERIFY(example.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(example.readAll()).object();
    QJsonObject mech = root["mechanism"].toObject();
    QJsonArray beams = mech["flexible_bodies"].toArray();
    QJsonObject arm = beams[0].toObject();
    QCOMPARE(arm["elements"].toInt(), 10);
    arm["elements"] = 40;
    QJsonArray markers = arm["markers"].toArray();
    for (qsizetype k = 0; k < markers.size(); ++k) {  // the same places along the arm
      QJsonObject m = markers[k].toObject();
      m["node"] = 4 * m["node"].toInt();
      markers[k] = m;
    }
    arm["markers"] = markers;
    beams[0] = arm;
    mech["flexible_bodies"] = beams;
    root["mechanism"] = mech;
    QTemporaryDir dir;
    const QString file = dir.filePath("fine_swing_arm.pneumech.json");
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(root).toJson());
    out.close();
    auto* w = new MainWindow;
    QVERIFY(showProject(*w, file, QSize(1400, 900)));
    ModalOptions o;
    double solveStart = 0.0, solveEnd = 0.0;
    o.onStage = [&](ModalStage s) {
      if (s == ModalStage::Eigensolve) solveStart = cpu();
      if (s == ModalStage::Modes) solveEnd = cpu();
    };
    QCOMPARE(engine::modal(w->project(), file.toStdString(), o).solver, std::string("sparse"));
    const double full = solveEnd - solveStart;

    action(*w, "actionModes")->trigger();
    ModesPanel* panel = w->modesPanel();
    auto* status = child<QLabel>(panel, "modesStatus");
    QTest::mouseClick(child<QPushButton>(panel, "computeModes"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains("solving the eigenproblem"), 120000);
    const double clicked = cpu();
    QTest::mouseClick(child<QPushButton>(panel, "cancelModes"), Qt::LeftButton);
    QVERIFY2(status->text().contains("Cancelled"), qPrintable(status->text()));
    QVERIFY(!panel->result());
    delete w;  // joins the worker: it must have stopped
    const double after = cpu() - clicked;
    qInfo("the eigensolution takes %.3f s CPU in full; cancelled in it, the worker ended %.3f s CPU after the click",
          full, after);
    QVERIFY2(after < full / 4, qPrintable(QString("%1 s CPU of %2").arg(after).arg(full)));
  }

  void schematicPlaysThePressures() {
    MainWindow w;
    const QString file = examplePath("flexible_swing_arm");
    QVERIFY(showProject(w, file, QSize(1400, 900)));
    action(w, "actionModes")->trigger();
    ModesPanel* panel = w.modesPanel();
    retype(child<QDoubleSpinBox>(panel, "modesAt"), QString::number(kSwingAt));
    computeAndWait(panel);
    QVERIFY2(panel->result(), qPrintable(child<QLabel>(panel, "modesStatus")->text()));
    const ModalResult& r = *panel->result();
    // The channel of line l2's net (valve 4 to the cylinder's A).
    const engine::NetMap nets(w.project());
    std::string channel;
    for (const auto& n : nets.nets())
      if (std::find(n.members.begin(), n.members.end(), "cyl.A") != n.members.end()) channel = n.name + ".p";
    QVERIFY(!channel.empty());
    size_t column = 0;
    while (column < r.channels.size() && r.channels[column].name != channel) ++column;
    QVERIFY(column < r.channels.size());
    const double p0 = r.outputs[column];
    const double pAmb = w.project().simulation.ambient_pressure, gauge = 601325.0 - pAmb;  // the supply's
    auto amplitude = [&](const Mode& m) -> const ChannelAmplitude* {
      for (const ChannelAmplitude& c : m.channels)
        if (c.channel == channel) return &c;
      return nullptr;
    };
    // The panel (no 3D view here) scales a mode to 10 % of a 1 m mechanism.
    auto scale = [&](size_t k) { return modeScale(r, k, 0.1, 1.0); };
    int swinging = -1, still = -1;
    double most = 0;
    for (size_t k = 0; k < r.modes.size(); ++k) {
      if (!r.modes[k].oscillating || scale(k) <= 0) continue;
      const ChannelAmplitude* a = amplitude(r.modes[k]);
      const double swing = a ? a->amplitude * scale(k) : 0.0;
      qInfo("mode %zu: %.6g Hz, %s swings by %.4g Pa", k + 1, r.modes[k].frequency, channel.c_str(), swing);
      if (swing > most) most = swing, swinging = int(k);
      if (swing < 1e-6 * p0 && r.modes[k].frequency > 1.0 && still < 0) still = int(k);  // not a drifting rigid mode
    }
    QVERIFY(swinging >= 0 && still >= 0);
    QTableWidget* t = panel->table();
    auto rowOf = [&](int mode) {
      for (int i = 0; i < t->rowCount(); ++i)
        if (t->item(i, 0)->text().toInt() == mode + 1) return i;
      return -1;
    };
    const QColor rest = pressureColor((p0 - pAmb) / gauge);
    const SchematicScene* scene = w.scene();
    auto lineColour = [&]() -> QColor {
      const auto& c = scene->frame().lineColor;
      const auto it = c.find("l2");
      return it == c.end() ? QColor() : it->second;
    };

    SchematicView* view = w.schematicView();
    QVERIFY(!view->legendVisible());  // no run yet
    clickRow(t, rowOf(swinging));
    QCOMPARE(panel->animatedMode(), swinging);
    QVERIFY(view->legendVisible());
    QCOMPARE(view->legendTicks(), QStringList({"0", "1.25", "2.5", "3.75", "5"}));
    const ChannelAmplitude* a = amplitude(r.modes[size_t(swinging)]);
    std::set<QRgb> seen;
    for (int i = 0; i < 60; i += 3) {
      panel->showPhase(i / 60.0);
      const double p = p0 + scale(size_t(swinging)) * a->amplitude * std::cos(2.0 * std::numbers::pi * (i / 60.0) + a->phase);
      const QColor want = pressureColor((p - pAmb) / gauge);
      QVERIFY2(scene->frame().active && lineColour() == want,
               qPrintable(QString("phase %1/60: %2 for %3 Pa, want %4").arg(i).arg(lineColour().name(), QString::number(p), want.name())));
      seen.insert(lineColour().rgb());
      if (i == 0 || i == 30) shoot(&w, QString("mode_schematic_phase%1.png").arg(i));
    }
    qInfo("mode %d: l2 takes %zu colours over the period (%.4g Pa about %.6g Pa)", swinging + 1, seen.size(), most, p0);
    QVERIFY(seen.size() >= 3);

    clickRow(t, rowOf(still));
    QCOMPARE(panel->animatedMode(), still);
    for (int i = 0; i < 60; i += 3) {
      panel->showPhase(i / 60.0);
      QVERIFY2(lineColour() == rest, qPrintable(QString("phase %1/60: %2, want %3").arg(i).arg(lineColour().name(), rest.name())));
    }
    // Stop: the schematic shows no run (there is none) again.
    QTest::mouseClick(child<QPushButton>(panel, "stopModeAnimation"), Qt::LeftButton);
    QVERIFY(!scene->frame().active);
    QVERIFY(!view->legendVisible());

    // After a run: a mode's Stop gives the schematic the run's picture and legend back.
    QVERIFY(runToEnd(w));
    QVERIFY(scene->frame().active && view->legendVisible());
    clickRow(t, rowOf(swinging));
    QCOMPARE(panel->animatedMode(), swinging);
    QTest::mouseClick(child<QPushButton>(panel, "stopModeAnimation"), Qt::LeftButton);
    QVERIFY(scene->frame().active);
    QVERIFY(view->legendVisible());
    QCOMPARE(view->legendTicks(), QStringList({"0", "1.25", "2.5", "3.75", "5"}));
  }

  void reportHasTheModesTable() {
    MainWindow w;
    const QString file = examplePath("seed001_flexible_link");
    QVERIFY(showProject(w, file, QSize(1400, 900)));
    w.document()->edit("shorter", [](Project& p) { p.simulation.t_end = 0.3; });
    QCOMPARE(reportSettings(w.project()).modes, 0);
    action(w, "actionReportSettings")->trigger();
    auto* d = w.findChild<ReportSettingsDialog*>();
    QVERIFY(d && QTest::qWaitForWindowExposed(d));
    auto* count = child<QSpinBox>(d, "reportModeCount");
    QVERIFY(!count->isEnabled());
    QTest::mouseClick(child<QCheckBox>(d, "reportModes"), Qt::LeftButton);
    QVERIFY(count->isEnabled());
    retype(count, "4", false);
    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QCOMPARE(reportSettings(w.project()).modes, 4);
    QCOMPARE(w.project().extra["report"]["modes"], nlohmann::json(4));

    QVERIFY(runToEnd(w));
    const QString pdf = dir_.path() + "/modes.pdf";
    QString error;
    QVERIFY2(exportReport(w.project(), *w.resultBuffer()->store(), pdf, &error, file), qPrintable(error));
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: PDF text not checked");
    QProcess p;
    p.start(pdftotext, {"-layout", pdf, "-"});
    QVERIFY(p.waitForFinished(60000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY(text.contains("Modes of the machine") && text.contains("Lowest modes"));
    const ModalResult r = engine::modal(w.project(), file.toStdString(), {});
    const auto osc = oscillating(r);
    QVERIFY(osc.size() >= 5);
    for (size_t i = 0; i < 4; ++i) {
      const QString f = QString::number(osc[i]->frequency, 'g', 5);
      qInfo("mode %zu: %s Hz", i + 1, qPrintable(f));
      QVERIFY2(text.contains(f), qPrintable("no frequency " + f));
    }
    // The lowest four, not the fifth.
    QVERIFY(!text.contains(QString::number(osc[4]->frequency, 'g', 5)));
  }
};

QTEST_MAIN(TestGuiModes)
#include "test_gui_modes.moc"
