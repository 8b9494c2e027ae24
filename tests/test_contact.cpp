// The contact core of issue 27 (mechanics/contact) against hand geometry and
// closed forms: distances, normals and points of each supported shape pair
// (also under a rigid motion of the whole scene), the IMPACT force law against
// k delta^e, a sphere dropped on a plane (energy, restitution, Hertz's contact
// duration), a block on an inclined plane (stiction creep, sliding
// acceleration), and the broad phase against all pairs.
#include "mechanics/contact/broad_phase.h"
#include "mechanics/contact/force_law.h"
#include "mechanics/contact/narrow_phase.h"
#include "mechanics/impact_force.h"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <random>
#include <stdexcept>

using namespace pm::contact;

namespace {

constexpr double kTol = 1e-12;

M3 rotX(double a) { return Eigen::AngleAxisd(a, V3::UnitX()).toRotationMatrix(); }
M3 rotY(double a) { return Eigen::AngleAxisd(a, V3::UnitY()).toRotationMatrix(); }
M3 rotZ(double a) { return Eigen::AngleAxisd(a, V3::UnitZ()).toRotationMatrix(); }

Frame at(const V3& p, const M3& R = M3::Identity()) { return {p, R}; }

// A rigid motion applied to the whole scene: distances stay, normals and
// points move with it.
struct Motion {
  M3 R = M3::Identity();
  V3 t = V3::Zero();
  Frame operator()(const Frame& f) const { return {R * f.p + t, R * f.R}; }
  V3 point(const V3& x) const { return R * x + t; }
};

const Motion kMotions[] = {{}, {rotZ(0.7) * rotX(-1.1) * rotY(0.4), V3(3.0, -2.0, 0.5)}};

#define CHECK_NEAR(got, want, tol)                                                                               \
  QVERIFY2(std::abs((got) - (want)) <= (tol),                                                                   \
           qPrintable(QString("%1 = %2, expected %3 (tol %4)").arg(#got).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17).arg(tol)))

void checkVec(const V3& got, const V3& want, double tol, const char* what) {
  QVERIFY2((got - want).norm() <= tol, qPrintable(QString("%1: (%2 %3 %4), expected (%5 %6 %7)")
                                                      .arg(what)
                                                      .arg(got.x(), 0, 'g', 15).arg(got.y(), 0, 'g', 15).arg(got.z(), 0, 'g', 15)
                                                      .arg(want.x(), 0, 'g', 15).arg(want.y(), 0, 'g', 15).arg(want.z(), 0, 'g', 15)));
}

// One case: A at fa, B at fb must give `dist` and normal `n` (in the scene's
// frame) and, when given, these contact points.
void expectPair(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb, double dist, const V3& n,
                const std::vector<ContactPoint>& pts = {}) {
  for (const Motion& m : kMotions) {
    const Contact c = collide(a, m(fa), b, m(fb));
    CHECK_NEAR(c.distance, dist, kTol);
    checkVec(c.normal, m.R * n, kTol, "normal");
    QCOMPARE(c.touching(), dist < 0.0);
    if (dist < 0.0) {
      QCOMPARE(c.points.size(), pts.size());
      for (size_t i = 0; i < pts.size(); ++i) {
        checkVec(c.points[i].point, m.point(pts[i].point), kTol, "contact point");
        CHECK_NEAR(c.points[i].depth, pts[i].depth, kTol);
      }
    }
    // Swapped, the normal turns round and nothing else changes.
    const Contact s = collide(b, m(fb), a, m(fa));
    CHECK_NEAR(s.distance, dist, kTol);
    checkVec(s.normal, -(m.R * n), kTol, "swapped normal");
  }
}

}  // namespace

class TestContact : public QObject {
  Q_OBJECT

 private slots:
  void sphereSphere() {
    const Shape a = Shape::sphere(0.5), b = Shape::sphere(0.3);
    expectPair(a, at(V3::Zero()), b, at(V3(1, 2, 2)), 3.0 - 0.8, V3(1, 2, 2) / 3.0);
    expectPair(a, at(V3::Zero()), b, at(V3(0.6, 0, 0)), -0.2, V3::UnitX(), {{V3(0.4, 0, 0), 0.2}});
  }

  void planeSphere() {
    // Plane through p tilted about x; the sphere's centre 0.7 above it, shifted 0.4 along the plane.
    const M3 R = rotX(0.3);
    const V3 p(1, 2, 3), n = R.col(2), t = R.col(0);
    const Shape pl = Shape::plane(), s = Shape::sphere(1.0);
    expectPair(pl, at(p, R), s, at(p + 0.7 * n + 0.4 * t), -0.3, n, {{p + 0.4 * t - 0.15 * n, 0.3}});
    expectPair(pl, at(p, R), s, at(p + 1.25 * n + 0.4 * t), 0.25, n);
  }

  void planeBox() {
    const Shape pl = Shape::plane(), bx = Shape::box(V3(0.5, 0.2, 0.1));
    // Flat on the plane, turned about z: four points, the bottom corners 0.02 deep.
    const M3 R = rotZ(0.4);
    std::vector<ContactPoint> pts;
    for (int i = 0; i < 4; ++i) {
      const V3 corner = R * V3((i & 1) ? 0.5 : -0.5, (i & 2) ? 0.2 : -0.2, 0.0);
      pts.push_back({V3(corner.x(), corner.y(), -0.01), 0.02});
    }
    expectPair(pl, at(V3::Zero()), bx, at(V3(0, 0, 0.08), R), -0.02, V3::UnitZ(), pts);
    // Tilted about y by phi: the lowest vertex is hx sin(phi) + hz cos(phi) below the centre.
    const double phi = 0.35, low = 0.5 * std::sin(phi) + 0.1 * std::cos(phi);
    expectPair(pl, at(V3::Zero()), bx, at(V3(0, 0, low + 0.05), rotY(phi)), 0.05, V3::UnitZ());
    const V3 c(0.2, -0.1, low - 0.03);
    const V3 v = c + rotY(phi) * V3(0.5, 0, -0.1);  // the edge below: y = c.y -+ 0.2
    expectPair(pl, at(V3::Zero()), bx, at(c, rotY(phi)), -0.03, V3::UnitZ(),
               {{V3(v.x(), c.y() - 0.2, -0.015), 0.03}, {V3(v.x(), c.y() + 0.2, -0.015), 0.03}});
  }

  void planeCapsule() {
    const Shape pl = Shape::plane(), cap = Shape::capsule(0.1, 0.5);
    // Axis tilted by phi from the normal: the lower end is h cos(phi) below the centre.
    const double phi = 0.6;
    expectPair(pl, at(V3::Zero()), cap, at(V3(0, 0, 0.5 * std::cos(phi) + 0.1 + 0.2), rotY(phi)), 0.2, V3::UnitZ());
    // Lying flat (axis along x) 0.02 deep: both ends are points.
    expectPair(pl, at(V3::Zero()), cap, at(V3(0, 0, 0.08), rotY(std::numbers::pi / 2)), -0.02, V3::UnitZ(),
               {{V3(-0.5, 0, -0.01), 0.02}, {V3(0.5, 0, -0.01), 0.02}});
  }

  void boxSphere() {
    const Shape bx = Shape::box(V3(1, 2, 3)), s = Shape::sphere(0.2);
    const M3 R = rotZ(0.5);
    const V3 p(0.3, -0.2, 1.0);
    auto w = [&](const V3& l) { return V3(p + R * l); };
    expectPair(bx, at(p, R), s, at(w(V3(1.5, 0.5, 0.2))), 0.5 - 0.2, R.col(0));  // face region
    expectPair(bx, at(p, R), s, at(w(V3(1.3, 2.4, 0))), 0.5 - 0.2, R * V3(0.6, 0.8, 0));  // edge
    expectPair(bx, at(p, R), s, at(w(V3(2, 3, 4))), std::sqrt(3.0) - 0.2, R * V3(1, 1, 1) / std::sqrt(3.0));
    expectPair(bx, at(p, R), s, at(w(V3(1.1, 0.5, 0.2))), -0.1, R.col(0), {{w(V3(0.95, 0.5, 0.2)), 0.1}});
    // Centre inside, nearest the +x face 0.2 away.
    expectPair(bx, at(p, R), s, at(w(V3(0.8, 0, 0))), -0.4, R.col(0), {{w(V3(0.8, 0, 0)), 0.4}});
  }

  void capsuleSphereAndCapsule() {
    const Shape ca = Shape::capsule(0.2, 1.0), s = Shape::sphere(0.1);
    expectPair(ca, at(V3::Zero()), s, at(V3(0.5, 0, 0.3)), 0.2, V3::UnitX());
    expectPair(ca, at(V3::Zero()), s, at(V3(0, 0, 1.6)), 0.3, V3::UnitZ());
    const Shape cb = Shape::capsule(0.15, 1.0);
    const M3 alongX = rotY(std::numbers::pi / 2);
    expectPair(ca, at(V3::Zero()), cb, at(V3(0, 0.8, 0.5), alongX), 0.8 - 0.35, V3::UnitY());
    // Past A's end: A's closest point is its end (0, 0, 1), B's is its centre.
    expectPair(ca, at(V3::Zero()), cb, at(V3(0, 0.6, 1.8), alongX), 1.0 - 0.35, V3(0, 0.6, 0.8));
    expectPair(ca, at(V3::Zero()), cb, at(V3(0, 0.3, 0.5), alongX), -0.05, V3::UnitY(),
               {{V3(0, 0.175, 0.5), 0.05}});
  }

  void cylinderSphere() {
    const Shape cy = Shape::cylinder(0.5, 1.0), s = Shape::sphere(0.2);
    expectPair(cy, at(V3::Zero()), s, at(V3(1, 0, 0)), 0.3, V3::UnitX());            // side
    expectPair(cy, at(V3::Zero()), s, at(V3(0.3, 0, 1.4)), 0.2, V3::UnitZ());        // cap
    expectPair(cy, at(V3::Zero()), s, at(V3(0.8, 0, 1.4)), 0.3, V3(0.6, 0, 0.8));    // rim
    expectPair(cy, at(V3::Zero()), s, at(V3(0.4, 0, 0)), -0.3, V3::UnitX(), {{V3(0.35, 0, 0), 0.3}});  // inside
  }

  void unsupportedPairNamed() {
    QVERIFY(!supported(ShapeKind::Box, ShapeKind::Box));
    try {
      collide(Shape::box(V3::Ones()), Frame{}, Shape::box(V3::Ones()), Frame{});
      QFAIL("box-box must throw");
    } catch (const std::invalid_argument& e) {
      QVERIFY(QString(e.what()).contains("box and a box"));
    }
  }
};

QTEST_APPLESS_MAIN(TestContact)
#include "test_contact.moc"
