// Static and kinematic analyses of a coupled project include the attached
// actuators' forces, with the chamber pressures held at their initial values
// (pA0, pB0): F = pA A_A - pB A_B - p_amb A_rod along the line from the
// barrel's marker to the rod's, as in the dynamic model. Checked on a lever
// held up by a cylinder whose barrel hangs below the pivot, where the
// equilibrium angle has a closed form.
#include "analyses/mechanism_analysis.h"
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;
using std::numbers::pi;

namespace {

constexpr double g0 = 9.80665, pAmb = 101325.0;
// Lever: pivot at the origin (axis z), centre of mass at c, rod end at a;
// the barrel's clevis at (0, -d) straight below the pivot. Gravity -y.
constexpr double m = 10.0, c = 0.3, a = 0.1, d = 0.2;
constexpr double D = 0.032, dr = 0.012, pA0 = 6e5, pB0 = pAmb, x0 = 0.01;

double pistonForce() {
  const double AA = pi * D * D / 4, AB = pi * (D * D - dr * dr) / 4;
  return pA0 * AA - pB0 * AB - pAmb * (AA - AB);
}

Project lever(bool held) {
  Project p;
  p.components = {comp("cyl1", "cylinder_double",
                       {{"bore", D}, {"rod", dr}, {"stroke", 0.1}, {"x0", x0}, {"pA0", pA0}, {"pB0", pB0},
                        {"F_coulomb", 0.0}, {"F_static", 0.0}, {"isothermal", 1.0}},
                       {}, {{"attach", {{"barrel", "ground.clevis"}, {"rod", "lever.P"}}}})};
  Mechanism& mech = p.mechanism;
  mech.gravity = {0, -g0, 0};
  mech.parts.push_back(ground({mk("O", {0, 0, 0}), mk("clevis", {0, -d, 0})}));
  PartDef l = part("lever", m, std::array<double, 6>{1e-3, 0.05, 0.05, 0, 0, 0}, {0, 0, 0},
                   {mk("O", {0, 0, 0}), mk("P", {a, 0, 0})});
  l.cm = {c, 0, 0};
  mech.parts.push_back(l);
  mech.joints.push_back(joint("pivot", "revolute", "lever.O", "ground.O"));
  if (held) {
    MotionDef mo;
    mo.id = "hold";
    mo.joint = "pivot";
    mo.function = "constant";
    mo.params = {{"value", 0.0}};
    mech.motions.push_back(mo);
  }
  settings(p, 1.0, 0.5, {.rel = 1e-9});
  return p;
}

#define CHECK_CLOSE(value, expected, tol)                                                                    \
  QVERIFY2(std::abs((value) - (expected)) < (tol), qPrintable(QString("%1 = %2, expected %3 (tolerance %4)") \
                                                                  .arg(#value)                                \
                                                                  .arg(value, 0, 'g', 12)                     \
                                                                  .arg(expected, 0, 'g', 12)                  \
                                                                  .arg(tol)))

}  // namespace

class TestMechanicsCircuitStatics : public QObject {
  Q_OBJECT
 private slots:
  // With the cylinder from (0, -d) to P = a (cos th, sin th), its moment
  // about the pivot is F a d cos(th) / l and gravity's m g c cos(th): the
  // cosines cancel, so equilibrium is at the length l* = F a d / (m g c),
  // sin(th*) = (l*^2 - a^2 - d^2) / (2 a d). The pivot carries
  // R = m g y - F u (u from the clevis to P).
  void cylinderHoldsLeverAtClosedFormAngle() {
    ResultStore out;
    AnalysisReport rep;
    try {
      rep = runMechanismAnalysis(lever(false), "test", MechanismAnalysis::Static, out);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    const double F = pistonForce();  // 401.06 N
    const double ls = F * a * d / (m * g0 * c), th = std::asin((ls * ls - a * a - d * d) / (2 * a * d));
    const auto q = out.column("pivot.angle");
    CHECK_CLOSE(q.back(), th, 1e-10);  // 0.6527 rad
    const double Px = a * std::cos(th), Py = a * std::sin(th);
    const double ux = Px / ls, uy = (Py + d) / ls;
    CHECK_CLOSE(out.column("pivot.Fx").back(), -F * ux, 1e-8 * F);
    CHECK_CLOSE(out.column("pivot.Fy").back(), m * g0 - F * uy, 1e-8 * F);
    // The report says how the circuit entered, with the force.
    bool noted = false;
    for (const auto& msg : rep.messages)
      if (msg.find("chamber pressures held at their initial values") != std::string::npos &&
          msg.find("cyl1 401.05") != std::string::npos)
        noted = true;
    QVERIFY2(noted, "no note on the circuit forces in the report");
  }

  // Held at th = 0 by a motion: the motion's torque is the moment the
  // cylinder and gravity leave, m g c - F a d / l0 with l0 = sqrt(a^2 + d^2);
  // the same in the kinematic analysis (at rest, no friction).
  void motionCarriesWhatTheCylinderLeaves() {
    const double F = pistonForce(), l0 = std::hypot(a, d);
    const double effort = m * g0 * c - F * a * d / l0;  // 29.42 - 35.87 = -6.45 N m
    for (const auto kind : {MechanismAnalysis::Static, MechanismAnalysis::Kinematic}) {
      ResultStore out;
      try {
        runMechanismAnalysis(lever(true), "test", kind, out);
      } catch (const std::exception& e) {
        QFAIL(e.what());
      }
      CHECK_CLOSE(out.column("hold.effort").back(), effort, 1e-9 * m * g0 * c);
      CHECK_CLOSE(out.column("pivot.Fx").back(), -F * a / l0, 1e-9 * F);
      CHECK_CLOSE(out.column("pivot.Fy").back(), m * g0 - F * d / l0, 1e-9 * F);
    }
  }
};

QTEST_MAIN(TestMechanicsCircuitStatics)
#include "test_mechanics_circuit_statics.moc"
