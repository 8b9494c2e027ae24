// File format: exact round trip, atomic save, and every bad-input case gives a
// ProjectError that names the file, the object and the field.
#include "build/compiler.h"
#include "build/project_input.h"
#include "model/project_error.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace pm;

namespace {

const char* kGood = R"({
  "format": "pneumech-project", "schema_version": 1,
  "meta": {"title": "Round trip", "customer": "ACME", "author": "QA", "description": "two lines\nof text"},
  "simulation": {"t_end": 0.75, "output_interval": 0.0005, "rel_tol": 1e-7},
  "components": [
    {"id": "src", "type": "supply", "params": {"p": 700000.123456789}, "placement": {"x": 10.5, "y": -3, "rotation": 90, "mirror": true},
     "data": {"table": [[0, 600000, 293.15], [0.1, 700000, 300]]}},
    {"id": "ts", "type": "time_switch", "params": {"t_on": 0.1}},
    {"id": "v1", "type": "valve_5_2", "label": "1V1", "inputs": {"sol14": "ts.out"}},
    {"id": "cyl", "type": "cylinder_double", "params": {"bore": 0.032, "stroke": 0.2}}
  ],
  "connections": [
    {"id": "l1", "from": "src.1", "to": "v1.1", "waypoints": [[1, 2], [3.25, 4]]},
    {"id": "l2", "from": "v1.4", "to": "cyl.A"},
    {"id": "l3", "from": "v1.2", "to": "cyl.B"}
  ],
  "controls": {"blocks": [{"id": "p1"}]}
})";

// Replaces the first occurrence of `from` in the good project.
std::string mutate(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto pos = s.find(from);
  if (pos == std::string::npos) qFatal("test setup: '%s' not in the good project", from.c_str());
  return s.replace(pos, from.size(), to);
}

}  // namespace

class TestProjectFile : public QObject {
  Q_OBJECT

  void expectError(const std::string& text, const std::string& object, const std::string& field,
                   const std::string& part) {
    try {
      parseProject(text, "bad.pneumech.json");
      QFAIL(("no error for case expecting " + part).c_str());
    } catch (const ProjectError& e) {
      const std::string what = e.what();
      QVERIFY2(e.file() == "bad.pneumech.json", what.c_str());
      QVERIFY2(e.object() == object, ("object: " + what).c_str());
      QVERIFY2(e.field() == field, ("field: " + what).c_str());
      QVERIFY2(what.find(part) != std::string::npos, ("message: " + what).c_str());
    }
  }

 private slots:
  void roundTripIsExact() {
    const Project a = parseProject(kGood, "good");
    QCOMPARE(a.components.size(), size_t(4));
    QCOMPARE(a.components[0].params.at("p"), 700000.123456789);
    QCOMPARE(a.components[0].placement.rotation, 90);
    QVERIFY(a.extra.contains("controls"));
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/p.pneumech.json").toStdString();
    saveProject(a, path);
    const Project b = loadProject(path);
    QVERIFY(a == b);
    saveProject(b, path);
    std::ifstream f1(path);
    const std::string once((std::istreambuf_iterator<char>(f1)), {});
    QCOMPARE(serializeProject(loadProject(path)), once);
    // Atomic: no temporary left behind.
    int files = 0;
    for (auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) (void)e, ++files;
    QCOMPARE(files, 1);
  }

  void failedSaveKeepsOldFile() {
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/missing-dir/p.pneumech.json").toStdString();
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, saveProject(parseProject(kGood, "good"), path));
    QVERIFY(!std::filesystem::exists(path));
  }

  void malformedJsonGivesLineAndColumn() {
    expectError("{\n  \"format\": \"pneumech-project\",\n  \"schema_version\": 1,,\n}", "", "", "line 3, column 23");
  }
  void wrongFormatOrVersion() {
    expectError(mutate("\"pneumech-project\"", "\"other\""), "", "format", "pneumech-project");
    expectError(mutate("\"schema_version\": 1", "\"schema_version\": 7"), "", "schema_version", "newer");
    expectError(mutate("\"schema_version\": 1", "\"schema_version\": \"1\""), "", "schema_version", "integer");
  }
  // Project properties beyond the four strings (Metadata's notes, logo and
  // required cycle time): kept through load and save in the file's "meta",
  // written only when set, checked on load.
  void projectProperties() {
    const std::string text = mutate("\"description\": \"two lines\\nof text\"",
                                    "\"description\": \"d\", \"notes\": \"seed 000 sec. 7.1\", \"logo\": \"logo.png\", "
                                    "\"required_cycle_time\": 1.5");
    const Project a = parseProject(text, "good");
    const Metadata& p = a.meta;
    QCOMPARE(p.notes, std::string("seed 000 sec. 7.1"));
    QCOMPARE(p.logo, std::string("logo.png"));
    QCOMPARE(p.requiredCycleTime, 1.5);
    QCOMPARE(a.meta.description, std::string("d"));
    const std::string saved = serializeProject(a);
    const nlohmann::json j = nlohmann::json::parse(saved);
    QCOMPARE(j["meta"]["notes"], nlohmann::json("seed 000 sec. 7.1"));
    QCOMPARE(j["meta"]["required_cycle_time"], nlohmann::json(1.5));
    QCOMPARE(j["meta"]["logo"], nlohmann::json("logo.png"));
    QVERIFY(!j.contains("notes") && !j.contains("logo"));  // not as top-level sections
    QVERIFY(!a.extra.contains("meta"));                    // in Metadata, not in extra
    const Project again = parseProject(saved, "again");
    QVERIFY(again.meta == a.meta);
    QVERIFY(again == a);
    // Unset: not written at all.
    Project b = a;
    b.meta.notes.clear();
    b.meta.logo.clear();
    b.meta.requiredCycleTime = 0;
    const nlohmann::json jb = nlohmann::json::parse(serializeProject(b))["meta"];
    QVERIFY(!jb.contains("notes") && !jb.contains("logo") && !jb.contains("required_cycle_time"));
    QCOMPARE(jb.size(), size_t(4));
    // Every example's "meta" (files written before Metadata held these) reads
    // and writes back as it was.
    for (const auto& e : std::filesystem::directory_iterator(PM_SOURCE_DIR "/projects")) {
      if (e.path().string().find(".pneumech.json") == std::string::npos) continue;
      std::ifstream in(e.path());
      nlohmann::json expected = nlohmann::json::parse(in)["meta"];
      for (const char* k : {"title", "customer", "author", "description"})  // always written, "" when absent
        if (!expected.contains(k)) expected[k] = "";
      const nlohmann::json written = nlohmann::json::parse(serializeProject(loadProject(e.path().string())));
      QVERIFY2(written["meta"] == expected, e.path().c_str());
    }
    expectError(mutate("\"author\": \"QA\"", "\"author\": \"QA\", \"notes\": 3"), "meta", "notes", "expected a string");
    expectError(mutate("\"author\": \"QA\"", "\"author\": \"QA\", \"required_cycle_time\": 0"), "meta",
                "required_cycle_time", "positive time");
    expectError(mutate("\"author\": \"QA\"", "\"author\": \"QA\", \"required_cycle_time\": \"2 s\""), "meta",
                "required_cycle_time", "expected a number");
    expectError(mutate("\"author\": \"QA\"", "\"author\": \"QA\", \"logo\": [1]"), "meta", "logo", "expected a string");
    expectError(mutate("\"author\": \"QA\"", "\"author\": \"QA\", \"note\": \"x\""), "meta", "note", "unknown field");
  }

  void missingAndMistypedFields() {
    expectError(mutate("\"type\": \"time_switch\", ", ""), "ts", "type", "missing field");
    expectError(mutate("\"t_on\": 0.1", "\"t_on\": \"0.1\""), "ts", "params.t_on", "expected a number");
    expectError(mutate("\"t_end\": 0.75", "\"t_end\": -1"), "simulation", "t_end", "positive");
    expectError(mutate("\"label\": \"1V1\"", "\"lable\": \"1V1\""), "v1", "lable", "unknown field");
    expectError(mutate("\"rotation\": 90", "\"rotation\": 45"), "src", "placement.rotation", "0, 90, 180 or 270");
    expectError(mutate("\"controls\"", "\"control\""), "", "control", "unknown top-level section");
  }
  void unknownTypePortParameter() {
    expectError(mutate("\"valve_5_2\"", "\"valve_9_9\""), "v1", "type", "unknown component type 'valve_9_9'");
    expectError(mutate("\"to\": \"cyl.A\"", "\"to\": \"cyl.C\""), "l2", "to", "has no port 'C'");
    expectError(mutate("\"bore\": 0.032", "\"boer\": 0.032"), "cyl", "params.boer", "has no parameter");
  }
  void danglingDuplicateConnections() {
    expectError(mutate("\"from\": \"v1.4\"", "\"from\": \"v9.4\""), "l2", "from", "dangling");
    expectError(mutate("\"id\": \"l3\", \"from\": \"v1.2\"", "\"id\": \"l2\", \"from\": \"v1.2\""), "l2", "id",
                "duplicate connection id");
    expectError(mutate("\"from\": \"v1.2\", \"to\": \"cyl.B\"", "\"from\": \"cyl.A\", \"to\": \"v1.4\""), "l3", "to",
                "duplicate connection");
    expectError(mutate("\"from\": \"v1.2\", \"to\": \"cyl.B\"", "\"from\": \"cyl.B\", \"to\": \"cyl.B\""), "l3", "to",
                "itself");
    expectError(mutate("\"from\": \"src.1\"", "\"from\": \"src\""), "l1", "from", "<component id>.<port>");
  }
  void duplicateIds() {
    expectError(mutate("\"id\": \"ts\"", "\"id\": \"src\""), "src", "id", "duplicate id");
    expectError(mutate("\"id\": \"l1\"", "\"id\": \"cyl\""), "cyl", "id", "also a component id");
    expectError(mutate("\"id\": \"ts\"", "\"id\": \"9ts\""), "9ts", "id", "start with a letter");
  }
  void physicalRanges() {
    expectError(mutate("\"bore\": 0.032", "\"bore\": -0.032"), "cyl", "params.bore", "outside the valid range");
    expectError(mutate("\"label\": \"1V1\",", "\"label\": \"1V1\", \"params\": {\"b_supply\": 1.2},"), "v1",
                "params.b_supply", "outside the valid range [0, 1)");
    expectError(mutate("\"stroke\": 0.2", "\"stroke\": 0.2, \"V0_A\": -1e-6"), "cyl", "params.V0_A", "outside");
    expectError(mutate("[0.1, 700000, 300]", "[0.1, -5, 300]"), "src", "data.table[1]", "pressure must be > 0");
  }
  void signalReferences() {
    expectError(mutate("\"ts.out\"", "\"tx.out\""), "v1", "inputs.sol14", "names no component or mechanism object 'tx'");
    expectError(mutate("\"ts.out\"", "\"tsout\""), "v1", "inputs.sol14", "<component id>.<channel>");
  }

  void overrides() {
    Project p = parseProject(kGood, "good");
    applyOverride(p, "cyl.bore=0.05");
    QCOMPARE(p.find("cyl")->params.at("bore"), 0.05);
    applyOverride(p, "simulation.t_end=2.5");
    QCOMPARE(p.simulation.t_end, 2.5);
    QVERIFY_THROWS_EXCEPTION(ProjectError, applyOverride(p, "cyl.bore=-1"));
    QVERIFY_THROWS_EXCEPTION(ProjectError, applyOverride(p, "cyl.nope=1"));
    QVERIFY_THROWS_EXCEPTION(ProjectError, applyOverride(p, "nobody.bore=1"));
    QVERIFY_THROWS_EXCEPTION(ProjectError, applyOverride(p, "cyl.bore=abc"));
    QCOMPARE(p.find("cyl")->params.at("bore"), 0.05);  // failed overrides change nothing
  }

  // An unfinished circuit (a required signal input still empty) saves and
  // opens again; only a run refuses it, naming the field.
  void unfinishedCircuitOpensButDoesNotRun() {
    Project p;
    Component c;
    c.id = "s1";
    c.type = "limit_switch";
    p.components.push_back(c);
    const Project again = parseProject(serializeProject(p), "unfinished");
    QVERIFY(again == p);
    try {
      Compiler::compile(again, "unfinished");
      QFAIL("compiled a limit switch that watches nothing");
    } catch (const ProjectError& e) {
      QCOMPARE(QString::fromStdString(e.object()), QString("s1"));
      QCOMPARE(QString::fromStdString(e.field()), QString("inputs.position"));
    }
  }

  // A time table's old params.smooth (0 linear, 1 monotone cubic) loads as
  // data.interpolation, so a file written before keeps its meaning; given
  // together with data.interpolation it is refused, naming the field.
  void legacyTimeTableSmooth() {
    const std::string table = R"({"id": "tt", "type": "time_table", "params": {"smooth": SMOOTH}, "data": {"points": [[0, 0], [1, 1]]DATA}},
    )";
    auto withTable = [&](const std::string& smooth, const std::string& data) {
      std::string t = table;
      t.replace(t.find("SMOOTH"), 6, smooth);
      t.replace(t.find("DATA"), 4, data);
      return mutate(R"({"id": "ts", "type": "time_switch")", t + R"({"id": "ts", "type": "time_switch")");
    };
    for (const auto& [smooth, mode] : {std::pair{"0", "linear"}, std::pair{"1", "monotone_cubic"}}) {
      const Project p = parseProject(withTable(smooth, ""), "old.pneumech.json");
      const Component* tt = p.find("tt");
      QVERIFY(tt);
      QCOMPARE(tt->data.value("interpolation", std::string()), std::string(mode));
      QVERIFY(!tt->params.count("smooth"));
    }
    expectError(withTable("1", R"(, "interpolation": "linear")"), "tt", "params.smooth", "replaced by data.interpolation");
  }

  void missingFile() {
    try {
      loadProject("/nonexistent/x.pneumech.json");
      QFAIL("no error");
    } catch (const ProjectError& e) {
      QCOMPARE(e.file(), std::string("/nonexistent/x.pneumech.json"));
    }
  }
};

QTEST_APPLESS_MAIN(TestProjectFile)
#include "test_project_file.moc"
