// A user component with its own SVG symbol (issue 24): the studio's library
// lists it, dragging it onto the sheet adds an instance, and the symbol's
// ports sit where the SVG's id="port-<name>" marks are.
#include "library_panel.h"
#include "main_window.h"
#include "schematic_view.h"
#include "symbol_library.h"
#include "support/drop_events.h"
#include "support/studio_window.h"

#include "engine/engine.h"
#include "model/component_type.h"

#include <QMimeData>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <fstream>

using namespace pm;
using namespace pm::gui;

class TestGuiUserSymbols : public QObject {
  Q_OBJECT
 private slots:
  void ownSvgSymbolInTheLibraryAndOnTheSheet() {
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    std::ofstream(d + "/user_orifice_svg.json")
        << "{\"name\": \"user_orifice_svg\", \"symbol\": \"orifice.svg\",\n"
           " \"ports\": [{\"name\": \"1\"}, {\"name\": \"2\"}],\n"
           " \"parameters\": [{\"name\": \"C\", \"unit\": \"m3/(s Pa)\", \"default\": 1e-8, \"min\": 0}],\n"
           " \"flows\": [{\"from\": \"1\", \"to\": \"2\", \"mass_flow\": \"C * (p_1 - p_2) * rho_ref\"}]}\n";
    std::ofstream(d + "/orifice.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\" viewBox=\"0 0 40 40\"> "
        "<title>My orifice</title> "
        "<rect x=\"5\" y=\"8\" width=\"30\" height=\"24\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.5\"/> "
        "<path d=\"M 12,14 L 28,26 M 12,26 L 28,14\" stroke=\"#c00\" stroke-width=\"2\" fill=\"none\"/> "
        "<circle id=\"port-1\" cx=\"20\" cy=\"40\" r=\"1\" fill=\"none\" stroke=\"none\"/> "
        "<circle id=\"port-2\" cx=\"30\" cy=\"0\" r=\"1\" fill=\"none\" stroke=\"none\"/> "
        "</svg> ";
    QCOMPARE(engine::loadUserLibrary(d), std::vector<std::string>{"user_orifice_svg"});

    const Symbol& s = SymbolLibrary::instance().symbol("user_orifice_svg");
    QVERIFY(s.svg);  // the user's drawing, not the generated box
    QCOMPARE(s.title, QString("My orifice"));
    QCOMPARE(s.size, QSizeF(40, 40));
    QVERIFY(s.port("1") && s.port("2"));
    QCOMPARE(s.port("1")->pos, QPointF(20, 40));
    QCOMPARE(s.port("1")->dir, QPointF(0, 1));  // bottom edge: faces down
    QCOMPARE(s.port("2")->pos, QPointF(30, 0));
    QCOMPARE(s.port("2")->dir, QPointF(0, -1));

    MainWindow w;
    QVERIFY(test::showNewCircuit(w, test::Zoom{2, {0, 0}}));
    QTreeWidgetItem* item = w.libraryPanel()->itemOf("user_orifice_svg");
    QVERIFY(item);
    QVERIFY(item->text(0).contains("(user)"));
    QTreeWidget* tree = w.libraryPanel()->tree();
    std::unique_ptr<QMimeData> mime(tree->model()->mimeData({tree->indexFromItem(item)}));
    QVERIFY(mime);
    SchematicView* view = w.schematicView();
    QVERIFY(test::deliverDrop(view->viewport(), view->mapFromScene(QPointF(0, 0)), mime.get()));
    QCOMPARE(w.project().components.size(), size_t(1));
    QCOMPARE(w.project().components[0].type, std::string("user_orifice_svg"));
    if (const char* shot = std::getenv("PM_SCREENSHOT")) w.grab().save(shot);
  }

  // Saved, the project carries the drawing (symbol_svg): opened where the
  // library folder is gone, the studio still draws the user's symbol.
  void symbolTravelsWithTheProject() {
    auto lib = std::make_unique<QTemporaryDir>();
    const std::string d = lib->path().toStdString();
    std::ofstream(d + "/user_valve_travel.json")
        << "{\"name\": \"user_valve_travel\", \"symbol\": \"valve.svg\",\n"
           " \"ports\": [{\"name\": \"1\"}, {\"name\": \"2\"}],\n"
           " \"parameters\": [{\"name\": \"C\", \"unit\": \"m3/(s Pa)\", \"default\": 1e-8, \"min\": 0}],\n"
           " \"flows\": [{\"from\": \"1\", \"to\": \"2\", \"mass_flow\": \"C * (p_1 - p_2) * rho_ref\"}]}\n";
    std::ofstream(d + "/valve.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\" viewBox=\"0 0 40 20\">"
        "<title>Travelling valve</title><rect x=\"2\" y=\"2\" width=\"36\" height=\"16\" fill=\"#fff\" stroke=\"#000\"/>"
        "<circle id=\"port-1\" cx=\"0\" cy=\"10\" r=\"1\"/><circle id=\"port-2\" cx=\"40\" cy=\"10\" r=\"1\"/></svg>";
    QCOMPARE(engine::loadUserLibrary(d), std::vector<std::string>{"user_valve_travel"});
    const std::string saved = engine::serialize(engine::parse(
        R"({"format": "pneumech-project", "schema_version": 1,
            "components": [{"id": "u1", "type": "user_valve_travel"}], "connections": []})",
        d + "/work.pneumech.json"));
    lib.reset();  // another machine: no library folder
    QTemporaryDir other;
    const std::string path = other.path().toStdString() + "/sent.pneumech.json";
    std::ofstream(path) << saved;
    MainWindow w;
    QVERIFY(w.openProject(QString::fromStdString(path)));
    QCOMPARE(w.project().components.size(), size_t(1));
    SymbolLibrary::instance().reload();
    const Symbol& s = SymbolLibrary::instance().symbol("user_valve_travel");
    QVERIFY(s.svg);  // the user's drawing, not the generated box
    QCOMPARE(s.title, QString("Travelling valve"));
    QCOMPARE(s.port("2")->pos, QPointF(40, 10));
  }
};

QTEST_MAIN(TestGuiUserSymbols)
#include "test_gui_user_symbols.moc"
