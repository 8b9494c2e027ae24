// The start of a mechanism (issue 20, point 3): a coupler holds q1 + ratio
// q2 at the value the user placed, with or without motions; joint initial
// conditions ("initial": {"angle", "rate"} on a revolute joint, ADAMS's
// joint IC) are met exactly by the assembly and the velocity projection,
// the other links following the loop's closed-form velocity analysis;
// over-specified sets are refused naming the joints; what the assembly and
// the projection change of the user's input is said in a message. Each in
// the absolute and the reduced formulation (the start must not depend on it).
#include "io/mechanism_file.h"
#include "mechanics/mechanism_element.h"
#include "mechanics/multibody.h"
#include "model/project_error.h"
#include "support/mechanism_builders.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;
using nlohmann::json;

namespace {

// Two discs on revolute joints ja, jb about the world z-axis, 0.2 m apart,
// placed at qa and qb, coupled q_a + ratio q_b = const; a torque tz on b.
Mechanism coupledDiscs(double qa, double qb, double ratio, double tz) {
  Mechanism m;
  m.gravity = {0, 0, 0};
  PartDef a = part("disc_a", 1.0, 1e-3, {0, 0, 0}, {mk("o", {0, 0, 0})});
  PartDef b = part("disc_b", 1.0, 2e-3, {0.2, 0, 0}, {mk("o", {0, 0, 0})});
  a.orientation = {0, 0, qa};
  b.orientation = {0, 0, qb};
  m.parts = {ground({mk("a", {0, 0, 0}), mk("b", {0.2, 0, 0})}), a, b};
  m.joints.push_back(joint("ja", "revolute", "disc_a.o", "ground.a"));
  m.joints.push_back(joint("jb", "revolute", "disc_b.o", "ground.b"));
  JointDef gear;
  gear.id = "gear";
  gear.type = "coupler";
  gear.joints = {"ja", "jb"};
  gear.params = {{"ratio", ratio}};
  m.joints.push_back(gear);
  ForceDef tq;
  tq.id = "load";
  tq.type = "vtorque";
  tq.i = "disc_b.o";
  tq.params = {{"tz", tz}};
  m.forces.push_back(tq);
  return m;
}

// The mechanism through the file format with `initial` objects added to
// joints ({joint id: {"angle": ..., "rate": ...}}), as a user writes them.
Mechanism withInitial(const Mechanism& m, const std::map<std::string, json>& initial) {
  json j = serializeMechanism(m);
  for (json& jt : j["joints"])
    if (initial.count(jt["id"].get<std::string>())) jt["initial"] = initial.at(jt["id"].get<std::string>());
  return parseMechanism(j, "test");
}

std::vector<std::string> messagesOf(const Run& r) { return mechanismOf(r.sim->system())->multibody().messages(); }

bool anyMessage(const std::vector<std::string>& ms, const std::string& part) {
  for (const std::string& m : ms)
    if (m.find(part) != std::string::npos) return true;
  return false;
}

// A short run of the mechanism alone, in one formulation.
std::unique_ptr<Run> start(const Mechanism& m, const std::string& formulation) {
  Project p = mechProject(m, 0.01, 0.005, 1e-8);
  p.simulation.mechanism_formulation = formulation;
  return simulate(p, formulation);
}

// The error compiling `m` gives (a ProjectError), or "" when it compiles.
std::string refusal(const Mechanism& m, std::string* object = nullptr, std::string* field = nullptr) {
  Project p = mechProject(m, 0.01, 0.005, 1e-8);
  try {
    Simulation sim(p, "test");
  } catch (const ProjectError& e) {
    if (object) *object = e.object();
    if (field) *field = e.field();
    return e.what();
  }
  return {};
}

const char* const kFormulations[] = {"absolute", "reduced"};

}  // namespace

class TestMechanicsInitialConditions : public QObject {
  Q_OBJECT
 private slots:
  // Two discs placed at 0.3 and 0 rad, coupled 1:1 (ratio -1) without any
  // motion, start where they were placed (the assembly used to enforce
  // q_a - q_b = 0: both started at 0.15 rad) and keep q_a - q_b = 0.3 while
  // a torque turns them. No part is said to have moved.
  void couplerKeepsThePlacedStart() {
    for (const char* f : kFormulations) {
      auto r = start(coupledDiscs(0.3, 0.0, -1.0, 0.05), f);
      REQUIRE_OK(r);
      qInfo("%s: ja %.15g jb %.15g", f, r->col("ja.angle")[0], r->col("jb.angle")[0]);
      CHECK_ABS(r->col("ja.angle")[0], 0.3, 1e-12);
      CHECK_ABS(r->col("jb.angle")[0], 0.0, 1e-12);
      const auto qa = r->col("ja.angle"), qb = r->col("jb.angle");
      QVERIFY(qa.back() > 0.3 + 1e-4);  // the torque turned them
      for (size_t i = 0; i < qa.size(); ++i) CHECK_ABS(qa[i] - qb[i], 0.3, 1e-8);
      QVERIFY(!anyMessage(messagesOf(*r), "assembly moved"));
    }
  }

  // A ratio other than -1, with the second disc placed off zero too.
  void couplerRatioTwo() {
    auto r = start(coupledDiscs(0.3, -0.2, 2.0, 0.0), "absolute");
    REQUIRE_OK(r);
    CHECK_ABS(r->col("ja.angle")[0], 0.3, 1e-12);
    CHECK_ABS(r->col("jb.angle")[0], -0.2, 1e-12);
  }

  // A crank rate as a joint initial condition: the slider-crank (placed at
  // 0.7 rad, every part at rest) starts with exactly that crank rate, the
  // slider and the rod at the closed-form rates of the loop.
  void jointRateInitialCondition() {
    const double th = 0.7, w = 5.236;
    const Mechanism m = withInitial(SliderCrank::placed(th), {{"crank_pivot", {{"rate", w}}}});
    for (const char* f : kFormulations) {
      auto r = start(m, f);
      REQUIRE_OK(r);
      CHECK_ABS(r->col("crank_pivot.rate")[0], w, 1e-10);
      CHECK_ABS(r->col("crank.wz")[0], w, 1e-10);
      CHECK_ABS(r->col("slider.vx")[0], SliderCrank::v(th, w), 1e-10);
      CHECK_ABS(r->col("guide.velocity")[0], SliderCrank::v(th, w), 1e-10);
      CHECK_ABS(r->col("rod.wz")[0], SliderCrank::rodRate(th, w), 1e-10);
      CHECK_ABS(r->col("crank_pin.rate")[0], SliderCrank::rodRate(th, w) - w, 1e-10);
      // The pose is the placed one: nothing moved, no velocity given changed.
      CHECK_ABS(r->col("crank_pivot.angle")[0], th, 1e-12);
      QVERIFY(!anyMessage(messagesOf(*r), "assembly moved"));
      QVERIFY(!anyMessage(messagesOf(*r), "velocity projection changed"));
    }
  }

  // A crank angle as a joint initial condition: placed at 0.3 rad, started
  // at 1.2 rad, the loop closed there (slider at x(1.2), rod at psi(1.2));
  // with a rate too, the velocities are those at 1.2 rad. The message names
  // the parts the assembly moved.
  void jointAngleInitialCondition() {
    const double placed = 0.3, th = 1.2, w = -3.0;
    const Mechanism m = withInitial(SliderCrank::placed(placed), {{"crank_pivot", {{"angle", th}, {"rate", w}}}});
    for (const char* f : kFormulations) {
      auto r = start(m, f);
      REQUIRE_OK(r);
      CHECK_ABS(r->col("crank_pivot.angle")[0], th, 1e-12);
      CHECK_ABS(r->col("slider.x")[0], SliderCrank::x(th), 1e-12);
      CHECK_ABS(r->col("guide.displacement")[0], SliderCrank::x(th), 1e-12);
      CHECK_ABS(r->col("rod.yaw")[0], SliderCrank::rodAngle(th), 1e-12);
      CHECK_ABS(r->col("rod.x")[0], SliderCrank::r * std::cos(th), 1e-12);
      CHECK_ABS(r->col("rod.y")[0], SliderCrank::r * std::sin(th), 1e-12);
      QVERIFY(r->col("mechanism.residual_position")[0] < 1e-12);
      CHECK_ABS(r->col("crank_pivot.rate")[0], w, 1e-10);
      CHECK_ABS(r->col("slider.vx")[0], SliderCrank::v(th, w), 1e-10);
      CHECK_ABS(r->col("rod.wz")[0], SliderCrank::rodRate(th, w), 1e-10);
      const auto ms = messagesOf(*r);
      for (const auto& s : ms) qInfo("%s", s.c_str());
      QVERIFY(anyMessage(ms, "assembly moved"));
      QVERIFY(anyMessage(ms, "'crank' by"));
      QVERIFY(anyMessage(ms, "'slider' by"));
    }
  }

  // An initial angle beyond half a turn counts turns like the joint's angle.
  void jointAngleInitialConditionTurns() {
    const double th = 0.4 + 2 * std::numbers::pi;
    auto r = start(withInitial(SliderCrank::placed(0.3), {{"crank_pivot", {{"angle", th}}}}), "absolute");
    REQUIRE_OK(r);
    CHECK_ABS(r->col("crank_pivot.angle")[0], th, 1e-12);
    CHECK_ABS(r->col("slider.x")[0], SliderCrank::x(th), 1e-12);
  }

  // The slider-crank has one degree of freedom: a crank rate and a slider
  // velocity together are refused, naming both joints, and so are two
  // angles; an initial rate on a joint a motion drives is refused too.
  void overSpecifiedRefused() {
    std::string object, field;
    std::string e = refusal(withInitial(SliderCrank::placed(0.7), {{"crank_pivot", {{"rate", 5.0}}}, {"guide", {{"velocity", 0.1}}}}),
                            &object, &field);
    qInfo("%s", e.c_str());
    QCOMPARE(object, std::string("guide"));
    QCOMPARE(field, std::string("initial.velocity"));
    QVERIFY(e.find("1 degree(s) of freedom") != std::string::npos);
    QVERIFY(e.find("'crank_pivot', 'guide'") != std::string::npos);

    e = refusal(withInitial(SliderCrank::placed(0.7), {{"crank_pivot", {{"angle", 0.9}}}, {"crank_pin", {{"angle", -1.0}}}}),
                &object, &field);
    qInfo("%s", e.c_str());
    QCOMPARE(object, std::string("crank_pin"));
    QCOMPARE(field, std::string("initial.angle"));
    QVERIFY(e.find("'crank_pivot', 'crank_pin'") != std::string::npos);

    Mechanism driven = withInitial(SliderCrank::placed(0.7), {{"crank_pivot", {{"rate", 5.0}}}});
    MotionDef mo;
    mo.id = "drive";
    mo.joint = "crank_pivot";
    mo.quantity = "velocity";
    mo.params = {{"value", 2.0}};
    driven.motions.push_back(mo);
    e = refusal(driven, &object, &field);
    qInfo("%s", e.c_str());
    QCOMPARE(object, std::string("crank_pivot"));
    QVERIFY(e.find("0 degree(s) of freedom") != std::string::npos);

    // One of each is fine: a position and a rate are not counted together.
    QCOMPARE(refusal(withInitial(SliderCrank::placed(0.7), {{"crank_pivot", {{"angle", 0.9}}}, {"guide", {{"velocity", 0.1}}}})),
             std::string());
  }

  // The file format: names by joint type, unknown names and types refused.
  void fileFormat() {
    const Mechanism m = withInitial(SliderCrank::placed(0.7), {{"crank_pivot", {{"angle", 0.9}, {"rate", 2.0}}},
                                                       {"guide", {{"displacement", 0.19}}}});
    QCOMPARE(m.joints[0].initial.value.value(), 0.9);
    QCOMPARE(m.joints[0].initial.rate.value(), 2.0);
    QCOMPARE(m.joints[3].initial.value.value(), 0.19);
    QVERIFY(!m.joints[3].initial.rate);
    QVERIFY(m.joints[1].initial.empty());
    QVERIFY(parseMechanism(serializeMechanism(m), "test") == m);  // round trip
    auto refused = [](const std::map<std::string, json>& ic, const std::string& field) {
      try {
        withInitial(SliderCrank::placed(0.7), ic);
      } catch (const ProjectError& e) {
        qInfo("%s", e.what());
        return e.field() == field;
      }
      return false;
    };
    QVERIFY(refused({{"guide", {{"angle", 0.1}}}}, "initial.angle"));
    QVERIFY(refused({{"crank_pivot", {{"velocity", 0.1}}}}, "initial.velocity"));
    QVERIFY(refused({{"crank_pivot", {{"rate", "fast"}}}}, "initial.rate"));
    QVERIFY(refused({{"crank_pivot", 3.0}}, "initial"));
    Mechanism sph = SliderCrank::placed(0.7);
    sph.joints[1].type = "spherical";
    bool ok = false;
    try {
      withInitial(sph, {{"crank_pin", {{"angle", 0.1}}}});
    } catch (const ProjectError& e) {
      ok = e.field() == "initial" && std::string(e.what()).find("revolute, translational or cylindrical") != std::string::npos;
    }
    QVERIFY(ok);
  }

  // An initial rate a dead centre makes impossible: at th = 0 the slider's
  // velocity is zero whatever the crank does, so a slider velocity cannot be given.
  void deadCentreRefused() {
    std::string object;
    const std::string e = refusal(withInitial(SliderCrank::placed(0.0), {{"guide", {{"velocity", 0.1}}}}), &object);
    qInfo("%s", e.c_str());
    QCOMPARE(object, std::string("guide"));
  }

  // The crank given 5.236 rad/s as the part's angular velocity (no joint
  // initial condition, the other parts at rest): the projection changes it
  // (minimum-norm over every part) and says so, with the value it starts at.
  void changedVelocityIsReported() {
    const double th = 0.7, w = 5.236;
    Mechanism m = SliderCrank::placed(th);
    m.parts[1].angular_velocity = {0, 0, w};
    auto r = start(m, "absolute");
    REQUIRE_OK(r);
    const double w0 = r->col("crank.wz")[0];
    qInfo("crank starts at %.6g rad/s", w0);
    QVERIFY(std::abs(w0 - w) > 0.1);
    const auto ms = messagesOf(*r);
    for (const auto& s : ms) qInfo("%s", s.c_str());
    QVERIFY(anyMessage(ms, "velocity projection changed"));
    QVERIFY(anyMessage(ms, "'crank' angular velocity (0, 0, 5.236) -> "));
    // The loop's velocities are consistent with the rate it starts at.
    CHECK_ABS(r->col("slider.vx")[0], SliderCrank::v(th, w0), 1e-10);
  }
};

QTEST_GUILESS_MAIN(TestMechanicsInitialConditions)
#include "test_mechanics_initial_conditions.moc"
