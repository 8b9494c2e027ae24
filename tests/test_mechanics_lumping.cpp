// Parts welded by fixed joints lumped into one rigid body at compile time
// (BuildOptions::lumpFixedJoints): the same results as the parts kept
// apart, with fewer states. The tool changer lumped and not; a pendulum
// with a mass welded at its tip against its closed forms (period, weld
// reaction along the motion, hanging statics); a part welded to the ground
// alone; welds that must stay joints (a spring or an actuator on the
// welded part, a part the user fixed); bad input.
#include "build/project_input.h"
#include "mechanics/mechanism_element.h"
#include "mechanics/multibody.h"
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;
using std::numbers::pi;

namespace {

constexpr double g0 = 9.80665;

// Lumping off: the reference.
const BuildOptions kUnlumped{.lumpFixedJoints = false};
const mb::MultibodyOptions kUnlumpedMb{.lumpFixedJoints = false};

std::unique_ptr<Run> simulateUnlumped(const Project& p) { return simulate(p, "test", kUnlumped); }

// A rod (m1, length L, pivot at the ground's origin, turning about z,
// gravity -y) hanging theta0 from the vertical, with a point-like bob (m2,
// inertia Ib) welded at its tip: weld I = bob.w, J = rod.tip.
constexpr double L = 0.5, m1 = 1.0, m2 = 2.0, Ib = 1e-4;
Mechanism weldedPendulum(double theta0) {
  Mechanism mech;
  mech.gravity = {0, -g0, 0};
  mech.parts.push_back(ground({mk("O", {0, 0, 0})}));
  PartDef rod = part("rod", m1, {1e-4, m1 * L * L / 12, m1 * L * L / 12, 0, 0, 0}, {0, 0, 0},
                     {mk("O", {0, 0, 0}), mk("tip", {L, 0, 0})});
  rod.cm = {L / 2, 0, 0};
  rod.orientation = {0, 0, theta0 - pi / 2};
  mech.parts.push_back(rod);
  // The bob's axes as the rod's: a pose the weld holds as given (else the
  // unlumped assembly would turn the rod, too, to close it).
  PartDef bob = part("bob", m2, {Ib, Ib, Ib, 0, 0, 0}, {L * std::sin(theta0), -L * std::cos(theta0), 0},
                     {mk("w", {0, 0, 0})});
  bob.orientation = rod.orientation;
  mech.parts.push_back(bob);
  mech.joints.push_back(joint("pivot", "revolute", "rod.O", "ground.O"));
  mech.joints.push_back(joint("weld", "fixed", "bob.w", "rod.tip"));
  return mech;
}
// The composite's inertia about the pivot and m g d of its weight.
constexpr double IO = m1 * L * L / 3 + m2 * L * L + Ib;
constexpr double mgd = g0 * (m1 * L / 2 + m2 * L);

// Largest |a - b| of a channel over the samples both runs have at the same
// time (the output grid; events fall at slightly different times), and the
// channel's largest |a|.
struct Diff {
  double diff = 0.0, range = 0.0, t = 0.0;
};
Diff compareRuns(const Run& a, const Run& b, const std::string& n) {
  const auto v = a.col(n), w = b.col(n);
  Diff d;
  for (double x : v) d.range = std::max(d.range, std::abs(x));
  for (size_t i = 0, k = 0; i < v.size(); ++i) {
    while (k < w.size() && b.t[k] < a.t[i] - 1e-12) ++k;
    if (k == w.size() || std::abs(b.t[k] - a.t[i]) > 1e-12) continue;
    if (std::abs(v[i] - w[k]) > d.diff) d.diff = std::abs(v[i] - w[k]), d.t = a.t[i];
  }
  return d;
}

}  // namespace

class TestMechanicsLumping : public QObject {
  Q_OBJECT
 private slots:
  // The tool changer's tool (welded to the holder) and holder (welded to
  // the arm) become part of the arm: 2 x 14 part states and 2 x 12
  // multipliers fewer, the same results: every channel of both runs,
  // interpolated onto the same 2 ms grid (events fall at slightly
  // different times), within the integrator's tolerance.
  void toolChangerLumpedAsUnlumped() {
    Project pr = loadProject(projectPath("tool_changer.pneumech.json"));
    pr.simulation.mechanism_formulation = "absolute";  // the example runs reduced; lumping serves both
    settings(pr, 2.5, 1e-3, {.rel = 1e-9});
    // The lumped parts' signals, read by gains (compared below with the rest).
    const std::vector<std::string> sig = {"tool.cm_x", "tool.cm_y", "tool.vx", "tool.vy", "tool.yaw", "holder.cm_x"};
    for (size_t k = 0; k < sig.size(); ++k)
      pr.components.push_back(comp("probe" + std::to_string(k), "gain", {{"k", 1.0}, {"bias", 0.0}}, {{"in", sig[k]}}));
    auto on = simulate(pr);
    auto off = simulateUnlumped(pr);
    REQUIRE_OK(on);
    REQUIRE_OK(off);
    QCOMPARE(off->sim->system().size() - on->sim->system().size(), 2 * 14 + 2 * 12);
    QCOMPARE(mechanismOf(on->sim->system())->multibody().bodies().size(), size_t(4));  // ground, crank, coupler, arm
    // The same channels in the same order.
    QCOMPARE(on->out.channels().size(), off->out.channels().size());
    for (size_t i = 0; i < on->out.channels().size(); ++i)
      QCOMPARE(on->out.channels()[i].name, off->out.channels()[i].name);
    struct Group {
      const char* prefix;
      double floor, tol;
    };
    // The signals against the channels: the tool's centre of mass is
    // 0.32 m along its x-axis, the holder's 0.22 m.
    {
      const auto x = on->col("tool.x"), y = on->col("tool.y"), yaw = on->col("tool.yaw"), hx = on->col("holder.x");
      const auto hyaw = on->col("holder.yaw"), vx = on->col("tool.vx"), wz = on->col("tool.wz");
      double e = 0.0, ev = 0.0;
      for (size_t i = 0; i < x.size(); ++i) {
        e = std::max({e, std::abs(on->col("probe0.out")[i] - (x[i] + 0.32 * std::cos(yaw[i]))),
                      std::abs(on->col("probe1.out")[i] - (y[i] + 0.32 * std::sin(yaw[i]))),
                      std::abs(on->col("probe4.out")[i] - yaw[i]),
                      std::abs(on->col("probe5.out")[i] - (hx[i] + 0.22 * std::cos(hyaw[i])))});
        ev = std::max(ev, std::abs(on->col("probe2.out")[i] - (vx[i] - 0.32 * std::sin(yaw[i]) * wz[i])));
      }
      // Not to round-off: the channels take the rotation of the Euler
      // parameters as integrated, |p| = 1 to the Newton tolerance, the
      // signals normalise p first; the difference is ~|v| (|p|^2 - 1).
      // Measured 1.4e-10 to 6.4e-10 m and 4.9e-10 to 3.9e-9 m/s (dense LU,
      // KLU); a missing w x r term would be ~0.1 m/s.
      qInfo("signals against channels: positions %.3g, velocity %.3g", e, ev);
      CHECK_WORST(e, 5e-9);
      CHECK_WORST(ev, 1e-8);
    }
    // The yardstick: either run's own integration error, as its change
    // from rel_tol 1e-9 to 1e-10 (the lumped run's is the larger one at
    // some valve flows, 3e-6 kg/s of 6e-3 at 1.86 s). Every channel of the
    // two runs agrees within twice that, plus 1e-7 of the channel's range
    // (at least 1e-7 in its SI unit): quantities zero in exact arithmetic,
    // like the velocity of a pivot's point, are the constraints' residual
    // noise in both runs (abs_tol_position 1e-8 m, velocity rows yielding
    // by eps lambda), up to 3e-8.
    Project pr10 = pr;
    settings(pr10, 2.5, 1e-3, {.rel = 1e-10});
    auto on10 = simulate(pr10);
    auto off10 = simulateUnlumped(pr10);
    REQUIRE_OK(on10);
    REQUIRE_OK(off10);
    double worst = 0.0;
    std::string worstName;
    for (const auto& c : on->out.channels()) {
      const Diff d = compareRuns(*on, *off, c.name);
      const double own = std::max(compareRuns(*on10, *on, c.name).diff, compareRuns(*off10, *off, c.name).diff);
      const double tol = 2.0 * own + 1e-7 * std::max(1.0, d.range);
      if (d.diff > tol)
        qInfo("%-24s lumped-unlumped %.3g at %.3f s, tolerance %.3g (range %.3g)", c.name.c_str(), d.diff, d.t, tol,
              d.range);
      if (d.diff / tol > worst) worst = d.diff / tol, worstName = c.name;
      QVERIFY2(d.diff <= tol, c.name.c_str());
    }
    qInfo("largest lumped-unlumped difference: %.3g of its tolerance (%s)", worst, worstName.c_str());
    // The welds' reactions from the leaf's Newton-Euler balance against
    // the unlumped multipliers: within 5e-4 of their range (126 N, 88 N;
    // measured 1.7e-4) away from the cylinder's end-stop contacts (rows within 5 ms of a
    // non-zero stop force in either run). At the impacts the reaction
    // spikes follow the step sequence: there the yardstick above holds
    // (measured 4e-3 of the range at 0.967 s with the sparse LU, 2.6e-4
    // with the dense one; the unlumped run's own change with the
    // tolerance there is 4e-3).
    const auto stopOn = on->col("cyl1.F_stop"), stopOff = off->col("cyl1.F_stop");
    QCOMPARE(on->t.size(), off->t.size());
    std::vector<char> contact(on->t.size(), 0);
    for (size_t i = 0; i < on->t.size(); ++i)
      if (stopOn[i] != 0.0 || stopOff[i] != 0.0)
        for (size_t k = i > 5 ? i - 5 : 0; k < std::min(on->t.size(), i + 6); ++k) contact[k] = 1;
    for (const char* n : {"holder_mount.Fx", "holder_mount.Fy", "holder_mount.Tz", "tool_chuck.Fx", "tool_chuck.Fy",
                          "tool_chuck.Tz"}) {
      const auto a = on->col(n), b = off->col(n);
      double range = 0.0, diff = 0.0, at = 0.0;
      for (size_t i = 0; i < a.size(); ++i) {
        range = std::max(range, std::abs(b[i]));
        if (!contact[i] && std::abs(a[i] - b[i]) > diff) diff = std::abs(a[i] - b[i]), at = on->t[i];
      }
      qInfo("%s: lumped-unlumped %.3g of %.3g at %.3f s, away from the stops", n, diff, range, at);
      QVERIFY2(diff < 5e-4 * range, n);
    }
  }

  // A heavy body on a spherical joint, everything skewed: markers turned
  // every way, inertias with products, the weld assembled on the branch
  // with two of I's axes reversed against J's. Released from rest it
  // tumbles in 3D; lumped and unlumped agree to the integrator's
  // tolerance on every channel (rel_tol 1e-10; measured 5.8e-8 m or rad,
  // 1.1e-7 m/s, rad/s, m/s2, 1.3e-7 N, N m over 0.5 s).
  void skewedWeldIn3d() {
    using mb::M3;
    using mb::V3;
    Mechanism mech;
    mech.gravity = {0, 0, -g0};
    mech.parts.push_back(ground({mk("O", {0, 0, 0})}));
    PartDef body = part("body", 1.5, {0.01, 0.02, 0.03, 0.001, 0.002, -0.001}, {0, 0, 0},
                        {mk("pivot", {0, 0, 0}), mk("seat", {0.3, 0.1, -0.05}, {0.4, 0.1, -0.7})});
    body.cm = {0.1, 0.05, 0};
    body.orientation = {0.2, -0.3, 0.5};
    mech.parts.push_back(body);
    PartDef w = part("weight", 0.7, {0.004, 0.001, 0.003, 0.0005, 0, 0.0002}, {0, 0, 0},
                     {mk("m", {-0.05, 0.02, 0.01}, {1.0, -0.2, 0.3})});
    w.cm = {0.02, -0.03, 0.04};
    const M3 Rb = mb::fromRpy(body.orientation), RJ = Rb * mb::fromRpy({0.4, 0.1, -0.7});
    const M3 Rw = RJ * V3(1, -1, -1).asDiagonal() * mb::fromRpy({1.0, -0.2, 0.3}).transpose();
    const V3 pw = Rb * V3(0.3, 0.1, -0.05) - Rw * V3(-0.05, 0.02, 0.01), rpy = mb::toRpy(Rw);
    w.position = {pw[0], pw[1], pw[2]};
    w.orientation = {rpy[0], rpy[1], rpy[2]};
    mech.parts.push_back(w);
    mech.joints.push_back(joint("ball", "spherical", "body.pivot", "ground.O"));
    mech.joints.push_back(joint("weld", "fixed", "weight.m", "body.seat"));
    const Project pr = mechProject(mech, 0.5, 1e-2, 1e-10);
    auto on = simulate(pr), off = simulateUnlumped(pr);
    REQUIRE_OK(on);
    REQUIRE_OK(off);
    QCOMPARE(off->sim->system().size() - on->sim->system().size(), 26);
    // It does tumble: the weight's roll, pitch and yaw all change.
    for (const char* q : {"weight.roll", "weight.pitch", "weight.yaw"})
      QVERIFY2(std::abs(on->col(q).back() - on->col(q).front()) > 0.05, q);
    double ePos = 0.0, eF = 0.0, eA = 0.0;
    for (const auto& c : on->out.channels()) {
      const Diff d = compareRuns(*on, *off, c.name);
      if (c.unit == "m" || c.unit == "rad") ePos = std::max(ePos, d.diff);
      else if (c.unit == "N" || c.unit == "N m") eF = std::max(eF, d.diff);
      else if (c.unit != "J") eA = std::max(eA, d.diff);
    }
    qInfo("lumped-unlumped: positions/angles %.3g, velocities/accelerations %.3g, forces %.3g", ePos, eA, eF);
    CHECK_WORST(ePos, 2e-7);
    CHECK_WORST(eA, 1e-6);
    CHECK_WORST(eF, 1e-6);
  }

  // The welded pendulum swings as one compound pendulum, I_O theta'' =
  // -m g d sin theta: its period is 4 sqrt(I_O / m g d) K(sin(theta0 / 2)),
  // and the weld holds the bob on the tip's circle, F = m2 (a_tip - g) with
  // a_tip from theta, omega^2 = 2 m g d (cos theta - cos theta0) / I_O and
  // alpha = -m g d sin theta / I_O; its torque the bob's own I_b alpha.
  void weldedPendulumClosedForm() {
    const double th0 = 0.3;
    const Project pr = mechProject(weldedPendulum(th0), 3.0, 1e-3, 1e-10);
    auto r = simulate(pr);
    REQUIRE_OK(r);
    auto off = simulateUnlumped(pr);
    REQUIRE_OK(off);
    // 14 bob states and 6 x 2 weld multipliers fewer.
    QCOMPARE(off->sim->system().size() - r->sim->system().size(), 26);
    const double T = 4.0 * std::sqrt(IO / mgd) * std::comp_ellint_1(std::sin(th0 / 2));
    const double t1 = r->crossing("pivot.angle", -pi / 2, 0.0, Crossing::Rising);
    const double t2 = r->crossing("pivot.angle", -pi / 2, t1 + 0.1, Crossing::Rising);
    CHECK_REL(t2 - t1, T, 1e-7);
    const auto ang = r->col("pivot.angle"), fx = r->col("weld.Fx"), fy = r->col("weld.Fy"), tz = r->col("weld.Tz");
    const auto bx = r->col("bob.x"), by = r->col("bob.y"), bax = r->col("bob.ax"), bay = r->col("bob.ay");
    double eF = 0.0, eT = 0.0, eX = 0.0, eA = 0.0;
    for (size_t i = 0; i < ang.size(); ++i) {
      const double th = ang[i] + pi / 2, w2 = 2.0 * mgd * (std::cos(th) - std::cos(th0)) / IO;
      const double al = -mgd * std::sin(th) / IO;
      const double ax = L * al * std::cos(th) - L * w2 * std::sin(th), ay = L * al * std::sin(th) + L * w2 * std::cos(th);
      eF = std::max({eF, std::abs(fx[i] - m2 * ax), std::abs(fy[i] - m2 * (ay + g0))});
      eT = std::max(eT, std::abs(tz[i] - Ib * al));
      eX = std::max({eX, std::abs(bx[i] - L * std::sin(th)), std::abs(by[i] + L * std::cos(th))});
      eA = std::max({eA, std::abs(bax[i] - ax), std::abs(bay[i] - ay)});
    }
    qInfo("weld force %.3g N, torque %.3g N m, bob position %.3g m, acceleration %.3g m/s2 off", eF, eT, eX, eA);
    CHECK_WORST(eF, 1e-6 * m2 * g0);
    CHECK_WORST(eT, 1e-6 * Ib * mgd / IO);
    CHECK_WORST(eX, 1e-9);
    CHECK_WORST(eA, 1e-6);
    // The unlumped run's weld multipliers say the same.
    CHECK_WORST(compareRuns(*r, *off, "weld.Fy").diff, 1e-6 * m2 * g0);
  }

  // Hanging at rest, the weld carries the bob's weight: on the bob (I)
  // +m2 g upward, on the rod (the weld written the other way round) -m2 g;
  // the pivot carries both parts. Lumped and unlumped statics agree.
  void weldedPendulumStatics() {
    for (bool reversed : {false, true}) {
      Mechanism mech = weldedPendulum(0.3);
      if (reversed) std::swap(mech.joints[1].i, mech.joints[1].j);
      const Project pr = mechProject(mech, 1.0, 0.5, 1e-8);
      auto on = analyse(pr, MechanismAnalysis::Static);
      auto off = analyse(pr, MechanismAnalysis::Static, kUnlumped);
      REQUIRE_OK(on);
      REQUIRE_OK(off);
      const double s = reversed ? -1.0 : 1.0;
      CHECK_ABS(on->col("pivot.angle").back(), -pi / 2, 1e-9);
      CHECK_ABS(on->col("bob.y").back(), -L, 1e-10);
      CHECK_ABS(on->col("weld.Fx").back(), 0.0, 1e-9);
      CHECK_REL(on->col("weld.Fy").back(), s * m2 * g0, 1e-12);
      CHECK_ABS(on->col("weld.Tz").back(), 0.0, 1e-9);
      CHECK_REL(on->col("pivot.Fy").back(), (m1 + m2) * g0, 1e-12);
      for (const char* n : {"weld.Fx", "weld.Fy", "weld.Tz", "pivot.Fx", "pivot.Fy", "bob.x", "bob.y", "bob.yaw"})
        CHECK_ABS(on->col(n).back(), off->col(n).back(), 1e-8);
    }
  }

  // A part welded to the ground and to nothing else becomes part of the
  // ground: no states; its pose follows the weld's markers (not the
  // user's inconsistent initial pose), and the weld holds its weight and
  // the moment of its weight about the weld, as the unlumped statics find.
  void partWeldedToGround() {
    Mechanism mech;
    mech.gravity = {0, -g0, 0};
    mech.parts.push_back(ground({mk("m", {1, 2, 3}, {0, 0, pi / 2})}));
    PartDef block = part("block", 3.0, {0.01, 0.02, 0.03, 0, 0, 0}, {5, 5, 5}, {mk("w", {0, 0, 0})});
    block.cm = {0.1, 0, 0};
    mech.parts.push_back(block);
    mech.joints.push_back(joint("weld", "fixed", "block.w", "ground.m"));
    mb::MultibodySystem sys(mech);
    QCOMPARE(sys.size(), 0);
    QCOMPARE(sys.parts().size(), size_t(1));
    QVERIFY(sys.parts()[0].lumped);
    std::vector<double> row(sys.channels().size());
    sys.outputs(0.0, nullptr, nullptr, row.data());
    auto ch = [&](const std::string& n) {
      for (size_t i = 0; i < sys.channels().size(); ++i)
        if (sys.channels()[i].name == n) return row[i];
      qFatal("no channel %s", n.c_str());
    };
    CHECK_ABS(ch("block.x"), 1.0, 1e-15);
    CHECK_ABS(ch("block.y"), 2.0, 1e-15);
    CHECK_ABS(ch("block.z"), 3.0, 1e-15);
    CHECK_ABS(ch("block.yaw"), pi / 2, 1e-15);
    // On the block (I): +m g up. Its centre of mass 0.1 m along the
    // block's x, world y, is on the vertical through the weld: no moment.
    CHECK_ABS(ch("weld.Fy"), 3.0 * g0, 1e-12);
    CHECK_ABS(ch("weld.Tz"), 0.0, 1e-15);
    // Marker axes as the world's: the centre of mass 0.1 m along world x.
    Mechanism tilted = mech;
    tilted.parts[0].markers[0].orientation = {0, 0, 0};
    mb::MultibodySystem sys2(tilted);
    std::vector<double> row2(sys2.channels().size());
    sys2.outputs(0.0, nullptr, nullptr, row2.data());
    // COM 0.1 m along world x from P: the weld holds +0.1 m g about z.
    auto ch2 = [&](const std::string& n) {
      for (size_t i = 0; i < sys2.channels().size(); ++i)
        if (sys2.channels()[i].name == n) return row2[i];
      qFatal("no channel %s", n.c_str());
    };
    CHECK_ABS(ch2("weld.Tz"), 0.1 * 3.0 * g0, 1e-12);
    CHECK_ABS(ch2("weld.Fy"), 3.0 * g0, 1e-12);
    // The unlumped statics (the block moved onto the weld by the assembly).
    auto off = analyse(mechProject(tilted, 1.0, 0.5, 1e-8), MechanismAnalysis::Static, kUnlumped);
    REQUIRE_OK(off);
    for (const char* q : {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz"})
      CHECK_ABS(off->col(std::string("weld.") + q).back(), ch2(std::string("weld.") + q), 1e-8);
    CHECK_ABS(off->col("block.x").back(), 1.0, 1e-10);
    // The analyses and a run of the lumped model (nothing left to move).
    auto st = analyse(mechProject(tilted, 1.0, 0.5, 1e-8), MechanismAnalysis::Static);
    REQUIRE_OK(st);
    CHECK_ABS(st->col("weld.Tz").back(), 0.1 * 3.0 * g0, 1e-12);
    // Nothing is left to integrate, yet a dynamic run still writes its rows
    // (functions of time alone): the block where it was put, the weld
    // carrying its weight and moment at every row, as in the statics.
    auto dyn = simulate(mechProject(tilted, 0.1, 0.05, 1e-8));
    REQUIRE_OK(dyn);
    QCOMPARE(dyn->t.size(), size_t(3));  // 0, 0.05, 0.1 s
    for (size_t i = 0; i < dyn->t.size(); ++i) {
      CHECK_ABS(dyn->col("block.x")[i], 1.0, 1e-15);
      CHECK_ABS(dyn->col("weld.Fy")[i], 3.0 * g0, 1e-12);
      CHECK_ABS(dyn->col("weld.Tz")[i], 0.1 * 3.0 * g0, 1e-12);
    }
  }

  // The tool changer's statics (its cylinder pushing with the held
  // pressures) as before: every channel of the lumped model within 1e-12
  // (relative above 1) of the unlumped one's (measured 1.7e-15 N m).
  void toolChangerStatics() {
    Project pr = loadProject(projectPath("tool_changer.pneumech.json"));
    pr.simulation.mechanism_formulation = "absolute";
    auto on = analyse(pr, MechanismAnalysis::Static);
    auto off = analyse(pr, MechanismAnalysis::Static, kUnlumped);
    REQUIRE_OK(on);
    REQUIRE_OK(off);
    QCOMPARE(on->out.channels().size(), off->out.channels().size());
    double worst = 0.0;
    for (size_t i = 0; i < on->out.channels().size(); ++i) {
      const std::string n = on->out.channels()[i].name;
      QCOMPARE(n, off->out.channels()[i].name);
      const double a = on->col(n).back(), b = off->col(n).back();
      worst = std::max(worst, std::abs(a - b) / std::max(1.0, std::abs(b)));
    }
    qInfo("statics: largest difference %.3g", worst);
    QVERIFY(worst < 1e-12);
    CHECK_REL(on->col("tool_chuck.Fy").back(), off->col("tool_chuck.Fy").back(), 1e-12);
  }

  // Welds that must stay joints: a spring on the welded part, an actuator
  // attached to it, a part the user fixed. States and results as unlumped,
  // bit for bit.
  void nonLeafStaysJoint() {
    Mechanism spring = weldedPendulum(0.3);
    ForceDef f;
    f.id = "spring";
    f.type = "spring_damper";
    f.i = "bob.w";
    f.j = "ground.O";
    f.params = {{"stiffness", 10.0}, {"free_length", 0.4}};
    spring.forces.push_back(f);
    const Project pr = mechProject(spring, 0.5, 1e-2, 1e-8);
    auto on = simulate(pr), off = simulateUnlumped(pr);
    REQUIRE_OK(on);
    REQUIRE_OK(off);
    QCOMPARE(on->sim->system().size(), off->sim->system().size());
    for (const auto& c : on->out.channels()) QCOMPARE(on->col(c.name), off->col(c.name));

    Mechanism mech = weldedPendulum(0.3);
    const int all = mb::MultibodySystem(mech, {}, kUnlumpedMb).size();
    QCOMPARE(mb::MultibodySystem(mech).size(), all - 26);
    QCOMPARE(mb::MultibodySystem(mech, {{"bob.w"}, {}}).size(), all);  // a cylinder's rod end
    QCOMPARE(mb::MultibodySystem(mech, {{}, {"weld"}}).size(), all);    // an actuator on the joint
    mech.parts[2].initial_fixed = true;
    QCOMPARE(mb::MultibodySystem(mech).size(), all);
  }

  // A weld to an unknown marker is the same clear error with or without lumping.
  void badWeldReference() {
    for (const char* side : {"i", "j"}) {
      Mechanism mech = weldedPendulum(0.3);
      (std::string(side) == "i" ? mech.joints[1].i : mech.joints[1].j) = "rod.nope";
      const Project pr = mechProject(mech, 0.1, 1e-2, 1e-8);
      auto on = simulate(pr), off = simulateUnlumped(pr);
      QVERIFY(!on->ok());
      QCOMPARE(on->message(), off->message());
      QVERIFY2(on->message().find("'weld'") != std::string::npos &&
                   on->message().find("part 'rod' has no marker 'nope'") != std::string::npos,
               on->message().c_str());
      // The engine's own check, behind the file's validation.
      std::string what[2];
      for (int lump = 0; lump < 2; ++lump) {
        try {
          mb::MultibodySystem sys(mech, {}, {.lumpFixedJoints = lump == 1});
        } catch (const std::runtime_error& e) {
          what[lump] = e.what();
        }
      }
      QCOMPARE(what[1], what[0]);
      QCOMPARE(what[1], std::string("weld: ") + side + ": no marker 'rod.nope'");
    }
  }
};

QTEST_GUILESS_MAIN(TestMechanicsLumping)
#include "test_mechanics_lumping.moc"
