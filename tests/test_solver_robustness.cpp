// Solver robustness cases that once failed: each is a small circuit that
// stalled or broke IDA, kept here with the physics it must still show.
#include "analyses/simulation.h"
#include "build/project_input.h"
#include "solver/result_store.h"

#include <QtTest>

using namespace pm;

namespace {

// A 2/2 valve closes onto the volume-less line between it and a restriction
// that feeds a tank; only valve leakage flows afterwards. This needed 161283
// IDA steps (and failed outright before the consistent-restart fix) while the
// junction temperature hung on the sign of a 1e-7 kg/s leak.
const char* kValveClosesOntoLine = R"({
  "format": "pneumech-project", "schema_version": 1,
  "simulation": {"t_end": 4.0, "output_interval": 0.002, "rel_tol": 1e-6},
  "components": [
    {"id": "src", "type": "supply", "params": {"p": 701325.0}},
    {"id": "sw_fill", "type": "time_switch", "params": {"t_on": 0.0, "t_off": 1.5}},
    {"id": "v_fill", "type": "valve_2_2_nc", "params": {"C_supply": 2e-8, "t_switch": 0.01}, "inputs": {"sol14": "sw_fill.out"}},
    {"id": "r_in", "type": "restriction", "params": {"C": 5e-9, "b": 0.3}},
    {"id": "tank", "type": "reservoir", "params": {"V": 0.005, "hA": 2.0}},
    {"id": "sw_dump", "type": "time_switch", "params": {"t_on": 2.0, "t_off": 1e9}},
    {"id": "v_dump", "type": "valve_2_2_nc", "params": {"C_supply": 2e-8, "t_switch": 0.01}, "inputs": {"sol14": "sw_dump.out"}},
    {"id": "r_out", "type": "restriction", "params": {"C": 1e-8, "b": 0.3}},
    {"id": "atm", "type": "atmosphere"}
  ],
  "connections": [
    {"id": "l1", "from": "src.1", "to": "v_fill.1"},
    {"id": "l2", "from": "v_fill.2", "to": "r_in.1"},
    {"id": "l3", "from": "r_in.2", "to": "tank.1"},
    {"id": "l4", "from": "tank.1", "to": "v_dump.1"},
    {"id": "l5", "from": "v_dump.2", "to": "r_out.1"},
    {"id": "l6", "from": "r_out.2", "to": "atm.1"}
  ]
})";

}  // namespace

class TestSolverRobustness : public QObject {
  Q_OBJECT
 private slots:
  void valveClosesOntoJunction() {
    Project p = parseProject(kValveClosesOntoLine, "valve_closes_onto_line");
    Simulation sim(p, "valve_closes_onto_line");
    ResultStore r;
    const RunResult res = sim.run(r);
    QVERIFY2(res.ok(), res.message.c_str());
    // Step count is deterministic (not a timing): ~1200 now; 20000 means the
    // junction stiffness is back.
    QVERIFY2(res.stats.steps < 20000, QByteArray::number(qlonglong(res.stats.steps)));
    const auto t = r.times();
    const auto pTank = r.column("tank.p"), m = r.column("tank.m"), q = r.column("r_in.q");
    // After the fill valve has closed (1.51 s) and before the dump opens (2 s)
    // the tank only cools (its pressure falls); its air mass changes by the
    // valve leakage alone (~1.7e-7 kg/s, 5e-6 of its mass over 0.4 s).
    size_t i1 = 0, i2 = 0;
    while (t[i1] < 1.6) ++i1;
    while (t[i2] < 1.99) ++i2;
    QVERIFY(std::abs(m[i2] - m[i1]) < 1e-4 * m[i1]);
    QVERIFY(pTank[i2] < pTank[i1]);
    QVERIFY(std::abs(q[i2]) < 1e-6);
    // The dump then lets it down (5 l through 1 dm3/(s bar) takes seconds).
    QVERIFY(pTank.back() < 0.8 * pTank[i2]);
  }

  // At loose tolerances Newton can lose a junction's solution (seed 003 at
  // rel_tol 1e-3 failed at its end-stop bounce); the run now restarts from
  // the last accepted point and still ends in the static balance.
  void looseToleranceStillRuns() {
    const char* root = std::getenv("PM_SOURCE_DIR");
    for (const char* tol : {"1e-3", "1e-4"}) {
      Project p = loadProject(std::string(root ? root : PM_SOURCE_DIR) + "/projects/seed003_meter_out.pneumech.json");
      applyOverride(p, std::string("simulation.rel_tol=") + tol);
      Simulation sim(p, "seed003");
      ResultStore r;
      const RunResult res = sim.run(r);
      QVERIFY2(res.ok(), (std::string(tol) + ": " + res.message).c_str());
      // Rest on the front stop: F_stop = -(pA A_A - pB A_B - p_amb A_rod - F_load) = -352.1 N (1 %).
      QVERIFY2(std::abs(r.last("cyl1.F_stop") + 352.1) < 3.5, std::to_string(r.last("cyl1.F_stop")).c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestSolverRobustness)
#include "test_solver_robustness.moc"
