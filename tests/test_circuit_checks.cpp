// A circuit that cannot work says so (issue 25, point 2): the seed 003
// circuit checked clean, then broken one way at a time: a solenoid with no
// signal, a bistable valve with nothing on side 12, an open working port, a
// cylinder no valve controls, a sensor nothing reads, no supply. Each
// finding names the object to select; `pneumech check` prints the same.
#include "analyses/circuit_checks.h"
#include "engine/engine.h"
#include "support/test_project.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>

using namespace pm;
using namespace pm::test;

namespace {

Project seed003() { return engine::load(projectPath("seed003_meter_out.pneumech.json")); }

// The findings as "object: message" lines, for failure messages.
QString text(const std::vector<CircuitFinding>& f) {
  QStringList l;
  for (const auto& x : f) l << QString::fromStdString(x.object + " | " + x.message);
  return l.join('\n');
}

int countOn(const std::vector<CircuitFinding>& f, const std::string& object, const std::string& words) {
  return int(std::count_if(f.begin(), f.end(), [&](const CircuitFinding& x) {
    return x.object == object && x.message.find(words) != std::string::npos;
  }));
}

void removeConnection(Project& p, const std::string& a, const std::string& b) {
  std::erase_if(p.connections, [&](const Connection& k) {
    return (k.from.str() == a && k.to.str() == b) || (k.from.str() == b && k.to.str() == a);
  });
}

}  // namespace

class TestCircuitChecks : public QObject {
  Q_OBJECT
 private slots:
  void workingCircuitIsClean() {
    const auto f = checkCircuit(seed003());
    QVERIFY2(f.empty(), qPrintable(text(f)));
  }

  void solenoidWithoutSignal() {
    Project p = seed003();
    p.find("v1")->inputs.erase("sol14");
    auto f = checkCircuit(p);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(countOn(f, "v1", "1V1 (v1): solenoid 14 has no signal and pilot port 14 is not connected"), 1);
    // The time switch that fed it is now read by nothing, but it is a signal
    // source, not a sensor: no finding for it.
    QCOMPARE(countOn(f, "sw1", ""), 0);
    // A pilot line on port 14 actuates it; so does a hand lever.
    Project piloted = p;
    wire(piloted, "src.1", "v1.14");
    QVERIFY2(checkCircuit(piloted).empty(), qPrintable(text(checkCircuit(piloted))));
    Project hand = p;
    hand.find("v1")->params["manual"] = 1.0;
    QVERIFY(checkCircuit(hand).empty());
  }

  void bistableValveNeedsSide12() {
    Project p = seed003();
    p.find("v1")->params["spring_return"] = 0.0;
    auto f = checkCircuit(p);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(countOn(f, "v1", "solenoid 12 has no signal and pilot port 12 is not connected: without a spring"), 1);
    p.find("v1")->inputs["sol12"] = "sw1.out";
    QVERIFY(checkCircuit(p).empty());
    // A hand lever with detent toggles it both ways: nothing needed on 12.
    p.find("v1")->inputs.erase("sol12");
    p.find("v1")->params["manual"] = 1.0;
    QVERIFY2(checkCircuit(p).empty(), qPrintable(text(checkCircuit(p))));
  }

  void threePositionValveNeedsBothSides() {
    Project p = seed003();
    p.find("v1")->type = "valve_5_3_closed";
    auto f = checkCircuit(p);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(countOn(f, "v1", "solenoid 12 has no signal"), 1);
  }

  void openWorkingPortAndCylinderWithoutValve() {
    Project p = seed003();
    removeConnection(p, "v1.4", "cyl1.A");
    auto f = checkCircuit(p);
    QCOMPARE(int(f.size()), 2);
    QCOMPARE(countOn(f, "v1", "working port 4 is not connected (plugged)"), 1);
    QCOMPARE(countOn(f, "cyl1", "port A is not connected (plugged)"), 1);
    // Through the flow control the cylinder still reaches the valve on B.
    QCOMPARE(countOn(f, "cyl1", "no directional valve"), 0);
    // Fed straight from the supply through the flow control: no valve.
    removeConnection(p, "v1.2", "fc1.1");
    wire(p, "src.1", "fc1.1");
    f = checkCircuit(p);
    QCOMPARE(countOn(f, "cyl1", "1A1 (cyl1): no directional valve controls it"), 1);
  }

  void sensorNothingReads() {
    Project p = seed003();
    p.components.push_back(comp("s1", "limit_switch", {{"x_switch", 0.1}}, {{"position", "cyl1.x"}}));
    p.components.back().label = "1S2";
    auto f = checkCircuit(p);
    QCOMPARE(int(f.size()), 1);
    QCOMPARE(countOn(f, "s1", "1S2 (s1): nothing reads this sensor"), 1);
    // Read by a gate, or named in a sequence's condition: fine.
    Project gated = p;
    gated.components.push_back(comp("g", "not_gate", {}, {{"in", "s1.out"}}));
    QCOMPARE(countOn(checkCircuit(gated), "s1", ""), 0);
    Project seq = p;
    seq.components.push_back(comp("seq", "step_sequence", {}, {}, nlohmann::json::parse(R"(
        {"outputs": ["Y1"], "steps": [{"set": {"Y1": 1}, "when": ["s1.out"]}]})")));
    QCOMPARE(countOn(checkCircuit(seq), "s1", ""), 0);
    // Or a latch lets go on it (projects/contact_clamp_docking's sears).
    Project latched = p;
    LatchDef sear;
    sear.id = "sear";
    sear.release = "s1.out";
    latched.mechanism.latches.push_back(sear);
    QCOMPARE(countOn(checkCircuit(latched), "s1", ""), 0);
  }

  void noSupplyBlocks() {
    Project p = seed003();
    std::erase_if(p.components, [](const Component& c) { return c.id == "src"; });
    std::erase_if(p.connections, [](const Connection& k) { return k.from.component == "src" || k.to.component == "src"; });
    const auto f = checkCircuit(p);
    QVERIFY(!f.empty());
    QVERIFY(f.front().blocking);
    QVERIFY(f.front().message.find("No supply") != std::string::npos);
    QCOMPARE(countOn(f, "v1", "port 1 is not connected"), 1);
    QCOMPARE(int(std::count_if(f.begin(), f.end(), [](const CircuitFinding& x) { return x.blocking; })), 1);
  }

  // The command line lists the same warnings (and still exits 0: the
  // project is valid, only the machine would not work).
  void cliPrintsTheSameWarnings() {
    Project p = seed003();
    p.find("v1")->inputs.erase("sol14");
    QTemporaryDir dir;
    const std::string path = dir.filePath("open.pneumech.json").toStdString();
    engine::save(p, path);
    QProcess cli;
    cli.start(PM_CLI, {"check", QString::fromStdString(path)});
    QVERIFY(cli.waitForFinished(60000));
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    QCOMPARE(cli.exitCode(), 0);
    QVERIFY2(out.contains("warning: 1V1 (v1): solenoid 14 has no signal"), qPrintable(out));
    QVERIFY2(out.contains("1 warning(s)"), qPrintable(out));
  }
};

QTEST_GUILESS_MAIN(TestCircuitChecks)
#include "test_circuit_checks.moc"
