// Absurd input (issue 26): the loader refuses what would crash it or make a
// run crawl, naming the file and the field (and the line and column where
// the text itself is at fault), and never echoes a huge value whole.
#include "support/test_project.h"

#include "build/project_input.h"
#include "build/validation.h"
#include "engine/engine.h"
#include "model/project_error.h"

#include <QtTest>

#include <string>

using namespace pm;

namespace {

const char* kBase = R"({
  "format": "pneumech-project", "schema_version": 1,
  "simulation": {"t_end": 0.1, "output_interval": 0.01, "ambient_temperature": 293.15},
  "components": [
    {"id": "src", "type": "supply", "params": {"p": 600000}},
    {"id": "tank", "type": "reservoir", "params": {"V": 0.001, "T0": 293.15}, "data": {"note": 1}},
    {"id": "cyl", "type": "cylinder_double", "params": {"mass": 2.0}}
  ],
  "connections": [{"id": "l1", "from": "src.1", "to": "tank.1"}],
  "mechanism": {"gravity": [0, -9.81, 0],
    "parts": [{"id": "ground", "ground": true, "markers": [{"id": "O", "position": [0, 0, 0]}]},
              {"id": "bob", "mass": 1, "position": [0.5, 0, 0], "markers": [{"id": "P", "position": [-0.5, 0, 0]}]}],
    "joints": [{"id": "pin", "type": "revolute", "i": "bob.P", "j": "ground.O"}]},
  "report": {"title": "limits"}
})";

std::string mutate(const std::string& from, const std::string& to) {
  std::string s = kBase;
  const auto pos = s.find(from);
  if (pos == std::string::npos) qFatal("test setup: '%s' not in the base project", from.c_str());
  return s.replace(pos, from.size(), to);
}

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// The ProjectError parsing `text` gives; fails the test when there is none
// (any other exception fails it too: it leaves the test function).
ProjectError errorOf(const std::string& text) {
  try {
    parseProject(text, "bad.pneumech.json");
  } catch (const ProjectError& e) {
    return e;
  }
  return ProjectError("", "", "", "no error");
}

}  // namespace

class TestProjectLimits : public QObject {
  Q_OBJECT

  void expectError(const std::string& text, const std::string& object, const std::string& field,
                   const std::string& part) {
    const ProjectError e = errorOf(text);
    const std::string what = e.what();
    QVERIFY2(e.file() == "bad.pneumech.json", what.c_str());
    QVERIFY2(e.object() == object, ("object: " + what).c_str());
    QVERIFY2(e.field() == field, ("field: " + what).c_str());
    QVERIFY2(what.find(part) != std::string::npos, ("message: " + what).c_str());
  }

 private slots:
  void baseProjectLoads() { QCOMPARE(parseProject(kBase, "base").components.size(), size_t(3)); }

  // 100,000 levels crashed the loader (stack overflow copying the tree);
  // the depth is checked on the text, before a tree exists.
  void deepNestingIsRefusedWithItsPath() {
    const ProjectError data = errorOf(mutate("{\"note\": 1}", nested(100000)));
    QVERIFY2(data.field().rfind("components[1].data", 0) == 0, data.what());
    QVERIFY2(std::string(data.what()).find("nested more than 64 levels deep (line 6, column") != std::string::npos,
             data.what());
    const ProjectError report = errorOf(mutate("\"limits\"", nested(100000)));
    QVERIFY2(report.field().rfind("report.title", 0) == 0, report.what());
    // Within the limit, deep data is kept verbatim and saved again.
    const Project ok = parseProject(mutate("\"limits\"", nested(50)), "ok");
    QCOMPARE(ok.extra["report"]["title"], nlohmann::json::parse(nested(50)));
    QVERIFY(parseProject(serializeProject(ok), "again") == ok);
  }

  // nlohmann's out_of_range 406 left as an internal error naming no file.
  void numberOverflowNamesFileFieldLineAndColumn() {
    expectError(mutate("600000", "1e400"), "", "components[0].params.p", "line 5, column 53");
    expectError(mutate("600000", "-1e400"), "", "components[0].params.p", "too large");
    expectError(mutate("0.1,", std::string(400, '9') + ","), "", "simulation.t_end", "too large");
  }

  void schemaVersionIsReadWhole() {
    expectError(mutate("\"schema_version\": 1", "\"schema_version\": 4294967297"), "", "schema_version", "4294967297");
    expectError(mutate("\"schema_version\": 1", "\"schema_version\": 0"), "", "schema_version", "version 0");
    expectError(mutate("\"schema_version\": 1", "\"schema_version\": -4294967295"), "", "schema_version",
                "does not exist");
    expectError(mutate("\"schema_version\": 1", "\"schema_version\": 1.5"), "", "schema_version", "integer");
    expectError(mutate("\"schema_version\": 1", "\"schema_version\": 2"), "", "schema_version", "newer");
  }

  // A megabyte id or type is named, not printed: the message stays short,
  // the error's object() keeps the id whole (the studio selects by it).
  void longValuesAreClippedInMessages() {
    const std::string big(1 << 20, 'x');
    const ProjectError type = errorOf(mutate("\"reservoir\"", "\"" + big + "\""));
    QVERIFY2(std::string(type.what()).size() < 300, std::to_string(std::string(type.what()).size()).c_str());
    QVERIFY(std::string(type.what()).find("unknown component type 'xxxxxxxxxx") != std::string::npos);
    const ProjectError id = errorOf(mutate("{\"id\": \"tank\", \"type\": \"reservoir\",",
                                           "{\"id\": \"a" + big + "\", \"type\": \"reservoir\", \"bad\": 1,"));
    QVERIFY2(std::string(id.what()).size() < 300, std::to_string(std::string(id.what()).size()).c_str());
    QCOMPARE(id.object().size(), big.size() + 1);
    QCOMPARE(id.field(), std::string("bad"));
  }

  // A file cut off in a long string: line and column, and a short excerpt.
  void truncatedJsonGivesPositionAndShortExcerpt() {
    std::string text = kBase;
    text = text.substr(0, text.find("\"report\"")) + "\"report\": {\"title\": \"" + std::string(100000, 'y');
    const ProjectError e = errorOf(text);
    const std::string what = e.what();
    QVERIFY2(what.find("malformed JSON at line 14, column") != std::string::npos, what.c_str());
    QVERIFY2(what.size() < 250, std::to_string(what.size()).c_str());
    QVERIFY2(what.find("last read") == std::string::npos, what.c_str());
    QVERIFY2(what.find("near: ") != std::string::npos, what.c_str());
  }

  // Values a machine cannot have are refused at load, the field named, the
  // value printed with significant digits (1e-300, not 0.000000).
  void implausibleValuesAreRefused() {
    expectError(mutate("\"ambient_temperature\": 293.15", "\"ambient_temperature\": 1e-300"), "simulation",
                "ambient_temperature", "1e-300 K");
    expectError(mutate("\"ambient_temperature\": 293.15", "\"ambient_temperature\": 293.15, \"ambient_pressure\": 1e12"),
                "simulation", "ambient_pressure", "outside");
    expectError(mutate("\"ambient_temperature\": 293.15", "\"ambient_temperature\": 293.15, \"rel_tol\": 1e-300"),
                "simulation", "rel_tol", "outside");
    expectError(mutate("\"T0\": 293.15", "\"T0\": 1e-300"), "tank", "params.T0", "value 1e-300 K is outside");
    expectError(mutate("\"T0\": 293.15", "\"T0\": 293.15, \"p0\": 1e-300"), "tank", "params.p0", "outside");
    expectError(mutate("\"V\": 0.001", "\"V\": 1e-300"), "tank", "params.V", "outside");
    expectError(mutate("\"mass\": 2.0", "\"mass\": 1e-300"), "cyl", "params.mass", "outside");
    expectError(mutate("[0, -9.81, 0]", "[0, -1e30, 0]"), "mechanism", "gravity[1]", "-1e+30 m/s2 is outside");
    expectError(mutate("\"position\": [0.5, 0, 0]", "\"position\": [18446744073709551616, 0, 0]"), "bob", "position[0]",
                "outside");
    expectError(mutate("\"position\": [-0.5, 0, 0]", "\"position\": [-0.5, 2147483648, 0]"), "bob.P", "position[1]",
                "outside");
  }

  // A run that fails on its first steps names the owner of the stiffest
  // state and the likely cause: IDA has no local errors to point at then.
  void earlyFailureNamesTheLikelyCause() {
    Project p = loadProject(test::projectPath("seed003_meter_out.pneumech.json"));
    applyOverride(p, "cyl1.V0_A=1e-12");  // the smallest volume allowed
    Simulation sim(p);
    ResultStore out;
    const RunResult r = sim.run(out);
    if (r.ok()) QSKIP("the solver steps through the smallest volume now: nothing to name");
    QVERIFY2(r.message.find("likely cause: a parameter at the end of its range") != std::string::npos &&
                 r.object.rfind("cyl1", 0) == 0,
             r.message.c_str());
  }

  // The values a run holds: rows (t_end / output_interval + 1) x (channels
  // kept + time), at most 2e8. 1e3 s every 0.1 ms is 10,000,001 rows: 18
  // channels + time (1.9e8) pass, 19 + time (2.0000002e8) do not.
  void storedValuesAreLimited() {
    SimulationSettings s;
    s.t_end = 1e3;
    s.output_interval = 1e-4;
    validateOutputSize(s, 18, "x.pneumech.json");
    try {
      validateOutputSize(s, 19, "x.pneumech.json");
      QFAIL("19 channels x 10,000,001 rows accepted");
    } catch (const ProjectError& e) {
      QCOMPARE(e.object(), std::string("simulation"));
      QCOMPARE(e.field(), std::string("output_interval"));
      QVERIFY2(std::string(e.what()).find("10000001 rows x 19 channels (+ time) = 2e+08 values in memory (1.6 GB)") !=
                   std::string::npos,
               e.what());
    }
  }

  // Only the channels a store keeps count (pneumech simulate --channels):
  // 60 cylinders (1,140 channels) over 200,001 rows are refused whole, and
  // pass with two kept. Checked on the compiled project, before any run.
  void onlyKeptChannelsCount() {
    const Project p = parseProject(test::manyCylindersText(60, "2", "1e-5"), "many.pneumech.json");
    engine::CompiledProject sim(p, "many.pneumech.json");
    QCOMPARE(sim.channels().size(), size_t(1140));
    ResultStore all, two;
    two.keepOnly({"c0.x", "c59.A.p"});
    QCOMPARE(two.keptCount(sim.channels()), size_t(2));
    QVERIFY_THROWS_EXCEPTION(ProjectError, sim.checkOutputSize(all));
    QVERIFY_THROWS_EXCEPTION(ProjectError, sim.run(all));  // run() checks first
    QCOMPARE(all.rows(), size_t(0));
    sim.checkOutputSize(two);
  }

  // A store that keeps some channels holds those alone, with the values the
  // full store has, bit for bit.
  void keptChannelsAreTheFullRunsColumns() {
    Project p = loadProject(test::projectPath("seed003_meter_out.pneumech.json"));
    p.simulation.t_end = 0.3;
    ResultStore all, some;
    some.keepOnly({"cyl1.x", "no.such", "cyl1.A.p"});
    QVERIFY(engine::CompiledProject(p).run(all).ok());
    QVERIFY(engine::CompiledProject(p).run(some).ok());
    const auto kept = some.channels();
    QCOMPARE(kept.size(), size_t(2));
    QCOMPARE(kept[0].name, std::string("cyl1.x"));  // the run's column order
    QCOMPARE(kept[1].name, std::string("cyl1.A.p"));
    QCOMPARE(some.rows(), all.rows());
    QVERIFY(some.times() == all.times());
    for (const auto& c : kept) QVERIFY2(some.column(c.name) == all.column(c.name), c.name.c_str());
  }

  // NaN and infinity cannot be written in JSON, but --set takes them.
  void overridesRefuseNonFiniteValues() {
    Project p = parseProject(kBase, "base");
    for (const char* a : {"tank.V=nan", "tank.T0=inf", "simulation.t_end=nan", "simulation.ambient_temperature=inf",
                          "simulation.max_step=nan", "simulation.rel_tol=-inf"})
      QVERIFY_THROWS_EXCEPTION(ProjectError, applyOverride(p, a));
    QVERIFY(p == parseProject(kBase, "base"));
  }
};

QTEST_APPLESS_MAIN(TestProjectLimits)
#include "test_project_limits.moc"
