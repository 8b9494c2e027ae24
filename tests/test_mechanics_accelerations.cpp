// Acceleration channels (issue 20, point 5): a part's angular acceleration
// <part>.alpha_x/y/z (world) and linear acceleration <part>.ax/ay/az (of its
// frame origin), a revolute joint's <joint>.alpha and a translational
// joint's <joint>.acceleration, against closed forms at every output row: a
// compound pendulum swinging freely and a slider-crank turned at constant
// speed. Both formulations; simulate() checks the output thread's rows too.
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double g0 = 9.80665;

// A compound pendulum turning about the world +y axis at the origin: mass m,
// centre of mass (the part frame origin) at d from the pivot, inertia Iyy
// about it; placed th0 from hanging. theta'' = -m g d sin(theta) / I_pivot,
// I_pivot = Iyy + m d^2; the centre of mass at (-d sin th, 0, -d cos th):
// ax = -d cos th th'' + d sin th th'^2, az = d sin th th'' + d cos th th'^2.
constexpr double kM = 2.0, kD = 0.4, kIyy = 0.05, kTh0 = 0.8;
constexpr double kIPivot = kIyy + kM * kD * kD;

Mechanism pendulumMechanism() {
  const Vec3 yAxis{-1.5707963267948966, 0, 0};  // marker z = world +y
  Mechanism m;
  m.parts.push_back(ground({mk("pivot", {0, 0, 0}, yAxis)}));
  PartDef bob = part("bob", kM, std::array<double, 6>{0.03, kIyy, 0.04, 0, 0, 0},
                     {-kD * std::sin(kTh0), 0, -kD * std::cos(kTh0)}, {mk("pivot", {0, 0, kD}, yAxis)});
  bob.orientation = {0, kTh0, 0};
  m.parts.push_back(bob);
  m.joints.push_back(joint("pin", "revolute", "bob.pivot", "ground.pivot"));
  return m;
}

double thetaDd(double th) { return -kM * g0 * kD * std::sin(th) / kIPivot; }

const char* const kFormulations[] = {"absolute", "reduced"};

// Largest |measured - expected| over the rows, relative to `scale`.
template <class F>
double worstRelative(const Run& r, const std::string& channel, double scale, F expected) {
  const auto v = r.col(channel);
  double w = 0.0;
  for (size_t i = 0; i < v.size(); ++i) w = std::max(w, std::abs(v[i] - expected(i)) / scale);
  qInfo("%-20s worst relative error %.3g", channel.c_str(), w);
  return w;
}

}  // namespace

class TestMechanicsAccelerations : public QObject {
  Q_OBJECT
 private slots:
  // theta'' from the joint's and the part's channels at every row, against
  // the closed form at the row's own angle; the centre of mass's tangential
  // and centripetal acceleration from the row's angle and rate. Tolerance
  // 1e-6 of the amplitude m g d sin(th0) / I_pivot (and of d times it plus
  // the largest th'^2).
  void compoundPendulum() {
    const double alphaMax = kM * g0 * kD * std::sin(kTh0) / kIPivot;
    const double wMax2 = 2 * kM * g0 * kD * (1 - std::cos(kTh0)) / kIPivot;  // energy at the bottom
    for (const char* f : kFormulations) {
      Project p = mechProject(pendulumMechanism(), 2.0, 0.01, 1e-9);
      p.simulation.mechanism_formulation = f;
      auto r = simulate(p, f);
      REQUIRE_OK(r);
      const auto th = r->col("pin.angle"), w = r->col("pin.rate");
      double lo = 0.0, hi = 0.0;
      for (double v : th) lo = std::min(lo, v), hi = std::max(hi, v);
      QVERIFY(lo < -0.7 && hi > 0.7);  // it swung through
      auto thdd = [&](size_t i) { return thetaDd(th[i]); };
      CHECK_WORST(worstRelative(*r, "pin.alpha", alphaMax, thdd), 1e-6);
      CHECK_WORST(worstRelative(*r, "bob.alpha_y", alphaMax, thdd), 1e-6);
      CHECK_WORST(worstRelative(*r, "bob.alpha_x", alphaMax, [](size_t) { return 0.0; }), 1e-9);
      CHECK_WORST(worstRelative(*r, "bob.alpha_z", alphaMax, [](size_t) { return 0.0; }), 1e-9);
      const double aScale = kD * (alphaMax + wMax2);
      CHECK_WORST(worstRelative(*r, "bob.ax", aScale,
                                [&](size_t i) {
                                  return -kD * std::cos(th[i]) * thdd(i) + kD * std::sin(th[i]) * w[i] * w[i];
                                }),
                  1e-6);
      CHECK_WORST(worstRelative(*r, "bob.az", aScale,
                                [&](size_t i) {
                                  return kD * std::sin(th[i]) * thdd(i) + kD * std::cos(th[i]) * w[i] * w[i];
                                }),
                  1e-6);
    }
  }

  // A slider-crank turned at a constant 300 rpm by a velocity motion: the
  // slider's acceleration (its part channel and the guide's), the rod's
  // angular acceleration (part and crank pin joint) and the crank's (zero)
  // against the closed forms at the row's crank angle. Tolerance 1e-6 of
  // r w^2.
  void sliderCrankAccelerations() {
    const double w = 10 * std::numbers::pi, th0 = 0.3;
    Mechanism m = SliderCrank::placed(th0);
    MotionDef mo;
    mo.id = "drive";
    mo.joint = "crank_pivot";
    mo.quantity = "velocity";
    mo.params = {{"value", w}};
    m.motions.push_back(mo);
    const double scale = SliderCrank::r * w * w;
    for (const char* f : kFormulations) {
      Project p = mechProject(m, 0.25, 0.002, 1e-9);
      p.simulation.mechanism_formulation = f;
      auto r = simulate(p, f);
      REQUIRE_OK(r);
      const auto th = r->col("crank_pivot.angle");
      QVERIFY(th.back() > th0 + 2 * std::numbers::pi);  // over a turn
      auto a = [&](size_t i) { return SliderCrank::a(th[i], w); };
      auto psidd = [&](size_t i) { return SliderCrank::rodAcceleration(th[i], w); };
      CHECK_WORST(worstRelative(*r, "guide.acceleration", scale, a), 1e-6);
      CHECK_WORST(worstRelative(*r, "slider.ax", scale, a), 1e-6);
      CHECK_WORST(worstRelative(*r, "rod.alpha_z", scale / SliderCrank::l, psidd), 1e-6);
      CHECK_WORST(worstRelative(*r, "crank_pin.alpha", scale / SliderCrank::l, psidd), 1e-6);
      CHECK_WORST(worstRelative(*r, "crank_pivot.alpha", scale / SliderCrank::l, [](size_t) { return 0.0; }), 1e-6);
      CHECK_WORST(worstRelative(*r, "crank.alpha_z", scale / SliderCrank::l, [](size_t) { return 0.0; }), 1e-6);
    }
  }
};

QTEST_GUILESS_MAIN(TestMechanicsAccelerations)
#include "test_mechanics_accelerations.moc"
