// The two-axis handling system (seed 000 sec. 7.2) under closed-loop servo
// position control (projects/two_axis_servo.pneumech.json): each cylinder
// follows its set-point, and the base axis holds its position while the
// axis it carries moves.
#include "io/project_file.h"
#include "support/test_project.h"

using namespace pm;
using namespace pm::test;

class TestTwoAxisServo : public QObject {
  Q_OBJECT
 private slots:
  // Set-points: A 10 -> 90 mm (0.1-0.5 s) and back (1.6-2.0 s); B 10 -> 80 mm
  // (0.6-0.9 s) and back (1.2-1.5 s). Bounds for the example's gains
  // (measured in brackets): |x - r| below 25 mm while moving (A 19.3 mm,
  // B 17.5 mm: the P position loop lags a ramp by v/Kp_x); below 1.2 mm from
  // 0.1-0.2 s after each move's end to the end of the hold (A 0.87 mm over
  // [0.7, 1.6] s, while B moves and its reactions load A; B 0.70 mm); the
  // valve commands never saturate.
  void followsSetpoints() {
    Project p = loadProject(projectPath("two_axis_servo.pneumech.json"));
    auto r = simulate(p, "two_axis_servo");
    REQUIRE_OK(r);
    QCOMPARE(r->t.back(), p.simulation.t_end);
    struct Axis {
      const char* id;
      std::vector<std::pair<double, double>> moving, held;
    };
    const Axis axes[] = {{"A", {{0.1, 0.6}, {1.6, 2.1}}, {{0.7, 1.6}, {2.2, 2.5}}},
                         {"B", {{0.6, 1.0}, {1.2, 1.6}}, {{1.0, 1.2}, {1.7, 2.5}}}};
    for (const Axis& a : axes) {
      const std::string id = a.id;
      const auto x = r->col(id + ".x"), sp = r->col("sp" + id + ".out");
      auto maxErr = [&](const std::vector<std::pair<double, double>>& windows) {
        double m = 0.0;
        for (auto [t0, t1] : windows)
          for (size_t k = 0; k < x.size(); ++k)
            if (r->t[k] >= t0 && r->t[k] <= t1) m = std::max(m, std::abs(x[k] - sp[k]));
        return m;
      };
      const double moving = maxErr(a.moving), held = maxErr(a.held);
      qInfo("axis %s: max |x - r| moving %.2f mm, holding %.3f mm", a.id, moving * 1e3, held * 1e3);
      QVERIFY(moving < 25e-3);
      QVERIFY(held < 1.2e-3);
      QVERIFY(r->maxAbs("ctl" + id + ".u", 0.0, p.simulation.t_end) < 1.0);
    }
    // Both axes really travel their strokes.
    QVERIFY(r->at("A.x", 1.0) > 0.085);
    QVERIFY(r->at("B.x", 1.1) > 0.075);
  }
};

QTEST_MAIN(TestTwoAxisServo)
#include "test_two_axis_servo.moc"
