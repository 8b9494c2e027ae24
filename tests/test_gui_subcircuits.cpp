// Issue 24 in the studio: "make component from selection" and editing a
// sub-circuit's inside, as a user does them.
//  - makeFromSelection: seed 003's valve and flow control, picked by a
//    click and a Ctrl+click, become one block through Edit > Make
//    Sub-circuit... (type and instance typed, one port renamed and the
//    throttle setting exposed in the dialog). The document holds one instance wired as the flat lines were,
//    the type's ports are the lines that crossed the boundary, the change is
//    one undo step; the run's channels are vfc.v1.* and vfc.fc1.*, and the
//    cylinder's stroke times equal the flat run's exactly (the compiler
//    expands the block to the flat circuit). Undo gives the flat project back
//    and takes the type out of the registry and the library panel; redo
//    brings it back.
//  - packAttachedCylinder: a lever's attached cylinder and the step that
//    engages a latch packed by makeSubcircuit: the latch and the report
//    name them under the block, the run equals the flat one channel for
//    channel, and renaming the lever or its marker reaches the inner cylinder.
//  - editInside: the example project with its block (projects/
//    user_components/seed003_subcircuit) and a duplicate of it; a double
//    click opens the block's inside (breadcrumb, Back), the flow control's
//    C_max is typed there (0.6 dm3/(s bar) = 6e-9 m3/(s Pa)), and both
//    blocks' expansions carry it; undo and redo follow, and the project
//    saves and loads it.
//  - editInterface: from inside the block, a parameter and a port exposed
//    and taken back by picking, typing and clicking; the blocks outside follow.
//  - storeInLibrary: Edit > Store Sub-circuit in Library writes the type
//    into the library folder, from where the library panel lists it.
// Widgets are found by object name. Screenshots: subcircuit_made.png,
// subcircuit_inside.png, subcircuit_interface.png in the working directory.
#include "document.h"
#include "engine/engine.h"
#include "engine/subcircuits.h"
#include "library_panel.h"
#include "main_window.h"
#include "mechanism_editing.h"
#include "model/component_type.h"
#include "model/mass_properties.h"
#include "param_model.h"
#include "property_editor.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "subcircuit_editor.h"
#include "subcircuit_interface_panel.h"
#include "subcircuit_making.h"
#include "support/lever_project.h"
#include "support/property_typing.h"
#include "support/studio_window.h"
#include "support/test_project.h"

#include <QAction>
#include <QComboBox>
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
#include <QSettings>
#include <QStatusBar>
#include <QTreeWidget>
#include <QPointer>
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

// Issue 28's lever (seed 003's cylinder between the ground's clevis and a
// 2 kg lever) with a latch that locks the lever where it is when step
// `arm` rises at `tLock`, and the report plotting the stroke and the step.
Project latchedLever(double tLock) {
  Project p = pm::test::leverProject({0.15, -0.3, 0});
  p.mechanism.parts[1].mass_properties = "from_geometry";
  if (applyMassProperties(p.mechanism.parts[1])) qFatal("the lever's mass properties");
  Component arm;
  arm.id = "arm";
  arm.type = "step";
  arm.params = {{"t_step", tLock}, {"initial", 0.0}, {"final", 1.0}};
  arm.placement = {40, 300};
  p.components.push_back(arm);
  LatchDef lock;
  lock.id = "lock";
  lock.type = "fixed";
  lock.i = "lever.mid";
  lock.j = "ground.pivot";
  lock.engage = "arm.out";
  p.mechanism.latches.push_back(lock);
  p.extra["report"] = json::parse(R"({"plots": [["cyl1.x"], ["arm.out", "lock.engaged"]]})");
  return p;
}

// Picks `text` in a closed combo box by typing its start, as a user does.
void pick(QComboBox* box, const QString& text) {
  box->setFocus();
  QTest::keyClicks(box, text);
  QCOMPARE(box->currentText(), text);
}

// Selects row `row` of `t` by a click on its first cell.
void clickRow(QTableWidget* t, int row) {
  const QRect cell = t->visualItemRect(t->item(row, 0));
  QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, cell.center());
  QTest::qWait(10);
}

int rowNamed(const QTableWidget* t, const QString& name) {
  for (int r = 0; r < t->rowCount(); ++r)
    if (t->item(r, 0)->text() == name) return r;
  return -1;
}

QPushButton* buttonNamed(QWidget* in, const char* name) {
  auto* b = in->findChild<QPushButton*>(name);
  if (!b) qFatal("no button %s", name);
  return b;
}

}  // namespace

class TestGuiSubcircuits : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    // The library folder setting of these tests is their own.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
    QCoreApplication::setOrganizationName("PneuMechTest");
    QCoreApplication::setApplicationName("subcircuits");
  }

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
    // QPointer: the dialog deletes itself once closed (WA_DeleteOnClose).
    const QPointer<QDialog> dlg = w.findChild<QDialog*>("makeSubcircuitDialog");
    QVERIFY(dlg && dlg->isVisible());
    auto* ports = dlg->findChild<QTableWidget*>("subcircuitPorts");
    QVERIFY(ports);
    // The lines crossing the boundary (src - v1.1, v1.4 - cyl1.A, fc1.2 -
    // cyl1.B) and the solenoid's signal, named after the inner ones.
    QCOMPARE(ports->rowCount(), 4);
    QStringList names;
    for (int r = 0; r < 4; ++r) names << ports->item(r, 0)->text();
    QCOMPARE(names, (QStringList{"1", "4", "2", "sol14"}));
    test::typeInto(dlg->findChild<QLineEdit*>("subcircuitType"), "meter_out_valve");
    test::typeInto(dlg->findChild<QLineEdit*>("subcircuitInstance"), "vfc");
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
    QVERIFY(!dlg || !dlg->isVisible());

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

    // Undo: the flat circuit again, and the type gone from the registry
    // and the library panel (it listed it once made); redo brings it back.
    QVERIFY(w.libraryPanel()->itemOf("meter_out_valve"));
    undo->undo();
    QVERIFY(w.project() == flat);
    QCOMPARE(engine::serialize(w.project()), engine::serialize(flat));
    QVERIFY(!Registry::instance().find("meter_out_valve"));
    QVERIFY(!w.libraryPanel()->itemOf("meter_out_valve"));
    undo->redo();
    QVERIFY(w.project().find("vfc"));
    QVERIFY(engine::isSubcircuitType("meter_out_valve"));
    QVERIFY(w.libraryPanel()->itemOf("meter_out_valve"));
    QCOMPARE(Registry::instance().find("meter_out_valve")->definition, w.project().userComponents.at("meter_out_valve"));
  }

  // Packing an attached cylinder and the signal that switches a latch of
  // the mechanism: the latch and the report then name the inner signal and
  // cylinder under the block ("blk.arm.out", "blk.cyl1.x"), the cylinder
  // stays attached, and the run is the flat one channel for channel, to the
  // bit (the expansion gives the compiler the flat circuit in its order).
  void packAttachedCylinder() {
    const double tLock = 0.25;
    const Project flat = latchedLever(tLock);
    Project packed = flat;
    const std::set<std::string> ids{"cyl1", "arm"};
    const SubcircuitPlan plan = planSubcircuit(packed, ids);
    QCOMPARE(plan.ports.size(), size_t(2));  // cyl1.A, cyl1.B
    QCOMPARE(makeSubcircuit(packed, ids, "lever_drive", "blk", plan, "lever.pneumech.json"), std::string());
    QCOMPARE(packed.mechanism.latches[0].engage, std::string("blk.arm.out"));
    QCOMPARE(packed.extra.at("report").at("plots"), json::parse(R"([["blk.cyl1.x"], ["blk.arm.out", "lock.engaged"]])"));
    const Project expanded = engine::expandSubcircuits(packed);
    QVERIFY(expanded.find("blk.cyl1"));
    QCOMPARE(expanded.find("blk.cyl1")->data, flat.find("cyl1")->data);  // attached to the same markers

    auto a = pm::test::simulate(flat, "flat");
    auto b = pm::test::simulate(packed, "packed");
    QVERIFY2(a->ok(), a->message().c_str());
    QVERIFY2(b->ok(), b->message().c_str());
    // The lever does move, and the latch holds it from tLock on.
    const auto v = a->col("cyl1.v");
    QVERIFY(std::abs(v[a->indexAt(tLock - 0.01)]) > 0.05);
    QCOMPARE(a->col("lock.engaged").back(), 1.0);
    QVERIFY(std::abs(v.back()) < 1e-6);
    // Every flat channel, under its packed name, equal.
    QCOMPARE(a->t, b->t);
    int compared = 0;
    for (const auto& ch : a->out.channels()) {
      std::string name = ch.name;
      for (const std::string& id : ids)
        if (name.rfind(id + ".", 0) == 0) name = "blk." + name;
      QVERIFY2(b->out.find(name) >= 0, name.c_str());
      QVERIFY2(a->out.column(ch.name) == b->out.column(name), name.c_str());
      ++compared;
    }
    QCOMPARE(size_t(compared), b->out.channels().size());

    // Renaming the lever or its marker in the mechanism reaches the packed
    // cylinder too (the type registered anew, as the Document does after an edit).
    const auto rod = [&] {
      engine::registerSubcircuits(packed, "lever.pneumech.json");
      return engine::expandSubcircuits(packed).find("blk.cyl1")->data.at("attach").at("rod");
    };
    QCOMPARE(renameObject(packed, "lever.P", "lever.Q"), QString());
    QCOMPARE(rod(), json("lever.Q"));
    QCOMPARE(renameObject(packed, "lever", "arm2"), QString());
    QCOMPARE(rod(), json("arm2.Q"));
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

  // The interface edited from inside a block: in seed 003's block, the
  // valve's switching time exposed as "t_valve" and its exhaust 3 made
  // external port "exh" (picked in a list, named by typing, Expose), then
  // the parameter and the cap-side port "4" taken back (a row clicked,
  // Remove). Each is one undo step; the blocks outside follow: the new port
  // on the symbol, the parameter in the block's property editor (default the
  // inner 0.01 s, the run unchanged), a value set on the block and the line
  // to the port taken back go with them; undo gives the project back.
  void editInterface() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, pm::test::examplePath("user_components/seed003_subcircuit"), pm::test::kLargeWindow));
    SchematicView* view = w.schematicView();
    QUndoStack* undo = w.document()->undoStack();
    const Project before = w.project();
    const int start = undo->count();
    const auto openBlock = [&] {
      QTest::mouseDClick(view->viewport(), Qt::LeftButton, {},
                         view->mapFromScene(w.scene()->componentItem("vfc")->bodySceneRect().center()));
      QTest::qWait(50);
    };
    openBlock();
    auto* editor = w.findChild<SubcircuitEditor*>("subcircuitEditor");
    QVERIFY(editor && editor->isVisible());
    QWidget* panel = editor->interfacePanel();
    QVERIFY(panel && panel->isVisible());
    auto* ports = panel->findChild<QTableWidget*>("interfacePorts");
    auto* params = panel->findChild<QTableWidget*>("interfaceParameters");
    QVERIFY(ports && params);
    QCOMPARE(ports->rowCount(), 3);
    QCOMPARE(params->rowCount(), 1);
    const auto def = [&] { return w.project().userComponents.at("meter_out_valve"); };

    pick(panel->findChild<QComboBox*>("interfaceParameterChoice"), "v1.t_switch");
    test::typeInto(panel->findChild<QLineEdit*>("interfaceParameterName"), "t_valve");
    QTest::mouseClick(buttonNamed(panel, "interfaceExposeParameter"), Qt::LeftButton);
    QCOMPARE(undo->count(), start + 1);
    QCOMPARE(def().at("parameters").back(), json::parse(R"({"name": "t_valve", "targets": ["v1.t_switch"]})"));
    QCOMPARE(params->rowCount(), 2);
    const ParamDecl* tv = Registry::instance().find("meter_out_valve")->param("t_valve");
    QVERIFY(tv);
    QCOMPARE(tv->def, 0.01);
    QCOMPARE(expandedParam(w.project(), "vfc.v1", "t_switch"), 0.01);

    // A name the type has already is refused, nothing pushed.
    pick(panel->findChild<QComboBox*>("interfaceParameterChoice"), "fc1.C_max");
    test::typeInto(panel->findChild<QLineEdit*>("interfaceParameterName"), "opening");
    QTest::mouseClick(buttonNamed(panel, "interfaceExposeParameter"), Qt::LeftButton);
    QCOMPARE(undo->count(), start + 1);
    QVERIFY(w.statusBar()->currentMessage().contains("named 'opening' already"));

    pick(panel->findChild<QComboBox*>("interfacePortChoice"), "v1.3");
    test::typeInto(panel->findChild<QLineEdit*>("interfacePortName"), "exh");
    QTest::mouseClick(buttonNamed(panel, "interfaceExposePort"), Qt::LeftButton);
    QCOMPARE(undo->count(), start + 2);
    QCOMPARE(def().at("ports").back(), json::parse(R"({"name": "exh", "connect": "v1.3"})"));
    QCOMPARE(ports->rowCount(), 4);
    QVERIFY(w.scene()->componentItem("vfc")->hasPort("exh"));  // the block outside has it

    // Outside: the block's property editor lists t_valve; a value set there reaches the inner valve.
    QTest::mouseClick(editor->findChild<QPushButton*>("subcircuitBack"), Qt::LeftButton);
    QTest::qWait(20);
    clickComponent(view, "vfc");
    QCOMPARE(w.propertyEditor()->componentId(), std::string("vfc"));
    QVERIFY(w.propertyEditor()->model()->rowOf("t_valve") >= 0);
    w.document()->edit("t_valve", [](Project& p) { p.find("vfc")->params["t_valve"] = 0.02; });
    QCOMPARE(expandedParam(w.project(), "vfc.v1", "t_switch"), 0.02);

    openBlock();
    panel = editor->interfacePanel();
    params = panel->findChild<QTableWidget*>("interfaceParameters");
    ports = panel->findChild<QTableWidget*>("interfacePorts");
    int steps = undo->count();
    clickRow(params, rowNamed(params, "t_valve"));
    QTest::mouseClick(buttonNamed(panel, "interfaceRemoveParameter"), Qt::LeftButton);
    QCOMPARE(undo->count(), steps + 1);
    QVERIFY(def().at("parameters").dump().find("t_valve") == std::string::npos);
    QVERIFY(!w.project().find("vfc")->params.count("t_valve"));  // the block's value went with it
    QCOMPARE(expandedParam(w.project(), "vfc.v1", "t_switch"), 0.01);

    QVERIFY(hasLine(w.project(), "vfc.4", "cyl1.A"));
    clickRow(ports, rowNamed(ports, "4"));
    QTest::mouseClick(buttonNamed(panel, "interfaceRemovePort"), Qt::LeftButton);
    QCOMPARE(undo->count(), steps + 2);
    QCOMPARE(ports->rowCount(), 3);
    QVERIFY(def().at("ports").dump().find("v1.4") == std::string::npos);
    QVERIFY(!hasLine(w.project(), "vfc.4", "cyl1.A"));  // the line to it outside went
    QCOMPARE(w.project().connections.size(), before.connections.size() - 1);
    QTest::qWait(50);
    QVERIFY(w.grab().save(QDir::current().filePath("subcircuit_interface.png")));

    undo->undo();
    QVERIFY(hasLine(w.project(), "vfc.4", "cyl1.A"));
    QCOMPARE(ports->rowCount(), 4);
    while (undo->count() > start && undo->canUndo()) undo->undo();
    QVERIFY(w.project() == before);
    QVERIFY(!Registry::instance().find("meter_out_valve")->param("t_valve"));
  }

  // Edit > Store Sub-circuit in Library writes the selected block's type
  // into the library folder (a temporary one, set as in Edit > Preferences):
  // the file reads back as the type, the library panel names it as from
  // there, and the type stays when a project no longer carries it.
  void storeInLibrary() {
    QTemporaryDir lib;
    QSettings().setValue("library/folder", lib.path());
    MainWindow w;
    QVERIFY(pm::test::showProject(w, pm::test::examplePath("user_components/seed003_subcircuit"), pm::test::kLargeWindow));
    clickComponent(w.schematicView(), "vfc");
    auto* store = w.findChild<QAction*>("actionStoreInLibrary");
    QVERIFY(store);
    store->trigger();
    const QString file = lib.filePath("meter_out_valve.json");
    QVERIFY2(QFile::exists(file), qPrintable(w.statusBar()->currentMessage()));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(json::parse(f.readAll().toStdString()), w.project().userComponents.at("meter_out_valve"));
    QCOMPARE(Registry::instance().find("meter_out_valve")->origin, file.toStdString());
    QTreeWidgetItem* item = w.libraryPanel()->itemOf("meter_out_valve");
    QVERIFY(item && item->toolTip(0).contains(file));
    // The project drops the type (its block deleted): the library's stays.
    w.document()->edit("drop", [](Project& p) {
      std::erase_if(p.components, [](const Component& c) { return c.id == "vfc"; });
      std::erase_if(p.connections, [](const Connection& k) { return k.from.component == "vfc" || k.to.component == "vfc"; });
      p.userComponents.clear();
    });
    QVERIFY(engine::isSubcircuitType("meter_out_valve"));
    QCOMPARE(Registry::instance().find("meter_out_valve")->origin, file.toStdString());
    QCOMPARE(engine::loadUserLibrary(lib.path().toStdString()), std::vector<std::string>{"meter_out_valve"});
  }

 private:
  QTemporaryDir settings_;
};

QTEST_MAIN(TestGuiSubcircuits)
#include "test_gui_subcircuits.moc"
