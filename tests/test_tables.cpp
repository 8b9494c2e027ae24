// Tables (issue #20, point 4): the interpolation each table uses.
// A torque step written as a table must not ring, a pulse must keep the
// impulse of its interpolant, and every table-bearing object takes the
// "interpolation" field.
#include "build/project_input.h"
#include "mechanics/motion_function.h"
#include "model/project_error.h"
#include "model/table.h"
#include "pneumatics/gas.h"
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace pm;
using namespace pm::test;

namespace {

// The torque step of the issue: +0.5 N m, then -0.5 N m, each switched
// within 1 ms.
const std::vector<std::array<double, 2>> kStep = {{0.0, 0.0},   {0.2, 0.0},    {0.201, 0.5}, {0.4, 0.5},
                                                   {0.401, -0.5}, {0.6, -0.5}, {0.601, 0.0}, {1.0, 0.0}};

// A 2e-3 kg m2 disc on a revolute joint driven by a rotational sforce of
// 1 N m scaled by `table`.
Project discWithTorqueTable(const std::vector<std::array<double, 2>>& table, double tEnd,
                            Interpolation mode = kDefaultInterpolation) {
  Mechanism m = discOnShaft();
  ForceDef f;
  f.id = "tq";
  f.type = "sforce";
  f.i = "disc.axis";
  f.params = {{"value", 1.0}, {"rotational", 1.0}};
  f.table = table;
  f.interpolation = mode;
  m.forces.push_back(f);
  return mechProject(m, tEnd, 1e-3, 1e-9);
}

// Simpson's rule of f over [a, b] with n (even) intervals.
double simpson(const std::function<double(double)>& f, double a, double b, int n) {
  const double h = (b - a) / n;
  double s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
  return s * h / 3.0;
}

double isoFlow(double C, double b, double p1, double T1, double p2) {
  const double pr = p2 / p1;
  const double phi = pr <= b ? 1.0 : std::sqrt(1.0 - std::pow((pr - b) / (1.0 - b), 2));
  return C * p1 * gas::rho0 * std::sqrt(gas::T0 / T1) * phi;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

class TestTables : public QObject {
  Q_OBJECT
 private slots:
  // Regression: the default interpolation of a force table never leaves
  // the range of its data. Exact bound: a monotone cubic between two
  // points stays between their values (to rounding, 1e-15).
  void torqueStepDoesNotRing() {
    mb::TimeFunction f("table", {}, kStep);
    double lo = 0.0, hi = 0.0;
    for (int i = 0; i <= 100000; ++i) {
      double v, dv, ddv;
      f.eval(1e-5 * i, v, dv, ddv);
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
    QVERIFY2(lo >= -0.5 - 1e-15 && hi <= 0.5 + 1e-15, qPrintable(QString("table between %1 and %2").arg(lo).arg(hi)));
    // In a run: the sforce's torque channel holds the same bound.
    auto r = simulate(discWithTorqueTable(kStep, 1.0));
    REQUIRE_OK(r);
    for (double v : r->col("tq.T")) QVERIFY2(std::abs(v) <= 0.5 + 1e-15, qPrintable(QString::number(v)));
  }

  // Regression: the symmetric pulse +0.5 / -0.5 has zero net impulse with
  // a linear or monotone interpolant (on each flat stretch the monotone
  // cubic's knot slopes are zero, so each ramp integrates to its trapezoid:
  // up to 0.401 s, 0.5 * 0.001 / 2 + 0.5 * 0.199 (the ramp through zero
  // adds nothing); the second half cancels it).
  // So the disc ends at rest: |w| <= 1e-6 rad/s (the run's tolerance,
  // against 0.5 * 0.2 / 2e-3 = 50 rad/s at the end of the first half), and
  // the table's integral is 0 to rounding.
  void pulseLeavesNoImpulse() {
    mb::TimeFunction f("table", {}, kStep);
    QVERIFY2(std::abs(f.integral(1.0)) < 1e-15, qPrintable(QString::number(f.integral(1.0))));
    CHECK_ABS(f.integral(0.401), 0.5 * 0.001 / 2 + 0.5 * 0.199, 1e-15);
    auto r = simulate(discWithTorqueTable(kStep, 1.0));
    REQUIRE_OK(r);
    CHECK_ABS(r->at("shaft.rate", 0.401), (0.5 * 0.001 / 2 + 0.5 * 0.199) / 2e-3, 1e-5);
    CHECK_ABS(r->col("shaft.rate").back(), 0.0, 1e-6);
  }

  // Step holds the left point's value on [x_i, x_i+1), the last from x_n on;
  // zero derivatives; the integral is the sum of rectangles (3 + 5 = 8).
  void stepHoldsLeftValue() {
    const Table t({0.0, 1.0, 2.0}, {3.0, 5.0, 4.0}, Interpolation::Step);
    QCOMPARE(t(-1.0), 3.0);
    QCOMPARE(t(0.5), 3.0);
    QCOMPARE(t(1.0), 5.0);
    QCOMPARE(t(1.999), 5.0);
    QCOMPARE(t(2.0), 4.0);
    double f, df, ddf;
    t.eval(1.5, f, df, ddf);
    QCOMPARE(f, 5.0);
    QCOMPARE(df, 0.0);
    QCOMPARE(ddf, 0.0);
    QCOMPARE(t.integral(2.0), 8.0);
    QCOMPARE(t.integral(1.5), 5.5);
    QCOMPARE(t.integral(3.0), 12.0);  // 4 held after the end
  }

  // Linear: the pulse [[0, 0], [1, 2], [2, 2], [3, 0]] integrates to its
  // trapezoid, 4; slopes 2, 0, -2; values on the chords (1e-15).
  void linearIsTheTrapezoid() {
    const Table t({0.0, 1.0, 2.0, 3.0}, {0.0, 2.0, 2.0, 0.0}, Interpolation::Linear);
    CHECK_ABS(t.integral(3.0), 4.0, 1e-15);
    CHECK_ABS(t.integral(0.5), 0.25, 1e-15);
    double f, df, ddf;
    t.eval(0.25, f, df, ddf);
    CHECK_ABS(f, 0.5, 1e-15);
    QCOMPARE(df, 2.0);
    QCOMPARE(ddf, 0.0);
    t.eval(2.5, f, df, ddf);
    CHECK_ABS(f, 1.0, 1e-15);
    QCOMPARE(df, -2.0);
  }

  // Monotone cubic on monotone data with a jump (0.2 -> 5 within 0.01):
  // non-decreasing on a fine grid and inside [y_i, y_i+1] on every segment
  // (exact bound, 1e-15 for rounding). Collinear points (uneven spacing)
  // give their line: y = 2x + 1 to 1e-14, slope 2, curvature 0. The hand
  // value of the time-table test: 1.25 at 0.5 on [[0, 0], [1, 2], [2, 2], ...].
  void monotoneCubicNoOvershoot() {
    const std::vector<double> x = {0.0, 1.0, 2.0, 2.01, 3.0, 4.0}, y = {0.0, 0.1, 0.2, 5.0, 5.1, 5.2};
    const Table t(x, y);
    QVERIFY(t.mode() == Interpolation::MonotoneCubic);  // the default
    double prev = -1.0;
    for (int k = 0; k <= 400000; ++k) {
      const double xi = 1e-5 * k, v = t(xi);
      QVERIFY2(v >= prev - 1e-15, qPrintable(QString("decreases at %1").arg(xi)));
      const long i = std::min<long>(t.segmentOf(xi), static_cast<long>(x.size()) - 2);
      QVERIFY2(v >= y[i] - 1e-15 && v <= y[i + 1] + 1e-15, qPrintable(QString("overshoot at %1: %2").arg(xi).arg(v)));
      prev = v;
    }
    for (size_t i = 0; i < x.size(); ++i) QCOMPARE(t(x[i]), y[i]);
    for (Interpolation m : {Interpolation::MonotoneCubic, Interpolation::NaturalCubic}) {
      const Table line({0.0, 0.3, 1.0, 2.5, 2.6}, {1.0, 1.6, 3.0, 6.0, 6.2}, m);
      for (double xi : {0.1, 0.7, 1.9, 2.55}) {
        double f, df, ddf;
        line.eval(xi, f, df, ddf);
        CHECK_ABS(f, 2.0 * xi + 1.0, 1e-14);
        CHECK_ABS(df, 2.0, 1e-13);
        CHECK_ABS(ddf, 0.0, 1e-11);
      }
      CHECK_ABS(line.integral(2.6), 2.6 * 2.6 + 2.6, 1e-13);
    }
    CHECK_ABS(Table({0, 1, 2, 3}, {0, 2, 2, 0})(0.5), 1.25, 1e-15);
  }

  // Natural cubic through (0, 0), (1, 1), (2, 0): M1 = -3 from 4 M1 = 6 (-1
  // - 1), so S = 1.5 x - 0.5 x^3 on [0, 1]: S(0.5) = 0.6875, S' = 1.125,
  // S'' = -1.5, integral over [0, 2] = 2 (0.75 - 0.125) = 1.25.
  void naturalCubicHandValue() {
    const Table t({0.0, 1.0, 2.0}, {0.0, 1.0, 0.0}, Interpolation::NaturalCubic);
    double f, df, ddf;
    t.eval(0.5, f, df, ddf);
    CHECK_ABS(f, 0.6875, 1e-15);
    CHECK_ABS(df, 1.125, 1e-15);
    CHECK_ABS(ddf, -1.5, 1e-14);
    CHECK_ABS(t.integral(2.0), 1.25, 1e-15);
    t.eval(1.5, f, df, ddf);
    CHECK_ABS(f, 0.6875, 1e-15);
    CHECK_ABS(df, -1.125, 1e-15);
  }

  // Derivatives and integral consistent with the values in every mode: df
  // against a central difference of f (1e-6 relative to the scale), ddf
  // against one of df, the integral against Simpson's rule per segment.
  void derivativesAndIntegralConsistent() {
    const std::vector<double> x = {0.0, 0.4, 1.0, 1.3, 2.0}, y = {1.0, -0.5, 2.0, 2.5, 0.0};
    for (Interpolation m : {Interpolation::Linear, Interpolation::Step, Interpolation::MonotoneCubic,
                            Interpolation::NaturalCubic}) {
      const Table t(x, y, m);
      for (double xi : {0.1, 0.33, 0.7, 1.15, 1.8}) {
        const double h = 1e-6;
        double f, df, ddf, fa, dfa, ddfa, fb, dfb, ddfb;
        t.eval(xi, f, df, ddf);
        t.eval(xi - h, fa, dfa, ddfa);
        t.eval(xi + h, fb, dfb, ddfb);
        CHECK_ABS(df, (fb - fa) / (2 * h), 1e-6);
        CHECK_ABS(ddf, (dfb - dfa) / (2 * h), 1e-4);
      }
      double sum = 0.0;
      for (size_t i = 0; i + 1 < x.size(); ++i)  // up to just before each point: step jumps there
        sum += simpson([&](double v) { return t(v); }, x[i], x[i + 1] - 1e-13, 64);
      CHECK_ABS(t.integral(2.0), sum, 1e-10);
      CHECK_ABS(t.integral(3.0) - t.integral(2.0), 0.0, 1e-15);  // last value held: y = 0
    }
  }

  // Names: the four, and anything else refused by the component check with
  // the field named.
  void names() {
    for (const char* n : {"linear", "step", "monotone_cubic", "natural_cubic"}) {
      Interpolation m;
      QVERIFY(parseInterpolation(n, m));
      QCOMPARE(std::string(interpolationName(m)), std::string(n));
    }
    Interpolation m;
    QVERIFY(!parseInterpolation("spline", m));
    QVERIFY(checkInterpolationField(nlohmann::json{{"interpolation", "linear"}}).empty());
    const std::string e = checkInterpolationField(nlohmann::json{{"interpolation", "akima"}});
    QVERIFY2(contains(e, "interpolation: unknown value \"akima\"") && contains(e, "monotone_cubic"), e.c_str());
  }

  // Every table-bearing component takes the field and uses it: a time
  // table read "step" holds 3 until 1 s; a supply table read "step" holds
  // 2 bar until 0.5 s (a pressure sensor on its port); a proportional valve
  // read "linear" at opening 0.375 (u = 0.5, overlap 0.2) flows with the
  // chord C = 3.5e-9; a servo controller's speed table read "step"
  // (opening over speed) gives u_ff = 0.5 at v_cmd = 0.6.
  void componentsTakeTheField() {
    Project p;
    settings(p, 1.5, 1e-3, Tolerances{.rel = 1e-9});
    const nlohmann::json valve = {{"interpolation", "linear"},
                                  {"opening", {0.0, 0.25, 0.5, 1.0}},
                                  {"paths", {{"1-4", {{"C", {0.0, 2e-9, 5e-9, 9e-9}}, {"b", 0.3}}}}}};
    const nlohmann::json supply = {{"interpolation", "step"},
                                   {"table", {{0.0, 2e5, 293.15}, {0.5, 4e5, 293.15}, {1.0, 3e5, 293.15}}}};
    Component sup = comp("s2", "supply", {}, {}, supply);
    p.components = {
        comp("tt", "time_table", {}, {}, {{"interpolation", "step"}, {"points", {{0, 3}, {1, 5}, {2, 4}}}}),
        sup,
        comp("ps", "pressure_sensor"),
        comp("s1", "supply"),
        comp("atm", "atmosphere"),
        comp("u", "constant", {{"value", 0.5}}),
        comp("va", "valve_5_3_proportional", {{"overlap", 0.2}, {"C_leak", 0.0}}, {{"u", "u.out"}}, valve)};
    wire(p, "s2.1", "ps.1");
    wire(p, "s1.1", "va.1");
    wire(p, "atm.1", "va.4");
    auto r = simulate(p);
    REQUIRE_OK(r);
    auto row = [&](const char* ch, double t) { return r->col(ch)[r->indexAt(t)]; };
    QCOMPARE(row("tt.out", 0.999), 3.0);
    QCOMPARE(row("tt.out", 1.001), 5.0);
    QCOMPARE(row("ps.p", 0.499), 2e5);
    QCOMPARE(row("ps.p", 0.501), 4e5);
    QCOMPARE(row("ps.p", 1.2), 3e5);
    CHECK_REL(r->col("va.q_1_4").back(), isoFlow(3.5e-9, 0.3, 701325.0, 293.15, 101325.0), 1e-9);
    // The servo controller: standstill gains Kp_x 10, Kp_v 0; r = 0.06, x
    // = 0 gives v_cmd = 0.6 (v_max 1), a_cmd unconnected: w = 1.
    Project s;
    settings(s, 0.01, 1e-3, Tolerances{.rel = 1e-9});
    const nlohmann::json table = {
        {"interpolation", "step"}, {"opening", {-1.0, 0.0, 0.5, 1.0}}, {"speed", {-1.0, 0.0, 0.5, 1.0}}};
    s.components = {comp("r", "constant", {{"value", 0.06}}), comp("z", "constant", {{"value", 0.0}}),
                    comp("clk", "integrator", {}, {{"in", "z.out"}}),
                    comp("ctl", "servo_position_controller",
                         {{"sample_time", 0.0}, {"Kp_x_stop", 10.0}, {"Kp_v_stop", 0.0}, {"v_max", 1.0}},
                         {{"setpoint", "r.out"}, {"position", "z.out"}, {"velocity", "z.out"}}, table)};
    auto rs = simulate(s);
    REQUIRE_OK(rs);
    CHECK_ABS(rs->col("ctl.u_ff").back(), 0.5, 1e-12);
  }

  // Unknown values are refused naming the file, object and field: in a
  // component's data and on a mechanism force.
  void unknownValuesRefused() {
    Project p;
    settings(p, 0.1, 1e-3);
    p.components = {comp("tt", "time_table", {}, {}, {{"interpolation", "cubic"}, {"points", {{0, 3}, {1, 5}}}})};
    auto r = simulate(p);
    QVERIFY(!r->ok());
    QVERIFY2(contains(r->message(), "tt") && contains(r->message(), "interpolation") &&
                 contains(r->message(), "\"cubic\""),
             r->message().c_str());
    const std::string text = R"({"format": "pneumech-project", "schema_version": 1, "components": [],
      "connections": [], "mechanism": {"parts": [{"id": "ground", "ground": true, "markers": [{"id": "o"}]}],
      "forces": [{"id": "tq", "type": "sforce", "i": "ground.o", "table": [[0, 1], [1, 2]],
                  "interpolation": "spline"}]}})";
    try {
      parseProject(text, "bad.pneumech.json");
      QFAIL("accepted");
    } catch (const ProjectError& e) {
      const std::string m = e.what();
      QVERIFY2(contains(m, "bad.pneumech.json") && contains(m, "tq") && contains(m, "interpolation") &&
                   contains(m, "\"spline\""),
               m.c_str());
    }
  }

  // Mechanism tables: the field round-trips through the file; a force table
  // read "step" drives the disc with the rectangles' impulse (0.5 N m for
  // 0.2 s, then -0.25 N m for 0.2 s: w = (0.1 - 0.05) / 2e-3 = 25 rad/s, to
  // the run's tolerance 1e-6); a velocity motion read "linear" moves the
  // joint by the trapezoid (0.5 rad/s ramped up over 0.1 s, held 0.2 s,
  // ramped down over 0.1 s: 0.025 + 0.1 + 0.025 = 0.15 rad, 1e-9); a
  // displacement table read "linear" is refused naming the motion and field.
  void mechanismTablesTakeTheField() {
    const std::vector<std::array<double, 2>> steps = {{0.0, 0.5}, {0.2, -0.25}, {0.4, 0.0}};
    Project p = discWithTorqueTable(steps, 0.6, Interpolation::Step);
    const Project back = parseProject(serializeProject(p), "t.pneumech.json");
    QVERIFY(back.mechanism.forces.at(0).interpolation == Interpolation::Step);
    auto r = simulate(p);
    REQUIRE_OK(r);
    CHECK_ABS(r->at("shaft.rate", 0.1), 0.05 / 2e-3, 1e-6);
    CHECK_ABS(r->col("shaft.rate").back(), 25.0, 1e-6);

    Mechanism m = discOnShaft();
    MotionDef mo;
    mo.id = "drive";
    mo.joint = "shaft";
    mo.quantity = "velocity";
    mo.function = "table";
    mo.table = {{0.0, 0.0}, {0.1, 0.5}, {0.3, 0.5}, {0.4, 0.0}};
    mo.interpolation = Interpolation::Linear;
    m.motions.push_back(mo);
    auto k = simulate(mechProject(m, 0.5, 1e-3, 1e-9));
    REQUIRE_OK(k);
    CHECK_ABS(k->at("shaft.angle", 0.05), 0.5 * 0.05 * 0.05 / 0.1 / 2, 1e-9);
    CHECK_ABS(k->at("shaft.angle", 0.5), 0.15, 1e-9);
    m.motions[0].quantity = "displacement";
    auto bad = simulate(mechProject(m, 0.5, 1e-3, 1e-9));
    QVERIFY(!bad->ok());
    QVERIFY2(contains(bad->message(), "drive") && contains(bad->message(), "interpolation"), bad->message().c_str());
  }
};

QTEST_APPLESS_MAIN(TestTables)
#include "test_tables.moc"
