// Flexible bodies inside the mechanism (issue #22, decision 0017): a beam
// of node bodies and element forces, run by the same engine as the rest of
// the machine, against closed forms:
//  - a cantilever pushed at its tip by a pneumatic cylinder (supply pressure
//    on A, ambient on B): v = F L^3 / (3 E I), F = (p_A - p_amb) A_A;
//  - its free vibration under a suddenly applied weight: the first bending
//    frequency against the discrete model's (lumped masses, the element
//    stiffness) and against 1.87510^2 sqrt(E I / (mu L^4)) / (2 pi);
//  - a very stiff beam swinging as a pendulum against one rigid part with
//    the same mass distribution;
//  - bad definitions are refused naming the file, the body and the field;
//  - a beam's supports: the bodies that reach the ground through joints
//    without passing through the beam (a bracket, a crank, another beam),
//    not a payload that hangs on it.
#include "mechanics/beam/beam_bodies.h"
#include "mechanics/beam/beam_modes.h"
#include "build/project_input.h"
#include "build/validation.h"
#include "io/project_file.h"
#include "model/ground_paths.h"
#include "model/project_error.h"
#include "support/mechanism_builders.h"
#include "support/steel_beam.h"
#include "support/test_project.h"

#include <QtTest>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kPi = std::numbers::pi;

// The ground's marker a cylinder pushing at the beam's tip hangs from.
const MarkerDef kBarrel = mk("barrel", {kL, -0.3, 0});

// A steel beam of Young's modulus E.
FlexibleBodyDef steelBeamOf(double E, int elements) {
  FlexibleBodyDef b = steelBeam(elements);
  b.material["E"] = E;
  return b;
}

}  // namespace

class TestFlexibleBody : public QObject {
  Q_OBJECT

 private slots:
  // The node bodies carry the beam's mass at its centre.
  void nodeBodiesCarryTheBeam() {
    const FlexibleBodyDef d = steelBeam(10);
    const Mechanism m = beam::withNodeBodies(cantilever(d, {kBarrel}));
    double mass = 0.0, first = 0.0;
    int nodes = 0;
    for (const PartDef& p : m.parts)
      if (p.id.rfind("beam_n", 0) == 0) mass += p.mass, first += p.mass * p.position[0], ++nodes;
    QCOMPARE(nodes, 11);
    CHECK_REL(mass, kMu * kL, 1e-14);
    CHECK_REL(first / mass, kL / 2, 1e-14);
    int segments = 0;
    for (const ForceDef& f : m.forces) segments += f.type == "beam_segment";
    QCOMPARE(segments, 10);
  }

  // Static tip deflection under a cylinder's force: the cylinder's chamber
  // A on a supply 0.1 bar over ambient, B on ambient, no friction; the run
  // settles (beam damping and the cylinder's viscous friction) to
  // v = F L^3 / (3 E I) with F = 1e4 Pa * pi (0.01 m)^2 / 4 = 0.785 N:
  // 1.87e-4 m, 1.9e-4 of the length. The elements are exact for end loads;
  // within an element the deformation is linear, so the rest is the
  // rotation's second order (1e-8) and the settling: tolerance 1e-6. The
  // same with the reduced formulation (decision 0013).
  void staticDeflectionUnderCylinder() {
    // Both formulations of the mechanism (absolute coordinates and reduced).
    for (auto [n, formulation] : {std::pair{1, "absolute"}, std::pair{10, "absolute"}, std::pair{10, "reduced"}}) {
      Project p = mechProject(cantilever(steelBeam(n, 2e-4), {kBarrel}), 1.0, 0.01, 1e-8);
      p.simulation.mechanism_formulation = formulation;
      const double pAmb = p.simulation.ambient_pressure, dp = 1e4, bore = 0.01;
      p.components.push_back(comp("sA", "supply", {{"p", pAmb + dp}}));
      p.components.push_back(comp("sB", "supply", {{"p", pAmb}}));
      p.components.push_back(comp("cyl", "cylinder_double",
                                  {{"bore", bore}, {"rod", 0.004}, {"stroke", 0.1}, {"x0", 0.05}, {"mass", 0.01},
                                   {"F_coulomb", 0.0}, {"F_static", 0.0}, {"c_viscous", 60.0}, {"pA0", pAmb + dp},
                                   {"pB0", pAmb}},
                                  {}, {{"attach", {{"barrel", "ground.barrel"}, {"rod", "beam.tip"}}}}));
      wire(p, "sA.1", "cyl.A");
      wire(p, "sB.1", "cyl.B");
      auto r = simulate(p, "cantilever");
      QVERIFY2(r->ok(), r->message().c_str());
      const double F = dp * kPi * bore * bore / 4.0;
      const double want = F * kL * kL * kL / (3.0 * kE * kIz);
      CHECK_REL(r->col("beam.tip_v").back(), want, 1e-6);
      QVERIFY(std::abs(r->col("beam.tip_w").back()) < 1e-9 * want);
      // The root moment: F L about z, from the first segment's resultants.
      CHECK_REL(r->col("beam_e0.Mz").back(), F * kL, 1e-6);
      // Largest stress at the root: M c / I.
      CHECK_REL(r->col("beam.max_stress").back(), F * kL * (kHy / 2) / kIz, 1e-6);
    }
  }

  // Free vibration: the cantilever's own weight (gravity along -y) applied
  // at t = 0 from the straight shape. Rayleigh beta = 2e-5 s damps mode 2
  // (zeta 0.7 %) faster than mode 1 (0.1 %, a 5e-7 shift of its frequency);
  // the upward crossings of the mean over 0.3 .. 1.3 s (16 periods) give
  // the frequency. Against the discrete model (lumped masses and the same
  // stiffness, solved here): 1e-4 (the crossings' sampling at 1e-4 s and
  // mode 2's remainder; measured 2e-5 and 4e-5). Against the closed form of
  // the continuous beam: the lumped masses converge as 1 / n^2, measured
  // 0.47 % low at 10 elements and 0.12 % at 20; tolerances 0.6 % and 0.15 %.
  void firstBendingFrequency() {
    const double closed = 1.87510407 * 1.87510407 * std::sqrt(kE * kIz / (kMu * std::pow(kL, 4))) / (2 * kPi);
    for (auto [n, tolClosed] : {std::pair{10, 6e-3}, std::pair{20, 1.5e-3}}) {
      const FlexibleBodyDef d = steelBeam(n, 2e-5);
      Mechanism m = cantilever(d, {kBarrel});
      m.gravity = {0, -9.80665, 0};
      auto r = simulate(mechProject(m, 1.3, 1e-4, 1e-8), "free vibration");
      QVERIFY2(r->ok(), r->message().c_str());
      const double f = r->meanFrequency("beam.tip_v", 0.3, 1.3), fd = discreteFrequency(d, 1);
      qInfo("n = %d: measured %.6f Hz, discrete model %.6f Hz, closed form %.6f Hz", n, f, fd, closed);
      CHECK_REL(f, fd, 1e-4);
      QVERIFY(f < closed);  // lumped masses: below the continuous beam's
      CHECK_REL(f, closed, tolClosed);
    }
  }

  // A marker offset from its node (file field markers[].position): a
  // bracket e = 0.2 m beyond the tip along the beam carries a sideways dead
  // load F; the tip node takes F and the moment F e, so the static tip
  // deflection is F L^3 / (3 E I) + F e L^2 / (2 E I) (exact for the
  // Hermite elements under end loads; the rest is the rotation's second
  // order, (v / L)^2 ~ 1e-8). A run with the beam overdamped (beta =
  // 0.02 s: the slowest decay rate is about 50 1/s) settled by 1 s;
  // tolerance 1e-6.
  void markerOffsetFromNode() {
    const double e = 0.2, F = 0.5;
    FlexibleBodyDef d = steelBeam(10, 0.02);
    d.markers.push_back({"bracket", 10, {}, {e, 0, 0}});
    Mechanism m = cantilever(d, {kBarrel});
    m.forces.push_back(force("load", "vforce", "beam.bracket", "", {{"fy", F}}));
    auto r = simulate(mechProject(m, 1.0, 0.1, 1e-8), "offset marker");
    QVERIFY2(r->ok(), r->message().c_str());
    const double want = F * kL * kL * kL / (3 * kE * kIz) + F * e * kL * kL / (2 * kE * kIz);
    CHECK_REL(r->col("beam.tip_v").back(), want, 1e-6);
    // The offset survives saving and loading.
    Project p = mechProject(m, 0.1, 0.1, 1e-8);
    const Project q = parseProjectText(serializeProject(p), "again");
    QCOMPARE(q.mechanism.flexible_bodies[0].markers.back().position[0], e);
  }

  // A steel beam, and one 10 times stiffer, pinned at its root about world
  // z and released horizontal under gravity along -y, swing like one rigid
  // part with the node bodies' mass, centre and inertia: the tip's path over
  // 0.3 s departs from the rigid one by the beam's bending under its own
  // swing, which falls as 1 / E (tolerance: a factor 5 for the tenfold
  // stiffness), below 1e-5 of the length at 10 E.
  void rigidLimit() {
    const double rtol = 1e-6, tEnd = 0.3;
    const beam::FlexibleBeam b(beam::beamSpecOf(steelBeam(10)));
    double mass = 0.0, Izz = 0.0, Iyy = 0.0, Ixx = 0.0;
    for (int j = 0; j < b.nodeCount(); ++j) {
      const beam::NodeInertia ni = beam::nodeInertia(b, j);
      mass += ni.mass;
      const double x = b.nodeX(j) - kL / 2;
      Ixx += ni.inertia[0], Iyy += ni.inertia[1] + ni.mass * x * x, Izz += ni.inertia[2] + ni.mass * x * x;
    }
    Mechanism rigid;
    rigid.gravity = {0, -9.80665, 0};
    rigid.parts.push_back(ground({mk("clamp", {0, 0, 0})}));
    PartDef bar = part("bar", mass, std::array<double, 6>{Ixx, Iyy, Izz, 0, 0, 0}, {0, 0, 0},
                       {mk("root", {0, 0, 0}), mk("tip", {kL, 0, 0})});
    bar.cm = {kL / 2, 0, 0};
    rigid.parts.push_back(bar);
    rigid.joints.push_back(joint("pin", "revolute", "bar.root", "ground.clamp"));
    auto r = simulate(mechProject(rigid, tEnd, 0.01, rtol), "rigid bar");
    QVERIFY2(r->ok(), r->message().c_str());
    const auto angle = r->col("pin.angle");
    QVERIFY(std::abs(angle.back()) > 0.5);  // it really swung

    std::vector<double> worst;
    for (double factor : {1.0, 10.0}) {
      Mechanism flex = cantilever(steelBeamOf(kE * factor, 10), {kBarrel});
      flex.gravity = rigid.gravity;
      flex.joints[0].type = "revolute";  // about the markers' common z: world z
      auto a = simulate(mechProject(flex, tEnd, 0.01, rtol), "stiff beam");
      QVERIFY2(a->ok(), a->message().c_str());
      const auto fx = a->col("beam_n10.x"), fy = a->col("beam_n10.y");
      QCOMPARE(fx.size(), angle.size());
      double w = 0.0;
      for (size_t i = 0; i < angle.size(); ++i)
        w = std::max(w, std::hypot(fx[i] - kL * std::cos(angle[i]), fy[i] - kL * std::sin(angle[i])));
      qInfo("E x %g: the tip's path departs from the rigid bar's by %.3g m", factor, w);
      worst.push_back(w);
    }
    QVERIFY2(worst[1] < 1e-5 * kL, qPrintable(QString::number(worst[1])));
    QVERIFY2(worst[0] > 5.0 * worst[1], qPrintable(QString("%1 vs %2").arg(worst[0]).arg(worst[1])));
  }

  // Ground -weld- bracket -pin- beam -weld- payload -pin- arm; ground -pin-
  // crank -pin- beam; ground -pin- other beam. Around the beam, the payload
  // and the arm hang on it only; through it, they reach the ground too.
  void supportsReachTheGroundAroundTheBeam() {
    Mechanism m;
    for (const char* id : {"base", "bracket", "payload", "arm", "crank", "loose"}) {
      PartDef p;
      p.id = id;
      p.ground = p.id == "base";
      m.parts.push_back(p);
    }
    for (const char* id : {"beam", "other"}) {
      FlexibleBodyDef d;
      d.id = id;
      m.flexible_bodies.push_back(d);
    }
    auto join = [&](const char* type, const std::string& i, const std::string& j) {
      JointDef d;
      d.id = i + "-" + j;
      d.type = type;
      d.i = i + ".m";
      d.j = j + ".m";
      m.joints.push_back(d);
    };
    join("fixed", "bracket", "base");
    join("revolute", "beam", "bracket");
    join("fixed", "payload", "beam");
    join("revolute", "arm", "payload");
    join("revolute", "crank", "base");
    join("revolute", "beam", "crank");
    join("revolute", "base", "other");
    JointDef gear;
    gear.id = "gear";
    gear.type = "coupler";
    gear.joints = {"beam-crank", "arm-payload"};
    m.joints.push_back(gear);
    using Ids = std::set<std::string>;
    QCOMPARE(bodiesReachingGround(m, "beam"), (Ids{"base", "bracket", "crank", "other"}));
    QCOMPARE(bodiesReachingGround(m), (Ids{"base", "bracket", "crank", "other", "beam", "payload", "arm"}));
    QCOMPARE(bodiesReachingGround(m, "bracket"), (Ids{"base", "crank", "other", "beam", "payload", "arm"}));
  }

  // The example's flexible body survives saving and loading unchanged.
  void fileRoundTrip() {
    const Project a = loadProject(projectPath("flexible_swing_arm.pneumech.json"));
    QCOMPARE(a.mechanism.flexible_bodies.size(), size_t(1));
    QCOMPARE(a.mechanism.flexible_bodies[0].markers.size(), size_t(3));
    const Project b = parseProjectText(serializeProject(a), "again");
    QVERIFY(a.mechanism == b.mechanism);
  }

  // Errors name the file, the flexible body and the field.
  void badDefinitionsAreNamed() {
    auto expect = [](FlexibleBodyDef d, const char* field) {
      Project p = mechProject(cantilever(d, {kBarrel}), 0.1, 0.01, 1e-6);
      try {
        validateMechanism(p.mechanism, "arm.pneumech.json");
        QFAIL(qPrintable(QString("no error for ") + field));
      } catch (const ProjectError& e) {
        const std::string w = e.what();
        QVERIFY2(w.find("arm.pneumech.json") != std::string::npos && w.find("beam") != std::string::npos &&
                     w.find(field) != std::string::npos,
                 w.c_str());
      }
    };
    FlexibleBodyDef d = steelBeam(10);
    d.length = -1;
    expect(d, "length");
    d = steelBeam(10);
    d.elements = 0;
    expect(d, "elements");
    d = steelBeam(10);
    d.section.erase("bz");
    expect(d, "section.bz");
    d = steelBeam(10);
    d.material["G"] = 80e9;
    expect(d, "material.G");
    d = steelBeam(10);
    d.damping = {{"alpha", 1.0}};
    expect(d, "damping.alpha");
    d = steelBeam(10);
    d.markers.push_back({"far", 11, {}});
    expect(d, "markers.far.node");
    d = steelBeam(10);
    d.section_shape = "hexagon";
    expect(d, "section.shape");
    d = steelBeam(10);
    Mechanism m = cantilever(d, {kBarrel});
    m.joints[0].i = "beam.nowhere";
    try {
      validateMechanism(m, "arm.pneumech.json");
      QFAIL("no error for a missing beam marker");
    } catch (const ProjectError& e) {
      QVERIFY2(std::string(e.what()).find("flexible body 'beam' has no marker 'nowhere'") != std::string::npos, e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestFlexibleBody)
#include "test_flexible_body.moc"
