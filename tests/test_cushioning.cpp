// End cushioning: over the last cushion_length of stroke the exhausting air
// can leave only through the cushion throttle, so the trapped air is
// compressed above supply pressure and brakes the piston; on the return
// stroke the cushion check valve lets air in freely. Seed 003's circuit,
// with and without cushioning at the extended end.
#include "build/project_input.h"
#include "support/test_project.h"

#include <QtTest>

using namespace pm;
using namespace pm::test;

namespace {

std::unique_ptr<Run> seed003(double cushionLength) {
  Project p = loadProject(projectPath("seed003_meter_out.pneumech.json"));
  applyOverride(p, "cyl1.cushion_length_B=" + std::to_string(cushionLength));
  applyOverride(p, "sw1.t_off=0.8");  // retract at 0.8 s
  applyOverride(p, "simulation.t_end=1.2");
  return simulate(p, "seed003_cushion");
}

// Piston speed when the end-stop contact force first appears during extension.
double contactSpeed(const Run& r) {
  const auto F = r.col("cyl1.F_stop"), v = r.col("cyl1.v");
  for (size_t i = 0; i < F.size() && r.t[i] < 0.8; ++i)
    if (F[i] < -1.0) return v[i];
  return std::nan("");
}

}  // namespace

class TestCushioning : public QObject {
  Q_OBJECT
 private slots:
  void cushionBrakesAndReleases() {
    auto plain = seed003(0.0);
    auto cushioned = seed003(0.02);
    REQUIRE_OK(plain);
    REQUIRE_OK(cushioned);
    const double ps = 601325.0;
    // Nearly the same approach speed: before the cushion zone the circuits
    // differ only by the cushioned side's port bore (1 cm3) and port passage
    // (0.2 % measured).
    const double vPlain = plain->maxAbs("cyl1.v", 0.1, 0.8), vCushioned = cushioned->maxAbs("cyl1.v", 0.1, 0.8);
    CHECK_REL(vCushioned, vPlain, 1e-2);
    // Without cushioning the piston hits the stop fast; with it, it creeps in.
    const double hitPlain = contactSpeed(*plain), hitCushioned = contactSpeed(*cushioned);
    QVERIFY2(hitPlain > 0.1, QByteArray::number(hitPlain));
    QVERIFY2(hitCushioned < 0.02, QByteArray::number(hitCushioned));
    // The trapped air is compressed above supply; without cushion the rod
    // side never exceeds supply pressure.
    QVERIFY(cushioned->maxAbs("cyl1.pB", 0.1, 0.8) > 1.3 * ps);
    QVERIFY(plain->maxAbs("cyl1.pB", 0.1, 0.8) < ps + 10.0);
    // Return stroke: the cushion check valve refills the chamber freely, so
    // the piston leaves the stop as early as without cushioning (within 5 ms).
    const double leavePlain = plain->crossing("cyl1.x", 0.19, 0.8), leaveCushioned = cushioned->crossing("cyl1.x", 0.19, 0.8);
    QVERIFY2(std::abs(leaveCushioned - leavePlain) < 5e-3,
             (std::to_string(leavePlain) + " vs " + std::to_string(leaveCushioned)).c_str());
  }
};

QTEST_APPLESS_MAIN(TestCushioning)
#include "test_cushioning.moc"
