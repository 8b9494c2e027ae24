// The command line as a user runs it: exit codes, CSV layout, overrides, and
// no output file left behind by a failed run.
#include "support/test_project.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QDir>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sys/stat.h>
#include <vector>

using namespace pm::test;

namespace {

struct Result {
  int code;
  QString out, err;
};

Result run(const QStringList& args) {
  QProcess p;
  p.start(PM_CLI, args);
  p.waitForFinished(120000);
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QString example() { return QString::fromStdString(projectPath("seed003_meter_out.pneumech.json")); }

std::string exampleText() {
  std::ifstream in(example().toStdString());
  return {std::istreambuf_iterator<char>(in), {}};
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const QString path = dir.path() + "/" + name;
  std::ofstream(path.toStdString()) << text;
  return path;
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT
 private slots:
  void versionAndHelp() {
    const Result v = run({"--version"});
    QCOMPARE(v.code, 0);
    QVERIFY(v.out.contains("pneumech " PM_VERSION));
    const Result h = run({"--help"});
    QCOMPARE(h.code, 0);
    QVERIFY(h.out.contains("simulate"));
  }

  // `info` states a mechanism's mobility and the redundant equations removed:
  // the driven four-bar (four revolutes) has 0 DOF with 3 of jD's 5 equations
  // redundant; TORX (3-PUU) has 3 DOF and none.
  void infoShowsMobility() {
    const Result fb = run({"info", QString::fromStdString(projectPath("four_bar.pneumech.json"))});
    QCOMPARE(fb.code, 0);
    QVERIFY(fb.out.contains("mechanism: 4 parts (incl. ground), 0 degree(s) of freedom"));
    QVERIFY(fb.out.contains("note: redundant constraint equations removed: jD (3 of 5)"));
    // Said in plain words, with the reactions whose split is not unique: the
    // out-of-plane force and the bending torques of the loop's four joints
    // (the loop lies in the xy-plane); Fx, Fy, Tz stay unique.
    QVERIFY2(fb.out.contains("This is normal for a planar mechanism modelled in 3D"), qPrintable(fb.out));
    QVERIFY2(fb.out.contains("not unique for these reaction components: jA Fz Tx Ty, jB Fz Tx Ty, jC Fz Tx Ty, "
                             "jD Fz Tx Ty (the removed equations carry none of it); every other reaction component "
                             "is unique and exact"),
             qPrintable(fb.out));
    const Result tx = run({"info", QString::fromStdString(projectPath("torx_open_loop.pneumech.json"))});
    QCOMPARE(tx.code, 0);
    QVERIFY(tx.out.contains("mechanism: 8 parts (incl. ground), 3 degree(s) of freedom"));
    QVERIFY(!tx.out.contains("note:"));
  }

  void simulateWritesCsv() {
    QTemporaryDir dir;
    const QString csv = dir.path() + "/r.csv";
    const Result r = run({"simulate", example(), "--t-end", "0.3", "--set", "cyl1.F_load=80", "--out", csv,
                          "--channels", "cyl1.x", "cyl1.pA", "-q"});
    QCOMPARE(r.code, 0);
    std::ifstream in(csv.toStdString());
    std::string header, line, last;
    std::getline(in, header);
    QCOMPARE(header, std::string("time [s],cyl1.x [m],cyl1.pA [Pa]"));
    int rows = 0;
    while (std::getline(in, line)) last = line, ++rows;
    QCOMPARE(rows, 301);  // 0 .. 0.3 s every 1 ms
    QVERIFY(last.rfind("0.3,", 0) == 0);
  }

  // Rows x channels held beyond the limit (issue 26, point 6): 200,001 rows x
  // 1,140 channels (60 cylinders) = 2.28e8 values are refused as a bad
  // project (exit 2) naming simulation.output_interval, before the run (which
  // would take a minute here): nothing simulated, no file written.
  void tooManyValuesAreRefusedBeforeTheRun() {
    QTemporaryDir dir;
    const QString project = writeFile(dir, "many.pneumech.json", manyCylindersText(60, "2", "1e-5"));
    const QString csv = dir.path() + "/r.csv";
    const Result r = run({"simulate", project, "--out", csv});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("many.pneumech.json") && r.err.contains("simulation") && r.err.contains("output_interval"),
             qPrintable(r.err));
    QVERIFY2(r.err.contains("200001 rows x 1140 channels (+ time) = 2.28201e+08 values"), qPrintable(r.err));
    QVERIFY2(r.err.contains("larger output_interval (at least 1.141e-05 s)") && r.err.contains("--channels"),
             qPrintable(r.err));
    QVERIFY2(!r.out.contains("Simulated"), qPrintable(r.out));
    QVERIFY(!QFile::exists(csv));
  }

  // --channels: the store holds only those, yet the CSV's columns are the
  // full run's, character for character (the order is --channels').
  void selectedChannelsEqualTheFullRun() {
    QTemporaryDir dir;
    const QString all = dir.path() + "/all.csv", some = dir.path() + "/some.csv";
    QCOMPARE(run({"simulate", example(), "--t-end", "0.5", "--out", all, "-q"}).code, 0);
    const QStringList picked = {"cyl1.B.p", "cyl1.x", "fc1.qn"};
    QCOMPARE(run(QStringList{"simulate", example(), "--t-end", "0.5", "--out", some, "-q", "--channels"} + picked).code,
             0);
    auto table = [](const QString& path) {
      std::ifstream in(path.toStdString());
      std::vector<QStringList> rows;
      for (std::string line; std::getline(in, line);) rows.push_back(QString::fromStdString(line).split(','));
      return rows;
    };
    const auto a = table(all), b = table(some);
    QCOMPARE(b.size(), a.size());
    QCOMPARE(a.size(), size_t(502));  // header + 0 .. 0.5 s every 1 ms
    std::vector<int> cols = {0};       // time, then the picked ones in the full table
    for (const QString& name : picked) {
      cols.push_back(static_cast<int>(std::find_if(a[0].begin(), a[0].end(), [&](const QString& h) {
                                        return h.startsWith(name + " [");
                                      }) - a[0].begin()));
      QVERIFY2(cols.back() < a[0].size(), qPrintable(name));
    }
    for (size_t r = 0; r < a.size(); ++r) {
      QCOMPARE(b[r].size(), qsizetype(cols.size()));
      for (size_t k = 0; k < cols.size(); ++k) QCOMPARE(b[r][k], a[r][cols[k]]);
    }
  }

  // "--out -" puts the CSV on standard output and the summary on stderr; an
  // --out that is a FIFO or a symbolic link is refused, not replaced
  // (issue #26, point 5). A refused target is the user's choice, so it is
  // exit code 2 like any bad option, and said before the run.
  void outToStdoutAndRefusedTargets() {
    const Result r = run({"simulate", example(), "--t-end", "0.3", "--out", "-", "--channels", "cyl1.x"});
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 302);
    QCOMPARE(lines.front(), QString("time [s],cyl1.x [m]"));
    QVERIFY(lines.back().startsWith("0.3,"));
    QVERIFY2(r.err.contains("Wrote 301 rows to -"), qPrintable(r.err));
    QTemporaryDir dir;
    const QString fifo = dir.path() + "/pipe";
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0644), 0);
    const Result f = run({"simulate", example(), "--t-end", "0.01", "--out", fifo, "-q"});
    QCOMPARE(f.code, 2);
    QVERIFY2(f.err.contains(fifo + ": is a FIFO (named pipe), not a regular file"), qPrintable(f.err));
    QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());
    const QString link = dir.path() + "/link.csv";
    QVERIFY(QFile::link(dir.path() + "/elsewhere.csv", link));
    const Result l = run({"simulate", example(), "--t-end", "0.01", "--out", link, "-q"});
    QCOMPARE(l.code, 2);
    QVERIFY2(l.err.contains(link + ": is a symbolic link"), qPrintable(l.err));
    QVERIFY(QFileInfo(link).isSymLink() && !QFileInfo::exists(dir.path() + "/elsewhere.csv"));
    // Refused before the run: a run of 1e4 s would not end within the test.
    const Result early = run({"simulate", example(), "--t-end", "1e4", "--out", link, "-q"});
    QCOMPARE(early.code, 2);
    QVERIFY2(early.err.contains("is a symbolic link"), qPrintable(early.err));
    const Result missing = run({"simulate", example(), "--t-end", "1e4", "--out", dir.path() + "/no/such/x.csv", "-q"});
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains("cannot open its folder"), qPrintable(missing.err));
  }

  void overrideChangesTheResult() {
    // A heavier load slows the extension: compare x at 0.3 s.
    QTemporaryDir dir;
    auto xAt03 = [&](const QString& load) {
      const QString csv = dir.path() + "/x" + load + ".csv";
      const Result r = run({"simulate", example(), "--t-end", "0.3", "--set", "cyl1.F_load=" + load, "--out", csv,
                            "--channels", "cyl1.x", "-q"});
      if (r.code != 0) qFatal("simulate failed: %s", qPrintable(r.err));
      std::ifstream in(csv.toStdString());
      std::string line, last;
      while (std::getline(in, line)) last = line;
      return std::stod(last.substr(last.find(',') + 1));
    };
    QVERIFY(xAt03("200") < xAt03("0") - 1e-3);
  }

  // --user-lib (issue 24): a project whose types are in a library folder
  // runs with the folder given, gives the same rows as the project carrying
  // the definitions, and is a bad project without it; a bad library file
  // exits 2 naming the file, the line and the expression.
  void userLibrary() {
    QTemporaryDir dir;
    const std::string withSection = projectPath("user_components/seed003_user_rc.pneumech.json");
    std::ifstream in(withSection);
    nlohmann::json root = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
    root.erase("user_components");
    const QString bare = writeFile(dir, "bare.pneumech.json", root.dump(2));
    const QString lib = QString::fromStdString(projectPath("user_library"));
    const Result without = run({"simulate", bare, "--out", dir.path() + "/a.csv"});
    QCOMPARE(without.code, 2);
    QVERIFY(without.err.contains("unknown component type 'user_iso6358_restriction'"));
    const Result with = run({"simulate", "--user-lib", lib, bare, "--out", dir.path() + "/b.csv", "-q"});
    QCOMPARE(with.code, 0);
    QCOMPARE(run({"simulate", QString::fromStdString(withSection), "--out", dir.path() + "/c.csv", "-q"}).code, 0);
    auto text = [](const QString& f) {
      std::ifstream i(f.toStdString());
      return std::string(std::istreambuf_iterator<char>(i), {});
    };
    QVERIFY(!text(dir.path() + "/b.csv").empty());
    QVERIFY(text(dir.path() + "/b.csv") == text(dir.path() + "/c.csv"));
    QVERIFY(run({"types", "--user-lib", lib}).out.contains("[user component: "));
    QDir().mkdir(dir.path() + "/bad");
    writeFile(dir, "bad/r.json", "{\n  \"name\": \"bad_r\",\n  \"ports\": [{\"name\": \"1\"}],\n"
                                 "  \"volumes\": [{\"port\": \"1\", \"volume\": \"V\"}]\n}\n");
    const Result bad = run({"simulate", "--user-lib", dir.path() + "/bad", bare, "--out", dir.path() + "/d.csv"});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("r.json") && bad.err.contains("line 4") && bad.err.contains("unknown name 'V'"));
  }

  void badInputExitsTwoAndWritesNothing() {
    QTemporaryDir dir;
    const QString csv = dir.path() + "/never.csv";
    const Result a = run({"simulate", example(), "--set", "cyl1.bore=-1", "--out", csv});
    QCOMPARE(a.code, 2);
    QVERIFY(a.err.contains("cyl1") && a.err.contains("bore"));
    const Result b = run({"simulate", example(), "--channels", "nope.x", "--out", csv});
    QCOMPARE(b.code, 2);
    const Result c = run({"simulate", dir.path() + "/missing.pneumech.json", "--out", csv});
    QCOMPARE(c.code, 2);
    QVERIFY(!QFile::exists(csv));
  }

  // A part without mass is a bad project for a run (exit 2 before it,
  // naming the part and the field), in `info` as in `simulate`; the
  // kinematic analysis, which needs no mass, still takes it. The four-bar's
  // crank is driven by a motion, yet the dynamics still need its mass.
  void zeroMassIsABadProject() {
    QTemporaryDir dir;
    std::ifstream in(projectPath("four_bar.pneumech.json"));
    nlohmann::json doc = nlohmann::json::parse(in);
    for (auto& part : doc["mechanism"]["parts"])
      if (part["id"] == "crank") part["mass"] = 0.0;
    const QString file = dir.path() + "/massless.pneumech.json";
    std::ofstream(file.toStdString()) << doc.dump(2);
    for (const QString& cmd : {QString("info"), QString("simulate")}) {
      const Result r = run({cmd, file});
      QVERIFY2(r.code == 2, qPrintable(cmd + ": " + QString::number(r.code) + " " + r.err));
      QVERIFY2(r.err.contains("object 'crank', field 'mass': is 0 kg"), qPrintable(r.err));
      QVERIFY(!r.err.contains("simulation failed"));
    }
    const Result k = run({"kinematic", file, "--quiet"});
    QVERIFY2(k.code == 0, qPrintable(k.err));
    // Massless parts welded to one with mass are lumped into it: a run takes them.
    const Result w = run({"simulate", QString::fromStdString(projectPath("tool_changer.pneumech.json")), "--t-end",
                          "0.02", "--set", "tool.mass=0", "--set", "holder.mass=0", "--quiet"});
    QVERIFY2(w.code == 0, qPrintable(w.err));
    // Under --set too.
    const Result s = run({"simulate", QString::fromStdString(projectPath("four_bar.pneumech.json")), "--set",
                          "coupler.mass=0", "--quiet"});
    QCOMPARE(s.code, 2);
    QVERIFY2(s.err.contains("object 'coupler', field 'mass'"), qPrintable(s.err));
  }

  // Issue 26: absurd files end with exit 2 and a message naming where,
  // never a crash (100,000 nested brackets overflowed the stack) or exit 1.
  void absurdFilesExitTwo() {
    QTemporaryDir dir;
    const std::string text = exampleText();
    const std::string deep = "{\"report\": " + std::string(100000, '[') + std::string(100000, ']') + "," +
                             text.substr(text.find('{') + 1);
    const QString deepPath = writeFile(dir, "deep.pneumech.json", deep);
    for (const char* command : {"info", "simulate"}) {
      const Result r = run({command, deepPath});
      QVERIFY2(r.code == 2, qPrintable(QString::number(r.code) + " " + r.err.left(300)));
      QVERIFY2(r.err.contains("field 'report[0][0][0][0]") && r.err.contains("nested more than 64 levels deep"),
               qPrintable(r.err));
    }
    std::string big = text;
    big.replace(big.find("\"t_end\": 1.0"), 13, "\"t_end\": 1e400");
    const Result r = run({"info", writeFile(dir, "big.pneumech.json", big)});
    QCOMPARE(r.code, 2);
    // Line 12: t_end, below the example's meta (title, author, description, notes).
    QVERIFY2(r.err.contains("field 'simulation.t_end'") && r.err.contains("1e400") && r.err.contains("(line 12, column"),
             qPrintable(r.err));
  }

  // --t-end shorter than the file's output interval: the file's field is at
  // fault, the change that exposed it named; a bad --t-end is --t-end's own.
  void tEndBlamesTheRightSource() {
    const Result r = run({"simulate", example(), "--t-end", "0.0005"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("pneumech: " + example() + ": object 'simulation', field 'output_interval'") &&
                 r.err.contains("t_end = 0.0005 from --t-end") && !r.err.contains("--set"),
             qPrintable(r.err));
    const Result zero = run({"simulate", example(), "--t-end", "0"});
    QCOMPARE(zero.code, 2);
    QVERIFY2(zero.err.startsWith("pneumech: --t-end: object 'simulation', field 't_end'"), qPrintable(zero.err));
  }

  // The wall-time guard: a run longer than --time-limit stops, exit 3, saying
  // why (a pendulum swinging for a day; a crank turning for hours).
  void timeLimitStopsLongRuns() {
    const QString pendulum = QString::fromStdString(projectPath("pendulum.pneumech.json"));
    const Result r = run({"simulate", pendulum, "--set", "simulation.t_end=86400", "--set",
                          "simulation.output_interval=10", "--time-limit", "0.5"});
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("simulation failed: the run took longer than its wall-time limit of 0.5 s (stopped at t = "),
             qPrintable(r.err));
    const QString fourBar = QString::fromStdString(projectPath("four_bar.pneumech.json"));
    // 80 s of a driven crank: 8000 rows, far more than 1 ms of work (longer
    // kinematic runs of this crank fail by themselves at 82.5 s, a defect of
    // their own).
    const Result k = run({"kinematic", fourBar, "--set", "simulation.t_end=80", "--set",
                          "simulation.output_interval=0.01", "--time-limit", "0.001"});
    QCOMPARE(k.code, 3);
    QVERIFY2(k.err.contains("the run took longer than its wall-time limit of 0.001 s"), qPrintable(k.err));
  }

  // Rows are streamed to a temporary beside --out (issue 26): a run that
  // stops mid-way leaves the file that was there as it was, and no
  // temporary; a completed run puts the full file in place.
  void failedRunLeavesTheOutputFileAlone() {
    QTemporaryDir dir;
    const QString csv = dir.path() + "/r.csv";
    writeFile(dir, "r.csv", "old results\n");
    const QString pendulum = QString::fromStdString(projectPath("pendulum.pneumech.json"));
    const Result r = run({"simulate", pendulum, "--set", "simulation.t_end=86400", "--set",
                          "simulation.output_interval=1", "--time-limit", "0.5", "--out", csv});
    QCOMPARE(r.code, 3);
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("old results\n"));
    f.close();
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"r.csv"});
    QCOMPARE(run({"simulate", pendulum, "--t-end", "2", "--out", csv, "-q"}).code, 0);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().startsWith("time [s],"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"r.csv"});
  }

  // The coupling mode is a text setting: --set selects co-simulation, and
  // --channels accepts the channel only a co-simulated run writes.
  void setSelectsCoSimulation() {
    QTemporaryDir dir;
    const QString csv = dir.path() + "/cosim.csv";
    const QString tc = QString::fromStdString(projectPath("tool_changer.pneumech.json"));
    const Result r = run({"simulate", tc, "--t-end", "0.05", "--set", "simulation.coupling=cosimulation", "--set",
                          "simulation.exchange_interval=0.002", "--out", csv, "--channels",
                          "simulation.exchange_interval", "cyl1.x"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("Coupling: cosimulation (exchange interval 0.002 s, 25 exchanges"));
    std::ifstream in(csv.toStdString());
    std::string header, first;
    std::getline(in, header);
    std::getline(in, first);
    QCOMPARE(header, std::string("time [s],simulation.exchange_interval [s],cyl1.x [m]"));
    QCOMPARE(first, std::string("0,0.002,0"));
    const Result bad = run({"simulate", tc, "--set", "simulation.coupling=cosim"});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("'simulation', field 'coupling'"));
    const Result unknown = run({"simulate", tc, "--set", "simulation.exchange=0.1"});
    QCOMPARE(unknown.code, 2);
    QVERIFY(unknown.err.contains("no such simulation setting"));
  }

  // info counts the user's parts and says which were lumped into another
  // body by fixed joints (the tool changer's holder and tool, into the arm),
  // every channel still listed. The example runs in the reduced formulation:
  // 25 states (z, u, 4 windings, 19 of the circuit); test_mechanics_lumping
  // counts the absolute formulation's 105 against 157 unlumped.
  void infoSaysWhatWasLumped() {
    const QString tc = QString::fromStdString(projectPath("tool_changer.pneumech.json"));
    const Result r = run({"info", tc});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("mechanism: 6 parts (incl. ground; 2 lumped into arm by fixed joints), 1 degree(s) of freedom"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("states: 25,"), qPrintable(r.out));
    QVERIFY(r.out.contains("  tool.ax [m/s2]\n"));
    QVERIFY(r.out.contains("  tool_chuck.Tz [N m]\n"));
  }

  void equationsListStatesAndSparsity() {
    const Result r = run({"equations", example()});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("cyl1.x [m]"));
    QVERIFY(r.out.contains("owner cyl1"));
    QVERIFY(r.out.contains("Jacobian sparsity"));
  }

  // --oscillating drops the decaying and zero modes and keeps the oscillating
  // ones as the full table has them (the swing arm: 8 of 97, dense solver).
  void modalOscillatingKeepsOnlyTheOscillatingModes() {
    const QString arm = QString::fromStdString(projectPath("flexible_swing_arm.pneumech.json"));
    const Result all = run({"modal", arm, "-o", "-"});
    const Result osc = run({"modal", arm, "--oscillating", "-o", "-"});
    QCOMPARE(all.code, 0);
    QCOMPARE(osc.code, 0);
    auto rows = [](const QString& csv, bool oscillatingOnly) {
      QStringList kept;
      for (const QString& line : csv.split('\n', Qt::SkipEmptyParts).mid(1)) {
        const QStringList f = line.split(',');
        if (!oscillatingOnly || f.value(6) == "oscillating") kept << f.mid(1, 6).join(',');
      }
      return kept;
    };
    const QStringList expected = rows(all.out, true);
    QCOMPARE(expected.size(), 8);
    QVERIFY(rows(all.out, false).size() > expected.size());
    QCOMPARE(rows(osc.out, false), expected);
  }

  void resultsAndReport() {
    const Result r = run({"results", example()});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("Cylinder 1A1 (cyl1)") && r.out.contains("extend") && r.out.contains("Nl per cycle"));
    const Result j = run({"results", example(), "--json", "--cycles-per-minute", "10"});
    QCOMPARE(j.code, 0);
    const auto doc = nlohmann::json::parse(j.out.toStdString());
    QCOMPARE(doc["machine"]["cycles_per_minute"].get<double>(), 10.0);
    QVERIFY(doc["cylinders"][0]["extension_time_s"].get<double>() > 0);
    // Both stroke times, named: the movement time and the time from the
    // valve signal (the time switch's 0.1 s), which adds the dead time.
    QVERIFY(r.out.contains("movement [s]") && r.out.contains("from signal [s]"));
    const auto& stroke = doc["cylinders"][0]["strokes"][0];
    QCOMPARE(stroke["valve"].get<std::string>(), std::string("v1"));
    QVERIFY(std::abs(stroke["t_signal_s"].get<double>() - 0.1) < 1e-9);
    QVERIFY(std::abs(stroke["time_from_signal_s"].get<double>() -
                     (stroke["movement_time_s"].get<double>() + stroke["t_start_s"].get<double>() - 0.1)) < 1e-9);
    QCOMPARE(doc["cylinders"][0]["extension_time_from_signal_s"], stroke["time_from_signal_s"]);

    QTemporaryDir dir;
    const QString pdf = dir.path() + "/r.pdf";
    const Result p = run({"report", example(), "--pdf", pdf, "-q"});
    QVERIFY2(p.code == 0, qPrintable(p.err));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly) && f.read(5) == "%PDF-");
    const Result m = run({"report", example()});  // --pdf is required
    QVERIFY(m.code != 0);
  }

  // `report --study`: the report of a study alone. Its table carries the
  // same numbers as `pneumech study`'s CSV (6 significant digits), its
  // chosen design is the feasible variant with the shortest extension, and
  // it has none of a single run's sections.
  void reportOfAStudyAlone() {
    QTemporaryDir dir;
    nlohmann::json j = nlohmann::json::parse(exampleText());
    j["studies"] = nlohmann::json::array(
        {{{"name", "bores"},
          {"parameters",
           {{{"path", "cyl1.bore"}, {"values", {0.025, 0.032}}}, {{"path", "src.p"}, {"values", {501325, 601325}}}}},
          {"results", {"cyl1.extend_time", "air_per_cycle"}},
          {"constraints", {"cyl1.impact_speed <= 10"}}}});
    const QString project = writeFile(dir, "s.pneumech.json", j.dump(1));
    const QString csv = dir.path() + "/bores.csv", pdf = dir.path() + "/bores.pdf";
    const Result s = run({"study", project, "-o", csv, "-q", "-j", "2"});
    QVERIFY2(s.code == 0, qPrintable(s.err));
    const Result r = run({"report", project, "--study", "--pdf", pdf, "-q", "-j", "2"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QProcess pt;
    pt.start("pdftotext", {"-layout", pdf, "-"});
    QVERIFY(pt.waitForFinished(30000));
    const QString text = QString::fromUtf8(pt.readAllStandardOutput());
    QVERIFY2(text.contains("PARAMETER STUDY REPORT") && text.contains("The study at a glance"), qPrintable(text));
    QVERIFY(!text.contains("SIMULATION REPORT") && !text.contains("Key results") && !text.contains("Bill of materials"));
    QVERIFY(text.simplified().contains("Grid of cyl1.bore, src.p: 4 variants, 0 failed, 4 met the constraints"));
    // The CSV's rows: variant, bore, p, extend time, air, feasible, ...
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    int best = -1;
    double shortest = 1e9;
    for (int i = 1; i < lines.size(); ++i) {
      const QStringList c = lines[i].split(',');
      const double t = c[3].toDouble(), air = c[4].toDouble();
      QVERIFY2(t > 0 && air > 0, qPrintable(lines[i]));
      QVERIFY2(text.contains(QString::number(t, 'g', 6)) && text.contains(QString::number(air, 'g', 6)),
               qPrintable(lines[i] + " not in the report"));
      if (t < shortest) shortest = t, best = i - 1;
    }
    // Meter-out: the throttle passes about the same volume flow, so the
    // smaller piston is the faster one; the higher pressure helps a little.
    QCOMPARE(best, 1);
    // In display units, as the table: 0.025 m, 601325 Pa absolute = 5 bar gauge over 101325 Pa.
    QVERIFY2(text.simplified().contains("variant 1, cyl1.bore = 25 mm, src.p = 5 bar (g)"), qPrintable(text));
    const QString t1 = QString::number(lines[2].split(',')[3].toDouble(), 'g', 6);
    QVERIFY2(text.contains(QRegularExpression("1( \\(chosen\\))? +25 +5 +" + QRegularExpression::escape(t1))),
             qPrintable(text));
    // A study the project does not have is named.
    const Result bad = run({"report", project, "--study", "nosuch", "--pdf", pdf, "-q"});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("nosuch"), qPrintable(bad.err));
  }

  // Everything but `report` runs where there is no X11 or OpenGL: the
  // program loads no Qt Gui, Widgets or OpenGL library, no OpenSceneGraph
  // and no X11/GL library, also for a scripted controller (Qt Qml). The
  // dynamic loader lists every library it initialises (LD_DEBUG=libs).
  void simulateLoadsNoGuiLibrary() {
    const QRegularExpression gui("lib(Qt6(Gui|Widgets|OpenGL|Charts|Svg)|osg|OpenThreads|GL|EGL|X11|xcb)[^/ ]*\\.so");
    for (const char* name : {"seed003_meter_out.pneumech.json", "script_pid_servo.pneumech.json"}) {
      QProcess p;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert("LD_DEBUG", "libs");
      p.setProcessEnvironment(env);
      p.start(PM_CLI, {"simulate", QString::fromStdString(projectPath(name)), "--t-end", "0.05", "-q"});
      QVERIFY(p.waitForFinished(120000));
      QCOMPARE(p.exitCode(), 0);
      const QString trace = QString::fromUtf8(p.readAllStandardError());
      QVERIFY2(trace.contains("calling init:"), "LD_DEBUG gave no trace");
      QVERIFY2(trace.contains("libQt6Core"), name);  // the trace does list Qt's libraries
      const QRegularExpressionMatch m = gui.match(trace);
      QVERIFY2(!m.hasMatch(), qPrintable(QString(name) + " loads " + m.captured(0)));
    }
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
