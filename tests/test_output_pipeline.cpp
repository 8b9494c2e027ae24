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

#include <filesystem>
#include <thread>

using namespace pm;
using namespace pm::test;

namespace {

void compare(const Project& p, const std::string& file, bool expectThread) {
  using Rows = Simulation::OutputRows;
  const auto serial = runProject(p, file, Rows::Solver);
  const auto threaded = runProject(p, file, Rows::Thread);
  // By default only a mechanism's rows go to the copy (on the thread: this
  // machine has two cores); a circuit's stay on the solver's own System.
  const auto byDefault = runProject(p, file, Rows::Auto);
  for (const Run* r : {serial.get(), threaded.get(), byDefault.get()})
    QVERIFY2(r->ok(), (file + ": " + r->message()).c_str());
  QVERIFY(!serial->result.stats.outputThread);
  QCOMPARE(serial->result.stats.outputCopy, expectThread);
  QCOMPARE(threaded->result.stats.outputThread, expectThread);
  const bool mechanism = !p.mechanism.parts.empty();
  QCOMPARE(byDefault->result.stats.outputThread, expectThread && mechanism);
  QCOMPARE(byDefault->result.stats.outputCopy, expectThread && mechanism);
  // The solver's own path does not depend on where its rows are computed.
  for (const Run* r : {threaded.get(), byDefault.get()}) {
    QCOMPARE(r->result.stats.steps, serial->result.stats.steps);
    QCOMPARE(r->result.stats.events, serial->result.stats.events);
    QVERIFY(r->t == serial->t);
  }
  // The copy's rows on either thread, and a circuit's own rows (a pure
  // function of the point and the discrete state, so also where the solver
  // sends no discrete state: unchanged since the last row,
  // System::discreteVersion), are the same to the bit.
  for (const Run* r : {threaded.get(), byDefault.get()}) {
    std::string where;
    const double d = rowDifference(serial->out, r->out, where);
    QVERIFY2(d <= kOutputThreadTol, qPrintable(QString("%1: rows differ by %2 in %3")
                                                    .arg(QString::fromStdString(file))
                                                    .arg(d)
                                                    .arg(QString::fromStdString(where))));
  }
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
