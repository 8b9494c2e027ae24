// Scripted controller (core/script): the sampled call discipline, errors with
// line numbers (project errors at compile time, failed runs at run time, CLI
// exit codes), the scripted PID against the built-in one, and the examples
// script_plc_cycle and sequence_a_b_b_a.
#include "build/project_input.h"
#include "model/project_error.h"
#include "support/test_project.h"

#include <QProcess>
#include <QTemporaryDir>

#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace pm;
using namespace pm::test;

namespace {

Component script(const std::string& id, double Ts, nlohmann::json inputs, nlohmann::json outputs,
                 const std::string& source) {
  return comp(id, "script_controller", {{"sample_time", Ts}}, {},
              {{"inputs", std::move(inputs)}, {"outputs", std::move(outputs)}, {"script", source}});
}

// A project that only runs the script (an integrator keeps the DAE non-empty).
Project scriptOnly(const Component& ctl, double tEnd = 0.1) {
  Project p;
  p.components = {comp("one", "constant", {{"value", 1.0}}), comp("clock", "integrator", {}, {{"in", "one.out"}}), ctl};
  settings(p, tEnd, 0.005);
  return p;
}

// Time at which the integral I of a piecewise-constant signal s (stepping
// from s0 to s0 + 1 between the rows i-1 and i) changed level: from
// I(t_i) - I(t_i-1) = s0 (t* - t_i-1) + (s0 + 1)(t_i - t*). BDF integrates a
// constant exactly, so t* is as exact as the event itself.
double stepInstant(const Run& run, const std::string& signal, const std::string& integral, double level, double after) {
  const auto s = run.col(signal), I = run.col(integral);
  for (size_t i = 1; i < s.size(); ++i) {
    if (run.t[i] <= after || !(s[i - 1] < level && s[i] >= level)) continue;
    const double dI = I[i] - I[i - 1], s0 = s[i - 1], s1 = s[i];
    return run.t[i] - (dI - s0 * (run.t[i] - run.t[i - 1])) / (s1 - s0);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

struct CliResult {
  int code;
  QString err;
};

// A run still going after `ms` is killed and reported as code -1 (a hang
// fails the test instead of stalling it).
CliResult cli(const QStringList& args, int ms = 120000) {
  QProcess p;
  p.start(PM_CLI, args);
  if (!p.waitForFinished(ms)) {
    p.kill();
    p.waitForFinished(5000);
    return {-1, "(killed: still running after " + QString::number(ms / 1000) + " s)"};
  }
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
}

// Writes a project whose controller runs data.file = `ref` (relative to
// `folder`) and returns its path.
QString fileProject(const QString& folder, const std::string& ref) {
  Project p = scriptOnly(comp("ctl", "script_controller", {}, {}, {{"outputs", {"y"}}, {"file", ref}}));
  const std::string path = (folder + "/p.pneumech.json").toStdString();
  saveProject(p, path);
  return QString::fromStdString(path);
}

void writeText(const QString& path, const std::string& text) {
  std::ofstream f(path.toStdString(), std::ios::binary | std::ios::trunc);
  f << text;
}

}  // namespace

class TestScriptController : public QObject {
  Q_OBJECT
 private slots:
  // step() runs exactly once per sample instant k Ts (n counts the calls),
  // outputs hold between samples, and a sample coinciding with another
  // event (the button pressed at 0.05 s, exactly on a sample) sees the
  // settled input whatever the element order: when the first call at an
  // instant saw the old value, the step is run again from the state saved
  // before the instant, so n is not counted twice.
  void onceperSampleHeldAndSettled() {
    const std::string src =
        "var n = 0, sum = 0;\n"
        "function step(t, u) { n++; sum += u.b; return { n: n, t: t, b: u.b, sum: sum }; }\n";
    for (bool scriptFirst : {true, false}) {
      Component ctl = script("ctl", 0.01, {{"b", "btn.out"}}, {"n", "t", "b", "sum"}, src);
      Component btn = comp("btn", "push_button", {{"t_press", 0.05}, {"duration", 1.0}});
      Project p = scriptOnly(ctl, 0.1);
      if (scriptFirst)
        p.components.push_back(btn);
      else
        p.components.insert(p.components.begin(), btn);
      auto run = simulate(p);
      REQUIRE_OK(run);
      // Rows at 0.005, 0.015, ...: between samples k Ts.
      auto row = [&](const char* ch, double th) { return run->col(ch)[run->indexAt(th)]; };
      for (int k = 0; k < 10; ++k) {
        const double th = 0.01 * k + 0.005;
        CHECK_ABS(row("ctl.n", th), k + 1.0, 0.0);
        CHECK_ABS(row("ctl.t", th), 0.01 * k, 1e-12);
        CHECK_ABS(row("ctl.b", th), k >= 5 ? 1.0 : 0.0, 0.0);
        CHECK_ABS(row("ctl.sum", th), k >= 5 ? k - 4.0 : 0.0, 0.0);
      }
    }
  }

  // init() runs once before the first step; outputs start at the declared
  // initial values, and an output step() leaves out keeps its value.
  void initAndInitialValues() {
    auto run = simulate(scriptOnly(script("ctl", 0.02, nlohmann::json::object(), {{"a", 7.0}, {"b", 0.0}, {"c", 0.0}},
                                          "var calls = 0;\n"
                                          "function init() { calls = 100; return { b: 3 }; }\n"
                                          "function step(t) { calls++; return t >= 0.04 ? { c: calls } : {}; }\n")));
    REQUIRE_OK(run);
    CHECK_ABS(run->at("ctl.a", 0.05), 7.0, 0.0);
    CHECK_ABS(run->at("ctl.b", 0.05), 3.0, 0.0);
    CHECK_ABS(run->at("ctl.c", 0.01), 0.0, 0.0);
    CHECK_ABS(run->at("ctl.c", 0.05), 103.0, 0.0);  // steps at 0, 0.02, 0.04
    CHECK_ABS(run->at("ctl.c", 0.095), 105.0, 0.0);
  }

  // The scripted PID of projects/script_pid_servo is the built-in pid's
  // sampled law: both axes follow the same stroke within 1e-6 of the stroke
  // (they agree to rounding; measured 0).
  void scriptedPidMatchesBuiltIn() {
    const std::string file = projectPath("script_pid_servo.pneumech.json");
    auto run = simulate(loadProject(file), file);
    REQUIRE_OK(run);
    const auto x1 = run->col("cyl1.x"), x2 = run->col("cyl2.x"), u1 = run->col("pid1.out"), u2 = run->col("ctl2.u");
    double dx = 0.0, du = 0.0;
    for (size_t i = 0; i < x1.size(); ++i) {
      dx = std::max(dx, std::abs(x1[i] - x2[i]));
      du = std::max(du, std::abs(u1[i] - u2[i]));
    }
    qInfo("max |x1 - x2| = %.3g m, max |u1 - u2| = %.3g, max |u1| = %.3g", dx, du, run->maxAbs("pid1.out", 0.0, 1.5));
    QVERIFY(dx <= 1e-6 * 0.2);
    QVERIFY(du <= 1e-6);
    // Not two cylinders at rest: the loop moved the axis towards 120 mm and
    // back, with large commands.
    QVERIFY(run->at("cyl1.x", 0.6) > 0.08);
    QVERIFY(run->at("cyl1.x", 1.5) < 0.05);
    QVERIFY(run->maxAbs("pid1.out", 0.0, 1.5) > 0.1);
  }

  // A syntax error is a project error at compile time naming the component,
  // the field and the script line.
  void syntaxErrorIsProjectError() {
    Project p = scriptOnly(script("ctl", 0.01, nlohmann::json::object(), {"y"},
                                  "function step(t, u) {\n  var y = 1;\n  y = ;\n  return { y: y };\n}\n"));
    try {
      Simulation sim(p, "bad.pneumech.json");
      QFAIL("no error for a syntax error");
    } catch (const ProjectError& e) {
      qInfo("%s", e.what());
      QCOMPARE(e.file(), std::string("bad.pneumech.json"));
      QCOMPARE(e.object(), std::string("ctl"));
      QCOMPARE(e.field(), std::string("data.script"));
      QVERIFY(e.message().find("line 3: SyntaxError") != std::string::npos);
    }
  }

  // No step(), a throwing top level, a missing file: project errors.
  void loadErrorsAreProjectErrors() {
    auto message = [](const Project& p) -> std::string {
      try {
        Simulation sim(p, "x.pneumech.json");
      } catch (const ProjectError& e) {
        return e.field() + " | " + e.message();
      }
      return "no error";
    };
    const auto none = nlohmann::json::object();
    QCOMPARE(message(scriptOnly(script("ctl", 0.01, none, {"y"}, "function stp() {}\n"))),
             std::string("data.script | script: defines no function step(t, inputs)"));
    const std::string thrown = message(scriptOnly(script("ctl", 0.01, none, {"y"}, "\nvar k = [];\nk.x.y = 2;\n")));
    QVERIFY2(thrown.find("data.script | script line 3: TypeError") == 0, thrown.c_str());
    Component f = comp("ctl", "script_controller", {}, {}, {{"outputs", {"y"}}, {"file", "no_such.js"}});
    const std::string missing = message(scriptOnly(f));
    QVERIFY2(missing.find("data.file | cannot read script file") == 0, missing.c_str());
    Component both = f;
    both.data["script"] = "function step() {}";
    QVERIFY(message(scriptOnly(both)).find("data.script | give the program either") == 0);
    // A controller just placed (no data yet) saves and opens again; only a
    // run refuses it.
    Project fresh = scriptOnly(comp("ctl", "script_controller"));
    QTemporaryDir dir;
    const std::string path = dir.filePath("fresh.pneumech.json").toStdString();
    saveProject(fresh, path);
    QCOMPARE(loadProject(path).components.size(), fresh.components.size());
    QVERIFY(message(fresh).find("data.outputs | missing") == 0);
    Component badRef = script("ctl", 0.01, {{"x", "cyl1"}}, {"y"}, "function step() {}");
    QVERIFY(message(scriptOnly(badRef)).find("data.inputs.x | signal reference 'cyl1' must read") == 0);
    Component noSuch = script("ctl", 0.01, {{"x", "nobody.out"}}, {"y"}, "function step() {}");
    QVERIFY2(message(scriptOnly(noSuch)).find("data.inputs.x") == 0, message(scriptOnly(noSuch)).c_str());
  }

  // An exception in step() stops the run cleanly: Failed, with the
  // component, the time, the script line and the message.
  void runtimeErrorFailsRun() {
    const auto none = nlohmann::json::object();
    auto run = simulate(scriptOnly(script("ctl", 0.01, none, {"y"},
                                          "function step(t) {\n"
                                          "  if (t > 0.045)\n"
                                          "    throw new Error('valve jammed');\n"
                                          "  return { y: t };\n"
                                          "}\n")));
    QVERIFY(!run->ok());
    QCOMPARE(run->result.status, RunStatus::Failed);
    const std::string m = run->result.message;
    qInfo("%s", m.c_str());
    QVERIFY(m.find("ctl: script error at t = 0.05") == 0);
    QVERIFY(m.find("script line 3: Error: valve jammed (in step())") != std::string::npos);
    // The results up to the failure are kept.
    CHECK_ABS(run->at("ctl.y", 0.035), 0.03, 1e-12);

    auto typeErr = simulate(scriptOnly(script("ctl", 0.01, none, {"y"},
                                              "var s = null;\nfunction step(t) {\n  return { y: s.level };\n}\n")));
    QCOMPARE(typeErr->result.status, RunStatus::Failed);
    QVERIFY2(typeErr->result.message.find("script line 3: TypeError") != std::string::npos,
             typeErr->result.message.c_str());

    auto unknown = simulate(scriptOnly(script("ctl", 0.01, none, {"y"}, "function step(t) { return { z: 1 }; }")));
    QVERIFY(unknown->result.message.find("returned 'z', which is not a declared output (data.outputs: y)") !=
            std::string::npos);
    auto nan = simulate(scriptOnly(script("ctl", 0.01, none, {"y"}, "function step(t) { return { y: 0 / 0 }; }")));
    QVERIFY(nan->result.message.find("returned output 'y' = NaN") != std::string::npos);
  }

  // An endless loop is interrupted after time_limit (wall time) and fails
  // the run; one in the top level fails the compile.
  void endlessLoopInterrupted() {
    Component ctl = script("ctl", 0.01, nlohmann::json::object(), {"y"},
                           "function step(t) {\n  while (t > 0.015) {}\n  return { y: 1 };\n}\n");
    ctl.params["time_limit"] = 0.3;
    auto run = simulate(scriptOnly(ctl));
    QCOMPARE(run->result.status, RunStatus::Failed);
    QVERIFY2(run->result.message.find("ctl: script error at t = 0.02") == 0 &&
                 run->result.message.find("did not return within 0.3 s (an endless loop?) (in step())") != std::string::npos,
             run->result.message.c_str());
    Component top = script("ctl", 0.01, nlohmann::json::object(), {"y"}, "for (;;) {}\nfunction step() {}\n");
    top.params["time_limit"] = 0.3;
    auto bad = simulate(scriptOnly(top));
    QVERIFY2(bad->error.find("field 'data.script': script: did not return within 0.3 s") !=
                 std::string::npos,
             bad->error.c_str());
  }

  // Restoring the script's state runs under the time limit too (issue #26,
  // point 4): a global whose setter loops forever, restored when the button
  // pressed on a sample instant makes that instant's step run again, ends
  // the run with the time-limit error instead of hanging the command line.
  void restoreUnderTimeLimit() {
    QTemporaryDir dir;
    Component ctl = script("ctl", 0.01, {{"b", "btn.out"}}, {"y"},
                           "Object.defineProperty(this, 'trap', { enumerable: true, configurable: true,\n"
                           "  get: function () { return 1; }, set: function (v) { for (;;) {} } });\n"
                           "function step(t, u) { return { y: u.b }; }\n");
    ctl.params["time_limit"] = 0.5;
    Project p = scriptOnly(ctl, 0.1);
    p.components.push_back(comp("btn", "push_button", {{"t_press", 0.05}, {"duration", 1.0}}));
    const std::string path = dir.filePath("trap.pneumech.json").toStdString();
    saveProject(p, path);
    const CliResult r = cli({"simulate", QString::fromStdString(path), "-q"}, 60000);
    QVERIFY2(r.code == 3, qPrintable(r.err));
    QVERIFY2(r.err.contains("ctl: script error at t = 0.05") &&
                 r.err.contains("did not return within 0.5 s (an endless loop?) (in restoring the script's state)"),
             qPrintable(r.err));
  }

  // An allocation loop is stopped at memory_limit with a clear error, in a
  // step (the run fails) and in the top level (a project error); the time
  // limit is far, so only the memory limit can stop it in time.
  void allocationLoopHitsMemoryLimit() {
    const auto none = nlohmann::json::object();
    Component ctl = script("ctl", 0.01, none, {"y"},
                           "var keep = [];\n"
                           "function step(t) {\n"
                           "  while (t > 0.015) keep.push(new Float64Array(1 << 20));\n"
                           "  return { y: keep.length };\n"
                           "}\n");
    ctl.params["time_limit"] = 3.0;
    ctl.params["memory_limit"] = 64e6;
    const auto t0 = std::chrono::steady_clock::now();
    auto run = simulate(scriptOnly(ctl));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QCOMPARE(run->result.status, RunStatus::Failed);
    QVERIFY2(run->result.message.find("ctl: script error at t = 0.02") == 0 &&
                 run->result.message.find("used more than 64 MB of memory (memory_limit) and was stopped") !=
                     std::string::npos &&
                 run->result.message.find("(in step())") != std::string::npos,
             run->result.message.c_str());
    QVERIFY2(wall < 2.5, qPrintable(QString::number(wall)));  // stopped by memory, well before the time limit
    Component top = script("ctl", 0.01, none, {"y"},
                           "var a = [];\nfor (;;) a.push(new Float64Array(1 << 20));\nfunction step() {}\n");
    top.params["time_limit"] = 3.0;
    top.params["memory_limit"] = 64e6;
    auto bad = simulate(scriptOnly(top));
    QVERIFY2(bad->error.find("field 'data.script': script") != std::string::npos &&
                 bad->error.find("used more than 64 MB of memory (memory_limit)") != std::string::npos,
             bad->error.c_str());
  }

  // data.file stays inside the project's folder and is a regular file of at
  // most 1 MiB, examined before it is opened (issue #26, point 4). Each case
  // is refused by plain `pneumech info` (exit 2) naming data.file, the
  // reference and the reason, quickly (a FIFO does not block, /dev/zero is
  // not read), and the message never quotes the file: the outside file is
  // a program whose ReferenceError would name the secret.
  void scriptFileConfinedToProjectFolder() {
    QTemporaryDir dir;
    const QString proj = dir.filePath("proj");
    QVERIFY(QDir(dir.path()).mkpath("proj/sub") && QDir(dir.path()).mkpath("elsewhere"));
    const QString secret = dir.filePath("secret.js");
    writeText(secret, "hunter2_password;\nfunction step() {}\n");
    writeText(dir.filePath("elsewhere/lib.js"), "hunter2_password;\nfunction step() {}\n");
    QCOMPARE(::mkfifo((proj + "/pipe.js").toLocal8Bit().constData(), 0644), 0);
    writeText(proj + "/big.js", "//" + std::string(1 << 20, 'x') + "\n");
    QVERIFY(QFile::link(secret, proj + "/link.js"));
    QVERIFY(QFile::link("/dev/zero", proj + "/zero.js"));
    QVERIFY(QFile::link(dir.filePath("elsewhere"), proj + "/lib"));
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"../secret.js", "it is outside the project's folder"},
        {"sub/../../secret.js", "it is outside the project's folder"},
        {secret.toStdString(), "it is an absolute path"},
        {"/etc/passwd", "it is an absolute path"},
        {"/dev/zero", "it is an absolute path"},
        {"pipe.js", "it is a FIFO (named pipe), not a regular file"},
        {"big.js", "it is larger than 1 MiB (1048579 bytes)"},
        {"link.js", "it leads outside the project's folder through a symbolic link"},
        {"zero.js", "it leads outside the project's folder through a symbolic link"},
        {"lib/lib.js", "it leads outside the project's folder through a symbolic link"},
        {"sub", "it is a folder, not a regular file"},
    };
    for (const auto& [ref, reason] : cases) {
      const CliResult r = cli({"info", fileProject(proj, ref)}, 30000);
      const QString expected = QString::fromStdString("field 'data.file': cannot read script file '" + ref + "': " + reason);
      QVERIFY2(r.code == 2 && r.err.contains(expected), qPrintable(QString::fromStdString(ref) + " -> " + r.err));
      QVERIFY2(!r.err.contains("hunter2") && !r.err.contains("root:"), qPrintable(r.err));
    }
    // Inside the folder, also through a subfolder: read and run.
    writeText(proj + "/sub/ok.js", "function step(t) { return { y: 2 }; }\n");
    const CliResult ok = cli({"simulate", fileProject(proj, "sub/../sub/ok.js"), "-q"}, 60000);
    QVERIFY2(ok.code == 0, qPrintable(ok.err));
  }

  // The command line: syntax error -> exit 2, run-time error -> exit 3, both
  // with the line number on stderr, no crash.
  void commandLineExitCodes() {
    QTemporaryDir dir;
    auto write = [&](const char* name, const std::string& src) {
      Project p = scriptOnly(script("ctl", 0.01, nlohmann::json::object(), {"y"}, src));
      const std::string path = dir.filePath(name).toStdString();
      saveProject(p, path);
      return QString::fromStdString(path);
    };
    const CliResult syntax = cli({"simulate", write("syntax.pneumech.json", "function step(t) {\n  return { y: 1 ;\n}\n")});
    QCOMPARE(syntax.code, 2);
    QVERIFY2(syntax.err.contains("object 'ctl', field 'data.script': script line 2: SyntaxError"), qPrintable(syntax.err));
    const CliResult thrown =
        cli({"simulate", write("throw.pneumech.json", "function step(t) {\n  if (t > 0.02) undefinedCall();\n  return {};\n}\n")});
    QCOMPARE(thrown.code, 3);
    QVERIFY2(thrown.err.contains("simulation failed: ctl: script error at t = 0.03") &&
                 thrown.err.contains("script line 2: ReferenceError: undefinedCall is not defined"),
             qPrintable(thrown.err));
  }

  // `report` makes its QApplication before the run, so the controller's
  // QJSEngine finds it instead of making a second application object.
  void commandLineReport() {
    QTemporaryDir dir;
    const QString pdf = dir.filePath("plc.pdf");
    const CliResult r =
        cli({"report", QString::fromStdString(projectPath("script_plc_cycle.pneumech.json")), "--pdf", pdf, "-q"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(QFileInfo(pdf).size() > 1000);
  }

  // projects/script_plc_cycle: the scan-based cycle A+ B+ dwell A- B-,
  // repeated while the start switch is on. Each state change happens at the
  // first scan (k * 5 ms) at or after its condition became true, the dwell
  // ends 0.3 s after the scan that started it, and the strokes follow in
  // order: two complete cycles.
  void plcCycleExample() {
    const std::string file = projectPath("script_plc_cycle.pneumech.json");
    Project p = loadProject(file);
    // Integrals of the state and the switches give their change instants.
    for (const char* s : {"plc.state", "a0.out", "a1.out", "b0.out", "b1.out", "start.out"})
      p.components.push_back(comp(std::string("I_") + std::string(s).substr(0, std::string(s).find('.')),
                                  "integrator", {}, {{"in", s}}));
    auto run = simulate(p, file);
    REQUIRE_OK(run);
    const double Ts = 0.005;
    auto scanAfter = [&](double t) { return std::ceil(t / Ts - 1e-9) * Ts; };
    auto rise = [&](const std::string& sig, double after) {
      const std::string c = sig.substr(0, sig.find('.'));
      return stepInstant(*run, sig, "I_" + c + ".out", 0.5, after);
    };
    CHECK_ABS(run->at("plc.cycles", 2.99), 2.0, 0.0);
    double t = 0.0;
    for (int cycle = 0; cycle < 2; ++cycle) {
      const double tStart = rise("plc.state", t);  // 0 -> 1, A+
      if (cycle == 0)
        CHECK_ABS(tStart, 0.1, 1e-9);  // start pressed at 0.1 s, on a scan
      else
        CHECK_ABS(tStart, scanAfter(t) + Ts, 1e-9);  // 5 -> 0 at the scan after b0, 0 -> 1 at the next
      const double ta1 = rise("a1.out", tStart);
      const double tB = stepInstant(*run, "plc.state", "I_plc.out", 1.5, tStart);  // 1 -> 2, B+
      CHECK_ABS(tB, scanAfter(ta1), 1e-9);
      const double tb1 = rise("b1.out", tB);
      const double tDwell = stepInstant(*run, "plc.state", "I_plc.out", 2.5, tB);  // 2 -> 3
      CHECK_ABS(tDwell, scanAfter(tb1), 1e-9);
      const double tAminus = stepInstant(*run, "plc.state", "I_plc.out", 3.5, tDwell);  // 3 -> 4, A-
      CHECK_ABS(tAminus - tDwell, 0.3, 1e-9);
      // A retracts only now: a0 comes on after A-, then B- at the next scan.
      const double ta0 = rise("a0.out", tAminus);
      QVERIFY(ta0 > tAminus);
      const double tBminus = stepInstant(*run, "plc.state", "I_plc.out", 4.5, tAminus);  // 4 -> 5, B-
      CHECK_ABS(tBminus, scanAfter(ta0), 1e-9);
      const double tb0 = rise("b0.out", tBminus);
      QVERIFY(tb0 > tBminus);
      qInfo("cycle %d: A+ %.4f  B+ %.4f  dwell %.4f  A- %.4f  B- %.4f  b0 %.4f s", cycle + 1, tStart, tB, tDwell,
            tAminus, tBminus, tb0);
      // Strokes really happened: A out during the dwell, both in at the end.
      QVERIFY(run->at("A.x", tDwell + 0.1) > 0.098);
      QVERIFY(run->at("B.x", tDwell + 0.1) > 0.098);
      t = tb0;
    }
    // Start released at 1.5 s: no third cycle.
    QVERIFY(std::isnan(rise("plc.state", t)));
    CHECK_ABS(run->at("plc.state", 2.99), 0.0, 0.0);
  }

  // projects/sequence_a_b_b_a: A+ B+ (dwell 0.25 s) B- A- with step_sequence
  // and on_delay_timer. Each transition fires at the instant its condition
  // becomes true (the switch or timer event), to 1e-6 s.
  void sequenceExampleTransitions() {
    const std::string file = projectPath("sequence_a_b_b_a.pneumech.json");
    Project p = loadProject(file);
    for (const char* s : {"seq.step", "a0.out", "a1.out", "b0.out", "b1.out", "T1.out"})
      p.components.push_back(comp(std::string("I_") + std::string(s).substr(0, std::string(s).find('.')),
                                  "integrator", {}, {{"in", s}}));
    auto run = simulate(p, file);
    REQUIRE_OK(run);
    auto rise = [&](const std::string& sig, double after) {
      return stepInstant(*run, sig, "I_" + sig.substr(0, sig.find('.')) + ".out", 0.5, after);
    };
    auto stepTo = [&](int k, double after) { return stepInstant(*run, "seq.step", "I_seq.out", k - 0.5, after); };
    const double t1 = stepTo(1, 0.0);
    CHECK_ABS(t1, 0.1, 1e-6);  // start button
    const double ta1 = rise("a1.out", t1), t2 = stepTo(2, t1);
    CHECK_ABS(t2, ta1, 1e-6);
    const double tb1 = rise("b1.out", t2), t3 = stepTo(3, t2);
    CHECK_ABS(t3, tb1, 1e-6);
    const double tT = rise("T1.out", t3), t4 = stepTo(4, t3);
    CHECK_ABS(tT - tb1, 0.25, 1e-6);
    CHECK_ABS(t4, tT, 1e-6);
    // B- : b0 comes back on when B is home, then A-.
    const double tb0 = rise("b0.out", t4), t5 = stepTo(5, t4);
    CHECK_ABS(t5, tb0, 1e-6);
    const double ta0 = rise("a0.out", t5), t6 = stepTo(6, t5);
    CHECK_ABS(t6, ta0, 1e-6);
    qInfo("transitions: %.6f %.6f %.6f %.6f %.6f %.6f s", t1, t2, t3, t4, t5, t6);
    // Order of the strokes: A out before B out, B home before A home.
    QVERIFY(t1 < t2 && t2 < t3 && t3 < t4 && t4 < t5 && t5 < t6 && t6 < 1.8);
    QVERIFY(run->at("A.x", t3) > 0.098 && run->at("B.x", t3) > 0.096);
    QVERIFY(run->at("B.x", t6) < 0.003 && run->at("A.x", t6) < 0.003);
  }
};

QTEST_MAIN(TestScriptController)
#include "test_script_controller.moc"
