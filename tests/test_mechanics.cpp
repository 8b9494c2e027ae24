// The multibody engine against closed forms: pendulum period and pivot
// reaction, energy of a free double pendulum, slider-crank kinematics and
// driving torque, four-bar position analysis (Freudenstein), Cardan joint
// speed ratio, static equilibrium of a spring-loaded lever; constraint
// residuals in every run; assembly and redundancy diagnostics.
#include "analyses/mechanism_analysis.h"
#include "build/project_input.h"
#include "mechanics/spatial.h"
#include "model/project_error.h"
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;
using std::numbers::pi;

namespace {

constexpr double g0 = 9.80665;

// Complete elliptic integral of the first kind, by the arithmetic-geometric mean.
double ellipticK(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 40; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return pi / (2.0 * a);
}

// Pendulum in the x-z plane about the world y-axis, bob released at angle th0.
Mechanism pendulum(double L, double m, double Icm, double th0) {
  Mechanism mech;
  const Vec3 yAxis = zAxis({0, 1, 0});
  mech.parts.push_back(ground({mk("pivot", {0, 0, 0}, yAxis)}));
  const Vec3 pos{L * std::sin(th0), 0, -L * std::cos(th0)};
  mech.parts.push_back(part("bob", m, {Icm, Icm, Icm, 0, 0, 0}, pos, {mk("pivot", {-pos[0], 0, -pos[2]}, yAxis)}));
  mech.joints.push_back(joint("pin", "revolute", "bob.pivot", "ground.pivot"));
  return mech;
}

void checkResiduals(const Run& r, double tolPos = 1e-8, double tolVel = 1e-8) {
  QVERIFY2(r.maxAbs("mechanism.residual_position", 0, 1e9) < tolPos,
           qPrintable(QString("position constraint residual %1").arg(r.maxAbs("mechanism.residual_position", 0, 1e9))));
  QVERIFY2(r.maxAbs("mechanism.residual_velocity", 0, 1e9) < tolVel,
           qPrintable(QString("velocity constraint residual %1").arg(r.maxAbs("mechanism.residual_velocity", 0, 1e9))));
}

}  // namespace

class TestMechanics : public QObject {
  Q_OBJECT
 private slots:
  // Period of a compound pendulum, exact (elliptic integral) for the
  // amplitude: T = 4 sqrt(I_O / (m g L)) K(sin(th0/2)). At th0 = 0.05 the
  // amplitude adds 1.6e-4 to the small-angle period, so a 1e-6 check sees it.
  void pendulumPeriod() {
    const double L = 0.5, m = 1.0, Icm = 1e-4, th0 = 0.05;
    auto r = simulate(mechProject(pendulum(L, m, Icm, th0), 3.5, 1e-3, 1e-10));
    REQUIRE_OK(r);
    checkResiduals(*r);
    const double IO = Icm + m * L * L;
    const double T = 4.0 * std::sqrt(IO / (m * g0 * L)) * ellipticK(std::sin(th0 / 2));
    // x crosses zero with zero curvature, so linear interpolation is exact to O(dt^3).
    const double t1 = r->crossing("bob.x", 0.0, 0.0), t3 = r->crossing("bob.x", 0.0, t1 + 0.5 * T + 0.1);
    const double t5 = r->crossing("bob.x", 0.0, t3 + 0.5 * T + 0.1);
    CHECK_REL(t5 - t1, 2 * T, 1e-7);
    // and it is not the small-angle period: that differs by 1.6e-4
    QVERIFY(std::abs((t5 - t1) / 2 - 2 * pi * std::sqrt(IO / (m * g0 * L))) > 1e-4);
  }

  // Reaction at the pivot on the bob: radial m (g cos phi + L phidot^2)
  // towards the pivot, tangential m g sin(phi) Icm / I_O.
  void pendulumPivotReaction() {
    const double L = 0.5, m = 2.0, Icm = 0.01, th0 = 1.0;
    auto r = simulate(mechProject(pendulum(L, m, Icm, th0), 2.0, 1e-2, 1e-9));
    REQUIRE_OK(r);
    checkResiduals(*r);
    const auto x = r->col("bob.x"), z = r->col("bob.z"), vx = r->col("bob.vx"), vz = r->col("bob.vz");
    const auto Fx = r->col("pin.Fx"), Fy = r->col("pin.Fy"), Fz = r->col("pin.Fz");
    const double IO = Icm + m * L * L;
    double worst = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double phi = std::atan2(x[i], -z[i]);
      const double phid2 = (vx[i] * vx[i] + vz[i] * vz[i]) / (L * L);
      const double radial = m * (g0 * std::cos(phi) + L * phid2);
      const double tangential = m * g0 * std::sin(phi) * Icm / IO;
      // unit vectors: towards the pivot, and along increasing phi
      const double ux = -std::sin(phi), uz = std::cos(phi), tx = std::cos(phi), tz = std::sin(phi);
      worst = std::max({worst, std::abs(Fx[i] * ux + Fz[i] * uz - radial), std::abs(Fx[i] * tx + Fz[i] * tz - tangential),
                        std::abs(Fy[i])});
    }
    QVERIFY2(worst < 1e-6 * m * g0, qPrintable(QString("pivot reaction error %1 N").arg(worst)));
  }

  // A free double pendulum released horizontally: chaotic, but its energy is
  // conserved; relative drift below 1e-6 over 10 s at tight tolerances.
  void doublePendulumEnergy() {
    Mechanism mech;
    const Vec3 yAxis = zAxis({0, 1, 0});
    mech.parts.push_back(ground({mk("o", {0, 0, 0}, yAxis)}));
    // Uniform rods of 0.4 m and 0.3 m, horizontal along +x at the start.
    const double L1 = 0.4, L2 = 0.3, m1 = 1.0, m2 = 0.6;
    const double I1 = m1 * L1 * L1 / 12, I2 = m2 * L2 * L2 / 12;
    mech.parts.push_back(part("link1", m1, {1e-5, I1, I1, 0, 0, 0}, {L1 / 2, 0, 0},
                              {mk("a", {-L1 / 2, 0, 0}, yAxis), mk("b", {L1 / 2, 0, 0}, yAxis)}));
    mech.parts.push_back(part("link2", m2, {1e-5, I2, I2, 0, 0, 0}, {L1 + L2 / 2, 0, 0}, {mk("a", {-L2 / 2, 0, 0}, yAxis)}));
    mech.joints.push_back(joint("j1", "revolute", "link1.a", "ground.o"));
    mech.joints.push_back(joint("j2", "revolute", "link2.a", "link1.b"));
    auto r = simulate(mechProject(mech, 10.0, 1e-2, 1e-11));
    REQUIRE_OK(r);
    checkResiduals(*r);
    const auto E = r->col("mechanism.E_total"), Ek = r->col("mechanism.E_kinetic");
    double drift = 0.0, ekMax = 0.0;
    for (size_t i = 0; i < E.size(); ++i) drift = std::max(drift, std::abs(E[i] - E[0])), ekMax = std::max(ekMax, Ek[i]);
    // Relative to the energy that moves around (the kinetic energy's range).
    QVERIFY2(drift < 1e-6 * ekMax, qPrintable(QString("energy drift %1 J of %2 J").arg(drift).arg(ekMax)));
    QVERIFY(ekMax > 1.0);  // it really swung
  }

  // Slider-crank driven at constant crank speed (kinematic analysis):
  // x = r cos th + sqrt(l^2 - r^2 sin^2 th), its derivatives, and the driving
  // torque m x' x'' / w for a massless rod and a crank balanced on its axis.
  void sliderCrank() {
    const double rc = 0.1, l = 0.3, ms = 2.0, w = 2 * pi;
    Mechanism mech;
    mech.gravity = {0, 0, -g0};  // normal to the plane: loads the bearings, not the crank torque
    const Vec3 xAxis = zAxis({1, 0, 0});
    mech.parts.push_back(ground({mk("o", {0, 0, 0}), mk("rail", {0, 0, 0}, xAxis)}));
    mech.parts.push_back(part("crank", 1.0, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0}, {mk("o", {0, 0, 0}), mk("pin", {rc, 0, 0})}));
    mech.parts.push_back(part("rod", 0.0, {0, 0, 0, 0, 0, 0}, {rc, 0, 0}, {mk("a", {0, 0, 0}), mk("b", {l, 0, 0})}));
    mech.parts.push_back(part("slider", ms, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {rc + l, 0, 0}, {mk("pin", {0, 0, 0}), mk("guide", {0, 0, 0}, xAxis)}));
    mech.joints.push_back(joint("crank_pivot", "revolute", "crank.o", "ground.o"));
    mech.joints.push_back(joint("crank_pin", "revolute", "rod.a", "crank.pin"));
    mech.joints.push_back(joint("wrist_pin", "revolute", "slider.pin", "rod.b"));
    mech.joints.push_back(joint("guide", "translational", "slider.guide", "ground.rail"));
    mech.motions.push_back(velocityMotion("drive", "crank_pivot", w));
    auto r = analyse(mechProject(mech, 1.0, 5e-3, 1e-8), MechanismAnalysis::Kinematic);
    REQUIRE_OK(r);
    checkResiduals(*r, 1e-10, 1e-9);
    const auto x = r->col("slider.x"), vx = r->col("slider.vx"), ax = r->col("slider.ax"), T = r->col("drive.effort");
    double ex = 0, ev = 0, ea = 0, eT = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double th = w * r->t[i], s = std::sin(th), c = std::cos(th);
      const double root = std::sqrt(l * l - rc * rc * s * s);
      const double X = rc * c + root;
      const double V = -rc * w * s - rc * rc * w * s * c / root;
      const double A = -rc * w * w * c - rc * rc * w * w * (c * c - s * s) / root -
                       std::pow(rc, 4) * w * w * s * s * c * c / std::pow(root, 3);
      ex = std::max(ex, std::abs(x[i] - X));
      ev = std::max(ev, std::abs(vx[i] - V));
      ea = std::max(ea, std::abs(ax[i] - A));
      eT = std::max(eT, std::abs(T[i] - ms * V * A / w));
    }
    QVERIFY2(ex < 1e-10, qPrintable(QString("x error %1 m").arg(ex)));
    QVERIFY2(ev < 1e-8, qPrintable(QString("v error %1 m/s").arg(ev)));
    QVERIFY2(ea < 1e-6, qPrintable(QString("a error %1 m/s2 (of %2)").arg(ea).arg(rc * w * w)));
    QVERIFY2(eT < 1e-6, qPrintable(QString("torque error %1 N m (of %2)").arg(eT).arg(ms * rc * rc * w * w)));
  }

  // Four-bar: loop closure and rocker angle against Freudenstein's closed form.
  void fourBar() {
    const double a = 0.1, b = 0.35, c = 0.3, d = 0.4;  // crank, coupler, rocker, ground (Grashof crank-rocker)
    Mechanism mech;
    mech.gravity = {0, -g0, 0};
    mech.parts.push_back(ground({mk("A", {0, 0, 0}), mk("D", {d, 0, 0})}));
    const double th20 = pi / 2;  // crank starts vertical
    const auto rocker = [&](double th2) {
      const double K1 = d / a, K2 = d / c, K3 = (a * a - b * b + c * c + d * d) / (2 * a * c);
      const double A = std::cos(th2) - K1 - K2 * std::cos(th2) + K3, B = -2 * std::sin(th2),
                   C = K1 - (K2 + 1) * std::cos(th2) + K3;
      return 2 * std::atan2(-B + std::sqrt(B * B - 4 * A * C), 2 * A);  // open branch
    };
    const double th4 = rocker(th20);
    const double Bx = a * std::cos(th20), By = a * std::sin(th20);
    const double Cx = d + c * std::cos(th4), Cy = c * std::sin(th4);
    mech.parts.push_back(part("crank", 0.5, {1e-4, 1e-4, 1e-4, 0, 0, 0}, {0, 0, 0}, {mk("A", {0, 0, 0}), mk("B", {Bx, By, 0})}));
    mech.parts.push_back(part("coupler", 1.0, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {Bx, By, 0}, {mk("B", {0, 0, 0}), mk("C", {Cx - Bx, Cy - By, 0})}));
    mech.parts.push_back(part("rocker", 0.8, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {d, 0, 0}, {mk("D", {0, 0, 0}), mk("C", {Cx - d, Cy, 0})}));
    mech.joints.push_back(joint("jA", "revolute", "crank.A", "ground.A"));
    mech.joints.push_back(joint("jB", "revolute", "coupler.B", "crank.B"));
    mech.joints.push_back(joint("jC", "revolute", "rocker.C", "coupler.C"));
    mech.joints.push_back(joint("jD", "revolute", "rocker.D", "ground.D"));
    mech.motions.push_back(velocityMotion("drive", "jA", 2 * pi));
    Project pr = mechProject(mech, 1.0, 1e-2, 1e-8);
    auto r = analyse(pr, MechanismAnalysis::Kinematic);
    REQUIRE_OK(r);
    checkResiduals(*r, 1e-10, 1e-9);
    const auto yaw = r->col("rocker.yaw");
    double e = 0.0;
    for (size_t i = 0; i < yaw.size(); ++i) {
      const double expected = rocker(th20 + 2 * pi * r->t[i]) - th4;  // rocker frame starts at yaw 0
      e = std::max(e, std::abs(std::remainder(yaw[i] - expected, 2 * pi)));
    }
    QVERIFY2(e < 1e-9, qPrintable(QString("rocker angle error %1 rad").arg(e)));
    // Planar loop of four revolutes in 3D: three equations are redundant, and the user is told which.
    AnalysisReport rep;
    ResultStore out;
    rep = runMechanismAnalysis(pr, "test", MechanismAnalysis::Kinematic, out);
    QCOMPARE(rep.dof, 0);
    QVERIFY(!rep.messages.empty());
    QVERIFY2(QString::fromStdString(rep.messages[0]).contains("jD"), rep.messages[0].c_str());
    // The same four-bar free (no motion) under gravity, dynamically: closure holds.
    pr.mechanism.motions.clear();
    pr.simulation.t_end = 2.0;
    auto dyn = simulate(pr);
    REQUIRE_OK(dyn);
    checkResiduals(*dyn);
  }

  // Cardan joint between shafts at angle beta: w2/w1 = cos b / (1 - sin^2 b cos^2 th1),
  // th1 = angle of the driving yoke from the plane of the shafts.
  void cardanSpeedRatio() {
    const double beta = 0.5, w1 = 2 * pi;
    Mechanism mech;
    mech.gravity = {0, 0, 0};
    const mb::V3 s2(std::cos(beta), std::sin(beta), 0);
    mech.parts.push_back(ground({mk("b1", {-0.2, 0, 0}, zAxis({1, 0, 0})),
                                 mk("b2", {0.2 * s2.x(), 0.2 * s2.y(), 0}, zAxis(s2))}));
    // Driving yoke arm (x of the I marker) along -z: normal to the plane of the shafts.
    mb::M3 RI;
    RI.col(0) = mb::V3(0, 0, -1);
    RI.col(2) = mb::V3(1, 0, 0);
    RI.col(1) = RI.col(2).cross(RI.col(0));
    mb::M3 RJ;
    RJ.col(0) = mb::V3(0, 0, -1);
    RJ.col(1) = mb::V3(-std::sin(beta), std::cos(beta), 0);
    RJ.col(2) = s2;
    const mb::V3 aI = mb::toRpy(RI), aJ = mb::toRpy(RJ);
    mech.parts.push_back(part("shaft1", 1, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0},
                              {mk("b", {-0.2, 0, 0}, zAxis({1, 0, 0})), mk("u", {0, 0, 0}, {aI[0], aI[1], aI[2]})}));
    mech.parts.push_back(part("shaft2", 1, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0},
                              {mk("b", {0.2 * s2.x(), 0.2 * s2.y(), 0}, zAxis(s2)), mk("u", {0, 0, 0}, {aJ[0], aJ[1], aJ[2]})}));
    mech.joints.push_back(joint("bearing1", "revolute", "shaft1.b", "ground.b1"));
    mech.joints.push_back(joint("bearing2", "revolute", "shaft2.b", "ground.b2"));
    mech.joints.push_back(joint("cardan", "universal", "shaft1.u", "shaft2.u"));
    mech.motions.push_back(velocityMotion("drive", "bearing1", w1));
    auto r = analyse(mechProject(mech, 1.0, 1e-2, 1e-8), MechanismAnalysis::Kinematic);
    REQUIRE_OK(r);
    checkResiduals(*r, 1e-10, 1e-9);
    const auto w2 = r->col("bearing2.rate");
    double e = 0.0, lo = 1e9, hi = 0;
    for (size_t i = 0; i < w2.size(); ++i) {
      const double th1 = pi / 2 + w1 * r->t[i], sb = std::sin(beta), ct = std::cos(th1);
      const double ratio = std::cos(beta) / (1 - sb * sb * ct * ct);
      e = std::max(e, std::abs(std::abs(w2[i]) / w1 - ratio));
      lo = std::min(lo, std::abs(w2[i]) / w1);
      hi = std::max(hi, std::abs(w2[i]) / w1);
    }
    QVERIFY2(e < 1e-8, qPrintable(QString("speed ratio error %1").arg(e)));
    QVERIFY(std::abs(lo - std::cos(beta)) < 1e-8);
    QVERIFY(hi > 1.0 / std::cos(beta) - 1e-3);
  }

  // A lever on a horizontal pivot held by a torsion spring: k (th - th0) =
  // -m g l cos(th) at equilibrium (th from the horizontal, positive up).
  void springLeverStatic() {
    const double m = 2.0, l = 0.2, k = 20.0;
    Mechanism mech;
    // Pivot axis: world -y, so a positive joint angle raises the lever (+x towards +z).
    const Vec3 axis = zAxis({0, -1, 0});
    mech.parts.push_back(ground({mk("pivot", {0, 0, 0}, axis)}));
    mech.parts.push_back(part("lever", m, {1e-4, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0}, {mk("pivot", {0, 0, 0}, axis)}));
    mech.parts.back().cm = {l, 0, 0};
    mech.joints.push_back(joint("pin", "revolute", "lever.pivot", "ground.pivot"));
    mech.forces.push_back(force("spring", "rotational_spring_damper", "lever.pivot", "ground.pivot",
                                {{"stiffness", k}, {"damping", 0.5}, {"free_angle", 0.3}}));
    Project pr = mechProject(mech, 20.0, 1e-2, 1e-9);
    auto r = analyse(pr, MechanismAnalysis::Static);
    REQUIRE_OK(r);
    // Reference: bisection on k (th - 0.3) + m g l cos th = 0.
    double a = -1.5, b = 1.5;
    for (int i = 0; i < 200; ++i) {
      const double c = 0.5 * (a + b);
      ((k * (c - 0.3) + m * g0 * l * std::cos(c)) > 0 ? b : a) = c;
    }
    const double th = 0.5 * (a + b);
    QVERIFY2(std::abs(r->col("pin.angle").back() - th) < 1e-10,
             qPrintable(QString("angle %1 vs %2").arg(r->col("pin.angle").back(), 0, 'g', 12).arg(th, 0, 'g', 12)));
    // The pivot carries the weight.
    CHECK_REL(r->col("pin.Fz").back(), m * g0, 1e-9);
    // The damped dynamic run settles at the same angle.
    auto dyn = simulate(pr);
    REQUIRE_OK(dyn);
    checkResiduals(*dyn);
    QVERIFY2(std::abs(dyn->col("pin.angle").back() - th) < 1e-6,
             qPrintable(QString("settled at %1 vs %2").arg(dyn->col("pin.angle").back()).arg(th)));
  }

  // A 2 kg part hanging on a bushing sags m g / kz, exactly (linear, no rotation).
  void bushingStaticSag() {
    Mechanism mech;
    mech.parts.push_back(ground({mk("o", {0, 0, 0})}));
    mech.parts.push_back(part("body", 2.0, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0}, {mk("o", {0, 0, 0})}));
    mech.forces.push_back(force("mount", "bushing", "body.o", "ground.o", {{"kz", 5e4}}));
    auto r = analyse(mechProject(mech, 1.0, 0.1, 1e-8), MechanismAnalysis::Static);
    REQUIRE_OK(r);
    CHECK_REL(r->col("body.z").back(), -2.0 * g0 / 5e4, 1e-9);
    CHECK_REL(r->col("mount.Fz").back(), 2.0 * g0, 1e-9);
  }

  // A mass on a vertical slide hanging from a spring oscillates with
  // T = 2 pi sqrt(m / k) about the static sag, whatever gravity does.
  void springMassPeriod() {
    const double m = 0.5, k = 200.0;
    Mechanism mech;
    mech.parts.push_back(ground({mk("top", {0, 0, 0.5}), mk("rail", {0, 0, 0})}));
    mech.parts.push_back(part("mass", m, {1e-4, 1e-4, 1e-4, 0, 0, 0}, {0, 0, 0}, {mk("hook", {0, 0, 0}), mk("slide", {0, 0, 0})}));
    mech.joints.push_back(joint("slide", "translational", "mass.slide", "ground.rail"));
    mech.forces.push_back(force("spring", "spring_damper", "mass.hook", "ground.top",
                                {{"stiffness", k}, {"free_length", 0.5}}));
    auto r = simulate(mechProject(mech, 1.0, 1e-4, 1e-10));
    REQUIRE_OK(r);
    checkResiduals(*r);
    const double T = 2 * pi * std::sqrt(m / k), sag = -m * g0 / k;
    const double t1 = r->crossing("mass.z", sag, 0.0), t2 = r->crossing("mass.z", sag, t1 + 0.6 * T);
    CHECK_REL(t2 - t1, T, 1e-6);
    // Energy: kinetic + gravity + spring stays constant.
    const auto E = r->col("mechanism.E_total");
    QVERIFY(std::abs(E.back() - E.front()) < 1e-8);
  }

  // Forces on a free part in zero gravity: x = F t^2 / (2 m); an action-only
  // sforce along the part's own z; a constant motion on a slide needs m a.
  void appliedForcesAndHarmonicMotion() {
    Mechanism mech;
    mech.gravity = {0, 0, 0};
    mech.parts.push_back(ground({mk("o", {0, 0, 0})}));
    mech.parts.push_back(part("free", 4.0, {1e-2, 1e-2, 1e-2, 0, 0, 0}, {0, 0, 0}, {mk("c", {0, 0, 0})}));
    mech.forces.push_back(force("push", "vforce", "free.c", "", {{"fx", 8.0}}));
    mech.forces.push_back(force("lift", "sforce", "free.c", "", {{"value", 2.0}}));
    auto r = simulate(mechProject(mech, 1.0, 0.01, 1e-10));
    REQUIRE_OK(r);
    CHECK_REL(r->col("free.x").back(), 8.0 / 4.0 / 2.0, 1e-8);
    CHECK_REL(r->col("free.z").back(), 2.0 / 4.0 / 2.0, 1e-8);
    // Harmonic motion of a 3 kg slider: x = A sin(w t), effort = m x''.
    Mechanism h;
    h.gravity = {0, 0, 0};
    const Vec3 xAxis = zAxis({1, 0, 0});
    h.parts.push_back(ground({mk("rail", {0, 0, 0}, xAxis)}));
    h.parts.push_back(part("slider", 3.0, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0}, {mk("g", {0, 0, 0}, xAxis)}));
    h.joints.push_back(joint("rail", "translational", "slider.g", "ground.rail"));
    MotionDef mo;
    mo.id = "shake";
    mo.joint = "rail";
    mo.function = "harmonic";
    mo.params = {{"amplitude", 0.02}, {"frequency", 2.0}};
    h.motions.push_back(mo);
    auto k = analyse(mechProject(h, 1.0, 0.01, 1e-8), MechanismAnalysis::Kinematic);
    REQUIRE_OK(k);
    const auto x = k->col("slider.x"), ax = k->col("slider.ax"), eff = k->col("shake.effort");
    double ex = 0, ea = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double w = 2 * pi * 2.0, t = k->t[i];
      ex = std::max(ex, std::abs(x[i] - 0.02 * std::sin(w * t)));
      ea = std::max(ea, std::abs(eff[i] - 3.0 * ax[i]) + std::abs(ax[i] + 0.02 * w * w * std::sin(w * t)));
    }
    QVERIFY2(ex < 1e-12, qPrintable(QString("x error %1").arg(ex)));
    QVERIFY2(ea < 1e-6, qPrintable(QString("a / effort error %1").arg(ea)));
  }

  // A four-bar whose coupler is too short to close: a clear error naming a joint.
  void assemblyFailureNamesJoints() {
    Mechanism mech;
    mech.parts.push_back(ground({mk("A", {0, 0, 0}), mk("D", {1.0, 0, 0})}));
    mech.parts.push_back(part("crank", 1, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0}, {mk("A", {0, 0, 0}), mk("B", {0.1, 0, 0})}));
    mech.parts.push_back(part("coupler", 1, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0.1, 0, 0}, {mk("B", {0, 0, 0}), mk("C", {0.2, 0, 0})}));
    mech.parts.push_back(part("rocker", 1, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {1.0, 0, 0}, {mk("D", {0, 0, 0}), mk("C", {-0.2, 0, 0})}));
    mech.joints.push_back(joint("jA", "revolute", "crank.A", "ground.A"));
    mech.joints.push_back(joint("jB", "revolute", "coupler.B", "crank.B"));
    mech.joints.push_back(joint("jC", "revolute", "rocker.C", "coupler.C"));
    mech.joints.push_back(joint("jD", "revolute", "rocker.D", "ground.D"));
    auto r = simulate(mechProject(mech, 1.0, 1e-2, 1e-6));
    QVERIFY(!r->ok());
    QVERIFY2(QString::fromStdString(r->error).contains("cannot be assembled"), r->error.c_str());
    QVERIFY2(QString::fromStdString(r->error).contains(QRegularExpression("j[A-D]")), r->error.c_str());
  }

  // The mechanism section survives load -> save -> load exactly, and bad
  // references name the object and field.
  void fileRoundTripAndErrors() {
    Project pr = loadProject(projectPath("pendulum.pneumech.json"));
    QVERIFY(!pr.mechanism.empty());
    const Project again = parseProject(serializeProject(pr), "again");
    QVERIFY(again == pr);
    std::string text = serializeProject(pr);
    const auto pos = text.find("\"bob.pivot\"");
    QVERIFY(pos != std::string::npos);
    text.replace(pos, 11, "\"bob.pivit\"");
    try {
      parseProject(text, "bad.json");
      QFAIL("accepted an unknown marker");
    } catch (const ProjectError& e) {
      QCOMPARE(QString::fromStdString(e.object()), QString("pin"));
      QCOMPARE(QString::fromStdString(e.field()), QString("i"));
      QVERIFY(QString(e.what()).contains("pivit"));
    }
    // --set reaches mechanism parameters, validated.
    applyOverride(pr, "pin.lower=-0.5");
    QCOMPARE(pr.mechanism.joints[0].params.at("lower"), -0.5);
    QVERIFY_THROWS_EXCEPTION(ProjectError, applyOverride(pr, "pin.limit_exponent=0.2"));
    QVERIFY(!pr.mechanism.joints[0].params.count("limit_exponent"));
  }
};

QTEST_GUILESS_MAIN(TestMechanics)
#include "test_mechanics.moc"
