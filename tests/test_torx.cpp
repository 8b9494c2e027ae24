// TORX, the 3-PUU translational parallel robot of seed 002 sec. 5
// (projects/torx_open_loop.pneumech.json, projects/torx_servo.pneumech.json):
// the platform only translates, and its position is the closed-form forward
// kinematics of the three cylinder strokes (three-sphere intersection).
#include "build/project_input.h"
#include "mechanics/mechanism_element.h"
#include "support/test_project.h"

#include <Eigen/Dense>

using namespace pm;
using namespace pm::test;

namespace {

using V3 = Eigen::Vector3d;

V3 vec(const Vec3& a) { return {a[0], a[1], a[2]}; }

const PartDef& part(const Project& p, const std::string& id) {
  for (const auto& q : p.mechanism.parts)
    if (q.id == id) return q;
  qFatal("no part %s", id.c_str());
}

V3 markerPos(const Project& p, const std::string& partId, const std::string& markerId) {
  for (const auto& m : part(p, partId).markers)
    if (m.id == markerId) return vec(m.position);
  qFatal("no marker %s.%s", partId.c_str(), markerId.c_str());
}

// The robot's geometry as the project defines it: guide i's zero point
// (world; the carriage joint centre sits at stroke x_i above it, since the
// cylinders act along the guides and start with travel = x0), the platform
// joint i in platform axes, and the leg length between joint centres.
struct Geometry {
  V3 guide[3], plat[3];
  double leg = 0;
};

Geometry geometry(const Project& p) {
  Geometry g;
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i + 1);
    g.guide[i] = markerPos(p, "ground", "guide" + n);
    g.plat[i] = markerPos(p, "platform", "u" + n);
  }
  g.leg = (markerPos(p, "leg1", "top") - markerPos(p, "leg1", "bottom")).norm();
  return g;
}

// Forward kinematics by hand: with the platform not rotating, its origin P
// is at leg-length distance from c_i = (carriage joint centre i) - (platform
// joint i), i.e. the intersection of three spheres of radius L. Subtracting
// the sphere equations pairwise gives two planes; in the frame ex, ey, ez
// spanned by the centres (classic trilateration) the point is
//   x = d/2, y = (i^2 + j^2)/(2 j) - i x / j, z = -+sqrt(L^2 - x^2 - y^2),
// with d = |c2 - c1|, i = ex.(c3 - c1), j = ey.(c3 - c1); the platform hangs
// below the carriages, so the root with the lower world z is taken.
V3 forwardKinematics(const Geometry& g, const double x[3]) {
  V3 c[3];
  for (int i = 0; i < 3; ++i) c[i] = g.guide[i] + V3(0, 0, x[i]) - g.plat[i];
  const V3 ex = (c[1] - c[0]).normalized();
  const double d = (c[1] - c[0]).norm(), ii = ex.dot(c[2] - c[0]);
  const V3 ey = (c[2] - c[0] - ii * ex).normalized();
  const V3 ez = ex.cross(ey);
  const double jj = ey.dot(c[2] - c[0]);
  const double px = d / 2, py = (ii * ii + jj * jj) / (2 * jj) - ii * px / jj;
  const double pz = std::sqrt(g.leg * g.leg - px * px - py * py);
  const V3 a = c[0] + px * ex + py * ey + pz * ez, b = c[0] + px * ex + py * ey - pz * ez;
  return a.z() < b.z() ? a : b;
}

struct KinematicErrors {
  double position = 0, rotation = 0;
};

// Largest |P - FK(x)| and largest |roll|, |pitch|, |yaw| over the run.
KinematicErrors kinematicErrors(const Run& r, const Geometry& g) {
  const auto x1 = r.col("C1.x"), x2 = r.col("C2.x"), x3 = r.col("C3.x");
  const auto px = r.col("platform.x"), py = r.col("platform.y"), pz = r.col("platform.z");
  KinematicErrors e;
  for (const char* q : {"platform.roll", "platform.pitch", "platform.yaw"})
    e.rotation = std::max(e.rotation, r.maxAbs(q, 0.0, r.t.back()));
  for (size_t k = 0; k < r.t.size(); ++k) {
    const double x[3] = {x1[k], x2[k], x3[k]};
    e.position = std::max(e.position, (V3(px[k], py[k], pz[k]) - forwardKinematics(g, x)).norm());
  }
  return e;
}

double range(const std::vector<double>& v) {
  return *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
}

}  // namespace

class TestTorx : public QObject {
  Q_OBJECT
 private slots:
  // 7 parts, 3 translational (5 equations each) and 6 universal joints (4
  // each): 42 - 39 = 3 DOF, and the universal joints' arrangement (parallel
  // outer and inner cross arms) makes the 39 equations independent, so the
  // Gram-Schmidt check removes none.
  void mobility() {
    Project p = loadProject(projectPath("torx_open_loop.pneumech.json"));
    Simulation sim(p, "torx");
    const auto& mb = mechanismOf(sim.system())->multibody();
    QCOMPARE(mb.degreesOfFreedom(), 3);
    QVERIFY2(mb.messages().empty(), mb.messages().empty() ? "" : mb.messages().front().c_str());
    int active = 0;
    for (const auto& row : mb.rows()) active += row.active ? 1 : 0;
    QCOMPARE(active, 39);
  }

  // Open loop: the valves' command pulses move every cylinder (by more than
  // 20 mm, never onto a stop); the platform does not rotate (1e-6 rad) and
  // follows the three-sphere intersection of the strokes to 1e-6 m.
  void openLoopTranslatesOnly() {
    Project p = loadProject(projectPath("torx_open_loop.pneumech.json"));
    auto r = simulate(p, "torx_open_loop");
    REQUIRE_OK(r);
    QCOMPARE(r->t.back(), p.simulation.t_end);
    for (const char* c : {"C1.x", "C2.x", "C3.x"}) {
      const auto x = r->col(c);
      qInfo("%s moves over %.1f mm, between %.1f and %.1f mm", c, range(x) * 1e3,
            *std::min_element(x.begin(), x.end()) * 1e3, *std::max_element(x.begin(), x.end()) * 1e3);
      QVERIFY(range(x) > 0.02);
      QVERIFY(*std::min_element(x.begin(), x.end()) > 0.005);
      QVERIFY(*std::max_element(x.begin(), x.end()) < 0.195);
    }
    // The platform really moves sideways as well as up and down.
    QVERIFY(range(r->col("platform.x")) > 0.01);
    QVERIFY(range(r->col("platform.y")) > 0.01);
    QVERIFY(range(r->col("platform.z")) > 0.01);
    const auto e = kinematicErrors(*r, geometry(p));
    qInfo("max |P - FK(x)| %.3g m, max |rotation| %.3g rad", e.position, e.rotation);
    QVERIFY(e.position < 1e-6);
    QVERIFY(e.rotation < 1e-6);
    qInfo("constraint residuals: position %.3g, velocity %.3g", r->maxAbs("mechanism.residual_position", 0, 9),
          r->maxAbs("mechanism.residual_velocity", 0, 9));
    // The constraints hold to the integration tolerance: rel_tol (1e-6) times
    // the mechanism's size (0.5 m); the measured value moves by several times
    // with round-off-level changes of the step sequence (1.9e-8 and 1.5e-7 seen).
    QVERIFY(r->maxAbs("mechanism.residual_position", 0.0, p.simulation.t_end) < p.simulation.rel_tol * 0.5);
    QVERIFY(r->maxAbs("mechanism.residual_velocity", 0.0, p.simulation.t_end) < 1e-6);
  }

  // Closed loop (servo_position_controller per cylinder, 1 ms samples): the
  // set-points are the strokes of platform poses held over [0.4, 0.8] s and
  // [1.1, 1.5] s. Bounds: |x - r| below 25 mm while moving (no set-point
  // velocity feedforward, so the P position loop lags a ramp by v/Kp_x); the
  // issue's +-0.5 mm band reached at most 0.35 s after each move's end (the
  // second hold is 0.4 s long) and held to the end of the hold; the valves
  // never saturate. The platform still only translates and sits at the
  // strokes' three-sphere intersection.
  void servoFollowsSetpoints() {
    Project p = loadProject(projectPath("torx_servo.pneumech.json"));
    auto r = simulate(p, "torx_servo");
    REQUIRE_OK(r);
    QCOMPARE(r->t.back(), p.simulation.t_end);
    const double band = 0.5e-3, settleBound = 0.35;
    for (int i = 1; i <= 3; ++i) {
      const std::string n = std::to_string(i);
      const auto x = r->col("C" + n + ".x"), sp = r->col("sp" + n + ".out");
      auto maxErr = [&](double t0, double t1) {
        double m = 0.0;
        for (size_t k = 0; k < x.size(); ++k)
          if (r->t[k] >= t0 && r->t[k] <= t1) m = std::max(m, std::abs(x[k] - sp[k]));
        return m;
      };
      QVERIFY(range(sp) > 0.01);  // every axis has a move to follow
      const double moving = std::max(maxErr(0.1, 0.4), maxErr(0.8, 1.1));
      qInfo("axis %d: max |x - r| moving %.2f mm", i, moving * 1e3);
      QVERIFY(moving < 25e-3);
      for (auto [tEnd, tNext] : {std::pair{0.4, 0.8}, std::pair{1.1, 1.5}}) {
        double tIn = tEnd;  // last instant outside the band
        for (size_t k = 0; k < x.size(); ++k)
          if (r->t[k] >= tEnd && r->t[k] <= tNext && std::abs(x[k] - sp[k]) > band) tIn = r->t[k];
        const double held = maxErr(tEnd + settleBound, tNext);
        qInfo("axis %d, move ending at %.1f s: inside +-0.5 mm from %.3f s after, then max %.3f mm", i, tEnd,
              tIn - tEnd, held * 1e3);
        QVERIFY(tIn - tEnd <= settleBound);
        QVERIFY(held <= band);
      }
      QVERIFY(r->maxAbs("u" + n + ".u", 0.0, p.simulation.t_end) < 1.0);  // never saturated
    }
    const auto e = kinematicErrors(*r, geometry(p));
    qInfo("max |P - FK(x)| %.3g m, max |rotation| %.3g rad", e.position, e.rotation);
    QVERIFY(e.position < 1e-6);
    QVERIFY(e.rotation < 1e-6);
  }
};

QTEST_MAIN(TestTorx)
#include "test_torx.moc"
