// Sub-circuits (issue 24, docs/user-components.md): a group of components
// saved as one type with its own ports. Seed 003's meter-out circuit with
// its valve and flow control packed into one block gives the flat circuit's
// results to the bit, nested or not; the block's parameters reach inside;
// a bad definition names the file, the sub-circuit and the port.
#include "support/test_project.h"

#include "build/project_input.h"
#include "engine/engine.h"
#include "io/project_file.h"
#include "io/subcircuit_file.h"
#include "model/project_error.h"
#include "user/user_component.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <sstream>

using namespace pm;
using namespace pm::test;
using nlohmann::json;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `name` with every `prefix` removed ("vfc.v1.x" -> "v1.x", "n:vfc.fc1.1" -> "n:fc1.1").
std::string unprefixed(std::string name, const std::vector<std::string>& prefixes) {
  for (const std::string& p : prefixes)
    for (size_t at = name.find(p); at != std::string::npos; at = name.find(p)) name.erase(at, p.size());
  return name;
}

// Whether two runs have the same times and, channel by channel (the packed
// run's names with `prefixes` removed), the same values bit for bit.
// What differs first in `why`.
bool bitIdentical(const Run& packed, const Run& flat, const std::vector<std::string>& prefixes, std::string& why) {
  if (packed.t.size() != flat.t.size() ||
      std::memcmp(packed.t.data(), flat.t.data(), packed.t.size() * sizeof(double)) != 0) {
    why = "the output times";
    return false;
  }
  const auto& a = packed.out.channels();
  const auto& b = flat.out.channels();
  if (a.size() != b.size()) {
    why = std::to_string(a.size()) + " channels against " + std::to_string(b.size());
    return false;
  }
  for (size_t c = 0; c < a.size(); ++c) {
    const std::string name = unprefixed(a[c].name, prefixes);
    if (name != b[c].name) {
      why = "channel " + std::to_string(c) + ": " + a[c].name + " against " + b[c].name;
      return false;
    }
    const auto x = packed.out.column(static_cast<int>(c)), y = flat.out.column(static_cast<int>(c));
    if (std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) != 0) {
      why = "the values of " + a[c].name;
      return false;
    }
  }
  return true;
}

json subcircuitSection() {
  return json::parse(readText(projectPath("user_components/seed003_subcircuit.pneumech.json")))["subcircuits"];
}

// The message reading `def` as a one-file sub-circuit library gives ("" when it loads).
std::string libraryError(const json& def, std::string* file = nullptr) {
  QTemporaryDir dir;
  const std::string path = dir.path().toStdString() + "/block.json";
  std::ofstream(path) << def.dump(2);
  if (file) *file = path;
  try {
    user::loadLibrary(dir.path().toStdString(), registerSubcircuit);
  } catch (const ProjectError& e) {
    return e.what();
  }
  return {};
}

// A cylinder that a step sequence inside the same sub-circuit drives out
// and back once: its limit switches a0 (retracted) and a1 (extended) are
// named in the sequence's step conditions (data.steps[].when[]).
json reciprocatorInside() {
  return json::parse(R"({
    "components": [
      {"id": "A", "type": "cylinder_double",
       "params": {"bore": 0.032, "rod": 0.012, "stroke": 0.1, "mass": 2.0, "pB0": 701325.0}},
      {"id": "a0", "type": "limit_switch", "params": {"x_switch": 0.001, "width": 0.004}, "inputs": {"position": "A.x"}},
      {"id": "a1", "type": "limit_switch", "params": {"x_switch": 0.099, "width": 0.004}, "inputs": {"position": "A.x"}},
      {"id": "v", "type": "valve_5_2", "params": {"C_supply": 4e-09, "C_exhaust": 4.8e-09, "t_switch": 0.01},
       "inputs": {"sol14": "seq.Y1"}},
      {"id": "seq", "type": "step_sequence",
       "data": {"outputs": ["Y1"], "cyclic": false,
                "steps": [{"name": "rest", "set": {}, "when": ["a0.out"]},
                          {"name": "A+", "set": {"Y1": 1}, "when": ["a1.out"]},
                          {"name": "A-", "set": {"Y1": 0}, "when": ["a0.out"]}]}}],
    "connections": [{"id": "l3", "from": "v.4", "to": "A.A"}, {"id": "l4", "from": "v.2", "to": "A.B"}]})");
}

// A project of seed sequence_a_b's settings with a 7 bar supply `src` and
// `components` after it, joined by `connections`.
Project supplied(const json& components, const json& connections, const json& subcircuits = nullptr) {
  json root = json::parse(readText(projectPath("sequence_a_b.pneumech.json")));
  root.erase("report");
  root["components"] = json::array({{{"id", "src"}, {"type", "supply"}, {"params", {{"p", 701325.0}}}}});
  for (const json& c : components) root["components"].push_back(c);
  root["connections"] = connections;
  if (!subcircuits.is_null()) root["subcircuits"] = subcircuits;
  return parseProject(root.dump(2), "reciprocator.pneumech.json");
}

json reciprocatorType() {
  json def = reciprocatorInside();
  def["format"] = "pneumech-subcircuit";
  def["name"] = "reciprocator";
  def["ports"] = json::parse(R"([{"name": "P", "connect": "v.1"}])");
  def["parameters"] = json::parse(R"([{"name": "mass", "targets": ["A.mass"]}])");
  return {{"reciprocator", def}};
}

}  // namespace

class TestSubcircuits : public QObject {
  Q_OBJECT
 private slots:
  // The example against seed003_meter_out, the same circuit drawn flat.
  void packedGivesTheFlatResultsToTheBit() {
    const Project flat = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    const Project packed = loadProject(projectPath("user_components/seed003_subcircuit.pneumech.json"));
    QCOMPARE(packed.find("vfc")->type, std::string("meter_out_valve"));
    auto a = simulate(packed, "packed");
    auto b = simulate(flat, "flat");
    REQUIRE_OK(a);
    REQUIRE_OK(b);
    QVERIFY(b->at("cyl1.x", 1.0) > 0.19);  // the cylinder strokes: the comparison covers a motion
    QVERIFY(a->out.find("vfc.v1.s") >= 0);  // <instance>.<inner id>.<quantity>
    QVERIFY(a->out.find("vfc.fc1.q") >= 0);
    std::string why;
    QVERIFY2(bitIdentical(*a, *b, {"vfc."}, why), why.c_str());
  }

  // A sub-circuit inside a sub-circuit: the valve block and its timer as one
  // drive block, whose parameter reaches the flow control two levels down.
  void nestedGivesTheFlatResultsToTheBit() {
    const json drive = {
        {"format", "pneumech-subcircuit"},
        {"name", "meter_out_drive"},
        {"ports", {{{"name", "P"}, {"connect", "vfc.1"}}, {{"name", "A"}, {"connect", "vfc.4"}}, {{"name", "B"}, {"connect", "vfc.2"}}}},
        {"parameters", {{{"name", "throttle"}, {"targets", {"vfc.opening"}}}}},
        {"components",
         {{{"id", "vfc"}, {"type", "meter_out_valve"}, {"inputs", {{"sol14", "sw1.out"}}}},
          {{"id", "sw1"}, {"type", "time_switch"}, {"params", {{"t_on", 0.1}, {"t_off", 1e9}}}}}},
        {"connections", json::array()}};
    json root = json::parse(readText(projectPath("user_components/seed003_subcircuit.pneumech.json")));
    root["subcircuits"]["meter_out_drive"] = drive;
    json comps = json::array();
    for (const json& c : root["components"])
      if (c["id"] == "cyl1" || c["id"] == "src") comps.push_back(c);
    comps.insert(comps.begin() + 1, json{{"id", "drv"}, {"type", "meter_out_drive"}, {"params", {{"throttle", 0.3}}}});
    root["components"] = comps;
    root["connections"] = json::parse(R"([{"id": "l1", "from": "src.1", "to": "drv.P"},
                                          {"id": "l2", "from": "drv.A", "to": "cyl1.A"},
                                          {"id": "l4", "from": "drv.B", "to": "cyl1.B"}])");
    const Project packed = parseProject(root.dump(2), "nested.pneumech.json");
    Project flat = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    flat.find("fc1")->params["opening"] = 0.3;
    auto a = simulate(packed, "nested");
    auto b = simulate(flat, "flat");
    REQUIRE_OK(a);
    REQUIRE_OK(b);
    QVERIFY(a->out.find("drv.vfc.fc1.q") >= 0);
    std::string why;
    QVERIFY2(bitIdentical(*a, *b, {"drv.vfc.", "drv."}, why), why.c_str());
    // The throttle did reach inside: the stroke at 0.3 differs from the default 0.5's.
    auto c = simulate(loadProject(projectPath("seed003_meter_out.pneumech.json")), "flat_0.5");
    REQUIRE_OK(c);
    QVERIFY(std::abs(a->at("cyl1.x", 0.4) - c->at("cyl1.x", 0.4)) > 1e-3);
  }

  // Saving carries the sub-circuits used (and those inside them) in the
  // project's `subcircuits` section; the saved text opens again.
  void savedProjectCarriesItsSubcircuits() {
    QTemporaryDir dir;
    json def = subcircuitSection()["meter_out_valve"];
    def["name"] = "meter_out_valve_lib";
    std::ofstream(dir.path().toStdString() + "/meter_out_valve_lib.json") << def.dump(2);
    QCOMPARE(user::loadLibrary(dir.path().toStdString(), registerSubcircuit), std::vector<std::string>{"meter_out_valve_lib"});
    json root = json::parse(readText(projectPath("user_components/seed003_subcircuit.pneumech.json")));
    root.erase("subcircuits");
    root["components"][1]["type"] = "meter_out_valve_lib";
    const Project p = parseProject(root.dump(2), "no_section.pneumech.json");
    const json saved = json::parse(serializeProject(p));
    QVERIFY(saved.contains("subcircuits"));
    QVERIFY(saved["subcircuits"].contains("meter_out_valve_lib"));
    QVERIFY(!saved.contains("user_components"));
    const Project again = parseProject(saved.dump(2), "resaved.pneumech.json");
    QVERIFY(again.components == p.components);
    QVERIFY(again.connections == p.connections);
  }

  // An external port connected to no inner port, or to one that does not
  // exist, is refused naming the file, the sub-circuit and the port.
  void unconnectedExternalPortIsRefused() {
    json def = subcircuitSection()["meter_out_valve"];
    def["name"] = "block_unconnected";
    def["ports"][1].erase("connect");
    std::string file;
    std::string m = libraryError(def, &file);
    qInfo("%s", m.c_str());
    QVERIFY(m.find(file) != std::string::npos);
    QVERIFY(m.find("object 'block_unconnected'") != std::string::npos);
    QVERIFY(m.find("field 'ports[1].connect'") != std::string::npos);
    QVERIFY(m.find("external port '4' is not connected to an inner port") != std::string::npos);
    QVERIFY(Registry::instance().find("block_unconnected") == nullptr);

    def["ports"][1]["connect"] = "v1.7";
    m = libraryError(def);
    qInfo("%s", m.c_str());
    QVERIFY(m.find("external port '4': inner component 'v1' (valve_5_2) has no port '7'") != std::string::npos);
    def["ports"][1]["connect"] = "v9.4";
    m = libraryError(def);
    QVERIFY(m.find("'v9.4' names no component inside") != std::string::npos);
    def["ports"][1]["connect"] = "v1.4";
    def["parameters"][0]["targets"] = {"fc1.bore"};
    m = libraryError(def);
    QVERIFY(m.find("inner component 'fc1' (flow_control_one_way) has no parameter 'bore'") != std::string::npos);
  }

  // The circuit checks look inside: the valve in the block controls the
  // cylinder (unexpanded, "no directional valve controls it").
  void circuitChecksSeeTheInside() {
    const Project packed = loadProject(projectPath("user_components/seed003_subcircuit.pneumech.json"));
    const auto findings = engine::checkCircuit(packed);
    for (const auto& f : findings) qInfo("%s", f.message.c_str());
    QVERIFY(findings.empty());
  }

  // A sub-circuit may have its own SVG, which must mark each external port
  // and input (id="port-<name>").
  void ownSvgSymbolIsChecked() {
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    json def = subcircuitSection()["meter_out_valve"];
    def["name"] = "block_svg";
    def["symbol"] = "block.svg";
    std::ofstream(d + "/block.json") << def.dump(2);
    const std::string marks = "<circle id=\"port-1\" cx=\"20\" cy=\"40\" r=\"1\"/><circle id=\"port-4\" cx=\"10\" cy=\"0\" r=\"1\"/>"
                              "<circle id=\"port-sol14\" cx=\"0\" cy=\"20\" r=\"1\"/>";
    std::ofstream(d + "/block.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 40 40\">" + marks + "</svg>";
    try {
      user::loadLibrary(d, registerSubcircuit);
      QFAIL("accepted a symbol without port 2");
    } catch (const ProjectError& e) {
      qInfo("%s", e.what());
      const std::string m = e.what();
      QVERIFY(m.find("block.json") != std::string::npos);
      QVERIFY(m.find("object 'block_svg', field 'symbol'") != std::string::npos);
      QVERIFY(m.find("has no anchor for port '2'") != std::string::npos);
    }
    std::ofstream(d + "/block.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 40 40\">" + marks +
                                         "<circle id=\"port-2\" cx=\"30\" cy=\"0\" r=\"1\"/></svg>";
    QCOMPARE(user::loadLibrary(d, registerSubcircuit), std::vector<std::string>{"block_svg"});
    QCOMPARE(Registry::instance().find("block_svg")->symbol, d + "/block.svg");
  }

  // A step sequence inside a sub-circuit names its inner limit switches in
  // its step conditions; expanded, they read `<instance>.a1.out`. One
  // instance gives the flat circuit's run to the bit; of two instances
  // (2 kg and 40 kg moved), each sequence steps when its own cylinder
  // reaches its switch: at the row where `uN.seq.step` first reads 2 the
  // cylinder `uN.A` is past a1's window edge 0.099 - 0.002 = 0.097 m, at
  // the row before it is not.
  void sequenceInsideFollowsItsOwnCylinder() {
    const json inside = reciprocatorInside();
    json lines = inside["connections"];
    lines.insert(lines.begin(), json::parse(R"({"id": "l1", "from": "src.1", "to": "v.1"})"));
    const Project flat = supplied(inside["components"], lines);
    const json one = json::array({{{"id", "u1"}, {"type", "reciprocator"}, {"params", {{"mass", 2.0}}}}});
    const Project packed = supplied(one, json::parse(R"([{"id": "l1", "from": "src.1", "to": "u1.P"}])"), reciprocatorType());
    auto a = simulate(packed, "packed");
    auto b = simulate(flat, "flat");
    REQUIRE_OK(b);
    REQUIRE_OK(a);
    QCOMPARE(b->col("seq.step").back(), 2.0);  // out and back: the comparison covers both steps
    std::string why;
    QVERIFY2(bitIdentical(*a, *b, {"u1."}, why), why.c_str());

    json two = one;
    two.push_back({{"id", "u2"}, {"type", "reciprocator"}, {"params", {{"mass", 40.0}}}});
    const Project both = supplied(two, json::parse(R"([{"id": "l1", "from": "src.1", "to": "u1.P"},
                                                       {"id": "l2", "from": "src.1", "to": "u2.P"}])"),
                                  reciprocatorType());
    auto c = simulate(both, "two");
    REQUIRE_OK(c);
    double tStep[2];
    for (int k = 0; k < 2; ++k) {
      const std::string u = "u" + std::to_string(k + 1) + ".";
      const auto step = c->col(u + "seq.step"), x = c->col(u + "A.x");
      const int i = firstIndex(step, [](double s) { return s >= 2.0; });
      QVERIFY2(i > 0, (u + "seq never reached step 2").c_str());
      QVERIFY2(x[i] >= 0.097 && x[i - 1] < 0.097, (u + "seq stepped at x = " + std::to_string(x[i])).c_str());
      tStep[k] = c->t[i];
    }
    qInfo("u1 steps at %.4f s, u2 at %.4f s", tStep[0], tStep[1]);
    QVERIFY2(tStep[1] - tStep[0] > 0.01, "the heavier cylinder reaches its switch later");
  }

  // `pneumech types` (Registry::reference) lists a sub-circuit's external
  // ports (name, domain, doc) and inputs, as it lists every type's.
  void typesListSubcircuitPorts() {
    json def = subcircuitSection()["meter_out_valve"];
    def["name"] = "meter_out_block";
    QCOMPARE(libraryError(def), std::string());
    const std::string ref = Registry::instance().reference();
    const size_t at = ref.find("\nmeter_out_block  (Sub-circuits)");
    QVERIFY(at != std::string::npos);
    const size_t from = ref.find('\n', at + 1) + 1;
    size_t to = from;
    for (int k = 0; k < 5; ++k) to = ref.find('\n', to) + 1;
    QCOMPARE(QString::fromStdString(ref.substr(from, to - from)),
             QString("    port 1 (pneumatic)  supply\n"
                     "    port 4 (pneumatic)  to the cap side\n"
                     "    port 2 (pneumatic)  to the rod side, metered out\n"
                     "    input sol14 (signal)  solenoid 14: 1 = energised\n"
                     "    opening [1] default 0.5 range [0, 1]  throttle setting of the meter-out flow control\n"));
    // A built-in type's ports too, a mechanical one among them.
    QVERIFY(ref.find("cylinder_double  (Actuators)") != std::string::npos);
    QVERIFY(ref.find("    port rod (mechanical)  rod end (for coupling to a mechanism)\n") != std::string::npos);
  }

  // An inner component's error names the sub-circuit and the inner id.
  void innerErrorNamesTheSubcircuit() {
    json def = subcircuitSection()["meter_out_valve"];
    def["name"] = "block_bad_inside";
    def["components"][0]["type"] = "no_such_type";
    const std::string m = libraryError(def);
    qInfo("%s", m.c_str());
    QVERIFY(m.find("object 'block_bad_inside/fc1'") != std::string::npos);
    QVERIFY(m.find("unknown component type 'no_such_type'") != std::string::npos);
  }

  // An out-of-range inner value set through the block is named by its
  // expanded id when the project is compiled.
  void exposedParameterIsRangeChecked() {
    Project p = loadProject(projectPath("user_components/seed003_subcircuit.pneumech.json"));
    p.find("vfc")->params["opening"] = 1.5;
    auto r = simulate(p, "bad_opening");
    QVERIFY(!r->ok());
    qInfo("%s", r->message().c_str());
    QVERIFY(r->message().find("'vfc'") != std::string::npos);
    QVERIFY(r->message().find("params.opening") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestSubcircuits)
#include "test_subcircuits.moc"
