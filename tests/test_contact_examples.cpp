// The contact examples of issue 27 against numbers worked by hand:
// projects/contact_pick_drop (a gripper sequence: close, lift, open, the
// part falls) and projects/contact_pusher (a cylinder pushes a box along a
// conveyor's surface; it slides on until friction stops it) and
// projects/contact_tilting_chute (a pin held by friction on a tilting
// chute's floor until the friction angle).
#include "build/project_input.h"
#include "support/test_project.h"

#include <QtTest/QtTest>

#include <chrono>
#include <cmath>

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
};

QTEST_GUILESS_MAIN(TestContactExamples)
#include "test_contact_examples.moc"
