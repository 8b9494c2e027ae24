// Running from the studio: the seed-003 circuit runs on the worker thread
// while the plot panes receive points; pause holds the solver (no more rows,
// simulated time stands still), resume continues, stop cancels and keeps the
// results. Channels are dragged from the results tree onto a pane (one y axis
// per unit), the pane zooms, pans and shows a crosshair, a click moves the
// shared time cursor, and panes and channels export as PNG, SVG and CSV. The
// displacement-step diagram of the A+ B+ A- B- example is shown and goes
// into the PDF report.
//
// Dropping: a real QDrag runs its own platform event loop, so the test builds
// the QMimeData with the results tree's own mimeData() and delivers the
// drag-enter/move/drop events to the pane, as test_gui_schematic does.
#include "displacement_step_view.h"
#include "main_window.h"
#include "plot_pane.h"
#include "report_export.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "results_tree.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "simulation_runner.h"
#include "time_cursor.h"
#include "units.h"
#include "engine/engine.h"
#include "support/drop_events.h"
#include "support/studio_window.h"


#include <QAction>
#include <QApplication>
#include <QChart>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::runToEnd;
using pm::test::showProject;

namespace {

QString example(const char* name) { return QString(PM_SOURCE_DIR) + "/projects/" + name; }

// Drags channels (engine names) from the results tree onto `pane`.
bool dropChannels(MainWindow& w, PlotPane* pane, const std::vector<std::string>& names) {
  ResultsTree* tree = w.resultsPanel()->tree();
  QModelIndexList idx;
  for (const auto& n : names) {
    QTreeWidgetItem* item = tree->channelItem(n);
    if (!item) return false;
    idx << tree->indexFromItem(item);
  }
  std::unique_ptr<QMimeData> mime(tree->model()->mimeData(idx));
  if (!mime) return false;
  QWidget* vp = pane->viewport();
  const QPoint at = vp->rect().center();
  return pm::test::deliverDrop(vp, at, mime.get());
}

// The seed-003 circuit with a longer end time (so a run lasts long enough to
// be paused), written next to the test's other files.
QString longSeed003(const QTemporaryDir& dir, double tEnd) {
  Project p = engine::load(example("seed003_meter_out.pneumech.json").toStdString());
  p.simulation.t_end = tEnd;
  const QString path = dir.filePath("seed003_long.pneumech.json");
  engine::save(p, path.toStdString());
  return path;
}

int seriesPoints(MainWindow& w) {
  int n = 0;
  for (auto* s : w.chart()->series()) n = std::max(n, int(qobject_cast<QLineSeries*>(s)->count()));
  return n;
}

// Time of the last plotted point: it grows while results arrive even when
// decimation keeps the number of points constant (2000 buckets at most).
double seriesEnd(MainWindow& w) {
  double t = -1.0;
  for (auto* s : w.chart()->series()) {
    auto* line = qobject_cast<QLineSeries*>(s);
    if (line->count() > 0) t = std::max(t, line->at(line->count() - 1).x());
  }
  return t;
}

QPoint plotPoint(PlotPane* pane, double fx, double fy) {
  const QRectF pa = pane->mapFromScene(pane->chart()->mapRectToScene(pane->chart()->plotArea())).boundingRect();
  return QPoint(int(pa.left() + fx * pa.width()), int(pa.top() + fy * pa.height()));
}

}  // namespace

class TestGuiRun : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
  }

  void pauseResumeStop() {
    MainWindow w;
    QVERIFY(showProject(w, longSeed003(dir_, 500.0)));
    // Paced at real time (Interactive at 1x): the 500 s run cannot end before
    // the resume below however long a loaded machine keeps the GUI thread
    // from the clicks (unpaced, it wrote its 500,000 rows in about 3 s).
    w.findChild<QAction*>("actionInteractive")->setChecked(true);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(w.runner()->isRunning());
    // Points arrive while the solver runs.
    QTRY_VERIFY_WITH_TIMEOUT(seriesPoints(w) > 50, 60000);
    QVERIFY(w.runner()->isRunning());
    QVERIFY(w.statusText().startsWith("Running... t = "));
    QVERIFY(w.statusText().contains("real-time factor"));
    const double growing = seriesEnd(w);
    QTRY_VERIFY_WITH_TIMEOUT(seriesEnd(w) > growing, 20000);

    // Pause from the toolbar: once the solver is held, neither rows nor
    // simulated time move.
    auto* pause = w.findChild<QAction*>("actionPause");
    auto* toolbar = w.findChild<QToolBar*>("mainToolBar");
    QVERIFY(pause && toolbar && pause->isEnabled());
    QWidget* pauseButton = toolbar->widgetForAction(pause);
    QVERIFY(pauseButton);
    QTest::mouseClick(pauseButton, Qt::LeftButton);
    QVERIFY(w.runner()->isPaused());
    QCOMPARE(pause->text(), QString("&Resume"));
    QTRY_VERIFY_WITH_TIMEOUT(w.runner()->isHeld(), 20000);
    // The last poll takes the rows written before holding; the intake
    // pauses up to 200 ms when the GUI thread is busy (FramePacer) and the
    // plots draw new rows up to kLivePlotMs (and the grace a redraw waits
    // for a frame) later.
    QTest::qWait(150 + 200 + int(ResultsPanel::kLivePlotMs + ResultsPanel::kLivePlotGraceMs));
    const size_t rowsPaused = w.resultBuffer()->rows();
    const double tPaused = w.resultBuffer()->times().back();
    const int pointsPaused = seriesPoints(w);
    const double endPaused = seriesEnd(w);
    QTest::qWait(600);
    QCOMPARE(w.resultBuffer()->rows(), rowsPaused);
    QCOMPARE(w.resultBuffer()->times().back(), tPaused);
    QCOMPARE(seriesPoints(w), pointsPaused);
    QCOMPARE(seriesEnd(w), endPaused);
    QVERIFY2(w.statusText().startsWith("Paused at t = " + units::formatNumber(tPaused) + " s"),
             qPrintable(w.statusText()));

    // Resume (the same toolbar button): rows and points grow again.
    QTest::mouseClick(pauseButton, Qt::LeftButton);
    QVERIFY(!w.runner()->isPaused());
    QCOMPARE(pause->text(), QString("&Pause"));
    QTRY_VERIFY_WITH_TIMEOUT(w.resultBuffer()->rows() > rowsPaused + 20, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(seriesEnd(w) > endPaused, 20000);

    // Pause again and stop while paused: the stop wakes the held solver.
    w.pauseSimulation();
    QTRY_VERIFY_WITH_TIMEOUT(w.runner()->isHeld(), 20000);
    w.stopSimulation();
    QVERIFY(done.wait(30000));
    QCOMPARE(w.runner()->lastResult().status, RunStatus::Cancelled);
    QVERIFY(w.statusText().startsWith("Cancelled"));
    // The results up to the stop stay viewable.
    const double tLast = w.resultBuffer()->times().back();
    QVERIFY(tLast > tPaused && tLast < 500.0);
    QCOMPARE(w.timeSlider()->maximum(), int(w.resultBuffer()->rows()) - 1);
    // Every row up to the stop was handed over: the run's results file ends where the view does.
    const QString saved = dir_.filePath("stopped_run.csv");
    QVERIFY(w.runner()->resultsFile());
    w.runner()->resultsFile()->writeCsv(saved.toStdString());
    QFile rows(saved);
    QVERIFY(rows.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = rows.readAll().trimmed().split('\n');
    QVERIFY(lines.size() > 2);
    QVERIFY(std::abs(lines.back().split(',').front().toDouble() - tLast) <= 1e-9 * tLast);
  }

  void dragZoomCursorExport() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1500, 1000)));
    QVERIFY(runToEnd(w));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    ResultsPanel* panel = w.resultsPanel();
    ResultBuffer* data = w.resultBuffer();
    const int rows = int(data->rows());
    QCOMPARE(rows, 1001);  // t = 0 ... 1 s every ms

    // The tree groups by object: cyl1's channels under "cyl1".
    QTreeWidgetItem* x = panel->tree()->channelItem("cyl1.x");
    QVERIFY(x && x->parent());
    QCOMPARE(x->parent()->text(0), QString("cyl1"));

    // A new pane receives two channels of different units: two y axes.
    PlotPane* pane = panel->addPane();
    QTest::qWait(50);
    QVERIFY(dropChannels(w, pane, {"cyl1.x", "cyl1.pA"}));
    QCOMPARE(panel->currentPane(), pane);
    QLineSeries* sx = pane->series("cyl1.x");
    QVERIFY(sx && pane->series("cyl1.pA"));
    QCOMPARE(int(sx->count()), rows);
    QCOMPARE(int(pane->yAxes().size()), 2);
    QStringList titles;
    for (QValueAxis* a : pane->yAxes()) titles << pane->axisTitle(a);
    titles.sort();
    // Each axis names its quantity and unit (issue #25: pressures gauge by default).
    QCOMPARE(titles, QStringList({"position x [mm]", "pressure pA [bar (g)]"}));
    // Points in display units: the piston position in mm.
    const auto xs = data->columns()[size_t(data->find("cyl1.x"))];
    QVERIFY(std::abs(sx->at(700).y() - xs[700] * 1e3) < 1e-9);
    // The same channel again is not added twice.
    QVERIFY(dropChannels(w, pane, {"cyl1.x"}));
    QCOMPARE(int(pane->chart()->series().size()), 2);

    // Rubber-band zoom to the middle half of the time axis.
    QVERIFY(pane->autoRange());
    QWidget* vp = pane->viewport();
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, plotPoint(pane, 0.25, 0.1));
    QTest::mouseMove(vp, plotPoint(pane, 0.5, 0.5));
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, plotPoint(pane, 0.75, 0.9));
    QVERIFY(!pane->autoRange());
    const double z0 = pane->timeAxis()->min(), z1 = pane->timeAxis()->max();
    QVERIFY2(std::abs(z0 - 0.25) < 0.01 && std::abs(z1 - 0.75) < 0.01, qPrintable(QString("%1 %2").arg(z0).arg(z1)));
    // Only the window (and one row either side) is drawn.
    QVERIFY(sx->count() >= 499 && sx->count() <= 503);
    // Wheel zooms time around the pointer; a double click auto-ranges.
    pane->zoomTime(2.0, 0.5);
    QVERIFY(std::abs(pane->timeAxis()->min() - 0.375) < 0.01 && std::abs(pane->timeAxis()->max() - 0.625) < 0.01);
    pane->pan(-100, 0);  // dragging left moves later times into view
    QVERIFY(pane->timeAxis()->min() > 0.38);
    QTest::mouseDClick(vp, Qt::LeftButton, Qt::NoModifier, plotPoint(pane, 0.5, 0.5));
    QVERIFY(pane->autoRange());
    QCOMPARE(pane->timeAxis()->min(), 0.0);
    QCOMPARE(pane->timeAxis()->max(), 1.0);
    QCOMPARE(int(sx->count()), rows);

    // Crosshair: the pointer at 40 % of the time axis shows the values there.
    QTest::mouseMove(vp, plotPoint(pane, 0.4, 0.5));
    const QString cross = pane->crosshairText();
    QVERIFY2(cross.startsWith("t = "), qPrintable(cross));
    // Within a pixel of 40 % (the pane is over 1000 px wide: < 0.002 s).
    QVERIFY2(std::abs(cross.section('\n', 0, 0).mid(4).section(' ', 0, 0).toDouble() - 0.4) < 0.002, qPrintable(cross));
    QVERIFY2(cross.contains("cyl1.x = ") && cross.contains("cyl1.pA = "), qPrintable(cross));
    // The values: linear between rows, in display units (mm, bar gauge).
    pane->setCrosshair(0.4005);
    const double xc = 0.5 * (xs[400] + xs[401]) * 1e3;
    const double pc = (0.5 * (data->columns()[size_t(data->find("cyl1.pA"))][400] +
                              data->columns()[size_t(data->find("cyl1.pA"))][401]) - 101325.0) * 1e-5;
    QVERIFY2(pane->crosshairText().contains("cyl1.x = " + units::formatNumber(xc) + " mm"), qPrintable(pane->crosshairText()));
    QVERIFY2(pane->crosshairText().contains("cyl1.pA = " + units::formatNumber(pc) + " bar (g)"), qPrintable(pane->crosshairText()));

    // A click moves the shared time cursor: slider, schematic, every pane.
    QTest::mouseClick(vp, Qt::LeftButton, Qt::NoModifier, plotPoint(pane, 0.3, 0.5));
    const int row = w.timeSlider()->value();
    QVERIFY2(std::abs(data->times()[size_t(row)] - 0.3) < 0.01, qPrintable(QString::number(row)));
    for (int i = 0; i < panel->paneCount(); ++i) QCOMPARE(panel->pane(i)->cursorTime(), data->times()[size_t(row)]);

    // CSV of the selected channels, by the core's writer.
    panel->tree()->selectChannels({"cyl1.x", "cyl1.pA"});
    const auto sel = panel->channelsFor(CsvExportDialog::Channels::Selected);
    QCOMPARE(sel.size(), size_t(2));
    const QString csv = dir_.filePath("sel.csv");
    QString err;
    QVERIFY2(panel->exportCsv(csv, sel, false, &err), qPrintable(err));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), rows + 1);
    QVERIFY2(lines[0].startsWith("time [s]") && lines[0].contains("cyl1.pA") && lines[0].contains("cyl1.x"),
             lines[0].constData());
    const QList<QByteArray> r700 = lines[701].split(',');
    QCOMPARE(r700.size(), 3);
    QVERIFY(std::abs(r700[0].toDouble() - 0.7) < 1e-12);
    int colX = -1;
    for (int i = 0; i < lines[0].split(',').size(); ++i)
      if (lines[0].split(',')[i].startsWith("cyl1.x")) colX = i;
    QVERIFY(colX > 0);
    QVERIFY(std::abs(r700[colX].toDouble() - xs[700]) <= 1e-9 * std::max(1.0, std::abs(xs[700])));
    QVERIFY(!panel->exportCsv(dir_.filePath("none.csv"), {}, false, &err));

    // PNG: the pane at its size, with the position series' colour in it.
    const QString png = dir_.filePath("pane.png");
    QVERIFY2(pane->exportPng(png, &err), qPrintable(err));
    QImage img(png);
    QVERIFY(!img.isNull());
    QCOMPARE(img.size(), pane->chart()->size().toSize());
    const QColor c = sx->pen().color();
    int hits = 0;
    for (int yy = 0; yy < img.height(); ++yy)
      for (int xx = 0; xx < img.width(); ++xx) {
        const QColor p = img.pixelColor(xx, yy);
        hits += std::abs(p.red() - c.red()) < 8 && std::abs(p.green() - c.green()) < 8 && std::abs(p.blue() - c.blue()) < 8;
      }
    QVERIFY2(hits > 300, qPrintable(QString::number(hits)));

    // SVG: vector drawing with the legend text and the axes' titles.
    const QString svg = dir_.filePath("pane.svg");
    QVERIFY2(pane->exportSvg(svg, &err), qPrintable(err));
    QFile sf(svg);
    QVERIFY(sf.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(sf.readAll());
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("cyl1.x [mm]"));
    QVERIFY(text.contains("[bar (g)]"));
    QVERIFY(text.count("<polyline") + text.count("<path") >= 2);

    // Removing a channel drops its axis too.
    QVERIFY(pane->removeChannel("cyl1.pA"));
    QCOMPARE(int(pane->yAxes().size()), 1);

    // Screenshot of the studio for a look (written to the build folder).
    panel->setTimeCursor(0.3);
    pane->setCrosshair(0.55);
    w.grab().save(QDir::current().filePath("gui_run_studio.png"));
    QVERIFY(pane->addChannel("cyl1.pA"));
    QTest::qWait(50);
    pane->setCrosshair(0.55);
    pane->grab().save(QDir::current().filePath("gui_run_pane.png"));
  }

  // Interactive mode: a click held on the sequence's start button during the
  // run presses it (the sequence starts), releasing the mouse releases it.
  void clickPushButtonWhileRunning() {
    Project p = engine::load(example("sequence_a_b.pneumech.json").toStdString());
    p.find("start")->params["t_press"] = 1e9;  // only the hand starts it
    p.simulation.t_end = 1000;
    const QString path = dir_.filePath("seq_manual.pneumech.json");
    engine::save(p, path.toStdString());
    MainWindow w;
    QVERIFY(showProject(w, path, QSize(1500, 1000)));
    // Interactive, unpaced (the playback speed "as fast as possible").
    w.timeCursor()->setSpeed(TimeCursor::asFastAsPossible());
    w.findChild<QAction*>("actionInteractive")->setChecked(true);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    ResultBuffer* data = w.resultBuffer();
    QTRY_VERIFY_WITH_TIMEOUT(data->rows() > 20, 60000);
    const int out = data->find("start.out"), x = data->find("A.x");
    QVERIFY(out >= 0);
    QGraphicsItem* item = w.scene()->componentItem("start");
    QVERIFY(item);
    QWidget* vp = w.schematicView()->viewport();
    const QPoint at = w.schematicView()->mapFromScene(item->sceneBoundingRect().center());
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, at);
    QTRY_VERIFY_WITH_TIMEOUT(data->rows() > 0 && data->columns()[size_t(out)].back() == 1.0, 30000);
    const size_t pressed = data->rows();
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, at);
    QTRY_VERIFY_WITH_TIMEOUT(data->columns()[size_t(out)].back() == 0.0, 30000);
    // The press started the sequence (it runs fast, unpaced): A went out to
    // its 100 mm stroke after the press, and the sequence reached B-.
    QVERIFY(x >= 0);
    const auto& ax = data->columns()[size_t(x)];
    QVERIFY(*std::max_element(ax.begin(), ax.begin() + 20) < 1e-3);
    QTRY_VERIFY_WITH_TIMEOUT(*std::max_element(ax.begin(), ax.end()) > 0.099, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(data->columns()[size_t(data->find("seq.step"))].back(), 4.0, 20000);
    // Before the press the button was never on.
    const auto& col = data->columns()[size_t(out)];
    QCOMPARE(col[0], 0.0);
    QVERIFY(pressed > 20);
    w.stopSimulation();
    QVERIFY(done.wait(30000));
    QVERIFY2(w.runner()->lastResult().status == RunStatus::Cancelled, w.runner()->lastResult().message.c_str());
  }

  // Interactive mode, paced to the wall clock: a click on a manual 5/2 valve
  // with detent toggles it (the cylinder extends), a click on a selector
  // switch driving the valve's side 12 switches it back.
  void clickManualValveAndSelectorWhileRunning() {
    Project p = engine::load(example("seed003_meter_out.pneumech.json").toStdString());
    Component* v = p.find("v1");
    v->params["manual"] = 1.0;
    v->params["spring_return"] = 0.0;
    v->inputs.clear();
    v->inputs["sol12"] = "sel.out";
    Component* sw = p.find("sw1");
    sw->id = "sel";
    sw->type = "selector_switch";
    sw->params.clear();
    p.simulation.t_end = 1000;
    const QString path = dir_.filePath("manual_valve.pneumech.json");
    engine::save(p, path.toStdString());
    MainWindow w;
    QVERIFY(showProject(w, path, QSize(1500, 1000)));
    QAction* paced = w.findChild<QAction*>("actionInteractive");
    QVERIFY(paced);
    paced->setChecked(true);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    ResultBuffer* data = w.resultBuffer();
    QTRY_VERIFY_WITH_TIMEOUT(data->rows() > 200, 60000);
    const int s = data->find("v1.s"), x = data->find("cyl1.x"), sel = data->find("sel.out");
    QVERIFY(s >= 0 && x >= 0 && sel >= 0);
    QCOMPARE(data->columns()[size_t(s)].back(), 0.0);
    QWidget* vp = w.schematicView()->viewport();
    auto click = [&](const char* id) {
      QGraphicsItem* item = w.scene()->componentItem(id);
      QVERIFY(item);
      const QPoint at = w.schematicView()->mapFromScene(item->sceneBoundingRect().center());
      QTest::mouseClick(vp, Qt::LeftButton, Qt::NoModifier, at);
    };
    // Operable things show the pointing hand under the mouse during the run
    // (the manual valve as the selector switch); the rest of the sheet not.
    for (const char* id : {"v1", "sel"}) {
      QTest::mouseMove(vp, w.schematicView()->mapFromScene(w.scene()->componentItem(id)->sceneBoundingRect().center()));
      QCOMPARE(vp->cursor().shape(), Qt::PointingHandCursor);
      QTest::mouseMove(vp, QPoint(3, 3));
      QVERIFY(vp->cursor().shape() != Qt::PointingHandCursor);
    }
    // Where the run was when the click went in (simulated time on screen).
    double tClick = data->times().back();
    click("v1");
    QTRY_VERIFY_WITH_TIMEOUT(data->columns()[size_t(s)].back() == 1.0, 10000);
    const auto& sc = data->columns()[size_t(s)];
    size_t first = 0;
    while (first < sc.size() && sc[first] == 0.0) ++first;
    const double tMoved = data->times()[first];
    qInfo("valve click at t = %.3f s shown, spool moving at %.3f s (delay %.1f ms simulated)", tClick, tMoved,
          1e3 * (tMoved - tClick));
    QVERIFY(tMoved >= tClick);
    // Paced at real time: the click acts within a few output steps of what
    // was on screen (GUI refresh ~33 ms plus one solver step).
    QVERIFY2(tMoved - tClick < 0.2, qPrintable(QString::number(tMoved - tClick)));
    QTRY_VERIFY_WITH_TIMEOUT(data->columns()[size_t(x)].back() > 0.199, 10000);  // extended to the 200 mm stroke
    QCOMPARE(data->columns()[size_t(sel)].back(), 0.0);

    tClick = data->times().back();
    click("sel");
    QTRY_VERIFY_WITH_TIMEOUT(data->columns()[size_t(sel)].back() == 1.0, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(data->columns()[size_t(s)].back() == 0.0, 10000);  // side 12 alone: back
    QTRY_VERIFY_WITH_TIMEOUT(data->columns()[size_t(x)].back() < 0.001, 10000);  // retracted
    // Paced: simulated time kept to the wall clock (not run ahead).
    QVERIFY(data->times().back() < 10.0);
    w.grab().save(QDir::current().filePath("gui_run_manual_valve.png"));
    w.stopSimulation();
    QVERIFY(done.wait(30000));
  }

  void displacementStepDiagramAndReport() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("sequence_a_b"), QSize(1500, 1000)));
    DisplacementStepView* view = w.resultsPanel()->stepView();
    QVERIFY(view->hasSequence());
    QVERIFY(!view->diagram());
    QVERIFY(runToEnd(w));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    QVERIFY2(view->diagram(), qPrintable(view->note()));
    // The same diagram the core computes from the whole result.
    const Project p = engine::load(example("sequence_a_b.pneumech.json").toStdString());
    const auto d = displacementStepDiagram(p, *w.resultBuffer()->store(), firstSequence(p));
    QCOMPARE(view->diagram()->rows.size(), d.rows.size());
    QVERIFY(d.rows.size() >= 4);
    QCOMPARE(view->diagram()->actuators, d.actuators);
    w.resultsPanel()->tabs()->setCurrentWidget(view);
    QTest::qWait(50);
    view->grab().save(QDir::current().filePath("gui_run_step_diagram.png"));
    // The diagram is drawn: the first actuator's colour appears in the view.
    const QImage img = view->grab().toImage();
    int blue = 0;
    for (int yy = 0; yy < img.height(); ++yy)
      for (int xx = 0; xx < img.width(); ++xx) blue += img.pixelColor(xx, yy) == QColor(0, 90, 170);
    QVERIFY2(blue > 50, qPrintable(QString::number(blue)));

    // The PDF report of a sequence project has the diagram.
    const QString pdf = dir_.filePath("seq.pdf");
    QString err;
    QVERIFY2(exportReport(w.project(), *w.resultBuffer()->store(), pdf, &err, w.currentFile()), qPrintable(err));
    QProcess pt;
    pt.start("pdftotext", {"-layout", pdf, "-"});
    QVERIFY(pt.waitForFinished(30000));
    const QString txt = QString::fromUtf8(pt.readAllStandardOutput());
    QVERIFY2(txt.contains("Displacement-step diagram"), qPrintable(txt.left(2000)));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiRun)
#include "test_gui_run.moc"
