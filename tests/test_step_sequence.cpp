// Step sequence start / stop / reset (core/control/step_sequence.cpp): time
// switches make every condition's instant known, so the active step at each
// sample follows by hand. The displacement-step diagram
// (core/results/displacement_step.h) of the example A+ B+ A- B-.
#include "build/compiler.h"
#include "build/project_input.h"
#include "results/displacement_step.h"
#include "support/test_project.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace pm;
using namespace pm::test;

class TestStepSequence : public QObject {
  Q_OBJECT

 private slots:
  // Steps s0 -> s1 -> s2 -> s3 (non-cyclic; output Y = step index), conditions
  // a, b, c turning on at 0.1, 0.3, 0.5 s and staying on. Start pressed
  // 0.2..0.25 s and 0.6..0.65 s and 0.9..0.95 s, stop 0.4..0.45 s, reset
  // 0.8..0.85 s:
  //   until 0.2 waiting in s0 although a holds; 0.2 start: s1; 0.3: s2;
  //   0.4 stop: halted, c at 0.5 does not fire; 0.6 start: s3;
  //   0.8 reset: s0, Y = 0, not running, and still waiting after 0.85;
  //   0.9 start: s0 -> s1 -> s2 -> s3 in one event (all conditions hold).
  void startStopReset() {
    Project p;
    settings(p, 1.0, 1e-3);
    const nlohmann::json data = {{"outputs", {"Y"}},
                                 {"steps",
                                  {{{"name", "s0"}, {"set", {{"Y", 0}}}, {"when", {"a.out"}}},
                                   {{"name", "s1"}, {"set", {{"Y", 1}}}, {"when", {"b.out"}}},
                                   {{"name", "s2"}, {"set", {{"Y", 2}}}, {"when", {"c.out"}}},
                                   {{"name", "s3"}, {"set", {{"Y", 3}}}}}}};
    auto on = [](const char* id, double t) { return comp(id, "time_switch", {{"t_on", t}}); };
    auto button = [](const char* id, double t) {
      return comp(id, "push_button", {{"t_press", t}, {"duration", 0.05}});
    };
    p.components = {
        comp("tank", "reservoir"),
        on("a", 0.1),
        on("b", 0.3),
        on("c", 0.5),
        button("start1", 0.2),
        button("start2", 0.6),
        button("start3", 0.9),
        comp("start", "or_gate", {}, {{"in1", "start1.out"}, {"in2", "start2.out"}, {"in3", "start3.out"}}),
        button("stop", 0.4),
        button("reset", 0.8),
        comp("seq", "step_sequence", {}, {{"start", "start.out"}, {"stop", "stop.out"}, {"reset", "reset.out"}}, data)};
    auto r = simulate(p);
    REQUIRE_OK(r);
    auto at = [&](const char* ch, double t) { return r->col(ch)[r->indexAt(t)]; };
    const std::vector<std::tuple<double, double, double>> expect = {
        // t, step, running
        {0.0, 0, 0},  {0.15, 0, 0}, {0.25, 1, 1}, {0.35, 2, 1}, {0.42, 2, 0}, {0.55, 2, 0},
        {0.65, 3, 1}, {0.75, 3, 1}, {0.82, 0, 0}, {0.87, 0, 0}, {0.95, 3, 1}, {1.0, 3, 1}};
    for (auto [t, step, running] : expect) {
      QVERIFY2(at("seq.step", t) == step, qPrintable(QString("step at t = %1: %2").arg(t).arg(at("seq.step", t))));
      QVERIFY2(at("seq.running", t) == running, qPrintable(QString("running at t = %1").arg(t)));
      QCOMPARE(at("seq.Y", t), step);
    }
  }

  // Without a start input the sequence runs from t = 0; a stop halts it only
  // while on (no start to wait for).
  void runsWithoutStartInput() {
    Project p;
    settings(p, 0.5, 1e-3);
    const nlohmann::json data = {{"outputs", {"Y"}},
                                 {"steps",
                                  {{{"set", {{"Y", 0}}}, {"when", {"a.out"}}},
                                   {{"set", {{"Y", 1}}}, {"when", {"b.out"}}},
                                   {{"set", {{"Y", 2}}}}}}};
    p.components = {comp("tank", "reservoir"), comp("a", "time_switch", {{"t_on", 0.1}}),
                    comp("b", "time_switch", {{"t_on", 0.2}}),
                    comp("stop", "push_button", {{"t_press", 0.15}, {"duration", 0.1}}),
                    comp("seq", "step_sequence", {}, {{"stop", "stop.out"}}, data)};
    auto r = simulate(p);
    REQUIRE_OK(r);
    auto at = [&](const char* ch, double t) { return r->col(ch)[r->indexAt(t)]; };
    QCOMPARE(at("seq.running", 0.05), 1.0);
    QCOMPARE(at("seq.step", 0.12), 1.0);
    QCOMPARE(at("seq.step", 0.22), 1.0);  // halted while stop is on, b already on
    QCOMPARE(at("seq.running", 0.22), 0.0);
    QCOMPARE(at("seq.step", 0.27), 2.0);  // stop released at 0.25: runs, b holds
  }

  // sequence_a_b: steps start, A+, B+, A-, B- entered in order; at each step
  // change the cylinders stand where the previous motion's limit switch fired:
  // retracted switches a0/b0 are on for x <= 3 mm, extended ones a1/b1 for
  // x >= 97 mm (windows of 4 mm at 1 and 99 mm), plus up to one output sample
  // of travel (1 ms at < 1 m/s): tolerance 4 mm around 0 and 100 mm.
  //   start: A 0, B 0;  A+: A 0, B 0;  B+: A 100, B 0;  A-: A 100, B 100;
  //   B-: A 0, B 100;  end: A 0, B 0.
  void displacementStepDiagramOfExample() {
    const Project p = loadProject(projectPath("sequence_a_b.pneumech.json"));
    auto r = simulate(p);
    REQUIRE_OK(r);
    const DisplacementStepDiagram d = displacementStepDiagram(p, r->out, "seq");
    qInfo("%s", formatDiagram(d).c_str());
    QCOMPARE(d.actuators, (std::vector<std::string>{"A", "B"}));
    QCOMPARE(d.strokes, (std::vector<double>{0.1, 0.1}));
    const std::vector<std::string> names = {"start", "A+", "B+", "A-", "B-"};
    const std::vector<std::pair<double, double>> at = {{0, 0}, {0, 0}, {0.1, 0}, {0.1, 0.1}, {0, 0.1}};
    QCOMPARE(d.rows.size(), names.size());
    for (size_t k = 0; k < names.size(); ++k) {
      const auto& row = d.rows[k];
      QCOMPARE(row.step, static_cast<int>(k));
      QCOMPARE(row.name, names[k]);
      QVERIFY(k == 0 || row.t > d.rows[k - 1].t);
      QVERIFY2(std::abs(row.x[0] - at[k].first) <= 4e-3 && std::abs(row.x[1] - at[k].second) <= 4e-3,
               qPrintable(QString("step %1: A %2 m, B %3 m").arg(k).arg(row.x[0]).arg(row.x[1])));
      // The row's time is the first sample in the new step.
      const size_t i = r->indexAt(row.t);
      QCOMPARE(r->col("seq.step")[i], static_cast<double>(k));
      if (k > 0) QCOMPARE(r->col("seq.step")[i - 1], static_cast<double>(k - 1));
    }
    QVERIFY(std::abs(d.xEnd[0]) <= 1e-3 && std::abs(d.xEnd[1]) <= 1e-3);
    // Several transitions in one event give one row per step passed, at one time.
    Project q;
    settings(q, 0.2, 1e-3);
    const nlohmann::json data = {{"outputs", {"Y"}},
                                 {"steps", {{{"when", {"ts.out"}}}, {{"when", {"ts.out"}}}, {{"name", "last"}}}}};
    q.components = {comp("cyl", "cylinder_double"), comp("ts", "time_switch", {{"t_on", 0.1}}),
                    comp("seq", "step_sequence", {}, {}, data)};
    auto r2 = simulate(q);
    REQUIRE_OK(r2);
    const auto d2 = displacementStepDiagram(q, r2->out, "seq");
    QCOMPARE(d2.rows.size(), size_t(3));
    QCOMPARE(d2.rows[1].t, d2.rows[2].t);
    QCOMPARE(d2.rows[2].name, std::string("last"));
  }

  // A sequence whose conditions and start read only switches and buttons
  // (discrete values) has roots that read states only, so the solver's root
  // checks skip evaluating the circuit (7.5 % of sequence_a_b's solver
  // instructions); a condition on a computed signal (a gain's output, which
  // its evaluation forms) makes them read the evaluation again. The results
  // are the same either way (tests/tools/compare_examples.py: byte-identical).
  void rootsReadStatesOnlyFollowTheInputs() {
    for (const char* cond : {"ls.out", "g.out"}) {
      Project p;
      settings(p, 0.1, 1e-2);
      const nlohmann::json data = {{"outputs", {"Y"}},
                                   {"steps",
                                    {{{"name", "s0"}, {"set", {{"Y", 0}}}, {"when", {cond}}},
                                     {{"name", "s1"}, {"set", {{"Y", 1}}}}}}};
      p.components = {comp("tank", "reservoir"),
                      comp("s", "sine", {{"amplitude", 0.01}, {"frequency", 10.0}}),
                      comp("ls", "limit_switch", {{"x_switch", 0.005}}, {{"position", "s.out"}}),
                      comp("g", "gain", {{"k", 100.0}}, {{"in", "s.out"}}),
                      comp("start", "push_button", {{"t_press", 0.01}}),
                      comp("seq", "step_sequence", {}, {{"start", "start.out"}}, data)};
      const auto sys = Compiler::compile(p);
      const bool plain = std::string(cond) == "ls.out";
      int seen = 0;
      for (const auto& el : sys->elements()) {
        if (el->id() == "seq") {
          QCOMPARE(el->rootsReadStatesOnly(), plain);
          ++seen;
        }
        if (el->id() == "ls") {
          QVERIFY(el->rootsReadStatesOnly());
          ++seen;
        }
      }
      QCOMPARE(seen, 2);
    }
  }
};

QTEST_APPLESS_MAIN(TestStepSequence)
#include "test_step_sequence.moc"
