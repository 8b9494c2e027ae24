// Joint types, applied torques, motion functions and joint limits against
// closed forms, each in the simplest mechanism that isolates it: a conical
// pendulum (spherical joint), a spinning slider (cylindrical), a puck on a
// plane (planar), a free body under a torque (vtorque), STEP and table
// motions, a gear pair (coupler) and a bar resting on a limit stop.
#include "analyses/mechanism_analysis.h"
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


// Two shafts on revolute joints ja, jb 0.2 m apart, coupled by "gear"
// (q_a + ratio q_b = const), shaft a driven by `drive` (its id and joint
// are set here), a torque `tz` on shaft b, no gravity.
Mechanism gearPair(double ratio, MotionDef drive, double tz) {
  Mechanism mech;
  mech.gravity = {0, 0, 0};
  mech.parts.push_back(ground({mk("a", {0, 0, 0}), mk("b", {0.2, 0, 0})}));
  mech.parts.push_back(part("shaft_a", 1.0, 1e-3, {0, 0, 0}, {mk("o", {0, 0, 0})}));
  mech.parts.push_back(part("shaft_b", 1.0, 2e-3, {0.2, 0, 0}, {mk("o", {0, 0, 0})}));
  mech.joints.push_back(joint("ja", "revolute", "shaft_a.o", "ground.a"));
  mech.joints.push_back(joint("jb", "revolute", "shaft_b.o", "ground.b"));
  mech.joints.push_back(coupler("gear", "ja", "jb", ratio));
  drive.id = "drive";
  drive.joint = "ja";
  mech.motions.push_back(drive);
  mech.forces.push_back(force("load", "vtorque", "shaft_b.o", "", {{"tz", tz}}));
  return mech;
}

}  // namespace

class TestMechanicsJoints : public QObject {
  Q_OBJECT
 private slots:
  // Conical pendulum on a spherical joint: a body of isotropic inertia at
  // distance L below the pivot, tilted by alpha and circling at
  // Omega = sqrt(g / (L cos alpha)), keeps its height and circles uniformly;
  // the rod force is m g / cos(alpha).
  void conicalPendulumOnSphericalJoint() {
    const double L = 0.5, m = 1.5, I = 2e-3, alpha = 0.6;
    const double W = std::sqrt(g0 / (L * std::cos(alpha))), rho = L * std::sin(alpha), h = -L * std::cos(alpha);
    Mechanism mech;
    mech.parts.push_back(ground({mk("pivot", {0, 0, 0})}));
    PartDef bob = part("bob", m, I, {rho, 0, h}, {mk("top", {-rho, 0, -h})});
    bob.velocity = {0, W * rho, 0};
    bob.angular_velocity = {0, 0, W};
    mech.parts.push_back(bob);
    mech.joints.push_back(joint("ball", "spherical", "bob.top", "ground.pivot"));
    const double period = 2 * pi / W;
    auto r = simulate(mechProject(mech, 2 * period, period / 200, 1e-10));
    REQUIRE_OK(r);
    const auto x = r->col("bob.x"), y = r->col("bob.y"), z = r->col("bob.z");
    const auto Fx = r->col("ball.Fx"), Fy = r->col("ball.Fy"), Fz = r->col("ball.Fz");
    CHECK_WORST(worst(*r, z, [&](double) { return h; }), 1e-8);
    CHECK_WORST(worst(*r, x, [&](double t) { return rho * std::cos(W * t); }), 1e-7);
    CHECK_WORST(worst(*r, y, [&](double t) { return rho * std::sin(W * t); }), 1e-7);
    double eF = 0.0;
    for (size_t i = 0; i < Fx.size(); ++i)
      eF = std::max(eF, std::abs(std::sqrt(Fx[i] * Fx[i] + Fy[i] * Fy[i] + Fz[i] * Fz[i]) - m * g0 / std::cos(alpha)));
    CHECK_WORST(eF, 1e-6 * m * g0);
  }

  // Cylindrical joint along world x, gravity along -z: the slider keeps its
  // initial speed along the axis, a torque about the axis spins it up at
  // T / Ixx, and the joint carries m g.
  void spinningSliderOnCylindricalJoint() {
    const double m = 2.0, I = 0.01, v0 = 0.3, w0 = 2.0, T = 0.1;
    Mechanism mech;
    const Vec3 xAxis = zAxis({1, 0, 0});
    mech.parts.push_back(ground({mk("rail", {0, 0, 0}, xAxis)}));
    PartDef s = part("slider", m, I, {0, 0, 0}, {mk("g", {0, 0, 0}, xAxis)});
    s.velocity = {v0, 0, 0};
    s.angular_velocity = {w0, 0, 0};
    mech.parts.push_back(s);
    mech.joints.push_back(joint("shaft", "cylindrical", "slider.g", "ground.rail"));
    ForceDef tq;
    tq.id = "spin";
    tq.type = "vtorque";
    tq.i = "slider.g";
    tq.params = {{"tx", T}};  // world axes: about the shaft
    mech.forces.push_back(tq);
    auto r = simulate(mechProject(mech, 1.0, 0.01, 1e-10));
    REQUIRE_OK(r);
    CHECK_WORST(worst(*r, r->col("shaft.displacement"), [&](double t) { return v0 * t; }), 1e-9);
    CHECK_WORST(worst(*r, r->col("slider.x"), [&](double t) { return v0 * t; }), 1e-9);
    CHECK_WORST(worst(*r, r->col("slider.wx"), [&](double t) { return w0 + T / I * t; }), 1e-7);
    CHECK_WORST(worst(*r, r->col("slider.z"), [&](double) { return 0.0; }), 1e-9);
    CHECK_WORST(worst(*r, r->col("shaft.Fz"), [&](double) { return m * g0; }), 1e-6 * m * g0);
  }

  // Planar joint (ground's xy-plane): a puck pushed by a constant in-plane
  // force moves as x = vx0 t + F t^2 / (2 m), y = vy0 t, keeps its yaw rate
  // and height, and the plane carries m g.
  void puckOnPlanarJoint() {
    const double m = 0.8, I = 1e-3, F = 2.0, vx0 = 0.2, vy0 = -0.1, wz = 1.5;
    Mechanism mech;
    mech.parts.push_back(ground({mk("floor", {0, 0, 0})}));
    PartDef p = part("puck", m, I, {0, 0, 0}, {mk("base", {0, 0, 0})});
    p.velocity = {vx0, vy0, 0};
    p.angular_velocity = {0, 0, wz};
    mech.parts.push_back(p);
    mech.joints.push_back(joint("slide", "planar", "puck.base", "ground.floor"));
    mech.forces.push_back(force("push", "vforce", "puck.base", "", {{"fx", F}}, "ground.floor"));
    auto r = simulate(mechProject(mech, 1.0, 0.01, 1e-10));
    REQUIRE_OK(r);
    CHECK_WORST(worst(*r, r->col("puck.x"), [&](double t) { return vx0 * t + F * t * t / (2 * m); }), 1e-8);
    CHECK_WORST(worst(*r, r->col("puck.y"), [&](double t) { return vy0 * t; }), 1e-8);
    CHECK_WORST(worst(*r, r->col("puck.z"), [&](double) { return 0.0; }), 1e-9);
    CHECK_WORST(worst(*r, r->col("puck.wz"), [&](double) { return wz; }), 1e-8);
    CHECK_WORST(worst(*r, r->col("slide.Fz"), [&](double) { return m * g0; }), 1e-6 * m * g0);
  }

  // ADAMS STEP on a translational joint (kinematic analysis):
  // x = v0 + (v1 - v0) s^2 (3 - 2 s), s = (t - t0)/(t1 - t0), and the driver
  // pushes m x'' (no gravity along the rail).
  void stepMotion() {
    const double m = 3.0, t0 = 0.2, t1 = 0.7, v0 = 0.01, v1 = 0.06;
    Mechanism mech;
    mech.gravity = {0, 0, -g0};
    const Vec3 xAxis = zAxis({1, 0, 0});
    mech.parts.push_back(ground({mk("rail", {0, 0, 0}, xAxis)}));
    mech.parts.push_back(part("slider", m, 1e-3, {v0, 0, 0}, {mk("g", {0, 0, 0}, xAxis)}));
    mech.joints.push_back(joint("rail", "translational", "slider.g", "ground.rail"));
    MotionDef mo;
    mo.id = "lift";
    mo.joint = "rail";
    mo.function = "step";
    mo.params = {{"t0", t0}, {"v0", v0}, {"t1", t1}, {"v1", v1}};
    mech.motions.push_back(mo);
    auto r = analyse(mechProject(mech, 1.0, 0.01, 1e-8), MechanismAnalysis::Kinematic);
    REQUIRE_OK(r);
    auto X = [&](double t) {
      const double s = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
      return v0 + (v1 - v0) * s * s * (3 - 2 * s);
    };
    auto A = [&](double t) {
      if (t <= t0 || t >= t1) return 0.0;
      const double s = (t - t0) / (t1 - t0);
      return (v1 - v0) * (6 - 12 * s) / ((t1 - t0) * (t1 - t0));
    };
    CHECK_WORST(worst(*r, r->col("rail.displacement"), X), 1e-12);
    // x'' jumps by 6 (v1 - v0)/(t1 - t0)^2 at t0 and t1: compare away from the jumps
    // (there the output is the mean of the two sides).
    const auto ax = r->col("slider.ax"), eff = r->col("lift.effort");
    double ea = 0.0, ee = 0.0;
    for (size_t i = 0; i < ax.size(); ++i) {
      const double t = r->t[i];
      if (std::abs(t - t0) < 1e-6 || std::abs(t - t1) < 1e-6) {
        QVERIFY(std::abs(ax[i] - 0.5 * (A(t - 1e-3) + A(t + 1e-3))) < 1e-2 * std::abs(A(t0 + 1e-9)));
        continue;
      }
      ea = std::max(ea, std::abs(ax[i] - A(t)));
      ee = std::max(ee, std::abs(eff[i] - m * A(t)));
    }
    CHECK_WORST(ea, 1e-6);
    CHECK_WORST(ee, 1e-5);
  }

  // The monotone cubic (the default) and the natural cubic spline through
  // collinear points are that line: the table motion moves at the line's
  // slope between its first and last points and holds the end values outside.
  void tableMotionThroughCollinearPoints() {
    for (Interpolation mode : {Interpolation::MonotoneCubic, Interpolation::NaturalCubic}) {
      Mechanism mech;
      mech.gravity = {0, 0, 0};
      const Vec3 xAxis = zAxis({1, 0, 0});
      mech.parts.push_back(ground({mk("rail", {0, 0, 0}, xAxis)}));
      mech.parts.push_back(part("slider", 1.0, 1e-3, {0, 0, 0}, {mk("g", {0, 0, 0}, xAxis)}));
      mech.joints.push_back(joint("rail", "translational", "slider.g", "ground.rail"));
      MotionDef mo;
      mo.id = "cam";
      mo.joint = "rail";
      mo.function = "table";
      mo.table = {{0.0, 0.0}, {0.5, 0.01}, {1.0, 0.02}, {1.5, 0.03}};
      mo.interpolation = mode;
      mech.motions.push_back(mo);
      auto r = analyse(mechProject(mech, 2.0, 0.01, 1e-8), MechanismAnalysis::Kinematic);
      REQUIRE_OK(r);
      CHECK_WORST(worst(*r, r->col("slider.x"), [](double t) { return 0.02 * std::min(t, 1.5); }), 1e-12);
      const auto v = r->col("slider.vx");
      QCOMPARE(v.size(), r->t.size());
      double ev = 0.0;
      for (size_t i = 0; i < v.size(); ++i)
        if (r->t[i] > 0.01 && r->t[i] < 1.49) ev = std::max(ev, std::abs(v[i] - 0.02));
      CHECK_WORST(ev, 1e-9);
    }
  }

  // Gear pair: shaft a driven at w1, coupler q_a + ratio q_b = const with
  // ratio -2 gives shaft b w1 / 2; a torque Tb on shaft b comes back to the
  // driver by the power balance effort w1 + Tb w2 = 0.
  void couplerGearPair() {
    const double w1 = 3.0, ratio = -2.0, Tb = 0.4;
    MotionDef mo;
    mo.quantity = "velocity";
    mo.function = "constant";
    mo.params = {{"value", w1}};
    const Mechanism mech = gearPair(ratio, mo, Tb);
    auto r = simulate(mechProject(mech, 1.0, 0.01, 1e-10));
    REQUIRE_OK(r);
    const double w2 = -w1 / ratio;
    CHECK_WORST(worst(*r, r->col("jb.rate"), [&](double) { return w2; }), 1e-8);
    CHECK_WORST(worst(*r, r->col("shaft_b.wz"), [&](double) { return w2; }), 1e-8);
    CHECK_WORST(worst(*r, r->col("drive.effort"), [&](double) { return -Tb * w2 / w1; }), 1e-6);
  }

  // The same gear pair driven by a displacement motion through 2.5 turns of
  // shaft a: the coupler is a position constraint on the continuous angles,
  // so q_a + ratio q_b keeps its start value to the Newton tolerance however
  // far the shafts turn (a velocity-level coupler drifts by the integration
  // error), and the angle channels count the turns. The kinematic analysis
  // (0 DOF with the coupler) gives the same angles.
  void couplerGearPairOverTurns() {
    const double w1 = 2 * pi, ratio = -2.0, tEnd = 2.5;
    MotionDef mo;
    mo.function = "ramp";
    mo.params = {{"offset", 0.0}, {"slope", w1}};
    const Mechanism mech = gearPair(ratio, mo, 0.4);  // a load, so the gear mesh carries a force
    auto relation = [&](const Run& r) {  // max |q_a + ratio q_b| over the outputs (start value 0)
      const auto qa = r.col("ja.angle"), qb = r.col("jb.angle");
      double e = 0.0;
      for (size_t i = 0; i < qa.size(); ++i) e = std::max(e, std::abs(qa[i] + ratio * qb[i]));
      return e;
    };
    // Dynamics: bounded by IDA's interpolation to the output times and its
    // Newton tolerance, not growing with the turns: measured 1.1e-5 rad at
    // rel_tol 1e-6, 2.2e-9 at rel_tol 1e-10 (1e-10 at most steps' own points).
    for (const auto& [rtol, tol] : {std::pair{1e-6, 3e-5}, std::pair{1e-10, 1e-8}}) {
      auto r = simulate(mechProject(mech, tEnd, 0.01, rtol));
      REQUIRE_OK(r);
      const double e = relation(*r);
      qDebug("rel_tol %g: max |qa + ratio qb| = %g rad", rtol, e);
      CHECK_WORST(e, tol);
      CHECK_WORST(std::abs(r->col("ja.angle").back() - w1 * tEnd), tol);
      CHECK_WORST(std::abs(r->col("jb.angle").back() + w1 * tEnd / ratio), tol);
    }
    // Kinematics: the positions solved at each output time, exact to 1e-12 rad.
    auto k = analyse(mechProject(mech, tEnd, 0.05, 1e-9), MechanismAnalysis::Kinematic);
    REQUIRE_OK(k);
    CHECK_WORST(relation(*k), 1e-12);
    CHECK_WORST(worst(*k, k->col("ja.angle"), [&](double t) { return w1 * t; }), 1e-12);
    CHECK_WORST(worst(*k, k->col("jb.angle"), [&](double t) { return -w1 * t / ratio; }), 1e-12);
    CHECK_WORST(worst(*k, k->col("drive.effort"), [&](double) { return 0.4 / ratio; }), 1e-9);
  }

  // Rack and pinion: a vertical rack of mass m on a translational joint
  // coupled to a pinion (revolute) by x + rho theta = const (rho = pinion
  // radius). By virtual work the pinion is held by a torque rho F with
  // F = -m g the weight along the rack's coordinate: a motion locking the
  // pinion carries it. With a torsion spring k instead of the motion the
  // equilibrium is -k theta = rho F, and the rack moves by -rho theta.
  void rackAndPinionStatics() {
    const double m = 2.0, rho = 0.05, k = 3.0;
    const Vec3 up = zAxis({0, 0, 1}), yAxis = zAxis({0, 1, 0});
    auto build = [&](bool spring) {
      Mechanism mech;
      mech.parts.push_back(ground({mk("rail", {0.05, 0, 0}, up), mk("axle", {0, 0, 0}, yAxis)}));
      mech.parts.push_back(part("rack", m, 1e-3, {0.05, 0, 0}, {mk("g", {0, 0, 0}, up)}));
      mech.parts.push_back(part("pinion", 0.5, 1e-4, {0, 0, 0}, {mk("o", {0, 0, 0}, yAxis)}));
      mech.joints.push_back(joint("slide", "translational", "rack.g", "ground.rail"));
      mech.joints.push_back(joint("pin", "revolute", "pinion.o", "ground.axle"));
      mech.joints.push_back(coupler("mesh", "slide", "pin", rho));
      if (spring) {
        mech.forces.push_back(
            force("spring", "rotational_spring_damper", "pinion.o", "ground.axle", {{"stiffness", k}}));
      } else {
        MotionDef mo;
        mo.id = "hold";
        mo.joint = "pin";
        mo.function = "constant";
        mo.params = {{"value", 0.0}};
        mech.motions.push_back(mo);
      }
      return mechProject(mech, 1.0, 0.1, 1e-9);
    };
    const double F = -m * g0;
    auto held = analyse(build(false), MechanismAnalysis::Static);
    REQUIRE_OK(held);
    CHECK_WORST(std::abs(held->col("hold.effort").back() - rho * F), 1e-9 * m * g0 * rho);
    // the coupler's effort is its force on the first joint's coordinate: it carries the rack's weight
    CHECK_WORST(std::abs(held->col("mesh.effort").back() + F), 1e-9 * m * g0);
    auto sprung = analyse(build(true), MechanismAnalysis::Static);
    REQUIRE_OK(sprung);
    const double th = -rho * F / k;  // 0.327 rad: the spring torque -k th equals rho F
    CHECK_WORST(std::abs(sprung->col("pin.angle").back() - th), 1e-10);
    CHECK_WORST(std::abs(sprung->col("slide.displacement").back() + rho * th), 1e-11);
    CHECK_WORST(std::abs(sprung->col("spring.T").back() - rho * F), 1e-9 * m * g0 * rho);
  }

  // A disc driven at constant speed w against a torsion spring k (no
  // damping, no gravity) winds it 1.5 turns: the spring torque is -k w t
  // throughout, -3 pi k at the end, not the wrapped -k (3 pi - 2 pi); the
  // drive supplies k w t (the disc does not accelerate).
  void torsionSpringWoundPastHalfTurn() {
    const double k = 0.2, w = 3 * pi / 2.0, tEnd = 2.0;  // 1.5 turns
    Mechanism mech = discOnShaft();
    mech.forces.push_back(force("spring", "rotational_spring_damper", "disc.axis", "ground.axis", {{"stiffness", k}}));
    mech.motions.push_back(velocityMotion("drive", "shaft", w));
    const Project pr = mechProject(mech, tEnd, 0.01, 1e-9);
    auto r = simulate(pr);
    REQUIRE_OK(r);
    CHECK_WORST(worst(*r, r->col("spring.T"), [&](double t) { return -k * w * t; }), 1e-8);
    CHECK_WORST(worst(*r, r->col("drive.effort"), [&](double t) { return k * w * t; }), 1e-7);
    CHECK_WORST(std::abs(r->col("spring.T").back() + 3 * pi * k), 1e-8);
    CHECK_WORST(std::abs(r->col("spring.angle").back() - 3 * pi), 1e-9);
    // Kinematics at outputs 0.4 s apart (0.6 of a half turn per step): each
    // point starts from the last one moved along its velocities.
    auto kin = analyse(mechProject(mech, tEnd, 0.4, 1e-9), MechanismAnalysis::Kinematic);
    REQUIRE_OK(kin);
    QCOMPARE(kin->t.size(), size_t(6));
    CHECK_WORST(worst(*kin, kin->col("spring.T"), [&](double t) { return -k * w * t; }), 1e-12);
    CHECK_WORST(worst(*kin, kin->col("drive.effort"), [&](double t) { return k * w * t; }), 1e-12);
  }

  // A disc turned by a constant torque T from rest (no gravity) against an
  // upper limit at +200 deg: it passes 180 deg and comes to rest on the stop
  // where k d^e = T, at 200 deg + (T/k)^(1/e); with the wrapped angle it
  // would never reach the stop.
  void limitBeyondHalfTurnStopsTheLink() {
    const double T = 0.01, k = 100.0, e = 1.5, upper = 200.0 * pi / 180.0;
    Mechanism mech = discOnShaft();
    mech.joints[0].params = {{"upper", upper}, {"limit_stiffness", k}, {"limit_exponent", e},
                             {"limit_damping", 0.5}, {"limit_depth", 1e-3}};
    mech.forces.push_back(force("drive", "vtorque", "disc.axis", "", {{"tz", T}}));
    auto r = simulate(mechProject(mech, 3.0, 0.01, 1e-9));
    REQUIRE_OK(r);
    const auto q = r->col("shaft.angle");
    // Free run to the stop: q = T t^2 / (2 Izz) until it reaches 200 deg.
    const double Izz = 2e-3, tHit = std::sqrt(2 * upper * Izz / T);
    double free = 0.0;
    for (size_t i = 0; i < q.size(); ++i)
      if (r->t[i] < tHit) free = std::max(free, std::abs(q[i] - T * r->t[i] * r->t[i] / (2 * Izz)));
    CHECK_WORST(free, 1e-7);
    const double d = std::pow(T / k, 1.0 / e);
    QVERIFY2(std::abs(q.back() - (upper + d)) < 1e-6 * d,
             qPrintable(QString("rest angle %1, expected %2").arg(q.back(), 0, 'g', 12).arg(upper + d, 0, 'g', 12)));
  }

  // A disc placed at 190 deg on a joint limited to [150, 200] deg starts at
  // 190 deg (the branch inside its limits), not at the wrapped -170 deg
  // where the lower stop would fling it; it stays at rest.
  void limitedJointStartsInsideItsLimits() {
    const double deg = pi / 180.0;
    Mechanism mech = discOnShaft();
    mech.parts[1].orientation = {0, 0, 190 * deg};
    mech.joints[0].params = {{"lower", 150 * deg}, {"upper", 200 * deg}};
    auto r = simulate(mechProject(mech, 0.1, 0.01, 1e-9));
    REQUIRE_OK(r);
    CHECK_WORST(worst(*r, r->col("shaft.angle"), [&](double) { return 190 * deg; }), 1e-9);
  }

  // A horizontal bar on a revolute pivot resting on its lower limit: the
  // stop's force law k d^e balances the gravity moment m g a, so the rest
  // penetration is d = (m g a / k)^(1/e) and the pivot carries m g.
  void barRestsOnJointLimit() {
    const double m = 1.2, a = 0.25, k = 2e3, e = 1.5;
    Mechanism mech;
    // Pivot axis along world y: gravity (-z) turns the bar about -y, i.e.
    // the joint angle about +y grows as the bar drops.
    const Vec3 yAxis = zAxis({0, 1, 0});
    mech.parts.push_back(ground({mk("pivot", {0, 0, 0}, yAxis)}));
    mech.parts.push_back(part("bar", m, 1e-3, {a, 0, 0}, {mk("pivot", {-a, 0, 0}, yAxis)}));
    JointDef pin = joint("pin", "revolute", "bar.pivot", "ground.pivot");
    pin.params = {{"upper", 0.0}, {"limit_stiffness", k}, {"limit_exponent", e}, {"limit_damping", 5.0},
                  {"limit_depth", 1e-3}};
    mech.joints.push_back(pin);
    auto r = simulate(mechProject(mech, 3.0, 0.01, 1e-9));
    REQUIRE_OK(r);
    const double d = std::pow(m * g0 * a / k, 1.0 / e);
    const auto q = r->col("pin.angle");
    // small angle: the moment arm is a cos(d), so solve k d^e = m g a cos d by fixed point
    double dd = d;
    for (int i = 0; i < 50; ++i) dd = std::pow(m * g0 * a * std::cos(dd) / k, 1.0 / e);
    QVERIFY2(std::abs(q.back() - dd) < 1e-6 * dd, qPrintable(QString("rest angle %1, expected %2").arg(q.back()).arg(dd)));
    CHECK_WORST(std::abs(r->col("pin.Fz").back() - m * g0), 1e-6 * m * g0);
  }

  // Assembly keeps a part marked initial_fixed where the user put it: link 2
  // of a two-link arm is placed turned by 0.1 rad about the base pivot while
  // link 1 is not; with link 2 fixed, link 1 turns to meet it; without the
  // flag both move; with link 1 fixed, link 2 moves onto it keeping its angle.
  void assemblyKeepsFixedParts() {
    const double L1 = 0.4, a = 0.1;
    auto arm = [&](bool fix1, bool fix2) {
      Mechanism mech;
      mech.gravity = {0, 0, 0};
      const Vec3 yAxis = zAxis({0, 1, 0});
      mech.parts.push_back(ground({mk("o", {0, 0, 0}, yAxis)}));
      PartDef l1 = part("link1", 1.0, 1e-3, {0, 0, 0}, {mk("a", {0, 0, 0}, yAxis), mk("b", {L1, 0, 0}, yAxis)});
      // link 2 rigidly turned by a about the base pivot (about -y: x towards -z)
      PartDef l2 = part("link2", 1.0, 1e-3, {L1 * std::cos(a), 0, -L1 * std::sin(a)}, {mk("a", {0, 0, 0}, yAxis)});
      l2.orientation = {0, a, 0};
      l1.initial_fixed = fix1;
      l2.initial_fixed = fix2;
      mech.parts.push_back(l1);
      mech.parts.push_back(l2);
      mech.joints.push_back(joint("j1", "revolute", "link1.a", "ground.o"));
      mech.joints.push_back(joint("j2", "revolute", "link2.a", "link1.b"));
      auto r = simulate(mechProject(mech, 0.01, 0.01, 1e-10));
      return r;
    };
    auto moved = [](const Run& r, const std::string& id, double x, double z, double pitch) {
      return std::abs(r.col(id + ".x")[0] - x) + std::abs(r.col(id + ".z")[0] - z) + std::abs(r.col(id + ".pitch")[0] - pitch);
    };
    const double x2 = L1 * std::cos(a), z2 = -L1 * std::sin(a);
    auto keep2 = arm(false, true);
    REQUIRE_OK(keep2);
    // the weight ratio is 1e6: the fixed part takes ~1e-6 of a 4 cm correction
    CHECK_WORST(moved(*keep2, "link2", x2, z2, a), 1e-6);
    // link 1 turned by a to meet it: its centre (part origin at the pivot, cm there) stays, pitch = a
    CHECK_WORST(std::abs(keep2->col("link1.pitch")[0] - a), 3e-6);
    auto keep1 = arm(true, false);
    REQUIRE_OK(keep1);
    CHECK_WORST(moved(*keep1, "link1", 0, 0, 0), 1e-7);
    // link 2 only slides onto link 1's end; the pin lets it keep its own angle
    CHECK_WORST(moved(*keep1, "link2", L1, 0, a), 1e-7);
    auto neither = arm(false, false);
    REQUIRE_OK(neither);
    QVERIFY(moved(*neither, "link1", 0, 0, 0) > 1e-3 && moved(*neither, "link2", x2, z2, a) > 1e-3);
  }
};

QTEST_APPLESS_MAIN(TestMechanicsJoints)
#include "test_mechanics_joints.moc"
