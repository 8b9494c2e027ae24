// The two-axis handling system (seed 000 sec. 7.2) under closed-loop servo
// position control (projects/two_axis_servo.pneumech.json): each cylinder
// follows its set-point, and the base axis holds its position while the
// axis it carries moves.
#include "build/project_input.h"
#include "support/test_project.h"

using namespace pm;
using namespace pm::test;

class TestTwoAxisServo : public QObject {
  Q_OBJECT
 private slots:
  // Set-points: A 10 -> 90 mm (0.1-0.5 s) and back (1.6-2.0 s); B 10 -> 80 mm
  // (0.6-0.9 s) and back (1.2-1.5 s). Bounds: |x - r| below 25 mm while
  // moving (the P position loop lags a ramp by v/Kp_x); the issue's +-0.5 mm
  // band reached at most 0.3 s after each move's end and held until the
  // axis's next move (A's holds include B's moves, whose reactions load A);
  // the valve commands never saturate.
  void followsSetpoints() {
    Project p = loadProject(projectPath("two_axis_servo.pneumech.json"));
    auto r = simulate(p, "two_axis_servo");
    REQUIRE_OK(r);
    QCOMPARE(r->t.back(), p.simulation.t_end);
    struct Axis {
      const char* id;
      std::vector<std::pair<double, double>> moving, holds;  // holds: (move end, next move start)
    };
    const Axis axes[] = {{"A", {{0.1, 0.6}, {1.6, 2.1}}, {{0.5, 1.6}, {2.0, 2.5}}},
                         {"B", {{0.6, 1.0}, {1.2, 1.6}}, {{0.9, 1.2}, {1.5, 2.5}}}};
    const double band = 0.5e-3, settleBound = 0.3;
    for (const Axis& a : axes) {
      const std::string id = a.id;
      const auto x = r->col(id + ".x"), sp = r->col("sp" + id + ".out");
      double moving = 0.0;
      for (auto [t0, t1] : a.moving)
        for (size_t k = 0; k < x.size(); ++k)
          if (r->t[k] >= t0 && r->t[k] <= t1) moving = std::max(moving, std::abs(x[k] - sp[k]));
      qInfo("axis %s: max |x - r| moving %.2f mm", a.id, moving * 1e3);
      QVERIFY(moving < 25e-3);
      for (auto [tEnd, tNext] : a.holds) {
        double tIn = tEnd, held = 0.0;  // last instant outside the band; max error after the bound
        for (size_t k = 0; k < x.size(); ++k) {
          if (r->t[k] < tEnd || r->t[k] > tNext) continue;
          if (std::abs(x[k] - sp[k]) > band) tIn = r->t[k];
          if (r->t[k] >= tEnd + settleBound) held = std::max(held, std::abs(x[k] - sp[k]));
        }
        qInfo("axis %s, move ending at %.1f s: inside +-0.5 mm from %.3f s after, then max %.3f mm", a.id, tEnd,
              tIn - tEnd, held * 1e3);
        QVERIFY(tIn - tEnd <= settleBound);
        QVERIFY(held <= band);
      }
      QVERIFY(r->maxAbs("ctl" + id + ".u", 0.0, p.simulation.t_end) < 1.0);
    }
    // Both axes really travel their strokes.
    QVERIFY(r->at("A.x", 1.0) > 0.085);
    QVERIFY(r->at("B.x", 1.1) > 0.075);
  }
};

QTEST_MAIN(TestTwoAxisServo)
#include "test_two_axis_servo.moc"
