// The contact core of issue 27 (mechanics/contact) against hand geometry and
// closed forms: distances, normals and points of each supported shape pair
// (also under a rigid motion of the whole scene), the IMPACT force law against
// k delta^e, a sphere dropped on a plane (energy, restitution, Hertz's contact
// duration), a block on an inclined plane (stiction creep, sliding
// acceleration), and the broad phase against all pairs.
#include "mechanics/contact/broad_phase.h"
#include "mechanics/contact/contact_pair.h"
#include "mechanics/contact/force_law.h"
#include "mechanics/contact/narrow_phase.h"
#include "mechanics/impact_force.h"

#include <QtTest>

#include <algorithm>
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

#define CHECK_NEAR(got, want, tol)                                                  \
  QVERIFY2(std::abs((got) - (want)) <= (tol), qPrintable(QString("%1 = %2, expected %3 (tol %4)") \
                                                             .arg(#got)                            \
                                                             .arg(got, 0, 'g', 17)                 \
                                                             .arg(want, 0, 'g', 17)                \
                                                             .arg(tol)))

QString vec(const V3& v) {
  return QString("(%1 %2 %3)").arg(v.x(), 0, 'g', 15).arg(v.y(), 0, 'g', 15).arg(v.z(), 0, 'g', 15);
}

void checkVec(const V3& got, const V3& want, double tol, const char* what) {
  QVERIFY2((got - want).norm() <= tol, qPrintable(QString("%1: %2, expected %3").arg(what, vec(got), vec(want))));
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
      // As a set: each expected point is one of those found, with its depth.
      for (const ContactPoint& want : pts) {
        const V3 w = m.point(want.point);
        auto it = std::find_if(c.points.begin(), c.points.end(),
                               [&](const ContactPoint& got) { return (got.point - w).norm() <= kTol; });
        QVERIFY2(it != c.points.end(), qPrintable("no contact point at " + vec(w)));
        CHECK_NEAR(it->depth, want.depth, kTol);
      }
    }
    // Swapped, the normal turns round and nothing else changes.
    const Contact s = collide(b, m(fb), a, m(fa));
    CHECK_NEAR(s.distance, dist, kTol);
    checkVec(s.normal, -(m.R * n), kTol, "swapped normal");
  }
}


// ------------------------------------------------------------ integration
// RK4 with a fixed step that lands on the roots of g (the signed distance):
// a step that changes g's sign is cut by bisection on its length until the
// root is bracketed to 1e-15 of the step; the event is taken just past it.
template <class Y>
struct EventRk4 {
  std::function<Y(double, const Y&)> f;
  std::function<double(const Y&)> g;

  Y step(double t, const Y& y, double h) const {
    const Y k1 = f(t, y), k2 = f(t + h / 2, y + h / 2 * k1), k3 = f(t + h / 2, y + h / 2 * k2),
            k4 = f(t + h, y + h * k3);
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }

  // From (t, y) to tEnd or to the first sign change of g (returns true then).
  bool run(double& t, Y& y, double tEnd, double h) const {
    const bool apart = g(y) > 0.0;
    while (t < tEnd) {
      const double hh = std::min(h, tEnd - t);
      Y y1 = step(t, y, hh);
      if ((g(y1) > 0.0) == apart) {
        t += hh;
        y = y1;
        continue;
      }
      double lo = 0.0, hi = hh;
      while (hi - lo > 1e-15 * hh) {
        const double mid = 0.5 * (lo + hi);
        ((g(step(t, y, mid)) > 0.0) == apart ? lo : hi) = mid;
      }
      y = step(t, y, hi);
      t += hi;
      return true;
    }
    return false;
  }
};

using Y2 = Eigen::Vector2d;  // height of a sphere's centre, its velocity
using Y4 = Eigen::Vector4d;  // a block's x, z, vx, vz

struct Drop {
  double m = 1.0, r = 0.05, g = 9.81;
  ImpactParams ip;
  Contact contact(const Y2& y) const { return collide(Shape::plane(), Frame{}, Shape::sphere(r), at(V3(0, 0, y[0]))); }
  double force(const Y2& y) const {
    const Contact c = contact(y);
    double F = 0.0;
    for (const ContactPoint& p : c.points) F += pointForce(p, c.normal, V3(0, 0, y[1]), ip, {}).force.z();
    return F;
  }
  EventRk4<Y2> integrator() const {
    return {[this](double, const Y2& y) { return Y2(y[1], force(y) / m - g); },
            [this](const Y2& y) { return contact(y).distance; }};
  }
};

// A block (translation only) on the plane z = 0 with gravity tilted by theta
// about y: the same as a block on a plane inclined by theta.
struct Incline {
  double m = 1.0, g = 9.81, theta = 0.0;
  Shape box = Shape::box(V3(0.1, 0.1, 0.05));
  ImpactParams ip{1e5, 1.0, 300.0, 1e-6};
  FrictionParams fp{0.5, 0.3, 1e-3, 1e-2};
  Y4 rate(const Y4& y) const {
    const Contact c = collide(Shape::plane(), Frame{}, box, at(V3(y[0], 0, y[1])));
    V3 F = m * g * V3(std::sin(theta), 0, -std::cos(theta));
    for (const ContactPoint& p : c.points) F += pointForce(p, c.normal, V3(y[2], 0, y[3]), ip, fp).force;
    return Y4(y[2], y[3], F.x() / m, F.z() / m);
  }
  // Run from rest at the static penetration for tEnd; returns vx at t1 and tEnd.
  std::pair<double, double> run(double t1, double tEnd) const {
    const double d0 = m * g * std::cos(theta) / (4 * ip.stiffness);  // four corners, e = 1
    Y4 y(0, box.halfExtents.z() - d0, 0, 0);
    EventRk4<Y4> rk{[this](double, const Y4& s) { return rate(s); }, [](const Y4&) { return 1.0; }};
    double t = 0.0;
    rk.run(t, y, t1, 5e-5);
    const double v1 = y[2];
    rk.run(t, y, tEnd, 5e-5);
    return {v1, y[2]};
  }
};

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

  // A cylinder on a plane: per end disc its lowest rim point, and for a
  // disc flat on the plane four rim points a quarter turn apart.
  void planeCylinder() {
    const Shape pl = Shape::plane(), cyl = Shape::cylinder(0.1, 0.5);
    // Lying (axis along x) 0.02 deep: the two rims' lowest points.
    expectPair(pl, at(V3::Zero()), cyl, at(V3(0, 0, 0.08), rotY(std::numbers::pi / 2)), -0.02, V3::UnitZ(),
               {{V3(-0.5, 0, -0.01), 0.02}, {V3(0.5, 0, -0.01), 0.02}});
    // Axis tilted by phi about y: the lower rim's lowest point is h cos(phi) + r sin(phi) below the centre.
    const double phi = 0.3, h = 0.5, r = 0.1, low = h * std::cos(phi) + r * std::sin(phi);
    expectPair(pl, at(V3::Zero()), cyl, at(V3(0, 0, low + 0.04), rotY(phi)), 0.04, V3::UnitZ());
    // 0.01 deep (less than r sin(phi), so the rim's side points stay above): one point.
    const V3 c(0.1, 0.2, low - 0.01);
    expectPair(pl, at(V3::Zero()), cyl, at(c, rotY(phi)), -0.01, V3::UnitZ(),
               {{V3(c.x() - h * std::sin(phi) + r * std::cos(phi), c.y(), -0.005), 0.01}});
    // Standing 0.01 deep: four points on the bottom rim, each 0.01 deep, about the axis.
    const Contact st = collide(pl, at(V3::Zero()), cyl, at(V3(0.3, 0, 0.49)));
    CHECK_NEAR(st.distance, -0.01, kTol);
    QCOMPARE(st.points.size(), size_t(4));
    V3 sum = V3::Zero();
    for (const ContactPoint& q : st.points) {
      CHECK_NEAR(q.depth, 0.01, kTol);
      CHECK_NEAR((q.point - V3(0.3, 0, q.point.z())).norm(), 0.1, kTol);
      sum += q.point;
    }
    checkVec(sum / 4, V3(0.3, 0, -0.005), kTol, "centre of the points");
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


  // Cylinder (A) against box (B), each case worked by hand in the comments.
  void cylinderBox() {
    const Shape cy = Shape::cylinder(0.1, 0.2), bx = Shape::box(V3(0.5, 0.5, 0.5));
    // Standing on the top face 0.01 deep: the cap's octagon (from the
    // marker's x) at the face, each rim point 0.01 deep, midway at z = 0.495.
    std::vector<ContactPoint> rim;
    for (int k = 0; k < 8; ++k) {
      const double t = k * std::numbers::pi / 4;
      rim.push_back({V3(0.05 + 0.1 * std::cos(t), 0.1 + 0.1 * std::sin(t), 0.495), 0.01});
    }
    expectPair(cy, at(V3(0.05, 0.1, 0.69)), bx, at(V3::Zero()), -0.01, -V3::UnitZ(), rim);
    expectPair(cy, at(V3(0.05, 0.1, 0.73)), bx, at(V3::Zero()), 0.03, -V3::UnitZ());
    // Lying along x over the edge x = 0.5, 0.02 deep: its lowest line clipped to the face.
    const M3 alongX = rotY(std::numbers::pi / 2);
    const Shape bar = Shape::cylinder(0.1, 0.5);
    expectPair(bar, at(V3(0.8, 0.2, 0.58), alongX), bx, at(V3::Zero()), -0.02, -V3::UnitZ(),
               {{V3(0.3, 0.2, 0.49), 0.02}, {V3(0.5, 0.2, 0.49), 0.02}});
    // A pusher: the rod's end cap (radius 0.02) 0.003 into the face x = -0.5;
    // the octagon starts at the marker's x, here world -z.
    const Shape rod = Shape::cylinder(0.02, 0.1);
    std::vector<ContactPoint> end;
    for (int k = 0; k < 8; ++k) {
      const double t = k * std::numbers::pi / 4;
      end.push_back({V3(-0.4985, 0.1 + 0.02 * std::sin(t), 0.05 - 0.02 * std::cos(t)), 0.003});
    }
    expectPair(rod, at(V3(-0.597, 0.1, 0.05), alongX), bx, at(V3::Zero()), -0.003, V3::UnitX(), end);
    // A small box tipped by phi about y on the cap: the cap's axis separates
    // (the box's own axes by 0.0105 for phi = 0.1); its lowest edge, at
    // x = 0.05 (cos - sin), dips 0.005 into the cap.
    const double phi = 0.1, cs = std::cos(phi), sn = std::sin(phi);
    const Shape small = Shape::box(V3(0.05, 0.05, 0.05));
    const double zc = 0.2 + 0.05 * (sn + cs) - 0.005, xe = 0.05 * (cs - sn);
    expectPair(cy, at(V3::Zero()), small, at(V3(0, 0, zc), rotY(phi)), -0.005, V3::UnitZ(),
               {{V3(xe, 0.05, 0.1975), 0.005}, {V3(xe, -0.05, 0.1975), 0.005}});
    // A vertical box edge (box turned 45 deg about z) against the side of a
    // standing cylinder r 0.5: both its vertices inside, 0.01 deep.
    const Shape post = Shape::cylinder(0.5, 1.0), cube = Shape::box(V3(0.1, 0.1, 0.1));
    const double d = 0.1 * std::sqrt(2.0);
    expectPair(post, at(V3::Zero()), cube, at(V3(0.5 + d + 0.03, 0, 0), rotZ(std::numbers::pi / 4)), 0.03, V3::UnitX());
    expectPair(post, at(V3::Zero()), cube, at(V3(0.5 + d - 0.01, 0, 0), rotZ(std::numbers::pi / 4)), -0.01, V3::UnitX(),
               {{V3(0.495, 0, 0.1), 0.01}, {V3(0.495, 0, -0.1), 0.01}});
    // A horizontal edge across the side (box turned 45 deg about y): its
    // middle 0.01 deep, its ends outside the cylinder: one point.
    expectPair(post, at(V3::Zero()), cube, at(V3(0.5 + d - 0.01, 0, 0), rotY(std::numbers::pi / 4)), -0.01, V3::UnitX(),
               {{V3(0.495, 0, 0), 0.01}});
  }

  // The solver's Newton iterates and Jacobian columns hand the contact a
  // slightly non-orthonormal rotation (here scaled by 1 + 4e-6, as seen at
  // the unthrottled pusher's impact). The rod's cap flat 0.003 into the face
  // x = -0.5 must keep its eight rim points, each 0.003 deep (before: five
  // points, some 0.015 deep, and the run failed at the impact).
  void cylinderBoxNonOrthonormalRotation() {
    const Shape bx = Shape::box(V3(0.5, 0.5, 0.5)), rod = Shape::cylinder(0.02, 0.1);
    const M3 alongX = rotY(std::numbers::pi / 2);
    for (double scale : {1.0, 1.0 + 4e-6, 1.0 - 4e-6}) {
      const Contact c = collide(rod, at(V3(-0.597, 0.1, 0.05), scale * alongX), bx, at(V3::Zero()));
      QCOMPARE(c.points.size(), size_t(8));
      for (const ContactPoint& p : c.points) {
        QVERIFY2(std::abs(p.depth - 0.003) < 1e-12, qPrintable(QString("depth %1 at scale %2").arg(p.depth).arg(scale)));
        QVERIFY(std::abs(p.point.x() + 0.4985) < 1e-12);
        QVERIFY(std::abs(std::hypot(p.point.y() - 0.1, p.point.z() - 0.05) - 0.02) < 1e-12);
      }
    }
  }
  // Every pair with a rotation scaled by 1 +- 4e-6 (what unnormalised Euler
  // parameters in the solver's iterates hand): the same contact as with the
  // rotation itself, to 1e-12 (collide makes the axes orthonormal). Before,
  // the scaled axes scaled the shapes (a depth off by ~1e-6).
  void pairsTolerateScaledRotations() {
    const M3 Q = rotZ(0.7) * rotX(-1.1) * rotY(0.4);
    auto place = [&](const V3& p, const M3& R) { return Frame{Q * p, Q * R}; };
    const Frame o = place(V3::Zero(), M3::Identity());
    struct Case {
      const char* name;
      Shape a;
      Frame fa;
      Shape b;
      Frame fb;
    };
    const Shape cube = Shape::box(V3(0.2, 0.2, 0.2));
    const std::vector<Case> cases = {
        {"plane-sphere", Shape::plane(), o, Shape::sphere(0.1), place(V3(0.1, 0.2, 0.09), M3::Identity())},
        {"plane-capsule", Shape::plane(), o, Shape::capsule(0.05, 0.2), place(V3(0, 0, 0.04), rotY(1.4))},
        {"plane-box", Shape::plane(), o, Shape::box(V3(0.1, 0.2, 0.05)), place(V3(0, 0, 0.045), rotZ(0.3))},
        {"plane-cylinder", Shape::plane(), o, Shape::cylinder(0.1, 0.2), place(V3(0, 0, 0.19), rotY(0.1))},
        {"box-sphere", cube, place(V3::Zero(), rotX(0.2)), Shape::sphere(0.1), place(V3(0.05, 0.02, 0.28), M3::Identity())},
        {"box-box", cube, o, Shape::box(V3(0.1, 0.1, 0.1)), place(V3(0.05, 0, 0.29), rotZ(0.3) * rotX(0.05))},
        {"box-capsule", cube, o, Shape::capsule(0.05, 0.1), place(V3(0, 0, 0.24), rotY(1.5))},
        {"capsule-sphere", Shape::capsule(0.05, 0.2), place(V3::Zero(), rotY(0.3)), Shape::sphere(0.1),
         place(V3(0.12, 0, 0.05), M3::Identity())},
        {"capsule-capsule", Shape::capsule(0.05, 0.2), o, Shape::capsule(0.05, 0.2), place(V3(0.09, 0, 0.05), rotX(1.2))},
        {"cylinder-sphere", Shape::cylinder(0.1, 0.2), place(V3::Zero(), rotY(0.3)), Shape::sphere(0.05),
         place(V3(0.14, 0.01, 0.02), M3::Identity())},
        {"cylinder-box", Shape::cylinder(0.02, 0.1), place(V3(-0.597, 0.1, 0.05), rotY(std::numbers::pi / 2)),
         Shape::box(V3(0.5, 0.5, 0.5)), o},
        {"funnel-sphere", Shape::funnel(0.1, 0.3, 0.2), o, Shape::sphere(0.05), place(V3(0.17, 0, 0.1), M3::Identity())},
        {"cylinder-capsule", Shape::cylinder(0.1, 0.2), place(V3::Zero(), rotX(0.1)), Shape::capsule(0.02, 0.05),
         place(V3(0.01, 0.02, 0.217), rotY(1.5))},
        {"cylinder-cylinder", Shape::cylinder(0.1, 0.2), o, Shape::cylinder(0.05, 0.1), place(V3(0.02, 0.01, 0.298), rotX(0.02))},
        {"funnel-capsule", Shape::funnel(0.1, 0.3, 0.2), o, Shape::capsule(0.03, 0.05), place(V3(0.16, 0.01, 0.1), rotX(0.3))},
        {"funnel-cylinder", Shape::funnel(0.1, 0.3, 0.2), o, Shape::cylinder(0.03, 0.05), place(V3(0.16, 0.01, 0.1), rotX(0.3))},
    };
    for (const Case& k : cases) {
      const Contact want = collide(k.a, k.fa, k.b, k.fb);
      QVERIFY2(want.touching(), k.name);
      for (double s : {1.0 + 4e-6, 1.0 - 4e-6}) {
        const Contact got = collide(k.a, Frame{k.fa.p, s * k.fa.R}, k.b, Frame{k.fb.p, s * k.fb.R});
        const QString what = QString("%1 at scale 1%2").arg(k.name).arg(s > 1 ? "+4e-6" : "-4e-6");
        QVERIFY2(std::abs(got.distance - want.distance) <= kTol,
                 qPrintable(QString("%1: distance %2 vs %3").arg(what).arg(got.distance, 0, 'g', 15).arg(want.distance, 0, 'g', 15)));
        QVERIFY2((got.normal - want.normal).norm() <= kTol, qPrintable(what + ": normal"));
        QVERIFY2(got.points.size() == want.points.size(), qPrintable(QString("%1: %2 points, %3 wanted").arg(what)
                                                                     .arg(got.points.size()).arg(want.points.size())));
        for (const ContactPoint& w : want.points) {
          auto it = std::find_if(got.points.begin(), got.points.end(),
                                 [&](const ContactPoint& g) { return (g.point - w.point).norm() <= kTol; });
          QVERIFY2(it != got.points.end(), qPrintable(what + ": no point at " + vec(w.point)));
          QVERIFY2(std::abs(it->depth - w.depth) <= kTol, qPrintable(what + ": depth"));
        }
      }
    }
  }

  // Cylinder (r 0.1, half-length 0.2, axis z) against a capsule (r 0.02):
  // lying on the cap (two points, the core's ends over the disc), across
  // the cap's rim (clipped where the core leaves the disc, x = 0.1), along
  // the side parallel to the axis (clipped at the cap plane z = 0.2),
  // crossing the side (one point), and standing on the cap with its end.
  void cylinderCapsule() {
    const Shape cy = Shape::cylinder(0.1, 0.2), cap = Shape::capsule(0.02, 0.05), tall = Shape::capsule(0.02, 0.15);
    const M3 alongX = rotY(std::numbers::pi / 2), alongY = rotX(std::numbers::pi / 2);
    const V3 z = V3::UnitZ(), x = V3::UnitX();
    expectPair(cy, at(V3::Zero()), cap, at(V3(0.01, 0.02, 0.217), alongX), -0.003, z,
               {{V3(-0.04, 0.02, 0.1985), 0.003}, {V3(0.06, 0.02, 0.1985), 0.003}});
    expectPair(cy, at(V3::Zero()), cap, at(V3(0.08, 0, 0.217), alongX), -0.003, z,
               {{V3(0.03, 0, 0.1985), 0.003}, {V3(0.1, 0, 0.1985), 0.003}});
    expectPair(cy, at(V3::Zero()), tall, at(V3(0.116, 0, 0.1)), -0.004, x,
               {{V3(0.098, 0, -0.05), 0.004}, {V3(0.098, 0, 0.2), 0.004}});
    expectPair(cy, at(V3::Zero()), cap, at(V3(0.117, 0, 0.05), alongY), -0.003, x, {{V3(0.0985, 0, 0.05), 0.003}});
    expectPair(cy, at(V3::Zero()), cap, at(V3(0.03, 0.04, 0.266)), -0.004, z, {{V3(0.03, 0.04, 0.198), 0.004}});
    // Apart above the cap: the gap.
    expectPair(cy, at(V3::Zero()), cap, at(V3(0.01, 0.02, 0.25), alongX), 0.03, z);
  }

  // Cylinder A (r 0.1, half-length 0.2, axis z) against cylinder B:
  // parallel sides (the two ends of their common stretch, z 0.05 to 0.2),
  // crossed sides (one point between the side lines), B standing on A's cap
  // (its end octagon, 8 points 0.05 from its axis), B lying on A's cap (the
  // two ends of its lowest line), and a wider B on A's cap (A's cap octagon:
  // 8 points 0.1 from A's axis).
  void cylinderCylinder() {
    const Shape A = Shape::cylinder(0.1, 0.2), B = Shape::cylinder(0.05, 0.1);
    const V3 x = V3::UnitX(), y = V3::UnitY(), z = V3::UnitZ();
    expectPair(A, at(V3::Zero()), B, at(V3(0.147, 0, 0.15)), -0.003, x,
               {{V3(0.0985, 0, 0.05), 0.003}, {V3(0.0985, 0, 0.2), 0.003}});
    expectPair(A, at(V3::Zero()), B, at(V3(0, 0.147, 0.05), rotY(std::numbers::pi / 2)), -0.003, y,
               {{V3(0, 0.0985, 0.05), 0.003}});
    std::vector<ContactPoint> ring;
    for (int k = 0; k < 8; ++k) {
      // B's x axis is the world's: its octagon has a vertex along x.
      const double t = k * std::numbers::pi / 4;
      ring.push_back({V3(0.02 + 0.05 * std::cos(t), 0.01 + 0.05 * std::sin(t), 0.199), 0.002});
    }
    expectPair(A, at(V3::Zero()), B, at(V3(0.02, 0.01, 0.298)), -0.002, z, ring);
    const Shape lying = Shape::cylinder(0.05, 0.04);
    expectPair(A, at(V3::Zero()), lying, at(V3(0.01, 0.02, 0.247), rotY(std::numbers::pi / 2)), -0.003, z,
               {{V3(-0.03, 0.02, 0.1985), 0.003}, {V3(0.05, 0.02, 0.1985), 0.003}});
    const Contact wide = collide(A, at(V3::Zero()), Shape::cylinder(0.2, 0.1), at(V3(0, 0, 0.298)));
    CHECK_NEAR(wide.distance, -0.002, kTol);
    checkVec(wide.normal, z, kTol, "wide normal");
    QCOMPARE(wide.points.size(), size_t(8));
    for (const ContactPoint& p : wide.points) {
      CHECK_NEAR(p.depth, 0.002, kTol);
      CHECK_NEAR(p.point.z(), 0.199, kTol);
      CHECK_NEAR(std::hypot(p.point.x(), p.point.y()), 0.1, kTol);
    }
    // Apart: crossed sides 0.01 apart, caps 0.02 apart.
    expectPair(A, at(V3::Zero()), B, at(V3(0, 0.16, 0.05), rotY(std::numbers::pi / 2)), 0.01, y);
    expectPair(A, at(V3::Zero()), B, at(V3(0.02, 0.01, 0.32)), 0.02, z);
  }

  void hertzForceLaw() {
    // Sphere on a plane delta deep, at rest: k delta^1.5; approaching at
    // speed u: plus STEP(delta, 0, 0, d, c) u, here past the ramp (c u) and halfway up it (c u / 2).
    ImpactParams ip{2e7, 1.5, 300.0, 1e-4};
    for (double delta : {1e-6, 3e-5, 4e-4, 2e-3}) {
      const Contact c = collide(Shape::plane(), Frame{}, Shape::sphere(0.01), at(V3(0, 0, 0.01 - delta)));
      QCOMPARE(c.points.size(), size_t(1));
      // The depth is 0.01 - (0.01 - delta): exact to the rounding of 0.01.
      const double depth = c.points[0].depth;
      CHECK_NEAR(depth, delta, 1e-17);
      const double F = pointForce(c.points[0], c.normal, V3::Zero(), ip, {}).normal;
      CHECK_NEAR(F / (ip.stiffness * std::pow(depth, 1.5)), 1.0, kTol);
    }
    const ContactPoint past{V3::Zero(), 2e-4}, half{V3::Zero(), 5e-5};
    const double u = 0.1;
    CHECK_NEAR(pointForce(past, V3::UnitZ(), V3(0, 0, -u), ip, {}).normal,
               ip.stiffness * std::pow(2e-4, 1.5) + 300.0 * u, 1e-9);
    CHECK_NEAR(pointForce(half, V3::UnitZ(), V3(0, 0, -u), ip, {}).normal,
               ip.stiffness * std::pow(5e-5, 1.5) + 150.0 * u, 1e-9);
    // Separating fast, the damping would pull: the force stays at zero.
    QCOMPARE(pointForce(half, V3::UnitZ(), V3(0, 0, 10.0), ip, {}).normal, 0.0);
  }

  void dropElasticConservesEnergy() {
    Drop d;
    d.ip = {1e7, 1.5, 0.0, 1e-4};
    const double h0 = 0.05;
    Y2 y(d.r + h0, 0.0);
    double t = 0.0;
    const EventRk4<Y2> rk = d.integrator();
    QVERIFY(rk.run(t, y, 1.0, 2e-6));  // onset
    const double vIn = y[1];
    QVERIFY(rk.run(t, y, 1.0, 2e-6));  // loss
    QVERIFY(std::abs(d.contact(y).distance) < 1e-12);
    const double h1 = y[1] * y[1] / (2 * d.g);  // free flight from the surface
    std::printf("elastic drop: v_in %.9f, v_out %.9f, rebound %.12f of %.3f m\n", vIn, y[1], h1, h0);
    CHECK_NEAR(h1 / h0, 1.0, 1e-4);
  }

  void hertzContactDuration() {
    // No gravity, approach speed v: closed form from energy, delta_m =
    // (5 m v^2 / (4 k))^(2/5), and t = 2 delta_m / v * int_0^1 dx / sqrt(1 - x^(5/2))
    // = 2.9432 delta_m / v, i.e. 3.218 (m^2 / (k^2 v))^(1/5).
    Drop d;
    d.g = 0.0;
    d.ip = {1e7, 1.5, 0.0, 1e-4};
    const double v = 1.0;
    const double I = 0.4 * std::tgamma(0.4) * std::tgamma(0.5) / std::tgamma(0.9);
    const double dm = std::pow(5 * d.m * v * v / (4 * d.ip.stiffness), 0.4);
    const double tHertz = 2 * I * dm / v;
    Y2 y(d.r + 1e-4, -v);
    double t = 0.0;
    const EventRk4<Y2> rk = d.integrator();
    QVERIFY(rk.run(t, y, 1.0, 1e-6));
    const double t0 = t;
    QVERIFY(rk.run(t, y, 1.0, 1e-6));
    const double briefForm = 2.94 * std::pow(d.m * d.m / (d.ip.stiffness * d.ip.stiffness * v), 0.2);
    std::printf("contact duration %.9g s, Hertz %.9g s (2 I = %.6f); 2.94 (m^2/(k^2 v))^(1/5) = %.9g s\n", t - t0,
                tHertz, 2 * I, briefForm);
    CHECK_NEAR((t - t0) / tHertz, 1.0, 1e-6);
    CHECK_NEAR(y[1] / v, 1.0, 1e-6);  // elastic: leaves as fast as it came
  }

  void dropDampedLosesEnergy() {
    // Restitution v_out / v_in below one, and lower for more damping.
    double last = 1.0;
    for (double c : {100.0, 500.0, 2000.0}) {
      Drop d;
      d.g = 0.0;
      d.ip = {1e7, 1.5, c, 1e-4};
      Y2 y(d.r + 1e-4, -1.0);
      double t = 0.0;
      const EventRk4<Y2> rk = d.integrator();
      QVERIFY(rk.run(t, y, 1.0, 1e-6));
      QVERIFY(rk.run(t, y, 1.0, 1e-6));
      const double e = y[1] / 1.0;
      std::printf("damping %6.0f N s/m: restitution %.6f\n", c, e);
      QVERIFY(e > 0.0 && e < last);
      last = e;
    }
  }

  void blockBelowFrictionAngleCreeps() {
    // tan(theta) = 0.4 < mu_s = 0.5: the block settles to the creep speed v*
    // where STEP(v*, -vs, -mu_s, vs, mu_s) = tan(theta): with s = (v* + vs) / (2 vs),
    // s^2 (3 - 2 s) = (1 + tan(theta) / mu_s) / 2.
    Incline b;
    b.theta = std::atan(0.4);
    const double target = 0.5 * (1 + 0.4 / b.fp.muStatic);
    double lo = 0.5, hi = 1.0;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (mid * mid * (3 - 2 * mid) < target ? lo : hi) = mid;
    }
    const double vStar = (2 * lo - 1) * b.fp.stictionVelocity;
    const auto [v1, v2] = b.run(1.0, 2.0);
    std::printf("below: creep %.9g m/s (v* %.9g, vs %.g)\n", v2, vStar, b.fp.stictionVelocity);
    QVERIFY(v2 < b.fp.stictionVelocity);
    CHECK_NEAR(v2 / vStar, 1.0, 1e-6);
    CHECK_NEAR(v2 - v1, 0.0, 1e-9);  // steady: no acceleration
  }

  void blockAboveFrictionAngleSlides() {
    Incline b;
    b.theta = std::atan(0.6);
    const double a = b.g * (std::sin(b.theta) - b.fp.muDynamic * std::cos(b.theta));
    const auto [v1, v2] = b.run(1.0, 2.0);
    std::printf("above: v(1) %.9g, a %.12g, expected %.12g\n", v1, v2 - v1, a);
    QVERIFY(v1 > b.fp.transitionVelocity);
    CHECK_NEAR((v2 - v1) / a, 1.0, 1e-4);
  }

  void broadPhaseSameAsAllPairs() {
    // 1,000 spheres (radius 10 to 30 mm) in a unit cube, each with its own
    // velocity: the touching pairs and every sphere's net contact force are
    // the same whether all pairs or only the broad phase's are tested.
    std::mt19937 rng(27);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const int n = 1000;
    std::vector<Shape> shapes;
    std::vector<Frame> frames;
    std::vector<V3> vel;
    for (int i = 0; i < n; ++i) {
      shapes.push_back(Shape::sphere(0.01 + 0.02 * u(rng)));
      frames.push_back(at(V3(u(rng), u(rng), u(rng))));
      vel.push_back(V3(u(rng), u(rng), u(rng)) - V3::Constant(0.5));
    }
    const ImpactParams ip{1e7, 1.5, 50.0, 1e-3};
    const FrictionParams fp{0.5, 0.3, 1e-3, 1e-2};
    auto forces = [&](const std::vector<std::pair<int, int>>& candidates, std::vector<std::pair<int, int>>& touching) {
      std::vector<V3> F(n, V3::Zero());
      for (const auto& [i, j] : candidates) {
        const Contact c = collide(shapes[i], frames[i], shapes[j], frames[j]);
        if (!c.touching()) continue;
        touching.emplace_back(i, j);
        for (const ContactPoint& p : c.points) {
          const V3 f = pointForce(p, c.normal, vel[j] - vel[i], ip, fp).force;
          F[j] += f;
          F[i] -= f;
        }
      }
      return F;
    };
    std::vector<std::pair<int, int>> all;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) all.emplace_back(i, j);
    std::vector<Aabb> boxes;
    for (int i = 0; i < n; ++i) boxes.push_back(bounds(shapes[i], frames[i]));
    SweepStats st;
    const auto candidates = overlappingPairs(boxes, &st);
    std::vector<std::pair<int, int>> touchAll, touchSweep;
    const std::vector<V3> Fall = forces(all, touchAll), Fsweep = forces(candidates, touchSweep);
    std::printf("1000 spheres: %zu touching pairs, %zu broad-phase candidates of %zu pairs (%lld box tests)\n",
                touchAll.size(), candidates.size(), all.size(), st.overlapTests);
    QVERIFY(touchAll.size() > 50);  // the scene does exercise contact
    QVERIFY(touchAll == touchSweep);
    double worst = 0.0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, (Fall[i] - Fsweep[i]).norm());
    QCOMPARE(worst, 0.0);  // the same pairs in the same order: bit for bit
  }

  void broadPhaseGrowth() {
    // Constant density (1,000 spheres per cubic metre of the cloud): the
    // box tests against n, against the n (n - 1) / 2 of testing all pairs.
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> ns, tests;
    for (int n : {1000, 2000, 4000, 8000, 16000}) {
      const double side = std::cbrt(n / 1000.0);
      std::vector<Aabb> boxes;
      for (int i = 0; i < n; ++i)
        boxes.push_back(bounds(Shape::sphere(0.01 + 0.02 * u(rng)), at(side * V3(u(rng), u(rng), u(rng)))));
      SweepStats st;
      const auto t0 = std::chrono::steady_clock::now();
      const auto pairs = overlappingPairs(boxes, &st);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::printf("n %6d: all pairs %10.0f, sweep box tests %9lld, overlapping %6zu, %.2f ms\n", n,
                  0.5 * n * (n - 1.0), st.overlapTests, pairs.size(), ms);
      ns.push_back(n);
      tests.push_back(static_cast<double>(st.overlapTests));
    }
    const double growth = std::log(tests.back() / tests.front()) / std::log(ns.back() / ns.front());
    std::printf("sweep tests grow as n^%.2f (a single sweep axis in a 3D cloud: n^(5/3) expected)\n", growth);
    QVERIFY(growth < 1.8);
  }

  void funnelSphere() {
    // Base radius 0.1 at z = 0, mouth 0.4 at z = 0.4: generator (0.6, 0.8),
    // inward normal (-0.8, 0.6) in the meridian plane (rho, z).
    const Shape f = Shape::funnel(0.1, 0.4, 0.4), s = Shape::sphere(0.05);
    const Frame fa = at(V3(0.5, -0.3, 0.2), rotX(0.2));
    auto w = [&](const V3& l) { return fa.toWorld(l); };
    // Against the inner surface: s = 0.04 from the wall.
    const V3 n1 = fa.R * V3(-0.8, 0, 0.6);
    expectPair(f, fa, s, at(w(V3(0.2, 0, 0.2))), -0.01, n1, {{w(V3(0.2, 0, 0.2)) - 0.045 * n1, 0.01}});
    const V3 n2 = fa.R * V3(0, -0.8, 0.6);
    expectPair(f, fa, s, at(w(V3(0, 0.15, 0.1))), -0.03, n2, {{w(V3(0, 0.15, 0.1)) - 0.035 * n2, 0.03}});
    // Past the base, inside the cone: the base rim (0.1, 0, 0) is nearest.
    const Shape big = Shape::sphere(0.1);
    expectPair(f, fa, big, at(w(V3(0.05, 0, -0.05))), std::sqrt(0.005) - 0.1, fa.R * V3(-1, 0, -1) / std::sqrt(2.0),
               {{0.5 * (w(V3(0.1, 0, 0)) + w(V3(0.05, 0, -0.05) + 0.1 * V3(1, 0, 1) / std::sqrt(2.0))),
                 0.1 - std::sqrt(0.005)}});
    // Past the mouth, inside the cone: the mouth rim (0.4, 0, 0.4).
    expectPair(f, fa, big, at(w(V3(0.3, 0, 0.5))), std::sqrt(0.02) - 0.1, fa.R * V3(-1, 0, 1) / std::sqrt(2.0));
    // Past the mouth, outside the cone: the mouth face, 0.2 away along the generator.
    expectPair(f, fa, s, at(w(V3(0.6, 0, 0.5))), 0.15, fa.R * V3(0.6, 0, 0.8));
  }

  // Funnel (base 0.1, mouth 0.4, length 0.4: generator t = (0.6, 0.8),
  // inward normal (-0.8, 0.6) in the meridian plane) against a capsule and
  // a cylinder: a peg or roller lying along the wall (parallel: both ends,
  // in contact and 0.01 apart), crossed (a horizontal capsule whose far end
  // touches at 45 degrees), standing (the cylinder's lower rim on the wall),
  // and the rims (a peg through the base hole against the base rim, a
  // capsule's end on the mouth rim).
  void funnelCapsuleCylinder() {
    const Shape f = Shape::funnel(0.1, 0.4, 0.4);
    const Frame fa = at(V3(0.5, -0.3, 0.2), rotX(0.2));
    auto w = [&](const V3& l) { return fa.toWorld(l); };
    auto nw = [&](const V3& l) { return V3(fa.R * l); };
    const V3 nin(-0.8, 0, 0.6), t(0.6, 0, 0.8);
    const M3 alongT = fa.R * rotY(std::asin(0.6));  // z along the generator
    // Along the wall: the wall point at u = 0.5, (0.22, 0, 0.16), moved in by 0.02.
    const V3 c = V3(0.22, 0, 0.16) + 0.02 * nin;
    for (const Shape& s : {Shape::capsule(0.03, 0.1), Shape::cylinder(0.03, 0.1)}) {
      expectPair(f, fa, s, at(w(c), alongT), -0.01, nw(nin),
                 {{w(c + 0.1 * t - 0.025 * nin), 0.01}, {w(c - 0.1 * t - 0.025 * nin), 0.01}});
      expectPair(f, fa, s, at(w(c + 0.02 * nin), alongT), 0.01, nw(nin));
    }
    // Crossed: a capsule along y, centre (0.15, 0.05, 0.2), its end
    // (0.15, 0.15, 0.2) at rho = 0.15 sqrt(2) touches at 45 degrees:
    // depth 0.8 (rho - 0.1) - 0.6 z + r = 0.8 * 0.15 sqrt(2) - 0.08 - 0.12 + 0.04.
    {
      const double depth = 0.8 * 0.15 * std::sqrt(2.0) - 0.08 - 0.12 + 0.04, h = std::sqrt(0.5);
      const V3 n45(-0.8 * h, -0.8 * h, 0.6), end(0.15, 0.15, 0.2);
      expectPair(f, fa, Shape::capsule(0.04, 0.1), at(w(V3(0.15, 0.05, 0.2)), fa.R * rotX(std::numbers::pi / 2)),
                 -depth, nw(n45), {{w(end - (0.04 - 0.5 * depth) * n45), depth}});
    }
    // Standing: a cylinder (r 0.05, half-length 0.05) at (0.175, 0, 0.2):
    // its lower rim point (0.225, 0, 0.15) is 0.8 * 0.125 - 0.09 = 0.01 deep;
    // moved in to 0.15, 0.01 apart.
    const Shape post = Shape::cylinder(0.05, 0.05);
    expectPair(f, fa, post, at(w(V3(0.175, 0, 0.2)), fa.R), -0.01, nw(nin),
               {{w(V3(0.225, 0, 0.15) + 0.005 * nin), 0.01}});
    expectPair(f, fa, post, at(w(V3(0.15, 0, 0.2)), fa.R), 0.01, nw(nin));
    // Base rim (0.1, 0, 0) against a vertical peg through the hole, its
    // side at x = 0.11: 0.01 deep, pushed towards the axis; 0.005 apart.
    for (const Shape& s : {Shape::capsule(0.02, 0.1), Shape::cylinder(0.02, 0.1)}) {
      expectPair(f, fa, s, at(w(V3(0.09, 0, 0)), fa.R), -0.01, nw(V3(-1, 0, 0)), {{w(V3(0.105, 0, 0)), 0.01}});
      expectPair(f, fa, s, at(w(V3(0.075, 0, 0)), fa.R), 0.005, nw(V3(-1, 0, 0)));
    }
    // Mouth rim (0.4, 0, 0.4) under a vertical capsule's lower end
    // (0.4, 0, 0.42), r 0.03: 0.01 deep, pushed up.
    expectPair(f, fa, Shape::capsule(0.03, 0.1), at(w(V3(0.4, 0, 0.52)), fa.R), -0.01, nw(V3(0, 0, 1)),
               {{w(V3(0.4, 0, 0.395)), 0.01}});
  }

  void signedDistanceIsContinuous() {
    // A root function must not jump: along straight paths through every
    // region of the funnel and the box (in and out of the solid), the signed
    // distance changes by no more than the centre moves.
    const Shape f = Shape::funnel(0.1, 0.4, 0.4), bx = Shape::box(V3(0.3, 0.2, 0.1)), s = Shape::sphere(0.05);
    const Frame fa = at(V3(0.1, 0.2, -0.1), rotY(0.3) * rotX(0.2));
    const std::pair<V3, V3> paths[] = {{V3(0, 0, -0.6), V3(0.9, 0, 0.9)},  {V3(0.7, 0, -0.3), V3(0.1, 0, 0.8)},
                                       {V3(0.15, 0, -0.4), V3(0.35, 0, 0.9)}, {V3(-0.5, 0.3, 0.2), V3(0.6, -0.2, 0)},
                                       {V3(0.55, 0.1, 0.45), V3(0.2, 0, 0.3)}};
    for (const Shape* a : {&f, &bx}) {
      for (const auto& [p0, p1] : paths) {
        const int n = 20000;
        const double h = (p1 - p0).norm() / n;
        double prev = collide(*a, fa, s, at(fa.toWorld(p0))).distance, worst = 0.0;
        for (int i = 1; i <= n; ++i) {
          const double d = collide(*a, fa, s, at(fa.toWorld(p0 + (p1 - p0) * (double(i) / n)))).distance;
          worst = std::max(worst, std::abs(d - prev) / h);
          prev = d;
        }
        QVERIFY2(worst <= 1.0 + 1e-6, qPrintable(QString("%1: |dd/dx| up to %2").arg(kindName(a->kind)).arg(worst)));
      }
    }
    // A tilted box (every separating axis's separation changes by at most
    // the translation, so their maximum too) and a capsule moving through the box.
    const Shape b2 = Shape::box(V3(0.15, 0.1, 0.2)), cap = Shape::capsule(0.05, 0.2), cyl = Shape::cylinder(0.05, 0.15);
    const M3 Rb = rotZ(0.3) * rotX(0.5);
    for (const Shape* other : {&b2, &cap, &cyl}) {
      for (const auto& [p0, p1] : paths) {
        const int n = 20000;
        const double h = (p1 - p0).norm() / n;
        double prev = collide(bx, fa, *other, at(fa.toWorld(p0), Rb)).distance, worst = 0.0;
        for (int i = 1; i <= n; ++i) {
          const double d = collide(bx, fa, *other, at(fa.toWorld(p0 + (p1 - p0) * (double(i) / n)), Rb)).distance;
          worst = std::max(worst, std::abs(d - prev) / h);
          prev = d;
        }
        // A cylinder's vertex axes turn with the pose (the direction from its
        // nearest point to a box vertex): no jump, but a slope a little over 1.
        const double bound = other->kind == ShapeKind::Cylinder ? 1.1 : 1.0 + 1e-6;
        QVERIFY2(worst <= bound,
                 qPrintable(QString("box-%1: |dd/dx| up to %2").arg(kindName(other->kind)).arg(worst)));
      }
    }
  }

  void boxBox() {
    const Shape big = Shape::box(V3(1, 1, 1)), small = Shape::box(V3(0.5, 0.5, 0.5));
    // Small on big, 0.1 deep: its four bottom corners.
    auto corners = [](const V3& c, const M3& R, double hx, double hy, double z, double depth) {
      std::vector<ContactPoint> p;
      for (const V3& s : {V3(1, 1, 0), V3(-1, 1, 0), V3(-1, -1, 0), V3(1, -1, 0)}) {
        V3 q = c + R * V3(s.x() * hx, s.y() * hy, 0);
        q.z() = z;
        p.push_back({q, depth});
      }
      return p;
    };
    expectPair(big, at(V3::Zero()), small, at(V3(0.2, 0.1, 1.4)), -0.1, V3::UnitZ(),
               corners(V3(0.2, 0.1, 0), M3::Identity(), 0.5, 0.5, 0.95, 0.1));
    expectPair(big, at(V3::Zero()), small, at(V3(0.2, 0.1, 1.4), rotZ(std::numbers::pi / 4)), -0.1, V3::UnitZ(),
               corners(V3(0.2, 0.1, 0), rotZ(std::numbers::pi / 4), 0.5, 0.5, 0.95, 0.1));
    // Small under a wide flat plate: the clipped patch is small's top face.
    const Shape plate = Shape::box(V3(2, 2, 0.5));
    expectPair(small, at(V3::Zero()), plate, at(V3(0.3, 0, 0.9)), -0.1, V3::UnitZ(),
               corners(V3::Zero(), M3::Identity(), 0.5, 0.5, 0.45, 0.1));
    expectPair(big, at(V3::Zero()), small, at(V3(0.2, 0.1, 1.7)), 0.2, V3::UnitZ());
    // Edge on edge, crossed: A turned 45 deg about x (top edge along x at
    // z = sqrt(1/2)), B turned 45 deg about y (bottom edge along y).
    const double r2 = std::sqrt(0.5);
    const M3 Ra = rotX(std::numbers::pi / 4), Rb = rotY(std::numbers::pi / 4);
    expectPair(small, at(V3::Zero(), Ra), small, at(V3(0, 0, 2 * r2 - 0.01), Rb), -0.01, V3::UnitZ(),
               {{V3(0, 0, r2 - 0.005), 0.01}});
    expectPair(small, at(V3::Zero(), Ra), small, at(V3(0, 0, 2 * r2 + 0.03), Rb), 0.03, V3::UnitZ());
  }

  void boxCapsule() {
    const Shape bx = Shape::box(V3(1, 1, 1)), cap = Shape::capsule(0.1, 0.5);
    const M3 alongX = rotY(std::numbers::pi / 2);
    // Lying on the top face 0.02 deep: both ends of the core are points.
    expectPair(bx, at(V3::Zero()), cap, at(V3(0.2, 0.3, 1.08), alongX), -0.02, V3::UnitZ(),
               {{V3(-0.3, 0.3, 0.99), 0.02}, {V3(0.7, 0.3, 0.99), 0.02}});
    // Hanging over the edge x = 1: the core is clipped at it.
    expectPair(bx, at(V3::Zero()), cap, at(V3(0.9, 0.3, 1.08), alongX), -0.02, V3::UnitZ(),
               {{V3(0.4, 0.3, 0.99), 0.02}, {V3(1.0, 0.3, 0.99), 0.02}});
    // Tilted by 0.2 rad, its lower end 0.03 deep: one point there.
    const M3 tilt = rotY(std::numbers::pi / 2 - 0.2);  // axis (cos 0.2, 0, sin 0.2)
    const V3 c(0, 0, 1.07 + 0.5 * std::sin(0.2));
    const V3 end = c - 0.5 * V3(std::cos(0.2), 0, std::sin(0.2));
    expectPair(bx, at(V3::Zero()), cap, at(c, tilt), -0.03, V3::UnitZ(), {{V3(end.x(), 0, 0.985), 0.03}});
    // Across the edge (x = 1, z = 1) at 45 degrees: its middle is nearest.
    const M3 diag = rotY(3 * std::numbers::pi / 4);  // axis (1, 0, -1) / sqrt 2
    const V3 n = V3(1, 0, 1) / std::sqrt(2.0), mid(1.05, 0.2, 1.05);
    expectPair(bx, at(V3::Zero()), cap, at(mid, diag), std::sqrt(0.005) - 0.1, n,
               {{0.5 * (V3(1, 0.2, 1) + mid - 0.1 * n), 0.1 - std::sqrt(0.005)}});
    expectPair(bx, at(V3::Zero()), cap, at(V3(1.1, 0.2, 1.1), diag), std::sqrt(0.02) - 0.1, n);
    expectPair(bx, at(V3::Zero()), cap, at(V3(1.2, 0.2, 1.2), diag), std::sqrt(0.08) - 0.1, n);
  }

  void frictionLaw() {
    // mu at slip speed v: beyond v_t mu_d; at v_s mu_s; at v_s / 2 the odd
    // STEP from -v_s to v_s at s = 3/4: mu_s (-1 + 2 s^2 (3 - 2 s)) = 0.6875 mu_s;
    // halfway from v_s to v_t, (mu_s + mu_d) / 2.
    const FrictionParams fp{0.5, 0.3, 1e-3, 1e-2};
    CHECK_NEAR(frictionCoefficient(0.0, fp), 0.0, kTol);
    CHECK_NEAR(frictionCoefficient(0.5e-3, fp), 0.6875 * 0.5, kTol);
    CHECK_NEAR(frictionCoefficient(1e-3, fp), 0.5, kTol);
    CHECK_NEAR(frictionCoefficient(5.5e-3, fp), 0.4, kTol);
    CHECK_NEAR(frictionCoefficient(0.2, fp), 0.3, kTol);
    // At a point 1e-3 deep (k d = 100 N), sliding along (3, 4, 0) / 5 at 0.5 m/s
    // while approaching at 0.01 m/s past the damping ramp (c u = 2 N): N = 102 N,
    // friction mu_d N against the slip.
    const ImpactParams ip{1e5, 1.0, 200.0, 1e-4};
    const PointForce f = pointForce({V3::Zero(), 1e-3}, V3::UnitZ(), V3(0.3, 0.4, -0.01), ip, fp);
    CHECK_NEAR(f.normal, 102.0, 1e-9);
    CHECK_NEAR(f.slip, 0.5, kTol);
    checkVec(f.friction, -0.3 * 102.0 * V3(0.6, 0.8, 0), 1e-9, "friction");
    checkVec(f.force, f.friction + 102.0 * V3::UnitZ(), 1e-9, "force");
  }

  // The stick state (bristle) by hand, mu_s 0.5, mu_d 0.3, v_s 1e-3,
  // v_t 1e-2, delta 1e-5: sigma0 = 0.5 / 1e-5 = 5e4 /m.
  void bristleLaw() {
    FrictionParams fp{0.5, 0.3, 1e-3, 1e-2, 1e-5};
    QVERIFY(hasStickState(fp));
    CHECK_NEAR(slidingCoefficient(0.0, fp), 0.5, kTol);
    CHECK_NEAR(slidingCoefficient(5.5e-3, fp), 0.4, kTol);
    CHECK_NEAR(slidingCoefficient(0.2, fp), 0.3, kTol);
    // At rest with a deflection: no rate (nothing creeps), friction -sigma0 z.
    const V3 z(2e-6, -1e-6, 0.0);
    Bristle b = bristleFriction(z, V3::Zero(), fp);
    checkVec(b.rate, V3::Zero(), kTol, "rate at rest");
    checkVec(b.coefficient, -5e4 * z, 1e-12, "coefficient at rest");
    // Sliding at 0.2 m/s along x with z saturated at g / sigma0 = 0.3 / 5e4:
    // no rate, and the coefficient mu_d against the slip (sigma1 faded by
    // exp(-200^2)).
    b = bristleFriction(V3(0.3 / 5e4, 0, 0), V3(0.2, 0, 0), fp);
    checkVec(b.rate, V3::Zero(), 1e-15, "rate sliding");
    checkVec(b.coefficient, V3(-0.3, 0, 0), 1e-12, "coefficient sliding");
    // From z = 0 at v = 1e-3 m/s (= v_s): dz/dt = v, and the coefficient the
    // damping sigma1 e^-1 v = 1.5 mu_s / v_s e^-1 v = 0.75 e^-1.
    b = bristleFriction(V3::Zero(), V3(0, 1e-3, 0), fp);
    checkVec(b.rate, V3(0, 1e-3, 0), kTol, "rate from zero");
    checkVec(b.coefficient, V3(0, -0.75 * std::exp(-1.0), 0), 1e-12, "coefficient from zero");
    fp.stictionDeformation = 0.0;
    QVERIFY(!hasStickState(fp));
  }

  // The twisting part of the stick state by hand (the same law, sigma0 5e4):
  // at rest a twist deflection s gives -sigma0 s and no rate; sliding and
  // turning together with u = (0.12, 0.16) m/s (w = 0.2, g = mu_d = 0.3) and
  // (z, s) saturated at g u / (sigma0 w), the rates vanish and force and
  // torque share the limit: (-0.18, -0.24), 0.18^2 + 0.24^2 = 0.3^2.
  void bristleTwistLaw() {
    const FrictionParams fp{0.5, 0.3, 1e-3, 1e-2, 1e-5};
    Bristle b = bristleFriction(V3::Zero(), V3::Zero(), fp, 2e-6, 0.0);
    CHECK_NEAR(b.twistRate, 0.0, kTol);
    CHECK_NEAR(b.twistCoefficient, -0.1, 1e-12);
    b = bristleFriction(V3(0.3 * 0.6 / 5e4, 0, 0), V3(0.12, 0, 0), fp, 0.3 * 0.8 / 5e4, 0.16);
    checkVec(b.rate, V3::Zero(), 1e-15, "rate sliding");
    CHECK_NEAR(b.twistRate, 0.0, 1e-15);
    checkVec(b.coefficient, V3(-0.18, 0, 0), 1e-12, "coefficient sliding");
    CHECK_NEAR(b.twistCoefficient, -0.24, 1e-12);
  }

  // A pair's twisting couple: N rho (-sigma0 s) about the normal, rho the
  // points' load-weighted arm. A 40 mm box 10 um into a plane (yawed 0.3
  // rad) rests on four equal corners at r = 0.02 sqrt(2): rho = r; with
  // torsion_radius 0.01, rho = sqrt(r^2 + 0.01^2) = 0.03; a ball (one
  // point) with torsion_radius 2 mm: rho = 2 mm. sigma0 = 0.5 / 1e-6,
  // s = 2e-7: coefficient -0.1. Turning at 0.5 rad/s (no slip at the
  // centre): ds/dt = rho 0.5 - sigma0 w s / mu_d with w = rho 0.5.
  void pairTwistCouple() {
    PairRT p;
    p.a = Shape::plane();
    p.impact = {1e8, 1.5, 0.0, 1e-5};
    p.friction = {0.5, 0.4, 1e-4, 1e-3, 1e-6, 0.0};
    const double d = 1e-5, N1 = 1e8 * std::pow(d, 1.5), s = 2e-7, r = 0.02 * std::sqrt(2.0);
    const double stick[4] = {0, 0, 0, s};
    const M3 yaw = Eigen::AngleAxisd(0.3, V3::UnitZ()).toRotationMatrix();
    auto couple = [&](const Shape& b, double zc, double r0, double wz, double& twistRate) {
      p.b = b;
      p.friction.torsionRadius = r0;
      StickRate rate = StickRate::Zero();
      BodyMotion mo;
      mo.r = V3(0, 0, zc);
      mo.w = V3(0, 0, wz);
      const PairResult res = evaluate(p, at(V3::Zero()), BodyMotion{}, at(V3(0, 0, zc), yaw), mo, stick, &rate);
      twistRate = rate[3];
      checkVec(res.torque.normalized(), -V3::UnitZ(), 1e-15, "couple axis");
      return res.torque.z() / res.normal;
    };
    double rate = 0.0;
    CHECK_NEAR(couple(Shape::box(V3(0.02, 0.02, 0.02)), 0.02 - d, 0.0, 0.0, rate), -0.1 * r, 1e-15);
    CHECK_NEAR(rate, 0.0, kTol);
    CHECK_NEAR(couple(Shape::box(V3(0.02, 0.02, 0.02)), 0.02 - d, 0.01, 0.0, rate), -0.1 * 0.03, 1e-15);
    CHECK_NEAR(couple(Shape::sphere(0.02), 0.02 - d, 2e-3, 0.0, rate), -0.1 * 2e-3, 1e-15);
    CHECK_NEAR(couple(Shape::box(V3(0.02, 0.02, 0.02)), 0.02 - d, 0.01, 0.5, rate), -0.1 * 0.03, 1e-15);
    CHECK_NEAR(rate, 0.015 - 5e5 * 0.015 * s / 0.4, 1e-15);
    // The normal force is the four corners' (N1 each): the couple is per N.
    PairResult res = evaluate(p, at(V3::Zero()), BodyMotion{}, at(V3(0, 0, 0.02 - d), yaw), BodyMotion{}, stick);
    CHECK_NEAR(res.normal, 4 * N1, 1e-9 * N1);
  }

  void boundsHoldTheShapes() {
    // Rotated boxes, capsules, cylinders: every surface point lies in the
    // bounding box, and the box's faces are reached (tight to the sampling).
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int trial = 0; trial < 20; ++trial) {
      const M3 R = Eigen::Quaterniond(Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
      const Frame f = at(V3(u(rng), u(rng), u(rng)), R);
      const Shape shapes[] = {Shape::box(V3(0.3, 0.1, 0.2)), Shape::capsule(0.05, 0.2), Shape::cylinder(0.1, 0.25)};
      for (const Shape& s : shapes) {
        std::vector<V3> pts;  // box: vertices; capsule: ends +- r; cylinder: rims, finely sampled
        for (int i = 0; i < 8 && s.kind == ShapeKind::Box; ++i)
          pts.push_back(
              f.toWorld(V3((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1).cwiseProduct(s.halfExtents)));
        for (double z : {-s.halfLength, s.halfLength}) {
          for (int a = 0; a < 3 && s.kind == ShapeKind::Capsule; ++a) {
            pts.push_back(f.toWorld(V3(0, 0, z)) + s.radius * V3::Unit(a));
            pts.push_back(f.toWorld(V3(0, 0, z)) - s.radius * V3::Unit(a));
          }
          for (int k = 0; k < 20000 && s.kind == ShapeKind::Cylinder; ++k) {
            const double phi = 2 * std::numbers::pi * k / 20000;
            pts.push_back(f.toWorld(V3(s.radius * std::cos(phi), s.radius * std::sin(phi), z)));
          }
        }
        const Aabb b = bounds(s, f);
        V3 lo = pts[0], hi = pts[0];
        for (const V3& p : pts) {
          lo = lo.cwiseMin(p);
          hi = hi.cwiseMax(p);
        }
        const double tight = s.kind == ShapeKind::Cylinder ? 1e-6 : kTol;  // the rim is sampled
        QVERIFY2((b.lo - lo).maxCoeff() <= kTol && (hi - b.hi).maxCoeff() <= kTol, kindName(s.kind));
        QVERIFY2((lo - b.lo).maxCoeff() <= tight && (b.hi - hi).maxCoeff() <= tight, kindName(s.kind));
      }
    }
  }

  void unsupportedPairNamed() {
    QVERIFY(supported(ShapeKind::Box, ShapeKind::Cylinder));
    QVERIFY(supported(ShapeKind::Cylinder, ShapeKind::Cylinder) && supported(ShapeKind::Capsule, ShapeKind::Cylinder));
    QVERIFY(!supported(ShapeKind::Funnel, ShapeKind::Box));
    try {
      collide(Shape::funnel(1, 2, 1), Frame{}, Shape::box(V3(1, 1, 1)), Frame{});
      QFAIL("funnel-box must throw");
    } catch (const std::invalid_argument& e) {
      QVERIFY(QString(e.what()).contains("funnel and a box"));
    }
  }
};

QTEST_APPLESS_MAIN(TestContact)
#include "test_contact.moc"
