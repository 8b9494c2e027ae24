// The contact examples of issue 27 against numbers worked by hand:
// projects/contact_pick_drop (a gripper sequence: close, lift, open, the
// part falls) and projects/contact_pusher (a cylinder pushes a box along a
// conveyor's surface; it slides on until friction stops it) and
// projects/contact_tilting_chute (a pin held by friction on a tilting
// chute's floor until the friction angle); projects/contact_vblock_chute (a
// ball rolling down a V groove given as a triangle mesh from an STL file);
// projects/seed004_boom_docking
// (seed 004 sec. 4.1: a boom's tip guided by a funnel into a latch in space,
// or, too fast, the target spinning away) and projects/contact_clamp_docking
// (seed 004 sec. 4.2: satellite docking with four spring-loaded clamps,
// then undocking: the levers turned back open pneumatically, re-cocked).
#include "build/project_input.h"
#include "model/orientation.h"
#include "studies/study_definition.h"
#include "studies/study_runner.h"
#include "support/test_project.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <numbers>
#include <vector>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double g0 = 9.80665;

std::unique_ptr<Run> runExample(const std::string& name) {
  const std::string path = projectPath(name + ".pneumech.json");
  return simulate(loadProject(path), path);
}

// First sample index at or after `from` where `pred` holds.
template <class P>
size_t firstWhere(const Run& r, size_t from, P pred) {
  for (size_t i = from; i < r.t.size(); ++i)
    if (pred(i)) return i;
  return r.t.size();
}

// The first sample at which the clamp docking's sequence `cycle` is in
// step k or later (steps: 0 approach, 1 locked, 2 undock, 3 re-cocked).
size_t stepStart(const Run& r, double k) {
  const auto step = r.col("cycle.step");
  return firstWhere(r, 0, [&](size_t i) { return step[i] >= k; });
}

// projects/contact_clamp_docking's design (seed 004, sec. 4.2): handles
// (knobs of radius kKnob) at kPattern from the chaser's axis, 0.45 m below
// its centre; claws (bases kBase above the target's face, which is 0.5 m
// above its centre) on the same pattern. A knob clamped in its claw sits in
// a 90 deg V-groove (two faces at 45 deg) under the hook of a lever on a
// pivot at (kPivotX, kPivotZ) in the claw's frame, its hook's bottom face
// kHookHalf below the lever's axis at kArm from the pivot; a linear
// torsional spring (kSpring, free angle kFreeAngle) closes the lever.
constexpr double kPattern = 0.35, kBase = 0.02, kKnob = 0.015, kTrigger = 0.070;
constexpr double kArm = 0.06, kHookHalf = 0.005, kPivotX = 0.06;
constexpr double kSpring = 12.0, kFreeAngle = -1.0, kOpen = 1.5;
constexpr double kContactK = 1e7, kContactE = 1.5, kFeelerK = 10.0, kMount = 2e5, kMountTilt = 1000.0;
const double kPivotZ = kKnob * std::numbers::sqrt2 + kKnob + kHookHalf;
const std::array<std::string, 4> kClaws = {"px", "py", "mx", "my"};
// The sequence's delays (the project's `settled` and `hold_time`): locked
// once all four hooks have held their handles for kSettle, released after
// kHold; the linear momentum, the chaser's 150 kg at 0.1 m/s; all the mass:
// target 300 kg, chaser 150 kg, four claws of 2 kg and four levers of 0.2 kg.
constexpr double kSettle = 0.6, kHold = 0.5, kTotalMass = 458.8;
const Eigen::Vector3d kMomentum(0, 0, 150.0 * -0.1);

// The clamped equilibrium of one knob, frictionless and at rest (the
// four-fold symmetry centres every knob in its groove, x = y = 0 in the
// claw's frame): the hook pushes with Fh along its bottom face's normal n,
// each groove face with N at 45 deg, the trigger's feeler (a soft sphere of
// radius 70 mm - r about the claw's base) with kFeelerK (70 mm - h) along
// the groove's axis; the lever balances the spring's torque
// kSpring (theta - kFreeAngle) with Fh's moment about the pivot; each
// contact's penetration is (force / k)^(1/e). The hook's face, tilted by
// theta, also pushes the knob outwards with H = Fh sin(-theta): the claw
// takes -H at the contact point, height zQ above its base, on its elastic
// mount (kMount, kMountTilt), so in the claw's frame the knob sits
// x = H / kMount + h H zQ / kMountTilt outwards. Solved by fixed-point
// iteration (the penetrations are 0.7 mm at most).
struct Clamp {
  double h = 0, theta = 0, Fh = 0, N = 0, x = 0;
};
Clamp clampedByHand() {
  Clamp c;
  c.h = kKnob * std::numbers::sqrt2;
  auto face = [&](double th, double& nx, double& nz, double& qx, double& qz) {
    nx = -std::sin(th), nz = -std::cos(th);  // outward normal of the hook's bottom face
    const double px = kPivotX - kArm * std::cos(th) - kHookHalf * std::sin(th);
    const double pz = kPivotZ + kArm * std::sin(th) - kHookHalf * std::cos(th);
    const double gap = (c.x - px) * nx + (c.h - pz) * nz;  // knob centre's distance from the face
    qx = c.x - gap * nx - kPivotX, qz = c.h - gap * nz - kPivotZ;  // the contact point from the pivot
    return gap;
  };
  for (int it = 0; it < 200; ++it) {
    double nx, nz, qx, qz;
    const double want = kKnob - std::pow(c.Fh / kContactK, 1 / kContactE);
    double lo = -0.1, hi = 0.1;  // the face's gap grows with the angle
    for (int b = 0; b < 100; ++b) {
      const double mid = 0.5 * (lo + hi);
      (face(mid, nx, nz, qx, qz) < want ? lo : hi) = mid;
    }
    c.theta = 0.5 * (lo + hi);
    face(c.theta, nx, nz, qx, qz);
    c.Fh = kSpring * (c.theta - kFreeAngle) / (qz * -nx - qx * -nz);
    c.N = (-c.Fh * nz - kFeelerK * (kTrigger - c.h)) / std::numbers::sqrt2;
    c.h = std::numbers::sqrt2 * (kKnob - std::pow(c.N / kContactK, 1 / kContactE));
    const double H = c.Fh * nx;
    c.x = H / kMount + c.h * H * (qz + kPivotZ) / kMountTilt;
  }
  return c;
}

Eigen::Matrix3d rotationAt(const Run& r, const std::string& part, size_t i) {
  return rotationFromRpy(
      Vec3{r.col(part + ".roll")[i], r.col(part + ".pitch")[i], r.col(part + ".yaw")[i]});
}
Eigen::Vector3d positionAt(const Run& r, const std::string& part, size_t i) {
  return {r.col(part + ".x")[i], r.col(part + ".y")[i], r.col(part + ".z")[i]};
}

// Distance from claw c's base to its handle's centre at sample i, from the
// parts' poses.
double handleDistance(const Run& r, int c, size_t i) {
  const double phi = c * std::numbers::pi / 2;
  const Eigen::Vector3d knob =
      positionAt(r, "chaser", i) +
      rotationAt(r, "chaser", i) * Eigen::Vector3d(kPattern * std::cos(phi), kPattern * std::sin(phi), -0.45);
  return (knob - positionAt(r, "claw_" + kClaws[c], i)).norm();
}

// Linear momentum (x, y) and angular momentum about the world z axis of the
// free parts at sample i, for a mechanism moving in the xy-plane (each part
// turns about z only, so its world Izz is its part-axes Izz; part frames at
// the centres of mass).
struct PlanarMomentum {
  double px = 0, py = 0, Lz = 0;
};
std::vector<PlanarMomentum> planarMomentum(const Project& p, const Run& r) {
  std::vector<PlanarMomentum> m(r.t.size());
  for (const PartDef& part : p.mechanism.parts) {
    if (part.ground) continue;
    const auto x = r.col(part.id + ".x"), y = r.col(part.id + ".y"), vx = r.col(part.id + ".vx"),
               vy = r.col(part.id + ".vy"), wz = r.col(part.id + ".wz");
    for (size_t i = 0; i < m.size(); ++i) {
      m[i].px += part.mass * vx[i];
      m[i].py += part.mass * vy[i];
      m[i].Lz += part.mass * (x[i] * vy[i] - y[i] * vx[i]) + part.inertia[2] * wz[i];
    }
  }
  return m;
}

// Linear momentum of the free parts at every sample.
std::vector<Eigen::Vector3d> linearMomentum(const Run& r) {
  std::vector<Eigen::Vector3d> p(r.t.size(), Eigen::Vector3d::Zero());
  for (const PartDef& part : r.project.mechanism.parts) {
    if (part.ground) continue;
    std::array<std::vector<double>, 9> c;
    const char* names[9] = {"roll", "pitch", "yaw", "vx", "vy", "vz", "wx", "wy", "wz"};
    for (int k = 0; k < 9; ++k) c[k] = r.col(part.id + "." + names[k]);
    const Eigen::Vector3d cm(part.cm[0], part.cm[1], part.cm[2]);
    for (size_t i = 0; i < p.size(); ++i) {
      const Eigen::Vector3d w(c[6][i], c[7][i], c[8][i]);
      const Eigen::Vector3d arm = rotationFromRpy(Vec3{c[0][i], c[1][i], c[2][i]}) * cm;
      p[i] += part.mass * (Eigen::Vector3d(c[3][i], c[4][i], c[5][i]) + w.cross(arm));
    }
  }
  return p;
}

// Angular momentum about the world origin at every sample, of the free
// parts (or of the part `only`): the sum of m c x v_c + R J R^T w (c the
// centre of mass in the world, v_c its velocity, J the inertia about it in
// part axes, w world).
std::vector<Eigen::Vector3d> angularMomentum(const Run& r, const std::string& only = {}) {
  std::vector<Eigen::Vector3d> L(r.t.size(), Eigen::Vector3d::Zero());
  for (const PartDef& part : r.project.mechanism.parts) {
    if (part.ground || (!only.empty() && part.id != only)) continue;
    std::array<std::vector<double>, 12> c;
    const char* names[12] = {"x", "y", "z", "roll", "pitch", "yaw", "vx", "vy", "vz", "wx", "wy", "wz"};
    for (int k = 0; k < 12; ++k) c[k] = r.col(part.id + "." + names[k]);
    const auto& I = part.inertia;
    Eigen::Matrix3d J;
    J << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
    const Eigen::Vector3d cm(part.cm[0], part.cm[1], part.cm[2]);
    for (size_t i = 0; i < L.size(); ++i) {
      const Eigen::Matrix3d R = rotationFromRpy(Vec3{c[3][i], c[4][i], c[5][i]});
      const Eigen::Vector3d w(c[9][i], c[10][i], c[11][i]), arm = R * cm;
      const Eigen::Vector3d x = Eigen::Vector3d(c[0][i], c[1][i], c[2][i]) + arm;
      const Eigen::Vector3d v = Eigen::Vector3d(c[6][i], c[7][i], c[8][i]) + w.cross(arm);
      L[i] += part.mass * x.cross(v) + R * J * R.transpose() * w;
    }
  }
  return L;
}

// The largest change of the free parts' angular momentum from its start,
// and the largest change one part's own goes through (the scale of what
// the parts exchange).
struct AngularMomentumDrift {
  double drift = 0, exchanged = 0;
};
AngularMomentumDrift angularMomentumDrift(const Run& r) {
  AngularMomentumDrift d;
  const std::vector<Eigen::Vector3d> L = angularMomentum(r);
  for (const Eigen::Vector3d& l : L) d.drift = std::max(d.drift, (l - L.front()).norm());
  for (const PartDef& part : r.project.mechanism.parts) {
    if (part.ground) continue;
    const std::vector<Eigen::Vector3d> own = angularMomentum(r, part.id);
    for (const Eigen::Vector3d& l : own) d.exchanged = std::max(d.exchanged, (l - own.front()).norm());
  }
  return d;
}

}  // namespace

class TestContactExamples : public QObject {
  Q_OBJECT
 private slots:
  // The gripper sequence runs through its five steps. Lifted, the part
  // rises with the carriage (held by friction alone: the jaws' friction is
  // m (g + a_z)) and, let go, it falls freely:
  // from a sample after both jaws' forces vanish (z_f, v_f) it follows the
  // parabola and reaches the table (its centre at z = 0) at
  // t_f + (v_f + sqrt(v_f^2 + 2 g z_f)) / g.
  void pickAndDrop() {
    auto run = runExample("contact_pick_drop");
    QVERIFY2(run->ok(), run->message().c_str());
    QCOMPARE(run->col("seq.step").back(), 4.0);
    const double tLift = run->crossing("seq.step", 1.5, 0.0, Crossing::Rising);
    const double tOpen = run->crossing("seq.step", 2.5, 0.0, Crossing::Rising);
    QVERIFY2(tLift > 0.0 && tOpen > tLift, qPrintable(QString("lift at %1 s, open at %2 s").arg(tLift).arg(tOpen)));
    // Rises with the carriage: the part's height less the lift's travel stays (creep below 1e-4 m).
    const double z0 = run->at("part.z", tLift) - run->at("cyl2.x", tLift);
    double creep = 0.0;
    for (size_t i = run->indexAt(tLift); run->t[i] < tOpen; ++i)
      creep = std::max(creep, std::abs(run->col("part.z")[i] - run->col("cyl2.x")[i] - z0));
    qInfo("lift %.4g s, open %.4g s, creep while held %.3g m, lifted by %.6g m", tLift, tOpen, creep,
          run->at("part.z", tOpen) - run->at("part.z", tLift));
    QVERIFY2(creep < 1e-4, qPrintable(QString("creep %1 m").arg(creep)));
    QVERIFY(run->at("part.z", tOpen) - run->at("part.z", tLift) > 0.025);
    // The jaws' friction alone lifts it: m (g + a_z), m = 1 kg, at a sample while lifting.
    const size_t k = run->indexAt(0.5 * (tLift + tOpen));
    const double Ft = run->col("grip_moving.friction_force")[k] + run->col("grip_fixed.friction_force")[k];
    const double need = g0 + run->col("part.az")[k];
    qInfo("at %.4g s friction %.9g N, m (g + a) %.9g N", run->t[k], Ft, need);
    QVERIFY2(std::abs(Ft - need) < 1e-3 * g0, qPrintable(QString("friction %1 N, m (g + a) %2 N").arg(Ft).arg(need)));
    // Free flight: from the first sample with no force on the part but gravity.
    const auto Nm = run->col("grip_moving.normal_force"), Nf = run->col("grip_fixed.normal_force");
    const auto Fm = run->col("grip_moving.friction_force"), Ff = run->col("grip_fixed.friction_force");
    const auto onTable = run->col("table.in_contact");
    const size_t f = firstWhere(*run, run->indexAt(tOpen), [&](size_t i) {
      return Nm[i] + Nf[i] + Fm[i] + Ff[i] < 1e-9 && onTable[i] == 0.0;
    });
    QVERIFY(f < run->t.size());
    const double tf = run->t[f], zf = run->col("part.z")[f], vf = run->col("part.vz")[f];
    const double tLand = tf + (vf + std::sqrt(vf * vf + 2 * g0 * zf)) / g0;
    // The last sample before it lands: height and speed on the free-fall
    // parabola (to 1e-6), and the landing time by hand within the next output interval.
    const size_t last = firstWhere(*run, f, [&](size_t i) { return onTable[i + 1] != 0.0; });
    QVERIFY(last + 1 < run->t.size());
    const double tl = run->t[last], dt = tl - tf;
    const double zBall = zf + vf * dt - 0.5 * g0 * dt * dt, vBall = vf - g0 * dt;
    qInfo("free from %.6g s at z %.6g m, vz %.6g m/s: at %.6g s z %.9g m (parabola %.9g), vz %.9g m/s (%.9g); "
          "lands at %.8g s by hand, between samples %.6g and %.6g s",
          tf, zf, vf, tl, run->col("part.z")[last], zBall, run->col("part.vz")[last], vBall, tLand, tl, run->t[last + 1]);
    QVERIFY2(zf > 0.02, "falls from about the lift's height");
    QVERIFY(std::abs(run->col("part.z")[last] - zBall) < 1e-6);
    QVERIFY(std::abs(run->col("part.vz")[last] - vBall) < 1e-6);
    QVERIFY2(tLand > tl && tLand <= run->t[last + 1], "lands in the interval after the last free sample");
    QCOMPARE(onTable.back(), 1.0);
  }

  // The pusher: the rod drives the box 50 mm ahead of it along the
  // surface; when the rod slows down (the throttled stroke) the box leaves
  // it at x_sep with v_sep, for good, and slides on with mu_d g
  // deceleration: it stops v_sep^2 / (2 mu g) further on, at t_sep + v_sep / (mu g).
  void pusherSlidesBoxOn() {
    auto run = runExample("contact_pusher");
    QVERIFY2(run->ok(), run->message().c_str());
    const double mu = 0.4;
    // The first sample after the last separation (free sliding from there on).
    const auto touch = run->col("push.in_contact");
    size_t s = 0;
    for (size_t i = 1; i < touch.size(); ++i)
      if (touch[i - 1] > 0.5 && touch[i] < 0.5) s = i;
    QVERIFY2(s > 0, "the box leaves the rod");
    const double ts = run->t[s], xs = run->col("box.x")[s], vs = run->col("box.vx")[s];
    const double xEnd = xs + vs * vs / (2 * mu * g0), tStop = ts + vs / (mu * g0);
    const double x = run->col("box.x").back();
    qInfo("leaves the rod at %.6g s, x %.6g m, %.6g m/s: stops at x %.8g m by hand, %.8g m run (at %.5g s)", ts, xs, vs,
          xEnd, x, tStop);
    QCOMPARE(run->col("push.in_contact").back(), 0.0);
    QVERIFY2(xs > 0.06, "pushed along before it leaves");
    QVERIFY2(std::abs(x - xEnd) < 1e-5, qPrintable(QString("box ends at %1 m, by hand %2 m").arg(x).arg(xEnd)));
    QVERIFY2(std::abs(run->at("box.vx", tStop + 0.01)) < 1e-4, "at rest after the stop");
    QVERIFY(tStop < run->t.back());
  }

  // Unthrottled (valve conductances 1e-8 m^3/(s Pa)), the round rod hits the
  // box at about 2 m/s. Before the cylinder-box fix the run failed at the
  // impact (IDA_TOO_MUCH_WORK, t = 0.0910 s). The contact is nearly plastic
  // (its damping dominates): the rod (0.3 kg moving) and the box (2 kg)
  // take the common speed m_rod v0 / (m_rod + m_box) within 2 % (the rest is
  // the cylinder's pressure force during the 0.1 ms impact).
  void unthrottledPusherRunsThroughImpact() {
    const std::string path = projectPath("contact_pusher.pneumech.json");
    Project p = loadProject(path);
    for (auto& c : p.components)
      if (c.id == "v1") c.params["C_supply"] = c.params["C_exhaust"] = 1e-8;
    auto whole = simulate(p, path);
    QVERIFY2(whole->ok(), whole->message().c_str());
    QCOMPARE(whole->t.back(), 1.0);
    p.simulation.output_interval = 2e-5;  // samples through the 0.1 ms impact
    p.simulation.t_end = 0.1;
    auto run = simulate(p, path);
    QVERIFY2(run->ok(), run->message().c_str());
    const auto touch = run->col("push.in_contact"), vr = run->col("rod.vx"), vb = run->col("box.vx");
    const size_t i0 = firstWhere(*run, 1, [&](size_t i) { return touch[i] > 0.5; });
    QVERIFY(i0 < touch.size());
    const double v0 = vr[i0 - 1], mRod = 0.3, mBox = 2.0, vHand = mRod * v0 / (mRod + mBox);
    const size_t i1 = firstWhere(*run, i0, [&](size_t i) { return std::abs(vr[i] - vb[i]) < 0.01 * vb[i]; });
    QVERIFY(i1 < touch.size());
    qInfo("hits at %.6g m/s (t %.6g s); common speed %.6g m/s at %.6g s, plastic impact by hand %.6g m/s", v0,
          run->t[i0], vb[i1], run->t[i1], vHand);
    QVERIFY2(v0 > 2.0, "the unthrottled rod hits faster than 2 m/s");
    QVERIFY2(run->t[i1] - run->t[i0] < 0.005, "the impact is over within 5 ms");
    QVERIFY2(std::abs(vb[i1] - vHand) < 0.02 * vHand, qPrintable(QString("box %1 m/s, by hand %2 m/s").arg(vb[i1]).arg(vHand)));
  }

  // projects/contact_tilting_chute: a pin (63 g) on the floor of a conical
  // chute (a funnel-cylinder pair with a stick state, delta = 1 um) that
  // tilts from 0.1 to 0.4 rad. With the chute's floor at the tilt phi, the
  // pin's travel along it is s = x cos(phi) - z sin(phi) (the pivot through
  // its centre). Held while tan(phi) < mu_s = 0.3: from the settled start
  // (0.05 s) to 0.3 s (phi 0.25 rad) it moves by less than 2 delta = 2 um
  // (the bristle's deflection tan(phi) / sigma0 grows by 0.52 um, the rest
  // is the pin's pitch on its two end springs); there the friction is m g sin(phi)
  // and the normal force m g cos(phi) (to 1e-3 m g). It breaks away at
  // phi = atan(mu_s) = 0.29146 rad: the first sample 10 um further down
  // lies within 0.015 rad after it (about 5 ms to slide 10 um at
  // g cos(phi) (mu_s - mu_d), plus the 5 ms between samples, at 0.87 rad/s).
  void chuteHoldsUntilTheFrictionAngle() {
    const auto t0 = std::chrono::steady_clock::now();
    auto run = runExample("contact_tilting_chute");
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY2(run->ok(), run->message().c_str());
    const double m = 0.063, muS = 0.3, phiBreak = std::atan(muS);
    const auto phi = run->col("tilt_axis.angle"), x = run->col("pin.x"), z = run->col("pin.z");
    auto travel = [&](size_t i) { return x[i] * std::cos(phi[i]) - z[i] * std::sin(phi[i]); };
    const size_t settled = run->indexAt(0.05), held = run->indexAt(0.3);
    double creep = 0.0;
    for (size_t i = settled; i <= held; ++i) creep = std::max(creep, std::abs(travel(i) - travel(settled)));
    const double Ft = run->col("floor.friction_force")[held], N = run->col("floor.normal_force")[held];
    const size_t slid = firstWhere(*run, held, [&](size_t i) { return travel(i) - travel(settled) > 1e-5; });
    QVERIFY2(slid < run->t.size(), "the pin slides");
    qInfo("%.2f s wall; creep %.3g m to 0.3 s (phi %.6g); friction %.8g N (m g sin %.8g), normal %.8g N "
          "(m g cos %.8g); 10 um down at %.4g s, phi %.6g (atan(mu_s) %.6g); travelled %.4g m by %.3g s",
          sec, creep, phi[held], Ft, m * g0 * std::sin(phi[held]), N, m * g0 * std::cos(phi[held]), run->t[slid],
          phi[slid], phiBreak, travel(run->t.size() - 1) - travel(settled), run->t.back());
    QVERIFY2(creep < 2e-6, qPrintable(QString("creep %1 m").arg(creep)));
    QVERIFY2(std::abs(Ft - m * g0 * std::sin(phi[held])) < 1e-3 * m * g0, qPrintable(QString("friction %1").arg(Ft)));
    QVERIFY2(std::abs(N - m * g0 * std::cos(phi[held])) < 1e-3 * m * g0, qPrintable(QString("normal %1").arg(N)));
    QVERIFY2(phi[slid] >= phiBreak && phi[slid] < phiBreak + 0.015,
             qPrintable(QString("breaks away at %1 rad").arg(phi[slid], 0, 'g', 8)));
    QVERIFY(travel(run->t.size() - 1) - travel(settled) > 0.01);
  }
  // projects/contact_vblock_chute: a steel ball (r = 10 mm, m = 32.88 g,
  // I = 2/5 m r^2) rolls down a V groove tilted by theta = 5 deg, a
  // triangle mesh from an STL file. By hand: each flank makes the groove's
  // half-angle beta = 45 deg with the groove's plane of symmetry, so its
  // normal through the ball's centre meets the ball r sin(beta) below the
  // centre (across the groove). Rolling without slip on both flanks, the
  // ball turns about the line through the two contact points, at the
  // rolling radius rho = r sin(beta) from the centre: v = omega rho, and
  // along the chute m a = m g sin(theta) - F, I omega' = F rho, so
  //   a = g sin(theta) / (1 + I / (m rho^2)) = g sin(theta) / (1 + (2/5) / sin^2(beta))
  //     = (5/9) g sin(theta) = 0.474837 m/s^2 at beta = 45 deg.
  // Two effects of the model, by hand too: (1) the contact points lie
  // midway in the penetration d of each flank, where 2 N sin(beta) =
  // m g cos(theta) and N = k d^1.5 (d = 8.02 um), so rho = (r - d/2) sin(beta)
  // and a = 0.474667 m/s^2, 3.6e-4 below 5/9 g sin; (2) the friction is the
  // velocity law without a stick state (mu(s) = STEP(s, -v_s, -mu_s, v_s,
  // mu_s) below v_s), so the ball slips at the constant s where mu(s) 2 N =
  // m (g sin(theta) - a) (0.0612 mm/s): a constant slip keeps v' = rho omega',
  // so the acceleration is the rolling one (the slip settles within ~0.1 ms
  // of the landing: F' = -mu'(s) 2N (1/m + rho^2/I) s'). Checked: the
  // acceleration from the speed along the chute at 0.1 s and 1.0 s (after
  // the 0.5 mm drop, before the end face at ~1.07 s) to 1e-6 of the
  // corrected hand value (the integrator's rel_tol; 3e-8 seen), so the bare
  // 5/9 g sin (3.6e-4 away) fails; the normal force 2 N at every sample
  // between to 1e-6; the mean slip speed to 2e-3 of the hand s (a sample is
  // v - rho omega, resolved to the integrator's 1e-6 of v: 1-2 % noise); and
  // the ball hits the end face, bouncing back up the chute.
  void vblockChuteRollsAtFiveNinthsGSin() {
    auto run = runExample("contact_vblock_chute");
    QVERIFY2(run->ok(), run->message().c_str());
    const double theta = 5.0 * std::numbers::pi / 180.0, beta = std::numbers::pi / 4;
    const double r = 0.01, m = 4.0 / 3.0 * std::numbers::pi * r * r * r * 7850.0, I = 0.4 * m * r * r;
    const double k = 1e7, e = 1.5, muS = 0.3, vS = 1e-3;
    const double N = m * g0 * std::cos(theta) / (2 * std::sin(beta)), d = std::pow(N / k, 1 / e);
    const double rho = (r - d / 2) * std::sin(beta);
    const double aHand = g0 * std::sin(theta) / (1 + I / (m * rho * rho)), aBare = 5.0 / 9.0 * g0 * std::sin(theta);
    // mu(s) = F / (2 N) on the velocity law's cubic STEP, by bisection.
    const double mu = m * (g0 * std::sin(theta) - aHand) / (2 * N);
    double lo = 0.0, hi = vS;
    for (int i = 0; i < 200; ++i) {
      const double s = 0.5 * (lo + hi), u = (s + vS) / (2 * vS);
      (-muS + 2 * muS * u * u * (3 - 2 * u) < mu ? lo : hi) = s;
    }
    const double slipHand = 0.5 * (lo + hi);
    const auto vx = run->col("ball.vx"), vz = run->col("ball.vz"), Nrun = run->col("chute_contact.normal_force");
    const auto slip = run->col("chute_contact.slip_speed");
    auto along = [&](size_t i) { return vx[i] * std::cos(theta) - vz[i] * std::sin(theta); };
    const size_t i0 = run->indexAt(0.1), i1 = run->indexAt(1.0);
    const double a = (along(i1) - along(i0)) / (run->t[i1] - run->t[i0]);
    double worstN = 0.0, slipMean = 0.0;
    for (size_t i = i0; i <= i1; ++i) {
      worstN = std::max(worstN, std::abs(Nrun[i] - 2 * N));
      slipMean += slip[i] / double(i1 - i0 + 1);
    }
    const size_t hit = firstWhere(*run, i1, [&](size_t i) { return along(i) < 0.0; });
    qInfo("a %.9f m/s^2, by hand %.9f (%.2g), bare 5/9 g sin %.9f (%.2g); normal force off by %.3g N of %.6g; "
          "slip %.6g m/s, by hand %.6g (%.2g); moving back up from %.3g s",
          a, aHand, a / aHand - 1, aBare, a / aBare - 1, worstN, 2 * N, slipMean, slipHand, slipMean / slipHand - 1,
          hit < run->t.size() ? run->t[hit] : -1.0);
    QVERIFY2(std::abs(a - aHand) <= 1e-6 * aHand, qPrintable(QString("a %1, by hand %2").arg(a, 0, 'g', 10).arg(aHand, 0, 'g', 10)));
    QVERIFY(worstN <= 1e-6 * 2 * N);
    QVERIFY2(std::abs(slipMean - slipHand) <= 2e-3 * slipHand, qPrintable(QString("slip %1").arg(slipMean)));
    QVERIFY2(hit < run->t.size() && run->t[hit] > 1.0 && run->t[hit] < 1.1, "the ball hits the end face at ~1.07 s");
  }

  // projects/contact_clamp_docking, seed 004 sec. 4.2 (Figs. 8-12): the
  // chaser (150 kg) drifts at 0.1 m/s towards the target (300 kg) from
  // 150 mm, misaligned (5 mm, 0.02 rad). Each handle that comes within
  // 70 mm of its claw's base touches the claw's trigger; the trigger valve
  // lets air into a pin cylinder that pulls the sear (a latch holding the
  // lever open), and the torsional spring drives the lever, whose hook pulls
  // the handle into the claw. Checked: the trigger fires within 70 mm (the
  // distance from the parts' poses, from above 70 mm at the sample before to
  // at most 70 mm at its sample); each lever held open until its sear lets
  // go (within 30 ms of the trigger); all four clamped; at the last sample
  // before the sequence locks the levers (the springs alone hold them), the
  // chaser's pose relative to the target the clamped equilibrium by hand
  // (clampedByHand) to 1 um and 1e-6 rad, the hooks' force to 2e-4 and the
  // levers' angle to 1e-5 rad (0.6 um at the hook);
  // linear momentum (-15 N s along z) kept to 1e-6 of it over the whole
  // run (the release's actuators act inside the target too), the two
  // satellites moving on together at 15 N s / 458.8 kg (to 1e-5 m/s); the
  // mechanical energy up to the release never above its start (springs,
  // contacts and dampers only store or dissipate it) and before the lock what
  // the clamped springs and contacts hold plus the drift's kinetic energy,
  // to 1e-5.
  void clampDockingCapturesAllFour() {
    const Run& run = clampRun();
    QVERIFY2(run.ok(), run.message().c_str());
    const size_t clamped = stepStart(run, 1) - 1;
    QVERIFY(clamped + 1 < run.t.size());
    std::array<double, 4> tTrigger{};
    for (int c = 0; c < 4; ++c) {
      const std::string n = kClaws[c];
      const auto in = run.col("trigger_" + n + ".in_contact"), sear = run.col("sear_" + n + ".engaged");
      const auto angle = run.col("hinge_" + n + ".angle");
      const size_t i = firstWhere(run, 0, [&](size_t k) { return in[k] > 0.5; });
      QVERIFY2(i > 0 && i < run.t.size(), qPrintable(QString::fromStdString("trigger " + n + " never fires")));
      const double before = handleDistance(run, c, i - 1), at = handleDistance(run, c, i);
      const size_t free = firstWhere(run, 0, [&](size_t k) { return sear[k] < 0.5; });
      QVERIFY(free < run.t.size());
      double held = 0.0;
      for (size_t k = 0; k < free; ++k) held = std::max(held, std::abs(angle[k] - kOpen));
      tTrigger[c] = run.t[i];
      qInfo("claw %s: trigger at %.4g s, handle %.6g mm before, %.6g mm at it; sear lets go at %.4g s; "
            "lever open to %.3g rad until then",
            n.c_str(), run.t[i], 1e3 * before, 1e3 * at, run.t[free], held);
      QVERIFY2(before > kTrigger && at <= kTrigger, qPrintable(QString("trigger %1 at %2 m").arg(n.c_str()).arg(at)));
      QVERIFY2(run.t[free] > run.t[i] && run.t[free] < run.t[i] + 0.03, "the sear lets go after the trigger");
      QVERIFY2(held < 1e-6, "the sear holds the lever open until it lets go");
      QCOMPARE(run.col("hook_" + n + ".in_contact")[clamped], 1.0);
      QCOMPARE(run.col("seat_" + n + "_left.in_contact")[clamped], 1.0);
      QCOMPARE(run.col("seat_" + n + "_right.in_contact")[clamped], 1.0);
    }
    // Misaligned, one handle arrives first.
    QVERIFY(*std::min_element(tTrigger.begin(), tTrigger.end()) < *std::max_element(tTrigger.begin(), tTrigger.end()));
    // The clamped pose, relative to the target.
    const Clamp hand = clampedByHand();
    const Eigen::Matrix3d Rt = rotationAt(run, "target", clamped);
    const Eigen::Vector3d rel = Rt.transpose() * (positionAt(run, "chaser", clamped) - positionAt(run, "target", clamped));
    const Eigen::Matrix3d Rrel = Rt.transpose() * rotationAt(run, "chaser", clamped);
    const double turn = Eigen::AngleAxisd(Rrel).angle();
    const double zHand = 0.5 + kBase + hand.h + 0.45;
    qInfo("%.2f s wall; clamped at %.4g s: chaser at (%.3g, %.3g, %.9g) m from the target, by hand (0, 0, %.9g); "
          "turned %.3g rad; hook force %.8g N (by hand %.8g), lever at %.7g rad (%.7g)",
          clampSeconds_, run.t[clamped], rel.x(), rel.y(), rel.z(), zHand, turn,
          run.col("hook_px.normal_force")[clamped], hand.Fh, run.col("hinge_px.angle")[clamped], hand.theta);
    QVERIFY2(std::abs(rel.x()) < 1e-6 && std::abs(rel.y()) < 1e-6 && std::abs(rel.z() - zHand) < 1e-6,
             "the chaser's clamped position");
    QVERIFY2(turn < 1e-6, "the chaser's clamped orientation");
    for (const std::string& n : kClaws) {
      QVERIFY2(std::abs(run.col("hook_" + n + ".normal_force")[clamped] - hand.Fh) < 2e-4 * hand.Fh, n.c_str());
      QVERIFY2(std::abs(run.col("hinge_" + n + ".angle")[clamped] - hand.theta) < 1e-5, n.c_str());
    }
    // Momentum kept; the pair moves on at the common speed; no energy made.
    double drift = 0.0;
    for (const Eigen::Vector3d& p : linearMomentum(run)) drift = std::max(drift, (p - kMomentum).norm());
    const auto E = run.col("mechanism.E_total");
    const double Emax = *std::max_element(E.begin(), E.begin() + clamped + 1);
    const double common = kMomentum.z() / kTotalMass;
    qInfo("momentum off by %.3g N s at most; chaser and target at %.9g and %.9g m/s, common speed %.9g m/s; "
          "energy %.6g J at the start, at most %.6g J, %.6g J clamped",
          drift, run.col("chaser.vz")[clamped], run.col("target.vz")[clamped], common, E.front(), Emax, E[clamped]);
    QVERIFY2(drift < 1e-6 * kMomentum.norm(), "linear momentum kept");
    QVERIFY(std::abs(run.col("chaser.vz")[clamped] - common) < 1e-5);
    QVERIFY(std::abs(run.col("target.vz")[clamped] - common) < 1e-5);
    QVERIFY2(Emax <= E.front() * (1 + 1e-6), "no energy made");
    // What is left at rest: per claw the torsional spring, the contacts'
    // elastic energy k d^(e+1) / (e+1) (two seat faces, the hook; the
    // feeler's k d^2 / 2) and the mount's (H / kMount, tilt H zQ /
    // kMountTilt), and the pair's drift, p0^2 / (2 M).
    auto elastic = [](double F) { return kContactK * std::pow(F / kContactK, (kContactE + 1) / kContactE) / (kContactE + 1); };
    const double H = hand.Fh * std::sin(-hand.theta), zQ = hand.h + kKnob;
    const double perClaw = 0.5 * kSpring * std::pow(hand.theta - kFreeAngle, 2) + 2 * elastic(hand.N) + elastic(hand.Fh) +
                           0.5 * kFeelerK * std::pow(kTrigger - hand.h, 2) + 0.5 * H * H / kMount +
                           0.5 * std::pow(H * zQ, 2) / kMountTilt;
    const double Eleft = 4 * perClaw + kMomentum.squaredNorm() / (2 * kTotalMass);
    qInfo("energy left %.8g J, by hand %.8g J", E[clamped], Eleft);
    QVERIFY2(std::abs(E[clamped] - Eleft) < 1e-5 * Eleft, "the energy left in the clamps");
  }

  // The same run's sequence `cycle` (approach, locked, undock, re-cocked):
  // once all four hooks hold their handles (captured, every hook in
  // contact) without a break for kSettle (the timer `settled`), the step
  // "locked" engages the four locks (latches lock_*, fixing each lever on
  // its hinge); kHold later (the timer `hold_time`) the step "undock"
  // releases them (their `release` is the sequence's output `open`) and
  // opens the release valves; with all four sears caught again, the last
  // step. Checked: the steps come in order at the times the timers give,
  // each found from a timer's elapsed time at the sample before (exact to
  // 1e-9 s) and lying between that sample and the next (the output
  // interval, 1 ms); every lock engaged at exactly the samples of the
  // locked step; the levers held still while locked (1e-9 rad) and the
  // locks' engagement costing under 1 uJ (the clamp had settled); after
  // the release the levers open and the chaser leaves the target: their
  // gap along z grows by more than 50 mm by the end.
  void clampDockingLocksHoldsAndReleasesBySequence() {
    const Run& run = clampRun();
    QVERIFY2(run.ok(), run.message().c_str());
    const size_t iLock = stepStart(run, 1), iUndock = stepStart(run, 2), iCocked = stepStart(run, 3);
    const size_t last = run.t.size() - 1;
    QVERIFY2(0 < iLock && iLock < iUndock && iUndock < iCocked && iCocked < last, "the steps in order");
    QCOMPARE(run.col("cycle.step")[last], 3.0);
    // Locked kSettle after the capture's last onset.
    const auto captured = run.col("captured.out");
    const double tCapture = run.t[iLock - 1] - run.col("settled.elapsed")[iLock - 1];
    const double tLock = tCapture + kSettle;
    for (size_t i = run.indexAt(tCapture + 1e-9); i < iLock; ++i) QCOMPARE(captured[i], 1.0);
    QVERIFY2(run.t[iLock - 1] < tLock && tLock <= run.t[iLock] + 1e-12, "locked kSettle after the capture");
    // Released kHold after the lock.
    const double tHoldFrom = run.t[iUndock - 1] - run.col("hold_time.elapsed")[iUndock - 1];
    const double tUndock = tLock + kHold;
    qInfo("captured at %.9g s, locked at %.9g s (hold timer from %.9g s), released at %.9g s; re-cocked at %.4g s",
          tCapture, tLock, tHoldFrom, tUndock, run.t[iCocked]);
    QVERIFY2(std::abs(tHoldFrom - tLock) < 1e-9, "the hold starts at the lock step");
    QVERIFY2(run.t[iUndock - 1] < tUndock && tUndock <= run.t[iUndock] + 1e-12, "released kHold after the lock");
    for (const std::string& n : kClaws) {
      const auto lock = run.col("lock_" + n + ".engaged"), angle = run.col("hinge_" + n + ".angle");
      for (size_t i = 0; i <= last; ++i)
        QVERIFY2(lock[i] == ((i >= iLock && i < iUndock) ? 1.0 : 0.0),
                 qPrintable(QString("lock_%1 at %2 s").arg(n.c_str()).arg(run.t[i])));
      double turned = 0.0;
      for (size_t i = iLock; i < iUndock; ++i) turned = std::max(turned, std::abs(angle[i] - angle[iLock]));
      const double lost = run.col("lock_" + n + ".energy_lost")[iLock];
      qInfo("lock_%s: lever turned %.3g rad while locked; the engagement cost %.3g J; lever at %.6g rad at the end",
            n.c_str(), turned, lost, angle[last]);
      QVERIFY2(turned < 1e-9, "the lever held still while locked");
      QVERIFY2(lost >= 0.0 && lost < 1e-6, "locked at rest");
      QVERIFY2(angle[last] > kOpen - 0.005, "the lever open again");
    }
    // The chaser leaves the target.
    auto gap = [&](size_t i) { return run.col("chaser.z")[i] - run.col("target.z")[i]; };
    qInfo("gap along z: %.6g m locked, %.6g m at the end", gap(iUndock - 1), gap(last));
    QVERIFY2(gap(last) - gap(iUndock - 1) > 0.05, "the chaser leaves the target");
  }

  // The same run's angular momentum about the world origin (no gravity,
  // nothing tied to ground: contact, latch, spring, mount and actuator
  // forces all act between parts) stays at its start, (0.045, 0.075, 0)
  // kg m2/s (the chaser's 15 N s drift 5 mm and 3 mm off the origin),
  // through the capture, the release and the drift apart. The bound is the
  // integrator's tolerance, rel_tol (1e-6) of what the parts exchange: each
  // part's own angular momentum changes by up to `exchanged` (5.6 kg m2/s:
  // the first claws to close set chaser and target wobbling against each
  // other). A stray torque of 2e-5 N m on the target alone (what a
  // reaction left out would do) breaks it within the first second.
  void clampDockingKeepsAngularMomentum() {
    const Run& run = clampRun();
    QVERIFY2(run.ok(), run.message().c_str());
    const AngularMomentumDrift d = angularMomentumDrift(run);
    const double bound = run.project.simulation.rel_tol * d.exchanged;
    const Eigen::Vector3d L0 = angularMomentum(run).front();
    qInfo("angular momentum at the start (%.6g, %.6g, %.6g) kg m2/s, off by %.3g at most; a part's own changes by "
          "up to %.4g, bound %.3g",
          L0.x(), L0.y(), L0.z(), d.drift, d.exchanged, bound);
    QVERIFY2(std::abs(L0.x() - 0.045) < 1e-9 && std::abs(L0.y() - 0.075) < 1e-9 && std::abs(L0.z()) < 1e-9,
             "the chaser's drift off the origin");
    QVERIFY2(d.drift < bound, qPrintable(QString("angular momentum off by %1 kg m2/s").arg(d.drift)));
    // Broken: a torque on the target that nothing reacts.
    Project stray = run.project;
    stray.simulation.t_end = 1.0;
    ForceDef torque;
    torque.id = "stray";
    torque.type = "vtorque";
    torque.i = "target.claw_px";
    torque.params["tx"] = 2e-5;
    stray.mechanism.forces.push_back(torque);
    auto broken = simulate(stray, projectPath("contact_clamp_docking.pneumech.json"));
    QVERIFY2(broken->ok(), broken->message().c_str());
    const double off = angularMomentumDrift(*broken).drift;
    qInfo("with a stray 2e-5 N m on the target: off by %.3g kg m2/s", off);
    QVERIFY2(off > bound, "a stray torque shows");
  }

  // The same run's undocking: at the sequence's undock step (its output
  // `open`) the locks let go and the four release
  // valves, each filling (metered in) a semi-rotary actuator on a lever's
  // hinge that turns the lever back open against its spring, up to its end
  // stop at the cocked angle. The hooks let go; the feelers (10 N/m, no
  // damping) push the handles out of the grooves and the chaser off. Once
  // a handle is past 70 mm its trigger valve closes, the pin returns, and
  // the sear (engaged by the lever at 1.49 rad or more) catches the lever
  // again: re-cocked; with all four caught, the sequence's last step vents
  // the release valves.
  // Checked: every hook, seat and trigger free of its handle at the end,
  // every sear engaged with its lever within 0.005 rad of cocked, the
  // valves closed and the actuators at ambient pressure; the separation
  // speed (the chaser's velocity relative to the centre of mass of the
  // target, its claws and levers, which momentum gives: v_T = (p0 - m_c
  // v_c) / M_T) constant to 1e-9 m/s once the triggers are free; and by
  // hand, from the first sample where no seat or hook touches a handle
  // (for good), with the feelers the only springs left between the two
  // sides: 1/2 mu v^2 = 1/2 mu v_s^2 + sum 1/2 k d^2 (mu the reduced mass
  // 150 * 308.8 / 458.8 kg, d each feeler's penetration there), to 1e-4.
  // The feelers alone, from the unloaded groove (the knob just touching
  // both faces, sqrt(2) r above the base), give 30.71 mm/s; the seats'
  // elastic energy, not all handed back to the opening levers, adds the
  // speed v_s they hand the knob over with: the run lies within 5 % above.
  void clampDockingUndocksAndDriftsApart() {
    const Run& run = clampRun();
    QVERIFY2(run.ok(), run.message().c_str());
    const size_t last = run.t.size() - 1, from = stepStart(run, 2);
    const auto release = run.col("cycle.open");
    QVERIFY2(from < last && release[from - 1] < 0.5 && release[from] > 0.5, "the release starts at the undock step");
    QCOMPARE(release[last], 0.0);
    std::vector<std::vector<double>> touching;
    size_t freeOfTriggers = 0;
    for (const std::string& n : kClaws) {
      for (const std::string& c : {"hook_" + n, "seat_" + n + "_left", "seat_" + n + "_right"})
        touching.push_back(run.col(c + ".in_contact"));
      const auto trig = run.col("trigger_" + n + ".in_contact");
      for (size_t i = from; i <= last; ++i)
        if (trig[i] > 0.5) freeOfTriggers = std::max(freeOfTriggers, i + 1);
      const double angle = run.col("hinge_" + n + ".angle")[last], pA = run.col("recock_" + n + ".pA")[last];
      qInfo("claw %s at the end: sear %g, lever at %.6g rad, actuator at %.8g Pa", n.c_str(),
            run.col("sear_" + n + ".engaged")[last], angle, pA);
      QCOMPARE(run.col("sear_" + n + ".engaged")[last], 1.0);
      QVERIFY2(std::abs(angle - kOpen) < 0.005, "re-cocked");
      QVERIFY2(std::abs(pA - 101325.0) < 100.0, "the actuator vented");
    }
    size_t handOff = from;  // the first sample from which no seat or hook touches
    for (size_t i = from; i <= last; ++i)
      for (const auto& c : touching)
        if (c[i] > 0.5) handOff = i + 1;
    QVERIFY2(handOff < freeOfTriggers && freeOfTriggers + 100 < last, "hooks and seats let go, then the triggers");
    const double mc = 150.0, mT = kTotalMass - mc, mu = mc * mT / kTotalMass;
    const auto vc = run.col("chaser.vz");
    auto separation = [&](size_t i) { return vc[i] - (kMomentum.z() - mc * vc[i]) / mT; };
    double feelers = 0.0;
    for (const std::string& n : kClaws) feelers += 0.5 * kFeelerK * std::pow(run.col("trigger_" + n + ".penetration")[handOff], 2);
    const double vs = separation(handOff), v = separation(last);
    const double vHand = std::sqrt(vs * vs + 2 * feelers / mu);
    const double vGroove = std::sqrt(2 * 4 * 0.5 * kFeelerK * std::pow(kTrigger - std::numbers::sqrt2 * kKnob, 2) / mu);
    double wander = 0.0;
    for (size_t i = freeOfTriggers; i <= last; ++i) wander = std::max(wander, std::abs(separation(i) - v));
    qInfo("released at %.4g s; hooks and seats free from %.4g s (%.6g m/s apart, feelers %.8g J), triggers from %.4g s; "
          "separating at %.8g m/s, by hand %.8g m/s (%.2g); feelers from the groove %.6g m/s (+%.3g %%); "
          "constant to %.3g m/s",
          run.t[from], run.t[handOff], vs, feelers, run.t[freeOfTriggers], v, vHand, v / vHand - 1, vGroove,
          100 * (v / vGroove - 1), wander);
    QVERIFY2(std::abs(v - vHand) < 1e-4 * vHand, qPrintable(QString("separating at %1 m/s, by hand %2").arg(v).arg(vHand)));
    QVERIFY2(v > vGroove && v < 1.05 * vGroove, "the feelers' energy from the groove");
    QVERIFY2(wander < 1e-9, "drifting apart freely");
  }

  // projects/seed004_boom_docking, seed 004 sec. 4.1 (figs. 3-7, and the
  // parametric finding that "the velocity with which the chaser satellite
  // approached the target was too high. This caused the target to spin
  // away when the funnel was impacted by the boom"). No gravity and no part
  // tied to ground: cylinder, contact and latch forces are internal, so the
  // momentum of chaser + boom + target stays zero, at every sample, to
  // 1e-9 kg m/s (the boom alone carries up to 13 kg m/s) and 2e-4 kg m^2/s
  // (the spinning target alone up to 6 kg m^2/s; at rel_tol 1e-6 a free
  // body's spin drifts by about 9e-6 of itself per second, 6e-10 at 1e-8).
  // Slow (throttle opening 0.05) the tip meets the funnel at under 0.5 m/s,
  // the latch engages,
  // the boom retracts, and the docked pair ends at rest (zero momentum in one
  // rigid body: |v| < 1e-6 m/s, |w| < 1e-6 rad/s). Fast (opening 1.0, over
  // 1 m/s) it never latches and the target spins away free: over the last
  // second its velocity constant to 1e-9 m/s and its spin to 2e-5 of itself,
  // at least 3 times the slow run's largest spin, the gap to the chaser growing. The project's
  // study approach_speed gives the same two outcomes.
  void boomDockingSlowLatchesFastSpinsAway() {
    const std::string path = projectPath("seed004_boom_docking.pneumech.json");
    const Project slowP = loadProject(path);
    Project fastP = slowP;
    for (auto& c : fastP.components)
      if (c.id == "fc1") c.params["opening"] = 1.0;
    auto slow = simulate(slowP, path), fast = simulate(fastP, path);
    QVERIFY2(slow->ok(), slow->message().c_str());
    QVERIFY2(fast->ok(), fast->message().c_str());
    for (const auto* r : {slow.get(), fast.get()}) {
      double worstP = 0, worstL = 0;
      for (const PlanarMomentum& m : planarMomentum(slowP, *r)) {
        worstP = std::max(worstP, std::hypot(m.px, m.py));
        worstL = std::max(worstL, std::abs(m.Lz));
      }
      qInfo("%s: largest |p| %.3g kg m/s, |L_z| %.3g kg m2/s", r == slow.get() ? "slow" : "fast", worstP, worstL);
      QVERIFY2(worstP < 1e-9, qPrintable(QString("momentum %1 kg m/s").arg(worstP)));
      QVERIFY2(worstL < 2e-4, qPrintable(QString("angular momentum %1 kg m2/s").arg(worstL)));
    }
    auto approach = [](const Run& r) {  // the boom's speed at the first contact with the funnel
      const auto touch = r.col("dock.in_contact");
      const size_t i = firstWhere(r, 0, [&](size_t k) { return touch[k] > 0.5; });
      return i < r.t.size() ? r.col("boom.vx")[i - 1] - r.col("chaser.vx")[i - 1] : 0.0;
    };
    // Slow: latched, retracted, at rest.
    const auto eng = slow->col("catch.engaged");
    const size_t iLatch = firstWhere(*slow, 0, [&](size_t k) { return eng[k] > 0.5; });
    QVERIFY2(iLatch < eng.size(), "the slow approach latches");
    QVERIFY(std::all_of(eng.begin() + iLatch, eng.end(), [](double e) { return e > 0.5; }));
    const auto wSlow = slow->col("target.wz");
    double spinBefore = 0;
    for (size_t i = 0; i < iLatch; ++i) spinBefore = std::max(spinBefore, std::abs(wSlow[i]));
    double restV = 0, restW = 0;
    for (const char* part : {"chaser", "boom", "target"}) {
      const std::string id = part;
      restV = std::max({restV, std::abs(slow->col(id + ".vx").back()), std::abs(slow->col(id + ".vy").back())});
      restW = std::max(restW, std::abs(slow->col(id + ".wz").back()));
    }
    const double gap0 = slow->col("target.x")[0] - slow->col("chaser.x")[0];
    const double gapSlow = slow->col("target.x").back() - slow->col("chaser.x").back();
    qInfo("slow: %.3g m/s at the funnel, latched at %.4g s (energy lost %.4g J), spin before %.3g rad/s; "
          "at the end cyl1.x %.3g m, gap %.4g m (from %.4g), |v| %.3g m/s, |w| %.3g rad/s",
          approach(*slow), slow->t[iLatch], slow->col("catch.energy_lost").back(), spinBefore, slow->col("cyl1.x").back(),
          gapSlow, gap0, restV, restW);
    QVERIFY(approach(*slow) > 0.05 && approach(*slow) < 0.5);
    QVERIFY2(slow->col("cyl1.x").back() < 1e-3, "the boom retracted");
    QVERIFY2(gapSlow < gap0 - 0.1, "the boom pulled the target in");
    QVERIFY2(restV < 1e-6 && restW < 1e-6, qPrintable(QString("docked pair at %1 m/s, %2 rad/s").arg(restV).arg(restW)));
    // Fast: never latched; the target spins away as a free body.
    const auto engF = fast->col("catch.engaged"), touchF = fast->col("dock.in_contact");
    QVERIFY2(std::all_of(engF.begin(), engF.end(), [](double e) { return e < 0.5; }), "the fast approach latched");
    const size_t last = fast->t.size() - 1, lastS = fast->indexAt(fast->t.back() - 1.0);
    QVERIFY(std::all_of(touchF.begin() + lastS, touchF.end(), [](double e) { return e < 0.5; }));
    const double w = fast->col("target.wz")[last];
    const double dw = std::abs(w - fast->col("target.wz")[lastS]);
    double drift = 0;
    for (const char* q : {"target.vx", "target.vy"})
      drift = std::max(drift, std::abs(fast->col(q)[last] - fast->col(q)[lastS]));
    const double gapFast = fast->col("target.x")[last] - fast->col("chaser.x")[last];
    const double opening = fast->col("target.vx")[last] - fast->col("chaser.vx")[last];
    qInfo("fast: %.3g m/s at the funnel; the target spins at %.4g rad/s (%.3g times the slow run's), change over "
          "the last second %.3g rad/s, of its velocity %.3g m/s; gap %.4g m, opening at %.3g m/s",
          approach(*fast), w, std::abs(w) / spinBefore, dw, drift, gapFast, opening);
    QVERIFY(approach(*fast) > 1.0);
    QVERIFY2(std::abs(w) > 3 * spinBefore, qPrintable(QString("target spin %1 rad/s").arg(w)));
    QVERIFY2(drift < 1e-9, qPrintable(QString("free target's velocity changed by %1 m/s").arg(drift)));
    QVERIFY2(dw < 2e-5 * std::abs(w), qPrintable(QString("free target's spin changed by %1 rad/s").arg(dw)));
    QVERIFY2(gapFast > gap0 && opening > 0.0, "the target drifts away");
    // The study: the same two outcomes, row by row.
    const studies::StudySetup setup = studies::prepareStudy(slowP, path, studies::projectStudies(slowP, path).at(0));
    const auto points = studies::studyVariants(setup.study);
    QCOMPARE(points.size(), size_t(2));
    const auto rows = studies::evaluateLocally(setup, points, 1);
    const auto latched = [&](size_t i) { return studies::variantValue(setup, points[i], rows[i], "final(catch.engaged)"); };
    const auto spin = [&](size_t i) { return studies::variantValue(setup, points[i], rows[i], "final(target.wz)"); };
    QVERIFY2(rows[0].ok && rows[1].ok, (rows[0].message + rows[1].message).c_str());
    QCOMPARE(latched(0), 1.0);
    QCOMPARE(latched(1), 0.0);
    QCOMPARE(spin(0), slow->col("target.wz").back());
    QCOMPARE(spin(1), w);
  }

  // Seed 004's second finding on the boom docking: "the latching mechanism
  // was not quick enough, thus the boom tip that ran into the latching
  // mechanism was retracted ... before the mechanism latched". Slow approach,
  // the latch given params.closing_time 0.05 s: the tip comes within the
  // 7 mm capture radius at about 1.259 s (where the instant latch engages)
  // and, at about 0.37 m/s, runs through the zone in about 37 ms (a 12 mm
  // chord 3.3 mm off the catch point), so it has left before 0.05 s are
  // up: never engaged, the boom never retracts. 0.02 s (shorter than the
  // passage) still catches it, 0.02 s after the onset.
  void boomDockingSlowLatchMisses() {
    const std::string path = projectPath("seed004_boom_docking.pneumech.json");
    Project p = loadProject(path);
    for (const double ct : {0.05, 0.02}) {
      p.mechanism.latches.at(0).params["closing_time"] = ct;
      auto run = simulate(p, path);
      QVERIFY2(run->ok(), run->message().c_str());
      const double onset = run->col("catch.condition_time").back();
      const auto d = run->col("catch.distance");
      double lastInside = 0;
      for (size_t i = 0; i < d.size(); ++i)
        if (d[i] <= 0.007 && run->t[i] >= onset) lastInside = run->t[i];
      qInfo("closing %.3g s: condition at %.6g s, last sample inside at %.4g s, engaged %g at %.6g s", ct, onset,
            lastInside, run->col("catch.engaged").back(), run->col("catch.engage_time").back());
      QVERIFY(onset > 1.25 && onset < 1.27);
      if (ct > 0.04) {
        QVERIFY2(lastInside - onset < ct, "the tip left the zone before the latch closed");
        QCOMPARE(run->maxAbs("catch.engaged", 0, 10), 0.0);
        QCOMPARE(run->col("catch.engage_time").back(), -1.0);
        QVERIFY2(run->col("cyl1.x").back() > 0.3, "the boom did not retract");
      } else {
        QCOMPARE(run->col("catch.engaged").back(), 1.0);
        QVERIFY(std::abs(run->col("catch.engage_time").back() - (onset + ct)) < 1e-9);
        QVERIFY2(run->col("cyl1.x").back() < 1e-3, "the boom retracted");
      }
    }
  }

 private:
  // projects/contact_clamp_docking, run once for the three tests above.
  const Run& clampRun() {
    if (!clamp_) {
      const auto t0 = std::chrono::steady_clock::now();
      clamp_ = runExample("contact_clamp_docking");
      clampSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    return *clamp_;
  }
  std::unique_ptr<Run> clamp_;
  double clampSeconds_ = 0.0;
};

QTEST_GUILESS_MAIN(TestContactExamples)
#include "test_contact_examples.moc"
