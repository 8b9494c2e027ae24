// Key results against numbers derived by hand: synthetic result stores with
// ramps whose crossing times, speeds and energies are exact, then a real run
// of the seed-003 example checked against its own channels.
#include "build/project_input.h"
#include "model/project_error.h"
#include "pneumatics/gas.h"
#include "results/bill_of_materials.h"
#include "results/conclusion.h"
#include "results/key_results.h"
#include "results/report_settings.h"
#include "results/stroke_signal.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace pm;
using namespace pm::test;

namespace {

// A store sampled every dt from 0 to tEnd with the given channel functions.
void synthetic(ResultStore& rs, double tEnd, double dt, const std::vector<std::pair<std::string, std::string>>& names,
               const std::vector<std::function<double(double)>>& f) {
  std::vector<ChannelInfo> ch;
  for (const auto& [n, u] : names) ch.push_back({n, u});
  rs.setChannels(ch);
  const int n = int(std::lround(tEnd / dt));
  std::vector<double> row(f.size());
  for (int i = 0; i <= n; ++i) {
    const double t = i * dt;
    for (size_t k = 0; k < f.size(); ++k) row[k] = f[k](t);
    rs.append(t, row.data());
  }
}

// Cylinder (stroke 0.2 m, mass 4 kg) and a supply, over 2 s.
Project cylinderProject() {
  Project p;
  p.meta.title = "synthetic";
  p.components.push_back(comp("cyl1", "cylinder_double", {{"stroke", 0.2}, {"mass", 4.0}}));
  p.components.back().label = "1A1";
  p.components.push_back(comp("src", "supply", {{"p", 601325.0}}));
  p.simulation.t_end = 2.0;
  return p;
}

// x: rest at 0 until 0.1 s, out at 0.5 m/s to the stroke end (0.5 s), rest,
// back at 0.4 m/s from 1.0 s (home at 1.5 s). v is its derivative.
double xCycle(double t) {
  if (t <= 0.1) return 0.0;
  if (t <= 0.5) return 0.5 * (t - 0.1);
  if (t <= 1.0) return 0.2;
  if (t <= 1.5) return 0.2 - 0.4 * (t - 1.0);
  return 0.0;
}
double vCycle(double t) {
  if (t > 0.1 && t < 0.5) return 0.5;
  if (t > 1.0 && t < 1.5) return -0.4;
  return 0.0;
}

const std::vector<std::pair<std::string, std::string>> kCylChannels = {
    {"cyl1.x", "m"}, {"cyl1.v", "m/s"}, {"cyl1.pA", "Pa"}, {"cyl1.pB", "Pa"}, {"cyl1.F_pressure", "N"}, {"src.m_delivered", "kg"}};

// The words of stroke k's line (from 1) in the text key results, or none.
QStringList strokeLine(const KeyResults& kr, int k) {
  for (const QString& line : QString::fromStdString(kr.toText()).split('\n'))
    if (line.startsWith(QString("  %1 ").arg(k, -2))) return line.simplified().split(' ');
  return {};
}

}  // namespace

class TestKeyResults : public QObject {
  Q_OBJECT
 private slots:
  void rampCycle() {
    const Project p = cylinderProject();
    ResultStore rs;
    synthetic(rs, 2.0, 1e-3, kCylChannels,
                                     {xCycle, vCycle, [](double t) { return 101325.0 + 2.5e5 * t; },
                                      [](double) { return 2e5; }, [](double t) { return 300.0 * std::sin(M_PI * t / 2); },
                                      [](double t) { return 2.37e-3 * t / 2.0; }});
    const KeyResults kr = computeKeyResults(p, rs);
    qInfo("%s", kr.toText().c_str());
    QCOMPARE(kr.cylinders.size(), size_t(1));
    const CylinderResult& c = kr.cylinders[0];
    QCOMPARE(c.strokes.size(), size_t(2));
    const StrokeResult& e = c.strokes[0];
    const StrokeResult& r = c.strokes[1];
    QVERIFY(e.extend && e.complete && !r.extend && r.complete);
    // Leaves 1 % (2 mm) at 0.1 + 0.002/0.5, reaches 99 % (198 mm) at 0.1 + 0.198/0.5.
    CHECK_ABS(e.tStart, 0.104, 1e-9);
    CHECK_ABS(e.tEnd, 0.496, 1e-9);
    CHECK_ABS(e.duration(), 0.392, 1e-9);
    CHECK_ABS(e.tContact, 0.5, 1e-9);
    CHECK_ABS(e.vArrival, 0.5, 1e-9);
    CHECK_ABS(e.eArrival, 0.5 * 4.0 * 0.25, 1e-9);
    CHECK_ABS(e.vMax, 0.5, 1e-12);
    // Back: leaves 198 mm at 1.0 + 0.002/0.4, reaches 2 mm at 1.0 + 0.198/0.4.
    CHECK_ABS(r.tStart, 1.005, 1e-9);
    CHECK_ABS(r.tEnd, 1.495, 1e-9);
    CHECK_ABS(r.tContact, 1.5, 1e-9);
    CHECK_ABS(r.vArrival, 0.4, 1e-9);
    CHECK_ABS(r.eArrival, 0.5 * 4.0 * 0.16, 1e-9);
    QCOMPARE(c.firstStroke(true), &c.strokes[0]);
    QCOMPARE(c.firstStroke(false), &c.strokes[1]);
    CHECK_ABS(c.vMax, 0.5, 1e-12);
    // Peaks: pA ramps to 101325 + 5e5 Pa at 2 s, i.e. 5 bar gauge.
    CHECK_ABS(c.pAMax, 601325.0, 1e-6);
    CHECK_ABS(c.pAMax - kr.ambientPressure, 5e5, 1e-6);
    CHECK_ABS(c.pBMax, 2e5, 1e-9);
    CHECK_ABS(c.forceMax, 300.0, 1e-9);
    // Cycle: first start to last end, back home: closed.
    QVERIFY(kr.hasCycle && kr.cycleClosed);
    CHECK_ABS(kr.cycleTime(), 1.495 - 0.104, 1e-9);
    // Air: 2.37 g / 1.185 kg/m3 = 2 Nl; default rate 60 / t_end = 30 per minute.
    CHECK_REL(kr.airNormalLitres, 2.0, 1e-12);
    CHECK_REL(kr.cyclesPerMinute, 30.0, 1e-12);
    CHECK_REL(kr.airNormalLitresPerMinute(), 60.0, 1e-12);
    QCOMPARE(kr.supplies.size(), size_t(1));
    CHECK_REL(kr.supplies[0].normalLitres, 2.0, 1e-12);

    // No catalogue cushioning energy: nothing flagged.
    QVERIFY(!e.exceedsCushioning && !r.exceedsCushioning);
    // Catalogue allows 0.4 J: the 0.5 J extension exceeds it, the 0.32 J retraction does not.
    {
      Project q = p;
      q.components[0].params["E_cushion_max"] = 0.4;
      const KeyResults kq = computeKeyResults(q, rs);
      QVERIFY(kq.cylinders[0].strokes[0].exceedsCushioning);
      QVERIFY(!kq.cylinders[0].strokes[1].exceedsCushioning);
      QVERIFY(kq.toText().find("EXCEEDS") != std::string::npos);
      QCOMPARE(kq.toJson()["cylinders"][0]["strokes"][0]["exceeds_cushioning"].get<bool>(), true);
    }

    KeyResultOptions o;
    o.cyclesPerMinute = 12;
    CHECK_REL(computeKeyResults(p, rs, o).airNormalLitresPerMinute(), 24.0, 1e-12);

    const auto j = kr.toJson();
    CHECK_ABS(j["cylinders"][0]["extension_time_s"].get<double>(), 0.392, 1e-9);
    CHECK_ABS(j["cylinders"][0]["retraction_time_s"].get<double>(), 0.49, 1e-9);
    CHECK_ABS(j["machine"]["cycle_time_s"].get<double>(), 1.391, 1e-9);
    CHECK_REL(j["machine"]["air_Nl_per_cycle"].get<double>(), 2.0, 1e-12);
  }

  // The stroke time from the valve signal (issue #20, point 6). The cylinder
  // of rampCycle, driven by a 5/2 valve (4 -> A directly, 2 -> B through a
  // flow control and a tube) whose spool channel ramps at 1/t_switch: the
  // command instants lie off the output grid, at 0.0503 s and 0.9007 s, and
  // are found from the ramp to 1e-9 s. Hand figures: the extension leaves
  // 1 % at 0.104 s and ends at 0.496 s, so from signal 0.496 - 0.0503; the
  // retraction 1.005 .. 1.495 s, from signal 1.495 - 0.9007.
  void timeFromSignal() {
    Project p = cylinderProject();
    p.components.push_back(comp("v1", "valve_5_2", {{"t_switch", 0.02}}));
    p.components.push_back(comp("fc1", "flow_control_one_way"));
    p.components.push_back(comp("tb1", "tube"));
    p.components.push_back(comp("v2", "valve_3_2_nc"));  // on the supply side only: not a driving valve
    wire(p, "src.1", "v1.1");
    wire(p, "src.1", "v2.1");
    wire(p, "v2.2", "v1.1");
    wire(p, "v1.4", "cyl1.A");
    wire(p, "v1.2", "fc1.1");
    wire(p, "fc1.2", "tb1.1");
    wire(p, "tb1.2", "cyl1.B");
    QCOMPARE(drivingValves(p, "cyl1"), std::vector<std::string>{"v1"});
    const double on = 0.0503, off = 0.9007, ts = 0.02;
    auto spool = [=](double t) { return std::clamp((t - on) / ts, 0.0, 1.0) - std::clamp((t - off) / ts, 0.0, 1.0); };
    auto withValve = kCylChannels;
    withValve.push_back({"v1.s", "1"});
    withValve.push_back({"v2.s", "1"});
    ResultStore rs;
    synthetic(rs, 2.0, 1e-3, withValve,
              {xCycle, vCycle, [](double) { return 2e5; }, [](double) { return 2e5; }, [](double) { return 0.0; },
               [](double) { return 0.0; }, spool, [](double t) { return t > 0.5 ? 1.0 : 0.0; }});
    const KeyResults kr = computeKeyResults(p, rs);
    qInfo("%s", kr.toText().c_str());
    const StrokeResult& e = kr.cylinders[0].strokes.at(0);
    const StrokeResult& r = kr.cylinders[0].strokes.at(1);
    CHECK_ABS(e.tSignal, on, 1e-9);
    CHECK_ABS(e.fromSignal(), 0.496 - on, 1e-9);
    CHECK_ABS(e.duration(), 0.392, 1e-9);
    QCOMPARE(e.valve, std::string("v1"));
    CHECK_ABS(r.tSignal, off, 1e-9);
    CHECK_ABS(r.fromSignal(), 1.495 - off, 1e-9);
    const auto j = kr.toJson()["cylinders"][0];
    CHECK_ABS(j["extension_time_from_signal_s"].get<double>(), 0.496 - on, 1e-9);
    CHECK_ABS(j["retraction_time_from_signal_s"].get<double>(), 1.495 - off, 1e-9);
    CHECK_ABS(j["strokes"][0]["t_signal_s"].get<double>(), on, 1e-9);
    CHECK_ABS(j["strokes"][0]["movement_time_s"].get<double>(), 0.392, 1e-9);
    QVERIFY(kr.toText().find("from signal") != std::string::npos);

    // A switching time shorter than the output interval: the instant is
    // known to one interval (the spool's whole travel lies between two samples).
    Project q = p;
    q.components[2].params["t_switch"] = 1e-4;
    ResultStore fast;
    synthetic(fast, 2.0, 1e-3, withValve,
              {xCycle, vCycle, [](double) { return 2e5; }, [](double) { return 2e5; }, [](double) { return 0.0; },
               [](double) { return 0.0; }, [=](double t) { return t > on ? 1.0 : 0.0; }, [](double) { return 0.0; }});
    const KeyResults fastResults = computeKeyResults(q, fast);
    const StrokeResult& f = fastResults.cylinders[0].strokes.at(0);
    QVERIFY(f.tSignal >= 0.050 && f.tSignal <= 0.051);

    // The spool never moves before the first stroke: in position since the
    // start, the run's start is the signal. No driving valve: none.
    ResultStore still;
    synthetic(still, 2.0, 1e-3, withValve,
              {xCycle, vCycle, [](double) { return 2e5; }, [](double) { return 2e5; }, [](double) { return 0.0; },
               [](double) { return 0.0; }, [](double) { return 1.0; }, [](double) { return 0.0; }});
    const KeyResults ks = computeKeyResults(p, still);
    QCOMPARE(ks.cylinders[0].strokes.at(0).tSignal, 0.0);
    QVERIFY(!ks.cylinders[0].strokes.at(1).hasSignal());  // the valve did not switch back
    QVERIFY(!computeKeyResults(cylinderProject(), rs).cylinders[0].strokes.at(0).hasSignal());
  }

  // Uniform deceleration into the stop: v = v0 + a (T - t) before contact at
  // T, between two samples; after it the piston runs into the stop at v0
  // (the stop's compliance). The impact speed extrapolated from the samples
  // before contact is v0, up to the error of interpolating the contact time
  // linearly in a curved x(t) (below 1e-6 m/s here).
  void arrivalSpeedUnderDeceleration() {
    const double T = 0.4055, v0 = 0.3, a = 2.0, L = 0.2;
    const double s0 = (-v0 + std::sqrt(v0 * v0 + 2 * a * L)) / a;  // motion starts at T - s0
    auto x = [&](double t) {
      if (t >= T) return L + v0 * (t - T);
      const double s = T - t;
      return s >= s0 ? 0.0 : L - (v0 * s + 0.5 * a * s * s);
    };
    auto v = [&](double t) {
      if (t >= T) return v0;
      return T - t >= s0 ? 0.0 : v0 + a * (T - t);
    };
    ResultStore rs;
    synthetic(rs, 0.6, 1e-3, kCylChannels,
              {x, v, [](double) { return 1e5; }, [](double) { return 1e5; }, [](double) { return 0.0; },
               [](double) { return 0.0; }});
    const KeyResults kr = computeKeyResults(cylinderProject(), rs);
    const StrokeResult& e = kr.cylinders[0].strokes.at(0);
    QVERIFY(e.complete);
    CHECK_ABS(e.tContact, T, 1e-6);
    CHECK_ABS(e.vArrival, v0, 1e-5);
    // Fastest where the stroke starts, 1 % (2 mm) into the deceleration.
    CHECK_ABS(e.vMax, std::sqrt(std::pow(v0 + a * s0, 2) - 2 * a * 0.01 * L), 1e-6);
  }

  void incompleteAndOpen() {
    // Out to 60 % and back home: an incomplete extension, then an incomplete
    // retraction from the turn (#25); then out again, still moving when the
    // run ends.
    auto x = [](double t) {
      if (t < 0.2) return 0.0;
      if (t < 0.5) return 0.4 * (t - 0.2);        // up to 0.12 m
      if (t < 0.8) return 0.12 - 0.4 * (t - 0.5);  // back to 0
      if (t < 1.0) return 0.0;
      return 0.1 * (t - 1.0);  // 0.1 m at 2 s
    };
    ResultStore rs;
    synthetic(rs, 2.0, 1e-3, kCylChannels,
                                     {x, [](double) { return 0.0; }, [](double) { return 1e5; },
                                      [](double) { return 1e5; }, [](double) { return 0.0; }, [](double) { return 0.0; }});
    const KeyResults kr = computeKeyResults(cylinderProject(), rs);
    qInfo("%s", kr.toText().c_str());
    const auto& s = kr.cylinders[0].strokes;
    QCOMPARE(s.size(), size_t(3));
    QVERIFY(s[0].extend && !s[0].complete);
    CHECK_ABS(s[0].tStart, 0.205, 1e-9);
    CHECK_ABS(s[0].tEnd, 0.495, 1e-9);  // within 1 % (2 mm) of the turn at 0.12 m
    QVERIFY(!s[1].extend && !s[1].complete);
    CHECK_ABS(s[1].tStart, 0.505, 1e-9);  // 2 mm back from the turn
    CHECK_ABS(s[1].tEnd, 0.795, 1e-9);    // back in the zone it left
    QVERIFY(s[2].extend && !s[2].complete);
    CHECK_ABS(s[2].tStart, 1.02, 1e-9);
    // Printed with their ends (#25); the last one ends with the run at 2 s.
    QCOMPARE(strokeLine(kr, 1), QString("1 extend - 0.2050 0.4950 0.2900 - 0.000 - - (incomplete)").split(' '));
    QCOMPARE(strokeLine(kr, 2), QString("2 retract - 0.5050 0.7950 0.2900 - 0.000 - - (incomplete)").split(' '));
    QCOMPARE(strokeLine(kr, 3),
             QString("3 extend - 1.0200 2.0000 0.9800 - 0.000 - - (incomplete, under way when the run ended)").split(' '));
    QVERIFY(kr.toJson()["cylinders"][0]["strokes"][2]["under_way_at_end"].get<bool>());
    QVERIFY(!kr.hasCycle && !kr.cycleClosed);
    QVERIFY(kr.cylinders[0].firstStroke(true) == nullptr);
  }

  void stopMidStrokeThenRetract() {
    // #25: out at 0.5 m/s from 0.1 s to 60 % of the 0.2 m stroke (0.12 m at
    // 0.34 s), stopped there until 1.0 s, back at 0.4 m/s (home at 1.3 s).
    // End zones 2 mm. By hand: an incomplete extension from 0.104 s (2 mm)
    // to 0.336 s (0.118 m, within 2 mm of the stop), then an incomplete
    // retraction from 1.005 s (leaving 0.118 m) to 1.295 s (2 mm); no full
    // stroke, so no stroke time and no cycle time.
    auto x = [](double t) {
      if (t <= 0.1) return 0.0;
      if (t <= 0.34) return 0.5 * (t - 0.1);
      if (t <= 1.0) return 0.12;
      if (t <= 1.3) return 0.12 - 0.4 * (t - 1.0);
      return 0.0;
    };
    auto v = [](double t) { return t > 0.1 && t < 0.34 ? 0.5 : t > 1.0 && t < 1.3 ? -0.4 : 0.0; };
    ResultStore rs;
    synthetic(rs, 2.0, 1e-3, kCylChannels,
              {x, v, [](double) { return 1e5; }, [](double) { return 1e5; }, [](double) { return 0.0; },
               [](double) { return 0.0; }});
    const KeyResults kr = computeKeyResults(cylinderProject(), rs);
    const auto& s = kr.cylinders[0].strokes;
    QCOMPARE(s.size(), size_t(2));
    QVERIFY(s[0].extend && !s[0].complete);
    CHECK_ABS(s[0].tStart, 0.104, 1e-9);
    CHECK_ABS(s[0].tEnd, 0.336, 1e-9);
    CHECK_ABS(s[0].vMax, 0.5, 1e-12);
    QVERIFY(!s[1].extend && !s[1].complete);
    CHECK_ABS(s[1].tStart, 1.005, 1e-9);
    CHECK_ABS(s[1].tEnd, 1.295, 1e-9);
    CHECK_ABS(s[1].vMax, 0.4, 1e-12);
    QVERIFY(kr.cylinders[0].firstStroke(true) == nullptr && kr.cylinders[0].firstStroke(false) == nullptr);
    QVERIFY(!kr.hasCycle);
    // Printed as complete strokes are, with their end and movement time
    // (#25: they showed "-"): # stroke signal start end movement from-signal
    // v-max v-arrival E-arrival, then the mark.
    QCOMPARE(strokeLine(kr, 1), QString("1 extend - 0.1040 0.3360 0.2320 - 0.500 - - (incomplete)").split(' '));
    QCOMPARE(strokeLine(kr, 2), QString("2 retract - 1.0050 1.2950 0.2900 - 0.400 - - (incomplete)").split(' '));
    const auto js = kr.toJson()["cylinders"][0]["strokes"];
    CHECK_ABS(js[1]["t_end_s"].get<double>(), 1.295, 1e-9);
    CHECK_ABS(js[1]["movement_time_s"].get<double>(), 0.29, 1e-9);
    QVERIFY(!js[1]["under_way_at_end"].get<bool>() && !js[1].contains("v_arrival_m_s"));
  }

  void jointReactions() {
    Project p;
    JointDef j;
    j.id = "pin";
    j.type = "revolute";
    p.mechanism.joints.push_back(j);
    p.simulation.t_end = 1.0;
    auto s = [](double k) { return [k](double t) { return k * std::sin(M_PI * t); }; };
    ResultStore rs;
    synthetic(rs, 1.0, 1e-3,
                                     {{"pin.Fx", "N"}, {"pin.Fy", "N"}, {"pin.Fz", "N"}, {"pin.Tx", "N m"}, {"pin.Ty", "N m"}, {"pin.Tz", "N m"}},
                                     {s(3), s(-4), s(0), s(0), s(0), [](double t) { return -2.0 * t; }});
    const KeyResults kr = computeKeyResults(p, rs);
    QCOMPARE(kr.joints.size(), size_t(1));
    CHECK_ABS(kr.joints[0].forceMax, 5.0, 1e-9);  // |(3, -4, 0)| at sin = 1
    CHECK_ABS(kr.joints[0].tForceMax, 0.5, 1e-9);
    CHECK_ABS(kr.joints[0].torqueMax, 2.0, 1e-9);
    CHECK_ABS(kr.joints[0].tTorqueMax, 1.0, 1e-9);
  }

  // A contact pair and a latch (issue 27) from piecewise-linear channels,
  // sampled every 10 ms, whose touch and engagement times are exact: the
  // distance d = |t - 0.5| - 0.2123 on [0, 1], then 0.2877 - (t - 1), so it
  // touches from 0.2877 to 0.7123 (between samples: interpolated exactly,
  // as d is linear there) and again from 1.2877 to the run's end at 1.6,
  // 0.7369 s in all. Normal force 1e4 max(0, -d), deepest at 1.6 (3,123 N,
  // 0.3123 m); friction 0.3 of it; slip 0.01 t while touching and 5 m/s
  // apart (which must not count): 0.016 at 1.6. The latch engages at 0.25
  // (jump 0.8 m/s, 0.48 J, 1.2 N s), is released at 0.75, engages again at
  // 1.2 (0.3 m/s, 0.09 J more: energy_lost accumulates, 0.6 N s) and holds
  // to the end with a reaction (0, 0, 10 t) N: 16 N at 1.6, larger than
  // the first engagement's (3, 4, 0).
  void contactsAndLatches() {
    Project p;
    ContactDef c;
    c.id = "grip";
    c.i.shape = "plane";
    c.j.shape = "box";
    p.mechanism.contacts.push_back(c);
    LatchDef l;
    l.id = "catch";
    l.type = "revolute";
    p.mechanism.latches.push_back(l);
    p.simulation.t_end = 1.6;
    auto d = [](double t) { return t < 1.0 ? std::abs(t - 0.5) - 0.2123 : 0.2877 - (t - 1.0); };
    auto on1 = [](double t) { return t >= 0.25 - 1e-9 && t < 0.75 - 1e-9; };
    auto on2 = [](double t) { return t >= 1.2 - 1e-9; };
    ResultStore rs;
    synthetic(rs, 1.6, 0.01,
              {{"grip.in_contact", "1"}, {"grip.distance", "m"}, {"grip.normal_force", "N"}, {"grip.friction_force", "N"},
               {"grip.penetration", "m"}, {"grip.slip_speed", "m/s"}, {"catch.engaged", "1"}, {"catch.Fx", "N"},
               {"catch.Fy", "N"}, {"catch.Fz", "N"}, {"catch.velocity_jump", "m/s"}, {"catch.energy_lost", "J"},
               {"catch.impulse", "N s"}},
              {[&](double t) { return d(t) < 0 ? 1.0 : 0.0; }, d,
               [&](double t) { return 1e4 * std::max(0.0, -d(t)); },
               [&](double t) { return 3e3 * std::max(0.0, -d(t)); },
               [&](double t) { return std::max(0.0, -d(t)); },
               [&](double t) { return d(t) < 0 ? 0.01 * t : 5.0; },
               [&](double t) { return on1(t) || on2(t) ? 1.0 : 0.0; },
               [&](double t) { return on1(t) ? 3.0 : 0.0; }, [&](double t) { return on1(t) ? 4.0 : 0.0; },
               [&](double t) { return on2(t) ? 10.0 * t : 0.0; },
               [&](double t) { return on2(t) ? 0.3 : t >= 0.25 - 1e-9 ? 0.8 : 0.0; },
               [&](double t) { return on2(t) ? 0.57 : t >= 0.25 - 1e-9 ? 0.48 : 0.0; },
               [&](double t) { return on2(t) ? 0.6 : t >= 0.25 - 1e-9 ? 1.2 : 0.0; }});
    const KeyResults kr = computeKeyResults(p, rs);
    QCOMPARE(kr.contacts.size(), size_t(1));
    const ContactPairResult& g = kr.contacts[0];
    QCOMPARE(g.shapes, std::string("box on plane"));
    QCOMPARE(g.touches.size(), size_t(2));
    CHECK_ABS(g.touches[0].tStart, 0.2877, 1e-12);
    CHECK_ABS(g.touches[0].tEnd, 0.7123, 1e-12);
    QVERIFY(!g.touches[0].open && g.touches[1].open);
    CHECK_ABS(g.touches[1].tStart, 1.2877, 1e-12);
    CHECK_ABS(g.touches[1].tEnd, 1.6, 1e-12);
    CHECK_ABS(g.timeInContact, 0.7369, 1e-12);  // 0.4246 + 0.3123
    CHECK_ABS(g.normalMax, 3123.0, 1e-8);
    CHECK_ABS(g.tNormalMax, 1.6, 1e-12);
    CHECK_ABS(g.frictionMax, 936.9, 1e-8);
    CHECK_ABS(g.penetrationMax, 0.3123, 1e-12);
    CHECK_ABS(g.slipMax, 0.016, 1e-12);
    CHECK_ABS(g.tSlipMax, 1.6, 1e-12);

    QCOMPARE(kr.latches.size(), size_t(1));
    const LatchResult& L = kr.latches[0];
    QCOMPARE(L.engagements.size(), size_t(2));
    CHECK_ABS(L.engagements[0].t, 0.25, 1e-12);
    CHECK_ABS(L.engagements[0].tRelease, 0.75, 1e-12);
    CHECK_ABS(L.engagements[0].velocityJump, 0.8, 1e-15);
    CHECK_ABS(L.engagements[0].energyLost, 0.48, 1e-15);
    CHECK_ABS(L.engagements[0].impulse, 1.2, 1e-15);
    CHECK_ABS(L.engagements[1].t, 1.2, 1e-12);
    QVERIFY(std::isnan(L.engagements[1].tRelease) && L.engagedAtEnd);
    CHECK_ABS(L.engagements[1].velocityJump, 0.3, 1e-15);
    CHECK_ABS(L.engagements[1].energyLost, 0.09, 1e-14);
    CHECK_ABS(L.energyLost, 0.57, 1e-15);
    CHECK_ABS(L.forceMax, 16.0, 1e-12);
    CHECK_ABS(L.tForceMax, 1.6, 1e-12);

    const std::string text = kr.toText();
    qInfo("%s", text.c_str());
    QVERIFY(text.find("grip             box on plane       2 touches, first at 0.2877 s, touching at the end") !=
            std::string::npos);
    QVERIFY(text.find("at 1.2000 s: velocity jump 0.3 m/s, energy lost 0.09 J") != std::string::npos);
    const auto js = kr.toJson();
    CHECK_ABS(js["contacts"][0]["touches"][0]["t_end_s"].get<double>(), 0.7123, 1e-12);
    CHECK_ABS(js["latches"][0]["engagements"][0]["t_release_s"].get<double>(), 0.75, 1e-12);
    QVERIFY(!js["latches"][0]["engagements"][1].contains("t_release_s"));
  }

  void missingChannelIsAnError() {
    ResultStore rs;
    synthetic(rs, 0.1, 1e-3, {{"cyl1.x", "m"}}, {[](double) { return 0.0; }});
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, computeKeyResults(cylinderProject(), rs));
  }

  void reportSettingsParse() {
    Project p = cylinderProject();
    QVERIFY(reportSettings(p).plots.empty());
    const auto def = reportPlots(p, reportSettings(p));
    QCOMPARE(def.size(), size_t(2));
    QCOMPARE(def[1].channels, (std::vector<std::string>{"cyl1.pA", "cyl1.pB"}));
    p.extra["report"] = {{"plots", {{"cyl1.v"}}}, {"company", "ACME"}, {"cycles_per_minute", 20}};
    const ReportSettings s = reportSettings(p, "f.json");
    QCOMPARE(s.company, std::string("ACME"));
    QCOMPARE(s.cyclesPerMinute, 20.0);
    QCOMPARE(reportPlots(p, s), (std::vector<ReportPlot>{{{}, {"cyl1.v"}}}));
    QVERIFY_THROWS_EXCEPTION(ProjectError, checkPlotChannels(s, {"cyl1.x"}, "f.json"));
    // Titled plots and the round trip through the project.
    ReportSettings w;
    w.plots = {{"Speed", {"cyl1.v"}}, {{}, {"cyl1.pA", "cyl1.pB"}}};
    w.company = "ACME";
    w.logo = "logo.png";
    setReportSettings(p, w);
    QCOMPARE(p.extra["report"]["plots"][0]["title"], nlohmann::json("Speed"));
    QCOMPARE(reportSettings(p, "f.json"), w);
    setReportSettings(p, ReportSettings{});
    QVERIFY(!p.extra.contains("report"));
    // The modes section: a count, or a count with its operating point; both round trip.
    p.extra["report"] = {{"modes", 6}};
    QCOMPARE(reportSettings(p, "f.json").modes, 6);
    p.extra["report"] = {{"modes", {{"count", 3}, {"at", 0.5}, {"static", true}}}};
    const ReportSettings m = reportSettings(p, "f.json");
    QVERIFY(m.modes == 3 && m.modesAt == 0.5 && m.modesStatic);
    setReportSettings(p, m);
    QCOMPARE(reportSettings(p, "f.json"), m);
    w = ReportSettings{};
    w.modes = 4;
    setReportSettings(p, w);
    QCOMPARE(p.extra["report"], (nlohmann::json{{"modes", 4}}));
    setReportSettings(p, ReportSettings{});
    for (const nlohmann::json& bad : {nlohmann::json{{"plots", "cyl1.x"}}, nlohmann::json{{"plots", {{1}}}},
                                      nlohmann::json{{"cycles_per_minute", -1}}, nlohmann::json{{"colour", "red"}},
                                      nlohmann::json{{"plots", {{{"title", "T"}}}}},
                                      nlohmann::json{{"plots", {{{"channels", {"cyl1.x"}}, {"colour", 1}}}}},
                                      nlohmann::json{{"modes", -1}}, nlohmann::json{{"modes", 101}},
                                      nlohmann::json{{"modes", 2.5}}, nlohmann::json{{"modes", {{"at", 1}}}},
                                      nlohmann::json{{"modes", {{"count", 3}, {"at", -1}}}},
                                      nlohmann::json{{"modes", {{"count", 3}, {"static", 1}}}},
                                      nlohmann::json{{"modes", {{"count", 3}, {"when", 1}}}}}) {
      p.extra["report"] = bad;
      try {
        reportSettings(p, "f.json");
        QFAIL("accepted bad report settings");
      } catch (const ProjectError& e) {
        qInfo("%s", e.what());
        QCOMPARE(e.object(), std::string("report"));
        QVERIFY(!e.field().empty());
      }
    }
  }

  // Air per cycle of a cylinder cycling between its end positions, from a
  // start with both chambers at ambient: the rod chamber B fills through the
  // valve's rest position before the valve is switched at 0.5 s (the
  // initial filling, not part of a cycle), the valve extends the piston and
  // switches back at 1.5 s, and the run ends settled at 3 s. Isothermal
  // chambers (T = 293.15 K, the supply's temperature) and a stiff end stop,
  // so every chamber's air is p V / (R T): a cycle fills A from ambient at
  // its dead volume to the supply pressure at dead volume + swept volume,
  // and B likewise, and exhausts both to ambient again:
  //   m = [pS (V0A + V0B + (AA + AB) L) - p0 (V0A + V0B)] / (R T).
  void airPerCycleFromSteadyState() {
    const double pS = 601325.0, p0 = 101325.0, T = 293.15, bore = 0.032, rod = 0.012, L = 0.1, V0 = 5e-6;
    Project p;
    p.components.push_back(comp("src", "supply", {{"p", pS}, {"T", T}}));
    // No leakage of closed paths and a fast spool: a switching spool passes
    // air straight from 1 to exhaust while both paths are part open (2.7e-5
    // kg a cycle at 10 ms), which no hand count of chamber volumes includes.
    p.components.push_back(comp("v1", "valve_5_2",
                                {{"C_supply", 1e-8}, {"C_exhaust", 1.2e-8}, {"leak_fraction", 0.0}, {"t_switch", 1e-5}},
                                {{"sol14", "sw1.out"}}));
    p.components.push_back(comp("sw1", "time_switch", {{"t_on", 0.5}, {"t_off", 1.5}}));
    p.components.push_back(comp("cyl1", "cylinder_double",
                                {{"bore", bore}, {"rod", rod}, {"stroke", L}, {"mass", 1.0}, {"isothermal", 1.0},
                                 {"T_wall", T}, {"V0_A", V0}, {"V0_B", V0}, {"k_stop", 1e10}, {"c_stop", 2e5}}));
    wire(p, "src.1", "v1.1");
    wire(p, "v1.4", "cyl1.A");
    wire(p, "v1.2", "cyl1.B");
    settings(p, 3.0, 1e-3, {1e-8, 1e-3, 1e-6, 1e-10});
    auto run = simulate(p, "air_cycle");
    REQUIRE_OK(run);
    const KeyResults kr = computeKeyResults(p, run->out);
    qInfo("%s", kr.toText().c_str());
    QVERIFY(kr.hasCycle && kr.cycleClosed);
    const double AA = M_PI / 4 * bore * bore, AB = M_PI / 4 * (bore * bore - rod * rod);
    const double m = (pS * (2 * V0 + (AA + AB) * L) - p0 * 2 * V0) / (gas::R * T);
    const double initial = (pS - p0) * (V0 + AB * L) / (gas::R * T);  // B filled before the cycle
    qInfo("air per cycle %.6g g (hand %.6g g), initial filling %.6g g (hand %.6g g)", kr.airMass * 1e3, m * 1e3,
          kr.airMassBeforeCycle * 1e3, initial * 1e3);
    // Tolerance: the end stops' compression (F / k_stop ~ 5e-8 m, critically
    // damped so that the piston does not bounce), the remaining spool
    // crossover and the solver's tolerance, all below 1e-4 of the air.
    CHECK_REL(kr.airMass, m, 1e-4);
    CHECK_REL(kr.airNormalLitres, m / gas::rho0 * 1e3, 1e-4);
    CHECK_REL(kr.airMassBeforeCycle, initial, 1e-4);
    CHECK_ABS(kr.airFrom, 0.5, 1e-9);
  }

  // The conclusion on the synthetic cycle (1.391 s, impact energies 0.5 J
  // and 0.32 J, pA rising to 601325 Pa at 2 s with the piston home).
  void conclusionVerdicts() {
    Project p = cylinderProject();
    ResultStore rs;
    synthetic(rs, 2.0, 1e-3, kCylChannels,
              {xCycle, vCycle, [](double t) { return 101325.0 + 2.5e5 * t; }, [](double) { return 2e5; },
               [](double t) { return 300.0 * std::sin(M_PI * t / 2); }, [](double t) { return 2.37e-3 * t / 2.0; }});
    auto find = [](const std::vector<Verdict>& v, const std::string& topic) {
      for (const auto& x : v)
        if (x.topic == topic) return x;
      return Verdict{"missing", VerdictStatus::NotChecked, 0.0, ""};
    };
    // Nothing stated: nothing checked; the supply (601325 Pa) is not exceeded.
    auto v = conclusions(p, rs, computeKeyResults(p, rs));
    QCOMPARE(int(find(v, "Cycle time").status), int(VerdictStatus::NotChecked));
    QCOMPARE(int(find(v, "Cushioning 1A1").status), int(VerdictStatus::NotChecked));
    QCOMPARE(v.size(), size_t(2));
    // Required 1.5 s: met by 1.5 - 1.391 = 0.109 s; allowed 0.4 J: the 0.5 J
    // extension misses it by 0.1 J; 0.6 J: met by 0.1 J.
    p.meta.requiredCycleTime = 1.5;
    p.components[0].params["E_cushion_max"] = 0.4;
    v = conclusions(p, rs, computeKeyResults(p, rs));
    QCOMPARE(int(find(v, "Cycle time").status), int(VerdictStatus::Met));
    CHECK_ABS(find(v, "Cycle time").margin, 0.109, 1e-9);
    QCOMPARE(int(find(v, "Cushioning 1A1").status), int(VerdictStatus::NotMet));
    CHECK_ABS(find(v, "Cushioning 1A1").margin, -0.1, 1e-9);
    qInfo("%s | %s", find(v, "Cycle time").text.c_str(), find(v, "Cushioning 1A1").text.c_str());
    p.meta.requiredCycleTime = 1.3;
    p.components[0].params["E_cushion_max"] = 0.6;
    v = conclusions(p, rs, computeKeyResults(p, rs));
    QCOMPARE(int(find(v, "Cycle time").status), int(VerdictStatus::NotMet));
    CHECK_ABS(find(v, "Cycle time").margin, 1.3 - 1.391, 1e-9);
    CHECK_ABS(find(v, "Cushioning 1A1").margin, 0.1, 1e-9);
    // A 5 bar supply: chamber A's 601325 Pa at 2 s (piston home, x = 0)
    // exceeds it; no cushion there, so the load compressed it; with a 10 mm
    // cushion at the retracted end, the cushion did.
    p.components[1].params["p"] = 5e5;
    v = conclusions(p, rs, computeKeyResults(p, rs));
    const Verdict hi = find(v, "Pressure above supply 1A1 A");
    QCOMPARE(int(hi.status), int(VerdictStatus::Note));
    QVERIFY2(hi.text.find("5.00 bar (g) at 2.000 s") != std::string::npos, hi.text.c_str());
    QVERIFY2(hi.text.find("faster than its air can escape") != std::string::npos, hi.text.c_str());
    p.components[0].params["cushion_length_A"] = 0.01;
    v = conclusions(p, rs, computeKeyResults(p, rs));
    QVERIFY2(find(v, "Pressure above supply 1A1 A").text.find("end cushion") != std::string::npos,
             find(v, "Pressure above supply 1A1 A").text.c_str());
  }

  // The bill of materials of the seed-003 circuit in catalogue terms.
  void billOfMaterialsInCatalogueTerms() {
    // ISO 6358 by hand: p1 = 701325 Pa, p2/p1 = 601325/701325 = 0.857413,
    // phi = sqrt(1 - ((0.857413 - 0.3)/0.7)^2) = 0.604897; C = 4e-9 m3/(s Pa):
    // 4e-9 * 701325 * 0.604897 m3/s = 101.815 Nl/min (the "100 Nl/min" valve).
    CHECK_REL(nominalFlowNlPerMin(4e-9, 0.3), 101.815, 1e-5);
    CHECK_REL(nominalFlowNlPerMin(1e-8, 0.9), 1e-8 * 701325 * 60000, 1e-12);  // choked: p2/p1 < b
    Project p = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    ReportSettings s;
    s.parts["cyl1"] = "DSBC-32-200";
    const std::vector<BomItem> bom = billOfMaterials(p, s);
    auto row = [&](const std::string& id) {
      for (const auto& b : bom)
        if (b.id == id) return b;
      return BomItem{};
    };
    for (const auto& b : bom) qInfo("%s | %s | %s | %s | %s", b.code.c_str(), b.id.c_str(), b.function.c_str(), b.size.c_str(), b.part.c_str());
    QCOMPARE(row("cyl1").size, std::string("bore 32 mm, rod 12 mm, stroke 200 mm"));
    QCOMPARE(row("cyl1").part, std::string("DSBC-32-200"));
    // 1e-8 and 1.2e-8 m3/(s Pa), b = 0.3: 254.5 and 305.4 Nl/min.
    QVERIFY2(row("v1").size.find("nominal flow 255 Nl/min (1->4/2), 305 Nl/min to exhaust") == 0, row("v1").size.c_str());
    QVERIFY2(row("v1").function.find("solenoid actuated, spring return") != std::string::npos, row("v1").function.c_str());
    QVERIFY(row("v1").part.empty());
    QVERIFY(row("src").size == "5 bar (g)");
    QVERIFY(row("sw1").id.empty());  // a signal: in the control line, not an item
    // No model parameters, and what the circuit leaves out is listed.
    std::string all;
    for (const auto& b : bom) all += b.function + " " + b.size + "\n";
    QVERIFY(all.find("C_max") == std::string::npos && all.find("b_supply") == std::string::npos);
    QVERIFY2(all.find("Exhaust silencers") != std::string::npos && all.find("1V1 port 3") != std::string::npos &&
                 all.find("1V1 port 5") != std::string::npos, all.c_str());
    QVERIFY(all.find("Tubing") != std::string::npos && all.find("signals 1S1") != std::string::npos);
  }

  // The real example: key results equal what its channels say.
  // keyResultChannels names every channel key results and conclusions read
  // (the studio reads those alone from its results file): a store of just
  // those gives the same key results as the whole run's, on examples with
  // valves, attached cylinders, joints, several supplies, contacts and a latch.
  void keyResultChannelsSuffice() {
    int cycles = 0;
    size_t joints = 0, contacts = 0, engagements = 0;
    for (const char* name : {"seed003_meter_out", "knuckle_press", "two_axis_handling", "tool_changer", "contact_gripper",
                             "seed004_boom_docking"}) {
      const Project p = loadProject(projectPath(std::string(name) + ".pneumech.json"));
      auto run = simulate(p, name);
      REQUIRE_OK(run);
      const ResultStore& full = run->out;
      ResultStore some;
      some.keepOnly(keyResultChannels(p));
      some.setChannels(full.channels());
      const auto t = full.times();
      std::vector<std::vector<double>> cols;
      for (size_t c = 0; c < full.channels().size(); ++c) cols.push_back(full.column(int(c)));
      std::vector<double> row(cols.size());
      for (size_t r = 0; r < t.size(); ++r) {
        for (size_t c = 0; c < cols.size(); ++c) row[c] = cols[c][r];
        some.append(t[r], row.data());
      }
      QVERIFY2(some.channels().size() < full.channels().size(), name);
      const KeyResults a = computeKeyResults(p, full), b = computeKeyResults(p, some);
      QVERIFY2(a.toJson().dump() == b.toJson().dump(), name);
      QVERIFY2(!a.cylinders.empty() && !a.supplies.empty(), name);
      cycles += a.hasCycle;
      joints += a.joints.size();
      contacts += a.contacts.size();
      engagements += a.latches.empty() ? 0 : a.latches[0].engagements.size();
      const auto va = conclusions(p, full, a), vb = conclusions(p, some, b);
      QCOMPARE(va.size(), vb.size());
      for (size_t i = 0; i < va.size(); ++i) QCOMPARE(va[i].text, vb[i].text);
    }
    // The examples exercise strokes, joint loads, contacts and a latch that engages.
    QVERIFY(cycles >= 3 && joints > 0 && contacts > 0 && engagements > 0);
  }

  void seed003() {
    const Project p = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    auto run = simulate(p, "seed003");
    REQUIRE_OK(run);
    const KeyResults kr = computeKeyResults(p, run->out);
    qInfo("%s", kr.toText().c_str());
    const CylinderResult& c = kr.cylinders.at(0);
    const double L = 0.2;
    const StrokeResult* e = c.firstStroke(true);
    QVERIFY(e);
    CHECK_ABS(e->tStart, run->crossing("cyl1.x", 0.01 * L, 0.0, Crossing::Rising), 1e-12);
    CHECK_ABS(e->tEnd, run->crossing("cyl1.x", 0.99 * L, 0.0, Crossing::Rising), 1e-12);
    QVERIFY(e->tStart > 0.1);  // the valve switches at 0.1 s
    // Touches the stop after the 99 % mark; the speed there is close to the
    // last sampled speed before contact and E = m v^2 / 2 with m = 5 kg.
    const double tc = run->crossing("cyl1.x", L, 0.0, Crossing::Rising);
    CHECK_ABS(e->tContact, tc, 1e-12);
    const double vBefore = run->col("cyl1.v")[run->indexAt(tc) - 1];
    CHECK_REL(e->vArrival, vBefore, 0.05);
    CHECK_REL(e->eArrival, 0.5 * 5.0 * e->vArrival * e->vArrival, 1e-12);
    // Stroke time from signal: the valve v1, switched by the time switch at
    // t_on = 0.1 s. Its spool ramps from 0 at 1/t_switch: the command
    // instant read independently from the first sample of the ramp is 0.1 s,
    // and the new time is the movement time plus the dead time before it.
    const auto s = run->col("v1.s");
    const auto tt = run->out.times();
    size_t i = 1;
    while (i < s.size() && s[i] == s[i - 1]) ++i;
    QVERIFY(i < s.size());
    const double tSignal = tt[i] - (s[i] - s[i - 1]) * 0.01;  // t_switch 0.01 s
    CHECK_ABS(tSignal, 0.1, 1e-9);
    CHECK_ABS(e->tSignal, tSignal, 1e-12);
    CHECK_ABS(e->fromSignal(), e->duration() + (e->tStart - tSignal), 1e-12);
    // Hand check: the dead time (signal to leaving the end zone) is >= 0 and
    // is what the x channel shows after the 0.1 s signal, to one output interval.
    const double dead = e->fromSignal() - e->duration();
    QVERIFY(dead >= 0.0);
    size_t first = run->indexAt(0.1);
    while (run->col("cyl1.x")[first] <= 0.01 * L) ++first;
    QVERIFY(std::abs(dead - (tt[first] - 0.1)) <= 1e-3);
    qInfo("seed003 extension: signal %.4f s, start %.4f s, movement %.4f s, from signal %.4f s", e->tSignal, e->tStart,
          e->duration(), e->fromSignal());
    // A single extension: an open cycle whose time is the extension time.
    QVERIFY(kr.hasCycle && !kr.cycleClosed);
    CHECK_ABS(kr.cycleTime(), e->duration(), 1e-12);
    // Air: the supply's delivered mass from the valve's command to the end of
    // the run, in normal litres; the rod side's filling before it is apart.
    CHECK_ABS(kr.airFrom, tSignal, 1e-9);  // the last sample before the spool moves
    const double mBefore = run->at("src.m_delivered", tSignal);
    const double m = run->out.last("src.m_delivered") - mBefore;
    QVERIFY(m > 0 && mBefore > 0);
    CHECK_REL(kr.airMassBeforeCycle, mBefore, 1e-12);
    CHECK_REL(kr.airNormalLitres, m / gas::rho0 * 1000.0, 1e-12);
    CHECK_REL(kr.airNormalLitres, m / 1.185 * 1000.0, 1e-12);
    // Peak pressures are the channels' maxima.
    CHECK_ABS(c.pAMax, run->maxAbs("cyl1.pA", 0, 1), 1e-9);
    CHECK_ABS(c.pBMax, run->maxAbs("cyl1.pB", 0, 1), 1e-9);
    QVERIFY(c.pAMax <= 601325.0 * 1.001);  // never above the supply
  }
};

QTEST_APPLESS_MAIN(TestKeyResults)
#include "test_key_results.moc"
