// Result rows computed by the System's copy on the output thread
// (solver/output_pipeline.h) equal, bit for bit, those it computes on the
// solver's thread: every example project, each in its own formulation, and
// a reduced pendulum that re-chooses its independent coordinate mid-run
// (the partition is discrete state the copy must follow). A channel that
// missed part of an element's discrete state (a valve's position, a
// sequence's step, a controller's held command) differs by its whole swing.
// (support/test_project.h's simulate() makes the same comparison for every
// run of the other tests.)
#include "analyses/simulation.h"
#include "build/compiler.h"
#include "build/project_input.h"
#include "solver/colored_jacobian.h"
#include "support/test_project.h"

#include <QtTest>

#include <filesystem>
#include <random>
#include <thread>

using namespace pm;
using namespace pm::test;

namespace {

void compare(const Project& p, const std::string& file, bool expectThread) {
  using Rows = OutputRows;
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
  // The output thread's copy also takes colours of the sparse difference
  // quotients (ColoredJacobian::setAside): its columns equal the solver's
  // own to the bit. TORX under servo control, at its start state, 0.9 ms
  // after a controller sample at 0.2 s, mid-way along the set-point
  // ramp (so the copy must load the discrete state first: the held valve
  // commands, open now, differ from the initial ones). The copy here takes
  // every colour (the task runs to its end before the solver's turn).
  void jacobianColoursOnTheCopy() {
    const std::string file = projectPath("torx_servo.pneumech.json");
    const Project p = loadProject(file);
    auto solver = Compiler::compile(p, file), copy = Compiler::compile(p, file);
    const int n = solver->size();
    std::vector<double> y = solver->initialState(), yp(n, 0.0), r(n), ewt(n, 1e6);
    solver->updateDiscrete(0.0, y.data(), yp.data(), true);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < n; ++i) y[i] += 1e-3 * u(rng) * std::max(1.0, std::abs(y[i]) * 1e-3);
    std::vector<double> before, after;
    QVERIFY(solver->saveDiscrete(before));
    solver->updateDiscrete(0.2, y.data(), yp.data(), false);  // the set-points move from 0.1 s on
    QVERIFY(solver->saveDiscrete(after));
    QVERIFY2(before != after, "the sample changed no discrete state: the test would not see a copy that ignores it");
    // 0.9 ms on: the spools have moved past their 5 % overlap towards the
    // new commands.
    const double t = 0.2009;
    QCOMPARE(solver->residual(t, y.data(), yp.data(), r.data()), 0);
    ColoredJacobian own(*solver, 0.0, y.data(), yp.data()), shared(*solver, 0.0, y.data(), yp.data());
    int taken = 0;
    shared.setAside(
        [&](ColoredJacobian::Task task) {
          std::thread helper([&] { task(*copy); });
          helper.join();
          ++taken;
        },
        [&](std::vector<double>& d) { return solver->saveDiscrete(d); });
    const size_t nz = own.nonZeros();
    std::vector<long> cp(n + 1), ri(nz), cp2(n + 1), ri2(nz);
    std::vector<double> a(nz), b(nz);
    QCOMPARE(own.fillSparse(t, 1e4, y.data(), yp.data(), r.data(), ewt.data(), 1e-4, cp.data(), ri.data(), a.data()), 0);
    QCOMPARE(shared.fillSparse(t, 1e4, y.data(), yp.data(), r.data(), ewt.data(), 1e-4, cp2.data(), ri2.data(), b.data()), 0);
    QCOMPARE(taken, 1);
    QVERIFY(cp == cp2 && ri == ri2);
    size_t differ = 0;
    for (size_t q = 0; q < nz; ++q) differ += a[q] != b[q];
    QVERIFY2(differ == 0, qPrintable(QString("%1 of %2 entries differ").arg(differ).arg(nz)));
  }

  void reducedPendulumRepartitions() {
    Project p = loadProject(projectPath("pendulum.pneumech.json"));
    p.simulation.mechanism_formulation = "reduced";
    settings(p, 3.0, 1e-3);
    compare(p, projectPath("pendulum.pneumech.json"), true);
  }
};

QTEST_GUILESS_MAIN(TestOutputPipeline)
#include "test_output_pipeline.moc"
