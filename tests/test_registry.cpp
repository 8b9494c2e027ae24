// Every registered type can be used: each component type of the registry
// (pneumatic and control) and each joint, force and motion type of the
// mechanism is placed in a minimal project with its defaults, wired as its
// declared ports and inputs ask, and simulated for 0.05 s through what the
// CLI runs (serialized, parsed, compiled, integrated). The types are
// iterated, never listed: a new one is covered on registration. A type that
// fails is named, with its message; all failures are reported together.
//
// Wiring, from the declarations alone:
//  - the component's data is the type's initial_data (null for most);
//  - each pneumatic port gets a 1 l reservoir of its own: 6 bar abs on a
//    port "1" (the ISO 5599 supply port), ambient on the others;
//  - each signal input (required or not) reads a constant source of 1;
//  - mechanical ports stay free (the component then moves by itself);
//  - a sealed reservoir besides, so that there is always a state to integrate;
//  - a type with a mechanical port runs again attached to a joint.
// A joint type with markers joins a 1 kg part to the ground; one without
// (a coupler) couples two revolute joints; a force acts between a free part
// and the ground; each motion function, as displacement and as velocity,
// drives a revolute joint.
#include "build/project_input.h"
#include "model/mechanism_types.h"
#include "model/component_type.h"
#include "model/project_error.h"
#include "solver/system.h"
#include "support/mechanism_builders.h"
#include "support/test_project.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kTEnd = 0.05;

// "" when the project runs to t_end with finite results, else what went wrong.
std::string tryRun(const Project& built, const std::string& name) {
  try {
    // The CLI's path: the file text, its parser (which checks it), the run.
    const Project p = parseProject(serializeProject(built), name);
    auto run = runProject(p, name, OutputRows::Solver);
    if (!run->ok()) return run->message();
    if (run->t.empty() || std::abs(run->t.back() - kTEnd) > 1e-9)
      return "stopped at t = " + (run->t.empty() ? std::string("(no rows)") : std::to_string(run->t.back()));
    const auto& ch = run->out.channels();
    for (size_t c = 0; c < ch.size(); ++c)
      for (double v : run->out.column(static_cast<int>(c)))
        if (!std::isfinite(v)) return "channel " + ch[c].name + " is not finite";
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

void settle(Project& p) { settings(p, kTEnd, 1e-3); }

// The component under test ("dut") and whatever its declaration asks for.
Project componentProject(const ComponentType& t) {
  Project p;
  Component dut = comp("dut", t.name, {}, {}, t.initial_data);
  for (const InputDecl& in : t.inputs) {
    const std::string src = "u_" + in.name;
    p.components.push_back(comp(src, "constant", {{"value", 1.0}}));
    dut.inputs[in.name] = src + ".out";
  }
  p.components.push_back(dut);
  // Something to integrate: a project of signal blocks alone has no states,
  // and the solver refuses it as soon as it has events.
  p.components.push_back(comp("anchor", "reservoir"));
  for (const PortDecl& port : t.ports) {
    if (port.domain != Domain::Pneumatic) continue;
    const std::string vol = "v_" + port.name;
    p.components.push_back(comp(vol, "reservoir", {{"V", 1e-3}, {"p0", port.name == "1" ? 6e5 : 101325.0}}));
    wire(p, "dut." + port.name, vol + ".1");
  }
  settle(p);
  return p;
}

// Ground with a marker at the origin; one moving part "link" with a marker
// "m" away from it (no two markers coincide, so every line of action exists).
Mechanism groundAndLink() {
  Mechanism m;
  m.parts = {ground({mk("g", {0, 0, 0}), mk("g2", {0.3, 0, 0})}),
             part("link", 1.0, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0.05, 0.03, 0.1}, {mk("m", {0, 0, 0})})};
  return m;
}

Project mechanismProject(Mechanism m) {
  Project p;
  p.mechanism = std::move(m);
  settle(p);
  return p;
}

// A defective type: its element reads a parameter it never declared.
class ReadsUndeclared : public Element {
 public:
  explicit ReadsUndeclared(const Component& c) : Element(c.id) { (void)Params(c)("undeclared"); }
  static ComponentType declare() {
    ComponentType t;
    t.name = "test_reads_undeclared";
    t.category = "Test";
    t.create = [](const Component& c) { return std::make_unique<ReadsUndeclared>(c); };
    return t;
  }
  void setup(SystemBuilder&) override {}
  void evaluate(Eval&) override {}
  void output(const Eval&, double*) override {}
};

}  // namespace

class TestRegistry : public QObject {
  Q_OBJECT

 private:
  // Each failure on a line of its own (a long QVERIFY2 message is cut).
  static void report(const std::vector<std::string>& failures, int tried) {
    std::string names;
    for (const auto& f : failures) {
      qWarning("cannot be used: %s", f.c_str());
      names += (names.empty() ? "" : ", ") + f.substr(0, f.find(':'));
    }
    qInfo("%d types tried, %d failed", tried, static_cast<int>(failures.size()));
    QVERIFY2(failures.empty(), qPrintable(QString::fromStdString("types that cannot be used: " + names)));
  }

 private slots:
  void everyComponentTypeRuns() {
    std::vector<std::string> failures;
    int tried = 0;
    for (const ComponentType* t : Registry::instance().all()) {
      ++tried;
      const std::string err = tryRun(componentProject(*t), t->name);
      if (!err.empty()) failures.push_back(t->name + ": " + err);
    }
    QVERIFY(tried > 40);  // the registry really was iterated
    report(failures, tried);
  }

  // A type with a mechanical port also drives a mechanism: attached
  // (data.attach.joint) to a joint with a coordinate (a type with limits:
  // revolute, translational, cylindrical) between the link and the ground,
  // it must run on at least one of them; the attempts are reported if none.
  void everyMechanicalPortAttaches() {
    std::vector<std::string> failures;
    int tried = 0;
    for (const ComponentType* t : Registry::instance().all()) {
      if (std::none_of(t->ports.begin(), t->ports.end(), [](const PortDecl& p) { return p.domain == Domain::Mechanical; }))
        continue;
      ++tried;
      std::string attempts;
      bool ran = false;
      for (const MechTypeDecl& d : jointTypes()) {
        if (!d.param("lower")) continue;
        Project p = componentProject(*t);
        p.mechanism = groundAndLink();
        p.mechanism.joints = {joint("j", d.name, "link.m", "ground.g")};
        Component* dut = p.find("dut");
        if (!dut->data.is_object()) dut->data = nlohmann::json::object();
        dut->data["attach"] = {{"joint", "j"}};
        const std::string err = tryRun(p, t->name + " on a " + d.name + " joint");
        if (err.empty()) {
          ran = true;
          break;
        }
        attempts += " [" + d.name + ": " + err + "]";
      }
      if (!ran) failures.push_back(t->name + " (attached):" + attempts);
    }
    QVERIFY(tried >= 1);
    report(failures, tried);
  }

  void everyJointTypeRuns() {
    std::vector<std::string> failures;
    for (const MechTypeDecl& d : jointTypes()) {
      Mechanism m = groundAndLink();
      if (d.markers == 0) {
        // Couples joints: two revolutes, the link's and a second disc's.
        m.parts.push_back(part("disc", 1.0, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0.3, 0, 0}, {mk("m", {0, 0, 0})}));
        m.joints = {joint("r1", "revolute", "link.m", "ground.g"), joint("r2", "revolute", "disc.m", "ground.g2")};
        JointDef c = joint("dut", d.name, "", "");
        c.joints = {"r1", "r2"};
        m.joints.push_back(c);
      } else {
        m.joints = {joint("dut", d.name, "link.m", "ground.g")};
      }
      const std::string err = tryRun(mechanismProject(m), "joint " + d.name);
      if (!err.empty()) failures.push_back("joint " + d.name + ": " + err);
    }
    report(failures, static_cast<int>(jointTypes().size()));
  }

  void everyForceTypeRuns() {
    std::vector<std::string> failures;
    for (const MechTypeDecl& d : forceTypes()) {
      Mechanism m = groundAndLink();  // the link is free: the force and gravity move it
      ForceDef f;
      f.id = "dut";
      f.type = d.name;
      f.i = "link.m";
      f.j = "ground.g";
      m.forces = {f};
      const std::string err = tryRun(mechanismProject(m), "force " + d.name);
      if (!err.empty()) failures.push_back("force " + d.name + ": " + err);
    }
    report(failures, static_cast<int>(forceTypes().size()));
  }

  void everyMotionFunctionRuns() {
    std::vector<std::string> failures;
    int tried = 0;
    for (const MechTypeDecl& d : motionFunctions())
      for (const char* quantity : {"displacement", "velocity"}) {
        ++tried;
        Mechanism m = groundAndLink();
        m.joints = {joint("r", "revolute", "link.m", "ground.g")};
        MotionDef mo;
        mo.id = "dut";
        mo.joint = "r";
        mo.quantity = quantity;
        mo.function = d.name;
        if (d.params.empty()) mo.table = {{{0.0, 0.0}}, {{kTEnd, 0.1}}};  // a function of a table alone
        m.motions = {mo};
        const std::string what = "motion " + d.name + " (" + quantity + ")";
        const std::string err = tryRun(mechanismProject(m), what);
        if (!err.empty()) failures.push_back(what + ": " + err);
      }
    report(failures, tried);
  }

  // Errors in a type's data name the field of the file: "data" for the
  // whole, "data.points[1]" for a part, even when the message quotes the
  // expected form with a ": " of its own.
  void dataErrorsNameTheirField() {
    auto fieldOf = [](const nlohmann::json& data) -> std::string {
      Project p;
      p.components = {comp("anchor", "reservoir"), comp("tt", "time_table", {}, {}, data)};
      settle(p);
      try {
        Simulation sim(p, "rig.json");
      } catch (const ProjectError& e) {
        qInfo("%s", e.what());
        return e.object() + " " + e.field();
      }
      return "(accepted)";
    };
    QCOMPARE(fieldOf(nullptr), std::string("tt data"));
    QCOMPARE(fieldOf(nlohmann::json::parse(R"({"points": [[0, 0], [0, 1]]})")), std::string("tt data.points[1]"));
  }

  // A type that reads a parameter it does not declare is the program's
  // defect, not the project's: an internal error (exit 1, not 2) that names
  // the object and type and blames no field of the file. Stays last: it adds
  // the broken type to the registry the slots above iterate.
  void undeclaredParameterIsAnInternalError() {
    Registry::instance().add(ReadsUndeclared::declare());
    Project p;
    p.components = {comp("bad", "test_reads_undeclared")};
    settle(p);
    try {
      Simulation sim(p, "rig.json");
      QFAIL("a type reading an undeclared parameter compiled");
    } catch (const ProjectError& e) {
      QFAIL(qPrintable(QString("reported as a fault of the project: ") + e.what()));
    } catch (const std::logic_error& e) {
      const std::string w = e.what();
      qInfo("%s", e.what());
      QVERIFY(w.find("rig.json: object 'bad' (test_reads_undeclared): internal error, not a fault of the project") == 0);
      QVERIFY(w.find("'undeclared' it does not declare") != std::string::npos);
      QVERIFY(w.find("field") == std::string::npos);
    }
  }
};

QTEST_APPLESS_MAIN(TestRegistry)
#include "test_registry.moc"
