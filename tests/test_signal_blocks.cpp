// Signal blocks (core/control), each checked against a closed form one can
// work out by hand: a lag's step response, a filtered derivative of a ramp,
// the integral of a ramp, a limited integrator fed by a sine, PI control of a
// first-order plant with the plant pole cancelled (a first-order closed loop),
// the integral part under saturation with and without anti-windup, the
// switching instants of a comparator on a sine (asin), sampled blocks against
// their difference equations, counting, latching and timing logic.
// Switching instants are measured exactly by integrating the switched signal
// (an integrator of a 0/1 signal reads the time spent on), not by sampling.
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kPi = std::numbers::pi;

// A project with just signal blocks; tight solver tolerance.
Project signalProject(double tEnd, double dt, std::vector<Component> comps) {
  Project p;
  settings(p, tEnd, dt, Tolerances{.rel = 1e-9});
  p.components = std::move(comps);
  return p;
}

double valueAt(const Run& r, const std::string& ch, double t) { return r.col(ch)[r.indexAt(t)]; }

}  // namespace

class TestSignalBlocks : public QObject {
  Q_OBJECT

 private slots:
  // Step 0 -> 2 at 0.1 s into a lag K = 1.5, T = 0.25 s:
  // y = 3 (1 - exp(-(t - 0.1)/0.25)) from 0.1 s, 0 before. Tolerance 1e-6.
  void lagStepResponse() {
    auto r = simulate(signalProject(1.5, 1e-3,
                                    {comp("u", "step", {{"t_step", 0.1}, {"final", 2.0}}),
                                     comp("lag", "first_order_lag", {{"gain", 1.5}, {"T", 0.25}}, {{"in", "u.out"}})}));
    REQUIRE_OK(r);
    CHECK_ABS(valueAt(*r, "lag.out", 0.099), 0.0, 1e-12);
    for (double dt : {0.05, 0.25, 0.5, 1.0, 1.4}) {
      const double t = 0.1 + dt;
      CHECK_ABS(valueAt(*r, "lag.out", t), 3.0 * (1.0 - std::exp(-dt / 0.25)), 1e-6);
    }
  }

  // Ramp of slope 2 from 0.2 s into K s/(T s + 1) with K = 0.5, T = 0.1 s:
  // out = K * 2 * (1 - exp(-(t - 0.2)/T)). Tolerance 1e-6.
  void derivativeFilterOfRamp() {
    auto r = simulate(signalProject(1.0, 1e-3,
                                    {comp("u", "ramp", {{"t_start", 0.2}, {"slope", 2.0}, {"offset", 0.3}}),
                                     comp("d", "derivative_filter", {{"gain", 0.5}, {"T", 0.1}}, {{"in", "u.out"}})}));
    REQUIRE_OK(r);
    CHECK_ABS(valueAt(*r, "d.out", 0.1), 0.0, 1e-9);
    for (double dt : {0.02, 0.1, 0.3, 0.7})
      CHECK_ABS(valueAt(*r, "d.out", 0.2 + dt), 1.0 * (1.0 - std::exp(-dt / 0.1)), 1e-6);
  }

  // Integrator (gain 2, y0 = 1) of a ramp of slope 3: y = 1 + 3 t^2.
  // Reset: an integrator of 1 held at 0 while a switch is on (0.5..0.7 s):
  // y = t, then 0, then t - 0.7. Tolerance 1e-7.
  void integratorOfRampAndReset() {
    auto r = simulate(signalProject(1.0, 1e-3,
                                    {comp("u", "ramp", {{"slope", 3.0}}), comp("one", "constant", {{"value", 1.0}}),
                                     comp("rs", "time_switch", {{"t_on", 0.5}, {"t_off", 0.7}}),
                                     comp("i", "integrator", {{"gain", 2.0}, {"y0", 1.0}}, {{"in", "u.out"}}),
                                     comp("ir", "integrator", {}, {{"in", "one.out"}, {"reset", "rs.out"}})}));
    REQUIRE_OK(r);
    for (double t : {0.1, 0.4, 0.75, 1.0}) CHECK_ABS(valueAt(*r, "i.out", t), 1.0 + 3.0 * t * t, 1e-7);
    CHECK_ABS(valueAt(*r, "ir.out", 0.45), 0.45, 1e-7);
    CHECK_ABS(valueAt(*r, "ir.out", 0.6), 0.0, 1e-12);
    CHECK_ABS(valueAt(*r, "ir.out", 0.95), 0.25, 1e-7);
    QCOMPARE(valueAt(*r, "ir.mode", 0.6), 2.0);
  }

  // Limited integrator of sin(pi t), limits [-0.1, 0.5], no wind-up:
  //   y = (1 - cos(pi t))/pi until it reaches 0.5 at t1 = acos(1 - pi/2)/pi,
  //   held at 0.5 until the input turns negative at t = 1,
  //   y = 0.5 - (1 + cos(pi t))/pi down to -0.1 at t2 = 2 - acos(0.6 pi - 1)/pi,
  //   held at -0.1 until t = 2, then y = -0.1 + (1 - cos(pi t))/pi.
  void limitedIntegratorOfSine() {
    auto r = simulate(signalProject(2.5, 1e-3,
                                    {comp("u", "sine", {{"frequency", 0.5}}),
                                     comp("i", "integrator", {{"lower", -0.1}, {"upper", 0.5}}, {{"in", "u.out"}})}));
    REQUIRE_OK(r);
    const double t1 = std::acos(1.0 - kPi / 2.0) / kPi, t2 = 2.0 - std::acos(0.6 * kPi - 1.0) / kPi;
    auto hand = [&](double t) {
      if (t < t1) return (1.0 - std::cos(kPi * t)) / kPi;
      if (t < 1.0) return 0.5;
      if (t < t2) return 0.5 - (1.0 + std::cos(kPi * t)) / kPi;
      if (t < 2.0) return -0.1;
      return -0.1 + (1.0 - std::cos(kPi * t)) / kPi;
    };
    qInfo("hand: upper limit reached at %.6f s, lower at %.6f s", t1, t2);
    double worst = 0.0;
    for (size_t k = 0; k < r->t.size(); ++k) worst = std::max(worst, std::abs(r->col("i.out")[k] - hand(r->t[k])));
    CHECK_ABS(worst, 0.0, 1e-6);
    CHECK_ABS(valueAt(*r, "i.out", 0.9), 0.5, 1e-12);
    CHECK_ABS(valueAt(*r, "i.out", 1.9), -0.1, 1e-12);
  }

  // Limiter [-1, 1] and dead zone [-1, 1] on 2 sin(2 pi t): values at every
  // sample are the clamp / dead-zone function (1e-12), and the integral of the
  // limited sine over the first half period is exact (the corners at sin = 1/2,
  // t = 1/12 and 5/12, are events): 2 (1 - cos(pi/6))/pi + 1/3. Tolerance 5e-7.
  void limiterAndDeadZone() {
    auto r = simulate(signalProject(1.0, 1e-3,
                                    {comp("u", "sine", {{"amplitude", 2.0}, {"frequency", 1.0}}),
                                     comp("lim", "limiter", {{"lower", -1.0}, {"upper", 1.0}}, {{"in", "u.out"}}),
                                     comp("dz", "dead_zone", {{"lower", -1.0}, {"upper", 1.0}}, {{"in", "u.out"}}),
                                     comp("int", "integrator", {}, {{"in", "lim.out"}})}));
    REQUIRE_OK(r);
    const auto u = r->col("u.out"), lim = r->col("lim.out"), dz = r->col("dz.out");
    double worst = 0.0;
    for (size_t k = 0; k < u.size(); ++k) {
      worst = std::max(worst, std::abs(lim[k] - std::clamp(u[k], -1.0, 1.0)));
      worst = std::max(worst, std::abs(dz[k] - (u[k] > 1.0 ? u[k] - 1.0 : u[k] < -1.0 ? u[k] + 1.0 : 0.0)));
    }
    CHECK_ABS(worst, 0.0, 1e-12);
    CHECK_ABS(valueAt(*r, "int.out", 0.5), 2.0 * (1.0 - std::cos(kPi / 6.0)) / kPi + 1.0 / 3.0, 5e-7);
    CHECK_ABS(valueAt(*r, "int.out", 1.0), 0.0, 5e-7);
  }

  // Gain, sum with signs and product: exact arithmetic on sources.
  void arithmetic() {
    const nlohmann::json signs = {{"signs", "+-+"}};
    auto r = simulate(signalProject(
        1.0, 0.1,
        {comp("a", "ramp", {{"slope", 2.0}, {"offset", 1.0}}), comp("b", "constant", {{"value", 0.5}}),
         comp("c", "sine", {{"frequency", 1.0}}), comp("g", "gain", {{"k", -3.0}, {"bias", 0.25}}, {{"in", "a.out"}}),
         comp("s", "sum", {}, {{"in1", "a.out"}, {"in2", "b.out"}, {"in3", "c.out"}}, signs),
         comp("p", "product", {}, {{"in1", "a.out"}, {"in2", "b.out"}, {"in3", "c.out"}}),
         comp("lag", "first_order_lag", {}, {{"in", "s.out"}})}));
    REQUIRE_OK(r);
    for (size_t k = 0; k < r->t.size(); ++k) {
      const double t = r->t[k], a = 1.0 + 2.0 * t, c = std::sin(2.0 * kPi * t);
      QVERIFY(std::abs(r->col("g.out")[k] - (-3.0 * a + 0.25)) < 1e-12);
      QVERIFY(std::abs(r->col("s.out")[k] - (a - 0.5 + c)) < 1e-12);
      QVERIFY(std::abs(r->col("p.out")[k] - a * 0.5 * c) < 1e-12);
    }
  }

  // A gain that reads its own output is an algebraic loop: a clear error, no crash.
  void algebraicLoopIsReported() {
    auto r =
        simulate(signalProject(0.1, 0.01,
                               {comp("g", "gain", {}, {{"in", "g2.out"}}), comp("g2", "gain", {}, {{"in", "g.out"}}),
                                comp("lag", "first_order_lag", {}, {{"in", "g.out"}})}));
    QVERIFY(!r->ok());
    QVERIFY2(r->message().find("algebraic loop") != std::string::npos, r->message().c_str());
  }

  // PI control of a first-order plant K/(tau s + 1), K = 2, tau = 0.5 s, with
  // Ki/Kp = 1/tau (the controller zero cancels the plant pole): the loop is
  // Kp K/(tau s) and the closed loop 1/(tau_c s + 1), tau_c = tau/(Kp K) =
  // 1/6 s for Kp = 1.5. Unit set-point step: y = 1 - exp(-6 t). Tolerance 1e-6.
  // Derivative part alone (Kd = 0.2 s, Tf = 0.05 s) on a measurement ramp of
  // slope 1: D = -Kd (1 - exp(-t/Tf)).
  void piOnFirstOrderPlant() {
    auto r = simulate(signalProject(
        1.0, 1e-3,
        {comp("sp", "constant", {{"value", 1.0}}),
         comp("pid", "pid", {{"Kp", 1.5}, {"Ki", 3.0}}, {{"setpoint", "sp.out"}, {"measurement", "plant.out"}}),
         comp("plant", "first_order_lag", {{"gain", 2.0}, {"T", 0.5}}, {{"in", "pid.out"}}),
         comp("ramp", "ramp", {{"slope", 1.0}}),
         comp("pd", "pid", {{"Kp", 0.0}, {"Kd", 0.2}, {"Tf", 0.05}}, {{"measurement", "ramp.out"}})}));
    REQUIRE_OK(r);
    for (double t : {0.05, 0.167, 0.4, 0.8}) CHECK_ABS(valueAt(*r, "plant.out", t), 1.0 - std::exp(-6.0 * t), 1e-6);
    for (double t : {0.01, 0.05, 0.2}) CHECK_ABS(valueAt(*r, "pd.d", t), -0.2 * (1.0 - std::exp(-t / 0.05)), 1e-6);
  }

  // PI (Kp = 1, Ki = 4) on a lag (K = 1, tau = 0.5 s), output limited to
  // [-1, 1], set-point 2 until 5 s: the plant cannot exceed 1, so e -> 1.
  // - none: the output is limited from t = 0 (u(0) = 2), y = 1 - exp(-2t),
  //   e = 1 + exp(-2t), I(5) = 4 (5 + (1 - exp(-10))/2) = 21.9999;
  // - back-calculation, Tt = 0.2 s: while limited,
  //   dI/dt = Ki e + (1 - u)/Tt = (1 + (Ki Tt - Kp) e - I)/Tt = (0.8 - 0.2 exp(-2t) - I)/0.2,
  //   so I = 0.8 - exp(-2t)/3 - (7/15) exp(-5t): bounded, settling at
  //   1 + (Ki Tt - Kp) e = 0.8 (where u - 1 = Ki Tt e);
  // - clamping: I frozen at its initial 0.
  // After the set-point drops to 0.5 at 5 s, the anti-windup controllers leave
  // the limit at once; without anti-windup the output stays limited for
  // seconds (until I has unwound).
  void antiWindupKeepsIntegralBounded() {
    std::vector<Component> comps = {comp("sp", "step", {{"t_step", 5.0}, {"initial", 2.0}, {"final", 0.5}})};
    const char* names[] = {"none", "back", "clamp"};
    for (int aw = 0; aw < 3; ++aw) {
      const std::string n = names[aw], plant = std::string("y_") + n;
      comps.push_back(comp(
          n, "pid", {{"Kp", 1.0}, {"Ki", 4.0}, {"lower", -1.0}, {"upper", 1.0}, {"anti_windup", aw}, {"T_track", 0.2}},
          {{"setpoint", "sp.out"}, {"measurement", plant + ".out"}}));
      comps.push_back(comp(plant, "first_order_lag", {{"T", 0.5}}, {{"in", n + ".out"}}));
    }
    auto r = simulate(signalProject(7.0, 1e-3, comps));
    REQUIRE_OK(r);
    CHECK_REL(valueAt(*r, "none.i", 5.0 - 1e-3), 4.0 * ((5.0 - 1e-3) + (1.0 - std::exp(-2.0 * (5.0 - 1e-3))) / 2.0),
              1e-6);
    for (double t : {0.2, 1.0, 4.999})
      CHECK_ABS(valueAt(*r, "back.i", t), 0.8 - std::exp(-2.0 * t) / 3.0 - 7.0 / 15.0 * std::exp(-5.0 * t), 1e-6);
    CHECK_ABS(valueAt(*r, "clamp.i", 4.999), 0.0, 1e-12);
    CHECK_ABS(valueAt(*r, "back.out", 4.999), 1.0, 1e-12);
    const double leaveBack = r->crossing("back.out", 0.999, 4.99, Crossing::Falling);
    const double leaveClamp = r->crossing("clamp.out", 0.999, 4.99, Crossing::Falling);
    const double leaveNone = r->crossing("none.out", 0.999, 4.99, Crossing::Falling);
    qInfo("output leaves the upper limit after the set-point drop: back-calc %.4f s, clamping %.4f s, none %.4f s",
          leaveBack, leaveClamp, leaveNone);
    QVERIFY(leaveBack <= 5.0 + 2e-3);
    QVERIFY(leaveClamp <= 5.0 + 2e-3);
    QVERIFY(!(leaveNone < 6.5));  // NaN (still limited at 7 s) or late
  }

  // Comparator threshold 0.3, hysteresis 0.4 on sin(2 pi t): on when the sine
  // rises to 0.5 (t_on = 1/12 s), off when it falls to 0.1
  // (t_off = (pi - asin 0.1)/(2 pi)); again one period later. Instants are
  // measured by integrating the output: at t in an on phase, t_on = t - I(t);
  // in the following off phase I = t_off - t_on. Tolerance 1e-7 s.
  void comparatorHysteresisOnSine() {
    auto r =
        simulate(signalProject(1.5, 1e-3,
                               {comp("u", "sine", {{"frequency", 1.0}}),
                                comp("cmp", "comparator", {{"threshold", 0.3}, {"hysteresis", 0.4}}, {{"in", "u.out"}}),
                                comp("on", "integrator", {}, {{"in", "cmp.out"}})}));
    REQUIRE_OK(r);
    const double tOn = 1.0 / 12.0, tOff = (kPi - std::asin(0.1)) / (2.0 * kPi);
    CHECK_ABS(0.3 - valueAt(*r, "on.out", 0.3), tOn, 1e-7);
    CHECK_ABS(valueAt(*r, "on.out", 0.7) + tOn, tOff, 1e-7);
    CHECK_ABS(valueAt(*r, "on.out", 1.3) - (1.3 - (1.0 + tOn)), tOff - tOn, 1e-7);
    QCOMPARE(valueAt(*r, "cmp.out", 0.07), 0.0);  // sine at 0.43: inside the band, still off
    QCOMPARE(valueAt(*r, "cmp.out", 0.45), 1.0);  // sine at 0.31: inside the band, still on
  }

  // Sampled blocks, Ts = 0.1 s, observed every 0.01 s:
  // - sample-and-hold of u = t holds k Ts on [k Ts, (k+1) Ts) (1e-9: the
  //   sample is taken at the root, exactly at k Ts);
  // - discrete lag (T = 0.25 s) of a unit step at 0: y = 1 - exp(-k Ts/T), the
  //   continuous response at the instants, held between (1e-12);
  // - discrete integrator of 1: y = k Ts (forward Euler, 1e-12);
  // - discrete PI (Kp 2, Ki 5) of e = 1: out = 2 + 5 k Ts;
  // - discrete derivative filter (K = 0.5, T = 0.2 s) of u = t: with the lag
  //   state x_k = a x_k-1 + (1 - a) u_k-1 = k Ts - Ts (1 - a^k)/(1 - a),
  //   a = exp(-Ts/T), out = K (u_k - x_k)/T = K Ts (1 - a^k) / ((1 - a) T).
  // Output rows that fall on a sample instant may show either side: skipped.
  void sampledBlocksHoldAndUpdateAtInstants() {
    auto r = simulate(signalProject(
        1.0, 0.01,
        {comp("u", "ramp", {{"slope", 1.0}}), comp("one", "constant", {{"value", 1.0}}),
         comp("sh", "sample_hold", {{"sample_time", 0.1}}, {{"in", "u.out"}}),
         comp("lag", "first_order_lag", {{"T", 0.25}, {"sample_time", 0.1}}, {{"in", "one.out"}}),
         comp("int", "integrator", {{"sample_time", 0.1}}, {{"in", "one.out"}}),
         comp("pi", "pid", {{"Kp", 2.0}, {"Ki", 5.0}, {"sample_time", 0.1}}, {{"setpoint", "one.out"}}),
         comp("d", "derivative_filter", {{"gain", 0.5}, {"T", 0.2}, {"sample_time", 0.1}}, {{"in", "u.out"}}),
         comp("c", "first_order_lag", {}, {{"in", "sh.out"}})}));
    REQUIRE_OK(r);
    const auto d = r->col("d.out");
    const double a = std::exp(-0.1 / 0.2);
    double worstD = 0.0;
    const auto sh = r->col("sh.out"), lag = r->col("lag.out"), in = r->col("int.out"), pi = r->col("pi.out");
    int checked = 0;
    double worstSh = 0.0, worstLag = 0.0, worstInt = 0.0, worstPi = 0.0;
    for (size_t i = 0; i < r->t.size(); ++i) {
      const double t = r->t[i], k = std::floor(t / 0.1 + 1e-9);
      if (std::abs(t - 0.1 * std::round(t / 0.1)) < 1e-9 && t > 0.0) continue;
      ++checked;
      worstSh = std::max(worstSh, std::abs(sh[i] - 0.1 * k));
      worstLag = std::max(worstLag, std::abs(lag[i] - (1.0 - std::exp(-k * 0.1 / 0.25))));
      worstInt = std::max(worstInt, std::abs(in[i] - 0.1 * k));
      worstPi = std::max(worstPi, std::abs(pi[i] - (2.0 + 5.0 * 0.1 * k)));
      worstD = std::max(worstD, std::abs(d[i] - 0.5 * 0.1 * (1.0 - std::pow(a, k)) / ((1.0 - a) * 0.2)));
    }
    qInfo("%d rows between instants", checked);
    QVERIFY(checked >= 90);
    CHECK_ABS(worstSh, 0.0, 1e-9);
    CHECK_ABS(worstLag, 0.0, 1e-12);
    CHECK_ABS(worstInt, 0.0, 1e-12);
    CHECK_ABS(worstPi, 0.0, 1e-12);
    CHECK_ABS(worstD, 0.0, 1e-9);
  }

  // Output rows on the sample instants (output interval = sample time, as
  // the servo examples): the solver stops at every instant without a root
  // function (Simulation::run), also where IDA reaches it as an output time.
  // Each row is written after its instant's update, the last one (t_end on
  // an instant) too: the held ramp reads the row's own time, the sampled
  // integrator of 1 (forward Euler) Ts times the instants so far. A missed
  // instant leaves the previous sample (an error of 1e-3).
  void everySampleInstantIsAnEvent() {
    auto r = simulate(signalProject(0.2, 0.001,
                                    {comp("u", "ramp", {{"slope", 1.0}}), comp("one", "constant", {{"value", 1.0}}),
                                     comp("sh", "sample_hold", {{"sample_time", 0.001}}, {{"in", "u.out"}}),
                                     comp("int", "integrator", {{"sample_time", 0.001}}, {{"in", "one.out"}}),
                                     comp("c", "first_order_lag", {}, {{"in", "sh.out"}})}));
    REQUIRE_OK(r);
    const auto sh = r->col("sh.out"), in = r->col("int.out");
    QCOMPARE(static_cast<int>(r->t.size()), 201);
    double worstSh = 0.0, worstInt = 0.0;
    for (size_t i = 1; i < r->t.size(); ++i) {
      worstSh = std::max(worstSh, std::abs(sh[i] - r->t[i]));
      worstInt = std::max(worstInt, std::abs(in[i] - 0.001 * static_cast<double>(i)));
    }
    CHECK_ABS(worstSh, 0.0, 1e-9);
    CHECK_ABS(worstInt, 0.0, 1e-12);
  }

  // Counter on the rising crossings of 0.5 by sin(4 pi t) (t = 1/24 + k/2),
  // preset 2, reset held 1.2..1.3 s: counts 1, 2 (out on), 3, 0 after the
  // reset, then 1 at 1.5417 s and 2 at 2.0417 s (out on again).
  void counterCountsRisingEdges() {
    auto r = simulate(signalProject(
        2.2, 1e-3,
        {comp("u", "sine", {{"frequency", 2.0}}), comp("rs", "time_switch", {{"t_on", 1.2}, {"t_off", 1.3}}),
         comp("n", "counter", {{"preset", 2.0}}, {{"in", "u.out"}, {"reset", "rs.out"}}),
         comp("lag", "first_order_lag", {}, {{"in", "n.count"}})}));
    REQUIRE_OK(r);
    const std::vector<std::pair<double, double>> expect = {{0.03, 0}, {0.05, 1}, {0.54, 1}, {0.545, 2}, {1.1, 3},
                                                           {1.25, 0}, {1.5, 0},  {1.55, 1}, {2.0, 1},   {2.1, 2}};
    for (auto [t, n] : expect) QCOMPARE(valueAt(*r, "n.count", t), n);
    QCOMPARE(valueAt(*r, "n.out", 0.54), 0.0);
    QCOMPARE(valueAt(*r, "n.out", 0.6), 1.0);
    QCOMPARE(valueAt(*r, "n.out", 1.6), 0.0);
    QCOMPARE(valueAt(*r, "n.out", 2.1), 1.0);
  }

  // SR flip-flop, AND/OR/NOT and the off-delay timer on time switches:
  // set 0.1..0.2, reset 0.4..0.5, set again 0.6..0.8 with reset 0.7..0.9
  // (both on 0.7..0.8: reset wins in the RS latch, set in the SR latch).
  // Off-delay 0.15 s on `set`: on 0.1..0.35 and 0.6..0.95.
  void latchGatesAndOffDelay() {
    auto sw = [](const char* id, double on, double off) {
      return comp(id, "time_switch", {{"t_on", on}, {"t_off", off}});
    };
    auto r = simulate(signalProject(
        1.2, 1e-3,
        {sw("s1", 0.1, 0.2), sw("s2", 0.6, 0.8), sw("r1", 0.4, 0.5), sw("r2", 0.7, 0.9),
         comp("set", "or_gate", {}, {{"in1", "s1.out"}, {"in2", "s2.out"}}),
         comp("reset", "or_gate", {}, {{"in1", "r1.out"}, {"in2", "r2.out"}}),
         comp("rs", "sr_flip_flop", {}, {{"set", "set.out"}, {"reset", "reset.out"}}),
         comp("sr", "sr_flip_flop", {{"reset_dominant", 0.0}}, {{"set", "set.out"}, {"reset", "reset.out"}}),
         comp("both", "and_gate", {}, {{"in1", "set.out"}, {"in2", "reset.out"}}),
         comp("nq", "not_gate", {}, {{"in", "rs.q"}}),
         comp("tof", "off_delay_timer", {{"delay", 0.15}}, {{"in", "set.out"}}),
         comp("ontime", "integrator", {}, {{"in", "tof.out"}})}));
    REQUIRE_OK(r);
    auto at = [&](const char* ch, double t) { return valueAt(*r, ch, t); };
    QCOMPARE(at("rs.q", 0.05), 0.0);
    QCOMPARE(at("rs.q", 0.15), 1.0);
    QCOMPARE(at("rs.q", 0.3), 1.0);  // held with both inputs off
    QCOMPARE(at("rs.q", 0.45), 0.0);
    QCOMPARE(at("rs.q", 0.65), 1.0);
    QCOMPARE(at("rs.q", 0.75), 0.0);  // both on: reset dominant
    QCOMPARE(at("sr.q", 0.75), 1.0);  // both on: set dominant
    QCOMPARE(at("sr.q", 0.85), 0.0);
    QCOMPARE(at("rs.nq", 0.3), 0.0);
    QCOMPARE(at("nq.out", 0.3), 0.0);
    QCOMPARE(at("nq.out", 0.45), 1.0);
    QCOMPARE(at("both.out", 0.65), 0.0);
    QCOMPARE(at("both.out", 0.75), 1.0);
    QCOMPARE(at("both.out", 0.85), 0.0);
    QCOMPARE(at("tof.out", 0.3), 1.0);
    QCOMPARE(at("tof.out", 0.4), 0.0);
    // Exact on-time of the off-delay output: (0.35 - 0.1) + (0.95 - 0.6) = 0.6 s.
    CHECK_ABS(at("ontime.out", 1.2), 0.6, 1e-9);
    CHECK_ABS(at("ontime.out", 0.5), 0.25, 1e-9);
  }

  // Time table [[0, 0], [1, 2], [2, 2], [3, 0]]: linear (the default) gives 1
  // at 0.5 s and 2.5 s; the monotone cubic gives 1.25 at 0.5 s (Hermite with
  // end slope 2 and slope 0 at the flat stretch) and never leaves [0, 2].
  void timeTable() {
    const nlohmann::json linear = {{"points", {{0, 0}, {1, 2}, {2, 2}, {3, 0}}}};
    nlohmann::json pts = linear;
    pts["interpolation"] = "monotone_cubic";
    auto r = simulate(
        signalProject(3.5, 1e-2,
                      {comp("lin", "time_table", {}, {}, linear), comp("smo", "time_table", {}, {}, pts),
                       comp("int", "integrator", {}, {{"in", "lin.out"}})}));
    REQUIRE_OK(r);
    CHECK_ABS(valueAt(*r, "lin.out", 0.5), 1.0, 1e-12);
    CHECK_ABS(valueAt(*r, "lin.out", 2.5), 1.0, 1e-12);
    CHECK_ABS(valueAt(*r, "lin.out", 3.3), 0.0, 1e-12);
    CHECK_ABS(valueAt(*r, "smo.out", 0.5), 1.25, 1e-12);
    CHECK_ABS(valueAt(*r, "smo.out", 2.5), 1.25, 1e-12);
    for (double v : r->col("smo.out")) QVERIFY(v >= 0.0 && v <= 2.0 + 1e-15);
    CHECK_ABS(valueAt(*r, "int.out", 3.5), 4.0, 1e-7);  // area of the trapezoid
  }
};

QTEST_APPLESS_MAIN(TestSignalBlocks)
#include "test_signal_blocks.moc"
