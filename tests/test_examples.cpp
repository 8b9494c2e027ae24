// Every example project in projects/ loads, runs, and shows the physics it is
// there to show. Numbers are checked against hand formulas where one exists.
#include "analyses/modal_analysis.h"
#include "analyses/simulation.h"
#include "build/project_input.h"
#include "results/report_settings.h"
#include "support/test_project.h"

#include "mechanics/beam/beam_bodies.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

using namespace pm;
using namespace pm::test;

namespace {

// Loads projects/<name> and runs it under its path (files a project names,
// such as a controller's .js, are found next to it).
std::unique_ptr<Run> runExample(const std::string& name) {
  return simulate(loadProject(projectPath(name)), projectPath(name));
}

// The examples by file stem. The studio's start page and pneumech-bench list
// whatever projects/ holds, and the README names the examples in prose (not
// all of them), so this list is what catches an example silently dropped, or
// one added without a test row: exampleList() compares it with the folder.
const std::vector<std::string> kExamples = {
    "cardan_shafts",   "contact_gripper",  "contact_latch",    "double_pendulum",  "four_bar",          "knuckle_press",  "pendulum",
    "reservoir_blowdown", "script_pid_servo", "script_plc_cycle", "seed003_meter_out", "sequence_a_b",
    "sequence_a_b_b_a", "servo_axis",       "slider_crank",      "spring_lever",   "tool_changer",
    "torx_open_loop",  "torx_servo",       "two_axis_handling", "two_axis_servo",    "flexible_swing_arm",
    "sizing_lift",     "seed001_flexible_link", "contact_pick_drop", "contact_pusher", "seed001_sliding_link",
    "seed001_two_link", "contact_tilting_chute",
    "seed004_boom_docking",
    "contact_clamp_docking", "flexible_boom_lift", "contact_vblock_chute", "contact_spring_finger",
};

constexpr const char* kSuffix = ".pneumech.json";

// Stems of the projects in projects/, sorted.
std::vector<std::string> examplesInFolder() {
  std::vector<std::string> stems;
  const std::string suffix = kSuffix;
  for (const auto& e : std::filesystem::directory_iterator(projectPath(""))) {
    const std::string f = e.path().filename().string();
    if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
      stems.push_back(f.substr(0, f.size() - suffix.size()));
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

// integral_0^t scale f(s) ds (weighted: integral_0^t (t - s) scale f(s) ds)
// of a force's piecewise linear table, f = 0 past its last point: Simpson
// per segment, exact for a linear f.
double tableIntegral(const ForceDef& f, const std::string& param, double t, bool weighted) {
  const double scale = f.params.at(param);
  double sum = 0.0;
  for (size_t i = 1; i < f.table.size(); ++i) {
    auto [t0, a] = f.table[i - 1];
    auto [t1, b] = f.table[i];
    if (t0 >= t) break;
    if (t1 > t) b = a + (b - a) * (t - t0) / (t1 - t0), t1 = t;
    const double tm = 0.5 * (t0 + t1), w0 = weighted ? t - t0 : 1.0, wm = weighted ? t - tm : 1.0,
                 w1 = weighted ? t - t1 : 1.0;
    sum += (t1 - t0) / 6.0 * (w0 * a + 4 * wm * 0.5 * (a + b) + w1 * b) * scale;
  }
  return sum;
}

const ForceDef& forceOf(const Project& pr, const std::string& id) {
  for (const ForceDef& f : pr.mechanism.forces)
    if (f.id == id) return f;
  throw std::runtime_error("no force " + id);
}

// The lowest root beta L of a beam guided at x = 0 (slope held, free to
// slide: w'(0) = w'''(0) = 0) with a point mass `ratio` times its own at
// the free end (w''(L) = 0, E I w'''(L) = -m_t omega^2 w(L)): with
// w = C1 cos(beta x) + C3 cosh(beta x),
//   sin x cosh x + cos x sinh x + 2 ratio x cos x cosh x = 0,  x = beta L,
// between pi/2 and the bare beam's 2.3650 (half a free-free beam).
double guidedTipMassRoot(double ratio) {
  auto g = [ratio](double x) {
    return std::sin(x) * std::cosh(x) + std::cos(x) * std::sinh(x) + 2 * ratio * x * std::cos(x) * std::cosh(x);
  };
  double lo = std::numbers::pi / 2, hi = 2.3650;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (g(mid) > 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

class TestExamples : public QObject {
  Q_OBJECT
 private slots:
  // projects/ holds exactly the examples of kExamples.
  void exampleList() {
    const auto found = examplesInFolder();
    auto listed = kExamples;
    std::sort(listed.begin(), listed.end());
    QStringList missing, unlisted;
    for (const auto& s : listed)
      if (!std::binary_search(found.begin(), found.end(), s)) missing << QString::fromStdString(s);
    for (const auto& s : found)
      if (!std::binary_search(listed.begin(), listed.end(), s)) unlisted << QString::fromStdString(s);
    QVERIFY2(missing.isEmpty(), qPrintable("examples gone from projects/: " + missing.join(", ")));
    QVERIFY2(unlisted.isEmpty(),
             qPrintable("examples in projects/ without a row in kExamples: " + unlisted.join(", ")));
  }

  // One row per project in projects/: it runs to its own t_end, with a row
  // at every output interval and no other (the solver writes rows at output
  // times only: events add none) and no NaN or infinity in any channel.
  void everyExampleRuns_data() {
    QTest::addColumn<QString>("stem");
    for (const auto& s : examplesInFolder()) QTest::newRow(s.c_str()) << QString::fromStdString(s);
  }
  void everyExampleRuns() {
    QFETCH(QString, stem);
    const std::string file = stem.toStdString() + kSuffix;
    const Project project = loadProject(projectPath(file));
    const double tEnd = project.simulation.t_end, dt = project.simulation.output_interval;
    auto r = runExample(file);
    QVERIFY2(r->ok(), r->message().c_str());
    // Rows at 0, dt, 2 dt, ... and the last at t_end (a shorter last
    // interval when t_end is not a whole number of them).
    std::vector<double> times;
    for (long i = 0; static_cast<double>(i) * dt < tEnd * (1 - 1e-12); ++i)
      times.push_back(static_cast<double>(i) * dt);
    times.push_back(tEnd);
    QCOMPARE(r->out.rows(), times.size());
    const double tol = 1e-12 * std::max(1.0, tEnd);
    QVERIFY2(std::abs(r->result.stats.tReached - tEnd) <= tol,
             qPrintable(QString("reached %1, t_end %2").arg(r->result.stats.tReached, 0, 'g', 17).arg(tEnd)));
    for (size_t i = 0; i < times.size(); ++i)
      QVERIFY2(std::abs(r->t[i] - times[i]) <= tol,
               qPrintable(QString("row %1 at t = %2, expected %3")
                              .arg(i)
                              .arg(r->t[i], 0, 'g', 17)
                              .arg(times[i], 0, 'g', 17)));
    const auto channels = r->out.channels();
    QVERIFY(!channels.empty());
    for (size_t c = 0; c < channels.size(); ++c) {
      const auto v = r->out.column(static_cast<int>(c));
      const auto bad = std::find_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); });
      if (bad != v.end())
        QFAIL(qPrintable(QString("%1 = %2 at t = %3")
                             .arg(QString::fromStdString(channels[c].name))
                             .arg(*bad)
                             .arg(r->t[bad - v.begin()])));
    }
    // The report's plots name channels the run has (the key results and the
    // PDF report refuse the project otherwise).
    std::vector<std::string> names;
    for (const auto& ch : channels) names.push_back(ch.name);
    try {
      checkPlotChannels(reportSettings(project, file), names, file);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // The flexible arm: the cylinder swings it until the piston hits its end
  // stop; the arm then rings. Its tip deflection in the swing plane after
  // the stop is several times what the swing's acceleration bent it by,
  // and decays (2 % damping, about 6 Hz); the gripper, welded to the tip
  // node (and lumped into it), moves with it.
  void flexibleSwingArm() {
    auto r = runExample("flexible_swing_arm.pneumech.json");
    QVERIFY2(r->ok(), r->message().c_str());
    const double tHit = r->crossing("cyl.x", 0.0999, 0.0, Crossing::Rising);
    QVERIFY2(tHit > 0.1 && tHit < 0.7, qPrintable(QString::number(tHit)));
    const double swing = r->maxAbs("arm.tip_v", 0.15, tHit - 0.02);
    const double ring1 = r->maxAbs("arm.tip_v", tHit, tHit + 0.2), ring2 = r->maxAbs("arm.tip_v", tHit + 0.2, tHit + 0.4);
    qInfo("hit at %.3f s; tip deflection while swinging %.3g m, after the stop %.3g m, then %.3g m", tHit, swing, ring1,
          ring2);
    QVERIFY(ring1 > 3e-3);
    QVERIFY(ring1 > 3.0 * swing);
    QVERIFY(ring2 < ring1);
    const auto gx = r->col("gripper.x"), gy = r->col("gripper.y"), nx = r->col("arm_n10.x"), ny = r->col("arm_n10.y");
    for (size_t i = 0; i < gx.size(); ++i) QVERIFY(std::hypot(gx[i] - nx[i], gy[i] - ny[i]) < 1e-9);
  }

  // The boom lift, the example above 400 states (issue 22): a 32-element
  // tube boom raised by a cylinder to its end stop, where the boom rings.
  // The modal analysis at the run's end (the sparse solver, the default
  // above 400 states) must find the ringing: its lowest oscillating mode
  // that moves the tip vertically (boom.tip_v, the swing plane) more than
  // sideways is the boom's, at the frequency the run rings at after the
  // stop (mean over the last whole cycles; 1 % for the amplitude the run
  // still has, measured 0.4 %).
  void flexibleBoomLift() {
    const std::string file = "flexible_boom_lift.pneumech.json";
    const Project pr = loadProject(projectPath(file));
    auto r = runExample(file);
    QVERIFY2(r->ok(), r->message().c_str());
    const double tHit = r->crossing("cyl.x", 0.2999, 0.0, Crossing::Rising);
    QVERIFY2(tHit > 1.0 && tHit < 1.5, qPrintable(QString::number(tHit)));
    const double ring = r->meanFrequency("boom.tip_v", tHit + 0.2, pr.simulation.t_end);
    QVERIFY(r->maxAbs("boom.tip_v", tHit, tHit + 0.2) > 0.01);
    ModalOptions o;
    o.at = pr.simulation.t_end;
    o.modes = 12;
    const ModalResult modes = runModalAnalysis(pr, projectPath(file), o);
    QVERIFY2(modes.states.size() > 400, qPrintable(QString::number(modes.states.size())));
    QCOMPARE(modes.solver, std::string("sparse"));
    auto amplitude = [](const Mode& m, const std::string& ch) {
      for (const auto& c : m.channels)
        if (c.channel == ch) return c.amplitude;
      return 0.0;
    };
    const Mode* bending = nullptr;
    for (const Mode& m : modes.modes)
      if (!bending && m.oscillating && amplitude(m, "boom.tip_v") > amplitude(m, "boom.tip_w")) bending = &m;
    QVERIFY(bending);
    qInfo("%zu states; end stop at %.3f s; the boom rings at %.4f Hz, its vertical bending mode %.4f Hz (zeta %.4f)",
          modes.states.size(), tHit, ring, bending->frequency, bending->dampingRatio);
    QCOMPARE(bending->shares.front().object, std::string("boom"));
    CHECK_REL(ring, bending->frequency, 1e-2);
  }

  // Seed 001's single flexible link (its Table 2, first column, 7 elements):
  // the link's mass is rho A L from the seed's numbers. The torque's net
  // impulse is zero, so once it ends the machine's angular momentum about
  // the joint is zero, and its inertia-weighted angle
  //   Theta = (sum m_i r_i^2 phi_i + sum Izz_i psi_i) / J
  // (phi_i the polar angle of node i, psi_i its yaw; the payload too), whose
  // rate is that momentum over J, stands at the rigid link's final angle
  // (1/J) integral (t_end - t) tau dt however the link still rings. Exact but
  // for the changes of r_i (second order in the deflection, 1e-4) and the
  // integration: tolerance 1e-3 (measured 4.6e-5). Once the torque ends
  // the link rings (its tip's bending above 1 mm over 2 .. 3 s; measured
  // 3.7 mm, 24 mm during the manoeuvre) and the ringing decays.
  void seed001FlexibleLink() {
    const Project pr = loadProject(projectPath("seed001_flexible_link.pneumech.json"));
    const FlexibleBodyDef& link = pr.mechanism.flexible_bodies.at(0);
    const double rho = link.material.at("density"), A = link.section.at("hy") * link.section.at("bz");
    CHECK_REL(A, 2.5e-5, 1e-12);  // the seed's section area
    auto r = runExample("seed001_flexible_link.pneumech.json");
    QVERIFY2(r->ok(), r->message().c_str());
    const Mechanism nodes = beam::withNodeBodies(pr.mechanism);
    double linkMass = 0.0, J = 0.0, moment = 0.0;
    for (const PartDef& p : nodes.parts) {
      if (p.ground) continue;
      if (p.id.rfind("link_n", 0) == 0) linkMass += p.mass;
      const double x = r->col(p.id + ".x").back(), y = r->col(p.id + ".y").back();
      const double rr = x * x + y * y;
      J += p.mass * rr + p.inertia[2];
      moment += p.mass * rr * std::atan2(y, x) + p.inertia[2] * r->col(p.id + ".yaw").back();
    }
    CHECK_REL(linkMass, rho * A * link.length, 1e-12);
    // (1/J) integral_0^T (T - t) tau dt for the piecewise linear table.
    const double T = pr.simulation.t_end, impulse = tableIntegral(pr.mechanism.forces.at(0), "value", T, true);
    const double want = impulse / J, got = moment / J;
    qInfo("inertia-weighted angle %.6f rad, rigid link %.6f rad; hub %.6f rad", got, want, r->col("hub.angle").back());
    QVERIFY(want > 0.25 && want < 0.35);
    CHECK_REL(got, want, 1e-3);
    const double ring = r->maxAbs("link.tip_v", 2.0, 3.0), late = r->maxAbs("link.tip_v", T - 2.0, T);
    QVERIFY2(ring > 1e-3, qPrintable(QString::number(ring)));
    QVERIFY2(late < 0.1 * ring, qPrintable(QString::number(late)));
  }

  // Seed 001's second robot (its Table 2, second column: 20 elements): the
  // link carried sideways by a translational joint (world y) under a force.
  // Nothing else acts along y, so the whole body's momentum along y is the
  // force's impulse (checked at t = 1.5 s, inside the braking phase) and its
  // centre of mass moves by (1/M) integral (t_end - t) F dt, the net impulse
  // being zero: exact laws of the equations, so the tolerances are the
  // integration's (1e-6 relative; measured below). Once the force ends the
  // link rings as a beam guided at its root with the payload at its tip:
  // the modal analysis (at the start, straight and at rest, as at the end)
  // finds that mode at beta^2 sqrt(E I / mu) / (2 pi) with beta L the root
  // of guidedTipMassRoot (lumped masses of 20 elements: low by about
  // 0.13 (beta L / n)^2 = 1.2e-3; tolerance 3e-3), and the run rings at the
  // mode's damped frequency (crossings over 3 .. 10 s: measured 0.48 % low,
  // the ringing being large, 18 cm at the tip at first: tolerance 1 %).
  void seed001SlidingLink() {
    const std::string file = "seed001_sliding_link.pneumech.json";
    const Project pr = loadProject(projectPath(file));
    const FlexibleBodyDef& link = pr.mechanism.flexible_bodies.at(0);
    const double rho = link.material.at("density"), A = link.section.at("hy") * link.section.at("bz");
    CHECK_REL(A, 2.5e-5, 1e-12);
    QCOMPARE(link.elements, 20);
    auto r = runExample(file);
    QVERIFY2(r->ok(), r->message().c_str());
    const Mechanism nodes = beam::withNodeBodies(pr.mechanism);
    const double T = pr.simulation.t_end, tMid = 1.5;
    const size_t iMid = r->indexAt(tMid);
    QVERIFY(std::abs(r->t[iMid] - tMid) < 1e-12);
    double M = 0.0, linkMass = 0.0, y0 = 0.0, yT = 0.0, P = 0.0;
    for (const PartDef& p : nodes.parts) {
      if (p.ground) continue;
      if (p.id.rfind("link_n", 0) == 0) linkMass += p.mass;
      M += p.mass;
      y0 += p.mass * r->col(p.id + ".y").front();
      yT += p.mass * r->col(p.id + ".y").back();
      P += p.mass * r->col(p.id + ".vy")[iMid];
    }
    CHECK_REL(linkMass, rho * A * link.length, 1e-12);
    const ForceDef& push = forceOf(pr, "push");
    CHECK_REL(P, tableIntegral(push, "fy", tMid, false), 1e-6);
    const double travel = tableIntegral(push, "fy", T, true) / M;
    qInfo("centre of mass moved %.9f m, (1/M) integral (T - t) F dt = %.9f m; slide at %.6f m", (yT - y0) / M, travel,
          r->col("slide.displacement").back());
    QVERIFY(travel > 0.9 && travel < 1.0);
    CHECK_REL((yT - y0) / M, travel, 1e-6);

    const double EI = link.material.at("E") * std::pow(link.section.at("hy"), 4) / 12.0, mu = rho * A;
    const double bl = guidedTipMassRoot(pr.mechanism.parts.at(1).mass / (mu * link.length));
    const double closed = bl * bl / (link.length * link.length) * std::sqrt(EI / mu) / (2 * std::numbers::pi);
    const ModalResult modes = runModalAnalysis(pr, projectPath(file), {});
    const Mode* first = nullptr;
    // The free slide is a double root at 0, which rounding may split into a
    // slow "pair" (1e-6 Hz); the link's bending out of the plane is a
    // clamped one (0.73 Hz): the ringing is the first mode above 0.1 Hz that
    // moves the tip in the plane more than out of it.
    auto amplitude = [](const Mode& m, const std::string& ch) {
      for (const auto& c : m.channels)
        if (c.channel == ch) return c.amplitude;
      return 0.0;
    };
    for (const Mode& m : modes.modes)
      if (m.oscillating && m.naturalFrequency > 0.1 && amplitude(m, "link.tip_v") > amplitude(m, "link.tip_w") &&
          !first)
        first = &m;
    QVERIFY(first);
    const double ring = r->meanFrequency("link.tip_v", 3.0, T);
    qInfo("beta L = %.6f: closed form %.6f Hz, modal %.6f Hz (damped %.6f Hz, zeta %.4f), run rings at %.6f Hz", bl,
          closed, first->naturalFrequency, first->frequency, first->dampingRatio, ring);
    CHECK_REL(first->naturalFrequency, closed, 3e-3);
    CHECK_REL(ring, first->frequency, 1e-2);
    QVERIFY(r->maxAbs("link.tip_v", 2.0, 3.0) > 1e-3);
  }

  // Seed 001's third robot (its Table 2, third column: one element per
  // link): two links on revolute joints about world z. The elbow torque acts
  // between the links, so the machine's angular momentum about the shoulder
  // axis, sum m (x vy - y vx) + Izz wz over the node bodies and the payload,
  // is the shoulder torque's impulse at every row (an exact law of the
  // equations, kept by the integration to 1.5e-5 of its largest value at
  // rel_tol 1e-7, a quadratic invariant: tolerance 5e-5), and
  // zero once the torque ends; the elbow turns and both links bend while
  // the torques act (one stiff element each: the bending has died out by 2 s).
  void seed001TwoLink() {
    const std::string file = "seed001_two_link.pneumech.json";
    const Project pr = loadProject(projectPath(file));
    auto r = runExample(file);
    QVERIFY2(r->ok(), r->message().c_str());
    const Mechanism nodes = beam::withNodeBodies(pr.mechanism);
    for (const FlexibleBodyDef& link : pr.mechanism.flexible_bodies) {
      double m = 0.0;
      for (const PartDef& p : nodes.parts)
        if (p.id.rfind(link.id + "_n", 0) == 0) m += p.mass;
      CHECK_REL(m, link.material.at("density") * 2.5e-5 * link.length, 1e-12);
    }
    const ForceDef& tau = forceOf(pr, "shoulder_torque");
    const double biggest = tableIntegral(tau, "value", 1.0, false);
    double worst = 0.0;
    for (size_t i = 0; i < r->t.size(); ++i) {
      double H = 0.0;
      for (const PartDef& p : nodes.parts) {
        if (p.ground) continue;
        auto at = [&](const char* q) { return r->col(p.id + "." + q)[i]; };
        H += p.mass * (at("x") * at("vy") - at("y") * at("vx")) + p.inertia[2] * at("wz");
      }
      worst = std::max(worst, std::abs(H - tableIntegral(tau, "value", r->t[i], false)));
    }
    qInfo("angular momentum: largest %.6g N m s, off the impulse by at most %.3g", biggest, worst);
    QVERIFY(biggest > 0.05);
    QVERIFY2(worst < 5e-5 * biggest, qPrintable(QString::number(worst)));
    const double shoulder = r->col("shoulder.angle").back(), elbow = r->maxAbs("elbow.angle", 0.0, r->t.back());
    qInfo("shoulder ends at %.4f rad; the elbow turns by up to %.4f rad", shoulder, elbow);
    QVERIFY(std::abs(shoulder) > 0.1 && elbow > 0.05);
    QVERIFY(r->maxAbs("link1.tip_v", 0.0, 2.0) > 1e-3 && r->maxAbs("link2.tip_v", 0.0, 2.0) > 1e-4);
  }

  void seed003MeterOut() {
    auto r = runExample("seed003_meter_out.pneumech.json");
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    const auto x = r->col("cyl1.x"), pA = r->col("cyl1.pA"), pB = r->col("cyl1.pB"), Fs = r->col("cyl1.F_stop");
    const auto mB = r->col("cyl1.B.m"), q = r->col("fc1.q");
    const double L = 0.2, D = 0.032, d = 0.012, pAmb = 101325.0, Fload = 50.0, ps = 601325.0;
    // Before the valve switches at 0.1 s the piston stays at its rear stop.
    QVERIFY(x[r->indexAt(0.099)] < 1e-4);
    // It reaches the front stop before the end; motion time in a plausible band.
    size_t iEnd = 0;
    while (iEnd < x.size() && x[iEnd] < L - 1e-3) ++iEnd;
    QVERIFY2(iEnd < x.size(), "cylinder never reached its stroke");
    const double motion = r->t[iEnd] - 0.1;
    QVERIFY2(motion > 0.1 && motion < 0.8, QByteArray::number(motion));
    // At rest on the front stop: A at supply, B at ambient, and the stop takes
    // the static force balance p_A A_A - p_B A_B - p_amb A_rod - F_load (1e-3 rel.).
    const double AA = std::numbers::pi * D * D / 4, AB = std::numbers::pi * (D * D - d * d) / 4;
    QVERIFY(std::abs(pA.back() - ps) < 10.0);
    QVERIFY(std::abs(pB.back() - pAmb) < 10.0);
    const double balance = pA.back() * AA - pB.back() * AB - pAmb * (AA - AB) - Fload;
    QVERIFY2(std::abs(-Fs.back() - balance) < 1e-3 * balance,
             (std::to_string(Fs.back()) + " vs " + std::to_string(balance)).c_str());
    // Meter-out: mid-stroke, the rod-side air leaves only through the flow
    // control, so dm_B/dt (central difference) equals the flow-control flow into B.
    size_t mid = 0;
    while (x[mid] < L / 2) ++mid;
    const double dmdt = (mB[mid + 1] - mB[mid - 1]) / (r->t[mid + 1] - r->t[mid - 1]);
    QVERIFY2(std::abs(dmdt - q[mid]) < 0.01 * std::abs(q[mid]),
             (std::to_string(dmdt) + " vs " + std::to_string(q[mid])).c_str());
  }

  void reservoirBlowdown() {
    auto r = runExample("reservoir_blowdown.pneumech.json");
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    const auto p = r->col("tank.p"), T = r->col("tank.T"), m = r->col("tank.m");
    const auto mSrc = r->col("src.m_delivered"), mSil = r->col("sil.outlet.m_delivered");
    const double pAmb = 101325.0, Tamb = 293.15;
    const size_t iSwitch = r->indexAt(1.5);
    for (size_t i = 1; i <= iSwitch; ++i) QVERIFY(p[i] >= p[i - 1] - 1e-6);  // charging: monotone
    QVERIFY(p[iSwitch] > 4e5);
    QVERIFY(*std::max_element(T.begin(), T.begin() + iSwitch) > Tamb + 20);  // compression heating
    QVERIFY(*std::min_element(T.begin() + iSwitch, T.end()) < Tamb - 10);     // expansion cooling
    QVERIFY(p.back() < 1.1 * pAmb);
    for (size_t i = iSwitch + 10; i < p.size(); ++i) QVERIFY(p[i] <= p[i - 1] + 1e-6);  // blow-down: monotone
    // Mass balance: what the tank holds = what the supply delivered + what the
    // silencer took back (negative). The lines between have no volume, so they
    // store nothing. With p and T as states the balance holds to the
    // integration tolerance: at this project's rel_tol 1e-6 we measured 7e-6
    // of the peak tank mass over 4 s, hence the bound 2e-5 (test_volume_physics
    // checks 1e-6 closure at rel_tol 1e-9).
    const double mMax = *std::max_element(m.begin(), m.end());
    for (size_t i = 0; i < m.size(); i += 100)
      QVERIFY2(std::abs((m[i] - m[0]) - (mSrc[i] + mSil[i])) < 2e-5 * mMax,
               (std::to_string(r->t[i]) + ": " + std::to_string(m[i] - m[0]) + " vs " + std::to_string(mSrc[i] + mSil[i])).c_str());
  }
};

QTEST_APPLESS_MAIN(TestExamples)
#include "test_examples.moc"
