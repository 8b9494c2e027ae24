// Result rows computed by the System's copy on the output thread
// (solver/output_pipeline.h) equal, bit for bit, those it computes on the
// solver's thread: every example project, each in its own formulation, and
// a reduced pendulum that re-chooses its independent coordinate mid-run
// (the partition is discrete state the copy must follow). A channel that
// missed part of an element's discrete state (a valve's position, a
// sequence's step, a controller's held command) differs by its whole swing.
// (support/test_project.h's simulate() makes the same comparison for every
// run of the other tests.)
#include "io/project_file.h"
#include "solver/simulation.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <thread>

using namespace pm;
using namespace pm::test;

namespace {

std::unique_ptr<Run> runWith(const Project& p, const std::string& file, bool thread) {
  auto r = std::make_unique<Run>();
  r->project = p;
  try {
    r->sim = std::make_unique<Simulation>(r->project, file);
    r->sim->setOutputRows(thread ? Simulation::OutputRows::Thread : Simulation::OutputRows::Solver);
    r->result = r->sim->run(r->out);
  } catch (const std::exception& e) {
    r->error = e.what();
    r->result.status = RunStatus::Failed;
  }
  r->t = r->out.times();
  return r;
}

void compare(const Project& p, const std::string& file, bool expectThread) {
  auto serial = runWith(p, file, false);
  auto threaded = runWith(p, file, true);
  QVERIFY2(serial->ok(), (file + ": " + serial->message()).c_str());
  QVERIFY2(threaded->ok(), (file + ": " + threaded->message()).c_str());
  QVERIFY(!serial->result.stats.outputThread);
  QCOMPARE(serial->result.stats.outputCopy, expectThread);
  QCOMPARE(threaded->result.stats.outputThread, expectThread);
  // By default only a mechanism's rows go to the copy (on the thread: this
  // machine has two cores).
  auto byDefault = std::make_unique<Simulation>(p, file);
  ResultStore out;
  const RunResult auto_ = byDefault->run(out);
  QVERIFY(auto_.ok());
  QCOMPARE(auto_.stats.outputThread, expectThread && !p.mechanism.parts.empty());
  // A circuit's rows by the solver's own System (the default) are a pure
  // function of the point and the discrete state, so the copy's equal them
  // to the bit: the copy's discrete state is also right where the solver
  // sends none (unchanged since the last row, System::discreteVersion).
  if (!auto_.stats.outputCopy) {
    std::string where;
    const double d = rowDifference(out, threaded->out, where);
    QVERIFY2(d == 0.0, qPrintable(QString("%1: own rows differ from the copy's by %2 in %3")
                                      .arg(QString::fromStdString(file)).arg(d).arg(QString::fromStdString(where))));
  }
  // The solver's own path does not change.
  QCOMPARE(threaded->result.stats.steps, serial->result.stats.steps);
  QCOMPARE(threaded->result.stats.events, serial->result.stats.events);
  QCOMPARE(threaded->out.rows(), serial->out.rows());
  QVERIFY(threaded->t == serial->t);
  std::string where;
  const double d = rowDifference(serial->out, threaded->out, where);
  qInfo("%s: rows differ by %.3g (relative, %s)", file.c_str(), d, where.c_str());
  QVERIFY2(d <= kOutputThreadTol, qPrintable(QString("%1: %2 in %3").arg(QString::fromStdString(file)).arg(d).arg(QString::fromStdString(where))));
}

}  // namespace

class TestOutputPipeline : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (std::thread::hardware_concurrency() < 2) QSKIP("one core: the rows stay on the solver's thread");
  }

  void everyExample() {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(projectPath(""))) {
      const std::string name = e.path().filename().string();
      if (name.find(".pneumech.json") == std::string::npos) continue;
      // A scripted controller keeps its state inside its script engine:
      // such a run keeps its rows on the solver's thread. The circuits
      // without a mechanism (rows on the solver's thread by default: they
      // are cheap) run with the thread asked for.
      const bool scripted = name.rfind("script_", 0) == 0;
      compare(loadProject(projectPath(name)), projectPath(name), !scripted);
      if (QTest::currentTestFailed()) return;
      ++n;
    }
    QVERIFY(n >= 15);
  }

  // The reduced pendulum swings through the poses where its independent
  // coordinate must be re-chosen (several times in 3 s).
  void reducedPendulumRepartitions() {
    Project p = loadProject(projectPath("pendulum.pneumech.json"));
    p.simulation.mechanism_formulation = "reduced";
    settings(p, 3.0, 1e-3);
    compare(p, projectPath("pendulum.pneumech.json"), true);
  }
};

QTEST_GUILESS_MAIN(TestOutputPipeline)
#include "test_output_pipeline.moc"
