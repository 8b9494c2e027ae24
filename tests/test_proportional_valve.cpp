// Proportional 5/3 valve (core/pneumatics/proportional_valve.cpp) against
// hand-derivable numbers: the spool's second-order step response (closed
// form, overshoot exp(-zeta pi / sqrt(1 - zeta^2)) at t_p = pi / w_d), the
// steady ISO 6358 flow through a path at a tabulated opening with that
// opening's C and b, leakage only at centre with overlap, and the default
// linear opening law on the exhaust path.
#include "pneumatics/gas.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <string>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kPi = std::numbers::pi;

// ISO 6358 written out (m = 0.5): q = C p1 rho0 sqrt(T0/T1) phi(p2/p1).
double isoFlow(double C, double b, double p1, double T1, double p2) {
  const double pr = p2 / p1;
  const double phi = pr <= b ? 1.0 : std::sqrt(1.0 - std::pow((pr - b) / (1.0 - b), 2));
  return C * p1 * gas::rho0 * std::sqrt(gas::T0 / T1) * phi;
}

}  // namespace

class TestProportionalValve : public QObject {
  Q_OBJECT

 private slots:
  // Command step 0 -> 0.5 at 10 ms; f_n = 50 Hz (wn = 314.16 rad/s),
  // zeta = 0.3. With tau = t - 0.01, w_d = wn sqrt(1 - zeta^2):
  //   x = 0.5 [1 - exp(-zeta wn tau) (cos w_d tau + zeta/sqrt(1 - zeta^2) sin w_d tau)]
  // at several tau (tolerance 1e-6); peak overshoot exp(-zeta pi/sqrt(1 -
  // zeta^2)) = 0.3723 at tau_p = pi/w_d = 10.48 ms, read from 10 us samples
  // (sampling error < 1e-6 in x): tolerance 1e-5 on the ratio, 10 us on tau_p.
  void spoolStepResponse() {
    Project p;
    settings(p, 0.05, 1e-5, Tolerances{.rel = 1e-9});
    p.components = {comp("u", "step", {{"t_step", 0.01}, {"final", 0.5}}),
                    comp("v", "valve_5_3_proportional", {{"f_n", 50.0}, {"zeta", 0.3}}, {{"u", "u.out"}})};
    auto r = simulate(p);
    REQUIRE_OK(r);
    const double wn = 2.0 * kPi * 50.0, z = 0.3, wd = wn * std::sqrt(1.0 - z * z);
    auto hand = [&](double tau) {
      return 0.5 *
             (1.0 - std::exp(-z * wn * tau) * (std::cos(wd * tau) + z / std::sqrt(1.0 - z * z) * std::sin(wd * tau)));
    };
    const auto x = r->col("v.x");
    CHECK_ABS(x[r->indexAt(0.009)], 0.0, 1e-12);
    for (double tau : {0.002, 0.005, 0.01, 0.02, 0.035}) CHECK_ABS(x[r->indexAt(0.01 + tau)], hand(tau), 1e-6);
    const auto peak = std::max_element(x.begin(), x.end());
    const double tPeak = r->t[static_cast<size_t>(peak - x.begin())] - 0.01;
    CHECK_ABS((*peak - 0.5) / 0.5, std::exp(-z * kPi / std::sqrt(1.0 - z * z)), 1e-5);
    CHECK_ABS(tPeak, kPi / wd, 1e-5);
  }

  // A held command (sample_hold, 5 ms): the spool is solved exactly between
  // events (no states). The table's steps (0 -> 0.5 at 7.5 ms, -> -0.3 at
  // 12.5 ms) reach the valve at the samples 10 ms and 15 ms, so by
  // superposition of the unit step response
  //   s(tau) = 1 - exp(-zeta wn tau) (cos w_d tau + zeta/sqrt(1 - zeta^2) sin w_d tau),
  //   s'(tau) = wn/sqrt(1 - zeta^2) exp(-zeta wn tau) sin w_d tau,
  // x = 0.5 s(t - 0.010) - 0.8 s(t - 0.015) (second term from 15 ms on), v
  // likewise with s'. f_n = 50 Hz, zeta = 0.3 (and 100 Hz, zeta = 2:
  // overdamped, and zeta = 1). Tolerance 1e-9 in x (1e-9 wn in v) at the
  // run's rel_tol 1e-6: rounding of the closed form; the integrated spool
  // (the spoolStepResponse case) reaches 1e-6 only at rel_tol 1e-9.
  void heldCommandSpoolIsExact() {
    const nlohmann::json table = {
        {"points", {{0.0, 0.0}, {0.0075, 0.0}, {0.0076, 0.5}, {0.0125, 0.5}, {0.0126, -0.3}, {1.0, -0.3}}}};
    for (const auto& [fn, zeta] : {std::pair{50.0, 0.3}, std::pair{100.0, 2.0}, std::pair{80.0, 1.0}}) {
      const double z = zeta;  // a lambda below captures it (clang 14 cannot capture a structured binding)
      Project p;
      settings(p, 0.05, 1e-4, Tolerances{.rel = 1e-6});
      p.components = {comp("cmd", "time_table", {}, {}, table),
                      comp("hold", "sample_hold", {{"sample_time", 0.005}}, {{"in", "cmd.out"}}),
                      comp("v", "valve_5_3_proportional", {{"f_n", fn}, {"zeta", z}}, {{"u", "hold.out"}})};
      auto r = simulate(p);
      REQUIRE_OK(r);
      const double wn = 2.0 * kPi * fn;
      auto step = [&](double tau, bool rate) {  // s(tau) or s'(tau), any damping
        if (tau < 0.0) return 0.0;
        const double s = z * wn, q = wn * wn * (1.0 - z * z), ex = std::exp(-s * tau);
        double C = 1.0, S = tau;  // cos w tau, sin(w tau)/w (critical: 1, tau)
        if (q > 0.0) C = std::cos(std::sqrt(q) * tau), S = std::sin(std::sqrt(q) * tau) / std::sqrt(q);
        if (q < 0.0) C = std::cosh(std::sqrt(-q) * tau), S = std::sinh(std::sqrt(-q) * tau) / std::sqrt(-q);
        return rate ? ex * wn * wn * S : 1.0 - ex * (C + s * S);
      };
      const auto x = r->col("v.x"), v = r->col("v.v");
      for (double t : {0.005, 0.009, 0.0101, 0.012, 0.015, 0.0153, 0.02, 0.03, 0.049}) {
        const size_t i = r->indexAt(t);
        const double ti = r->t[i];
        CHECK_ABS(x[i], 0.5 * step(ti - 0.010, false) - 0.8 * step(ti - 0.015, false), 1e-9);
        CHECK_ABS(v[i], 0.5 * step(ti - 0.010, true) - 0.8 * step(ti - 0.015, true), 1e-9 * wn);
      }
    }
  }

  // Supply 6 bar gauge on port 1, 3 bar gauge imposed on port 4, port 2
  // plugged, 3 and 5 open. Table over the opening [0, 0.25, 0.5, 1] for 1-4:
  // C = [0, 2, 5, 9] e-9 m3/(s Pa), b = [0.2, 0.25, 0.3, 0.35]; overlap 0.2,
  // C_leak = 3e-11. After the spool has settled (zeta 0.7, 100 Hz: after
  // 0.1 s its error is below e^-40):
  // - u = 0.6: opening (0.6 - 0.2)/(1 - 0.2) = 0.5, a table point:
  //   q_1_4 = iso(C_leak + 5e-9, b = 0.3), subsonic (p4/p1 = 0.572);
  // - u = 0: inside the overlap, q_1_4 = iso(C_leak, b = 0.2), leak only;
  // - u = -0.6: 1-4 leak only, and 4-5 (no table: linear law) opens to 0.5:
  //   C = C_leak + 0.5 C_exhaust, b_exhaust = 0.3; 4 bar abs to ambient is
  //   choked (0.2525 < 0.3). Tolerance 1e-9 relative (the flows are algebraic
  //   in pressures the boundaries impose).
  void steadyFlowFromTable() {
    Project p;
    settings(p, 0.1, 1e-3, Tolerances{.rel = 1e-9});
    const nlohmann::json table = {
        {"opening", {0.0, 0.25, 0.5, 1.0}},
        {"paths", {{"1-4", {{"C", {0.0, 2e-9, 5e-9, 9e-9}}, {"b", {0.2, 0.25, 0.3, 0.35}}}}}}};
    const std::map<std::string, double> par = {
        {"overlap", 0.2}, {"C_leak", 3e-11}, {"C_exhaust", 1.2e-8}, {"b_exhaust", 0.3}};
    p.components = {comp("s1", "supply", {{"p", 701325.0}}),
                    comp("s4", "supply", {{"p", 401325.0}}),
                    comp("open", "constant", {{"value", 0.6}}),
                    comp("mid", "constant", {{"value", 0.0}}),
                    comp("back", "constant", {{"value", -0.6}}),
                    comp("va", "valve_5_3_proportional", par, {{"u", "open.out"}}, table),
                    comp("vc", "valve_5_3_proportional", par, {{"u", "mid.out"}}, table),
                    comp("vb", "valve_5_3_proportional", par, {{"u", "back.out"}}, table)};
    for (const char* v : {"va", "vc", "vb"}) {
      wire(p, "s1.1", std::string(v) + ".1");
      wire(p, "s4.1", std::string(v) + ".4");
    }
    auto r = simulate(p);
    REQUIRE_OK(r);
    const double p1 = 701325.0, p4 = 401325.0, T = 293.15, pa = 101325.0;
    CHECK_ABS(r->col("va.x").back(), 0.6, 1e-12);
    CHECK_REL(r->col("va.q_1_4").back(), isoFlow(3e-11 + 5e-9, 0.3, p1, T, p4), 1e-9);
    CHECK_REL(r->col("vc.q_1_4").back(), isoFlow(3e-11, 0.2, p1, T, p4), 1e-9);
    CHECK_REL(r->col("vb.q_1_4").back(), isoFlow(3e-11, 0.2, p1, T, p4), 1e-9);
    CHECK_REL(r->col("vb.q_4_5").back(), isoFlow(3e-11 + 0.5 * 1.2e-8, 0.3, p4, T, pa), 1e-9);
    CHECK_REL(r->col("va.q_4_5").back(), isoFlow(3e-11, 0.3, p4, T, pa), 1e-9);  // closed: leak only
    QCOMPARE(r->col("va.q_1_2").back(), 0.0);                                    // port 2 plugged
    qInfo("1->4 at opening 0.5: %.4f Nl/min; leak at centre %.4f Nl/min",
          gas::kgPerSToNlPerMin(r->col("va.q_1_4").back()), gas::kgPerSToNlPerMin(r->col("vc.q_1_4").back()));
  }

  // Between table points the monotone cubic stays between the neighbours'
  // flows; a command beyond 1 is clamped (full opening).
  void betweenTablePointsAndClamp() {
    Project p;
    settings(p, 0.1, 1e-3, Tolerances{.rel = 1e-9});
    const nlohmann::json table = {{"opening", {0.0, 0.25, 0.5, 1.0}},
                                  {"paths", {{"1-4", {{"C", {0.0, 2e-9, 5e-9, 9e-9}}, {"b", 0.3}}}}}};
    p.components = {
        comp("s1", "supply"),
        comp("atm", "atmosphere"),
        comp("u1", "constant", {{"value", 0.45}}),
        comp("u2", "constant", {{"value", 1.7}}),
        comp("va", "valve_5_3_proportional", {{"overlap", 0.2}, {"C_leak", 0.0}}, {{"u", "u1.out"}}, table),
        comp("vb", "valve_5_3_proportional", {{"overlap", 0.2}, {"C_leak", 0.0}}, {{"u", "u2.out"}}, table)};
    for (const char* v : {"va", "vb"}) {
      wire(p, "s1.1", std::string(v) + ".1");
      wire(p, "atm.1", std::string(v) + ".4");
    }
    auto r = simulate(p);
    REQUIRE_OK(r);
    const double p1 = 701325.0, T = 293.15, pa = 101325.0;
    const double q = r->col("va.q_1_4").back();
    QVERIFY(q > isoFlow(2e-9, 0.3, p1, T, pa) && q < isoFlow(5e-9, 0.3, p1, T, pa));
    CHECK_ABS(r->col("vb.u").back(), 1.0, 0.0);
    CHECK_REL(r->col("vb.q_1_4").back(), isoFlow(9e-9, 0.3, p1, T, pa), 1e-9);
  }

  // Bad tables name the field.
  void tableErrors() {
    Project p;
    settings(p, 0.01, 1e-3);
    auto run = [&](const nlohmann::json& data) {
      p.components = {comp("u", "constant"), comp("v", "valve_5_3_proportional", {}, {{"u", "u.out"}}, data)};
      return simulate(p);
    };
    auto r1 = run({{"opening", {0.0, 1.0}}, {"paths", {{"1-4", {{"C", {0.0}}}}}}});
    QVERIFY(!r1->ok());
    QVERIFY2(r1->message().find("data.paths.1-4.C") != std::string::npos, r1->message().c_str());
    auto r2 = run({{"opening", {0.0, 1.0}}, {"paths", {{"1-3", {{"C", {0.0, 1e-8}}}}}}});
    QVERIFY(!r2->ok());
    QVERIFY2(r2->message().find("unknown path") != std::string::npos, r2->message().c_str());
  }
};

QTEST_APPLESS_MAIN(TestProportionalValve)
#include "test_proportional_valve.moc"
