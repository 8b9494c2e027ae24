// The studio's results of a long run (issue 21: rows pushed through
// engine::stream; issue 26 point 6: bounded memory): run from the toolbar,
// the window keeps a bounded copy that holds each channel's exact minimum,
// maximum and final value; the run's results file (raw doubles) gives, as
// CSV, the bytes `pneumech simulate -o` writes, and the key results of the
// whole run, not of the copy.
#include "main_window.h"
#include "plot_pane.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "simulation_runner.h"
#include "support/studio_window.h"
#include "units.h"

#include "engine/engine.h"

#include <QAction>
#include <QFile>
#include <QLineSeries>
#include <QProcess>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace pm;
using namespace pm::gui;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The CSV's columns (after time) as numbers.
std::vector<std::vector<double>> columnsOf(const QByteArray& csv) {
  std::vector<std::vector<double>> cols;
  std::istringstream in(csv.toStdString());
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    std::getline(row, cell, ',');  // time
    for (size_t c = 0; std::getline(row, cell, ','); ++c) {
      if (cols.size() <= c) cols.resize(c + 1);
      cols[c].push_back(std::strtod(cell.c_str(), nullptr));
    }
  }
  return cols;
}

// v as the CSV writes it (10 significant digits), read back.
double asWritten(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return std::strtod(buf, nullptr);
}

}  // namespace

class TestGuiRunResults : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
  }

  void longRunKeepsABoundedCopyAndTheFullFile() {
    // seed 003 for 20 s: 20,001 rows of 38 channels.
    Project p = engine::load(test::examplePath("seed003_meter_out").toStdString());
    p.simulation.t_end = 20.0;
    const QString file = dir_.filePath("seed003_20s.pneumech.json");
    engine::save(p, file.toStdString());

    MainWindow w;
    QVERIFY(test::showProject(w, file));
    ResultBuffer* data = w.resultBuffer();
    data->setValueBudget(1000);  // the smallest copy: 2,000 rows aimed at
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    auto* toolbar = w.findChild<QToolBar*>("mainToolBar");
    QVERIFY(toolbar);
    QAction* run = nullptr;  // Simulation > Run, F5
    for (QAction* a : toolbar->actions())
      if (a->shortcut() == QKeySequence(Qt::Key_F5)) run = a;
    QVERIFY(run && run->isEnabled());
    QTest::mouseClick(toolbar->widgetForAction(run), Qt::LeftButton);
    QVERIFY(done.wait(180000));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());

    // The CLI's CSV of the same run.
    const QString cli = dir_.filePath("cli.csv");
    QProcess proc;
    proc.start(PM_CLI, {"simulate", file, "-o", cli, "-q"});
    QVERIFY(proc.waitForFinished(180000));
    QCOMPARE(proc.exitCode(), 0);
    const QByteArray expected = readAll(cli);
    const auto full = columnsOf(expected);
    QCOMPARE(full.size(), data->channels().size());
    QCOMPARE(full[0].size(), size_t(20001));

    // The copy is bounded: 2 x 2,000 rows + 2 per channel + the newest.
    const size_t bound = 2 * 2000 + 2 * data->channels().size() + 1;
    QVERIFY2(data->rows() <= bound && data->rows() >= 1000, qPrintable(QString::number(data->rows())));
    QVERIFY(data->stride() > 1);
    QCOMPARE(data->times().back(), 20.0);
    for (size_t c = 0; c < full.size(); ++c) {
      const auto& mine = data->columns()[c];
      const auto [lo, hi] = std::minmax_element(full[c].begin(), full[c].end());
      const auto [mlo, mhi] = std::minmax_element(mine.begin(), mine.end());
      const std::string& name = data->channels()[c].name;
      // Rounding to the CSV's digits keeps the order: the extremes agree exactly.
      QVERIFY2(asWritten(*mlo) == *lo, name.c_str());
      QVERIFY2(asWritten(*mhi) == *hi, name.c_str());
      QVERIFY2(asWritten(mine.back()) == full[c].back(), name.c_str());
    }
    // The same copy as a store, for the 3D view and the report.
    QCOMPARE(data->store()->rows(), data->rows());
    // What the plots draw of it (#25: the rows come in batches, a row that
    // the next replaces is never copied; each pixel column keeps its min
    // and max): every plotted curve reaches the run's true extremes, in
    // display units, and ends at its last value.
    int curves = 0;
    for (int i = 0; i < w.resultsPanel()->paneCount(); ++i) {
      PlotPane* pane = w.resultsPanel()->pane(i);
      pane->refresh();
      for (const std::string& name : pane->channelNames()) {
        const int c = data->find(name);
        QLineSeries* series = pane->series(name);
        if (c < 0 || !series) continue;
        const auto du = units::forChannel(name, data->channels()[size_t(c)].unit);
        const auto [lo, hi] = std::minmax_element(full[size_t(c)].begin(), full[size_t(c)].end());
        double plo = INFINITY, phi = -INFINITY;
        for (const QPointF& q : series->points()) plo = std::min(plo, q.y()), phi = std::max(phi, q.y());
        auto same = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); };
        QVERIFY2(same(plo, du.toDisplay(*lo)) && same(phi, du.toDisplay(*hi)),
                 qPrintable(QString("%1: plotted %2..%3, the run %4..%5").arg(QString::fromStdString(name))
                                .arg(plo).arg(phi).arg(du.toDisplay(*lo)).arg(du.toDisplay(*hi))));
        QVERIFY(same(series->points().back().y(), du.toDisplay(full[size_t(c)].back())));
        QCOMPARE(series->points().back().x(), 20.0);
        ++curves;
      }
    }
    QVERIFY2(curves >= 2, "the default plots show no curve");

    // Every row is on disk: the results file's CSV and the panel's export are the CLI's bytes.
    QVERIFY(w.runner()->resultsFile());
    QCOMPARE(w.runner()->resultsFile()->rows(), size_t(20001));
    const QString fromFile = dir_.filePath("from_file.csv");
    w.runner()->resultsFile()->writeCsv(fromFile.toStdString());
    QCOMPARE(readAll(fromFile), expected);
    std::vector<std::string> all;
    for (const auto& c : data->channels()) all.push_back(c.name);
    const QString exported = dir_.filePath("exported.csv");
    QString err;
    QVERIFY2(w.resultsPanel()->exportCsv(exported, all, false, &err), qPrintable(err));
    QCOMPARE(readAll(exported), expected);
    // In display units too, every row (the copy holds about a tenth of them).
    const QString display = dir_.filePath("display.csv");
    QVERIFY2(w.resultsPanel()->exportCsv(display, all, true, &err), qPrintable(err));
    QCOMPARE(columnsOf(readAll(display))[0].size(), size_t(20001));

    // Key results (the report's) come from every row, as `pneumech results`
    // computes them; the copy alone gives other stroke times and air.
    KeyResultOptions opt;
    opt.cyclesPerMinute = reportSettings(p, file.toStdString()).cyclesPerMinute;
    QProcess res;
    res.start(PM_CLI, {"results", file, "--json"});
    QVERIFY(res.waitForFinished(180000));
    QCOMPARE(res.exitCode(), 0);
    const std::string cliKey = res.readAllStandardOutput().toStdString();
    const auto keyRows = w.keyResultRows();
    QVERIFY(keyRows && keyRows->rows() == 20001);
    const KeyResults studio = engine::keyResults(w.project(), *keyRows, opt);
    QCOMPARE(studio.toJson().dump(2) + "\n", cliKey);
    const KeyResults copy = engine::keyResults(w.project(), *data->store(), opt);
    qInfo("cycle time: every row %.9g s, the copy %.9g s; air per cycle: every row %.9g g, the copy %.9g g",
          studio.cycleTime(), copy.cycleTime(), studio.airMass * 1e3, copy.airMass * 1e3);
    QVERIFY(copy.toJson().dump(2) + "\n" != cliKey);
    QVERIFY(studio.hasCycle && copy.hasCycle);
    QVERIFY2(copy.cycleTime() != studio.cycleTime() || copy.airMass != studio.airMass,
             "the copy gives the full run's key results: the test cannot tell them apart");
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiRunResults)
#include "test_gui_run_results.moc"
