// The default plots of a project without a circuit (issue 25 point 4,
// issue 27's contact examples): after its first run every plot pane shows
// channels. The V-block chute names its plots in its "report" section and
// gets them; without that section it gets what an ADAMS user plots first:
// the moving part's position, its velocity and the contact's normal force,
// along the axes that move (the ball rolls in x and z; y stays 0). Before
// anything moves the model says which axes can: a pendulum's bob swings in
// the plane its pin allows. A lift plots its load's height, not its reach.
// With no circuit the schematic shows no pressure scale, but a hint.
#include "main_window.h"
#include "plot_pane.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "simulation_runner.h"
#include "support/studio_window.h"

#include "engine/engine.h"

#include <QChart>
#include <QFile>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QTemporaryDir>
#include <QtTest>

using namespace pm;
using namespace pm::gui;

namespace {

using Panes = std::vector<std::vector<std::string>>;

Panes panesOf(const ResultsPanel* panel) {
  Panes out;
  for (int i = 0; i < panel->paneCount(); ++i) out.push_back(panel->pane(i)->channelNames());
  return out;
}

QString describe(const Panes& panes) {
  QStringList s;
  for (const auto& p : panes) {
    QStringList names;
    for (const auto& n : p) names << QString::fromStdString(n);
    s << "[" + names.join(", ") + "]";
  }
  return s.join(" ");
}

// Opens and runs `path`; every pane has a series for each of its channels.
bool runAndCheckPanes(MainWindow& w, const QString& path, const Panes& expected) {
  if (!test::showProject(w, path, QSize(1400, 1000))) return false;
  if (!test::runToEnd(w)) return false;
  if (!w.runner()->lastResult().ok()) return false;
  const Panes shown = panesOf(w.resultsPanel());
  for (int i = 0; i < w.resultsPanel()->paneCount(); ++i) {
    PlotPane* pane = w.resultsPanel()->pane(i);
    pane->refresh();
    if (pane->channelNames().empty()) {
      qWarning("pane %d is empty: %s", i + 1, qPrintable(describe(shown)));
      return false;
    }
    // One curve and one legend entry a channel.
    const auto curves = pane->chart()->series().size();
    const auto entries = pane->chart()->legend()->markers().size();
    if (curves != qsizetype(pane->channelNames().size()) || entries != curves) {
      qWarning("pane %d: %d channels, %d curves, %d legend entries", i + 1, int(pane->channelNames().size()),
               int(curves), int(entries));
      return false;
    }
    // The y axis is drawn: its labels and title left of the plot area,
    // as the pane shows it (its items' cached pixmaps).
    QTest::qWait(100);
    const QImage shot = pane->grab().toImage();
    const QRect plot = pane->plotAreaIn(pane).toRect();
    int ink = 0;
    for (int y = plot.top(); y < plot.bottom() && y < shot.height(); ++y)
      for (int x = 0; x < plot.left() - 3; ++x) ink += qGray(shot.pixel(x, y)) < 128;
    if (ink < 100) {
      qWarning("pane %d: no y axis drawn (%d dark pixels left of the plot)", i + 1, ink);
      return false;
    }
    for (const std::string& n : pane->channelNames())
      if (!pane->series(n)) {
        qWarning("pane %d has no series for %s", i + 1, n.c_str());
        return false;
      }
  }
  if (shown != expected) {
    qWarning("panes %s, expected %s", qPrintable(describe(shown)), qPrintable(describe(expected)));
    return false;
  }
  return true;
}

// Pixels of the schematic's viewport in a saturated colour (the pressure
// scale's and the coloured lines'; the sheet and symbols are grey and black).
int colouredPixels(SchematicView* view) {
  QTest::qWait(50);
  const QImage shot = view->viewport()->grab().toImage();
  int n = 0;
  for (int y = 0; y < shot.height(); ++y)
    for (int x = 0; x < shot.width(); ++x) n += QColor(shot.pixel(x, y)).hsvSaturation() > 120;
  return n;
}

}  // namespace

class TestGuiMechanismPlots : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
  }

  void reportPlotsOfAMechanismOnly() {
    MainWindow w;
    QVERIFY(runAndCheckPanes(w, test::examplePath("contact_vblock_chute"),
                             {{"ball.x"}, {"ball.vx"}, {"chute_contact.normal_force"}}));
  }

  void positionsVelocitiesAndContactForces() {
    Project p = engine::load(test::examplePath("contact_vblock_chute").toStdString());
    p.extra.erase("report");
    const QString stl = QString(PM_SOURCE_DIR) + "/projects/contact_vblock_chute.stl";
    QVERIFY(QFile::copy(stl, dir_.filePath("contact_vblock_chute.stl")));
    const QString path = dir_.filePath("chute_no_report.pneumech.json");
    engine::save(p, path.toStdString());
    MainWindow w;
    QVERIFY(runAndCheckPanes(w, path,
                             {{"ball.x", "ball.z"}, {"ball.vx", "ball.vz"}, {"chute_contact.normal_force"}}));
  }

  // No circuit: nothing for the pressure scale to explain, a hint instead.
  void noPressureScaleWithoutACircuit() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("contact_vblock_chute"), QSize(1400, 1000)));
    QVERIFY(test::runToEnd(w));
    SchematicView* view = w.schematicView();
    QVERIFY(w.scene()->frame().active);
    QVERIFY(!view->legendVisible());
    QCOMPARE(view->legendHint(), QString("No circuit: pressures are shown on the lines of a circuit"));
    QCOMPARE(colouredPixels(view), 0);
  }

  // The scale and no hint where there are lines to colour.
  void pressureScaleOfACircuit() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("seed003_meter_out"), QSize(1400, 1000)));
    QVERIFY(test::runToEnd(w));
    SchematicView* view = w.schematicView();
    QVERIFY(view->legendVisible());
    QVERIFY(view->legendHint().isEmpty());
    QVERIFY(colouredPixels(view) > 500);
  }

  // The panes as chosen when the run's channels come, before any row: the
  // pin (about y) lets the bob move in x and z only; after the run the
  // same, now because those are the axes that moved.
  void modelAxesBeforeTheRowsCome() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("pendulum"), QSize(1400, 1000)));
    Panes atStart;
    size_t rowsAtStart = 1;
    connect(w.resultBuffer(), &ResultBuffer::reset, this, [&] {
      if (!atStart.empty() || w.resultBuffer()->channels().empty()) return;  // a clear, not the run's channels
      atStart = panesOf(w.resultsPanel());
      rowsAtStart = w.resultBuffer()->rows();
    });
    QVERIFY(test::runToEnd(w));
    QCOMPARE(rowsAtStart, size_t(0));
    const Panes want{{"bob.x", "bob.z"}, {"bob.vx", "bob.vz"}};
    QVERIFY2(atStart == want, qPrintable(describe(atStart)));
    QVERIFY2(panesOf(w.resultsPanel()) == want, qPrintable(describe(panesOf(w.resultsPanel()))));
  }

  // The boom lift: the cylinder's pressures (the beam's stresses are Pa
  // too, but no pressures), then the camera's height z (it rises 1.23 m
  // while its x changes 0.24 m and y not at all) and the cylinder's stroke;
  // the beam's node parts are the solver's, not plotted.
  void liftPlotsHeight() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("flexible_boom_lift"), QSize(1400, 1000)));
    QVERIFY(test::runToEnd(w));
    const Panes shown = panesOf(w.resultsPanel());
    QVERIFY2(shown.size() == 2 && shown[1] == std::vector<std::string>({"camera.z", "cyl.x"}), qPrintable(describe(shown)));
    QVERIFY2(std::find(shown[0].begin(), shown[0].end(), "cyl.pA") != shown[0].end(), qPrintable(describe(shown)));
    for (const std::string& n : shown[0]) QVERIFY2(n.find("stress") == std::string::npos, n.c_str());
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiMechanismPlots)
#include "test_gui_mechanism_plots.moc"
