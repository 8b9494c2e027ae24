// core/engine/engine.h, the API of the CLI and the studio: a streamed run
// pushes every row once and in order, the numbers of a plain run; a stop
// asked by the consumer ends the run early; a results file holds the bytes
// of the store's CSV; check()
// names the object at fault; a boundary net reports the supply's pressure.
#include "engine/engine.h"
#include "support/mechanism_builders.h"
#include "support/test_project.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

using namespace pm;
using namespace pm::test;

namespace {

// Supply (6 bar gauge) -> restriction -> 1 l tank: a smooth fill.
Project tankFill(double tEnd) {
  Project p;
  p.components.push_back(comp("src", "supply", {{"p", 7e5}}));
  p.components.push_back(comp("r1", "restriction", {{"C", 1e-9}}));
  p.components.push_back(comp("tank", "reservoir", {{"V", 1e-3}}));
  wire(p, "src.1", "r1.1");
  wire(p, "r1.2", "tank.1");
  settings(p, tEnd, 1e-3);
  return p;
}

// Records what the run pushes: the rows it announces, the channels, then
// every row (with the thread it came on); asks the run to stop once
// `stopAfter` rows came.
struct Recorder : RowConsumer {
  std::vector<ChannelInfo> channels;
  int channelCalls = 0;
  std::vector<double> times, rows;
  std::vector<std::thread::id> threads;
  RunControl* control = nullptr;
  size_t stopAfter = 0;
  size_t expected = 0;  // the run's expectRows hint
  void expectRows(size_t n) override { expected = n; }
  void setChannels(std::vector<ChannelInfo> c) override {
    channels = std::move(c);
    ++channelCalls;
  }
  void append(double t, const double* row) override {
    times.push_back(t);
    rows.insert(rows.end(), row, row + channels.size());
    threads.push_back(std::this_thread::get_id());
    if (stopAfter > 0 && times.size() == stopAfter) control->requestStop();
  }
};

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

class TestEngine : public QObject {
  Q_OBJECT
 private slots:
  void streamedRunPushesEveryRowOnceAndMatchesAPlainRun() {
    const Project p = tankFill(2.0);
    ResultStore plain;
    engine::CompiledProject a(p);
    QVERIFY(a.run(plain).ok());

    engine::CompiledProject b(p);
    Recorder rec;
    const RunResult r = engine::stream(b, rec);
    QVERIFY2(r.ok(), r.message.c_str());
    QCOMPARE(rec.channelCalls, 1);
    QCOMPARE(rec.channels.size(), plain.channels().size());
    QCOMPARE(rec.times.size(), size_t(2001));
    QCOMPARE(rec.expected, size_t(2001));  // told before the first row: stores reserve it once
    QVERIFY(rec.times == plain.times());  // each row once, in order
    // The consumer is handed the numbers a plain run stores, bit for bit.
    const int tank = plain.find("tank.p");
    std::vector<double> col;
    for (size_t i = 0; i < rec.times.size(); ++i) col.push_back(rec.rows[i * rec.channels.size() + size_t(tank)]);
    QVERIFY(col == plain.column("tank.p"));
  }

  void consumerStopsTheRunThroughItsControl() {
    const Project p = tankFill(2000.0);  // far longer than the test waits
    engine::CompiledProject c(p);
    RunControl control;
    Recorder rec;
    rec.control = &control;
    rec.stopAfter = 5;
    const RunResult r = engine::stream(c, rec, &control);
    QCOMPARE(int(r.status), int(RunStatus::Cancelled));
    QVERIFY(rec.times.size() >= 5);
    QVERIFY(rec.times.back() < 2000.0);
  }

  void resultFileIsTheBytesOfTheStoresCsv() {
    const Project p = tankFill(0.5);
    QTemporaryDir dir;
    const std::string streamed = dir.filePath("streamed.csv").toStdString();
    const std::string stored = dir.filePath("stored.csv").toStdString();
    const std::string picked = dir.filePath("picked.csv").toStdString();
    const std::string pickedStore = dir.filePath("picked_store.csv").toStdString();
    ResultStore store;
    engine::CompiledProject a(p);
    QVERIFY(a.run(store).ok());
    store.writeCsv(stored);
    engine::CompiledProject b(p);
    ResultFile file(streamed);
    QVERIFY(engine::stream(b, file).ok());
    QVERIFY(!QFile::exists(QString::fromStdString(streamed)));  // in place only once closed
    file.close();
    QCOMPARE(file.rows(), store.rows());
    QCOMPARE(readAll(streamed), readAll(stored));
    // Chosen columns streamed are the store's own choice, in the order asked.
    const std::vector<std::string> some{"tank.p", "r1.q"};
    engine::CompiledProject c(p);
    ResultFile part(picked, some);
    QVERIFY(engine::stream(c, part).ok());
    part.close();
    store.writeCsv(pickedStore, some);
    QCOMPARE(readAll(picked), readAll(pickedStore));
    QVERIFY(readAll(picked).size() > 1000);
  }

  // A run streaming into a file that is not closed (the run failed, an
  // exception) leaves the old file as it was and no temporary beside it.
  void resultFileNotClosedLeavesTheTargetAlone() {
    QTemporaryDir dir;
    const std::string target = dir.filePath("r.csv").toStdString();
    std::ofstream(target) << "old results\n";
    {
      const Project p = tankFill(0.5);
      engine::CompiledProject c(p);
      ResultFile file(target);
      QVERIFY(engine::stream(c, file).ok());
      QCOMPARE(readAll(target), std::string("old results\n"));
    }
    QCOMPARE(readAll(target), std::string("old results\n"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"r.csv"});
  }

  // The studio's raw results file: every row as doubles, the CSV made on
  // save the store's bytes, columns loaded at full resolution.
  void rawResultFileGivesTheStoresCsvAndColumns() {
    const Project p = tankFill(0.5);
    QTemporaryDir dir;
    ResultStore store;
    engine::CompiledProject a(p);
    QVERIFY(a.run(store).ok());
    engine::CompiledProject b(p);
    RawResultFile raw(dir.path().toStdString());
    QVERIFY(engine::stream(b, raw).ok());
    raw.flush();
    QCOMPARE(raw.rows(), store.rows());
    // Nothing is left in the folder: the file has no name.
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
    const std::string fromRaw = dir.filePath("raw.csv").toStdString(), stored = dir.filePath("stored.csv").toStdString();
    raw.writeCsv(fromRaw);
    store.writeCsv(stored);
    QCOMPARE(readAll(fromRaw), readAll(stored));
    const std::vector<std::string> some{"r1.q", "tank.p"};
    raw.writeCsv(fromRaw, some);
    store.writeCsv(stored, some);
    QCOMPARE(readAll(fromRaw), readAll(stored));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, raw.writeCsv(fromRaw, {"no.such"}));
    ResultStore loaded;
    raw.load(loaded, {"tank.p", "no.such"});
    QCOMPARE(loaded.channels().size(), size_t(1));
    QVERIFY(loaded.times() == store.times());
    QVERIFY(loaded.column("tank.p") == store.column("tank.p"));
  }

  void checkNamesTheObjectAtFault() {
    Project p = tankFill(1.0);
    p.components[1].params["C"] = -1.0;
    try {
      engine::check(p, "tank.pneumech.json");
      QFAIL("a negative conductance compiled");
    } catch (const ProjectError& e) {
      QCOMPARE(QString::fromStdString(e.object()), QString("r1"));
      QVERIFY2(QString(e.what()).contains("tank.pneumech.json"), e.what());
    }
    QVERIFY(engine::check(tankFill(1.0)).empty());  // no mechanism: no notes
  }

  void boundaryNetReportsTheSupplyPressure() {
    engine::NetMap c(tankFill(1.0));
    const std::vector<engine::Net> nets = c.nets();
    const auto src = std::find_if(nets.begin(), nets.end(), [](const engine::Net& n) {
      return std::find(n.members.begin(), n.members.end(), "src.1") != n.members.end();
    });
    QVERIFY(src != nets.end());
    QVERIFY(src->boundary);
    double p = 0.0;
    QVERIFY(c.boundaryPressure(static_cast<int>(src - nets.begin()), 0.5, p));
    QCOMPARE(p, 7e5);
    const auto tank = std::find_if(nets.begin(), nets.end(), [](const engine::Net& n) {
      return std::find(n.members.begin(), n.members.end(), "tank.1") != n.members.end();
    });
    QVERIFY(tank != nets.end() && !tank->boundary);
    QVERIFY(!c.boundaryPressure(static_cast<int>(tank - nets.begin()), 0.5, p));
    const auto names = engine::CompiledProject(tankFill(1.0)).channelNames();
    QVERIFY(std::find(names.begin(), names.end(), tank->name + ".p") != names.end());
  }
  // A part held by a force alone (a bushing, no joint): the static analysis
  // has no constraint row, and its convergence test took the largest entry
  // of that empty block of the residual (Eigen's assertion in the sanitizer
  // tree; in Release a read one past the vector's end). The sag is m g / kz.
  void staticAnalysisWithoutConstraintRows() {
    const double g0 = 9.80665, m = 2.0, kz = 5e4;
    Mechanism mech;
    mech.parts.push_back(ground({mk("o", {0, 0, 0})}));
    mech.parts.push_back(part("body", m, std::array<double, 6>{1e-3, 1e-3, 1e-3, 0, 0, 0}, {0, 0, 0}, {mk("o", {0, 0, 0})}));
    mech.forces.push_back(force("mount", "bushing", "body.o", "ground.o", {{"kz", kz}}));
    ResultStore out;
    engine::analyse(mechProject(mech, 1.0, 0.1, 1e-8), "test", MechanismAnalysis::Static, out);
    QVERIFY(out.rows() > 0);
    const double z = out.column("body.z").back(), F = out.column("mount.Fz").back();
    QVERIFY2(std::abs(z / (-m * g0 / kz) - 1) < 1e-9, qPrintable(QString::number(z, 'g', 17)));
    QVERIFY2(std::abs(F / (m * g0) - 1) < 1e-9, qPrintable(QString::number(F, 'g', 17)));
  }
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
