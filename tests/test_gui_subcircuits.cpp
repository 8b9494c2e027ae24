// Issue 24 in the studio: "make component from selection" and editing a
// sub-circuit's inside, as a user does them.
//  - makeFromSelection: seed 003's valve and flow control, picked by a
//    click and a Ctrl+click, become one block through Edit > Make
//    Sub-circuit... (type and instance typed, one port renamed and the
//    throttle setting exposed in the dialog). The document holds one instance wired as the flat lines were,
//    the type's ports are the lines that crossed the boundary, the change is
//    one undo step; the run's channels are vfc.v1.* and vfc.fc1.*, and the
//    cylinder's stroke times equal the flat run's exactly (the compiler
//    expands the block to the flat circuit). Undo gives the flat project back.
//  - editInside: the example project with its block (projects/
//    user_components/seed003_subcircuit) and a duplicate of it; a double
//    click opens the block's inside (breadcrumb, Back), the flow control's
//    C_max is typed there (0.6 dm3/(s bar) = 6e-9 m3/(s Pa)), and both
//    blocks' expansions carry it; undo and redo follow, and the project
//    saves and loads it.
// Widgets are found by object name. Screenshots: subcircuit_made.png,
// subcircuit_inside.png in the working directory.
#include "document.h"
#include "engine/engine.h"
#include "engine/subcircuits.h"
#include "main_window.h"
#include "param_model.h"
#include "property_editor.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "support/property_typing.h"
#include "support/studio_window.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace pm;
using namespace pm::gui;
using nlohmann::json;
using pm::test::typeParam;

namespace {

// Clicks the middle of component `id`'s symbol (with `mods`).
void clickComponent(SchematicView* view, const std::string& id, Qt::KeyboardModifiers mods = {}) {
  ComponentItem* item = view->schematic()->componentItem(id);
  QVERIFY2(item, id.c_str());
  const QPoint at = view->mapFromScene(item->bodySceneRect().center());
  QTest::mouseClick(view->viewport(), Qt::LeftButton, mods, at);
  QTest::qWait(10);
}

// Replaces the text of `edit` by typing `text`.
void typeInto(QLineEdit* edit, const QString& text) {
  edit->setFocus();
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
}

const CylinderResult* cylinder(const KeyResults& k, const std::string& id) {
  for (const CylinderResult& c : k.cylinders)
    if (c.id == id) return &c;
  return nullptr;
}

bool hasLine(const Project& p, const std::string& a, const std::string& b) {
  return std::any_of(p.connections.begin(), p.connections.end(), [&](const Connection& k) {
    return (k.from.str() == a && k.to.str() == b) || (k.from.str() == b && k.to.str() == a);
  });
}

double innerParam(const json& def, const std::string& id, const std::string& param) {
  for (const json& c : def.at("components"))
    if (c.at("id") == id) return c.at("params").at(param).get<double>();
  return NAN;
}

double expandedParam(const Project& p, const std::string& id, const std::string& param) {
  const Project flat = engine::expandSubcircuits(p);
  const Component* c = flat.find(id);
  if (!c) return NAN;
  auto it = c->params.find(param);
  return it == c->params.end() ? NAN : it->second;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); }

}  // namespace

class TestGuiSubcircuits : public QObject {
  Q_OBJECT

 private slots:
  void makeFromSelection() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, pm::test::examplePath("seed003_meter_out"), pm::test::kLargeWindow));
    const Project flat = w.project();
    QVERIFY(pm::test::runToEnd(w));
    const KeyResults kFlat = engine::keyResults(w.project(), *w.keyResultRows());
    const CylinderResult* cf = cylinder(kFlat, "cyl1");
    QVERIFY(cf && cf->firstStroke(true) && cf->firstStroke(true)->complete);

    // The valve by a click, the flow control by Ctrl+click.
    SchematicView* view = w.schematicView();
    view->setFocus();
    clickComponent(view, "v1");
    clickComponent(view, "fc1", Qt::ControlModifier);
    QCOMPARE(w.scene()->selectedComponents(), (std::set<std::string>{"fc1", "v1"}));

    QUndoStack* undo = w.document()->undoStack();
    const int steps = undo->count();
    auto* make = w.findChild<QAction*>("actionMakeSubcircuit");
    QVERIFY2(make, "Edit > Make Sub-circuit...");
    make->trigger();
    QTest::qWait(20);
    auto* dlg = w.findChild<QDialog*>("makeSubcircuitDialog");
    QVERIFY(dlg && dlg->isVisible());
    auto* ports = dlg->findChild<QTableWidget*>("subcircuitPorts");
    QVERIFY(ports);
    // The lines crossing the boundary (src - v1.1, v1.4 - cyl1.A, fc1.2 -
    // cyl1.B) and the solenoid's signal, named after the inner ones.
    QCOMPARE(ports->rowCount(), 4);
    QStringList names;
    for (int r = 0; r < 4; ++r) names << ports->item(r, 0)->text();
    QCOMPARE(names, (QStringList{"1", "4", "2", "sol14"}));
    typeInto(dlg->findChild<QLineEdit*>("subcircuitType"), "meter_out_valve");
    typeInto(dlg->findChild<QLineEdit*>("subcircuitInstance"), "vfc");
    // The cap-side port renamed by typing in its cell.
    ports->setFocus();
    ports->setCurrentCell(1, 0);
    ports->editItem(ports->item(1, 0));
    QTest::qWait(10);
    QLineEdit* cell = nullptr;
    for (QLineEdit* e : ports->findChildren<QLineEdit*>())
      if (e->isVisible()) cell = e;
    QVERIFY(cell);
    cell->selectAll();
    QTest::keyClicks(cell, "cap");
    QTest::keyClick(cell, Qt::Key_Return);
    // The throttle setting exposed: its row ticked with the space bar.
    auto* params = dlg->findChild<QTableWidget*>("subcircuitParameters");
    QVERIFY(params);
    int opening = -1;
    for (int r = 0; r < params->rowCount(); ++r)
      if (params->item(r, 1)->text().startsWith("fc1.opening = 0.5")) opening = r;
    QVERIFY(opening >= 0);
    QCOMPARE(params->item(opening, 0)->text(), QString("opening"));
    params->setFocus();
    params->setCurrentCell(opening, 0);
    QTest::keyClick(params, Qt::Key_Space);
    QCOMPARE(params->item(opening, 0)->checkState(), Qt::Checked);
    auto* box = dlg->findChild<QDialogButtonBox*>();
    QVERIFY(box);
    QTest::mouseClick(box->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTest::qWait(20);
    QVERIFY(!dlg->isVisible());

    // One instance where the valve and the flow control were, wired as they were.
    const Project& p = w.project();
    QCOMPARE(undo->count(), steps + 1);
    QVERIFY(!p.find("v1") && !p.find("fc1"));
    const Component* vfc = p.find("vfc");
    QVERIFY(vfc);
    QCOMPARE(vfc->type, std::string("meter_out_valve"));
    QCOMPARE(vfc->inputs.at("sol14"), std::string("sw1.out"));
    QCOMPARE(p.components.size(), flat.components.size() - 1);
    QCOMPARE(p.connections.size(), size_t(3));
    QVERIFY(hasLine(p, "src.1", "vfc.1"));
    QVERIFY(hasLine(p, "vfc.cap", "cyl1.A"));
    QVERIFY(hasLine(p, "vfc.2", "cyl1.B"));
    const json& def = p.userComponents.at("meter_out_valve");
    const json portsDef = json::array({{{"connect", "v1.1"}, {"name", "1"}},
                                       {{"connect", "v1.4"}, {"name", "cap"}},
                                       {{"connect", "fc1.2"}, {"name", "2"}}});
    QCOMPARE(def.at("ports"), portsDef);
    QCOMPARE(def.at("inputs"), json::parse(R"([{"name": "sol14", "targets": ["v1.sol14"]}])"));
    QCOMPARE(def.at("parameters"), json::parse(R"([{"name": "opening", "targets": ["fc1.opening"]}])"));
    QCOMPARE(def.at("components").size(), size_t(2));
    QCOMPARE(def.at("connections").size(), size_t(1));
    QCOMPARE(def.at("connections")[0].at("from"), json("v1.2"));
    QCOMPARE(def.at("connections")[0].at("to"), json("fc1.1"));
    QTest::qWait(50);
    QVERIFY(w.grab().save(QDir::current().filePath("subcircuit_made.png")));

    // The run: the inner channels under the instance, the stroke as flat, to the bit.
    QVERIFY(pm::test::runToEnd(w));
    const auto channels = engine::CompiledProject(w.project()).channelNames();
    const auto prefixed = [&](const std::string& pre) {
      return std::any_of(channels.begin(), channels.end(), [&](const std::string& c) { return c.rfind(pre, 0) == 0; });
    };
    QVERIFY(prefixed("vfc.v1.") && prefixed("vfc.fc1.") && !prefixed("v1.") && !prefixed("fc1."));
    const KeyResults kPacked = engine::keyResults(w.project(), *w.keyResultRows());
    const CylinderResult* cp = cylinder(kPacked, "cyl1");
    QVERIFY(cp && cp->firstStroke(true));
    QCOMPARE(cp->firstStroke(true)->tEnd, cf->firstStroke(true)->tEnd);
    QCOMPARE(cp->firstStroke(true)->tStart, cf->firstStroke(true)->tStart);
    QCOMPARE(cp->firstStroke(true)->vArrival, cf->firstStroke(true)->vArrival);
    QCOMPARE(cp->vMax, cf->vMax);
    QCOMPARE(cp->pBMax, cf->pBMax);

    // Undo: the flat circuit again.
    undo->undo();
    QVERIFY(w.project() == flat);
    undo->redo();
    QVERIFY(w.project().find("vfc"));
  }

  void editInside() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, pm::test::examplePath("user_components/seed003_subcircuit"), pm::test::kLargeWindow));
    SchematicView* view = w.schematicView();
    // A second block of the type (Ctrl+D).
    w.scene()->selectObjects({"vfc"});
    view->setFocus();
    QTest::keyClick(view, Qt::Key_D, Qt::ControlModifier);
    std::vector<std::string> blocks;
    for (const Component& c : w.project().components)
      if (c.type == "meter_out_valve") blocks.push_back(c.id);
    QCOMPARE(blocks.size(), size_t(2));
    QCOMPARE(expandedParam(w.project(), blocks[1] + ".fc1", "C_max"), 8e-9);

    // A double click on the block opens its inside.
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {},
                       view->mapFromScene(w.scene()->componentItem("vfc")->bodySceneRect().center()));
    QTest::qWait(50);
    auto* editor = w.findChild<QWidget*>("subcircuitEditor");
    QVERIFY2(editor && editor->isVisible(), "the inside is shown");
    QVERIFY(!view->isVisible());
    auto* crumbs = editor->findChild<QLabel*>("subcircuitBreadcrumb");
    QVERIFY(crumbs);
    QCOMPARE(crumbs->text().remove(QRegularExpression("<[^>]*>")),
             QString::fromUtf8("seed003_subcircuit › vfc (meter_out_valve)"));
    auto* inner = editor->findChild<SchematicView*>("subcircuitView");
    auto* props = editor->findChild<PropertyEditor*>("subcircuitProperties");
    QVERIFY(inner && props && inner->isVisible());
    QVERIFY(inner->schematic()->componentItem("fc1") && inner->schematic()->componentItem("v1"));
    inner->setFocus();
    clickComponent(inner, "fc1");
    QCOMPARE(props->componentId(), std::string("fc1"));
    typeParam(props, "C_max", "0.6");  // dm3/(s bar)
    const json& def = w.project().userComponents.at("meter_out_valve");
    QVERIFY2(near(innerParam(def, "fc1", "C_max"), 6e-9), std::to_string(innerParam(def, "fc1", "C_max")).c_str());
    // The inside's symbol shows it: C = C_max * opening = 0.3 dm3/(s bar).
    QCOMPARE(inner->schematic()->componentItem("fc1")->keyDataText(), QString("C 0.3"));
    QTest::qWait(50);
    QVERIFY(w.grab().save(QDir::current().filePath("subcircuit_inside.png")));

    // Back: the project's circuit; both blocks run the new throttle.
    auto* back = editor->findChild<QPushButton*>("subcircuitBack");
    QVERIFY(back);
    QTest::mouseClick(back, Qt::LeftButton);
    QTest::qWait(20);
    QVERIFY(view->isVisible() && !editor->isVisible());
    for (const std::string& b : blocks) {
      QVERIFY2(near(expandedParam(w.project(), b + ".fc1", "C_max"), 6e-9), b.c_str());
      QCOMPARE(expandedParam(w.project(), b + ".v1", "t_switch"), 0.01);
    }
    QUndoStack* undo = w.document()->undoStack();
    undo->undo();
    QCOMPARE(expandedParam(w.project(), blocks[1] + ".fc1", "C_max"), 8e-9);
    undo->redo();
    QVERIFY(near(expandedParam(w.project(), blocks[1] + ".fc1", "C_max"), 6e-9));

    // Saved and loaded, the type keeps it.
    QTemporaryDir dir;
    const QString path = dir.filePath("packed.pneumech.json");
    QVERIFY(w.saveProjectAs(path));
    const Project loaded = engine::load(path.toStdString());
    for (const std::string& b : blocks) QVERIFY2(near(expandedParam(loaded, b + ".fc1", "C_max"), 6e-9), b.c_str());
  }
};

QTEST_MAIN(TestGuiSubcircuits)
#include "test_gui_subcircuits.moc"
