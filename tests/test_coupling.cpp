// Cylinders attached to mechanisms (monolithic coupling, seed 002 sec. 3):
// a cylinder pushing a slider on a straight guide must move exactly like
// the stand-alone cylinder carrying the same mass; a cylinder swinging a
// lever must follow x = |P_rod - P_barrel| - d0 and balance the lever's
// weight statically.
#include "build/project_input.h"
#include "model/project_error.h"
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

// A slider of `mass` on a frictionless guide along world x, its rod-end
// marker `d` from the ground clevis.
Mechanism slider(double mass, double d) {
  Mechanism m;
  m.gravity = {0, 0, 0};
  const Vec3 alongX{0, std::numbers::pi / 2, 0};  // z-axis along world x
  PartDef g;
  g.id = "ground";
  g.ground = true;
  g.markers = {{"clevis", {0, 0, 0}, {0, 0, 0}}, {"rail", {0, 0, 0}, alongX}};
  PartDef s;
  s.id = "carriage";
  s.mass = mass;
  s.inertia = {0.01, 0.01, 0.01, 0, 0, 0};
  s.position = {d, 0, 0};
  s.markers = {{"rod", {0, 0, 0}, {0, 0, 0}}, {"guide", {0, 0, 0}, alongX}};
  m.parts = {g, s};
  JointDef j;
  j.id = "guide";
  j.type = "translational";
  j.i = "carriage.guide";
  j.j = "ground.rail";
  m.joints = {j};
  return m;
}

// A lever (mass m, centre of mass c from its pivot at the origin, along
// +x at the start) lifted by a cylinder from a ground clevis d below its
// marker P (a from the pivot) against gravity -y. Port A is on a 6 bar
// supply (chamber A at supply pressure), port B is plugged: a closed,
// isothermal air spring. No Coulomb friction, so the lever comes to rest where pressure
// and gravity balance: about 43 deg up, mid-stroke (x ~ 70 mm of 100),
// where the cylinder's moment falls faster than the weight's.
Project liftedLever(double m, double c, double a, double d) {
  Project p;
  p.components = {comp("src", "supply", {{"p", 601325.0}}),
                  comp("cyl1", "cylinder_double",
                       {{"F_coulomb", 0.0}, {"F_static", 0.0}, {"c_viscous", 800.0}, {"isothermal", 1.0}}, {},
                       {{"attach", {{"barrel", "ground.clevis"}, {"rod", "lever.P"}}}})};
  wire(p, "src.1", "cyl1.A");
  Mechanism& mech = p.mechanism;
  mech.gravity = {0, -9.80665, 0};
  PartDef g;
  g.id = "ground";
  g.ground = true;
  g.markers = {{"O", {0, 0, 0}, {0, 0, 0}}, {"clevis", {a, -d, 0}, {0, 0, 0}}};
  PartDef l;
  l.id = "lever";
  l.mass = m;
  l.cm = {c, 0, 0};
  l.inertia = {1e-3, 0.05, 0.05, 0, 0, 0};
  l.markers = {{"O", {0, 0, 0}, {0, 0, 0}}, {"P", {a, 0, 0}, {0, 0, 0}}};
  mech.parts = {g, l};
  JointDef j;
  j.id = "pivot";
  j.type = "revolute";
  j.i = "lever.O";
  j.j = "ground.O";
  mech.joints = {j};
  return p;
}

}  // namespace

class TestCoupling : public QObject {
  Q_OBJECT
 private slots:
  // Seed 003's meter-out circuit, once stand-alone (cylinder mass 5 kg) and
  // once with the cylinder pushing a 5 kg carriage: the same stroke curve.
  // The two runs differ in formulation (ODE vs index-2 DAE), so they agree
  // to the integration tolerance, not to round-off: 20 um at rel_tol 1e-7.
  void sliderMatchesStandAloneCylinder() {
    Project a = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    settings(a, 1.0, 1e-3, {.rel = 1e-7});
    Project b = a;
    Component* cyl = b.find("cyl1");
    QVERIFY(cyl);
    const double mass = cyl->params.at("mass");
    b.mechanism = slider(mass, 0.35);
    cyl->data = {{"attach", {{"barrel", "ground.clevis"}, {"rod", "carriage.rod"}}}};
    auto ra = simulate(a), rb = simulate(b);
    REQUIRE_OK(ra);
    REQUIRE_OK(rb);
    const auto xa = ra->col("cyl1.x"), xb = rb->col("cyl1.x"), cx = rb->col("carriage.x");
    double dx = 0.0, dc = 0.0;
    for (size_t i = 0; i < xa.size(); ++i) {
      dx = std::max(dx, std::abs(xa[i] - xb[i]));
      dc = std::max(dc, std::abs(cx[i] - 0.35 - xb[i]));  // the carriage is where the rod is
    }
    QVERIFY2(dx < 2e-5, qPrintable(QString("stroke differs by %1 m").arg(dx)));
    QVERIFY2(dc < 1e-8, qPrintable(QString("carriage and rod differ by %1 m").arg(dc)));
    QVERIFY(xb.back() > 0.199);  // it made the stroke
    // Kinetic energy of the carriage is the cylinder's 1/2 m v^2.
    const auto v = rb->col("cyl1.v"), ek = rb->col("mechanism.E_kinetic");
    const size_t mid = rb->indexAt(0.4);
    CHECK_REL(ek[mid], 0.5 * mass * v[mid] * v[mid], 1e-6);
    // The guide carries no axial load; the cylinder force reaches the carriage.
    QVERIFY(rb->maxAbs("guide.Fx", 0, 1) < 1e-6);
    QVERIFY(rb->maxAbs("mechanism.residual_position", 0, 1) < 1e-8);
    // Acting along the guide's axis instead of the marker line: the same motion.
    Project c = b;
    c.find("cyl1")->data = {{"attach", {{"joint", "guide"}}}};
    auto rc = simulate(c);
    REQUIRE_OK(rc);
    const auto xc = rc->col("cyl1.x");
    double dj = 0.0;
    for (size_t i = 0; i < xc.size(); ++i) dj = std::max(dj, std::abs(xc[i] - xb[i]));
    QVERIFY2(dj < 1e-6, qPrintable(QString("joint-axis attachment differs by %1 m").arg(dj)));
  }

  // The tool changer example (seed 000 sec. 7.1): a cylinder swings a
  // parallelogram arm; the arm copies the crank angle exactly, the stroke
  // completes both ways, and the cushions cut the impact speed.
  void toolChanger() {
    const Project pr = loadProject(projectPath("tool_changer.pneumech.json"));
    auto r = simulate(pr);
    REQUIRE_OK(r);
    // Constraints hold to the Newton tolerance of rel_tol 1e-5 on 0.3 m parts (measured 2e-7 m).
    QVERIFY(r->maxAbs("mechanism.residual_position", 0, 3) < 1e-6);
    const auto a = r->col("crank_pivot.angle"), b = r->col("arm_pivot.angle");
    double e = 0;
    for (size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
    QVERIFY2(e < 1e-7, qPrintable(QString("parallelogram angle mismatch %1 rad").arg(e)));
    const double tOut = r->crossing("cyl1.x", 0.099, 0.1, Crossing::Rising);
    QVERIFY2(tOut > 0.2 && tOut < 1.2, qPrintable(QString("extended at %1 s").arg(tOut)));
    QVERIFY(r->col("cyl1.x").back() < 2e-3);  // back home
    // Speed when the piston enters the last millimetre of stroke, cushioned vs not.
    auto impact = [](const Run& run) {
      const auto x = run.col("cyl1.x"), v = run.col("cyl1.v");
      double worst = 0;
      for (size_t i = 0; i < x.size(); ++i)
        if (x[i] > 0.099 || x[i] < 0.001) worst = std::max(worst, std::abs(v[i]));
      return worst;
    };
    Project bare = pr;
    bare.find("cyl1")->params["cushion_length_A"] = 0.0;
    bare.find("cyl1")->params["cushion_length_B"] = 0.0;
    auto rb = simulate(bare);
    REQUIRE_OK(rb);
    QVERIFY2(impact(*r) < 0.5 * impact(*rb),
             qPrintable(QString("impact %1 m/s cushioned, %2 m/s without").arg(impact(*r)).arg(impact(*rb))));
  }

  // Two-axis handling (seed 000 sec. 7.2): the vertical axis rides on the
  // horizontal one, so its acceleration loads the base guide:
  // F_z = (m_c + m_s) g + m_s a_s,z at every instant.
  void twoAxisHandling() {
    auto r = simulate(loadProject(projectPath("two_axis_handling.pneumech.json")));
    REQUIRE_OK(r);
    const auto Fz = r->col("base_guide.Fz"), az = r->col("slide.az");
    const double mc = 3.0, ms = 1.5, g = 9.80665;
    double e = 0, aMax = 0;
    for (size_t i = 0; i < Fz.size(); ++i) {
      e = std::max(e, std::abs(Fz[i] - (mc + ms) * g - ms * az[i]));
      aMax = std::max(aMax, std::abs(az[i]));
    }
    QVERIFY2(e < 1e-6 * (mc + ms) * g, qPrintable(QString("guide load error %1 N").arg(e)));
    QVERIFY(aMax > 5.0);  // the upper axis did accelerate
    // The sequence ran: both strokes out and back.
    QVERIFY(r->maxAbs("A.x", 0, 2) > 0.099 && r->maxAbs("B.x", 0, 2) > 0.099);
    QVERIFY(r->col("A.x").back() < 1e-3 && r->col("B.x").back() < 1e-3);
  }

  // Knuckle-joint press (seed 000 sec. 3): at rest on the workpiece the
  // links are two-force members, so the knee balance F_cyl + f_u u_u + f_l u_l
  // = 0 gives the ram force; without gravity the contact force must equal it.
  void knucklePress() {
    Project pr = loadProject(projectPath("knuckle_press.pneumech.json"));
    pr.mechanism.gravity = {0, 0, 0};
    auto r = simulate(pr);
    REQUIRE_OK(r);
    const double t = 0.9;  // pressing, at rest
    const double Tx = 0.0, Ty = 0.4, Bx = -0.45;
    const double Kx = r->at("lower.x", t), Ky = r->at("lower.y", t), Rx = r->at("ram.x", t), Ry = r->at("ram.y", t);
    const double By = Ty - 0.2 * std::cos(25 * std::numbers::pi / 180);
    const double F = r->at("cyl1.F_pressure", t) - r->at("cyl1.F_friction", t) + r->at("cyl1.F_stop", t);
    const double cl = std::hypot(Kx - Bx, Ky - By);
    const double Fx = F * (Kx - Bx) / cl, Fy = F * (Ky - By) / cl;  // on the knee
    const double ux = (Tx - Kx) / std::hypot(Tx - Kx, Ty - Ky), uy = (Ty - Ky) / std::hypot(Tx - Kx, Ty - Ky);
    const double lx = (Rx - Kx) / std::hypot(Rx - Kx, Ry - Ky), ly = (Ry - Ky) / std::hypot(Rx - Kx, Ry - Ky);
    // f_u u + f_l l = -F (Cramer)
    const double det = ux * ly - uy * lx;
    const double fl = (ux * -Fy - uy * -Fx) / det;
    const double ram = fl * ly;  // downward push of the lower link on the ram
    QVERIFY(F > 500.0);
    CHECK_REL(r->at("workpiece.F", t), ram, 1e-5);
    // and the toggle multiplies the force: a = 8 deg gives about 1 / (2 tan a) = 3.6
    QVERIFY(r->at("workpiece.F", t) > 3.0 * F);
  }

  // A semi-rotary actuator on a revolute joint turning a disc moves exactly
  // like the stand-alone actuator with the disc's inertia.
  void semiRotaryOnRevolute() {
    Project a;
    a.components = {comp("src", "supply", {{"p", 601325.0}}), comp("sw1", "time_switch", {{"t_on", 0.05}}),
                    comp("v1", "valve_5_2", {{"C_supply", 4e-9}, {"C_exhaust", 4e-9}}, {{"sol14", "sw1.out"}}),
                    comp("act", "semi_rotary_actuator", {{"J", 2e-3}})};
    wire(a, "src.1", "v1.1");
    wire(a, "v1.4", "act.A");
    wire(a, "v1.2", "act.B");
    settings(a, 0.6, 1e-3, {.rel = 1e-7});
    Project b = a;
    b.mechanism = discOnShaft();
    b.find("act")->data = {{"attach", {{"joint", "shaft"}}}};
    auto ra = simulate(a), rb = simulate(b);
    REQUIRE_OK(ra);
    REQUIRE_OK(rb);
    const auto ta = ra->col("act.theta"), tb = rb->col("act.theta"), ang = rb->col("shaft.angle");
    double e = 0, ej = 0;
    for (size_t i = 0; i < ta.size(); ++i) {
      e = std::max(e, std::abs(ta[i] - tb[i]));
      ej = std::max(ej, std::abs(std::remainder(ang[i] - tb[i], 2 * std::numbers::pi)));
    }
    QVERIFY2(e < 1e-4, qPrintable(QString("angle differs by %1 rad").arg(e)));
    // theta is an algebraic state solved to the Newton tolerance (rel_tol 1e-7 of ~3 rad): measured 4e-7.
    QVERIFY2(ej < 1e-6, qPrintable(QString("joint and actuator differ by %1 rad").arg(ej)));
    QVERIFY(tb.back() > 0.9 * 3.14159);  // it swung to its end stop (theta_max = pi by default)
  }

  // Issue 4 (a): the lever lifted against gravity comes to rest mid-stroke
  // and holds. At rest the cylinder force from the final chamber pressures,
  // F = pA A_A - pB A_B - p_amb A_rod along u (clevis to P), balances the
  // weight about the pivot: (P x F u)_z = c cos(phi) m g; and the pivot
  // carries the rest, R = -(F u + m g). Tolerance 1e-6 relative (rel_tol
  // 1e-9; c_viscous 800 N s/m damps the swing so that after 10 s the
  // remaining motion, |v| ~ 1e-11 m/s, is far below it).
  void liftedLeverHoldsAgainstGravity() {
    const double m = 10.0, c = 0.3, a = 0.1, d = 0.2, g = 9.80665;
    Project p = liftedLever(m, c, a, d);
    settings(p, 10.0, 1e-2, {.rel = 1e-9});
    auto r = simulate(p);
    REQUIRE_OK(r);
    const double phi = r->col("pivot.angle").back(), x = r->col("cyl1.x").back();
    QVERIFY2(phi > 0.5 && phi < 1.0 && x > 0.03 && x < 0.095,
             qPrintable(QString("at rest at %1 rad, stroke %2 m: not mid-stroke").arg(phi).arg(x)));
    QVERIFY(r->maxAbs("cyl1.F_stop", 3.0, 4.0) == 0.0);  // not on a stop
    qInfo("at rest: phi %.9g rad, x %.9g m, v %.3g m/s", phi, x, r->col("cyl1.v").back());
    QVERIFY2(std::abs(r->col("cyl1.v").back()) < 1e-9, "still moving");
    // The lever turns about its pivot by the joint angle.
    CHECK_ABS(std::hypot(r->col("lever.x").back(), r->col("lever.y").back()), 0.0, 1e-9);
    CHECK_ABS(r->col("lever.yaw").back(), phi, 1e-9);
    const double D = 0.032, dr = 0.012, pi = std::numbers::pi;
    const double AA = pi * D * D / 4, AB = pi * (D * D - dr * dr) / 4;
    const double pA = r->col("cyl1.pA").back(), pB = r->col("cyl1.pB").back();
    const double F = pA * AA - pB * AB - 101325.0 * (AA - AB);
    const double Px = a * std::cos(phi), Py = a * std::sin(phi);
    const double l = std::hypot(Px - a, Py + d), ux = (Px - a) / l, uy = (Py + d) / l;
    CHECK_ABS(l - (d - 0.0), x, 1e-9);  // x = |P - clevis| - d0, d0 = d at x0 = 0
    CHECK_REL(Px * F * uy - Py * F * ux, m * g * c * std::cos(phi), 1e-6);
    CHECK_REL(r->col("pivot.Fx").back(), -F * ux, 1e-6);
    CHECK_REL(r->col("pivot.Fy").back(), m * g - F * uy, 1e-6);
  }

  // Issue 22: a flexible arm's elastic coordinates run co-simulated as well
  // (the beam's nodes are mechanism states like any part's). The swing arm,
  // co-simulated at its default exchange interval (1 ms), against the
  // monolithic run, row by row: the cylinder's stroke to 5e-5 m (8.0e-6 m
  // seen) and the tip deflection to 1e-3 of its 38 mm peak (9.6e-6 m seen);
  // both errors are of the order of the exchange interval's.
  void flexibleArmCoSimulated() {
    Project pr = loadProject(projectPath("flexible_swing_arm.pneumech.json"));
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> cols;
    for (const char* mode : {"monolithic", "cosimulation"}) {
      pr.simulation.coupling = mode;
      auto r = simulate(pr);
      REQUIRE_OK(r);
      for (const char* ch : {"cyl.x", "arm.tip_deflection"}) {
        auto& slot = std::string(mode) == "monolithic" ? cols[ch].first : cols[ch].second;
        slot = r->col(ch);
      }
    }
    auto maxDiff = [](const std::vector<double>& a, const std::vector<double>& b) {
      double d = 0.0;
      for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
      return d;
    };
    const auto& [xm, xc] = cols["cyl.x"];
    const auto& [wm, wc] = cols["arm.tip_deflection"];
    QCOMPARE(xc.size(), xm.size());
    QCOMPARE(wc.size(), wm.size());
    double peak = 0.0;
    for (double w : wm) peak = std::max(peak, std::abs(w));
    QVERIFY2(peak > 0.03, "the arm does not bend");
    qInfo("stroke %.3g m, tip deflection %.3g m apart", maxDiff(xm, xc), maxDiff(wm, wc));
    QVERIFY(maxDiff(xm, xc) < 5e-5);
    QVERIFY(maxDiff(wm, wc) < 1e-3 * peak);
  }

  // Issue 4 (b): mass accounting on the tool changer (cushions with port
  // volumes, flow controls, a 5/2 valve). The boundaries integrate what
  // they deliver (supply: in, ambient: negative when air is exhausted), so
  // drawn - exhausted = change of the mass held in the volumes. Measured
  // relative to the supply's delivery at rel_tol 1e-9 (abs_tol 0.01 Pa):
  // 1.2e-7 monolithic, asserted 4e-7; 6.3e-7 co-simulated (H = 1 ms; the
  // pneumatics restarts at order 1 every exchange; each chamber keeps its
  // mass across the stroke's jump at an exchange, else 2.2e-6), asserted
  // 1.5e-6.
  void massAccountingToolChanger() {
    Project pr = loadProject(projectPath("tool_changer.pneumech.json"));
    settings(pr, 2.5, 1e-2, {.rel = 1e-9, .pressure = 1e-2});
    for (const char* mode : {"monolithic", "cosimulation"}) {
      pr.simulation.coupling = mode;
      auto r = simulate(pr);
      REQUIRE_OK(r);
      double held0 = 0.0, held1 = 0.0;
      int volumes = 0;
      for (const ChannelInfo& ch : r->out.channels()) {
        const std::string& n = ch.name;
        if (ch.unit != "kg" || n.size() < 2 || n.compare(n.size() - 2, 2, ".m") != 0) continue;
        const auto col = r->col(n);
        held0 += col.front();
        held1 += col.back();
        ++volumes;
      }
      QCOMPARE(volumes, 4);  // two chambers, two port bores
      const double drawn = r->col("src.m_delivered").back(), vented = r->col("ambient.m_delivered").back();
      QVERIFY(drawn > 1e-4 && vented < -1e-4);  // air went in and out
      qInfo("%s: drawn %.9g kg, exhausted %.9g kg, held %.9g -> %.9g kg", mode, drawn, -vented, held0, held1);
      CHECK_ABS(drawn + vented, held1 - held0, (pr.simulation.coupling == "monolithic" ? 4e-7 : 1.5e-6) * drawn);
    }
  }

  // Bad attachments are named.
  void badAttachmentIsReported() {
    Project b = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    b.mechanism = slider(5.0, 0.35);
    b.find("cyl1")->data = {{"attach", {{"barrel", "ground.clevis"}, {"rod", "carriage.nope"}}}};
    auto r = simulate(b);
    QVERIFY(!r->ok());
    QVERIFY2(QString::fromStdString(r->error).contains("cyl1") && QString::fromStdString(r->error).contains("carriage.nope"),
             r->error.c_str());
    Project c = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    c.find("cyl1")->data = {{"attach", {{"barrel", "ground.clevis"}, {"rod", "carriage.rod"}}}};
    auto r2 = simulate(c);
    QVERIFY(!r2->ok());
    QVERIFY2(QString::fromStdString(r2->error).contains("no mechanism"), r2->error.c_str());
  }
};

QTEST_GUILESS_MAIN(TestCoupling)
#include "test_coupling.moc"
