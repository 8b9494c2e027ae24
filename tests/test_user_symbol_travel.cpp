// A user type's own SVG symbol travels with the project that uses it
// (issue 24): saving carries the drawing inside the type's definition
// (`symbol_svg`), so the project opened on a machine without the user's
// library folder still draws it, for a user component and a sub-circuit.
#include "build/project_input.h"
#include "io/project_file.h"
#include "io/subcircuit_file.h"
#include "model/project_error.h"
#include "user/user_component.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace pm;
using nlohmann::json;

namespace {

// An SVG marking ports 1 and 2 (id="port-<name>"), drawn as `title`.
std::string svg(const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\" viewBox=\"0 0 40 40\"><title>" + title +
         "</title><rect x=\"5\" y=\"8\" width=\"30\" height=\"24\" fill=\"#fff\" stroke=\"#000\"/>"
         "<circle id=\"port-1\" cx=\"0\" cy=\"20\" r=\"1\"/><circle id=\"port-2\" cx=\"40\" cy=\"20\" r=\"1\"/></svg>\n";
}

// A library folder `dir`: an orifice-like user component `travel_orifice`
// drawn by orifice.svg and a sub-circuit `travel_block` around one of them
// drawn by block.svg.
void writeLibrary(const std::string& dir) {
  std::ofstream(dir + "/travel_orifice.json")
      << R"json({"name": "travel_orifice", "symbol": "orifice.svg",
             "ports": [{"name": "1"}, {"name": "2"}],
             "parameters": [{"name": "C", "unit": "m3/(s Pa)", "default": 1e-8, "min": 0}],
             "flows": [{"from": "1", "to": "2", "mass_flow": "C * (p_1 - p_2) * rho_ref"}]})json";
  std::ofstream(dir + "/orifice.svg") << svg("orifice");
  std::ofstream(dir + "/travel_block.json")
      << R"({"format": "pneumech-subcircuit", "name": "travel_block", "symbol": "block.svg",
             "ports": [{"name": "1", "connect": "o.1"}, {"name": "2", "connect": "o.2"}],
             "components": [{"id": "o", "type": "travel_orifice"}], "connections": []})";
  std::ofstream(dir + "/block.svg") << svg("block");
}

// A project using both types, as the studio has it before saving.
std::string projectText() {
  return R"({"format": "pneumech-project", "schema_version": 1,
             "components": [{"id": "src", "type": "supply"}, {"id": "r1", "type": "travel_orifice"},
                            {"id": "b1", "type": "travel_block"}],
             "connections": [{"id": "l1", "from": "src.1", "to": "r1.1"}, {"id": "l2", "from": "r1.2", "to": "b1.1"}]})";
}

std::string saveElsewhere(const std::string& dir, const std::string& text) {
  const std::string path = dir + "/sent.pneumech.json";
  std::ofstream(path) << text;
  return path;
}

}  // namespace

class TestUserSymbolTravel : public QObject {
  Q_OBJECT
 private slots:
  // Saved, the definitions carry their SVGs; the library folder deleted,
  // the saved project opens elsewhere with both drawings.
  void savedProjectCarriesTheSymbols() {
    auto lib = std::make_unique<QTemporaryDir>();
    const std::string d = lib->path().toStdString();
    writeLibrary(d);
    QCOMPARE(user::loadLibrary(d, registerSubcircuit).size(), size_t(2));
    QCOMPARE(Registry::instance().find("travel_orifice")->symbol_svg, svg("orifice"));
    const Project p = parseProject(projectText(), d + "/work.pneumech.json");
    const json saved = json::parse(serializeProject(p));
    QCOMPARE(saved["user_components"]["travel_orifice"].value("symbol_svg", ""), svg("orifice"));
    QCOMPARE(saved["subcircuits"]["travel_block"].value("symbol_svg", ""), svg("block"));

    lib.reset();  // the other machine has no library folder
    QVERIFY(!std::filesystem::exists(d));
    QTemporaryDir other;
    const Project q = loadProject(saveElsewhere(other.path().toStdString(), saved.dump(2)));
    QCOMPARE(q.components.size(), size_t(3));
    const ComponentType* orifice = Registry::instance().find("travel_orifice");
    const ComponentType* block = Registry::instance().find("travel_block");
    QCOMPARE(orifice->origin, other.path().toStdString() + "/sent.pneumech.json");  // the project's copy
    QCOMPARE(orifice->symbol_svg, svg("orifice"));
    QCOMPARE(block->symbol_svg, svg("block"));
    // Saved again, it still carries them.
    const json again = json::parse(serializeProject(q));
    QCOMPARE(again["user_components"]["travel_orifice"].value("symbol_svg", ""), svg("orifice"));
    QCOMPARE(again["subcircuits"]["travel_block"].value("symbol_svg", ""), svg("block"));
  }

  // A carried SVG is checked as a file's is: a missing port mark is refused
  // naming the project file, the type and the field.
  void carriedSymbolIsChecked() {
    QTemporaryDir lib;
    writeLibrary(lib.path().toStdString());
    user::loadLibrary(lib.path().toStdString(), registerSubcircuit);
    json saved = json::parse(serializeProject(parseProject(projectText(), "work.pneumech.json")));
    std::string& text = saved["user_components"]["travel_orifice"]["symbol_svg"].get_ref<std::string&>();
    text.replace(text.find("port-2"), 6, "port-9");
    QTemporaryDir other;
    const std::string path = saveElsewhere(other.path().toStdString(), saved.dump(2));
    try {
      loadProject(path);
      QFAIL("accepted a carried symbol without port 2");
    } catch (const ProjectError& e) {
      qInfo("%s", e.what());
      const std::string m = e.what();
      QVERIFY(m.find(path) != std::string::npos);
      QVERIFY(m.find("object 'travel_orifice', field 'symbol_svg'") != std::string::npos);
      QVERIFY(m.find("the symbol carried in the definition has no anchor for port '2'") != std::string::npos);
    }
  }
};

QTEST_APPLESS_MAIN(TestUserSymbolTravel)
#include "test_user_symbol_travel.moc"
