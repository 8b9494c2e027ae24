// User components (issue 24, docs/user-components.md): types defined by
// equations in a data file. The built-in ISO 6358 restriction and reservoir
// re-created as user components give the built-ins' results on the seed 003
// circuit; the bond-graph R element gives the built-in orifice's; bad
// definitions are refused naming the file, the line and the expression.
#include "support/guided_carriage.h"
#include "support/test_project.h"
#include "support/user_library.h"

#include "build/project_input.h"
#include "engine/user_folder.h"
#include "io/project_file.h"
#include "model/project_error.h"
#include "user/user_component.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>

using namespace pm;
using namespace pm::test;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Largest difference over all rows of every channel both runs have,
// relative to that channel's largest magnitude (at least 1e-3 SI); the
// channel in `where`, those only `a` has in `missing`.
double largestDifference(const Run& a, const Run& b, std::string& where, std::vector<std::string>& missing) {
  if (a.t != b.t) {
    where = "the output times";
    return INFINITY;
  }
  double worst = 0.0;
  for (const auto& ch : a.out.channels()) {
    const auto& other = b.out.channels();
    if (std::none_of(other.begin(), other.end(), [&](const auto& o) { return o.name == ch.name; })) {
      missing.push_back(ch.name);
      continue;
    }
    const auto x = a.col(ch.name), y = b.col(ch.name);
    double scale = 1e-3;
    for (double v : x) scale = std::max(scale, std::abs(v));
    for (size_t i = 0; i < x.size(); ++i) {
      const double d = std::abs(x[i] - y[i]) / scale;
      if (!(d <= worst)) worst = std::isnan(d) ? INFINITY : d, where = ch.name + " at t = " + std::to_string(a.t[i]);
    }
  }
  return worst;
}

// A small valid definition with one line per field, `equation` and `flow`
// substituted: line 9 holds the flow's mass_flow, line 12 the equation.
std::string definition(const std::string& flow, const std::string& equation) {
  const std::string from = "1", to = "2", ports = "\"1\", \"2\"";
  return std::string("{\n") +                                                                               // 1
         "  \"name\": \"probe\",\n" +                                                                       // 2
         "  \"ports\": [{\"name\": " + ports.substr(0, ports.find(',')) + "}, {\"name\": " +
         ports.substr(ports.find(',') + 2) + "}],\n" +                                                      // 3
         "  \"parameters\": [{\"name\": \"C\", \"unit\": \"m3/(s Pa)\", \"default\": 1e-8, \"min\": 0},\n" +  // 4
         "                 {\"name\": \"tau\", \"unit\": \"s\", \"default\": 0.1, \"min\": 0}],\n" +           // 5
         "  \"states\": [{\"name\": \"x\", \"unit\": \"Pa\", \"initial\": \"p_amb\"}],\n" +                   // 6
         "  \"flows\": [\n" +                                                                               // 7
         "    {\"from\": \"" + from + "\", \"to\": \"" + to + "\",\n" +                                        // 8
         "     \"mass_flow\": \"" + flow + "\"}\n" +                                                         // 9
         "  ],\n" +                                                                                         // 10
         "  \"equations\": [\n" +                                                                           // 11
         "    \"" + equation + "\"\n" +                                                                      // 12
         "  ]\n" +                                                                                          // 13
         "}\n";
}

}  // namespace

class TestUserComponents : public QObject {
  Q_OBJECT
 private slots:
  // Seed 003's circuit fed through a restriction into a receiver: the user
  // restriction and chamber against the built-in restriction and reservoir.
  // Same operations in the same order, so the rows agree far inside 1e-9.
  void restrictionAndChamberEqualBuiltIns() {
    const Project builtIn = loadProject(projectPath("user_components/seed003_builtin_rc.pneumech.json"));
    const Project user = loadProject(projectPath("user_components/seed003_user_rc.pneumech.json"));
    QCOMPARE(user.find("r_sup")->type, std::string("user_iso6358_restriction"));
    QCOMPARE(user.find("tank")->type, std::string("user_chamber"));
    auto a = simulate(builtIn, "builtin");
    auto b = simulate(user, "user");
    REQUIRE_OK(a);
    REQUIRE_OK(b);
    QVERIFY(a->at("cyl1.x", 1.0) > 0.19);  // the cylinder strokes out: the comparison covers a motion
    QVERIFY(a->maxAbs("r_sup.q", 0.0, 1.0) > 1e-3);
    std::string where;
    std::vector<std::string> missing;
    const double d = largestDifference(*a, *b, where, missing);
    qInfo("largest relative difference %.3g (%s) over %zu channels", d, where.c_str(), a->out.channels().size());
    QVERIFY2(d <= 1e-9, where.c_str());
    // All but the standard volume flow the user restriction does not declare.
    QCOMPARE(missing, std::vector<std::string>{"r_sup.qn"});
  }

  // Seed 003's R element (eqs. 2-3) against the built-in orifice of the same
  // effective area, charging a receiver from a supply.
  void bondGraphREqualsOrifice() {
    const std::string lib = projectPath("user_library");
    user::loadLibrary(lib);
    const double d = 2e-3, Cd = 0.8, Ae = Cd * std::numbers::pi * d * d / 4.0;
    auto circuit = [&](const Component& r) {
      Project p;
      p.components.push_back(comp("src", "supply", {{"p", 6e5}}));
      p.components.push_back(r);
      p.components.push_back(comp("tank", "reservoir", {{"V", 1e-3}, {"hA", 0.5}}));
      wire(p, "src.1", "r.1");
      wire(p, "r.2", "tank.1");
      settings(p, 2.0, 1e-3, Tolerances{1e-7});
      return p;
    };
    auto a = simulate(circuit(comp("r", "orifice", {{"d", d}, {"Cd", Cd}})), "orifice");
    auto b = simulate(circuit(comp("r", "bond_graph_r", {{"Ae", Ae}})), "bond_graph_r");
    REQUIRE_OK(a);
    REQUIRE_OK(b);
    QVERIFY(a->at("tank.p", 2.0) > 5e5);  // charged through choked, subsonic and laminar flow
    CHECK_REL(b->at("tank.p", 0.5), a->at("tank.p", 0.5), 1e-9);
    CHECK_REL(b->at("tank.p", 2.0), a->at("tank.p", 2.0), 1e-9);
    CHECK_REL(b->at("tank.T", 0.25), a->at("tank.T", 0.25), 1e-9);
    CHECK_REL(b->maxAbs("r.q", 0, 2.0), a->maxAbs("r.q", 0, 2.0), 1e-9);
  }

  // The example: the cap-side line as two R-C segments. At rest after the
  // stroke every C holds the supply pressure (no flow, no drop).
  void bondGraphLineExample() {
    const Project p = loadProject(projectPath("user_components/seed003_bond_graph_line.pneumech.json"));
    auto r = simulate(p, "bond_graph_line");
    REQUIRE_OK(r);
    QVERIFY(r->at("cyl1.x", 1.0) > 0.199);
    CHECK_REL(r->at("line_c1.p", 1.0), 601325.0, 1e-3);
    CHECK_REL(r->at("line_c2.p", 1.0), 601325.0, 1e-3);
    // Filling: the first segment leads the second.
    QVERIFY(r->at("line_c1.p", 0.12) > r->at("line_c2.p", 0.12));
  }

  // From a library folder, the types need no section in the project; saving
  // copies the definitions of those it uses into the project.
  void libraryTypesAreCopiedIntoTheProject() {
    const auto names = user::loadLibrary(projectPath("user_library"));
    QCOMPARE(names.size(), size_t(4));
    nlohmann::json root = nlohmann::json::parse(readText(projectPath("user_components/seed003_user_rc.pneumech.json")));
    root.erase("user_components");
    const Project p = parseProject(root.dump(2), "no_section.pneumech.json");
    const nlohmann::json saved = nlohmann::json::parse(serializeProject(p));
    QVERIFY(saved.contains("user_components"));
    QVERIFY(saved["user_components"].contains("user_iso6358_restriction"));
    QVERIFY(saved["user_components"].contains("user_chamber"));
    QVERIFY(!saved["user_components"].contains("bond_graph_r"));  // not used
    // And the saved text opens again with the same components.
    const Project again = parseProject(saved.dump(2), "resaved.pneumech.json");
    QVERIFY(again.components == p.components);
    QVERIFY(again.connections == p.connections);
    QCOMPARE(again.userComponents.size(), size_t(2));
  }

  void validDefinitionLoads() { QCOMPARE(libraryError(definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x) / tau")), std::string()); }

  void syntaxErrorNamesFileLineAndExpression() {
    std::string file;
    const std::string m = libraryError(definition("C * (p_1 - p_2", "der(x) = (p_1 - x) / tau"), &file);
    qInfo("%s", m.c_str());
    QVERIFY(m.find(file) != std::string::npos);
    QVERIFY(m.find("line 9") != std::string::npos);
    QVERIFY(m.find("'C * (p_1 - p_2'") != std::string::npos);
    QVERIFY(m.find("syntax error") != std::string::npos);
  }

  void unknownName() {
    std::string file;
    const std::string m = libraryError(definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - y) / tau"), &file);
    qInfo("%s", m.c_str());
    QVERIFY(m.find(file) != std::string::npos);
    QVERIFY(m.find("line 12") != std::string::npos);
    QVERIFY(m.find("der(x) = (p_1 - y) / tau") != std::string::npos);
    QVERIFY(m.find("unknown name 'y'") != std::string::npos);
  }

  void unitMismatch() {
    // Adding a temperature to a pressure.
    std::string m = libraryError(definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x + T_1) / tau"));
    qInfo("%s", m.c_str());
    QVERIFY(m.find("line 12") != std::string::npos);
    QVERIFY(m.find("unit mismatch") != std::string::npos);
    QVERIFY(m.find("adds kg m-1 s-2 and K") != std::string::npos);
    // A derivative of the wrong unit, and a mass flow that is not one.
    m = libraryError(definition("C * (p_1 - p_2) * rho_ref", "der(x) = p_1 - x"));
    QVERIFY(m.find("unit mismatch: der(x)") != std::string::npos);
    m = libraryError(definition("C * p_1", "der(x) = (p_1 - x) / tau"));
    qInfo("%s", m.c_str());
    QVERIFY(m.find("line 9") != std::string::npos);
    QVERIFY(m.find("a mass flow has the unit kg s-1") != std::string::npos);
  }

  void portWithoutFlow() {
    std::string def = definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x) / tau");
    def.replace(def.find("{\"name\": \"2\"}"), 13, "{\"name\": \"2\"}, {\"name\": \"3\"}");
    std::string file;
    const std::string m = libraryError(def, &file);
    qInfo("%s", m.c_str());
    QVERIFY(m.find(file) != std::string::npos);
    QVERIFY(m.find("line 3") != std::string::npos);
    QVERIFY(m.find("port '3' has no flow definition") != std::string::npos);
  }

  // A flag that is not true or false is refused by field, not read as false
  // nor let out as the JSON library's own exception (found by fuzzing).
  void flagsMustBeTrueOrFalse() {
    const std::string def = definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x) / tau");
    std::string bad = def;
    bad.replace(bad.find("\"min\": 0}"), 9, "\"min\": 0, \"min_open\": \"sp\"}");
    std::string m = libraryError(bad);
    QVERIFY2(m.find("parameters[0].min_open") != std::string::npos && m.find("expected true or false") != std::string::npos, m.c_str());
    bad = def;
    bad.replace(bad.find("{\"name\": \"2\"}"), 13, "{\"name\": \"2\"}, {\"name\": \"u\", \"domain\": \"signal\", \"required\": \"yes\"}");
    m = libraryError(bad);
    QVERIFY2(m.find("ports[2].required") != std::string::npos && m.find("expected true or false") != std::string::npos, m.c_str());
  }

  // A bad file does not keep the good ones of its folder out.
  void badFileLeavesTheOthers() {
    QTemporaryDir dir;
    std::ofstream(dir.path().toStdString() + "/a_bad.json") << definition("C * (p_1 - ", "der(x) = 0");
    std::string good = definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x) / tau");
    good.replace(good.find("\"probe\""), 7, "\"probe_good\"");
    std::ofstream(dir.path().toStdString() + "/b_good.json") << good;
    QVERIFY_THROWS_EXCEPTION(ProjectError, user::loadLibrary(dir.path().toStdString()));
    QVERIFY(Registry::instance().find("probe_good") != nullptr);
  }

  // In a project's own section the message names the project file.
  void errorInAProjectSection() {
    nlohmann::json root = nlohmann::json::parse(readText(projectPath("user_components/seed003_user_rc.pneumech.json")));
    root["user_components"]["user_chamber"]["volumes"][0]["heat"] = "hA * (T_wall - T_1) + p_1";
    const std::string text = root.dump(2);
    try {
      parseProject(text, "customer.pneumech.json");
      QFAIL("accepted");
    } catch (const ProjectError& e) {
      qInfo("%s", e.what());
      const std::string m = e.what();
      QVERIFY(m.find("customer.pneumech.json") != std::string::npos);
      QVERIFY(m.find("user_chamber") != std::string::npos);
      QVERIFY(m.find("line " + std::to_string(user::lineOf(text, "hA * (T_wall - T_1) + p_1"))) != std::string::npos);
      QVERIFY(m.find("unit mismatch") != std::string::npos);
    }
  }

  // A division by zero in a run names the file, line, expression and time:
  // the flow divides by the pressure difference, zero at the start.
  void divisionByZeroAtRunTime() {
    std::string file;
    std::string def = definition("C * rho_ref * p_amb * p_amb / (p_1 - p_2) * 1e-3", "der(x) = (p_1 - x) / tau");
    def.replace(def.find("\"probe\""), 7, "\"probe_div\"");
    QCOMPARE(libraryError(def, &file), std::string());
    Project p;
    p.components.push_back(comp("a", "reservoir", {{"V", 1e-3}}));
    p.components.push_back(comp("b", "reservoir", {{"V", 1e-3}}));
    p.components.push_back(comp("d", "probe_div"));
    wire(p, "a.1", "d.1");
    wire(p, "d.2", "b.1");
    settings(p, 0.1, 0.01);
    auto r = runProject(p, "div", OutputRows::Solver);
    QVERIFY(!r->ok());
    qInfo("%s", r->message().c_str());
    QVERIFY(r->message().find("line 9") != std::string::npos);
    QVERIFY(r->message().find("division by zero at t = 0 s") != std::string::npos);
    QVERIFY(r->message().find("C * rho_ref * p_amb * p_amb / (p_1 - p_2) * 1e-3") != std::string::npos);
    QVERIFY(r->message().find("bad_component.json") != std::string::npos);
  }

  // A signal input, a differential and an algebraic state: a first-order
  // lag y' = (u - y)/tau driven by a step at t_on, and z = 2 y + u.
  void statesAndSignalsFollowTheirEquations() {
    const std::string def = R"json({
      "name": "probe_lag",
      "ports": [{"name": "u", "domain": "signal", "doc": "input"}],
      "parameters": [{"name": "tau", "unit": "s", "default": 0.2, "min": 0, "min_open": true}],
      "states": [{"name": "y", "unit": "1", "initial": "0"},
                 {"name": "z", "unit": "1", "kind": "algebraic", "initial": "0"}],
      "equations": ["der(y) = (u - y) / tau", "0 = z - (2 * y + u)"],
      "outputs": [{"name": "y", "unit": "1", "value": "y"}, {"name": "z", "unit": "1", "value": "z"}]
    })json";
    QCOMPARE(libraryError(def), std::string());
    Project p;
    p.components.push_back(comp("sw", "time_switch", {{"t_on", 0.1}, {"t_off", 1e9}}));
    p.components.push_back(comp("lag", "probe_lag", {{"tau", 0.2}}, {{"u", "sw.out"}}));
    settings(p, 1.0, 0.01, Tolerances{1e-8});
    auto r = simulate(p, "lag");
    REQUIRE_OK(r);
    for (double t : {0.3, 0.6, 1.0}) {
      const double y = 1.0 - std::exp(-(t - 0.1) / 0.2);
      CHECK_ABS(r->at("lag.y", t), y, 1e-5);
      CHECK_ABS(r->at("lag.z", t), 2.0 * y + 1.0, 2e-5);
    }
    CHECK_ABS(r->at("lag.y", 0.05), 0.0, 1e-12);
  }

  // A parameter in Nl/min (ANR, ISO 8778: rho0 = 1.185 kg/m3 at 293.15 K,
  // 1 bar) is read in the expressions as the mass flow it stands for:
  // 100 Nl/min = 100e-3 m3 / 60 s * 1.185 kg/m3 = 1.975e-3 kg/s.
  void standardFlowParameter() {
    std::string def = R"json({
      "name": "probe_anr",
      "ports": [{"name": "u", "domain": "signal", "required": false}],
      "parameters": [{"name": "qn", "unit": "Nl/min", "default": 100, "min": 0, "doc": "standard flow"}],
      "outputs": [{"name": "q", "unit": "kg/s", "value": "qn"}]
    })json";
    QCOMPARE(libraryError(def), std::string());
    QCOMPARE(Registry::instance().find("probe_anr")->param("qn")->unit, std::string("Nl/min"));
    Project p;
    p.components.push_back(comp("a", "probe_anr"));
    p.components.push_back(comp("b", "probe_anr", {{"qn", 600.0}}));
    settings(p, 0.1, 0.05);
    auto r = simulate(p, "anr");
    REQUIRE_OK(r);
    CHECK_REL(r->at("a.q", 0.05), 1.975e-3, 1e-15);
    CHECK_REL(r->at("b.q", 0.05), 600.0 * 1e-3 / 60.0 * 1.185, 1e-15);
    // It is a mass flow, not a volume flow.
    def.replace(def.find("\"unit\": \"kg/s\""), 14, "\"unit\": \"m3/s\"");
    def.replace(def.find("probe_anr"), 9, "probe_anr2");
    QVERIFY(libraryError(def).find("unit mismatch") != std::string::npos);
  }

  // Events: a latch set when time passes t_set and reset when its input
  // (a time switch at 0.6 s) rises; y integrates the latch, so
  // y(1) = 0.6 - 0.3 = 0.3 exactly, the switching times found as roots.
  void eventLatchSetAndReset() {
    const std::string def = R"json({
      "name": "probe_latch",
      "ports": [{"name": "reset", "domain": "signal"}],
      "parameters": [{"name": "t_set", "unit": "s", "default": 0.3, "min": 0}],
      "discrete": [{"name": "latched", "initial": "0"}],
      "states": [{"name": "y", "unit": "s", "initial": "0", "abs_tol": 1e-10}],
      "equations": ["der(y) = latched"],
      "events": [{"when": "time > t_set", "set": {"latched": "1"}},
                 {"when": "reset > 0.5", "set": {"latched": 0}}],
      "outputs": [{"name": "latched", "unit": "1", "value": "latched"}, {"name": "y", "unit": "s", "value": "y"}]
    })json";
    QCOMPARE(libraryError(def), std::string());
    Project p;
    p.components.push_back(comp("sw", "time_switch", {{"t_on", 0.6}, {"t_off", 1e9}}));
    p.components.push_back(comp("l", "probe_latch", {}, {{"reset", "sw.out"}}));
    settings(p, 1.0, 0.01, Tolerances{1e-9});
    auto r = simulate(p, "latch");
    REQUIRE_OK(r);
    QCOMPARE(r->at("l.latched", 0.29), 0.0);
    QCOMPARE(r->at("l.latched", 0.31), 1.0);
    QCOMPARE(r->at("l.latched", 0.59), 1.0);
    QCOMPARE(r->at("l.latched", 0.61), 0.0);
    CHECK_ABS(r->at("l.y", 0.5), 0.2, 1e-8);
    CHECK_ABS(r->at("l.y", 1.0), 0.3, 1e-8);
    // A condition must be a comparison, and set a declared discrete state.
    std::string bad = def;
    bad.replace(bad.find("time > t_set"), 12, "time + t_set");
    bad.replace(bad.find("probe_latch"), 11, "probe_latch2");
    QVERIFY(libraryError(bad).find("a condition is a comparison") != std::string::npos);
    bad = def;
    bad.replace(bad.find("{\"latched\": \"1\"}"), 16, "{\"y\": \"1\"}");
    bad.replace(bad.find("probe_latch"), 11, "probe_latch3");
    QVERIFY(libraryError(bad).find("'y' is not a discrete state") != std::string::npos);
  }

  // A user's own SVG symbol must mark every port (id="port-<name>").
  void svgSymbolMustAnchorEveryPort() {
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    std::string def = definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x) / tau");
    def.replace(def.find("\"probe\","), 8, "\"probe_svg\", \"symbol\": \"probe.svg\",");
    std::ofstream(d + "/probe_svg.json") << def;
    const std::string svg1 = R"(<svg xmlns="http://www.w3.org/2000/svg" width="20" height="40" viewBox="0 0 20 40">)"
                             R"(<rect x="2" y="5" width="16" height="30" fill="#fff" stroke="#000"/>)"
                             R"(<circle id="port-1" cx="10" cy="40" r="1"/>)";
    std::ofstream(d + "/probe.svg") << svg1 + "</svg>";
    try {
      user::loadLibrary(d);
      QFAIL("accepted a symbol without port 2");
    } catch (const ProjectError& e) {
      qInfo("%s", e.what());
      const std::string m = e.what();
      QVERIFY(m.find("probe_svg.json") != std::string::npos);
      QVERIFY(m.find("field 'symbol'") != std::string::npos);
      QVERIFY(m.find("has no anchor for port '2'") != std::string::npos);
    }
    QVERIFY(Registry::instance().find("probe_svg") == nullptr);
    std::ofstream(d + "/probe.svg") << svg1 + R"(<circle id="port-2" cx="10" cy="0" r="1"/></svg>)";
    QCOMPARE(user::loadLibrary(d), std::vector<std::string>{"probe_svg"});
    QCOMPARE(Registry::instance().find("probe_svg")->symbol, d + "/probe.svg");
  }

  // The user's folder under $XDG_DATA_HOME is found and loaded.
  void userFolderUnderXdgDataHome() {
    QTemporaryDir home;
    const QByteArray old = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", home.path().toUtf8());
    const std::string folder = engine::userComponentFolder();
    QCOMPARE(folder, home.path().toStdString() + "/PneuMech/components");
    QVERIFY(engine::loadUserComponentFolder().empty());  // no folder: nothing, no error
    std::filesystem::create_directories(folder);
    std::string def = definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x) / tau");
    def.replace(def.find("\"probe\""), 7, "\"probe_xdg\"");
    std::ofstream(folder + "/probe_xdg.json") << def;
    std::string problem;
    QCOMPARE(engine::loadUserComponentFolder(&problem), std::vector<std::string>{"probe_xdg"});
    QCOMPARE(problem, std::string());
    QVERIFY(Registry::instance().find("probe_xdg") != nullptr);
    std::ofstream(folder + "/zz_bad.json") << definition("C * (p_1 - ", "der(x) = 0");
    engine::loadUserComponentFolder(&problem);
    QVERIFY(problem.find("zz_bad.json") != std::string::npos);
    if (old.isNull()) qunsetenv("XDG_DATA_HOME"); else qputenv("XDG_DATA_HOME", old);
  }

  // A mechanical port: a constant force F0 pushing a carriage of mass m
  // along a frictionless guide (attached between a ground marker and the
  // carriage's, as a cylinder is), and the same force moving a mass of its
  // own when free: x(t) = F0 t^2 / (2 m), v = F0 t / m either way.
  void mechanicalPortPushesTheMechanism() {
    const std::string def = R"json({
      "name": "probe_push",
      "ports": [{"name": "rod", "domain": "mechanical", "doc": "pushes its markers apart"}],
      "parameters": [{"name": "F0", "unit": "N", "default": 1.0},
                     {"name": "m", "unit": "kg", "default": 2.0, "min": 0, "min_open": true}],
      "forces": [{"port": "rod", "force": "F0", "mass": "m"}],
      "outputs": [{"name": "x", "unit": "m", "value": "x_rod"}, {"name": "v", "unit": "m/s", "value": "v_rod"}]
    })json";
    QCOMPARE(libraryError(def), std::string());
    const double F0 = 1.0, m = 2.0;
    auto check = [&](const Project& p, const char* name) {
      auto r = simulate(p, name);
      REQUIRE_OK(r);
      for (double t : {0.5, 1.0}) {
        CHECK_ABS(r->at("push.x", t), F0 * t * t / (2 * m), 1e-6);
        CHECK_ABS(r->at("push.v", t), F0 * t / m, 1e-6);
      }
    };
    Project attached = guidedCarriage(m, comp("push", "probe_push", {{"F0", F0}, {"m", m}}));
    settings(attached, 1.0, 0.01, Tolerances{1e-9, std::nullopt, std::nullopt, 1e-10});
    check(attached, "attached");
    Project free;
    free.components.push_back(comp("push", "probe_push", {{"F0", F0}, {"m", m}}));
    settings(free, 1.0, 0.01, Tolerances{1e-9, std::nullopt, std::nullopt, 1e-10});
    check(free, "free");
    // A mechanical port needs a force.
    std::string bad = def;
    bad.replace(bad.find("\"forces\""), 8, "\"forces_\"");
    bad.replace(bad.find("probe_push"), 10, "probe_push2");
    QVERIFY(libraryError(bad).find("unknown field") != std::string::npos);
    bad = def;
    const std::string forces = R"([{"port": "rod", "force": "F0", "mass": "m"}])";
    bad.replace(bad.find(forces), forces.size(), "[]");
    bad.replace(bad.find("probe_push"), 10, "probe_push3");
    qInfo("%s", libraryError(bad).c_str());
    QVERIFY(libraryError(bad).find("mechanical port 'rod' has no force definition") != std::string::npos);
  }

  void nameOfABuiltInIsRefused() {
    std::string def = definition("C * (p_1 - p_2) * rho_ref", "der(x) = (p_1 - x) / tau");
    def.replace(def.find("\"probe\""), 7, "\"restriction\"");
    QVERIFY(libraryError(def).find("built-in") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestUserComponents)
#include "test_user_components.moc"
