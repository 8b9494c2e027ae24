// The reduced-coordinate formulation (coordinate partitioning,
// simulation.mechanism_formulation = "reduced") against closed forms and
// against the absolute formulation on the same projects.
#include "build/compiler.h"
#include "build/project_input.h"
#include "mechanics/mechanism_element.h"
#include "mechanics/reduced_coordinates.h"
#include "model/project_error.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

Project reduced(Project p) {
  p.simulation.mechanism_formulation = "reduced";
  return p;
}
// The references: the examples that run reduced (tool changer, knuckle
// press) taken back to the absolute formulation.
Project absolute(Project p) {
  p.simulation.mechanism_formulation = "absolute";
  return p;
}

// Largest |a - b| of a channel over two runs with the same output times.
double maxDiff(const Run& a, const Run& b, const std::string& ch) {
  const auto x = a.col(ch), y = b.col(ch);
  double d = 0.0;
  for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) d = std::max(d, std::abs(x[i] - y[i]));
  return d;
}

}  // namespace

class TestReducedCoordinates : public QObject {
  Q_OBJECT
 private slots:
  // The states are the mechanism's degrees of freedom, not 14 per part.
  void statesAreTheDegreesOfFreedom() {
    Project pr = reduced(loadProject(projectPath("tool_changer.pneumech.json")));
    auto abs = Compiler::compile(absolute(loadProject(projectPath("tool_changer.pneumech.json"))));
    auto red = Compiler::compile(pr);
    int mechAbs = 0, mechRed = 0;
    for (const auto& s : abs->states()) mechAbs += s.owner == "mechanism";
    for (const auto& s : red->states()) mechRed += s.owner == "mechanism";
    QVERIFY2(mechRed >= 2 && mechRed < mechAbs / 10, qPrintable(QString("%1 vs %2 states").arg(mechRed).arg(mechAbs)));
    QVERIFY(mechanismOf(*red)->reduced());
    QVERIFY(!mechanismOf(*abs)->reduced());
  }

  // The tool changer at rel_tol 1e-8 in both formulations: the same motion
  // (the formulations differ only in what the integrator's error test
  // weighs; measured 1.9e-7 m and 9.3e-5 m/s where the piston bounces on its
  // cushion), and the reduced one closes its loop exactly.
  void toolChangerAgreesWithAbsolute() {
    Project pr = absolute(loadProject(projectPath("tool_changer.pneumech.json")));
    pr.simulation.rel_tol = 1e-8;
    auto a = simulate(pr);
    auto r = simulate(reduced(pr));
    REQUIRE_OK(a);
    REQUIRE_OK(r);
    QVERIFY2(maxDiff(*a, *r, "cyl1.x") < 1e-6, qPrintable(QString::number(maxDiff(*a, *r, "cyl1.x"))));
    QVERIFY2(maxDiff(*a, *r, "cyl1.v") < 5e-4, qPrintable(QString::number(maxDiff(*a, *r, "cyl1.v"))));
    QVERIFY2(maxDiff(*a, *r, "cyl1.pA") < 50.0, qPrintable(QString::number(maxDiff(*a, *r, "cyl1.pA"))));
    // Newton closes the constraints to 1e-12 of the parts' scale at every evaluation.
    QVERIFY2(r->maxAbs("mechanism.residual_position", 0, 3) < 1e-11,
             qPrintable(QString::number(r->maxAbs("mechanism.residual_position", 0, 3))));
  }

  // Every coupled example runs in the reduced formulation and reaches the
  // same end state as in the absolute one (stroke within 0.5 mm).
  void coupledExamplesRun() {
    for (const char* name : {"knuckle_press.pneumech.json", "two_axis_handling.pneumech.json",
                             "torx_open_loop.pneumech.json"}) {
      const Project pr = absolute(loadProject(projectPath(name)));
      auto a = simulate(pr);
      auto r = simulate(reduced(pr));
      REQUIRE_OK(a);
      QVERIFY2(r->ok(), qPrintable(QString(name) + ": " + QString::fromStdString(r->message())));
      for (const auto& c : r->out.channels()) {
        if (c.name.size() < 2 || c.name.substr(c.name.size() - 2) != ".x" || c.unit != "m") continue;
        const double d = std::abs(a->col(c.name).back() - r->col(c.name).back());
        QVERIFY2(d < 5e-4, qPrintable(QString("%1 %2: %3 m").arg(name).arg(QString::fromStdString(c.name)).arg(d)));
      }
    }
  }

  // The example pendulum: energy is conserved, the constraints hold exactly,
  // and its angle matches the absolute formulation's, also where the
  // independent coordinate is re-chosen (the partition's root).
  void pendulumConservesEnergyAcrossRepartitions() {
    Project pr = loadProject(projectPath("pendulum.pneumech.json"));
    settings(pr, 3.0, 1e-3, Tolerances{1e-9});
    auto r = simulate(reduced(pr));
    REQUIRE_OK(r);
    const auto E = r->col("mechanism.E_total");
    double drift = 0.0, scale = 0.0;
    for (double e : E) drift = std::max(drift, std::abs(e - E.front()));
    for (double e : r->col("mechanism.E_kinetic")) scale = std::max(scale, e);
    QVERIFY2(drift < 1e-6 * scale, qPrintable(QString("energy drift %1 of %2 J").arg(drift).arg(scale)));
    QVERIFY2(r->maxAbs("mechanism.residual_position", 0, 3) < 1e-11,
             qPrintable(QString::number(r->maxAbs("mechanism.residual_position", 0, 3))));
    auto a = simulate(pr);
    REQUIRE_OK(a);
    for (const auto& c : r->out.channels())
      if (c.name.find(".angle") != std::string::npos)
        QVERIFY2(maxDiff(*a, *r, c.name) < 1e-6, qPrintable(QString::fromStdString(c.name)));
  }

  // One degree of freedom and no motion: the expansion comes from the table
  // (quintic Hermite between exact expansions every 3e-3 of z, scaled),
  // and agrees with the Newton expansion on the same runs: the tool changer
  // and the knuckle press at rel_tol 1e-9, every stroke, speed and pressure
  // within the integrator's own error there (its change from rel_tol 1e-9
  // to 1e-10, times five: the bounces at the end stops amplify rounding, and
  // a reordering of the same sums in prepare() alone moved one pressure
  // from 1.1 to 2.7 times it), above the table's own error; the loop closed
  // to 1e-10 m (measured: 1.2e-14 m, and 1e-11 m where the knuckle nears its
  // toggle; a table at 4x the step fails it there with 1.6e-8 m).
  void tabulatedAsNewton() {
    {
      auto tc = Compiler::compile(reduced(loadProject(projectPath("tool_changer.pneumech.json"))));
      QVERIFY(mechanismOf(*tc)->reducedCoordinates()->tabulated());
      auto sc = Compiler::compile(reduced(loadProject(projectPath("slider_crank.pneumech.json"))));
      QVERIFY(!mechanismOf(*sc)->reducedCoordinates()->tabulated());  // driven by a motion
      auto ta = Compiler::compile(reduced(loadProject(projectPath("two_axis_handling.pneumech.json"))));
      QVERIFY(!mechanismOf(*ta)->reducedCoordinates()->tabulated());  // 4 degrees of freedom
    }
    for (const char* name : {"tool_changer.pneumech.json", "knuckle_press.pneumech.json"}) {
      Project pr = reduced(loadProject(projectPath(name)));
      pr.simulation.rel_tol = 1e-9;
      Project fine = pr;
      fine.simulation.rel_tol = 1e-10;
      auto table = simulate(pr), tableFine = simulate(fine);
      BuildOptions untabulated;
      untabulated.tabulateOneDof = false;
      QVERIFY(!mechanismOf(*Compiler::compile(pr, name, untabulated))->reducedCoordinates()->tabulated());
      auto newton = simulate(pr, "test", untabulated), newtonFine = simulate(fine, "test", untabulated);
      REQUIRE_OK(table);
      REQUIRE_OK(tableFine);
      REQUIRE_OK(newton);
      REQUIRE_OK(newtonFine);
      double worst = 0.0;
      std::string worstName;
      for (const auto& c : table->out.channels()) {
        const bool stroke = c.name.size() > 2 && (c.name.substr(c.name.size() - 2) == ".x" || c.name.substr(c.name.size() - 2) == ".v");
        const bool pressure = c.unit == "Pa";
        if (!stroke && !pressure) continue;
        const double own = std::max(maxDiff(*table, *tableFine, c.name), maxDiff(*newton, *newtonFine, c.name));
        const double d = maxDiff(*table, *newton, c.name);
        // Floors: the table's interpolation error (positions ~3e-12 m, the
        // residual bound below), its rates, a millipascal.
        const bool speed = c.name.substr(c.name.size() - 2) == ".v";
        const double tol = 5.0 * own + (pressure ? 1e-3 : speed ? 1e-9 : 1e-11);
        if (d / tol > worst) worst = d / tol, worstName = c.name;
        QVERIFY2(d <= tol, qPrintable(QString("%1 %2: %3 (tolerance %4)").arg(name).arg(QString::fromStdString(c.name)).arg(d).arg(tol)));
      }
      // The parts' accelerations and the joints' reactions: with the table,
      // its accelerations (W d2z/dt2 + a_c from interpolated derivatives:
      // measured within 7e-10 of the largest exact one for the tool changer,
      // 8e-8 for the knuckle press near its toggle) and the multipliers that
      // hold them (worst measured: 0.32 of this tolerance).
      auto kind = [](const ChannelInfo& c) {
        const std::string tail = c.name.size() > 3 ? c.name.substr(c.name.size() - 3) : "";
        if (c.unit == "N" && (tail == ".Fx" || tail == ".Fy" || tail == ".Fz")) return 1;
        if (c.unit == "m/s2" && (tail == ".ax" || tail == ".ay" || tail == ".az")) return 2;
        return 0;
      };
      double scale[3] = {0.0, 0.0, 0.0};  // largest reaction, acceleration
      for (const auto& c : table->out.channels())
        scale[kind(c)] = std::max(scale[kind(c)], newton->maxAbs(c.name, 0, 1e9));
      double worstF = 0.0;
      for (const auto& c : table->out.channels()) {
        if (!kind(c)) continue;
        const double own = std::max(maxDiff(*table, *tableFine, c.name), maxDiff(*newton, *newtonFine, c.name));
        const double d = maxDiff(*table, *newton, c.name);
        // Floor: the table's own error, 1e-5 of the largest of its kind.
        const double tol = 5.0 * own + 1e-5 * scale[kind(c)];
        worstF = std::max(worstF, d / tol);
        QVERIFY2(d <= tol, qPrintable(QString("%1 %2: %3 (tolerance %4)").arg(name).arg(QString::fromStdString(c.name)).arg(d).arg(tol)));
      }
      qInfo("%s: accelerations and reactions, table against Newton, worst %.3g of the tolerance", name, worstF);
      qInfo("%s: table against Newton, worst %.3g of its tolerance (%s); loop closed to %.3g", name, worst,
            worstName.c_str(), table->maxAbs("mechanism.residual_position", 0, 1e9));
      QVERIFY2(table->maxAbs("mechanism.residual_position", 0, 1e9) < 1e-10,
               qPrintable(QString::number(table->maxAbs("mechanism.residual_position", 0, 1e9))));
    }
  }

  void badSettingRefused() {
    Project pr = loadProject(projectPath("pendulum.pneumech.json"));
    pr.simulation.mechanism_formulation = "minimal";
    try {
      Compiler::compile(pr, "p.json");
      QFAIL("accepted");
    } catch (const ProjectError& e) {
      QVERIFY2(QString(e.what()).contains("mechanism_formulation"), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestReducedCoordinates)
#include "test_reduced_coordinates.moc"
