// Contact on flexible bodies (issues 22 and 27): a contact shape at a
// flexible body's marker sits on the node body that carries the marker
// (decision 0017: a beam runs as node bodies and element forces; its
// markers keep their names "<beam>.<marker>"), and the pair's force acts on
// that node body. Checked against hand values:
//  - a cantilever under its own weight whose tip sphere rests on a stop a
//    gap below it: settled contact force, penetration and tip deflection
//    from the beam's tip compliance and the contact law solved together;
//  - a ball striking a free-floating beam: linear and angular momentum of
//    ball and beam kept through the impact, energy kept by an undamped,
//    frictionless contact, the impulse the ball gives up found in the
//    beam's centre-of-mass velocity;
//  - projects/contact_spring_finger: a cylinder lowers a spring-steel
//    finger onto a part; the finger's bending sets the pressing force.
#include "build/project_input.h"
#include "mechanics/beam/beam_bodies.h"
#include "model/orientation.h"
#include "support/mechanism_builders.h"
#include "support/steel_beam.h"
#include "support/test_project.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double g0 = 9.80665;

ContactDef sphereOn(const std::string& id, const std::string& a, const std::string& aShape,
                    std::map<std::string, double> aSize, const std::string& b, double radius,
                    std::map<std::string, double> law) {
  return {id, {a, aShape, std::move(aSize)}, {b, "sphere", {{"radius", radius}}}, std::move(law)};
}

// The tip deflection (downwards) of the discrete cantilever under its own
// weight along -z: the node bodies' lumped weights m_j g at x_j, each giving
// P a^2 (3 L - a) / (6 E I) at the tip (the Hermite elements are exact for
// nodal loads). Bending in x-z takes Iy.
double freeTipDeflection(const FlexibleBodyDef& d) {
  const beam::FlexibleBeam b(beam::beamSpecOf(d));
  const double L = b.spec().length, EI = b.spec().material.E * b.spec().section.Iy;
  double w = 0.0;
  for (int j = 1; j < b.nodeCount(); ++j) {
    const double a = b.nodeX(j), P = beam::nodeInertia(b, j).mass * g0;
    w += P * a * a * (3 * L - a) / (6 * EI);
  }
  return w;
}

// The settled tip resting on the stop: the tip sinks w, the stop (gap g
// below the sphere) takes F = k (w - g)^e, and the beam's tip compliance
// c = L^3 / (3 E I) gives w = w_free - c F. Solved by bisection in w.
struct Rest {
  double w = 0, F = 0, d = 0;
};
Rest restOnStop(double wFree, double gap, double k, double e) {
  const double c = kL * kL * kL / (3 * kE * kIy);
  double lo = gap, hi = wFree;
  for (int it = 0; it < 200; ++it) {
    const double w = 0.5 * (lo + hi);
    (k * std::pow(w - gap, e) < (wFree - w) / c ? lo : hi) = w;
  }
  Rest r;
  r.w = 0.5 * (lo + hi);
  r.d = r.w - gap;
  r.F = k * std::pow(r.d, e);
  return r;
}

// The moving parts the engine runs (a beam's node bodies included).
std::vector<PartDef> movingParts(const Mechanism& m) {
  std::vector<PartDef> out;
  for (const PartDef& p : beam::withNodeBodies(m).parts)
    if (!p.ground) out.push_back(p);
  return out;
}

}  // namespace

class TestContactFlexible : public QObject {
  Q_OBJECT

 private slots:
  // A steel cantilever (1 m, 20 x 10 mm, bending about its weak axis under
  // gravity along -z: E Iy = 350 N m2, 1.57 kg/m) whose tip marker carries
  // a sphere (10 mm) over a ground plane 2 mm below it. Free, its weight
  // would sink the tip by w_free = 5.48 mm (lumped masses; q L^4 / (8 E I)
  // = 5.50 mm for the continuous beam); the stop holds it. Started straight,
  // the beam falls onto the stop, rebounds and settles (beta 2e-3 s, the
  // contact's damping). At rest: contact force F, penetration d and the
  // tip's sink w from restOnStop (the contact law 1e7 d^1.5 with the beam's
  // tip compliance 1/1050 m/N): about 3.6 N, 51 um. The penetration moves
  // the force by 1.5 %, so the tolerances (force 2e-5, positions 1e-9 m)
  // test it. What is left is the rotation's second order (slope 8e-3) and
  // the settling: measured 1.9e-6 in the force, 6e-11 m in the tip's
  // height. Both formulations (absolute coordinates, reduced).
  void tipRestsOnAStop() {
    const double R = 0.01, gap = 0.002, k = 1e7, e = 1.5;
    for (const char* formulation : {"absolute", "reduced"}) {
      FlexibleBodyDef beam = steelBeam(10, 2e-3);
      Mechanism m = cantilever(beam, {mk("stop", {kL, 0, -R - gap})});
      m.gravity = {0, 0, -g0};
      m.contacts = {sphereOn("stop", "ground.stop", "plane", {}, "beam.tip", R,
                             {{"stiffness", k}, {"exponent", e}, {"damping", 50.0}, {"depth", 1e-4}})};
      Project p = mechProject(m, 1.5, 1e-3, 1e-8);
      p.simulation.mechanism_formulation = formulation;
      auto r = simulate(p, "tip_on_stop");
      QVERIFY2(r->ok(), r->message().c_str());
      const double wFree = freeTipDeflection(beam);
      const Rest hand = restOnStop(wFree, gap, k, e);
      const double F = r->col("stop.normal_force").back(), d = r->col("stop.penetration").back();
      const double tipZ = r->col("beam_n10.z").back(), tipW = r->col("beam.tip_w").back();
      const auto in = r->col("stop.in_contact");
      const size_t first = std::find(in.begin(), in.end(), 1.0) - in.begin();
      qInfo("%s: free tip sink %.9g m (continuous beam %.9g m); at rest: force %.9g N (by hand %.9g), penetration "
            "%.6g m (%.6g), tip at z = %.9g m, tip_w %.9g m (by hand -%.9g m); first contact at %.4g s",
            formulation, wFree, kMu * g0 * std::pow(kL, 4) / (8 * kE * kIy), F, hand.F, d, hand.d, tipZ, tipW, hand.w,
            first < r->t.size() ? r->t[first] : -1.0);
      QVERIFY2(first > 0 && first < r->t.size(), "the tip falls onto the stop");
      QCOMPARE(in.back(), 1.0);
      CHECK_REL(F, hand.F, 2e-5);
      QVERIFY2(std::abs(d - hand.d) < 1e-9, "the penetration at the settled force");
      QVERIFY2(std::abs(tipZ + hand.w) < 1e-9, "the tip node's height");
      QVERIFY2(std::abs(tipW + hand.w) < 1e-9, "the beam's tip deflection");
      // The contact point: on the plane's normal through the sphere's centre
      // (the tip node), midway between the surfaces.
      QVERIFY(std::abs(r->col("stop.point_z").back() - (-R - gap - hand.d / 2)) < 1e-9);
      QVERIFY(std::abs(r->col("stop.point_x").back() - r->col("beam_n10.x").back()) < 1e-12);
      // The root carries the weight less the stop's force: M_y at the root
      // from the first segment, the lumped weights' moments less F L.
      double weightMoment = 0.0;
      const beam::FlexibleBeam b(beam::beamSpecOf(beam));
      for (int j = 1; j < b.nodeCount(); ++j) weightMoment += beam::nodeInertia(b, j).mass * g0 * b.nodeX(j);
      CHECK_REL(std::abs(r->col("beam_e0.My").back()), weightMoment - hand.F * kL, 2e-5);
    }
  }

  // A 50 g steel ball (radius 10 mm) moving at 1 m/s down onto a free
  // steel beam (no gravity, no damping), 0.1 m from its tip, where a
  // marker on node 9 carries a sphere of 5 mm (half the section's depth).
  // The contact is frictionless and undamped (1e8 N/m^1.5): nothing
  // dissipates. The ball bounces back (the beam, 1.57 kg, takes the
  // impulse and starts vibrating). Checked: the total linear momentum
  // (ball and the eleven node bodies) stays at the ball's 0.05 kg m/s to
  // 1e-12 of it (measured 1e-14), the angular momentum about the beam's
  // centre to 1e-9 (measured 1.5e-10); the mechanical energy (kinetic,
  // the beam's strain energy, the contact's) at its start, 25 mJ, to 1e-7
  // at rel_tol 1e-8 (measured 3e-8); the ball's momentum lost equals the
  // beam's centre-of-mass momentum gained, and the ball is free again by
  // the end.
  void ballStrikesAFreeBeam() {
    const double mb = 0.05, rb = 0.01, v0 = 1.0, rs = 0.005;
    FlexibleBodyDef beam = steelBeam(10);
    beam.markers.push_back({"hit", 9, {}});
    Mechanism m;
    m.gravity = {0, 0, 0};
    m.parts.push_back(ground({}));
    m.flexible_bodies.push_back(beam);
    PartDef ball = part("ball", mb, 0.4 * mb * rb * rb, {0.9, 0, rb + rs + 0.002}, {mk("c", {0, 0, 0})});
    ball.velocity = {0, 0, -v0};
    m.parts.push_back(ball);
    m.contacts = {sphereOn("strike", "beam.hit", "sphere", {{"radius", rs}}, "ball.c", rb,
                           {{"stiffness", 1e8}, {"exponent", 1.5}, {"damping", 0.0}, {"depth", 1e-4}})};
    auto r = simulate(mechProject(m, 0.05, 1e-5, 1e-8), "ball_on_beam");
    QVERIFY2(r->ok(), r->message().c_str());
    const std::vector<PartDef> bodies = movingParts(m);  // the ball and the node bodies
    const Eigen::Vector3d about(kL / 2, 0, 0);
    double pOff = 0.0, lOff = 0.0, eOff = 0.0, beamVz = 0.0, beamMass = 0.0;
    const auto E = r->col("mechanism.E_total");
    const size_t last = r->t.size() - 1;
    for (size_t i = 0; i < r->t.size(); ++i) {
      Eigen::Vector3d P = Eigen::Vector3d::Zero(), L = Eigen::Vector3d::Zero();
      for (const PartDef& b : bodies) {
        auto at = [&](const char* q) { return r->col(b.id + "." + q)[i]; };
        const Eigen::Vector3d x(at("x"), at("y"), at("z")), v(at("vx"), at("vy"), at("vz")), w(at("wx"), at("wy"), at("wz"));
        const Eigen::Matrix3d R = rotationFromRpy(Vec3{at("roll"), at("pitch"), at("yaw")});
        const Eigen::Vector3d J(b.inertia[0], b.inertia[1], b.inertia[2]);  // principal, part axes
        P += b.mass * v;
        L += b.mass * (x - about).cross(v) + R * J.asDiagonal() * R.transpose() * w;
      }
      pOff = std::max(pOff, (P - Eigen::Vector3d(0, 0, -mb * v0)).norm());
      lOff = std::max(lOff, (L - Eigen::Vector3d(0, mb * v0 * (0.9 - kL / 2), 0)).norm());
      eOff = std::max(eOff, std::abs(E[i] - E.front()));
    }
    for (const PartDef& b : bodies)
      if (b.id != "ball") beamVz += b.mass * r->col(b.id + ".vz")[last], beamMass += b.mass;
    const double ballVz = r->col("ball.vz")[last];
    const auto F = r->col("strike.normal_force");
    qInfo("peak force %.6g N; ball leaves at %.9g m/s, beam's centre of mass at %.9g m/s (%.9g kg m/s from the ball, "
          "%.9g in the beam); momentum off by %.3g, angular momentum by %.3g, energy by %.3g J of %.6g J",
          *std::max_element(F.begin(), F.end()), ballVz, beamVz / beamMass, mb * (ballVz + v0), beamVz, pOff, lOff,
          eOff, E.front());
    QCOMPARE(r->col("strike.in_contact")[last], 0.0);
    QVERIFY2(*std::max_element(F.begin(), F.end()) > 0.0, "the ball struck the beam");
    QVERIFY2(ballVz > 0.0, "the ball bounces back");
    CHECK_REL(E.front(), 0.5 * mb * v0 * v0, 1e-12);
    QVERIFY2(pOff < 1e-12 * mb * v0, "linear momentum kept");
    QVERIFY2(lOff < 1e-9 * mb * v0 * kL, "angular momentum kept");
    QVERIFY2(eOff < 1e-7 * E.front(), "energy kept by the undamped contact");
    CHECK_REL(beamVz, -mb * (ballVz + v0), 1e-9);
  }

  // projects/contact_spring_finger: a cylinder (16 mm bore, 5 bar) lowers a
  // carriage with a spring-steel finger (100 mm, 20 x 1 mm, 5 elements;
  // tip stiffness k = 3 E I / L^3 = 1050 N/m) until the piston sits on its
  // end stop, 4 mm after the finger's pad met the part. At rest (0.85 s,
  // the button still pressed): the pad's force F against the linear
  // finger, k (w + w_g) (w the tip's deflection relative to the clamped
  // root, w_g the sag under the finger's own weight, lumped as the engine
  // does), to 5e-3: the bending's second order, (w/L)^2 = 1.6e-3
  // (measured 1.7e-3); the same F exactly from statics, the root's bending
  // moment against F and the nodes' weights on their arms from the root
  // (1e-6); the table carrying F + m g (1e-6); and the force set by the
  // finger, not the supply: at 3 bar (gauge) instead of 5 the piston pushes
  // 40 N less onto its end stop, which gives 4 um back, and F drops 0.1 %:
  // by k times that change of the stroke, to 2 % (the bent finger's
  // tangent stiffness and the contacts in series). Released, the pad lifts
  // off and the part has not moved (1e-6 m).
  void springFingerExample() {
    const std::string path = projectPath("contact_spring_finger.pneumech.json");
    const Project pr = loadProject(path);
    Project lowSupply = pr;
    for (Component& c : lowSupply.components)
      if (c.id == "src") c.params["p"] = 401325.0;
    auto r = simulate(pr, path), low = simulate(lowSupply, path);
    QVERIFY2(r->ok(), r->message().c_str());
    QVERIFY2(low->ok(), low->message().c_str());
    const FlexibleBodyDef& d = pr.mechanism.flexible_bodies.at(0);
    const beam::FlexibleBeam b(beam::beamSpecOf(d));
    const double L = b.spec().length, EI = b.spec().material.E * b.spec().section.Iy, k = 3 * EI / (L * L * L);
    const size_t i = r->indexAt(0.85), last = r->t.size() - 1;
    const double F = r->col("press.normal_force")[i], w = r->col("finger.tip_w")[i], wg = freeTipDeflection(d);
    const size_t iLow = low->indexAt(0.85);
    const double Flow = low->col("press.normal_force")[iLow];
    const double dStroke = r->col("cyl.x")[i] - low->col("cyl.x")[iLow];
    // Statics of the finger about its root node: F on the tip's arm, the
    // weights of nodes 1..n on theirs.
    const int n = b.nodeCount() - 1;
    auto nodeX = [&](int j) { return r->col("finger_n" + std::to_string(j) + ".x")[i]; };
    double moment = F * (nodeX(n) - nodeX(0));
    for (int j = 1; j <= n; ++j) moment -= beam::nodeInertia(b, j).mass * g0 * (nodeX(j) - nodeX(0));
    const double mPart = pr.mechanism.part("part")->mass;
    qInfo("pad force %.8g N; linear finger %.8g N (tip %.6g mm, own sag %.4g mm); root moment %.8g N m, by statics "
          "%.8g; table %.8g N (F + m g %.8g); at 3 bar %.8g N, the stroke %.4g um shorter",
          F, k * (w + wg), 1e3 * w, 1e3 * wg, r->col("finger_e0.My")[i], moment, r->col("seat.normal_force")[i],
          F + mPart * g0, Flow, 1e6 * dStroke);
    QCOMPARE(r->col("press.in_contact")[i], 1.0);
    CHECK_REL(F, k * (w + wg), 5e-3);
    CHECK_REL(std::abs(r->col("finger_e0.My")[i]), std::abs(moment), 1e-6);
    CHECK_REL(r->col("seat.normal_force")[i], F + mPart * g0, 1e-6);
    QVERIFY2(std::abs(Flow - F) < 2e-3 * F, "the force set by the finger");
    CHECK_REL(F - Flow, k * dStroke, 2e-2);
    QCOMPARE(r->col("press.in_contact")[last], 0.0);
    QVERIFY(std::abs(r->col("part.x")[last] - r->col("part.x")[0]) < 1e-6);
  }
};

QTEST_GUILESS_MAIN(TestContactFlexible)
#include "test_contact_flexible.moc"
