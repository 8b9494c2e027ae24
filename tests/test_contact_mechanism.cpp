// Contact pairs coupled into the mechanism (issue 27): shapes declared in
// mechanism.contacts push the parts through the multibody residual, the
// integrator lands on the onset and loss of contact, and the channels carry
// the forces. Every check is against a closed form with a stated tolerance.
#include "build/project_input.h"
#include "io/project_file.h"
#include "model/project_error.h"
#include "support/mechanism_builders.h"

#include <QtTest/QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double g0 = 9.80665;

ContactShapeDef shape(const std::string& marker, const std::string& kind, std::map<std::string, double> size = {}) {
  return {marker, kind, std::move(size)};
}

ContactDef pair(const std::string& id, ContactShapeDef i, ContactShapeDef j, std::map<std::string, double> params) {
  return {id, std::move(i), std::move(j), std::move(params)};
}

// A ball of mass m, radius r at height z0 (centre) with vertical velocity vz
// over the ground plane z <= 0.
Mechanism ballOnPlane(double m, double r, double z0, double vz, double gz, std::map<std::string, double> params) {
  Mechanism mech;
  mech.gravity = {0, 0, gz};
  const double I = 0.4 * m * r * r;
  PartDef ball = part("ball", m, I, {0, 0, z0}, {mk("c", {0, 0, 0})});
  ball.velocity = {0, 0, vz};
  mech.parts = {ground({mk("floor", {0, 0, 0})}), ball};
  mech.contacts = {pair("hit", shape("ground.floor", "plane"), shape("ball.c", "sphere", {{"radius", r}}), std::move(params))};
  return mech;
}

// A 1 kg cube (40 mm) on the ground plane under gravity tilted by theta
// about y (the same as a plane inclined by theta, downhill +x), resting on
// its four corners at their static penetration (m g cos(theta) / 4 = k d^1.5).
constexpr double kSlope = 20.0 * std::numbers::pi / 180.0;  // tan = 0.36397
Mechanism blockOnSlope(std::map<std::string, double> friction) {
  const double m = 1.0, a = 0.04, k = 1e8;
  const double d = std::pow(m * g0 * std::cos(kSlope) / 4 / k, 1 / 1.5);
  Mechanism mech;
  mech.gravity = {g0 * std::sin(kSlope), 0, -g0 * std::cos(kSlope)};
  mech.parts = {ground({mk("floor", {0, 0, 0})}), part("block", m, m * a * a / 6, {0, 0, a / 2 - d}, {mk("c", {0, 0, 0})})};
  std::map<std::string, double> law{{"stiffness", k}, {"damping", 2000.0}, {"depth", 1e-5}};
  law.insert(friction.begin(), friction.end());
  mech.contacts = {pair("slope", shape("ground.floor", "plane"), shape("block.c", "box", {{"lx", a}, {"ly", a}, {"lz", a}}), law)};
  return mech;
}

// projects/contact_gripper with the gripped part's mass set to m (negative: as it is).
std::unique_ptr<Run> gripper(double m = -1.0) {
  Project p = loadProject(projectPath("contact_gripper.pneumech.json"));
  for (PartDef& d : p.mechanism.parts)
    if (d.id == "part" && m > 0) d.mass = m;
  return simulate(p, projectPath("contact_gripper.pneumech.json"));
}

// Times where `v` crosses zero downwards and upwards after `from`, interpolated.
double crossing(const Run& r, const std::string& ch, Crossing dir, double after = 0.0) {
  return r.crossing(ch, 0.0, after, dir);
}

// The pair's twist_torque channel (the couple on j's part about the
// normal, +z here): -T while a torque T is held (at 1 s, to 1e-9 of T), and
// -mu_d N rho while turning fast (at 0.6 s, rho w_z far above
// transition_velocity: the sliding level, to 1e-9 of it).
void checkTwistChannel(const Run& held, const Run& turns, const std::string& pair, double T, double rho) {
  const double heldT = held.at(pair + ".twist_torque", 1.0);
  const double slipT = turns.at(pair + ".twist_torque", 0.6), N = turns.at(pair + ".normal_force", 0.6);
  qInfo("%s.twist_torque: held %.12g N m (applied %.12g), turning %.12g N m (-mu_d N rho %.12g)", pair.c_str(), heldT,
        T, slipT, -0.4 * N * rho);
  QVERIFY2(std::abs(heldT + T) < 1e-9 * T, qPrintable(QString("held %1 vs %2").arg(heldT, 0, 'g', 14).arg(-T)));
  QVERIFY2(std::abs(slipT + 0.4 * N * rho) < 1e-9 * 0.4 * N * rho,
           qPrintable(QString("turning %1 vs %2").arg(slipT, 0, 'g', 14).arg(-0.4 * N * rho, 0, 'g', 14)));
}

}  // namespace

class TestContactMechanism : public QObject {
  Q_OBJECT
 private slots:
  // Elastic Hertz contact (damping 0) under gravity: the total energy
  // (kinetic + gravity + the contact spring's k d^2.5 / 2.5) stays constant
  // through the bounce, and the ball rises back to the height it fell from.
  void elasticDropConservesEnergy() {
    const double m = 0.1, r = 0.02, h = 0.05;
    auto run = simulate(mechProject(ballOnPlane(m, r, r + h, 0.0, -g0, {{"stiffness", 1e7}, {"damping", 0.0}}), 0.25,
                                    1e-4, 1e-9));
    QVERIFY2(run->ok(), run->message().c_str());
    const auto E = run->col("mechanism.E_total"), z = run->col("ball.z"), inc = run->col("hit.in_contact");
    const double E0 = E.front();
    double dE = 0.0;
    for (double e : E) dE = std::max(dE, std::abs(e - E0));
    // Measured 3.4e-7 of m g h at rel_tol 1e-9.
    QVERIFY2(dE < 1e-6 * m * g0 * h, qPrintable(QString("energy drift %1 J").arg(dE)));
    QVERIFY(*std::max_element(inc.begin(), inc.end()) == 1.0);
    const size_t after = run->indexAt(0.15);
    const double top = *std::max_element(z.begin() + after, z.end());
    qInfo("energy drift %.3g of m g h; rebound height error %.3g of h", dE / (m * g0 * h), (top - r - h) / h);
    QVERIFY2(std::abs(top - (r + h)) < 1e-6 * h, qPrintable(QString("rebound to %1").arg(top - r, 0, 'g', 10)));
  }

  // Hertz contact time without gravity: the ball enters at v and leaves at
  // -v after 2.9433 d_max / v, d_max = (5 m v^2 / (4 k))^(2/5) (decision
  // 0018). The contact onset and loss are roots: the distance channel
  // crosses zero there, found between samples 1e-6 s apart.
  void hertzContactTime() {
    const double m = 0.1, r = 0.01, v = 1.0, k = 1e7;
    auto run = simulate(mechProject(ballOnPlane(m, r, r + 1e-4, -v, 0.0, {{"stiffness", k}, {"damping", 0.0}}), 3e-3,
                                    1e-6, 1e-10));
    QVERIFY2(run->ok(), run->message().c_str());
    const double t0 = crossing(*run, "hit.distance", Crossing::Falling), t1 = crossing(*run, "hit.distance", Crossing::Rising, t0);
    // 2 d_max / v * integral_0^1 (1 - x^(5/2))^(-1/2) dx = 2 sqrt(pi) G(7/5) / G(9/10) d_max / v.
    const double dmax = std::pow(1.25 * m * v * v / k, 0.4);
    const double expect = 2 * std::sqrt(std::numbers::pi) * std::tgamma(1.4) / std::tgamma(0.9) * dmax / v;
    QVERIFY2(std::abs((t1 - t0) - expect) < 1e-6 * expect,
             qPrintable(QString("contact time %1 s, Hertz %2 s").arg(t1 - t0, 0, 'g', 10).arg(expect, 0, 'g', 10)));
    QVERIFY2(std::abs(t0 - 1e-4 / v) < 1e-9, qPrintable(QString("onset at %1").arg(t0, 0, 'g', 12)));
    const auto vz = run->col("ball.vz");
    qInfo("contact time %.10g s, Hertz %.10g s (rel %.3g); onset error %.3g s; rebound %.12g m/s", t1 - t0, expect,
          (t1 - t0) / expect - 1, t0 - 1e-4 / v, vz.back());
    QVERIFY2(std::abs(vz.back() - v) < 1e-8 * v, qPrintable(QString("rebound %1 m/s").arg(vz.back(), 0, 'g', 12)));
    // The integrator stopped at the onset and at the loss of contact: two events, no others.
    QCOMPARE(run->result.stats.events, 2L);
    const auto pen = run->col("hit.penetration");
    const double pmax = *std::max_element(pen.begin(), pen.end());
    QVERIFY2(std::abs(pmax - dmax) < 1e-5 * dmax, qPrintable(QString("max penetration %1, %2").arg(pmax).arg(dmax)));
  }

  // A linear spring-dashpot (exponent 1, the damping ramp over 1e-9 m: full
  // from the start in effect), no gravity: during contact x'' + 2 z w0 x' +
  // w0^2 x = 0; the force k x + c x' never pulls, so the ball leaves when it
  // falls to zero, at w_d t_c = pi - atan(2 z sqrt(1 - z^2) / (1 - 2 z^2)),
  // with e = exp(-z w0 t_c) |cos w_d t_c - z w0 / w_d sin w_d t_c| of its speed
  // (Schwager and Poeschel's restitution of the unclamped-free dashpot).
  void dampedRestitution() {
    const double m = 0.1, r = 0.01, v = 1.0, k = 1e5, zeta = 0.1;
    const double w0 = std::sqrt(k / m), c = 2 * zeta * std::sqrt(k * m), wd = w0 * std::sqrt(1 - zeta * zeta);
    const double tc = (std::numbers::pi - std::atan(2 * zeta * std::sqrt(1 - zeta * zeta) / (1 - 2 * zeta * zeta))) / wd;
    const double e = std::exp(-zeta * w0 * tc) * std::abs(std::cos(wd * tc) - zeta * w0 / wd * std::sin(wd * tc));
    auto run = simulate(mechProject(
        ballOnPlane(m, r, r + 1e-4, -v, 0.0, {{"stiffness", k}, {"exponent", 1.0}, {"damping", c}, {"depth", 1e-9}}),
        8e-3, 1e-6, 1e-10));
    QVERIFY2(run->ok(), run->message().c_str());
    const auto vz = run->col("ball.vz");
    qInfo("restitution %.10g, closed form %.10g (rel %.3g)", vz.back() / v, e, vz.back() / (e * v) - 1);
    QVERIFY2(std::abs(vz.back() - e * v) < 1e-6 * v,
             qPrintable(QString("rebound %1 m/s, closed form %2").arg(vz.back(), 0, 'g', 10).arg(e * v, 0, 'g', 10)));
    // The force lasts t_c: it falls to zero between samples 1e-6 s apart.
    const double t0 = crossing(*run, "hit.distance", Crossing::Falling);
    const auto F = run->col("hit.normal_force");
    const int on = firstIndex(F, [](double f) { return f > 0.0; });
    const int off = firstIndex(F, [](double f) { return f == 0.0; }, on);
    QVERIFY(on > 0 && off > on);
    qInfo("force lasts %.6g s, closed form %.6g s", run->t[off] - t0, tc);
    QVERIFY2(std::abs(run->t[off] - t0 - tc) < 2e-6,
             qPrintable(QString("force for %1 s, closed form %2 s").arg(run->t[off] - t0).arg(tc)));
  }

  // A block sliding on the floor with Coulomb friction mu (static = dynamic)
  // stops after v0^2 / (2 mu g), in v0 / (mu g). It starts on its four
  // corner points at their static penetration (m g / 4 = k d^1.5 each).
  void slidingBlockStops() {
    const double m = 1.0, a = 0.04, k = 1e8, mu = 0.3, v0 = 0.5;
    const double d = std::pow(m * g0 / 4 / k, 1 / 1.5), I = m * a * a / 6;
    Mechanism mech;
    PartDef block = part("block", m, I, {0, 0, a / 2 - d}, {mk("c", {0, 0, 0})});
    block.velocity = {v0, 0, 0};
    mech.parts = {ground({mk("floor", {0, 0, 0})}), block};
    mech.contacts = {pair("slide", shape("ground.floor", "plane"), shape("block.c", "box", {{"lx", a}, {"ly", a}, {"lz", a}}),
                          {{"stiffness", k}, {"damping", 2000.0}, {"depth", 1e-5}, {"mu_static", mu}, {"mu_dynamic", mu},
                           {"stiction_velocity", 1e-5}, {"transition_velocity", 1e-4}})};
    auto run = simulate(mechProject(mech, 0.3, 1e-4, 1e-9));
    QVERIFY2(run->ok(), run->message().c_str());
    const double s = v0 * v0 / (2 * mu * g0), ts = v0 / (mu * g0);
    const double x = run->col("block.x").back();
    qInfo("stopped after %.10g m, closed form %.10g m (rel %.3g)", x, s, x / s - 1);
    QVERIFY2(std::abs(x - s) < 1e-4 * s, qPrintable(QString("stopped after %1 m, closed form %2 m").arg(x, 0, 'g', 10).arg(s, 0, 'g', 10)));
    const double tStop = run->crossing("block.vx", 1e-3, 0.0, Crossing::Falling);
    // vx falls to 1e-3 m/s (0.2 % of v0) at ts (1 - 1e-3 / v0).
    QVERIFY2(std::abs(tStop - ts * (1 - 1e-3 / v0)) < 1e-3 * ts, qPrintable(QString("stops at %1 s, %2").arg(tStop).arg(ts)));
    // While it slides, the friction is mu m g.
    const double Ff = run->at("slide.friction_force", ts / 2), N = run->at("slide.normal_force", ts / 2);
    QVERIFY2(std::abs(Ff - mu * N) < 1e-6 * Ff, qPrintable(QString("%1 vs mu N %2").arg(Ff).arg(mu * N)));
    QVERIFY2(std::abs(N - m * g0) < 1e-3 * m * g0, qPrintable(QString("N %1").arg(N)));
  }

  // The example gripper (projects/contact_gripper): once the support is
  // lowered the part hangs in the jaws. At rest each jaw presses with the
  // cylinder's pressure force p_A A_A - p_B A_B - p_amb (A_A - A_B) less its
  // friction (channels cyl1.pA, pB, F_friction), and the two jaws' friction
  // carries the weight m g.
  void gripperForceByHand() {
    auto run = gripper();
    QVERIFY2(run->ok(), run->message().c_str());
    const double t = 0.75, D = 0.01, d = 0.004, pamb = 101325.0, m = 1.0;
    const double AA = std::numbers::pi * D * D / 4, AB = std::numbers::pi * (D * D - d * d) / 4;
    const double Fp = run->at("cyl1.pA", t) * AA - run->at("cyl1.pB", t) * AB - pamb * (AA - AB);
    const double F = Fp - run->at("cyl1.F_friction", t);
    for (const char* jaw : {"grip_moving", "grip_fixed"}) {
      const double N = run->at(std::string(jaw) + ".normal_force", t);
      qInfo("%s: %.9g N, by hand %.9g N", jaw, N, F);
      QVERIFY2(std::abs(N - F) < 1e-6 * F, qPrintable(QString("%1 %2 vs %3").arg(jaw).arg(N).arg(F)));
    }
    const double Ft = run->at("grip_moving.friction_force", t) + run->at("grip_fixed.friction_force", t);
    QVERIFY2(std::abs(Ft - m * g0) < 1e-6 * m * g0, qPrintable(QString("friction %1").arg(Ft)));
    QCOMPARE(run->at("rest.in_contact", t), 0.0);
    QCOMPARE(run->at("grip_moving.in_contact", t), 1.0);
    QVERIFY(std::abs(run->at("part.vz", t)) < 1e-4);  // creeps below the stiction velocity
    // Opened at 0.8 s: the part falls onto the lowered support.
    QCOMPARE(run->col("grip_moving.in_contact").back(), 0.0);
    QCOMPARE(run->col("rest.in_contact").back(), 1.0);
  }

  // The in-contact flag as a control signal ("part present"): the gripper's
  // valve driven by rest.in_contact instead of the time switch closes the
  // jaw once the part has settled onto its support (the support stays).
  void partPresentSignalDrivesValve() {
    Project p = loadProject(projectPath("contact_gripper.pneumech.json"));
    p.find("v1")->inputs["sol14"] = "rest.in_contact";
    p.mechanism.motions.front().params = {{"t0", 1.0}, {"v0", 0.0}, {"t1", 2.0}, {"v1", 0.0}};  // the support stays
    p.simulation.t_end = 0.3;
    auto run = simulate(p, "part_present");
    QVERIFY2(run->ok(), run->message().c_str());
    const double tPresent = run->crossing("rest.in_contact", 0.5, 0.0, Crossing::Rising);
    const double tMoves = run->crossing("cyl1.x", 1e-4, 0.0, Crossing::Rising);
    qInfo("part present at %.4g s, jaw moves at %.4g s", tPresent, tMoves);
    QVERIFY(tPresent >= 0.0 && tPresent < 0.01);
    QVERIFY(tMoves > tPresent);
    // Closed: it presses with the cylinder's force, pressure less friction.
    const double N = run->col("grip_moving.normal_force").back();
    const double F = run->col("cyl1.F_pressure").back() - run->col("cyl1.F_friction").back();
    QVERIFY2(F > 39.0 && std::abs(N - F) < 1e-6 * F, qPrintable(QString("%1 vs %2").arg(N).arg(F)));
  }

  // The jaws hold the part while 2 mu F > m g and let it slip beyond: at 1 %
  // under the threshold mass it creeps below the stiction velocity; at 1 %
  // over it slides down at g - 2 mu_d F / m (to 1e-3).
  void gripperSlipThreshold() {
    const double mu = 0.3, F = 39.2697;  // the grip force gripperForceByHand checks
    const double mStar = 2 * mu * F / g0;
    auto hold = gripper(0.99 * mStar);
    QVERIFY2(hold->ok(), hold->message().c_str());
    const double vHold = hold->at("part.vz", 0.75);
    QVERIFY2(std::abs(vHold) < 1e-4, qPrintable(QString("held part moves at %1 m/s").arg(vHold)));
    auto slip = gripper(1.01 * mStar);
    QVERIFY2(slip->ok(), slip->message().c_str());
    const double a = (slip->at("part.vz", 0.7) - slip->at("part.vz", 0.5)) / 0.2;
    const double expect = -(g0 - 2 * mu * F / (1.01 * mStar));
    qInfo("held: vz %.3g m/s; slipping: a %.6g m/s2, closed form %.6g", vHold, a, expect);
    QVERIFY2(std::abs(a - expect) < 1e-3 * std::abs(expect), qPrintable(QString("a %1 vs %2").arg(a).arg(expect)));
  }

  // The latch example (projects/contact_latch): the carriage's bolt lifts
  // the spring-loaded pawl, passes, and is caught by the hook; held, the
  // hook carries the return spring's pull k (x - x_anchor - L0) by hand; the
  // release pin lifts the pawl at 1 s and the spring pulls the carriage back.
  void latchCatchesAndReleases() {
    const std::string file = projectPath("contact_latch.pneumech.json");
    auto run = simulate(loadProject(file), file);
    QVERIFY2(run->ok(), run->message().c_str());
    const auto inc = run->col("hook.in_contact");
    const double tCatch = run->crossing("hook.in_contact", 0.5, 0.0, Crossing::Rising);
    QVERIFY2(tCatch > 0.4 && tCatch < 0.6, qPrintable(QString("caught at %1").arg(tCatch)));
    for (size_t i = run->indexAt(0.6); i < run->indexAt(1.0); ++i) QCOMPARE(inc[i], 1.0);
    const double x = run->at("carriage.x", 0.99), N = run->at("hook.normal_force", 0.99);
    const double pull = 5.0 * (x + 0.25 - 0.1);
    qInfo("held at x = %.6g m with %.9g N, spring %.9g N", x, N, pull);
    QVERIFY2(std::abs(N - pull) < 1e-4 * pull, qPrintable(QString("%1 vs %2").arg(N).arg(pull)));
    QVERIFY(std::abs(run->at("carriage.x", 0.99) - run->at("carriage.x", 0.8)) < 1e-5);
    // Released: out of contact, and the carriage runs back past its start.
    QCOMPARE(inc.back(), 0.0);
    QVERIFY(run->col("carriage.x").back() < -0.04);
  }

  // A part resting on another shape at the static penetration by hand
  // (m g = n k d^e over its n equally deep points) stays there: the summed
  // normal force is m g and the penetration d, each to 1e-6.
  void restingPairsCarryTheWeight_data() {
    QTest::addColumn<QString>("below");
    QTest::addColumn<QString>("above");
    QTest::addColumn<int>("points");
    QTest::addColumn<double>("height");  // of the resting part's marker above the support's surface, at d = 0
    QTest::addColumn<double>("pitch");   // of the resting part's marker
    QTest::newRow("box on plane") << "plane" << "box" << 4 << 0.05 << 0.0;
    QTest::newRow("sphere on box face") << "box" << "sphere" << 1 << 0.03 << 0.0;
    QTest::newRow("cylinder standing on box") << "box" << "cylinder" << 8 << 0.06 << 0.0;
    QTest::newRow("cylinder lying on box") << "box" << "cylinder" << 2 << 0.02 << std::numbers::pi / 2;
    QTest::newRow("box on cylinder cap") << "cylinder" << "box" << 8 << 0.05 << 0.0;
  }
  void restingPairsCarryTheWeight() {
    QFETCH(QString, below);
    QFETCH(QString, above);
    QFETCH(int, points);
    QFETCH(double, height);
    QFETCH(double, pitch);
    const double m = 2.0, k = 1e8, e = 1.5;
    const double d = std::pow(m * g0 / points / k, 1 / e);
    auto sized = [](const QString& kind) -> std::map<std::string, double> {
      if (kind == "box") return {{"lx", 0.1}, {"ly", 0.1}, {"lz", 0.1}};
      if (kind == "sphere") return {{"radius", 0.03}};
      if (kind == "cylinder") return {{"radius", 0.02}, {"length", 0.12}};
      return {};
    };
    // The support's surface at z = 0: a plane's marker there, a box's or a
    // cylinder's (standing, half-length 0.06) centre below it.
    const double top = below == "box" ? 0.05 : below == "cylinder" ? 0.06 : 0.0;
    Mechanism mech;
    mech.parts = {ground({mk("s", {0, 0, -top})}),
                  part("p", m, 1e-3, {0, 0, height - d}, {mk("c", {0, 0, 0}, {0, pitch, 0})})};
    mech.contacts = {pair("rest", shape("ground.s", below.toStdString(), sized(below)),
                          shape("p.c", above.toStdString(), sized(above)),
                          {{"stiffness", k}, {"exponent", e}, {"damping", 2000.0}, {"depth", 1e-5}, {"mu_static", 0.3},
                           {"mu_dynamic", 0.3}, {"stiction_velocity", 1e-5}, {"transition_velocity", 1e-4}})};
    auto run = simulate(mechProject(mech, 0.2, 1e-3, 1e-9));
    QVERIFY2(run->ok(), run->message().c_str());
    const double N = run->col("rest.normal_force").back(), pen = run->col("rest.penetration").back();
    qInfo("%s: N %.12g (m g %.12g), penetration %.9g (by hand %.9g)", qPrintable(QString(QTest::currentDataTag())),
          N, m * g0, pen, d);
    QVERIFY2(std::abs(N - m * g0) < 1e-6 * m * g0, qPrintable(QString("N %1").arg(N, 0, 'g', 12)));
    QVERIFY2(std::abs(pen - d) < 1e-6 * d, qPrintable(QString("penetration %1 vs %2").arg(pen, 0, 'g', 12).arg(d)));
  }

  // A rod (cylinder shape, axis along x) driven at 0.2 m/s pushes a 1 kg
  // box across a floor (mu 0.3): once it is carried along, the rod's end
  // pushes with the sliding friction mu m g (to 1e-4) and the box moves at
  // the rod's speed (to 1e-6 m/s).
  void rodPushesBox() {
    const double m = 1.0, k = 1e8, mu = 0.3, v = 0.2, a = 0.1;
    const double d = std::pow(m * g0 / 4 / k, 1 / 1.5);
    const Vec3 alongX{0, std::numbers::pi / 2, 0};
    Mechanism mech;
    PartDef box = part("box", m, m * a * a / 6, {0, 0, a / 2 - d}, {mk("c", {0, 0, 0})});
    PartDef rod = part("rod", 0.5, 1e-3, {-a / 2 - 0.005 - 0.05, 0, a / 2}, {mk("rail", {0, 0, 0}, alongX)});
    mech.parts = {ground({mk("floor", {0, 0, 0}), mk("rail", {0, 0, a / 2}, alongX)}), box, rod};
    mech.joints = {joint("guide", "translational", "rod.rail", "ground.rail")};
    mech.motions = {velocityMotion("drive", "guide", v)};
    const std::map<std::string, double> law{{"stiffness", k}, {"damping", 2000.0}, {"depth", 1e-5}};
    std::map<std::string, double> floorLaw = law;
    floorLaw.insert({{"mu_static", mu}, {"mu_dynamic", mu}, {"stiction_velocity", 1e-4}, {"transition_velocity", 1e-3}});
    mech.contacts = {pair("floor", shape("ground.floor", "plane"), shape("box.c", "box", {{"lx", a}, {"ly", a}, {"lz", a}}), floorLaw),
                     pair("push", shape("rod.rail", "cylinder", {{"radius", 0.01}, {"length", 0.1}}),
                          shape("box.c", "box", {{"lx", a}, {"ly", a}, {"lz", a}}), law)};
    auto run = simulate(mechProject(mech, 0.4, 1e-3, 1e-9));
    QVERIFY2(run->ok(), run->message().c_str());
    // The gap closes linearly, so the samples' interpolation finds the touch exactly.
    const double tHit = run->crossing("push.distance", 0.0, 0.0, Crossing::Falling);
    QVERIFY2(std::abs(tHit - 0.005 / v) < 1e-9, qPrintable(QString("touches at %1 s").arg(tHit, 0, 'g', 12)));
    const double N = run->col("push.normal_force").back(), vx = run->col("box.vx").back();
    qInfo("push %.10g N (mu m g %.10g), box at %.9g m/s", N, mu * m * g0, vx);
    QVERIFY2(std::abs(N - mu * m * g0) < 1e-4 * mu * m * g0, qPrintable(QString("push %1 N").arg(N, 0, 'g', 10)));
    QVERIFY2(std::abs(vx - v) < 1e-6, qPrintable(QString("box vx %1").arg(vx, 0, 'g', 10)));
  }

  // pneumech static on the block on the slope (mu_s 0.5 > tan 20 deg): the
  // contact holds it where it stands; the friction carries m g sin(theta)
  // and the normal force is m g cos(theta), each to 1e-6 m g. The block
  // moves by the anchors' slip tan(theta) / sigma0 = 0.73 um plus its pitch
  // under the friction's moment (about 2 um): less than 5 um. With mu_s 0.3
  // < tan(theta) there is no static equilibrium: refused, naming the
  // contact and the friction needed.
  void staticFrictionOnSlope() {
    const double m = 1.0, x0 = 0.0;
    auto held = analyse(mechProject(blockOnSlope({{"mu_static", 0.5}, {"mu_dynamic", 0.4}}), 1.0, 0.1, 1e-9),
                        MechanismAnalysis::Static);
    QVERIFY2(held->error.empty(), held->error.c_str());
    const double Ft = held->col("slope.friction_force").back(), N = held->col("slope.normal_force").back();
    const double dx = held->col("block.x").back() - x0;
    qInfo("static: friction %.10g N (m g sin %.10g), normal %.10g N (m g cos %.10g), moved %.3g m", Ft,
          m * g0 * std::sin(kSlope), N, m * g0 * std::cos(kSlope), dx);
    QVERIFY2(std::abs(Ft - m * g0 * std::sin(kSlope)) < 1e-6 * m * g0, qPrintable(QString("friction %1").arg(Ft, 0, 'g', 12)));
    QVERIFY2(std::abs(N - m * g0 * std::cos(kSlope)) < 1e-6 * m * g0, qPrintable(QString("normal %1").arg(N, 0, 'g', 12)));
    QVERIFY2(Ft <= 0.5 * N, "outside the friction cone");
    QVERIFY2(std::abs(dx) < 5e-6, qPrintable(QString("moved %1 m").arg(dx)));
    auto slides = analyse(mechProject(blockOnSlope({{"mu_static", 0.3}, {"mu_dynamic", 0.25}}), 1.0, 0.1, 1e-9),
                          MechanismAnalysis::Static);
    qInfo("mu 0.3: %s", slides->error.c_str());
    QVERIFY2(slides->error.find("slope") != std::string::npos &&
                 slides->error.find("no static equilibrium") != std::string::npos &&
                 slides->error.find("mu_static = 0.3") != std::string::npos,
             slides->error.c_str());
  }

  // A time run of the block on the slope (mu_s 0.5): with a stick state
  // (stiction_deformation 1 um) it settles as it rocks onto the slope (about
  // 10 um in the first 20 ms: the bristle's deflection tan(theta) / sigma0 =
  // 0.73 um, its pitch under the friction's moment, the slip while rocking)
  // and stays: from 0.5 s to 1 s it moves less than 1e-10 m, its speed is
  // below 1e-9 m/s at 1 s and the friction is m g sin(theta) (to 1e-6 m g).
  // The velocity law alone (stiction_deformation 0) creeps at above 1e-6 m/s.
  void stickStateHoldsWithoutCreep() {
    const std::map<std::string, double> law{{"mu_static", 0.5}, {"mu_dynamic", 0.4}, {"stiction_velocity", 1e-4},
                                            {"transition_velocity", 1e-3}};
    std::map<std::string, double> stick = law;
    stick["stiction_deformation"] = 1e-6;
    auto held = simulate(mechProject(blockOnSlope(stick), 1.0, 1e-3, 1e-8));
    QVERIFY2(held->ok(), held->message().c_str());
    const double moved = held->at("block.x", 1.0) - held->at("block.x", 0.5), v = held->at("block.vx", 1.0);
    const double total = held->at("block.x", 1.0) - held->at("block.x", 0.0);
    const double Ft = held->at("slope.friction_force", 1.0);
    auto creeps = simulate(mechProject(blockOnSlope(law), 1.0, 1e-3, 1e-8));
    QVERIFY2(creeps->ok(), creeps->message().c_str());
    const double vCreep = creeps->at("block.vx", 1.0);
    qInfo("stick state: moved %.3g m from 0.5 s to 1 s, %.4g m in all, vx %.3g m/s, friction %.10g N "
          "(m g sin %.10g); velocity law: creeps at %.4g m/s",
          moved, total, v, Ft, g0 * std::sin(kSlope), vCreep);
    QVERIFY2(std::abs(moved) < 1e-10 && std::abs(v) < 1e-9, qPrintable(QString("moved %1 m, vx %2").arg(moved).arg(v)));
    QVERIFY2(total > 0.0 && total < 2e-5, qPrintable(QString("settled over %1 m").arg(total)));
    QVERIFY2(std::abs(Ft - g0 * std::sin(kSlope)) < 1e-6 * g0, qPrintable(QString("friction %1").arg(Ft, 0, 'g', 12)));
    QVERIFY2(vCreep > 1e-6, qPrintable(QString("velocity law creeps at %1").arg(vCreep)));
  }

  // mu_s 0.3, mu_d 0.25 below tan(theta): the block slides down with
  // a = g (sin(theta) - mu_d cos(theta)) = 1.05030 m/s2 (to 1e-3), with the
  // velocity law and with the stick state alike.
  void blockSlidesDownSlope() {
    const double a = g0 * (std::sin(kSlope) - 0.25 * std::cos(kSlope));
    for (double delta : {0.0, 1e-6}) {
      auto run = simulate(mechProject(blockOnSlope({{"mu_static", 0.3}, {"mu_dynamic", 0.25}, {"stiction_velocity", 1e-4},
                                                    {"transition_velocity", 1e-3}, {"stiction_deformation", delta}}),
                                      0.6, 1e-3, 1e-8));
      QVERIFY2(run->ok(), run->message().c_str());
      const double got = (run->at("block.vx", 0.6) - run->at("block.vx", 0.2)) / 0.4;
      qInfo("delta %g: a %.7g m/s2, closed form %.7g", delta, got, a);
      QVERIFY2(std::abs(got - a) < 1e-3 * a, qPrintable(QString("a %1 vs %2").arg(got, 0, 'g', 8).arg(a, 0, 'g', 8)));
    }
  }

  // Twisting about the normal (the stick state's torsion, decision 0018):
  // the 40 mm cube rests on a level plane on its four corners, each N/4 at
  // r = a / sqrt(2) from the centre, so friction holds a torque about z up
  // to T_max = mu_s m g r = 0.13869 N m. At 0.5 T_max it sticks: it turns
  // by the twist deflection, quasi-statically -(delta / r) ln(1 - 0.5) =
  // 0.69 delta / r, below the break-away angle delta / r = 3.5e-5 rad, and
  // not at all (< 1e-9 rad) after 0.5 s; at 1.5 T_max it turns with
  // alpha = (1.5 mu_s - mu_d) m g r / I_zz = 364.04 rad/s2 (to 1e-3).
  void stickStateResistsTwist() {
    const double m = 1.0, a = 0.04, r = a / std::sqrt(2.0), Izz = m * a * a / 6, delta = 1e-6;
    const double Tmax = 0.5 * m * g0 * r;
    auto run = [&](double T) {
      Mechanism mech = blockOnSlope({{"mu_static", 0.5}, {"mu_dynamic", 0.4}, {"stiction_velocity", 1e-4},
                                     {"transition_velocity", 1e-3}, {"stiction_deformation", delta}});
      const double d = std::pow(m * g0 / 4 / 1e8, 1 / 1.5);
      mech.gravity = {0, 0, -g0};
      mech.parts[1].position = {0, 0, a / 2 - d};
      mech.forces.push_back(force("twist", "vtorque", "block.c", "", {{"tz", T}}));
      return simulate(mechProject(mech, 1.0, 1e-3, 1e-8));
    };
    auto held = run(0.5 * Tmax);
    QVERIFY2(held->ok(), held->message().c_str());
    const double late = held->at("block.yaw", 1.0) - held->at("block.yaw", 0.5), all = held->at("block.yaw", 1.0);
    auto turns = run(1.5 * Tmax);
    QVERIFY2(turns->ok(), turns->message().c_str());
    const double alpha = (turns->at("block.wz", 0.6) - turns->at("block.wz", 0.2)) / 0.4;
    const double expect = (1.5 * 0.5 - 0.4) * m * g0 * r / Izz;
    qInfo("0.5 T_max: yaw %.4g rad in all, %.3g rad from 0.5 s to 1 s (bound %.3g); 1.5 T_max: alpha %.7g rad/s2, "
          "closed form %.7g",
          all, late, delta / r, alpha, expect);
    QVERIFY2(std::abs(all) < delta / r && std::abs(late) < 1e-9,
             qPrintable(QString("held: yaw %1, late %2").arg(all).arg(late)));
    QVERIFY2(std::abs(alpha - expect) < 1e-3 * expect, qPrintable(QString("alpha %1 vs %2").arg(alpha).arg(expect)));
    checkTwistChannel(*held, *turns, "slope", 0.5 * Tmax, r);
  }

  // A single contact point (a ball on a plane) has no arm of its own: the
  // pair's torsion_radius rho gives it one, holding up to
  // T_max = mu_s m g rho = 9.80665e-4 N m (0.1 kg, rho 2 mm). At 0.5 T_max
  // the ball turns by less than the break-away angle delta / rho = 5e-4 rad
  // (quasi-statically 0.69 delta / rho) and then stops; at
  // 1.5 T_max it turns with alpha = (1.5 mu_s - mu_d) m g rho / (0.4 m r^2)
  // = 42.904 rad/s2 (to 1e-3).
  void torsionRadiusHoldsABall() {
    const double m = 0.1, r = 0.02, rho = 2e-3, k = 1e8, delta = 1e-6;
    const double d = std::pow(m * g0 / k, 1 / 1.5), Tmax = 0.5 * m * g0 * rho;
    auto run = [&](double T) {
      Mechanism mech = ballOnPlane(m, r, r - d, 0.0, -g0,
                                   {{"stiffness", k}, {"damping", 200.0}, {"depth", 1e-5}, {"mu_static", 0.5},
                                    {"mu_dynamic", 0.4}, {"stiction_velocity", 1e-4}, {"transition_velocity", 1e-3},
                                    {"stiction_deformation", delta}, {"torsion_radius", rho}});
      mech.forces.push_back(force("twist", "vtorque", "ball.c", "", {{"tz", T}}));
      return simulate(mechProject(mech, 1.0, 1e-3, 1e-8));
    };
    auto held = run(0.5 * Tmax);
    QVERIFY2(held->ok(), held->message().c_str());
    const double late = held->at("ball.yaw", 1.0) - held->at("ball.yaw", 0.5), all = held->at("ball.yaw", 1.0);
    auto turns = run(1.5 * Tmax);
    QVERIFY2(turns->ok(), turns->message().c_str());
    const double alpha = (turns->at("ball.wz", 0.6) - turns->at("ball.wz", 0.2)) / 0.4;
    const double expect = (1.5 * 0.5 - 0.4) * m * g0 * rho / (0.4 * m * r * r);
    qInfo("0.5 T_max: yaw %.4g rad in all, %.3g rad from 0.5 s to 1 s (bound %.3g); 1.5 T_max: alpha %.7g rad/s2, "
          "closed form %.7g",
          all, late, delta / rho, alpha, expect);
    QVERIFY2(std::abs(all) < delta / rho && std::abs(late) < 1e-9,
             qPrintable(QString("held: yaw %1, late %2").arg(all).arg(late)));
    QVERIFY2(std::abs(alpha - expect) < 1e-3 * expect, qPrintable(QString("alpha %1 vs %2").arg(alpha).arg(expect)));
    checkTwistChannel(*held, *turns, "hit", 0.5 * Tmax, rho);
  }

  // The static analysis holds each pair where it starts: a tangential spring
  // per point (sigma0 = mu_s / delta, delta 1 um without a stick state) and,
  // with a torsion_radius rho, a twisting spring sigma0 N rho^2 per radian.
  // A ball (0.1 kg, rho 2 mm, T_max = mu_s m g rho) on a spindle under
  // 0.5 T_max turns by
  // T / (sigma0 N rho^2) = 0.5 delta / rho = 2.5e-4 rad; the 40 mm cube on
  // its four corners at r = a / sqrt(2) (T_max = mu_s m g r) by
  // T / (sigma0 N r^2) = 0.5 delta / r (to 1e-6 of it: Newton's tolerance).
  // At 1.5 T_max neither holds: the analysis refuses, naming the couple
  // (the cube's summed friction force is zero under a pure torque).
  void staticTwistHeld() {
    const double g = g0, delta = 1e-6, mu = 0.5;
    const std::map<std::string, double> law{{"stiffness", 1e8}, {"damping", 200.0}, {"depth", 1e-5},
                                            {"mu_static", mu}, {"mu_dynamic", 0.4}};
    struct Case {
      const char* pair;
      const char* body;
      Mechanism mech;
      double Tmax, arm;
    };
    std::vector<Case> cases;
    {
      const double m = 0.1, r = 0.02, rho = 2e-3, d = std::pow(m * g / 1e8, 1 / 1.5);
      std::map<std::string, double> p = law;
      p["torsion_radius"] = rho;
      // On a vertical spindle (a cylindrical joint: it may sink and turn,
      // not roll, which nothing resists on a plane), the pair's couple alone
      // holds its turning.
      Mechanism mech = ballOnPlane(m, r, r - d, 0.0, -g, p);
      mech.parts[0].markers.push_back(mk("axis", {0, 0, 0}));
      mech.joints.push_back(joint("spindle", "cylindrical", "ball.c", "ground.axis"));
      cases.push_back({"hit", "ball", mech, mu * m * g * rho, rho});
    }
    {
      const double a = 0.04, r = a / std::sqrt(2.0);
      Mechanism mech = blockOnSlope({{"mu_static", mu}, {"mu_dynamic", 0.4}});
      mech.gravity = {0, 0, -g};
      mech.parts[1].position = {0, 0, a / 2 - std::pow(g / 4 / 1e8, 1 / 1.5)};
      cases.push_back({"slope", "block", mech, mu * 1.0 * g * r, r});
    }
    for (Case& c : cases) {
      auto run = [&](double T) {
        Mechanism mech = c.mech;
        mech.forces.push_back(force("twist", "vtorque", std::string(c.body) + ".c", "", {{"tz", T}}));
        return analyse(mechProject(mech, 1.0, 0.1, 1e-9), MechanismAnalysis::Static);
      };
      const double T = 0.5 * c.Tmax;
      auto held = run(T);
      QVERIFY2(held->error.empty(), held->error.c_str());
      const double yaw = held->col(std::string(c.body) + ".yaw").back(), want = 0.5 * delta / c.arm;
      auto slips = run(1.5 * c.Tmax);
      qInfo("%s: 0.5 T_max (%.6g N m): yaw %.10g rad (hand %.10g); 1.5 T_max: %s", c.pair, T, yaw, want,
            slips->error.c_str());
      QVERIFY2(std::abs(yaw - want) < 1e-6 * want, qPrintable(QString("yaw %1 vs %2").arg(yaw, 0, 'g', 12).arg(want)));
      QVERIFY2(slips->error.find(c.pair) != std::string::npos &&
                   slips->error.find("no static equilibrium") != std::string::npos &&
                   slips->error.find("twisting couple") != std::string::npos,
               slips->error.c_str());
      // The pair's couple on the part about the normal (+z) balances T.
      const double couple = held->col(std::string(c.pair) + ".twist_torque").back();
      QVERIFY2(std::abs(couple + T) < 1e-9 * T, qPrintable(QString("twist_torque %1 vs %2").arg(couple, 0, 'g', 14).arg(-T)));
    }
  }

  // A contact pair with a bad size or parameter is refused naming the
  // file, the contact and the field.
  void badPairsNameTheField() {
    Project p = mechProject(ballOnPlane(0.1, 0.01, 0.02, 0, -g0, {}), 0.1, 1e-3, 1e-6);
    auto expect = [&](Project q, const char* field) {
      q.mechanism.contacts.front().id = "hit";
      const std::string text = serializeProject(q);
      try {
        Simulation sim(parseProjectText(text, "bad.pneumech.json"), "bad.pneumech.json");
        QFAIL(qPrintable(QString("accepted a bad %1").arg(field)));
      } catch (const ProjectError& e) {
        const std::string w = e.what();
        QVERIFY2(w.find("bad.pneumech.json") != std::string::npos && w.find("hit") != std::string::npos &&
                     w.find(field) != std::string::npos,
                 w.c_str());
      }
    };
    Project q = p;
    q.mechanism.contacts[0].j.size["radius"] = -1;
    expect(q, "j.size.radius");
    q = p;
    q.mechanism.contacts[0].j.shape = "torus";
    expect(q, "j.shape");
    q = p;
    q.mechanism.contacts[0].i = shape("ground.floor", "funnel", {{"radius", 0.1}, {"mouth_radius", 0.2}, {"length", 0.1}});
    q.mechanism.contacts[0].j = shape("ball.c", "box", {{"lx", 0.1}, {"ly", 0.1}, {"lz", 0.1}});
    expect(q, "j.shape");
    q = p;
    q.mechanism.contacts[0].params["mu_static"] = -0.1;
    expect(q, "params.mu_static");
    q = p;
    q.mechanism.contacts[0].params["stiction_velocity"] = 0.1;
    expect(q, "params.transition_velocity");
    q = p;
    q.mechanism.contacts[0].i.marker = "ground.nowhere";
    expect(q, "i.marker");
    q = p;
    q.mechanism.contacts[0].j.size["length"] = 0.1;
    expect(q, "j.size.length");
  }
};

QTEST_APPLESS_MAIN(TestContactMechanism)
#include "test_contact_mechanism.moc"
