// The funnel-capsule and funnel-cylinder pairs (issue 27,
// mechanics/contact/funnel_pairs) where the chosen feature changes: a body
// moved in small steps along a path from one feature of the funnel to the
// next (onset, wall, base or mouth rim, mouth face) must see a contact force
// without jumps, and the pairs' cost is measured.
#include "mechanics/contact/funnel_pairs.h"
#include "mechanics/contact/narrow_phase.h"

#include <QtTest>

#include <algorithm>
#include <ctime>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <string>

using namespace pm::contact;

namespace {

M3 rotX(double a) { return Eigen::AngleAxisd(a, V3::UnitX()).toRotationMatrix(); }
M3 rotY(double a) { return Eigen::AngleAxisd(a, V3::UnitY()).toRotationMatrix(); }

// Base radius 0.1 at z = 0, mouth 0.4 at z = 0.4: the wall's generator is
// (0.6, 0.8) in the meridian plane (rho, z), its inward normal (-0.8, 0.6);
// the faces are normal to the generator.
const Shape kFunnel = Shape::funnel(0.1, 0.4, 0.4);
const Frame kFunnelAt{V3(0.5, -0.3, 0.2), rotY(0.3) * rotX(0.2)};

// The funnel's feature a contact normal (funnel frame) belongs to: the wall
// (-0.8 radially, 0.6 up), the base face (-t), the mouth face (+t), else a
// rim (its normal lies between the wall's and a face's), told apart by height.
std::string feature(const Contact& c) {
  if (!c.touching()) return "apart";
  const V3 n = kFunnelAt.R.transpose() * c.normal;
  const double nz = n.z();
  if (std::abs(nz - 0.6) < 1e-9) return "wall";
  if (std::abs(nz + 0.8) < 1e-9) return "base face";
  if (std::abs(nz - 0.8) < 1e-9) return "mouth face";
  const V3 p = kFunnelAt.toLocal(c.points.front().point);
  return p.z() < 0.2 ? "base rim" : "mouth rim";
}

// A linear spring per point (k = 1 N/m): the force is sum d_i n, so a body
// moved by h changes it by at most (number of points) h and the turn of the
// normal times the depth; a jump shows as a step far above that.
V3 force(const Contact& c) {
  V3 F = V3::Zero();
  for (const ContactPoint& p : c.points) F += p.depth * c.normal;
  return F;
}

struct Sweep {
  double worst = 0.0;  // largest |dF| / h over the steps
  double at = 0.0;     // path parameter there
  double maxF = 0.0;   // largest |F| (the deepest, with one point)
  std::string from, to;  // the features before and after the worst step
  std::set<std::string> seen;
  std::vector<std::string> order;  // the features in the order met
};

// The body (axes R, funnel frame) with its centre at p(s), s from 0 to 1 in n steps.
Sweep sweep(const Shape& body, const M3& R, const std::function<V3(double)>& p, int n) {
  Sweep out;
  const double h = (p(1.0) - p(0.0)).norm() / n;  // the paths are straight
  V3 prev = V3::Zero();
  std::string last;
  for (int i = 0; i <= n; ++i) {
    const double s = double(i) / n;
    const Contact c = collide(kFunnel, kFunnelAt, body, {kFunnelAt.toWorld(p(s)), kFunnelAt.R * R});
    const V3 F = force(c);
    const std::string f = feature(c);
    if (i > 0 && (F - prev).norm() / h > out.worst) out.worst = (F - prev).norm() / h, out.at = s, out.from = last, out.to = f;
    out.maxF = std::max(out.maxF, F.norm());
    prev = F;
    last = f;
    if (out.order.empty() || out.order.back() != f) out.order.push_back(f);
    out.seen.insert(f);
  }
  return out;
}

// The random paths of randomPathsWithoutJumps (seed 5, libstdc++'s
// distribution): 300 turns R and straight paths p0 to p1 (funnel frame).
// Three draws in a fixed order, the last first: the paths gcc made from
// V3(u(rng), u(rng), u(rng)), whose arguments clang draws in the other
// order (unspecified in C++), so it swept other paths.
struct RandomPath {
  M3 R;
  V3 p0, p1;
};
std::vector<RandomPath> randomPaths(unsigned seed = 5, int count = 300) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto draw3 = [&] {
    const double z = u(rng), y = u(rng), x = u(rng);
    return V3(x, y, z);
  };
  std::vector<RandomPath> out;
  for (int path = 0; path < count; ++path) {
    const V3 axis = draw3().normalized();
    const M3 R = Eigen::AngleAxisd(3.0 * u(rng), axis).toRotationMatrix();
    const V3 p0 = V3(0.3, 0.3, 0.25).cwiseProduct(draw3()) + V3(0, 0, 0.2);
    out.push_back({R, p0, p0 + 0.05 * draw3()});
  }
  return out;
}

QString joined(const std::vector<std::string>& v) {
  QStringList l;
  for (const std::string& s : v) l << QString::fromStdString(s);
  return l.join(" > ");
}

}  // namespace

class TestContactFunnel : public QObject {
  Q_OBJECT
 private slots:
  // Paths in 8,000 steps (h 10 to 43 um) through the features' switches,
  // each body (radius 0.02, half-length 0.05) 1 mm into the solid where it
  // touches:
  //  - upright, its lowest point 1 mm past the wall's plane, moved along
  //    the generator down through the base: the wall, the base rim, apart;
  //    and up past the mouth: the wall, the mouth rim, apart;
  //  - upright, its lowest point 1 mm past the mouth face's plane, moved
  //    along the face from outside the cone in: the face, the mouth rim, apart;
  //  - lying on the wall along the generator (both ends 1 mm deep), slid
  //    down until its lower end is far past the base rim and its upper end
  //    5 mm above it: on the wall throughout, at its upper end and where it
  //    crosses the rim (its lower end's point follows it across; before,
  //    that point vanished there, a jump of 1 mm of depth).
  // With the unit spring, |dF| / h stays within the number of points (each
  // depth 1-Lipschitz in position) plus the normal's turn times the depth
  // (1 mm against radii of 20 mm): 2.25 on every step. A jump of a fifth of
  // the depth would show as 4.6 or more.
  void forceIsContinuousAcrossFeatures() {
    const V3 t(0.6, 0, 0.8), nin(-0.8, 0, 0.6), rim0(0.1, 0, 0), rim1(0.4, 0, 0.4), out(0.8, 0, -0.6);
    const M3 alongT = rotY(std::asin(0.6));
    const double R = 0.02, hl = 0.05, d = 0.001;
    struct Path {
      const char* name;
      M3 R;
      std::function<V3(double)> p;
      std::vector<std::string> features;  // each must be met
    };
    for (const bool cylinder : {false, true}) {
      const Shape peg = cylinder ? Shape::cylinder(R, hl) : Shape::capsule(R, hl);
      // An upright body's centre from its support point x along the unit
      // meridian direction m (pointing down): the lower end's sphere
      // (capsule) or rim point (cylinder) furthest along m.
      auto upright = [&](const V3& x, const V3& m) { return V3(x + hl * V3::UnitZ() - R * (cylinder ? V3(std::copysign(1.0, m.x()), 0, 0) : m)); };
      const std::vector<Path> paths = {
          {"down the wall through the base", M3::Identity(),
           [&](double s) { return upright(rim0 + (0.03 - 0.08 * s) * t + d * out, out); }, {"wall", "base rim", "apart"}},
          {"up the wall past the mouth", M3::Identity(),
           [&](double s) { return upright(rim0 + (0.4 + 0.15 * s) * t + d * out, out); }, {"wall", "mouth rim", "apart"}},
          {"along the mouth face into the cone", M3::Identity(),
           [&](double s) { return upright(rim1 + (0.03 - 0.08 * s) * out - d * t, -t); },
           {"mouth face", "mouth rim", "apart"}},
          {"lying, down the wall through the base", alongT,
           [&](double s) { return V3(V3(0.22, 0, 0.16) + (R - d) * nin + (0.1 - 0.345 * s) * t); }, {"wall"}},
      };
      for (const Path& path : paths) {
        const Sweep sw = sweep(peg, path.R, path.p, 8000);
        qInfo("%s %s: %s; largest |dF| / h %.6g at s = %.5f", cylinder ? "cylinder" : "capsule", path.name,
              qPrintable(joined(sw.order)), sw.worst, sw.at);
        for (const std::string& f : path.features)
          QVERIFY2(sw.seen.count(f), qPrintable(QString("%1: never on the %2").arg(path.name).arg(f.c_str())));
        QVERIFY2(sw.worst <= 2.25, qPrintable(QString("%1 %2: |dF| / h = %3 at s = %4")
                                                  .arg(cylinder ? "cylinder" : "capsule", path.name)
                                                  .arg(sw.worst)
                                                  .arg(sw.at)));
      }
    }
  }

  // An upright cylinder's end rim across the mouth rim (rim on rim), the
  // body as in "up the wall past the mouth" with its corner C a quarter of
  // the depth d below the mouth face: C = rim1 - 0.25 d t + d out, the rim
  // point X = rim1 in the body. The separating axes shared by both corners'
  // normal cones are the wall's (overlap n_w . (X - C) = d) and the body's
  // end (+z: X above the end by 0.6 d + 0.2 d = 0.8 d); the face (0.25 d)
  // and the side (0.65 d) bound the configuration. By hand: gap 0.8 d - d
  // = -0.2 d, eps = min(0.8 d / 2, 0.2 d + 0.25 d / 2) = 0.325 d, the wall's
  // weight w = 1/2 - 0.2 / 0.65 = 0.192308, the force along
  // w n_w + (1 - w) z (normalised) of size w d + (1 - w) 0.8 d (the wall's
  // point and X's). The exact penetration, 0.8 d along z, lies within it by
  // the blend; tolerance 1e-12 m (rounding of the rotated frames).
  void rimOnRimByHand() {
    const double R = 0.02, hl = 0.05, d = 0.001;
    const V3 t(0.6, 0, 0.8), out(0.8, 0, -0.6), nw(-0.8, 0, 0.6), rim1(0.4, 0, 0.4);
    const V3 C = rim1 - 0.25 * d * t + d * out;
    const V3 centre = C + V3(-R, 0, hl);
    const Contact c = collide(kFunnel, kFunnelAt, Shape::cylinder(R, hl), {kFunnelAt.toWorld(centre), kFunnelAt.R});
    const double w = 0.5 - 0.2 / 0.65;
    const V3 n = (w * nw + (1.0 - w) * V3::UnitZ()).normalized();
    const V3 expected = kFunnelAt.R * n * (w * d + (1.0 - w) * 0.8 * d);
    const V3 F = force(c);
    qInfo("rim on rim: force (%.12g %.12g %.12g) against (%.12g %.12g %.12g)", F.x(), F.y(), F.z(), expected.x(),
          expected.y(), expected.z());
    QCOMPARE(int(c.points.size()), 2);
    QVERIFY2((F - expected).norm() < 1e-12, qPrintable(QString("off by %1 m").arg((F - expected).norm())));
  }

  // Issue 27's halving: a body lying on the wall (1 mm deep along the
  // generator) slid down through the base until its upper end has crossed
  // the rim too. The stretch still on the wall, from the upper end to the
  // rim, carries two points; it becomes the rim's single point contact, so
  // its cut end's point has the share l / R of its depth below l = R. By
  // hand at l = R / 2 (s = 0.68): force (1 + 1/2) d along the wall's normal
  // for both bodies (to 1e-12 m). Over the sweep (62.5 um steps) |dF| / h
  // stays within 2.5 (the points, up to three while a cylinder's end blends
  // from the wall to the base face, plus the normal's turn times the
  // depth); the halving was a step of d / h = 16 (capsule) and 2 d / h = 32
  // (cylinder: its flat end leaves nothing behind).
  void lyingBodyLeavesTheWallWithoutAJump() {
    const double R = 0.02, hl = 0.05, d = 0.001;
    const V3 t(0.6, 0, 0.8), nin(-0.8, 0, 0.6);
    const M3 alongT = rotY(std::asin(0.6));
    auto p = [&](double s) { return V3(V3(0.22, 0, 0.16) + (R - d) * nin + (0.1 - 0.5 * s) * t); };
    for (const bool cylinder : {false, true}) {
      const Shape peg = cylinder ? Shape::cylinder(R, hl) : Shape::capsule(R, hl);
      const Contact c = collide(kFunnel, kFunnelAt, peg, {kFunnelAt.toWorld(p(0.68)), kFunnelAt.R * alongT});
      const V3 expected = 1.5 * d * (kFunnelAt.R * nin);
      QVERIFY2((force(c) - expected).norm() < 1e-12,
               qPrintable(QString("%1 at l = R/2: off by %2 m").arg(kindName(peg.kind)).arg((force(c) - expected).norm())));
      const Sweep sw = sweep(peg, alongT, p, 8000);
      qInfo("%s lying, through the base: %s; largest |dF| / h %.6g at s = %.5f", kindName(peg.kind),
            qPrintable(joined(sw.order)), sw.worst, sw.at);
      QVERIFY(sw.seen.count("apart"));
      QVERIFY2(sw.worst <= 2.5, qPrintable(QString("%1: |dF| / h = %2 at s = %3").arg(kindName(peg.kind)).arg(sw.worst).arg(sw.at)));
    }
  }

  // The wall's second point fades out (issue 27, path 279 at s = 0.47): a
  // capsule (R = 0.02, half-length 0.05) lying in the meridian plane y = 0
  // across the base rim, its upper end on the wall (a1 = 0.01 along the
  // generator t from the rim, its sphere 2 mm past the wall's plane along
  // m), its lower end past the rim at depth e (negative: clear of the
  // plane). The support line from the upper end's point to the lower end's
  // has depth 0.002 + lam (e - 0.002) and leaves the wall at the rim, lam =
  // a1 / (a1 - a2) with a1 - a2 = sqrt(0.1^2 - (0.002 - e)^2); there the
  // second point has depth D = 0.002 + lam (e - 0.002), weighted by the
  // stretch's share lam 0.1 / R and, with the far end clear of the plane,
  // faded over the band (kBand = 1/2 of the depth): 1 + e / 0.001. Force
  // (0.002 + fade share D) along -m, to 1e-12 m, for e = +0.0005 (fade 1)
  // and e = -0.0005 (fade 1/2). Before, the point vanished as soon as
  // e < 0 (a jump of 0.00087 m here; 135 |dF| / h on path 279).
  void wallsSecondPointFadesWhenTheFarEndLeavesThePlane() {
    const double R = 0.02, a1 = 0.01;
    const V3 m(0.8, 0, -0.6), t(0.6, 0, 0.8), rim0(0.1, 0, 0);
    const Shape peg = Shape::capsule(R, 0.05);
    for (const double e : {0.0005, -0.0005}) {
      const double da = std::sqrt(0.01 - (0.002 - e) * (0.002 - e)), lam = a1 / da;
      const V3 up = rim0 + a1 * t + (0.002 - R) * m, low = rim0 + (a1 - da) * t + (e - R) * m;
      const M3 axis = Eigen::Quaterniond::FromTwoVectors(V3::UnitZ(), (up - low).normalized()).toRotationMatrix();
      const Contact c = collide(kFunnel, kFunnelAt, peg, {kFunnelAt.toWorld(0.5 * (up + low)), kFunnelAt.R * axis});
      const double D = 0.002 + lam * (e - 0.002), share = std::min(1.0, 1.0 + e / 0.001) * lam * 0.1 / R;
      const V3 expected = kFunnelAt.R * -m * (0.002 + share * D);
      qInfo("far end %g m: %zu points, F off by %.3g m (second point %.6g deep, share %.6g)", e, c.points.size(),
            (force(c) - expected).norm(), D, share);
      QCOMPARE(int(c.points.size()), 2);
      QVERIFY2((force(c) - expected).norm() < 1e-12,
               qPrintable(QString("e = %1: off by %2 m").arg(e).arg((force(c) - expected).norm())));
    }
  }

  // A deep capsule's end in the solid's corner by the base rim (issue 27's
  // wall/base-face hand-over). In the meridian plane y = 0, with m = (0.8,
  // 0, -0.6) the wall's outward normal and t = (0.6, 0, 0.8) the generator,
  // the end sphere's centre (radius R = 0.02) lies at the rim point
  // (0.1, 0, 0) + alpha m + beta t (the axis along (m + t) / sqrt 2, the
  // other end 71 mm shallower, apart): the wall's depth is dw = alpha + R at
  // the point x_w = centre + R m, the base face's db = beta + R at x_b =
  // centre + R t. x_w's ways out of the solid are the wall (dw) and the base
  // (beta); x_b's the wall (alpha) and the base (db). At alpha = 0.015:
  //  - beta from 0.01 to 0.0175: both points' nearer way is the other
  //    feature's by more than half (alpha + R >= 2 beta, beta + R >=
  //    2 alpha), so both features count and the deeper leads; the
  //    shallower's share is 1/2 (1 - (d1 - d2) / (d1 / 2))^2 (farShare);
  //    at beta = alpha (the switch, dw = db = 0.035) half and half: force
  //    0.035 along -(m + t) / sqrt 2 (before: all on the wall, a 90 degree
  //    flip of the normal there); at beta = 0.0125 (db = 0.0325) the base
  //    face's share is 1/2 (1 - 0.0025 / 0.0175)^2 = 18/49;
  //  - beta from 0.0175 to 0.07: x_w's wall depth 0.035 against its base
  //    distance beta: the wall counts alone with the share 1 - farShare,
  //    else both count as above. At beta = 0.0175 (band edge) exactly the
  //    two counting, the base face (0.0375) leading: the wall's share
  //    1/2 (1 - 0.0025 / 0.01875)^2 = 169/450; at beta = 0.019 the wall
  //    alone has the share 1/2 (1 - 0.016 / 0.0175)^2 = 9/2450, the two
  //    the rest, the wall's share in them 1/2 (1 - 0.004 / 0.0195)^2 =
  //    961/3042; at beta = 0.07 (band edge) exactly the wall alone: 0.035
  //    along -m (before, the contact jumped at beta = 0.035 from the two's
  //    choice to the wall). Between beta = R and 0.035 the mouth face's
  //    plane, which the body's other end crosses 0.5 m deep, counts where
  //    the wall does not (funnel_pairs' fallback, as before): the points
  //    stay below beta = R or at the band's far edge.
  // The force is the blend's points' depths along the blend's normal
  // (normalised weighted sum of the normals); to 1e-12 m.
  void deepEndHandsOverBetweenWallAndBaseFace() {
    const double R = 0.02, hl = 0.05, alpha = 0.015;
    const V3 m(0.8, 0, -0.6), t(0.6, 0, 0.8), rim0(0.1, 0, 0);
    const M3 axis = rotY(std::atan2(1.4, 0.2));  // z to (m + t) / sqrt 2
    const Shape peg = Shape::capsule(R, hl);
    // Two contacts blended: weight w on (normal na, depth sum da).
    struct Part {
      V3 n;
      double depth;
    };
    auto blend = [](const Part& a, const Part& b, double w) {
      return Part{(w * a.n + (1.0 - w) * b.n).normalized(), w * a.depth + (1.0 - w) * b.depth};
    };
    struct Case {
      double beta;
      Part expected;
    };
    const double wall1 = 169.0 / 450.0;
    const std::vector<Case> cases = {
        {0.015, {-(m + t).normalized(), 0.035}},
        {0.0125, {(31.0 / 49.0 * -m + 18.0 / 49.0 * -t).normalized(), 31.0 / 49.0 * 0.035 + 18.0 / 49.0 * 0.0325}},
        {0.0175, {(wall1 * -m + (1.0 - wall1) * -t).normalized(), wall1 * 0.035 + (1.0 - wall1) * 0.0375}},
        {0.019, blend({-m, 0.035}, {(961.0 / 3042.0 * -m + 2081.0 / 3042.0 * -t).normalized(), 961.0 / 3042.0 * 0.035 + 2081.0 / 3042.0 * 0.039}, 9.0 / 2450.0)},
        {0.07, {-m, 0.035}},
    };
    for (const Case& k : cases) {
      const V3 end = rim0 + alpha * m + k.beta * t;
      const V3 centre = end - hl * (axis * V3::UnitZ());
      const Contact c = collide(kFunnel, kFunnelAt, peg, {kFunnelAt.toWorld(centre), kFunnelAt.R * axis});
      const V3 expected = kFunnelAt.R * k.expected.n * k.expected.depth;
      qInfo("beta %.4f: F (%.12g %.12g %.12g) against (%.12g %.12g %.12g)", k.beta, force(c).x(), force(c).y(), force(c).z(),
            expected.x(), expected.y(), expected.z());
      QVERIFY2((force(c) - expected).norm() < 1e-12,
               qPrintable(QString("beta = %1: off by %2 m").arg(k.beta).arg((force(c) - expected).norm())));
    }
  }

  // A hand bound on |dF| / h for the wall/face blend (issue 27), swept
  // through the stretch of deepEndHandsOverBetweenWallAndBaseFace where both
  // count (alpha = 0.015, beta from 0.01 to 0.0174, steps h = 1e-5 m). With
  // unit springs the blend's force is |F| n^ with |F| = (1 - w) far + w
  // near and n^ the normalised (1 - w) n_far + w n_near (n_far, n_near
  // orthogonal: -m and -t), w = farShare = (1 - s)^2 / 2, s = 2 (1 - r),
  // r = near / far in [1/2, 1]. One depth moves with the body at rate 1
  // (beta + R), the other stands (0.035), so |r'| <= 1 / far and |w'| =
  // 2 (1 - s) |r'| <= 2 (2 r - 1) / far. Then
  //  - the size: |d|F|/dx| <= |w'| (far - near) + 1 <= 2 (2r - 1)(1 - r) + 1
  //    <= 1.25 (the product at most 1/8);
  //  - the turn: n^ turns by w' / ((1 - w)^2 + w^2) <= 2 |w'|, times |F| <=
  //    far: <= 4 (2 r - 1) <= 4, the stiffness times the share's slope.
  // So |dF| / h <= 5.25 (a 90 degree flip at the tie was 0.035 sqrt 2 / h).
  void wallFaceBlendKeepsItsHandBound() {
    const double R = 0.02, hl = 0.05, alpha = 0.015, h = 1e-5;
    const V3 m(0.8, 0, -0.6), t(0.6, 0, 0.8), rim0(0.1, 0, 0);
    const M3 axis = rotY(std::atan2(1.4, 0.2));
    const Shape peg = Shape::capsule(R, hl);
    auto F = [&](double beta) {
      const V3 centre = rim0 + alpha * m + beta * t - hl * (axis * V3::UnitZ());
      return force(collide(kFunnel, kFunnelAt, peg, {kFunnelAt.toWorld(centre), kFunnelAt.R * axis}));
    };
    double worst = 0.0, at = 0.0;
    V3 prev = F(0.01);
    for (int i = 1; i <= 740; ++i) {
      const V3 f = F(0.01 + i * h);
      if ((f - prev).norm() / h > worst) worst = (f - prev).norm() / h, at = 0.01 + i * h;
      prev = f;
    }
    qInfo("wall/base face blend: largest |dF| / h %.6g at beta = %.5f (hand bound 5.25)", worst, at);
    QVERIFY2(worst <= 5.25, qPrintable(QString("|dF| / h = %1 at beta = %2").arg(worst).arg(at)));
  }

  // The mouth face's false depth (issue 27): the capsule of
  // deepEndHandsOverBetweenWallAndBaseFace (axis along (m + t) / sqrt 2),
  // its end sphere's centre at rim0 + alpha m + beta t. Its lowest point
  // along t lies in the solid by the base rim, 0.5 m below the mouth
  // face's plane; where neither the wall nor the base face counts by its own
  // deepest point's way out, the mouth face counted for want of the wall
  // (0.5 m deep). Now a face never counts so for a point nearer the other
  // face's plane. By hand at alpha = 0.01, beta = 0.03:
  //  - the wall: x_w = centre + R m, 0.03 past its plane and 0.03 from the
  //    base's: on the bisector, its way share 1/2 (the base the other way);
  //  - the base face: x_b = centre + R t, 0.05 past it and 0.01 from the
  //    wall: the wall its way out beyond the band (share 0); its support line
  //    towards the other end leaves the face at the rim after 0.01 sqrt 2
  //    (lam = 0.1 sqrt 2), 0.04 deep there, the other end 0.1 / sqrt 2 - 0.05
  //    clear of the plane: second point 0.04 (lam 0.1 / R) (1 - (0.1 /
  //    sqrt 2 - 0.05) / 0.025) = 0.06 sqrt 2 - 0.08;
  //  - with the wall counting: the wall alone (0.03 along -m); without:
  //    wall and base both count for want of each other's way, the base
  //    deeper, the wall's share farShare(0.03, 0.05) = 0.02, so normal
  //    0.98 (-t) + 0.02 (-m) (normalised), depth 0.98 (0.05 + p2) + 0.02 0.03;
  //    the two halves blended half and half.
  // Force to 1e-12 m (before: 0.437 m). And along beta from 0 to 0.08 the
  // force stays below 0.06 m (before: 0.51 m from beta = 0.035 on).
  void mouthFaceNeverCountsFromTheBaseCorner() {
    const double R = 0.02, hl = 0.05;
    const V3 m(0.8, 0, -0.6), t(0.6, 0, 0.8), rim0(0.1, 0, 0);
    const M3 axis = rotY(std::atan2(1.4, 0.2));
    const Shape peg = Shape::capsule(R, hl);
    auto at = [&](double alpha, double beta) {
      const V3 centre = rim0 + alpha * m + beta * t - hl * (axis * V3::UnitZ());
      return collide(kFunnel, kFunnelAt, peg, {kFunnelAt.toWorld(centre), kFunnelAt.R * axis});
    };
    const double p2 = 0.06 * std::sqrt(2.0) - 0.08;
    const V3 nNot = (0.98 * -t + 0.02 * -m).normalized();
    const double dNot = 0.98 * (0.05 + p2) + 0.02 * 0.03;
    const V3 expected = kFunnelAt.R * (0.5 * -m + 0.5 * nNot).normalized() * (0.5 * 0.03 + 0.5 * dNot);
    const Contact c = at(0.01, 0.03);
    qInfo("alpha 0.01, beta 0.03: |F| %.12g against %.12g, off by %.3g m", force(c).norm(), expected.norm(),
          (force(c) - expected).norm());
    QVERIFY2((force(c) - expected).norm() < 1e-12, qPrintable(QString("off by %1 m").arg((force(c) - expected).norm())));
    double largest = 0.0;
    for (int i = 0; i <= 320; ++i) largest = std::max(largest, force(at(0.015, 0.08 * i / 320)).norm());
    qInfo("alpha 0.015, beta 0 to 0.08: largest |F| %.6g m", largest);
    QVERIFY2(largest < 0.06, qPrintable(QString("|F| up to %1 m").arg(largest)));
  }

  // The rim's local wedge (issue 27, rimWedge): a cylinder (R = 0.02,
  // half-length 0.05) with its axis in the meridian plane y = 0 along
  // w = (t - m) / sqrt 2, across the base rim's point x = (0.1, 0, 0), its
  // axis passing at rho from x: centre x - rho n*, n* = -(m + t) / sqrt 2
  // the rim's bisector (m = (0.8, 0, -0.6) the wall's outward normal into
  // the solid, t = (0.6, 0, 0.8) the generator). The rim's normal cone is
  // the arc n(th) = cos th (-m) + sin th (-t), th in [0, pi/2]; n* at
  // th = pi/4, w normal to it. x is mid-length (the ends 0.05 away, ways out
  // +-w: 90 degrees from n*, outside the cone), its side way out is -e_r =
  // -sign(rho) n*. The overlap of the body with the wedge along n(th), th
  // = pi/4 + phi, is lambda = (x - s(-n)) . n = rho cos phi + hl |sin phi| +
  // R cos phi (the cylinder's support along -n), smallest at phi = 0 (a kink:
  // rising on both sides, the slope at least (hl - R - rho) / sqrt 2 > 0):
  // depth R + rho along n*, one point.
  //  - rho > 0 (the axis in the solid's corner, the side way out -n*
  //    outside the cone): the wedge's overlap. rho = 4 mm: 0.024 m, 2 mm:
  //    0.022 m, 0.1 mm: 0.0201 m (before: at 4 mm 0.016 m along -n*, the
  //    side's way out R - rho, out of the rim's cone into the solid).
  //  - rho < 0 (the side way out +n* in the cone): the side's depth
  //    R - |rho|, the same formula: rho = -2 mm, 0.018 m.
  //  - Where the wedge takes over (rho = 0, x on the axis) both give R
  //    along n*: at rho = +-1e-10 the depths differ by 2e-10 (to 1e-12 m).
  //  - On the axis and near it (rho = 0, +-1e-12, +-1e-10) the normal is
  //    n* too, to 1e-12 rad: there the side's e_r, from coordinates of
  //    0.1 m, is off by rounding / rho (4e-6 rad at rho = -1e-12, 5e-8 at
  //    -1e-10; arbitrary at 0), so the side's way counts less within 0.35 R
  //    of the axis (rimWays) and the wedge's exact normal takes over, with
  //    the same depth R + rho along n* (issue 27).
  // The wall's and the base face's deepest points lie past their rims (the
  // lower end below the base, the upper in the cone): the rim's contact is
  // the pair's. Depth to 1e-12 m, normal to 1e-12 rad.
  void rimWedgeByHand() {
    const double R = 0.02, hl = 0.05;
    const V3 m(0.8, 0, -0.6), t(0.6, 0, 0.8), rim0(0.1, 0, 0);
    const V3 nStar = -(m + t) / std::sqrt(2.0), w = (t - m) / std::sqrt(2.0);
    const Shape peg = Shape::cylinder(R, hl);
    const M3 axis = Eigen::Quaterniond::FromTwoVectors(V3::UnitZ(), w).toRotationMatrix();
    auto at = [&](double rho) {
      return collide(kFunnel, kFunnelAt, peg, {kFunnelAt.toWorld(V3(rim0 - rho * nStar)), kFunnelAt.R * axis});
    };
    auto angle = [](const V3& a, const V3& b) { return std::atan2(a.cross(b).norm(), a.dot(b)); };
    for (const double rho : {0.004, 0.002, 1e-4, -1e-4, -0.002, 1e-10, -1e-10, 1e-12, -1e-12, 0.0}) {
      const Contact c = at(rho);
      const V3 n = kFunnelAt.R.transpose() * c.normal;
      const double dd = std::abs(-c.distance - (R + rho)), dn = angle(n, nStar);
      qInfo("rho %g: depth %.15g (hand %.15g, off %.3g m), normal off %.3g rad, %zu point(s)", rho, -c.distance, R + rho, dd,
            dn, c.points.size());
      QCOMPARE(int(c.points.size()), 1);
      QVERIFY2(dd < 1e-12 && dn < 1e-12, qPrintable(QString("rho = %1: depth off %2 m, normal off %3 rad").arg(rho).arg(dd).arg(dn)));
      QVERIFY2(std::abs(c.points.front().depth - (R + rho)) < 1e-12, qPrintable(QString("rho = %1: point depth").arg(rho)));
    }
    const Contact above = at(1e-10), below = at(-1e-10);
    const double step = std::abs((below.distance - above.distance) - 2e-10);
    qInfo("at the switch (rho = +-1e-10): the depths differ by 2e-10 %+.3g m", step);
    QVERIFY2(step < 1e-12, qPrintable(QString("switch: depth step %1 m").arg(step)));
  }

  // The local wedge's rate along the rim (issue 27, rimWedge) where its
  // smallest overlap sits at a kink: rimWedgeByHand's cylinder (rho = 4 mm,
  // its axis w turned 0.1 rad about n* out of the meridian plane y = 0)
  // at the base rim's azimuths q = -0.05, 0.03, 0.08: the overlap along
  // n(th) is the larger of the two ends' (the support switches ends where
  // n is normal to the axis), smallest where they cross, one rising and one
  // falling. As q moves that crossing moves along the arc, so the depth's
  // rate is the crossing's (l1q l2th - l2q l1th) / (l2th - l1th), neither
  // end's own: it must equal the depth's central difference in q (step
  // 1e-5 rad: truncation ~1e-11, the minimum's rounding ~1e-12 / 1e-5) to
  // 1e-8 m/rad. Before, the rate was whichever end the support picked at
  // the kink (off by 0.0046 m/rad at q = -0.05).
  void rimWedgeRateAtItsKink() {
    const double R = 0.02, hl = 0.05, rho = 0.004;
    const V3 m(0.8, 0, -0.6), t(0.6, 0, 0.8), rim0(0.1, 0, 0);
    const V3 nStar = -(m + t) / std::sqrt(2.0), w = (t - m) / std::sqrt(2.0);
    const V3 axis = Eigen::AngleAxisd(0.1, nStar) * w;
    const Shape peg = Shape::cylinder(R, hl);
    const Frame body{kFunnelAt.toWorld(V3(rim0 - rho * nStar)),
                     kFunnelAt.R * Eigen::Quaterniond::FromTwoVectors(V3::UnitZ(), axis).toRotationMatrix()};
    auto depth = [&](double q) {
      double r;
      return funnelRimWedge(kFunnel, kFunnelAt, peg, body, false, q, r);
    };
    const double h = 1e-5;
    for (const double q : {-0.05, 0.03, 0.08}) {
      double rate;
      const double d = funnelRimWedge(kFunnel, kFunnelAt, peg, body, false, q, rate);
      const double fd = (depth(q + h) - depth(q - h)) / (2.0 * h);
      const double left = (depth(q) - depth(q - 1e-7)) / 1e-7, right = (depth(q + 1e-7) - depth(q)) / 1e-7;
      qInfo("q %+.2f: depth %.9f m, rate %+.12f m/rad, central difference %+.12f (off %.3g; one-sided %+.6f %+.6f)", q, d,
            rate, fd, std::abs(rate - fd), left, right);
      QVERIFY2(std::abs(rate - fd) < 1e-8, qPrintable(QString("q = %1: rate %2 against %3").arg(q).arg(rate).arg(fd)));
    }
  }

  // 150 cylinders (radius 0.02, half-length 0.05) at random tilts moved on
  // random straight paths (5 cm at most, 300 steps: h up to 290 um) in and
  // around the funnel (seed 5, libstdc++'s distribution). On a path that
  // stays shallower than 100 mm (five body radii; deeper, the body is
  // buried in the funnel's material) the force changes per step by at most
  // the number of points (depth 1-Lipschitz, up to three) plus the normal's
  // turn times the depth (the wall's normal turns by 1 / 0.1 m per metre
  // round the axis at the base, times 0.1 m): |dF| / h at most 10.
  //  - Path 191 (5 to 11 mm deep, its end rim across the mouth rim while
  //    another point of its end lies deeper past the wall) alternated
  //    between the wall's contact and the rim-on-rim wall axis at its
  //    corner, 3 mm shallower: |dF| / h = 17 at these steps (110 at 2,000).
  //    Now the axis's overlap is the whole body's.
  //  - Path 299 (50 mm deep, its lower end across the base rim) took the
  //    rim-on-rim side axis, pushing the rim point out of the cylinder's
  //    side, while that point neared the cylinder's axis; where it crossed
  //    it the side's normal flipped and the contact fell to the wall:
  //    |dF| / h = 86 here (571 at 2,000 steps). Now rim on rim hands over
  //    to the other features' choice between 1/2 and 3/4 of the radius deep.
  //  - The wall/face hand-over of deep bodies (the deepest point's shortest
  //    way out changing between the wall and a face; before, path 279 had
  //    |dF| / h = 552 there) is blended (deepEndHandsOverBetweenWallAndBaseFace).
  //  - Path 279's jump at s = 0.47 (the wall's second point, cut by the
  //    base rim, vanishing as the far end left the plane: |dF| / h 135) is
  //    mended (wallsSecondPointFadesWhenTheFarEndLeavesThePlane).
  //  - Path 145 at s = 0.577 (|dF| / h 22: the wall's stretch from its
  //    shallow end to the base rim vanished with that end, the base rim took
  //    over) is mended: the wall fades out as that end leaves its plane
  //    (the feature's fade), no face counts for want of the faded wall when
  //    deeper than it (the base face 66 mm against the wall's 19 mm: 260
  //    at s = 0.563), and a rim point inside the cylinder with neither way
  //    out in the rim's cone takes the local wedge's overlap (before, its
  //    normal pointed out of the cone: 185 at s = 0.54). Now 4.1.
  //  - Path 279 from s = 0.80 (85 mm deep: a cylinder's end rim across the
  //    base rim, rim on rim switching on and off at full weight while its
  //    end axis and the rim point's end way flipped at the body's mid-plane:
  //    560) is mended: rim on rim hands over by the end's depth as by the
  //    side's, and the rim point's ways count by shares (rimWays). Now 9.5.
  //  - Path 221 (59 mm deep) along s = 0.22 to 0.61 (the base rim's point
  //    on its corner's bisector, its normal flipping between the side's and
  //    the end's: 144; a way leaving the rim's cone: 150; -e_r turning round
  //    the axis: 167) is mended the same way (rimHandOversHoldAtFinerSteps).
  //  - Path 221 at s = 0.623 (161): the base face's deepest point, a
  //    cylinder end rim point 30 mm above the base plane, crossed the
  //    cone's surface into the solid (its foot onto the face) and the face
  //    counted at once for want of the wall, 37.7 mm deep against the rim's
  //    31.0. Now it enters by that point's distance past the surface, over
  //    a tenth of its depth (over a quarter the rim kept weight where its
  //    depth falls from 33 mm to 0 between two azimuths as its point leaves
  //    the body: 2,147 at s = 0.968, h/16). The rim's point was searched for
  //    by another depth than the contact's (the side at full share near the
  //    axis): that depth jumped across the best sample and the point
  //    flipped 0.1 rad away and back (752 at s = 0.565, h/16); by the
  //    contact's depth, the slope's bracket held a lower maximum (18 mm
  //    against 29: 2,575 at s = 0.551). Now the search keeps its best point
  //    and the side's near-axis band is 0.35 R (at a quarter the normal
  //    turned too fast as the point slid along the rim: 10.05 at s = 0.580).
  //    Tried and not kept: the two best maxima of the rim's depth blended by
  //    farShare (a maximum appearing between the 64 samples: 322 at s =
  //    0.850); the rim's depth as the wedge's overlap everywhere in the body
  //    (its smallest overlap flips between the arc's ends: 1,623 at 0.284).
  //    Every step of these paths keeps the bound.
  void randomPathsWithoutJumps() {
    const Shape cyl = Shape::cylinder(0.02, 0.05);
    int shallow = 0, deep = 0;
    const std::vector<RandomPath> paths = randomPaths();
    for (int path = 0; path < 300; ++path) {
      const M3& R = paths[path].R;
      const V3 &p0 = paths[path].p0, &p1 = paths[path].p1;
      if (path % 2 == 0) continue;  // the capsules' paths of the scratch sweep
      const Sweep sw = sweep(cyl, R, [&](double s) { return V3(p0 + s * (p1 - p0)); }, 300);
      if (sw.maxF >= 0.1) continue;
      ++(sw.maxF < 0.01 ? shallow : deep);
      const QString what = QString("path %1 (at most %2 mm deep): |dF| / h = %3 at s = %4, %5 > %6")
                               .arg(path).arg(1e3 * sw.maxF).arg(sw.worst).arg(sw.at)
                               .arg(sw.from.c_str(), sw.to.c_str());
      QVERIFY2(sw.worst <= 10.0, qPrintable(what));
    }
    qInfo("%d shallow and %d deep cylinder paths", shallow, deep);
    QVERIFY(shallow > 50 && deep > 25);
  }

  // The rim hand-overs of paths 221 and 279 (issue 27) at steps 16 times
  // finer than randomPathsWithoutJumps' (h/16: 9 to 18 um), against the same
  // hand bound (|dF| / h <= 10): a jump would grow 16 times with the finer
  // step, a continuous force keeps its slope. Mended there:
  //  - 221, s = 0.20 to 0.56: the base rim's point inside the cylinder sat
  //    on its corner's bisector (side and end depths tied) and its normal
  //    flipped between the side's and the end's (144 at the 300 steps);
  //    then the side's normal left the rim's normal cone while the end's
  //    was in it, and the contact jumped to the end's depth (150); then
  //    -e_r turned round the axis as the rim point passed it (167);
  //  - 221, s = 0.56 to 0.63: the rim's point flipped 0.1 rad away and
  //    back (752 here at s = 0.565; 1,698 and 2,196 at 0.568 and 0.569),
  //    and the base face took over from the rim for want of the wall at
  //    s = 0.6225 (2,578; see randomPathsWithoutJumps);
  //  - 279, s = 0.78 to 1: the rim-on-rim contact switched on and off at
  //    full weight with its end axis flipping at the body's mid-plane (560),
  //    and the rim point's end way flipped there too.
  void rimHandOversHoldAtFinerSteps() {
    const Shape cyl = Shape::cylinder(0.02, 0.05);
    const std::vector<RandomPath> paths = randomPaths();
    struct Window {
      int path;
      double s0, s1;
    };
    for (const Window& w : {Window{221, 0.20, 0.63}, Window{279, 0.78, 1.0}}) {
      const RandomPath& rp = paths[w.path];
      const int n = int(std::lround(16 * 300 * (w.s1 - w.s0)));
      const Sweep sw = sweep(cyl, rp.R, [&](double s) { return V3(rp.p0 + (w.s0 + s * (w.s1 - w.s0)) * (rp.p1 - rp.p0)); }, n);
      const double at = w.s0 + sw.at * (w.s1 - w.s0);
      qInfo("path %d, s %.2f to %.2f in %d steps: largest |dF| / h %.4g at s = %.5f", w.path, w.s0, w.s1, n, sw.worst, at);
      QVERIFY2(sw.worst <= 10.0, qPrintable(QString("path %1: |dF| / h = %2 at s = %3").arg(w.path).arg(sw.worst).arg(at)));
    }
  }

  // A wider set than randomPathsWithoutJumps' (seed 11, 1,500 paths at 300
  // steps; even paths capsules, odd cylinders, as in the scratch sweep),
  // run only when PM_FUNNEL_WIDE_SWEEP is set (it would double CI's time
  // for this file and some of its paths still break the bound, issue 27):
  // lists each path over the hand bound of 10.
  void widerRandomPathsSweep() {
    if (qEnvironmentVariableIsEmpty("PM_FUNNEL_WIDE_SWEEP")) QSKIP("set PM_FUNNEL_WIDE_SWEEP to run");
    const Shape cyl = Shape::cylinder(0.02, 0.05), cap = Shape::capsule(0.02, 0.05);
    const std::vector<RandomPath> paths = randomPaths(11, 1500);
    int over[2] = {0, 0};
    for (int path = 0; path < int(paths.size()); ++path) {
      const RandomPath& rp = paths[path];
      const bool cylinder = path % 2 == 1;
      const Sweep sw = sweep(cylinder ? cyl : cap, rp.R, [&](double s) { return V3(rp.p0 + s * (rp.p1 - rp.p0)); }, 300);
      if (sw.maxF >= 0.1 || sw.worst <= 10.0) continue;  // within 100 mm, as randomPathsWithoutJumps
      ++over[cylinder];
      qInfo("%s %d (at most %.1f mm deep): |dF| / h = %.4g at s = %.4f, %s > %s", cylinder ? "cylinder" : "capsule", path,
            1e3 * sw.maxF, sw.worst, sw.at, sw.from.c_str(), sw.to.c_str());
    }
    qInfo("over the hand bound: %d cylinder and %d capsule paths", over[1], over[0]);
  }

  // Where a face's deeper end leads again, its foot crossing the face's rim
  // onto the face (counting then for want of the wall, entering at 0), on
  // paths of widerRandomPathsSweep at steps 16 times finer than its (h/16),
  // against the hand bound (|dF| / h <= 10). The face's weight came from
  // the leading end alone: it jumped from the other end's entry (1, or its
  // own way out) to 0 (538 on cylinder 309 at s = 0.830, 111 on capsule
  // 482 at 0.903, 508 on capsule 1036 at 0.303, 482 on capsule 1230 at
  // 0.977, at the sweep's steps). Now the deeper end's foot's distance
  // from the cone's surface scales the weight. (Around these windows the
  // force still turns steeply over the entry's band, 2 mm: up to 77 on
  // 309 at s = 0.857.)
  void faceLeadSwapsHoldAtFinerSteps() {
    const Shape cyl = Shape::cylinder(0.02, 0.05), cap = Shape::capsule(0.02, 0.05);
    const std::vector<RandomPath> paths = randomPaths(11, 1500);
    struct Window {
      int path;  // odd: a cylinder's
      double s0, s1;
    };
    for (const Window& w : {Window{309, 0.825, 0.830}, Window{482, 0.89, 0.91}, Window{1036, 0.29, 0.32}, Window{1230, 0.965, 0.985}}) {
      const RandomPath& rp = paths[w.path];
      const int n = int(std::lround(16 * 300 * (w.s1 - w.s0)));
      const Sweep sw = sweep(w.path % 2 ? cyl : cap, rp.R, [&](double s) { return V3(rp.p0 + (w.s0 + s * (w.s1 - w.s0)) * (rp.p1 - rp.p0)); }, n);
      const double at = w.s0 + sw.at * (w.s1 - w.s0);
      qInfo("path %d, s %.3f to %.3f in %d steps: largest |dF| / h %.4g at s = %.5f", w.path, w.s0, w.s1, n, sw.worst, at);
      QVERIFY2(sw.worst <= 10.0, qPrintable(QString("path %1: |dF| / h = %2 at s = %3").arg(w.path).arg(sw.worst).arg(at)));
    }
  }

  // The cost of one evaluation of each pair (CPU time) at random poses in
  // and around the funnel (two thirds of them touching), against funnel-sphere.
  void cost() {
    std::mt19937 rng(27);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<Frame> poses;
    for (int i = 0; i < 1000; ++i) {
      const V3 axis = V3(u(rng), u(rng), u(rng)).normalized();
      poses.push_back({kFunnelAt.toWorld(V3(0.35 * u(rng), 0.35 * u(rng), 0.2 + 0.25 * u(rng))),
                       kFunnelAt.R * Eigen::AngleAxisd(3.0 * u(rng), axis).toRotationMatrix()});
    }
    for (const Shape& s : {Shape::sphere(0.03), Shape::capsule(0.03, 0.05), Shape::cylinder(0.03, 0.05)}) {
      int touching = 0;
      double sink = 0.0;
      const std::clock_t c0 = std::clock();  // CPU time: the machine may be shared
      for (int rep = 0; rep < 3; ++rep)
        for (const Frame& f : poses) {
          const Contact c = collide(kFunnel, kFunnelAt, s, f);
          sink += c.distance;
          touching += rep == 0 && c.touching();
        }
      const double sec = double(std::clock() - c0) / CLOCKS_PER_SEC;
      qInfo("funnel-%s: %.0f evaluations per CPU second (%.2f us each; %d of %zu poses touching)", kindName(s.kind),
            3.0 * poses.size() / sec, 1e6 * sec / (3.0 * poses.size()), touching, poses.size());
      QVERIFY(std::isfinite(sink));
      QVERIFY(touching > 0);
    }
  }
};

QTEST_APPLESS_MAIN(TestContactFunnel)
#include "test_contact_funnel.moc"
