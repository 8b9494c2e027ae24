// Control and sensor components, each checked against a number one can work
// out by hand: a limit switch changes state exactly when the cylinder passes
// its window edge, an on-delay timer rises `delay` after its input, a pressure
// switch trips when a reservoir charged through a choked restriction reaches
// p_on (linear pressure rise, known slope), the flow sensor reads the choked
// mass flow, and the example project sequence_a_b runs A+ B+ A- B- in order.
#include "analyses/simulation.h"
#include "build/project_input.h"
#include "model/project_error.h"
#include "pneumatics/gas.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

using namespace pm;
using namespace pm::test;

class TestControl : public QObject {
  Q_OBJECT

 private slots:
  // Supply -> 5/2 valve (switched at 0.05 s) -> cylinder 32/12 x 100 mm; a
  // limit switch with window [45, 55] mm watches cyl.x. The switch output is
  // sampled every 10 us: its rising sample must be the first sample at or after
  // the time x reaches 45 mm (interpolated from the x channel), its falling one
  // the first at or after x reaches 55 mm. Tolerance: one output interval
  // (10 us, i.e. about 5 um of travel at 0.5 m/s) plus 1 us for interpolation.
  void limitSwitchFollowsPosition() {
    Project p;
    settings(p, 0.4, 1e-5);
    p.components = {comp("src", "supply"),
                    comp("ts", "time_switch", {{"t_on", 0.05}}),
                    comp("v", "valve_5_2", {{"C_supply", 4e-9}, {"C_exhaust", 4.8e-9}}, {{"sol14", "ts.out"}}),
                    comp("cyl", "cylinder_double", {{"bore", 0.032}, {"rod", 0.012}, {"stroke", 0.1}, {"mass", 2.0}}),
                    comp("sw", "limit_switch", {{"x_switch", 0.05}, {"width", 0.01}}, {{"position", "cyl.x"}})};
    wire(p, "src.1", "v.1");
    wire(p, "v.4", "cyl.A");
    wire(p, "v.2", "cyl.B");
    auto r = simulate(p);
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    const auto x = r->col("cyl.x"), out = r->col("sw.out");
    const double tol = 1e-5 + 1e-6;
    QCOMPARE(out.front(), 0.0);  // retracted: outside the window
    const int iOn = firstIndex(out, [](double v) { return v > 0.5; });
    QVERIFY(iOn > 0);
    const int iOff = firstIndex(out, [](double v) { return v < 0.5; }, iOn);
    QVERIFY(iOff > iOn);
    const double tEnter = crossingTime(r->t, x, 0.045, Crossing::Rising);
    const double tLeave = crossingTime(r->t, x, 0.055, Crossing::Rising);
    qInfo("x reaches 45 mm at %.6f s, switch on at sample %.6f s (x there %.4f mm); 55 mm at %.6f s, off at %.6f s",
          tEnter, r->t[iOn], 1e3 * x[iOn], tLeave, r->t[iOff]);
    QVERIFY(r->t[iOn] >= tEnter - tol && r->t[iOn] - tEnter <= tol);
    QVERIFY(r->t[iOff] >= tLeave - tol && r->t[iOff] - tLeave <= tol);
    // The samples agree with the window: on exactly for 45 mm <= x <= 55 mm.
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::abs(x[i] - 0.045) < 1e-5 || std::abs(x[i] - 0.055) < 1e-5) continue;  // within a sample of an edge
      const bool inside = x[i] >= 0.045 && x[i] <= 0.055;
      QVERIFY2((out[i] > 0.5) == inside, qPrintable(QString("t=%1 x=%2").arg(r->t[i]).arg(x[i])));
    }
    QVERIFY(x.back() > 0.0999);  // extended to the stop, switch off again
    QCOMPARE(out.back(), 0.0);
  }

  // Push button held 0.1 .. 0.5 s drives two on-delay timers: delay 0.2 s
  // rises at 0.3 s and drops with the input at 0.5 s; delay 0.5 s never rises
  // (the input is gone before 0.6 s). A reservoir gives the system a state.
  void onDelayTimer() {
    Project p;
    settings(p, 1.0, 1e-3);
    p.components = {comp("tank", "reservoir"),
                    comp("pb", "push_button", {{"t_press", 0.1}, {"duration", 0.4}}),
                    comp("t1", "on_delay_timer", {{"delay", 0.2}}, {{"in", "pb.out"}}),
                    comp("t2", "on_delay_timer", {{"delay", 0.5}}, {{"in", "pb.out"}})};
    auto r = simulate(p);
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    const auto& t = r->t;
    const auto in = r->col("pb.out"), o1 = r->col("t1.out"), o2 = r->col("t2.out"), el = r->col("t1.elapsed");
    const int iIn = firstIndex(in, [](double v) { return v > 0.5; });
    const int iRise = firstIndex(o1, [](double v) { return v > 0.5; });
    const int iFall = firstIndex(o1, [](double v) { return v < 0.5; }, iRise);
    qInfo("input on at %.4f s, output on at %.4f s, off at %.4f s", t[iIn], t[iRise], t[iFall]);
    // Events land on the switching instants; a sample exactly at the instant
    // may show either side, so allow one output interval.
    QVERIFY(std::abs(t[iIn] - 0.1) <= 1e-3 + 1e-9);
    QVERIFY(std::abs(t[iRise] - 0.3) <= 1e-3 + 1e-9);
    QVERIFY(std::abs(t[iFall] - 0.5) <= 1e-3 + 1e-9);
    QVERIFY(std::abs((t[iRise] - t[iIn]) - 0.2) <= 1e-3 + 1e-9);
    const int i25 = static_cast<int>(std::lround(0.25 / 1e-3));
    QVERIFY(std::abs(el[i25] - 0.15) < 1e-6);  // timer running for 0.15 s at t = 0.25 s
    for (double v : o2) QCOMPARE(v, 0.0);
    QCOMPARE(o1.back(), 0.0);
  }

  // Supply 6 bar gauge -> restriction C = 1e-9 m3/(s Pa) -> flow sensor ->
  // isothermal 1 l reservoir (20 degC). While p_tank/p_supply <= b = 0.3 the
  // restriction is choked: q = C p_s rho0 = 1e-9 * 701325 * 1.185
  // = 8.311e-4 kg/s (= 42.08 Nl/min), and dp/dt = R T q / V = 69 935 Pa/s. A
  // pressure switch at p_on = 0.8 bar gauge (1.813 bar abs, ratio 0.259 < b)
  // trips at t = 0.8e5 / 69 935 = 1.1439 s. A 2/2 valve opens the tank to
  // atmosphere at 2 s (C = 3e-8, it outflows the restriction): the switch
  // drops when p falls to p_on - 0.5 bar.
  void pressureSwitchAndSensors() {
    Project p;
    settings(p, 2.5, 1e-3);
    p.components = {comp("src", "supply"),
                    comp("r", "restriction", {{"C", 1e-9}, {"b", 0.3}}),
                    comp("fs", "flow_sensor"),
                    comp("tank", "reservoir", {{"V", 1e-3}, {"isothermal", 1.0}}),
                    comp("ps", "pressure_sensor"),
                    comp("ts", "temperature_sensor"),
                    comp("sw", "pressure_switch", {{"p_on", 0.8e5}, {"hysteresis", 0.5e5}}),
                    comp("open", "time_switch", {{"t_on", 2.0}}),
                    comp("vent", "valve_2_2_nc", {{"C_supply", 3e-8}}, {{"sol14", "open.out"}}),
                    comp("atm", "atmosphere")};
    wire(p, "src.1", "r.1");
    wire(p, "r.2", "fs.1");
    wire(p, "fs.2", "tank.1");
    wire(p, "tank.1", "ps.1");
    wire(p, "tank.1", "ts.1");
    wire(p, "tank.1", "sw.1");
    wire(p, "tank.1", "vent.1");
    wire(p, "vent.2", "atm.1");
    auto r = simulate(p);
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    const auto& t = r->t;
    const auto pt = r->col("tank.p"), out = r->col("sw.out"), q = r->col("fs.q"), qn = r->col("fs.qn");
    const auto psP = r->col("ps.p"), psG = r->col("ps.p_gauge"), T = r->col("ts.T");
    const double pa = 101325.0;
    const double qHand = 1e-9 * 701325.0 * gas::rho0;
    const double tHand = 0.8e5 / (gas::R * 293.15 * qHand / 1e-3);
    const int iOn = firstIndex(out, [](double v) { return v > 0.5; });
    QVERIFY(iOn > 0);
    const double tCross = crossingTime(t, pt, pa + 0.8e5, Crossing::Rising);
    qInfo("hand: q = %.5g kg/s, trip at %.5f s; simulated: q(0.5 s) = %.5g kg/s (%.3f Nl/min), p crosses p_on at "
          "%.5f s, switch on at sample %.4f s",
          qHand, tHand, q[500], qn[500], tCross, t[iOn]);
    QVERIFY(std::abs(q[500] / qHand - 1.0) < 1e-3);  // choked flow through restriction and meter
    QVERIFY(std::abs(qn[500] - gas::kgPerSToNlPerMin(q[500])) < 1e-9);
    QVERIFY(std::abs(tCross / tHand - 1.0) < 2e-3);          // linear rise, hand slope
    QVERIFY(t[iOn] >= tCross - 1e-6 && t[iOn] - tCross <= 1e-3 + 1e-6);  // trips within one sample
    // Sensors read the node: p, gauge p, temperature of the isothermal tank.
    for (size_t i = 0; i < t.size(); i += 100) {
      QCOMPARE(psP[i], pt[i]);
      QVERIFY(std::abs(psG[i] - (pt[i] - pa)) < 1e-6);
      QVERIFY(std::abs(T[i] - 293.15) < 1e-6);
    }
    // Venting from 2 s: off when the gauge pressure falls to 0.3 bar.
    const int iOff = firstIndex(out, [](double v) { return v < 0.5; }, iOn);
    qInfo("tank at the end: %.4f bar gauge", (pt.back() - pa) / 1e5);
    QVERIFY(iOff > 0);
    const double tDrop = crossingTime(t, pt, pa + 0.3e5, Crossing::Falling, 2000);
    qInfo("vent: p falls to p_on - hysteresis at %.5f s, switch off at sample %.4f s", tDrop, t[iOff]);
    QVERIFY(tDrop > 2.0);
    QVERIFY(t[iOff] >= tDrop - 1e-6 && t[iOff] - tDrop <= 1e-3 + 1e-6);
    // Hysteresis: still on between p_on and p_on - hysteresis while venting.
    const double tBelowOn = crossingTime(t, pt, pa + 0.8e5, Crossing::Falling, 2000);
    QVERIFY(tBelowOn < tDrop);
    QCOMPARE(out[static_cast<size_t>(std::lround((0.5 * (tBelowOn + tDrop)) / 1e-3))], 1.0);
  }

  // Transitions whose conditions already hold fire within one event; "set"
  // values persist (stored actions). At 0.1 s the switch turns on and the
  // sequence goes 0 -> 1 -> 2 -> 3 at once; Y keeps step 2's value 2 and Z
  // step 1's value 5.
  void sequenceAdvancesSeveralStepsInOneEvent() {
    Project p;
    settings(p, 0.2, 1e-3);
    const nlohmann::json data = {
        {"outputs", {"Y", "Z"}},
        {"cyclic", false},
        {"steps",
         {{{"name", "s0"}, {"when", {"ts.out"}}},
          {{"name", "s1"}, {"set", {{"Y", 1}, {"Z", 5}}}, {"when", {"ts.out", "ts.out"}}},
          {{"name", "s2"}, {"set", {{"Y", 2}}}, {"when", {"ts.out"}}},
          {{"name", "s3"}, {"set", nlohmann::json::object()}}}}};
    p.components = {comp("tank", "reservoir"), comp("ts", "time_switch", {{"t_on", 0.1}}),
                    comp("seq", "step_sequence", {}, {}, data)};
    auto r = simulate(p);
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    const auto step = r->col("seq.step"), Y = r->col("seq.Y"), Z = r->col("seq.Z");
    QCOMPARE(step[99], 0.0);
    QCOMPARE(Y[99], 0.0);
    QCOMPARE(step[101], 3.0);
    QCOMPARE(Y[101], 2.0);
    QCOMPARE(Z[101], 5.0);
    QCOMPARE(step.back(), 3.0);
    // A cyclic sequence whose every condition holds can never settle: reported, not hung.
    nlohmann::json loop = data;
    loop["cyclic"] = true;
    loop["steps"][3]["when"] = {"ts.out"};
    p.components[2].data = loop;
    auto r2 = simulate(p);
    QVERIFY(!r2->result.ok());
    QVERIFY2(r2->result.message.find("does not settle") != std::string::npos, r2->result.message.c_str());
  }

  // Structured data is checked on load; errors name data.<field>.
  void sequenceDataErrors() {
    auto project = [](const std::string& steps) {
      return std::string(R"({"format": "pneumech-project", "schema_version": 1, "components": [
        {"id": "ts", "type": "time_switch"},
        {"id": "seq", "type": "step_sequence", "data": {"outputs": ["Y1"], "steps": )") +
             steps + "}}]}";
    };
    auto expect = [&](const std::string& steps, const std::string& field, const std::string& part) {
      try {
        Project pr = parseProject(project(steps), "bad");
        Simulation sim(pr, "bad");  // reference resolution happens at compile
        QFAIL(("no error, expected " + field).c_str());
      } catch (const ProjectError& e) {
        QVERIFY2(e.object() == "seq", e.what());
        QVERIFY2(e.field() == field, e.what());
        QVERIFY2(std::string(e.what()).find(part) != std::string::npos, e.what());
      }
    };
    expect(R"([{"when": ["ts.out"]}, {"set": {"Y1": 1}}, {"when": "ts.out"}])", "data.steps[2].when", "expected an array");
    expect(R"([{"when": ["ts"]}])", "data.steps[0].when[0]", "<component id>.<signal>");
    expect(R"([{"set": {"Y9": 1}}])", "data.steps[0].set.Y9", "not one of the declared outputs");
    expect(R"([{"set": {"Y1": "on"}}])", "data.steps[0].set.Y1", "expected a number");
    expect(R"([{"wen": []}])", "data.steps[0].wen", "unknown field");
    expect(R"([])", "data.steps", "non-empty");
    expect(R"([{"when": ["ts.nothing"]}])", "data.steps[0].when[0]", "unknown signal 'ts.nothing'");
    expect(R"([{"when": ["nobody.out"]}])", "data.steps[0].when[0]", "unknown signal 'nobody.out'");
  }

  // The example project: A+ B+ A- B-. From the x channels: each motion starts
  // only after the previous one has reached its end position (within 1 mm of
  // the stop), both cylinders end retracted, and the sequence rests in its last
  // step with both solenoids off.
  void exampleSequenceAB() {
    const std::string path = sourceDir() + "/projects/sequence_a_b.pneumech.json";
    const Project p = loadProject(path);
    auto r = simulate(p);
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    const auto& t = r->t;
    const auto xa = r->col("A.x"), xb = r->col("B.x"), step = r->col("seq.step");
    const double L = 0.1, mm = 1e-3;
    auto above = [](double lvl) { return [lvl](double v) { return v > lvl; }; };
    auto below = [](double lvl) { return [lvl](double v) { return v < lvl; }; };
    const int aOutStart = firstIndex(xa, above(mm));
    const int aOutEnd = firstIndex(xa, above(L - mm), aOutStart);
    const int bOutStart = firstIndex(xb, above(mm));
    const int bOutEnd = firstIndex(xb, above(L - mm), bOutStart);
    const int aInStart = firstIndex(xa, below(L - mm), aOutEnd);
    const int aInEnd = firstIndex(xa, below(mm), aInStart);
    const int bInStart = firstIndex(xb, below(L - mm), bOutEnd);
    const int bInEnd = firstIndex(xb, below(mm), bInStart);
    for (int i : {aOutStart, aOutEnd, bOutStart, bOutEnd, aInStart, aInEnd, bInStart, bInEnd}) QVERIFY(i > 0);
    qInfo("A+ %.3f..%.3f s, B+ %.3f..%.3f s, A- %.3f..%.3f s, B- %.3f..%.3f s", t[aOutStart], t[aOutEnd],
          t[bOutStart], t[bOutEnd], t[aInStart], t[aInEnd], t[bInStart], t[bInEnd]);
    QVERIFY(t[aOutStart] > 0.1);  // nothing moves before the start button
    QVERIFY(aOutEnd < bOutStart);
    QVERIFY(bOutEnd < aInStart);
    QVERIFY(aInEnd < bInStart);
    // B stays retracted during A+, A stays extended during B+, and so on.
    for (int i = 0; i < bOutStart; ++i) QVERIFY(xb[i] < mm);
    for (int i = aOutEnd; i < aInStart; ++i) QVERIFY(xa[i] > L - mm);
    for (int i = bOutEnd; i < bInStart; ++i) QVERIFY(xb[i] > L - mm);
    for (size_t i = aInEnd; i < xa.size(); ++i) QVERIFY(xa[i] < mm);
    // Ends retracted and at rest in the last step (index 4 of 5).
    QVERIFY(std::abs(xa.back()) < mm && std::abs(xb.back()) < mm);
    QVERIFY(std::abs(r->col("A.v").back()) < 1e-3 && std::abs(r->col("B.v").back()) < 1e-3);
    QCOMPARE(step.back(), 4.0);
    QCOMPARE(r->col("seq.Y1").back(), 0.0);
    QCOMPARE(r->col("seq.Y2").back(), 0.0);
    QCOMPARE(r->col("a0.out").back(), 1.0);
    QCOMPARE(r->col("b0.out").back(), 1.0);
  }

  // Regression: with 0.3 dm3/(s bar) valves IDA's root finder landed exactly on
  // a reed switch's window edge (g = 0 at the returned root), and deciding the
  // tie from the region of the previous update pass made the switch toggle
  // until the System gave up ("does not settle"). The tie is now decided from
  // the region before the event; the sequence must complete.
  void exampleWithSmallValvesCompletes() {
    Project p = loadProject(sourceDir() + "/projects/sequence_a_b.pneumech.json");
    for (const char* a : {"vA.C_supply=3e-9", "vA.C_exhaust=3e-9", "vB.C_supply=3e-9", "vB.C_exhaust=3e-9",
                          "simulation.t_end=1.5"})
      applyOverride(p, a);
    auto r = simulate(p);
    QVERIFY2(r->result.ok(), r->result.message.c_str());
    QCOMPARE(r->col("seq.step").back(), 4.0);
    QVERIFY(std::abs(r->col("A.x").back()) < 1e-3 && std::abs(r->col("B.x").back()) < 1e-3);
  }
};

QTEST_APPLESS_MAIN(TestControl)
#include "test_control.moc"
