// `pneumech study` as a user runs it: the table in CSV and JSON, the same
// with any --jobs and under mpirun with 2 and 3 ranks (bit for bit), failed
// variants reported, a study file of its own, a bad study (exit 2), an
// optimisation, and the benchmark's report.
#include "support/test_project.h"

#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

using namespace pm::test;

namespace {

struct Result {
  int code;
  QString out, err;
};

Result runProgram(const QString& program, const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  // Open MPI on loopback, as root in CI containers, with more ranks than cores.
  env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
  env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
  env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
  env.insert("OMPI_MCA_btl", "self,tcp");
  env.insert("OMPI_MCA_btl_tcp_if_include", "lo");
  env.insert("OMPI_MCA_oob_tcp_if_include", "lo");
  p.setProcessEnvironment(env);
  p.start(program, args);
  p.waitForFinished(300000);
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

Result run(const QStringList& args) { return runProgram(PM_CLI, args); }

std::string readText(const QString& path) {
  std::ifstream in(path.toStdString(), std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

nlohmann::json seed003() {
  std::ifstream in(projectPath("seed003_meter_out.pneumech.json"));
  return nlohmann::json::parse(in);
}

const nlohmann::json kStudy = {
    {"name", "bore_pressure"},
    {"parameters", {{{"path", "cyl1.bore"}, {"values", {0.025, 0.032, -1.0, 0.04}}},
                    {{"path", "src.p"}, {"from", 401325}, {"to", 701325}, {"count", 3}}}},
    {"results", {"cyl1.extend_time", "cyl1.impact_energy", "air_per_cycle", "max(cyl1.pB)"}},
    {"constraints", {"cyl1.extend_time <= 0.35", "cyl1.impact_energy <= 2"}}};

// The seed 003 project with `study` as its study, written into `dir`.
QString writeProject(const QTemporaryDir& dir, const nlohmann::json& study, const QString& name = "p.pneumech.json") {
  nlohmann::json p = seed003();
  p["studies"] = nlohmann::json::array({study});
  const QString path = dir.path() + "/" + name;
  std::ofstream(path.toStdString()) << p.dump(1);
  return path;
}

}  // namespace

class TestStudyCli : public QObject {
  Q_OBJECT
 private slots:
  // 4 x 3 variants, 3 of them with a bore the cylinder refuses: reported,
  // the others run; the table is the same with 1 and 2 jobs.
  void tableAndJobs() {
    QTemporaryDir dir;
    const QString p = writeProject(dir, kStudy);
    const Result one = run({"study", p, "--jobs", "1", "--out", dir.path() + "/one.csv"});
    QVERIFY2(one.code == 0, qPrintable(one.err));
    const Result two = run({"study", p, "--jobs", "2", "--out", dir.path() + "/two.csv"});
    QVERIFY2(two.code == 0, qPrintable(two.err));
    QVERIFY(one.out.contains("study bore_pressure: 12 variants, 3 failed"));
    QCOMPARE(one.err.count("failed: --set: object 'cyl1', field 'bore': value -1 m is outside"), 3);
    const std::string csv = readText(dir.path() + "/one.csv");
    QCOMPARE(readText(dir.path() + "/two.csv"), csv);
    QCOMPARE(readText(dir.path() + "/two.json"), readText(dir.path() + "/one.json"));
    const QStringList lines = QString::fromStdString(csv).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 13);
    QCOMPARE(lines[0], QString("variant,cyl1.bore,src.p,cyl1.extend_time [s],cyl1.impact_energy [J],air_per_cycle [Nl],"
                               "max(cyl1.pB) [Pa],feasible,status,message"));
    QVERIFY(lines[4].startsWith("3,0.032,401325,"));
    QVERIFY(lines[7].startsWith("6,-1,401325,,,,,0,failed,\"--set: object 'cyl1'"));
    const nlohmann::json j = nlohmann::json::parse(readText(dir.path() + "/one.json"));
    QCOMPARE(j["variants"].size(), size_t(12));
    QCOMPARE(j["variants"][6]["status"].get<std::string>(), std::string("failed"));
    QVERIFY(j["variants"][6]["results"]["air_per_cycle"].is_null());
    // A row's numbers are what `pneumech results --set` prints for that variant.
    const Result single = run({"results", p, "--json", "--set", "cyl1.bore=0.032", "src.p=401325"});
    QCOMPARE(single.code, 0);
    const nlohmann::json kr = nlohmann::json::parse(single.out.toStdString());
    QCOMPARE(j["variants"][3]["results"]["cyl1.extend_time"].get<double>(),
             kr["cylinders"][0]["extension_time_s"].get<double>());
    QCOMPARE(j["variants"][3]["results"]["air_per_cycle"].get<double>(), kr["machine"]["air_Nl_per_cycle"].get<double>());
  }

  // --keep-results: a variant's channels are the single run's CSV, byte for
  // byte; a variant that never ran leaves no file.
  void keepResults() {
    QTemporaryDir dir;
    const QString p = writeProject(dir, kStudy);
    const QString keep = dir.path() + "/runs";
    const Result r = run({"study", p, "-q", "--out", dir.path() + "/t.csv", "--keep-results", keep});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Result single = run({"simulate", p, "-q", "--set", "cyl1.bore=0.04", "src.p=551325", "-o", dir.path() + "/s.csv"});
    QCOMPARE(single.code, 0);
    QVERIFY(!readText(dir.path() + "/s.csv").empty());
    QCOMPARE(readText(keep + "/variant_10.csv"), readText(dir.path() + "/s.csv"));
    QVERIFY(!QFile::exists(keep + "/variant_6.csv"));
    QCOMPARE(QDir(keep).entryList(QDir::Files).size(), 9);
  }

  // A study file of its own gives the project's section's table.
  void studyFile() {
    QTemporaryDir dir;
    const QString p = writeProject(dir, kStudy);
    nlohmann::json s = kStudy;
    s["format"] = "pneumech-study";
    s["project"] = "p.pneumech.json";
    const QString sf = dir.path() + "/s.pneumech-study.json";
    std::ofstream(sf.toStdString()) << s.dump(1);
    QCOMPARE(run({"study", p, "-q", "--out", dir.path() + "/a.csv"}).code, 0);
    const Result b = run({"study", sf, "-q", "--out", dir.path() + "/b.csv"});
    QVERIFY2(b.code == 0, qPrintable(b.err));
    QCOMPARE(readText(dir.path() + "/b.csv"), readText(dir.path() + "/a.csv"));
    s["project"] = "../p.pneumech.json";  // outside the study file's folder
    std::ofstream(sf.toStdString()) << s.dump(1);
    const Result out = run({"study", sf, "-q", "--out", dir.path() + "/c.csv"});
    QCOMPARE(out.code, 2);
    QVERIFY2(out.err.contains("field 'project'"), qPrintable(out.err));
  }

  // A study that names no result of the run is a bad project: exit 2, no table.
  void badStudy() {
    QTemporaryDir dir;
    nlohmann::json st = kStudy;
    st["results"] = {"cyl1.extend_time", "valve.speed"};
    const Result r = run({"study", writeProject(dir, st), "--out", dir.path() + "/t.csv"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("study 'bore_pressure'', field 'results[1]'") || r.err.contains("field 'results[1]'"),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(dir.path() + "/t.csv"));
  }

  // mpirun -np 2 and 3 on loopback: the local table, bit for bit; also an
  // optimisation's (its evaluations travel the same way).
  void mpiRanks() {
#ifndef PM_MPIEXEC
    QSKIP("built without MPI");
#else
    QTemporaryDir dir;
    nlohmann::json opt = {{"name", "lightest"},
                          {"parameters", {{{"path", "cyl1.bore"}, {"from", 0.025}, {"to", 0.04}, {"count", 4}},
                                          {{"path", "src.p"}, {"from", 401325}, {"to", 701325}, {"count", 2}}}},
                          {"constraints", {"cyl1.extend_time <= 0.3"}},
                          {"optimise", {{"minimise", "air_per_cycle"}, {"max_evaluations", 30}}}};
    for (const auto& [study, name] : {std::pair{kStudy, QString("grid")}, std::pair{opt, QString("opt")}}) {
      const QString p = writeProject(dir, study, name + ".pneumech.json");
      const QString local = dir.path() + "/" + name + "_local.csv";
      const Result l = run({"study", p, "-q", "--out", local});
      QVERIFY2(l.code == 0, qPrintable(l.err));
      for (const char* np : {"2", "3"}) {
        const QString csv = dir.path() + "/" + name + "_np" + np + ".csv";
        const QString keep = dir.path() + "/" + name + "_runs_np" + np;
        const Result m = runProgram(PM_MPIEXEC, {"-np", np, PM_CLI, "study", p, "--out", csv, "--keep-results", keep});
        QVERIFY2(m.code == 0, qPrintable(m.out + m.err));
        QVERIFY2(m.out.contains(QString("on each of %1 MPI ranks").arg(np)), qPrintable(m.out));
        QCOMPARE(readText(csv), readText(local));
        QCOMPARE(readText(QString(csv).replace(".csv", ".json")), readText(QString(local).replace(".csv", ".json")));
        // Every rank keeps its own variants' results, named by their rows.
        const QStringList kept = QDir(keep).entryList(QDir::Files);
        const auto table = nlohmann::json::parse(readText(QString(csv).replace(".csv", ".json")))["variants"];
        size_t ran = 0;
        for (const auto& v : table) ran += v["status"] == "ok" ? 1 : 0;
        QCOMPARE(static_cast<size_t>(kept.size()), ran);
      }
    }
#endif
  }

  // The benchmark runs --jobs 1 and 2 and says both gave the same table
  // (its wall times are printed, never checked here).
  void benchmark() {
    const Result r = run({"study", "--benchmark", QString::fromStdString(projectPath("seed003_meter_out.pneumech.json"))});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains("100 variants"));
    QVERIFY(r.out.contains("--jobs 1:") && r.out.contains("--jobs 2:"));
    QCOMPARE(r.out.count("0 failed, table identical"), 2);
  }
};

QTEST_GUILESS_MAIN(TestStudyCli)
#include "test_study_cli.moc"
