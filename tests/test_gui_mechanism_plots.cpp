// The default plots of a project without a circuit (issue 25 point 4,
// issue 27's contact examples): after its first run every plot pane shows
// channels. The V-block chute names its plots in its "report" section and
// gets them; without that section it gets what an ADAMS user plots first:
// the moving part's position, its velocity and the contact's normal force.
#include "main_window.h"
#include "plot_pane.h"
#include "results_panel.h"
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
                             {{"ball.x", "ball.y", "ball.z"},
                              {"ball.vx", "ball.vy", "ball.vz"},
                              {"chute_contact.normal_force"}}));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiMechanismPlots)
#include "test_gui_mechanism_plots.moc"
