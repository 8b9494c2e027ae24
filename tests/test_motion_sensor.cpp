// Position/velocity sensors read another component's quantity by reference;
// the 2/2 normally-open valve passes flow at rest and blocks it when switched.
#include "analyses/simulation.h"
#include "build/project_input.h"
#include "model/project_error.h"
#include "support/test_project.h"

#include <QtTest>

using namespace pm;

namespace {

std::string sensorsOnSeed003() {
  Project p = loadProject(test::projectPath("seed003_meter_out.pneumech.json"));
  Component pos{"xs", "position_sensor", "", "", {{"gain", 1000.0}, {"offset", 0.05}}, {{"position", "cyl1.x"}}, {}, {}};
  Component vel{"vs", "velocity_sensor", "", "", {}, {{"velocity", "cyl1.v"}}, {}, {}};
  p.components.push_back(pos);
  p.components.push_back(vel);
  return serializeProject(p);
}

const char* kNormallyOpen = R"({
  "format": "pneumech-project", "schema_version": 1,
  "simulation": {"t_end": 0.5, "output_interval": 0.001, "rel_tol": 1e-7},
  "components": [
    {"id": "src", "type": "supply", "params": {"p": 601325}},
    {"id": "sw", "type": "time_switch", "params": {"t_on": 0.2}},
    {"id": "v", "type": "valve_2_2_no", "params": {"C_supply": 1e-8, "leak_fraction": 0}, "inputs": {"sol14": "sw.out"}},
    {"id": "tank", "type": "reservoir", "params": {"V": 0.001, "isothermal": 1}}
  ],
  "connections": [{"id": "l1", "from": "src.1", "to": "v.1"}, {"id": "l2", "from": "v.2", "to": "tank.1"}]
})";

}  // namespace

class TestMotionSensor : public QObject {
  Q_OBJECT
 private slots:
  void sensorsFollowTheCylinder() {
    Project p = parseProject(sensorsOnSeed003(), "sensors");
    Simulation sim(p, "sensors");
    ResultStore r;
    QVERIFY(sim.run(r).ok());
    const auto x = r.column("cyl1.x"), v = r.column("cyl1.v"), xs = r.column("xs.out"), vs = r.column("vs.out");
    double moved = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
      QCOMPARE(xs[i], 1000.0 * (x[i] - 0.05));  // same sample, same arithmetic: exact
      QCOMPARE(vs[i], v[i]);
      moved = std::max(moved, x[i]);
    }
    QVERIFY(moved > 0.19);  // the sensor saw a real stroke
  }

  void missingReferenceIsAnError() {
    std::string text = sensorsOnSeed003();
    const auto pos = text.find("\"cyl1.v\"");
    text.replace(pos, 8, "\"cyl9.v\"");
    QVERIFY_THROWS_EXCEPTION(ProjectError, parseProject(text, "sensors"));
  }

  void normallyOpenValve() {
    Project p = parseProject(kNormallyOpen, "no");
    Simulation sim(p, "no");
    ResultStore r;
    QVERIFY(sim.run(r).ok());
    const auto t = r.times();
    const auto pt = r.column("tank.p");
    size_t i02 = 0;
    while (t[i02] < 0.2) ++i02;
    // Open at rest: the isothermal tank fills choked (p_tank/p_s < b = 0.3
    // until 180 kPa) at dp/dt = R T q / V with q = C p_s rho0: at 0.098 s
    // 101325 + 287.05 * 293.15 * 7.1257e-3 / 1e-3 * 0.098 Pa. Tolerance 2 Pa:
    // the pressure's absolute tolerance is 1 Pa.
    const double q = 1e-8 * 601325 * 1.185;
    QVERIFY(std::abs(pt[98] - (101325 + 287.05 * 293.15 * q / 1e-3 * t[98])) < 2.0);
    QVERIFY(pt[i02] > 2e5);
    // Switched at 0.2 s (10 ms stroke): no leakage set, so the pressure freezes.
    const size_t i025 = i02 + 50;
    QVERIFY(std::abs(pt.back() - pt[i025]) < 1e-6 * pt.back());
    QVERIFY(pt.back() < 601325 - 1e3);
  }
};

QTEST_APPLESS_MAIN(TestMotionSensor)
#include "test_motion_sensor.moc"
