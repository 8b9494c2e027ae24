// RunControl: a run driven from another thread. Pause holds the solver
// (no rows, the same simulated time), resume continues to the same result
// as an undisturbed run, stop ends it (also while paused), and a paced run
// takes at least its simulated time in wall time. Pause and hand operations
// act at the next solver step, not only at the next output row.
#include "support/test_project.h"

#include "build/project_input.h"
#include "solver/run_control.h"
#include "support/controlled_run.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

using namespace pm;
using namespace pm::test;

namespace {

// Supply -> restriction -> 1 l tank: a smooth fill, cheap to integrate.
Project tankFill(double tEnd) {
  Project p;
  p.components.push_back(comp("src", "supply"));
  p.components.push_back(comp("r1", "restriction", {{"C", 1e-9}}));
  p.components.push_back(comp("tank", "reservoir", {{"V", 1e-3}}));
  wire(p, "src.1", "r1.1");
  wire(p, "r1.2", "tank.1");
  settings(p, tEnd, 1e-3);
  return p;
}

}  // namespace

class TestRunControl : public QObject {
  Q_OBJECT
 private slots:
  void pauseResumeMatchesUndisturbedRun() {
    const Project p = tankFill(2.0);
    auto ref = simulate(p);
    QVERIFY2(ref->result.ok(), ref->result.message.c_str());

    ControlledRun job(p);
    job.control.pause();  // held at the first output step
    job.start();
    QVERIFY(waitFor([&] { return job.control.holding(); }, 30));
    QCOMPARE(job.out.rows(), size_t(1));  // the initial row only
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    QCOMPARE(job.out.rows(), size_t(1));
    job.control.resume();
    // Pause again in the middle: rows and time stand still.
    QVERIFY(waitFor([&] { return job.out.rows() > 200; }, 30));
    job.control.pause();
    QVERIFY(waitFor([&] { return job.control.holding() || job.out.rows() == 2001; }, 30));
    if (job.control.holding()) {
      const size_t held = job.out.rows();
      const double t = job.out.times().back();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      QCOMPARE(job.out.rows(), held);
      QCOMPARE(job.out.times().back(), t);
    }
    job.control.resume();
    job.join();
    QVERIFY2(job.result.ok(), job.result.message.c_str());
    QCOMPARE(job.out.rows(), ref->out.rows());
    // Pausing does not change the solution: the solver state is kept as is.
    const auto a = job.out.column("tank.p"), b = ref->out.column("tank.p");
    for (size_t i = 0; i < a.size(); ++i) QCOMPARE(a[i], b[i]);
  }

  // The wall-time limit (issue 26): a run longer than its limit fails,
  // saying so, with its rows up to where it stopped; time held paused does
  // not count.
  void wallTimeLimitEndsARun() {
    Project p = loadProject(projectPath("pendulum.pneumech.json"));
    p.simulation.t_end = 86400;  // a day of swinging: minutes of solver work
    p.simulation.output_interval = 10;
    p.simulation.wall_time_limit = 0.3;
    Simulation sim(p);
    ResultStore out;
    const RunResult r = sim.run(out);
    QCOMPARE(int(r.status), int(RunStatus::Failed));
    QVERIFY2(r.message.find("the run took longer than its wall-time limit of 0.3 s (stopped at t = ") == 0,
             r.message.c_str());
    QVERIFY(r.stats.tReached < p.simulation.t_end);
    QCOMPARE(out.times().back(), r.stats.tReached);

    Project fill = tankFill(2.0);
    fill.simulation.wall_time_limit = 0.3;
    Simulation held(fill);
    ResultStore out2;
    RunControl control;
    control.pause();
    RunResult r2;
    std::thread worker([&] { r2 = held.run(out2, nullptr, &control); });
    QVERIFY(waitFor([&] { return control.holding(); }, 30));
    std::this_thread::sleep_for(std::chrono::milliseconds(600));  // twice the limit, paused
    control.resume();
    worker.join();
    QVERIFY2(r2.ok(), r2.message.c_str());
  }

  void stopWhilePaused() {
    ControlledRun job(tankFill(100.0));
    job.start();
    QVERIFY(waitFor([&] { return job.out.rows() > 10; }, 30));
    job.control.pause();
    QVERIFY(waitFor([&] { return job.control.holding(); }, 30));
    job.control.requestStop();
    job.join();
    QCOMPARE(job.result.status, RunStatus::Cancelled);
    QVERIFY(job.result.stats.tReached > 0.0 && job.result.stats.tReached < 100.0);
    QCOMPARE(job.out.times().back(), job.result.stats.tReached);
  }

  // A hand operation (interactive mode) switches a push button at the next
  // output step: rows before it keep the old state, rows after the new one.
  void operatePushButton() {
    Project p = tankFill(5.0);
    p.components.push_back(comp("pb", "push_button", {{"t_press", 1e9}, {"duration", 1.0}}));
    ControlledRun job(p);
    job.control.pause();
    job.start();
    QVERIFY(waitFor([&] { return job.control.holding(); }, 30));
    job.control.operate("pb", 1.0);
    job.control.operate("src", 1.0);  // not operable: ignored
    job.control.resume();
    QVERIFY(waitFor([&] { return job.out.rows() > 300; }, 30));
    job.control.pause();
    QVERIFY(waitFor([&] { return job.control.holding() || job.out.rows() == 5001; }, 30));
    const size_t n = job.out.rows();
    const bool released = job.control.holding();  // else the run ended first: no release
    job.control.operate("pb", 0.0);
    job.control.resume();
    job.join();
    QVERIFY2(job.result.ok(), job.result.message.c_str());
    const auto b = job.out.column("pb.out");
    QCOMPARE(b[0], 0.0);  // written before the press
    for (size_t i = 1; i < n; ++i) QCOMPARE(b[i], 1.0);
    for (size_t i = n; i < b.size(); ++i) QCOMPARE(b[i], 0.0);
    // Each hand operation that changes the button is one event (the press,
    // and the release when the run was held for it; operating "src" changes
    // nothing). The fill itself has none: supply, restriction and tank have no
    // root functions, and the button's timed press (t_press 1e9 s, roots at
    // 1e9 s and 1e9 + 1 s) lies beyond t_end = 5 s.
    QCOMPARE(job.result.stats.events, released ? 2L : 1L);
  }

  // A co-simulated run takes hand operations too, at the next exchange: the
  // tool changer's valve made hand-operated (no timer) extends the cylinder
  // only when pressed.
  void operateInCoSimulation() {
    Project p = loadProject(projectPath("tool_changer.pneumech.json"));
    p.find("v1")->inputs.erase("sol14");
    p.find("v1")->params["manual"] = 1.0;
    p.simulation.t_end = 0.6;
    p.simulation.coupling = "cosimulation";
    p.simulation.exchange_interval = 1e-3;
    auto stroke = [&](bool press) {  // cyl1.x of a run
      ControlledRun job(p);
      job.control.pause();
      job.start();
      if (!waitFor([&] { return job.control.holding(); }, 60)) qFatal("the co-simulation did not hold");
      if (press) job.control.operate("v1", 1.0);  // pressed at t = 0 and held
      job.control.resume();
      job.join();
      if (!job.result.ok()) qFatal("%s", job.result.message.c_str());
      return job.out.column("cyl1.x");
    };
    const auto x0 = stroke(false), x1 = stroke(true);
    QVERIFY2(*std::max_element(x0.begin(), x0.end()) < 1e-3, "moved without a press");
    QVERIFY2(*std::max_element(x1.begin(), x1.end()) > 0.09, qPrintable(QString::number(x1.back())));
  }

  // The hand press starts the A+ B+ A- B- sequence the way its timed press does.
  void handStartsSequence() {
    Project p = loadProject(projectPath("sequence_a_b.pneumech.json"));
    p.find("start")->params["t_press"] = 1e9;
    ControlledRun job(p);
    job.control.pause();
    job.start();
    QVERIFY(waitFor([&] { return job.control.holding(); }, 60));
    job.control.operate("start", 1.0);  // pressed at t = 0 and held
    job.control.resume();
    job.join();
    QVERIFY2(job.result.ok(), job.result.message.c_str());
    const auto step = job.out.column("seq.step"), b = job.out.column("start.out"), x = job.out.column("A.x");
    QCOMPARE(b[0], 0.0);
    QCOMPARE(b[1], 1.0);
    QCOMPARE(step[0], 0.0);
    QCOMPARE(step[1], 1.0);  // A+ entered at the press
    // ... and A extends (stroke 0.1 m in the example).
    QVERIFY2(*std::max_element(x.begin(), x.end()) > 0.09, qPrintable(QString::number(x.back())));
  }

  // A solver failure names the time and the object whose state IDA weighed
  // most: a step limit far below the output interval exhausts IDA's 200000
  // steps per output call (IDA_TOO_MUCH_WORK) within the first interval.
  void failureNamesTimeAndObject() {
    Project p = tankFill(0.01);
    settings(p, 0.01, 5e-3, {}, 1e-8);
    auto r = simulate(p);
    QCOMPARE(r->result.status, RunStatus::Failed);
    QVERIFY2(r->error.empty(), r->error.c_str());
    const std::string& m = r->result.message;
    QVERIFY2(m.rfind("integration failed at t = ", 0) == 0, m.c_str());
    QVERIFY2(m.find("IDA_TOO_MUCH_WORK") != std::string::npos, m.c_str());
    // The object is one of the model's (component or net), and named in the text.
    QVERIFY2(!r->result.object.empty(), m.c_str());
    QVERIFY2(m.find("largest local error in " + r->result.object + " (state ") != std::string::npos, m.c_str());
    bool known = false;
    for (const StateInfo& s : r->sim->system().states()) known = known || s.owner == r->result.object;
    QVERIFY2(known, r->result.object.c_str());
    // The rows before the failure stay (t = 0 at least), ending where it failed.
    QVERIFY(r->out.rows() >= 1);
    QVERIFY(r->result.stats.tReached > 0 && r->result.stats.tReached < 5e-3);
  }

  // Output rows 1 s apart, paced at real time: a pause and a hand operation
  // at about 0.3 s act there, long before the first row (t = 1 s). The
  // selector switch opens a valve to a tank; the tank has filled by the row
  // at 1 s (acted at the 1 s row, as before, it would still be at ambient).
  void pauseAndOperationActWithinAnOutputInterval() {
    Project p;
    p.components.push_back(comp("src", "supply"));
    p.components.push_back(comp("sel", "selector_switch"));
    p.components.push_back(comp("v", "valve_2_2_nc", {{"C_supply", 1e-9}}, {{"sol14", "sel.out"}}));
    p.components.push_back(comp("tank", "reservoir", {{"V", 1e-3}}));
    wire(p, "src.1", "v.1");
    wire(p, "v.2", "tank.1");
    settings(p, 3.0, 1.0);
    ControlledRun job(p);
    job.control.setPacing(1.0);
    const auto wall0 = std::chrono::steady_clock::now();
    job.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    job.control.pause();
    QVERIFY(waitFor([&] { return job.control.holding(); }, 30));
    const double heldAfter = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    qInfo("pause requested at 0.300 s wall, holding at %.3f s wall", heldAfter);
    QCOMPARE(job.out.rows(), size_t(1));  // held before the first output row
    job.control.operate("sel", 1.0);
    job.control.operate("sel", 0.0);  // the release: a detent switch stays
    job.control.resume();
    job.join();
    QVERIFY2(job.result.ok(), job.result.message.c_str());
    const auto sel = job.out.column("sel.out"), pt = job.out.column("tank.p"), vs = job.out.column("v.s");
    QCOMPARE(job.out.rows(), size_t(4));
    QCOMPARE(sel[0], 0.0);
    QCOMPARE(sel[1], 1.0);
    QCOMPARE(vs[1], 1.0);  // fully open by t = 1 s (10 ms switching)
    const double pAmb = p.simulation.ambient_pressure;
    qInfo("tank at t = 1 s: %.0f Pa above ambient", pt[1] - pAmb);
    QVERIFY2(pt[1] - pAmb > 1e4, qPrintable(QString::number(pt[1] - pAmb)));
    QVERIFY(pt[2] > pt[1]);

    // Without a pause, a click at 0.3 s wall time acts at about 0.3 s
    // simulated time (the paced clock), not at the end of the solver step it
    // arrived in: the tank at 1 s lies between the runs switched by a timer
    // at 0.25 s and at 0.6 s (the upper bound leaves room for a loaded machine).
    auto tankAt1s = [&](double tOn) {
      Project q = p;
      q.find("sel")->type = "time_switch";
      q.find("sel")->params = {{"t_on", tOn}};
      auto run = simulate(q);
      return run->out.column("tank.p")[1];
    };
    const double early = tankAt1s(0.25), late = tankAt1s(0.6);
    ControlledRun paced(p);
    paced.control.setPacing(1.0);
    paced.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    paced.control.operate("sel", 1.0);
    paced.join();
    QVERIFY2(paced.result.ok(), paced.result.message.c_str());
    const double p1 = paced.out.column("tank.p")[1];
    qInfo("tank at 1 s: timer at 0.25 s %.0f Pa, clicked at 0.3 s wall %.0f Pa, timer at 0.6 s %.0f Pa", early - pAmb,
          p1 - pAmb, late - pAmb);
    QVERIFY(p1 < early);
    QVERIFY(p1 > late);
  }

  // Pacing only slows a run down: a lower bound on wall time, which a slow
  // machine cannot break (no speed is asserted).
  void pacedRunKeepsToTheWallClock() {
    Simulation sim(tankFill(0.3));
    ResultStore out;
    RunControl control;
    control.setPacing(1.0);
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = sim.run(out, nullptr, &control);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY2(r.ok(), r.message.c_str());
    // The last proceed() is before the last step (t = 0.299 s of 0.3 s).
    QVERIFY2(wall >= 0.298, qPrintable(QString::number(wall)));
    // Twice as fast as real time: at least half of it.
    Simulation sim2(tankFill(0.3));
    ResultStore out2;
    RunControl fast;
    fast.setPacing(2.0);
    const auto t1 = std::chrono::steady_clock::now();
    QVERIFY(sim2.run(out2, nullptr, &fast).ok());
    const double wall2 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    QVERIFY2(wall2 >= 0.149, qPrintable(QString::number(wall2)));
  }
};

QTEST_MAIN(TestRunControl)
#include "test_run_control.moc"
