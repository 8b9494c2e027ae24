// Every example project in projects/ loads, runs, and shows the physics it is
// there to show. Numbers are checked against hand formulas where one exists.
#include "analyses/simulation.h"
#include "build/project_input.h"
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
    "sizing_lift",     "seed001_flexible_link", "contact_pick_drop", "contact_pusher",
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
    // (1/J) integral_0^T (T - t) tau dt for the piecewise linear table (Simpson: exact per segment).
    const ForceDef& tau = pr.mechanism.forces.at(0);
    const double T = pr.simulation.t_end, scale = tau.params.at("value");
    double impulse = 0.0;
    for (size_t i = 1; i < tau.table.size(); ++i) {
      const auto [t0, a] = tau.table[i - 1];
      const auto [t1, b] = tau.table[i];
      const double tm = 0.5 * (t0 + t1);
      impulse += (t1 - t0) / 6.0 * ((T - t0) * a + 4 * (T - tm) * 0.5 * (a + b) + (T - t1) * b) * scale;
    }
    const double want = impulse / J, got = moment / J;
    qInfo("inertia-weighted angle %.6f rad, rigid link %.6f rad; hub %.6f rad", got, want, r->col("hub.angle").back());
    QVERIFY(want > 0.25 && want < 0.35);
    CHECK_REL(got, want, 1e-3);
    const double ring = r->maxAbs("link.tip_v", 2.0, 3.0), late = r->maxAbs("link.tip_v", T - 2.0, T);
    QVERIFY2(ring > 1e-3, qPrintable(QString::number(ring)));
    QVERIFY2(late < 0.1 * ring, qPrintable(QString::number(late)));
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
