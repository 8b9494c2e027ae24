// core/engine/engine.h, the API of the CLI and the studio: a streamed run
// hands over every row once and in order, and ends with exactly the rows of
// a plain run; a stop asked by the observer ends the run early; check()
// names the object at fault; a boundary net reports the supply's pressure.
#include "engine/engine.h"
#include "support/test_project.h"

#include <algorithm>

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

// Records what it is handed: (from, to) of every call, and the times.
struct Recorder : engine::RunObserver {
  std::vector<std::pair<size_t, size_t>> calls;
  std::vector<double> times;
  size_t stopAfter = 0;  // > 0: ask to stop once that many rows arrived
  void onRows(const ResultStore& rs, size_t from, size_t to) override {
    calls.push_back({from, to});
    const auto t = rs.times();
    times.insert(times.end(), t.begin() + static_cast<long>(from), t.begin() + static_cast<long>(to));
  }
  bool stopRequested() override { return stopAfter > 0 && times.size() >= stopAfter; }
};

}  // namespace

class TestEngine : public QObject {
  Q_OBJECT
 private slots:
  void streamedRunHandsOverEveryRowOnceAndMatchesAPlainRun() {
    const Project p = tankFill(2.0);
    ResultStore plain;
    engine::CompiledProject a(p);
    QVERIFY(a.run(plain).ok());

    ResultStore streamed;
    engine::CompiledProject b(p);
    Recorder rec;
    const RunResult r = engine::stream(b, streamed, rec, nullptr, 0.002);
    QVERIFY2(r.ok(), r.message.c_str());
    QCOMPARE(streamed.rows(), size_t(2001));
    QCOMPARE(rec.times.size(), streamed.rows());
    QVERIFY(!rec.calls.empty());
    QCOMPARE(rec.calls.front().first, size_t(0));
    for (size_t i = 1; i < rec.calls.size(); ++i) QCOMPARE(rec.calls[i].first, rec.calls[i - 1].second);
    QVERIFY(rec.times == streamed.times());
    // Streaming only reads the store: the numbers are a plain run's, bit for bit.
    QVERIFY(streamed.column("tank.p") == plain.column("tank.p"));
    QVERIFY(streamed.times() == plain.times());
  }

  void observerStopsTheRun() {
    const Project p = tankFill(2000.0);  // far longer than the test waits
    ResultStore out;
    engine::CompiledProject c(p);
    Recorder rec;
    rec.stopAfter = 5;
    const RunResult r = engine::stream(c, out, rec, nullptr, 0.002);
    QCOMPARE(int(r.status), int(RunStatus::Cancelled));
    QVERIFY(out.rows() >= 5);
    QVERIFY(out.times().back() < 2000.0);
    QCOMPARE(rec.times.size(), out.rows());  // the rows up to the stop were all handed over
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
};

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
