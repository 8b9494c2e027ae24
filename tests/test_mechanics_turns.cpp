// Joint angles that count whole turns: every revolute joint carries a
// winding state, so its `angle` channel and signal are continuous through
// +-pi in dynamics, kinematics and quasi-statics; motions set the continuous
// angle (one solution, not one per half turn); a semi-rotary actuator reads
// the joint's turns. Closed forms: a disc driven at constant speed reads
// w t, a disc spinning freely w0 t, a pendulum spun over the top keeps its
// energy 1/2 I w^2 - m g L cos(angle) with the angle growing past 2 pi.
#include "analyses/mechanism_analysis.h"
#include "build/project_input.h"
#include "mechanics/spatial.h"
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;
using std::numbers::pi;

namespace {

constexpr double g0 = 9.80665;


MotionDef ramp(double slope) {
  MotionDef mo;
  mo.id = "drive";
  mo.joint = "shaft";
  mo.function = "ramp";
  mo.params = {{"offset", 0.0}, {"slope", slope}};
  return mo;
}

// Crank-rocker four-bar (test_mechanics' fourBar): rocker angle of crank angle th2, open branch.
constexpr double a4 = 0.1, b4 = 0.35, c4 = 0.3, d4 = 0.4;
double rockerAngle(double th2) {
  const double K1 = d4 / a4, K2 = d4 / c4, K3 = (a4 * a4 - b4 * b4 + c4 * c4 + d4 * d4) / (2 * a4 * c4);
  const double A = std::cos(th2) - K1 - K2 * std::cos(th2) + K3, B = -2 * std::sin(th2),
               C = K1 - (K2 + 1) * std::cos(th2) + K3;
  return 2 * std::atan2(-B + std::sqrt(B * B - 4 * A * C), 2 * A);
}

}  // namespace

class TestMechanicsTurns : public QObject {
  Q_OBJECT
 private slots:
  // A disc on a joint without limits, driven at w through 2.5 turns: the
  // angle is w t (the motion is a position row on the continuous angle),
  // the sensor reading `shaft.angle` the same, in dynamics and kinematics.
  void drivenJointCountsTurns() {
    const double tEnd = 2.0, w = 2.5 * 2 * pi / tEnd;
    Project pr = mechProject(discOnShaft(), tEnd, 0.01, 1e-9);
    pr.mechanism.motions.push_back(ramp(w));
    pr.components.push_back(comp("sensor", "position_sensor", {}, {{"position", "shaft.angle"}}));
    auto r = simulate(pr);
    REQUIRE_OK(r);
    // Measured 5.3e-9 rad of 15.7 (IDA's interpolation to the output times;
    // the motion row itself holds to Newton's tolerance at its steps).
    CHECK_WORST(worst(*r, r->col("shaft.angle"), [&](double t) { return w * t; }), 2e-8);
    CHECK_WORST(worst(*r, r->col("sensor.out"), [&](double t) { return w * t; }), 2e-8);
    CHECK_WORST(std::abs(r->col("shaft.angle").back() - 5 * pi), 2e-8);
    // Kinematics with outputs 0.5 s apart: 1.25 half turns per step.
    pr.components.clear();
    pr.simulation.output_interval = 0.5;
    auto k = analyse(pr, MechanismAnalysis::Kinematic);
    REQUIRE_OK(k);
    QCOMPARE(k->t.size(), size_t(5));
    CHECK_WORST(worst(*k, k->col("shaft.angle"), [&](double t) { return w * t; }), 1e-12);
    CHECK_WORST(worst(*k, k->col("shaft.rate"), [&](double) { return w; }), 1e-12);
  }

  // The same disc spinning freely at w0 (no motion, no torque): angle w0 t
  // through 2.5 turns; the winding integrates the rate, the angle itself
  // comes from the geometry.
  void freeJointCountsTurns() {
    const double tEnd = 2.0, w0 = 2.5 * 2 * pi / tEnd;
    Mechanism mech = discOnShaft();
    mech.parts[1].angular_velocity = {0, 0, w0};
    auto r = simulate(mechProject(mech, tEnd, 0.01, 1e-9));
    REQUIRE_OK(r);
    // IDA's global error at rel_tol 1e-9 over 2.5 turns: below 1e-7 with a
    // fresh Jacobian at every update, 1.5e-7 to 2.2e-7 (1e-8 of the angle)
    // with the reuse of mechanism runs (Simulation); a turn lost or counted
    // twice would be 6.3 rad.
    CHECK_WORST(worst(*r, r->col("shaft.angle"), [&](double t) { return w0 * t; }), 5e-7);
    CHECK_WORST(std::abs(r->col("shaft.angle").back() - 5 * pi), 5e-7);
  }

  // A pendulum (bob m at L, Izz about its centre) hanging from a pivot on z
  // under gravity -y, started at w0 with w0^2 > 4 g L m / I_p: it goes over
  // the top and keeps turning. Its energy 1/2 I_p rate^2 - m g L cos(angle)
  // holds with the angle channel (1e-7 relative), the angle grows past 2 pi
  // without a jump (each output step matches the trapezoid of the rate to
  // 1e-4 rad), and the sensor on `pivot.angle` reads the same.
  void pendulumOverTheTop() {
    const double m = 1.0, L = 0.5, Izz = 1e-3, Ip = Izz + m * L * L;
    const double w0 = 1.3 * std::sqrt(4 * m * g0 * L / Ip);
    Project pr;
    Mechanism& mech = pr.mechanism;
    mech.gravity = {0, -g0, 0};
    mech.parts.push_back(ground({mk("O", {0, 0, 0})}));
    PartDef bob = part("bob", m, std::array<double, 6>{Izz, Izz, Izz, 0, 0, 0}, {0, 0, 0}, {mk("O", {0, 0, 0})});
    bob.cm = {0, -L, 0};
    bob.angular_velocity = {0, 0, w0};
    mech.parts.push_back(bob);
    mech.joints.push_back(joint("pivot", "revolute", "bob.O", "ground.O"));
    pr.components.push_back(comp("sensor", "position_sensor", {}, {{"position", "pivot.angle"}}));
    settings(pr, 2.0, 0.01, {.rel = 1e-10, .position = 1e-10});
    auto r = simulate(pr);
    REQUIRE_OK(r);
    const auto q = r->col("pivot.angle"), rate = r->col("pivot.rate"), s = r->col("sensor.out");
    const double E0 = 0.5 * Ip * w0 * w0 - m * g0 * L;
    double eE = 0.0, eStep = 0.0, eSensor = 0.0;
    for (size_t i = 0; i < q.size(); ++i) {
      eE = std::max(eE, std::abs(0.5 * Ip * rate[i] * rate[i] - m * g0 * L * std::cos(q[i]) - E0) / E0);
      eSensor = std::max(eSensor, std::abs(s[i] - q[i]));
      if (i > 0) eStep = std::max(eStep, std::abs(q[i] - q[i - 1] - 0.5 * (rate[i] + rate[i - 1]) * (r->t[i] - r->t[i - 1])));
    }
    qInfo("over the top: final angle %.6f rad, energy error %.3g, step error %.3g rad", q.back(), eE, eStep);
    QVERIFY2(q.back() > 2 * pi, qPrintable(QString("final angle %1 rad").arg(q.back())));
    CHECK_WORST(eE, 1e-7);
    CHECK_WORST(eStep, 1e-4);
    CHECK_WORST(eSensor, 1e-12);
  }

  // Quasi-statics with outputs 0.5 s apart while the motion turns the disc
  // 1.25 half turns per output: the equilibrium against a torsion spring k
  // is at the motion's angle w t, the spring torque -k w t, the drive
  // supplies k w t (before, Newton from the last equilibrium could land a
  // whole half turn off).
  void quasiStaticTurnsPastHalfATurnPerOutput() {
    const double tEnd = 2.0, w = 2.5 * 2 * pi / tEnd, k = 0.2;
    Project pr = mechProject(discOnShaft(), tEnd, 0.5, 1e-9);
    pr.mechanism.motions.push_back(ramp(w));
    ForceDef f;
    f.id = "spring";
    f.type = "rotational_spring_damper";
    f.i = "disc.axis";
    f.j = "ground.axis";
    f.params = {{"stiffness", k}};
    pr.mechanism.forces.push_back(f);
    auto r = analyse(pr, MechanismAnalysis::QuasiStatic);
    REQUIRE_OK(r);
    QCOMPARE(r->t.size(), size_t(5));
    CHECK_WORST(worst(*r, r->col("shaft.angle"), [&](double t) { return w * t; }), 1e-10);
    CHECK_WORST(worst(*r, r->col("spring.T"), [&](double t) { return -k * w * t; }), 1e-10);
    CHECK_WORST(worst(*r, r->col("drive.effort"), [&](double t) { return k * w * t; }), 1e-9);
  }

  // A crank-rocker four-bar under gravity, quasi-statically, its crank
  // turned 0.6 turn per output (1.2 half turns) through 3 turns: the
  // intermediate equilibria keep the linkage on its branch, so the rocker
  // follows Freudenstein's closed form (1e-9 rad) and the crank angle reads
  // its turns.
  void quasiStaticFourBarKeepsItsBranch() {
    Project pr = loadProject(projectPath("four_bar.pneumech.json"));
    pr.simulation.t_end = 3.0;
    pr.simulation.output_interval = 0.6;
    auto r = analyse(pr, MechanismAnalysis::QuasiStatic);
    REQUIRE_OK(r);
    QCOMPARE(r->t.size(), size_t(6));
    const double th20 = pi / 2, th40 = rockerAngle(th20);
    CHECK_WORST(worst(*r, r->col("jA.angle"), [&](double t) { return 2 * pi * t; }), 1e-10);
    const auto yaw = r->col("rocker.yaw");
    double e = 0.0;
    for (size_t i = 0; i < yaw.size(); ++i)
      e = std::max(e, std::abs(std::remainder(yaw[i] - (rockerAngle(th20 + 2 * pi * r->t[i]) - th40), 2 * pi)));
    CHECK_WORST(e, 1e-9);
  }

  // The double pendulum example held level (where gravity's stiffness about
  // both joints vanishes, so Newton's first step is unbounded) settles
  // hanging straight down: j1 a quarter turn from level, j2 straight, the
  // tips below the pivot at the link lengths. Each Newton step turns a part
  // by at most 0.2 pi: before, a step of ~1e7 rad landed on the hanging
  // pose but the windings counted every turn (j1.angle 31358292 rad).
  void staticEquilibriumFromLevelKeepsItsTurns() {
    Project pr = loadProject(projectPath("double_pendulum.pneumech.json"));
    auto r = analyse(pr, MechanismAnalysis::Static);
    REQUIRE_OK(r);
    QCOMPARE(r->t.size(), size_t(1));
    CHECK_WORST(std::abs(r->col("j1.angle")[0] - pi / 2), 1e-9);
    CHECK_WORST(std::abs(r->col("j2.angle")[0]), 1e-9);
    CHECK_WORST(std::abs(r->col("link1.z")[0] + 0.2), 1e-9);
    CHECK_WORST(std::abs(r->col("link2.z")[0] + 0.55), 1e-9);
    CHECK_WORST(std::abs(r->col("link2.x")[0]), 1e-9);
  }

  // A semi-rotary actuator of 1.5 turns (theta_max = 3 pi) on an unlimited
  // joint, chambers at equal pressure (no pressure torque, no friction at
  // rest), turned quasi-statically past its B-side stop by 0.01 rad: the
  // stop pushes back with k_stop 0.01, which the motion carries; inside the
  // travel the actuator exerts nothing. Its angle comes from the joint's
  // turns (an unwrap around mid-travel read 3.15 rad here, no contact).
  void semiRotaryReadsTheJointsTurns() {
    const double thMax = 3 * pi, kStop = 1e4, tEnd = 1.0, w = (thMax + 0.01) / tEnd;
    Project pr = mechProject(discOnShaft(), tEnd, 0.5, 1e-9);
    pr.mechanism.motions.push_back(ramp(w));
    pr.components.push_back(comp("act", "semi_rotary_actuator",
                                 {{"theta_max", thMax}, {"k_stop", kStop}, {"pA0", 2e5}, {"pB0", 2e5}},
                                 {}, {{"attach", {{"joint", "shaft"}}}}));
    auto r = analyse(pr, MechanismAnalysis::QuasiStatic);
    REQUIRE_OK(r);
    QCOMPARE(r->t.size(), size_t(3));
    const auto effort = r->col("drive.effort");
    CHECK_WORST(std::abs(effort[0]), 1e-9);
    CHECK_WORST(std::abs(effort[1]), 1e-9);
    CHECK_WORST(std::abs(effort[2] - kStop * 0.01), 1e-9 * kStop * 0.01);
  }

  // The same actuator swung dynamically by 6 bar through its 1.5 turns to
  // the B-side stop: it rests at theta_max (pressure torque against the
  // stop: D (pA - pB) / k_stop = 1.5e-4 rad beyond it), and its theta is the
  // joint's angle all the way, never a turn off (theta0 = 0 and the joint starts at 0).
  void semiRotarySwingsOneAndAHalfTurns() {
    const double thMax = 3 * pi;
    Project p;
    p.components = {comp("src", "supply", {{"p", 601325.0}}), comp("sw1", "time_switch", {{"t_on", 0.01}}),
                    comp("v1", "valve_5_2", {{"C_supply", 4e-9}, {"C_exhaust", 4e-9}}, {{"sol14", "sw1.out"}}),
                    comp("act", "semi_rotary_actuator", {{"theta_max", thMax}}, {}, {{"attach", {{"joint", "shaft"}}}})};
    wire(p, "src.1", "v1.1");
    wire(p, "v1.4", "act.A");
    wire(p, "v1.2", "act.B");
    settings(p, 1.0, 1e-3, {.rel = 1e-8});
    p.mechanism = discOnShaft();
    auto r = simulate(p);
    REQUIRE_OK(r);
    const auto th = r->col("act.theta"), q = r->col("shaft.angle");
    double e = 0.0;
    for (size_t i = 0; i < th.size(); ++i) e = std::max(e, std::abs(th[i] - q[i]));
    CHECK_WORST(e, 1e-6);  // measured 1.6e-7: theta is an algebraic state, solved to Newton's tolerance
    const double beyond = 3e-6 * 5e5 / 1e4;  // D (pA - pB) / k_stop
    qInfo("final theta %.9f rad, theta_max + D dp / k_stop = %.9f", th.back(), thMax + beyond);
    CHECK_WORST(std::abs(th.back() - thMax - beyond), 1e-7);  // measured 1e-9
  }
};

QTEST_APPLESS_MAIN(TestMechanicsTurns)
#include "test_mechanics_turns.moc"
