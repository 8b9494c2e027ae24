// Servo position controller (core/control/servo_position_controller.cpp):
// the sampled law against hand numbers, gain-set switching instants, overlap
// compensation and the centred-valve band (sampled and continuous), and the
// closed loop of projects/servo_axis.pneumech.json.
#include "build/project_input.h"
#include "support/test_project.h"

using namespace pm;
using namespace pm::test;

class TestServo : public QObject {
  Q_OBJECT
 private slots:
  // Constant inputs r = 0.1, x = 0.04, v = 0.02 (extending set from the
  // start), a_cmd = 0.5 with a_ff = 1 (w = 0.5), table speed = 0.8 opening.
  // Gains ext: Kp_x 5, Ki_x 2, Kp_v 1, Ki_v 4; Ts = 0.01. At t_k = k Ts:
  //   v_cmd = 5*0.06 + 2*0.06 t_k = 0.3 + 0.12 t_k
  //   e_v   = v_cmd - 0.02
  //   I_v   = 4 Ts sum_{j<k} e_v,j = 1.12 t_k + 0.24 t_k (t_k - Ts)
  //   u     = e_v + I_v + 0.5 v_cmd / 0.8
  void lawAgainstHandNumbers() {
    Project p;
    p.components = {comp("r", "constant", {{"value", 0.1}}), comp("x", "constant", {{"value", 0.04}}),
                    comp("v", "constant", {{"value", 0.02}}), comp("a", "constant", {{"value", 0.5}}), comp("clk", "integrator", {}, {{"in", "a.out"}}),
                    comp("ctl", "servo_position_controller",
                         {{"sample_time", 0.01}, {"a_ff", 1.0}, {"Kp_x_ext", 5.0}, {"Ki_x_ext", 2.0},
                          {"Kp_v_ext", 1.0}, {"Ki_v_ext", 4.0}, {"Kp_x_stop", 0.0}, {"Kp_v_stop", 0.0}},
                         {{"setpoint", "r.out"}, {"position", "x.out"}, {"velocity", "v.out"},
                          {"acceleration", "a.out"}},
                         nlohmann::json::parse(R"({"opening": [-1, 1], "speed": [-0.8, 0.8]})"))};
    settings(p, 0.3, 0.005);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double Ts = 0.01;
    for (double tk : {0.0, 0.1, 0.2}) {
      const double vcmd = 0.3 + 0.12 * tk, ev = vcmd - 0.02;
      const double Iv = 1.12 * tk + 0.24 * tk * (tk - Ts);
      const double u = ev + Iv + 0.5 * vcmd / 0.8;
      const double th = tk + Ts / 2;  // held between samples
      CHECK_REL(run->at("ctl.v_cmd", th), vcmd, 1e-9);
      CHECK_REL(run->at("ctl.u", th), u, 1e-9);
      CHECK_REL(run->at("ctl.w", th), 0.5, 1e-12);
      CHECK_ABS(run->at("ctl.gain_set", th), 1.0, 0.0);
    }
  }

  // Velocity v(t) = -0.1 + 0.1 t: retracting at the start, standstill when v
  // reaches -v_off = -0.005 (t = 0.95), extending at v_on = 0.01 (t = 1.1).
  void gainSetSwitching() {
    Project p;
    p.components = {comp("x", "constant", {{"value", 0.0}}), comp("clk", "integrator", {}, {{"in", "x.out"}}),
                    comp("v", "ramp", {{"offset", -0.1}, {"slope", 0.1}}),
                    comp("ctl", "servo_position_controller", {{"v_on", 0.01}, {"v_off", 0.005}},
                         {{"position", "x.out"}, {"velocity", "v.out"}})};
    settings(p, 1.5, 0.0005);
    auto run = simulate(p);
    REQUIRE_OK(run);
    CHECK_ABS(run->at("ctl.gain_set", 0.01), -1.0, 0.0);
    CHECK_ABS(run->crossing("ctl.gain_set", -0.5), 0.95, 1e-3);
    CHECK_ABS(run->crossing("ctl.gain_set", 0.5), 1.1, 1e-3);
    CHECK_ABS(run->at("ctl.gain_set", 1.4), 1.0, 0.0);
  }

  // Overlap compensation and the centred-valve band, by hand: r = 0, x =
  // -0.001 + 0.001 t (e_x = 0.001 - 0.001 t), v = 0 (standstill set), gains
  // Kp_x 10, Kp_v 1: the loop output is u_c = 10 e_x; u_overlap 0.05 over a
  // band of 0.01 gives u = u_c + 0.05 clamp(u_c/0.01, -1, 1). x_hold =
  // 0.205 mm is reached at t = 0.795 s, x_release = 0.405 mm (the other
  // side) at t = 1.405 s; u = 0 in between. Sampled (Ts = 0.01 s: the band
  // acts from the next sample, 0.80 and 1.41 s) and continuous (at the
  // crossing instants, to the event tolerance) give the same law.
  void overlapCompensationAndHoldBand() {
    for (double Ts : {0.01, 0.0}) {
      Project p;
      p.components = {comp("x", "ramp", {{"offset", -0.001}, {"slope", 0.001}}),
                      comp("v", "constant", {{"value", 0.0}}), comp("clk", "integrator", {}, {{"in", "v.out"}}),
                      comp("ctl", "servo_position_controller",
                           {{"sample_time", Ts}, {"Kp_x_stop", 10.0}, {"Kp_v_stop", 1.0}, {"u_overlap", 0.05},
                            {"u_overlap_band", 0.01}, {"x_hold", 0.000205}, {"x_release", 0.000405}},
                           {{"position", "x.out"}, {"velocity", "v.out"}})};
      settings(p, 2.0, 0.0025);
      auto run = simulate(p);
      REQUIRE_OK(run);
      auto law = [](double t) {
        const double uc = 10.0 * (0.001 - 0.001 * t);
        return uc + 0.05 * std::clamp(uc / 0.01, -1.0, 1.0);
      };
      const double th = Ts > 0 ? Ts / 2 : 0.0;  // a time within the sample (the held value is the sample's)
      const double tk[] = {0.0, 0.2, 0.5, 0.7, 1.5, 1.9};
      for (double t : tk) CHECK_ABS(run->at("ctl.u", t + th), law(t), 1e-12);
      CHECK_ABS(run->at("ctl.u", 1.0 + th), 0.0, 0.0);
      CHECK_ABS(run->at("ctl.hold", 1.0), 1.0, 0.0);
      const double on = Ts > 0 ? 0.80 : 0.795, off = Ts > 0 ? 1.41 : 1.405;
      CHECK_ABS(run->crossing("ctl.hold", 0.5, 0.0, Crossing::Rising), on, 0.0025);
      CHECK_ABS(run->crossing("ctl.hold", 0.5, 0.0, Crossing::Falling), off, 0.0025);
    }
  }

  // Closed loop of projects/servo_axis: the set-point moves 20 -> 150 mm
  // (0.1..0.6 s) and back (1.5..2.0 s). The issue asks for +-0.5 mm
  // settling: from at most 0.4 s after each move ends (0.8 of the 0.5 s move
  // time) |x - r| <= 0.5 mm until the next move starts, i.e. the axis
  // reaches the band and holds it (no hunting out of it); an overshoot beyond
  // the target would also leave the band, and the valve command stays off
  // its limits while holding.
  void closedLoopSettles() {
    Project p = loadProject(projectPath("servo_axis.pneumech.json"));
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double band = 0.5e-3, settleBound = 0.4;
    const auto x = run->col("cyl.x"), r = run->col("sp.out");
    for (auto [tEnd, tNext] : {std::pair{0.6, 1.5}, std::pair{2.0, 3.0}}) {
      double tIn = tEnd;  // from here on inside the band
      for (size_t i = 0; i < x.size(); ++i)
        if (run->t[i] >= tEnd && run->t[i] <= tNext && std::abs(x[i] - r[i]) > band) tIn = run->t[i];
      double m = 0.0;
      for (size_t i = 0; i < x.size(); ++i)
        if (run->t[i] >= tEnd + settleBound && run->t[i] <= tNext) m = std::max(m, std::abs(x[i] - r[i]));
      qInfo("move ending at %.1f s: inside +-0.5 mm from %.3f s after, max |x - r| from %.1f s: %.3f mm", tEnd,
            tIn - tEnd, settleBound, m * 1e3);
      QVERIFY(tIn - tEnd <= settleBound);
      QVERIFY(m <= band);
      QVERIFY(run->maxAbs("ctl.u", tEnd + settleBound, tNext) < 1.0);
    }
  }

  // The same axis without the overlap compensation: the loop output alone
  // must open the spool across its 5 % overlap, and the axis stops short of
  // the band (or hunts across it) in at least one of the holds.
  void withoutOverlapCompensationMissesTheBand() {
    Project p = loadProject(projectPath("servo_axis.pneumech.json"));
    p.find("ctl")->params["u_overlap"] = 0.0;
    auto run = simulate(p);
    REQUIRE_OK(run);
    const auto x = run->col("cyl.x"), r = run->col("sp.out");
    double worst = 0.0;
    for (auto [t0, t1] : {std::pair{1.3, 1.5}, std::pair{2.8, 3.0}}) {
      double m = 0.0;
      for (size_t i = 0; i < x.size(); ++i)
        if (run->t[i] >= t0 && run->t[i] <= t1) m = std::max(m, std::abs(x[i] - r[i]));
      worst = std::max(worst, m);
    }
    qInfo("without u_overlap: max |x - r| at the end of the holds %.3f mm", worst * 1e3);
    QVERIFY(worst > 0.5e-3);
  }

  // A continuous controller (sample_time = 0, the law part of the DAE) and a
  // 0.1 ms sampled one give the same step response of the example axis
  // (set-point step 20 -> 80 mm at 0.1 s). The sampled one acts on values up
  // to Ts old (Ts/2 on average): at speeds up to v_max = 0.6 m/s that shifts
  // x by up to 0.06 mm; tolerance 0.1 mm, a fifth of the +-0.5 mm band. Both
  // settle into the band.
  void continuousEqualsFineSampling() {
    std::vector<double> x[2];
    std::vector<double> t;
    const double Ts[2] = {0.0, 1e-4};
    for (int k = 0; k < 2; ++k) {
      Project p = loadProject(projectPath("servo_axis.pneumech.json"));
      *p.find("sp") = comp("sp", "step", {{"t_step", 0.1}, {"initial", 0.02}, {"final", 0.08}});
      p.find("ctl")->params["sample_time"] = Ts[k];
      settings(p, 1.0, 0.001);
      auto run = simulate(p);
      REQUIRE_OK(run);
      x[k] = run->col("cyl.x");
      t = run->t;
      QVERIFY(std::abs(run->at("cyl.x", 1.0) - 0.08) <= 0.5e-3);
    }
    QCOMPARE(x[0].size(), x[1].size());
    double m = 0.0, tm = 0.0;
    for (size_t i = 0; i < x[0].size(); ++i)
      if (std::abs(x[0][i] - x[1][i]) > m) m = std::abs(x[0][i] - x[1][i]), tm = t[i];
    qInfo("continuous vs 0.1 ms sampled: max |dx| %.4f mm at %.3f s", m * 1e3, tm);
    QVERIFY(m < 0.1e-3);
  }
};

QTEST_MAIN(TestServo)
#include "test_servo.moc"
