// The schematic editor driven as a user drives it (offscreen platform):
// components dropped from the library, ports joined by mouse drags, the bore
// typed into the property editor, undo/redo, save and reopen, select and
// delete, copy/paste, the pre-run checks, the run animation, a rendering of
// the seed-003 circuit, and the time to open a 500-component circuit.
//
// Dropping: a real QDrag runs its own platform event loop, which the
// offscreen platform cannot drive from a test, so the test builds the drag's
// QMimeData with the library tree's own mimeData() and delivers the
// QDragEnter/QDragMove/QDrop events to the canvas - the code path of a real
// drop from the point the mouse is released.
#include "document.h"
#include "library_panel.h"
#include "main_window.h"
#include "param_model.h"
#include "property_editor.h"
#include "run_animation.h"
#include "schematic_items.h"
#include "schematic_router.h"
#include "simulation_runner.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "start_page.h"
#include "symbol_library.h"
#include "engine/engine.h"
#include "support/drop_events.h"
#include "support/property_typing.h"
#include "support/studio_window.h"


#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QTimer>
#include <QPainter>
#include <QScrollBar>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QWheelEvent>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <ctime>
#include <set>

using namespace pm;
using namespace pm::gui;
using pm::test::kLargeWindow;
using pm::test::showNewCircuit;
using pm::test::showProject;
using pm::test::showWindow;
using pm::test::Zoom;
using pm::test::examplePath;
using pm::test::typeParam;

namespace {

QString seed003() { return pm::test::examplePath("seed003_meter_out"); }

// Drops library entry `type` at viewport point `at` (see the file comment).
bool dropFromLibrary(MainWindow& w, const QString& type, const QPoint& at) {
  QTreeWidgetItem* item = w.libraryPanel()->itemOf(type);
  if (!item) return false;
  QTreeWidget* tree = w.libraryPanel()->tree();
  const QModelIndex idx = tree->indexFromItem(item);
  std::unique_ptr<QMimeData> mime(tree->model()->mimeData({idx}));
  if (!mime) return false;
  QWidget* vp = w.schematicView()->viewport();
  return pm::test::deliverDrop(vp, at, mime.get());
}

QPoint viewPointOfPort(MainWindow& w, const std::string& comp, const std::string& port) {
  const auto p = w.scene()->portPos({comp, port});
  return p ? w.schematicView()->mapFromScene(*p) : QPoint(-1, -1);
}

// Mouse drag from one port to another in view coordinates.
void dragPortToPort(MainWindow& w, const std::string& a, const std::string& pa, const std::string& b,
                    const std::string& pb) {
  QWidget* vp = w.schematicView()->viewport();
  const QPoint from = viewPointOfPort(w, a, pa), to = viewPointOfPort(w, b, pb);
  QTest::mousePress(vp, Qt::LeftButton, {}, from);
  QTest::mouseMove(vp, (from + to) / 2);
  QTest::mouseMove(vp, to);
  QTest::mouseRelease(vp, Qt::LeftButton, {}, to);
}

bool hasConnection(const Project& p, const std::string& a, const std::string& b) {
  for (const Connection& k : p.connections)
    if ((k.from.str() == a && k.to.str() == b) || (k.from.str() == b && k.to.str() == a)) return true;
  return false;
}

double paramOr(const Project& p, const std::string& comp, const std::string& param, double def) {
  const Component* c = p.find(comp);
  if (!c) return NAN;
  auto it = c->params.find(param);
  return it == c->params.end() ? def : it->second;
}

// The scene drawn in `sceneRect` at 8 pixels per unit, for comparing parts
// of a symbol.
QImage renderRegion(QGraphicsScene* scene, const QRectF& sceneRect) {
  QImage img(int(sceneRect.width() * 8), int(sceneRect.height() * 8), QImage::Format_RGB32);
  img.fill(Qt::white);
  QPainter p(&img);
  p.setRenderHint(QPainter::Antialiasing);
  scene->render(&p, QRectF(img.rect()), sceneRect);
  return img;
}

// Pixels that differ clearly between two images of one size.
long differingPixels(const QImage& a, const QImage& b) {
  long n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      if (std::abs(qGray(a.pixel(x, y)) - qGray(b.pixel(x, y))) > 60) ++n;
  return n;
}

// Dark pixels (ink) of an image.
long inkPixels(const QImage& a) {
  long n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      if (qGray(a.pixel(x, y)) < 128) ++n;
  return n;
}

}  // namespace

class TestGuiSchematic : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // recent files go to a test location
    QVERIFY(dir_.isValid());
  }

  void startPageListsExamples() {
    MainWindow w;
    QVERIFY(showWindow(w));
    QVERIFY(w.isShowingStartPage());
    QVERIFY(w.startPage()->examples()->count() >= 3);
    w.newProject();
    QVERIFY(!w.isShowingStartPage());
    QVERIFY(w.windowTitle().contains("untitled"));
  }

  void symbolsMatchComponentPorts() {
    // Every pneumatic port of the types used here has a place on its symbol.
    for (const char* type : {"supply", "valve_5_2", "cylinder_double", "flow_control_one_way"}) {
      const Symbol& s = SymbolLibrary::instance().symbol(type);
      const ComponentType* t = Registry::instance().find(type);
      QVERIFY(t);
      for (const PortDecl& p : t->ports)
        if (p.domain == Domain::Pneumatic) QVERIFY2(s.port(QString::fromStdString(p.name)), type);
    }
  }

  void buildCircuitWithTheMouse() {
    MainWindow w;
    QVERIFY(showNewCircuit(w, Zoom{2, {0, 0}}));
    SchematicView* view = w.schematicView();

    // Library search narrows the list; entries are dragged onto the sheet.
    QTest::keyClicks(w.libraryPanel()->searchBox(), "5/2");
    QVERIFY(w.libraryPanel()->itemOf("valve_5_2"));
    QVERIFY(!w.libraryPanel()->itemOf("supply"));
    w.libraryPanel()->searchBox()->clear();
    QVERIFY(dropFromLibrary(w, "cylinder_double", view->mapFromScene(QPointF(0, -120))));
    QVERIFY(dropFromLibrary(w, "valve_5_2", view->mapFromScene(QPointF(0, 0))));
    QVERIFY(dropFromLibrary(w, "supply", view->mapFromScene(QPointF(20, 90))));
    const Project& p = w.project();
    QCOMPARE(p.components.size(), size_t(3));
    QCOMPARE(p.components[0].type, std::string("cylinder_double"));
    QCOMPARE(p.components[0].id, std::string("cyl1"));
    QCOMPARE(p.components[0].label, std::string("1A1"));
    QCOMPARE(p.components[1].id, std::string("v1"));
    QCOMPARE(p.components[1].label, std::string("1V1"));
    QCOMPARE(p.components[2].id, std::string("src1"));
    QVERIFY(p.components[2].params.empty());  // type defaults
    QCOMPARE(p.components[1].placement.x, 0.0);
    QCOMPARE(p.components[1].placement.y, 0.0);
    QVERIFY(w.isWindowModified());

    // Lines by dragging from port to port.
    dragPortToPort(w, "src1", "1", "v1", "1");
    dragPortToPort(w, "v1", "4", "cyl1", "A");
    dragPortToPort(w, "cyl1", "B", "v1", "2");
    QCOMPARE(p.connections.size(), size_t(3));
    QVERIFY(hasConnection(p, "src1.1", "v1.1"));
    QVERIFY(hasConnection(p, "v1.4", "cyl1.A"));
    QVERIFY(hasConnection(p, "v1.2", "cyl1.B"));
    // The drawn line starts and ends on the ports, orthogonally.
    const QPolygonF r = w.scene()->wireItem(p.connections[1].id)->route();
    QVERIFY(r.size() >= 2);
    QCOMPARE(r.front(), *w.scene()->portPos({"v1", "4"}));
    QCOMPARE(r.back(), *w.scene()->portPos({"cyl1", "A"}));
    for (int i = 0; i + 1 < r.size(); ++i) QVERIFY(r[i].x() == r[i + 1].x() || r[i].y() == r[i + 1].y());

    // Select the cylinder by clicking its symbol, type a bore of 50 mm.
    ComponentItem* cyl = w.scene()->componentItem("cyl1");
    const QPointF body = cyl->mapToScene(cyl->symbolTransform().map(QPointF(60, 12)));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->mapFromScene(body));
    QCOMPARE(w.scene()->selectedComponents(), std::set<std::string>{"cyl1"});
    QCOMPARE(w.propertyEditor()->componentId(), std::string("cyl1"));
    const QModelIndex boreIdx = w.propertyEditor()->model()->index(w.propertyEditor()->model()->rowOf("bore"), ParamModel::Value);
    QCOMPARE(boreIdx.data().toString(), QString("32"));
    typeParam(w.propertyEditor(), "bore", "50");
    QCOMPARE(paramOr(w.project(), "cyl1", "bore", 0), 0.05);
    QCOMPARE(boreIdx.data().toString(), QString("50"));

    // A value out of range is refused with a message, not clamped.
    typeParam(w.propertyEditor(), "bore", "-5");
    QCOMPARE(paramOr(w.project(), "cyl1", "bore", 0), 0.05);
    QVERIFY(w.propertyEditor()->message().contains("outside"));

    // Undo and redo walk back through the bore and the last line.
    QUndoStack* undo = w.document()->undoStack();
    undo->undo();
    QVERIFY(!w.project().find("cyl1")->params.count("bore"));
    QCOMPARE(boreIdx.data().toString(), QString("32"));
    undo->undo();
    QCOMPARE(w.project().connections.size(), size_t(2));
    QVERIFY(!w.scene()->wireItem("l3"));
    undo->redo();
    QCOMPARE(w.project().connections.size(), size_t(3));
    QVERIFY(w.scene()->wireItem("l3"));
    undo->redo();
    QCOMPARE(paramOr(w.project(), "cyl1", "bore", 0), 0.05);

    // Move the valve with the mouse: snapped to the grid, one undo step.
    ComponentItem* valve = w.scene()->componentItem("v1");
    const QPointF vBody = valve->mapToScene(valve->symbolTransform().map(QPointF(50, 30)));
    const QPoint start = view->mapFromScene(vBody);
    const QPoint end = view->mapFromScene(vBody + QPointF(33, 18));
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, start);
    QTest::mouseMove(view->viewport(), start + QPoint(5, 5));
    QTest::mouseMove(view->viewport(), end);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, end);
    QCOMPARE(w.project().find("v1")->placement.x, 30.0);
    QCOMPARE(w.project().find("v1")->placement.y, 20.0);
    QCOMPARE(w.scene()->wireItem(w.project().connections[0].id)->route().back(), *w.scene()->portPos({"v1", "1"}));
    undo->undo();
    QCOMPARE(w.project().find("v1")->placement.x, 0.0);
    undo->redo();

    // Rotate and mirror the selection (keys R and M on the canvas).
    w.scene()->selectObjects({"v1"});
    view->setFocus();
    QTest::keyClick(view, Qt::Key_R);
    QCOMPARE(w.project().find("v1")->placement.rotation, 90);
    QTest::keyClick(view, Qt::Key_M);
    QVERIFY(w.project().find("v1")->placement.mirror);
    undo->undo();
    undo->undo();
    QCOMPARE(w.project().find("v1")->placement.rotation, 0);

    // A time switch drives the solenoid: its signal is picked in the
    // valve's property editor.
    QVERIFY(dropFromLibrary(w, "time_switch", view->mapFromScene(QPointF(-110, 0))));
    QVERIFY(w.project().find("sw1"));
    w.scene()->selectObjects({"v1"});
    QComboBox* sol = w.propertyEditor()->inputEditor("sol14");
    QVERIFY(sol);
    QVERIFY(sol->findText("sw1.out") >= 0);
    sol->lineEdit()->setFocus();
    sol->lineEdit()->selectAll();
    QTest::keyClicks(sol->lineEdit(), "sw1.out");
    QTest::keyClick(sol->lineEdit(), Qt::Key_Return);
    QTRY_COMPARE(w.project().find("v1")->inputs.count("sol14"), size_t(1));
    QCOMPARE(w.project().find("v1")->inputs.at("sol14"), std::string("sw1.out"));

    view->zoomToFit();
    w.scene()->clearSelection();
    QVERIFY(view->grab().save(QDir::current().filePath("built_circuit.png")));

    // Save, reopen, compare.
    const QString path = dir_.filePath("built.pneumech.json");
    QVERIFY(w.saveProjectAs(path));
    QVERIFY(!w.isWindowModified());
    QVERIFY(w.windowTitle().contains("built.pneumech.json"));
    const Project saved = w.project();
    MainWindow w2;
    QVERIFY(w2.openProject(path));
    QVERIFY(w2.project() == saved);
    QVERIFY(engine::load(path.toStdString()) == saved);
    QCOMPARE(w2.scene()->componentItem("cyl1")->pos(), w.scene()->componentItem("cyl1")->pos());
  }

  void wiresGoAroundSymbols() {
    MainWindow w;
    QVERIFY(showNewCircuit(w, Zoom{1.5, {0, 0}}, kLargeWindow));
    SchematicView* view = w.schematicView();
    // A cylinder above, a supply below, a 5/2 valve right between them.
    QCOMPARE(view->addComponent("cylinder_double", {0, -150}), std::string("cyl1"));
    QCOMPARE(view->addComponent("valve_5_2", {0, 0}), std::string("v1"));
    QCOMPARE(view->addComponent("supply", {0, 150}), std::string("src1"));
    SchematicScene* scene = w.scene();
    const QRectF valve = scene->componentItem("v1")->bodySceneRect();
    const QPointF a = *scene->portPos({"src1", "1"}), b = *scene->portPos({"cyl1", "A"});
    // The straight way up would cut through the valve.
    QVERIFY(crossesBodies(SchematicScene::orthogonalRoute(a, scene->portDir({"src1", "1"}), {}, b,
                                                          scene->portDir({"cyl1", "A"})),
                          {valve}));
    auto checkRoute = [&](const std::string& id, const QPointF& from, const QPointF& to) {
      const QPolygonF r = scene->wireItem(id)->route();
      QVERIFY(r.size() >= 2);
      QCOMPARE(r.front(), from);
      QCOMPARE(r.back(), to);
      for (int i = 0; i + 1 < r.size(); ++i) {
        QVERIFY(r[i].x() == r[i + 1].x() || r[i].y() == r[i + 1].y());
        // On the grid, and no segment through any symbol's rectangle.
        QCOMPARE(std::fmod(r[i].x(), kGrid), 0.0);
        QCOMPARE(std::fmod(r[i].y(), kGrid), 0.0);
        for (const std::string c : {"cyl1", "v1", "src1"})
          QVERIFY2(!crossesBodies(QPolygonF{r[i], r[i + 1]}, {scene->componentItem(c)->bodySceneRect()}), c.c_str());
      }
    };
    dragPortToPort(w, "src1", "1", "cyl1", "A");
    QCOMPARE(w.project().connections.size(), size_t(1));
    const std::string l1 = w.project().connections[0].id;
    checkRoute(l1, a, b);
    // Clearance: one grid cell from the valve's sides.
    for (const QPointF& p : scene->wireItem(l1)->route())
      if (p.y() > valve.top() && p.y() < valve.bottom())
        QVERIFY(p.x() <= valve.left() - kGrid || p.x() >= valve.right() + kGrid);
    // The line stays a plain route where nothing is in the way ...
    dragPortToPort(w, "v1", "2", "cyl1", "B");
    checkRoute(w.project().connections[1].id, *scene->portPos({"v1", "2"}), *scene->portPos({"cyl1", "B"}));
    QCOMPARE(scene->wireItem(w.project().connections[1].id)->route().size(), 2);
    // ... and is re-routed when a symbol is moved into its way.
    QVERIFY(w.document()->edit("move", [](Project& p) { p.find("v1")->placement.y = -10; }));
    QVERIFY(w.document()->edit("move", [](Project& p) { p.find("v1")->placement.x = 200; }));
    QVERIFY(w.document()->edit("move", [](Project& p) {
      p.find("src1")->placement.x = 200;
      p.find("src1")->placement.y = -300;
    }));
    checkRoute(l1, *scene->portPos({"src1", "1"}), *scene->portPos({"cyl1", "A"}));
    checkRoute(w.project().connections[1].id, *scene->portPos({"v1", "2"}), *scene->portPos({"cyl1", "B"}));
    QVERIFY(w.document()->edit("back", [](Project& p) { p.find("v1")->placement = {0, 0, 0, false}; }));
    // The user's waypoints stay where they are; only the way from the last
    // one to the port (straight across would cut the valve) goes around.
    QVERIFY(w.document()->edit("waypoints", [](Project& p) {
      p.find("src1")->placement = {0, 150, 0, false};
      p.connections[0].waypoints = {{-100, 100}, {-100, 0}};
    }));
    const QPolygonF viaRoute = scene->wireItem(l1)->route();
    auto onRoute = [&](const QPointF& p) {
      for (int i = 0; i + 1 < viaRoute.size(); ++i)
        if (QRectF(viaRoute[i], viaRoute[i + 1]).normalized().adjusted(-1e-9, -1e-9, 1e-9, 1e-9).contains(p)) return true;
      return false;
    };
    QVERIFY(viaRoute.contains(QPointF(-100, 100)));  // a corner
    QVERIFY(onRoute(QPointF(-100, 0)));              // on the way up
    checkRoute(l1, *scene->portPos({"src1", "1"}), *scene->portPos({"cyl1", "A"}));
  }

  void signalLinesDraggedFromOutputToInput() {
    MainWindow w;
    QVERIFY(showNewCircuit(w, Zoom{2, {-40, 0}}, kLargeWindow));
    SchematicView* view = w.schematicView();
    const std::string v = view->addComponent("valve_5_2", {0, 0});
    const std::string sw = view->addComponent("time_switch", {-160, -60});
    const std::string pb = view->addComponent("push_button", {-160, 70});
    QVERIFY(!v.empty() && !sw.empty() && !pb.empty());
    SchematicScene* scene = w.scene();
    // The ports the signal lines join: the switch's output, the solenoid 14.
    QVERIFY(scene->portPos({sw, "out"}));
    QVERIFY(scene->portPos({v, "sol14"}));
    QVERIFY(scene->signalLines()->lines().empty());
    auto sol14 = [&]() -> std::string {
      const auto& in = w.project().find(v)->inputs;
      auto it = in.find("sol14");
      return it == in.end() ? std::string("(none)") : it->second;
    };
    // A dashed line drawn from the output to the input, around the symbols.
    auto checkLine = [&](const std::string& src) {
      const auto& lines = scene->signalLines()->lines();
      QCOMPARE(lines.size(), size_t(1));
      const QPolygonF& l = lines.front();
      QCOMPARE(l.front(), *scene->portPos({src, "out"}));
      QCOMPARE(l.back(), *scene->portPos({v, "sol14"}));
      for (int i = 0; i + 1 < l.size(); ++i) QVERIFY(l[i].x() == l[i + 1].x() || l[i].y() == l[i + 1].y());
      for (const std::string& c : {v, sw, pb})
        QVERIFY2(!crossesBodies(l, {scene->componentItem(c)->bodySceneRect()}), c.c_str());
    };

    // Drag from the time switch's output onto the solenoid: the valve reads it.
    dragPortToPort(w, sw, "out", v, "sol14");
    QCOMPARE(sol14(), sw + ".out");
    checkLine(sw);
    // The property editor shows the same reference.
    QVERIFY(w.selectComponent(QString::fromStdString(v)));
    QComboBox* box = w.propertyEditor()->inputEditor("sol14");
    QVERIFY(box);
    QCOMPARE(box->currentText(), QString::fromStdString(sw + ".out"));

    // Dragging the other way (input to output) works as well; it replaces
    // the reference, and undo restores the one before.
    dragPortToPort(w, v, "sol14", pb, "out");
    QCOMPARE(sol14(), pb + ".out");
    checkLine(pb);
    QUndoStack* undo = w.document()->undoStack();
    undo->undo();
    QCOMPARE(sol14(), sw + ".out");
    checkLine(sw);
    undo->undo();
    QCOMPARE(sol14(), std::string("(none)"));
    QVERIFY(scene->signalLines()->lines().empty());
    undo->redo();
    QCOMPARE(sol14(), sw + ".out");

    // Click the line and press Delete: the valve no longer reads the switch.
    {
      const QPolygonF l = scene->signalLines()->lines().front();
      int longest = 0;
      for (int i = 0; i + 1 < l.size(); ++i)
        if (QLineF(l[i], l[i + 1]).length() > QLineF(l[longest], l[longest + 1]).length()) longest = i;
      const QPoint at = view->mapFromScene((l[longest] + l[longest + 1]) / 2);
      view->setFocus();
      QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
      QVERIFY(scene->signalLines()->picked().has_value());
      QCOMPARE(scene->signalLines()->picked()->reader, v);
      QTest::keyClick(view, Qt::Key_Delete);
      QCOMPARE(sol14(), std::string("(none)"));
      QVERIFY(scene->signalLines()->lines().empty());
      undo->undo();
      QCOMPARE(sol14(), sw + ".out");
    }

    // An output onto an output, or a working line onto a signal input, is refused.
    const Project before = w.project();
    dragPortToPort(w, pb, "out", sw, "out");
    dragPortToPort(w, v, "1", v, "sol14");
    QVERIFY(w.project() == before);
  }

  void manualValveDrawsHandActuator() {
    MainWindow w;
    QVERIFY(showNewCircuit(w, std::nullopt, kLargeWindow));
    SchematicView* view = w.schematicView();
    const std::string v = view->addComponent("valve_5_2", {0, 0});
    const std::string v3 = view->addComponent("valve_3_2_nc", {0, 120});
    SchematicScene* scene = w.scene();
    ComponentItem* item = scene->componentItem(v);
    QVERIFY(item);
    QCOMPARE(item->actuator(), ComponentItem::Actuator::Solenoid);
    QCOMPARE(scene->componentItem(v3)->actuator(), ComponentItem::Actuator::Solenoid);
    QCOMPARE(scene->componentItem(view->addComponent("supply", {200, 200}))->actuator(), ComponentItem::Actuator::None);
    scene->clearSelection();
    // Side 14 (the solenoid's place, symbol x 10..30) and side 12's spring
    // (x 112..128, lower half; not the square's edge) in scene coordinates.
    auto region = [&](const std::string& id, const QRectF& symbolRect) {
      ComponentItem* c = scene->componentItem(id);
      const QRectF r = c->symbolTransform().mapRect(symbolRect).translated(c->pos());
      return renderRegion(scene, r);
    };
    const QRectF side14(10, 8, 21, 44), spring12(112, 37, 16, 11), stub14(9.5, 18.5, 5.5, 3);  // between the number 14 and the button
    const QImage solenoid = region(v, side14), springImg = region(v, spring12);
    QVERIFY(inkPixels(solenoid) > 500);
    QVERIFY(inkPixels(springImg) > 300);
    const long stubInk = inkPixels(region(v, stub14));  // the dashed signal line to the solenoid
    QVERIFY(stubInk > 50);

    // The user makes it a hand valve in the property editor: a push-button
    // (spring return) replaces the solenoid; everything else stays.
    QVERIFY(w.selectComponent(QString::fromStdString(v)));
    typeParam(w.propertyEditor(), "manual", "1");
    QCOMPARE(paramOr(w.project(), v, "manual", 0), 1.0);
    QVERIFY(handOperable(*w.project().find(v)));
    QCOMPARE(item->actuator(), ComponentItem::Actuator::PushButton);
    scene->clearSelection();
    const QImage button = region(v, side14);
    const long dButton = differingPixels(solenoid, button);
    qInfo("solenoid -> push-button: %ld of %lld pixels differ", dButton, qint64(button.width()) * button.height());
    QVERIFY2(dButton > 400, qPrintable(QString::number(dButton)));
    QCOMPARE(differingPixels(springImg, region(v, spring12)), 0L);
    // No solenoid, no signal line to it while nothing drives sol14.
    QCOMPARE(inkPixels(region(v, stub14)), 0L);

    // Without spring return it is a detent valve: lever with detent notch,
    // and no spring on side 12.
    QVERIFY(w.selectComponent(QString::fromStdString(v)));
    typeParam(w.propertyEditor(), "spring_return", "0");
    QCOMPARE(item->actuator(), ComponentItem::Actuator::LeverDetent);
    scene->clearSelection();
    const QImage lever = region(v, side14);
    const long dLever = differingPixels(button, lever);
    qInfo("push-button -> lever with detent: %ld pixels differ", dLever);
    QVERIFY2(dLever > 400, qPrintable(QString::number(dLever)));
    const long springLeft = inkPixels(region(v, spring12));
    QVERIFY2(springLeft < inkPixels(springImg) / 10, qPrintable(QString::number(springLeft)));

    // Undo goes back through the push-button to the solenoid, pixel for pixel.
    QUndoStack* undo = w.document()->undoStack();
    undo->undo();
    QCOMPARE(item->actuator(), ComponentItem::Actuator::PushButton);
    scene->clearSelection();
    QCOMPARE(differingPixels(button, region(v, side14)), 0L);
    undo->undo();
    QCOMPARE(item->actuator(), ComponentItem::Actuator::Solenoid);
    QCOMPARE(differingPixels(solenoid, region(v, side14)), 0L);

    // A spring-centred 5/3 valve and a 3/2 valve by hand: push-buttons; a
    // 3/2 detent valve gets the lever.
    QVERIFY(w.document()->edit("manual", [&](Project& p) {
      p.find(v3)->params["manual"] = 1;
    }));
    QCOMPARE(scene->componentItem(v3)->actuator(), ComponentItem::Actuator::PushButton);
    QVERIFY(w.document()->edit("detent", [&](Project& p) { p.find(v3)->params["spring_return"] = 0; }));
    QCOMPARE(scene->componentItem(v3)->actuator(), ComponentItem::Actuator::LeverDetent);
    const std::string v53 = view->addComponent("valve_5_3_closed", {0, 240});
    QVERIFY(w.document()->edit("manual", [&](Project& p) { p.find(v53)->params["manual"] = 1; }));
    QCOMPARE(scene->componentItem(v53)->actuator(), ComponentItem::Actuator::PushButton);
    // A hand valve that a signal drives as well keeps the line at sol14.
    QVERIFY(w.document()->edit("sol14", [&](Project& p) { p.find(v)->inputs["sol14"] = v53 + ".s"; }));
    scene->clearSelection();
    QVERIFY(inkPixels(region(v, stub14)) > stubInk / 2);
    w.document()->undoStack()->undo();

    // Looked at: the three ways of drawing side 14.
    QVERIFY(w.document()->edit("lever", [&](Project& p) {
      p.find(v)->params["manual"] = 1;
      p.find(v)->params["spring_return"] = 0;
    }));
    scene->clearSelection();
    const QRectF all = scene->drawingBounds().adjusted(-10, -10, 10, 10);
    QVERIFY(renderRegion(scene, all).scaled(int(all.width() * 4), int(all.height() * 4), Qt::IgnoreAspectRatio,
                                           Qt::SmoothTransformation)
                .save(QDir::current().filePath("manual_valves.png")));
  }

  void dataOutputsGetPortsAndDrag() {
    MainWindow w;
    QVERIFY(showNewCircuit(w, Zoom{2, {0, 0}}, kLargeWindow));
    SchematicView* view = w.schematicView();
    const std::string seq = view->addComponent("step_sequence", {-150, -40});
    const std::string v = view->addComponent("valve_5_2", {60, 40});
    SchematicScene* scene = w.scene();
    ComponentItem* item = scene->componentItem(seq);
    const QRectF before = item->bodySceneRect();
    QVERIFY(item->dataPorts().isEmpty());
    // Four outputs in the data (what the data editor writes).
    QVERIFY(w.document()->edit("outputs", [&](Project& p) {
      p.find(seq)->data = nlohmann::json{{"outputs", {"Y1", "Y2", "Y3", "Y4"}},
                                         {"cyclic", false},
                                         {"steps", nlohmann::json::array()}};
    }));
    QCOMPARE(item->dataPorts(), QStringList({"Y1", "Y2", "Y3", "Y4"}));
    // One port per output on the right side, on the grid, one cell apart; the
    // block grows downwards to hold them and to the right for their names,
    // its top left corner and placement stay.
    const QRectF body = item->bodySceneRect();
    QCOMPARE(body.topLeft(), before.topLeft());
    QVERIFY(body.width() > before.width());  // a column for the names
    QCOMPARE(std::fmod(body.width(), 10.0), 0.0);
    QCOMPARE(body.height(), 50.0);
    for (int i = 0; i < 4; ++i) {
      const auto pos = scene->portPos({seq, "Y" + std::to_string(i + 1)});
      QVERIFY(pos);
      QCOMPARE(pos->x(), body.right());
      QCOMPARE(pos->y(), body.top() + 10.0 * (i + 1));
      QCOMPARE(std::fmod(pos->x(), 10.0), 0.0);
      QCOMPARE(std::fmod(std::abs(pos->y()), 10.0), 0.0);
      QCOMPARE(scene->portDir({seq, "Y" + std::to_string(i + 1)}), QPointF(1, 0));
    }

    auto sol14 = [&]() -> std::string {
      const auto& in = w.project().find(v)->inputs;
      auto it = in.find("sol14");
      return it == in.end() ? std::string("(none)") : it->second;
    };
    // Drag from Y2 onto the valve's solenoid: the valve reads seq.Y2 and the
    // line leaves at the port Y2.
    dragPortToPort(w, seq, "Y2", v, "sol14");
    QCOMPARE(sol14(), seq + ".Y2");
    QCOMPARE(scene->signalLines()->lines().size(), size_t(1));
    QCOMPARE(scene->signalLines()->lines().front().front(), *scene->portPos({seq, "Y2"}));
    QCOMPARE(scene->signalLines()->lines().front().back(), *scene->portPos({v, "sol14"}));
    QVERIFY(scene->signalLines()->tags().empty());  // the port names it: no tag
    // The other way round, onto Y4: replaces it; undo restores Y2, then none.
    dragPortToPort(w, v, "sol14", seq, "Y4");
    QCOMPARE(sol14(), seq + ".Y4");
    QCOMPARE(scene->signalLines()->lines().front().front(), *scene->portPos({seq, "Y4"}));
    QUndoStack* undo = w.document()->undoStack();
    undo->undo();
    QCOMPARE(sol14(), seq + ".Y2");
    undo->undo();
    QCOMPARE(sol14(), std::string("(none)"));
    QVERIFY(scene->signalLines()->lines().empty());
    // Undoing the data edit removes the ports and the block shrinks back.
    undo->undo();
    QVERIFY(item->dataPorts().isEmpty());
    QCOMPARE(item->bodySceneRect(), before);
    QVERIFY(!scene->portPos({seq, "Y1"}));
    undo->redo();
    undo->redo();
    QCOMPARE(sol14(), seq + ".Y2");
    QCOMPARE(item->dataPorts().size(), 4);
    // A script's outputs given with initial values get ports as well.
    const std::string js = view->addComponent("script_controller", {-150, 200});
    QVERIFY(w.document()->edit("script outputs", [&](Project& p) {
      p.find(js)->data = nlohmann::json{{"outputs", {{"Y1", 0}, {"busy", 1}}}};
    }));
    QCOMPARE(scene->componentItem(js)->dataPorts(), QStringList({"Y1", "busy"}));
    QVERIFY(scene->portPos({js, "busy"}));
    // A data output onto another output is refused.
    const std::string pb = view->addComponent("push_button", {-150, 100});
    const Project was = w.project();
    dragPortToPort(w, pb, "out", seq, "Y1");
    QVERIFY(w.project() == was);
  }

  void controllerProjectsLinesLeaveDataPorts() {
    for (const char* name : {"sequence_a_b_b_a", "script_plc_cycle"}) {
      MainWindow w;
      QVERIFY(showProject(w, examplePath(name)));
      SchematicScene* scene = w.scene();
      const std::string ctl = std::string(name) == "script_plc_cycle" ? "plc" : "seq";
      QVERIFY(!scene->componentItem(ctl)->dataPorts().isEmpty());
      // Every line from the controller starts at the port of its output.
      int fromCtl = 0;
      const auto& lines = scene->signalLines()->lines();
      const auto& refs = scene->signalLines()->refs();
      for (size_t k = 0; k < refs.size(); ++k) {
        if (refs[k].source != ctl) continue;
        const Component* reader = w.project().find(refs[k].reader);
        const std::string ref = reader->inputs.at(refs[k].input);
        QCOMPARE(lines[k].front(), *scene->portPos({ctl, ref.substr(ctl.size() + 1)}));
        ++fromCtl;
      }
      // An output whose line would cut across the circuit is named by a tag
      // at its port instead (issue 25, point 6): "-> 1V1".
      for (const SignalItem::Tag& t : scene->signalLines()->tags())
        for (const QString& out : scene->componentItem(ctl)->dataPorts())
          if (t.at == *scene->portPos({ctl, out.toStdString()}) && t.text.startsWith(QString::fromUtf8("\u2192"))) ++fromCtl;
      QCOMPARE(fromCtl, 2);
      const QRectF r = scene->drawingBounds().adjusted(-10, -10, 10, 10);
      QImage img(int(r.width() * 4), int(r.height() * 4), QImage::Format_RGB32);
      img.fill(Qt::white);
      {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        scene->render(&p, QRectF(img.rect()), r);
      }
      QVERIFY(img.save(QDir::current().filePath(QString(name) + "_schematic.png")));
    }
  }

  void selectDeleteCopyPaste() {
    MainWindow w;
    QVERIFY(showProject(w, seed003()));
    SchematicView* view = w.schematicView();
    const Project original = w.project();
    QUndoStack* undo = w.document()->undoStack();

    // Rubber band around the cylinder and the flow control.
    QRectF band = w.scene()->componentItem("cyl1")->sceneBoundingRect() | w.scene()->componentItem("fc1")->sceneBoundingRect();
    band.adjust(-4, -4, 4, 4);
    const QPoint a = view->mapFromScene(band.topLeft()), b = view->mapFromScene(band.bottomRight());
    view->setFocus();
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, a);
    QTest::mouseMove(view->viewport(), (a + b) / 2);
    QTest::mouseMove(view->viewport(), b);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, b);
    const auto sel = w.scene()->selectedComponents();
    QVERIFY2(sel.count("cyl1") && sel.count("fc1"), "rubber band selects cylinder and flow control");
    QVERIFY(!sel.count("v1"));
    w.scene()->selectObjects({"cyl1", "fc1"});

    // Copy and paste: fresh ids, the inner line (fc1.2 - cyl1.B) comes along.
    QVERIFY(view->copySelection());
    QVERIFY(view->paste());
    const Project& p = w.project();
    QCOMPARE(p.components.size(), original.components.size() + 2);
    QVERIFY(p.find("cyl2") && p.find("fc2"));
    QCOMPARE(p.find("cyl2")->params, original.find("cyl1")->params);
    QCOMPARE(p.find("cyl2")->label, std::string("1A2"));
    QCOMPARE(p.connections.size(), original.connections.size() + 1);
    QVERIFY(hasConnection(p, "fc2.2", "cyl2.B"));
    std::set<std::string> ids;
    for (const Connection& k : p.connections) QVERIFY(ids.insert(k.id).second);  // unique line ids
    QCOMPARE(w.scene()->selectedComponents(), (std::set<std::string>{"cyl2", "fc2"}));

    // Delete (key Delete on the canvas) removes the copies and their line.
    QTest::keyClick(view, Qt::Key_Delete);
    QVERIFY(w.project() == original);

    // Duplicate (Ctrl+D) keeps the inner line as well.
    w.scene()->selectObjects({"cyl1", "fc1"});
    QTest::keyClick(view, Qt::Key_D, Qt::ControlModifier);
    QCOMPARE(w.project().components.size(), original.components.size() + 2);
    QCOMPARE(w.project().connections.size(), original.connections.size() + 1);
    undo->undo();
    QVERIFY(w.project() == original);

    // Click a line and delete it; undo brings it back.
    WireItem* line = w.scene()->wireItem("l1");
    QVERIFY(line);
    const QPolygonF r = line->route();
    const QPointF mid = (r[0] + r[1]) / 2;
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->mapFromScene(mid));
    QCOMPARE(w.scene()->selectedConnections(), std::set<std::string>{"l1"});
    QTest::keyClick(view, Qt::Key_Delete);
    QCOMPARE(w.project().connections.size(), original.connections.size() - 1);
    undo->undo();
    QVERIFY(w.project() == original);

    // Deleting a component takes its lines and the signal references to it.
    w.scene()->selectObjects({"sw1"});
    QVERIFY(view->deleteSelection());
    QVERIFY(!w.project().find("sw1"));
    QVERIFY(w.project().find("v1")->inputs.empty());
    undo->undo();
    QVERIFY(w.project() == original);
  }

  void junctionsSegmentsAndUnits() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("sequence_a_b")));
    // The supply line branches to both valves: one dot at the branch.
    const auto& dots = w.scene()->junctions()->dots();
    QCOMPARE(dots.size(), size_t(1));
    QCOMPARE(dots.front(), QPointF(230, 220));

    // Drag the horizontal segment of line l3 down by two cells.
    SchematicView* view = w.schematicView();
    view->setTransform(QTransform::fromScale(3, 3));
    view->centerOn(85, 100);
    QTest::qWait(10);
    WireItem* l3 = w.scene()->wireItem("l3");
    const QPolygonF before = l3->route();
    int seg = -1;
    for (int i = 0; i + 1 < before.size(); ++i)
      if (before[i].y() == 100 && before[i + 1].y() == 100) seg = i;
    QVERIFY(seg >= 0);
    const QPointF mid = (before[seg] + before[seg + 1]) / 2;
    const QPoint a = view->mapFromScene(mid), b = view->mapFromScene(mid + QPointF(0, 20));
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, a);
    QTest::mouseMove(view->viewport(), b);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, b);
    const Connection* k = nullptr;
    for (const Connection& c : w.project().connections)
      if (c.id == "l3") k = &c;
    QVERIFY(k);
    QCOMPARE(k->waypoints.size(), size_t(2));
    QCOMPARE(k->waypoints[0].y, 120.0);
    QCOMPARE(k->waypoints[1].y, 120.0);
    QCOMPARE(l3->route().front(), before.front());  // still on its ports
    QCOMPARE(l3->route().back(), before.back());
    w.document()->undoStack()->undo();
    QCOMPARE(l3->route(), before);

    // Drag from a free port onto a line: a branch with a junction dot there.
    const QPoint from = viewPointOfPort(w, "vA", "5");
    const QPoint onLine = view->mapFromScene(QPointF(180, 220));
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, from);
    QTest::mouseMove(view->viewport(), onLine);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, onLine);
    QVERIFY(hasConnection(w.project(), "vA.5", "src.1"));
    const auto& dots2 = w.scene()->junctions()->dots();
    QVERIFY(std::find(dots2.begin(), dots2.end(), QPointF(180, 220)) != dots2.end());
    w.document()->undoStack()->undo();
    QCOMPARE(w.project().connections.size(), size_t(6));

    // Unit choice: the bore in cm, typed values then read in cm.
    QVERIFY(w.selectComponent("A"));
    ParamModel* m = w.propertyEditor()->model();
    const int row = m->rowOf("bore");
    QVERIFY(m->setData(m->index(row, ParamModel::Unit), "cm", Qt::EditRole));
    QCOMPARE(m->index(row, ParamModel::Value).data().toString(), QString("3.2"));
    typeParam(w.propertyEditor(), "bore", "4");
    QCOMPARE(paramOr(w.project(), "A", "bore", 0), 0.04);
    // Parameter descriptions are tooltips.
    QVERIFY(!m->index(row, ParamModel::Name).data(Qt::ToolTipRole).toString().isEmpty());
    // The bore offers the standard sizes.
    QCOMPARE(m->catalogue(row).size(), size_t(13));
    QVERIFY(m->setData(m->index(row, ParamModel::Unit), "mm", Qt::EditRole));  // the studio's choice: back for the tests after
  }

  void zoomAroundCursorPanAndFit() {
    MainWindow w;
    QVERIFY(showProject(w, seed003()));
    SchematicView* view = w.schematicView();
    view->zoomToFit();
    const QRect vp = view->viewport()->rect();
    const QRect drawn = view->mapFromScene(w.scene()->drawingBounds()).boundingRect();
    QVERIFY2(vp.adjusted(-2, -2, 2, 2).contains(drawn), "zoom to fit shows the whole circuit");
    QVERIFY(drawn.width() > vp.width() * 0.6 || drawn.height() > vp.height() * 0.6);

    // The wheel zooms about the point under the cursor.
    const QPoint cursor = view->mapFromScene(w.scene()->portPos({"v1", "4"}).value());
    const QPointF under = view->mapToScene(cursor);
    const double z0 = view->zoom();
    QWheelEvent wheel(QPointF(cursor), view->viewport()->mapToGlobal(QPointF(cursor)), QPoint(), QPoint(0, 240),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &wheel);
    QVERIFY(view->zoom() > z0 * 1.3);
    const QPointF after = view->mapToScene(cursor);
    QVERIFY2(QLineF(under, after).length() < 2.0 / view->zoom() + 0.5, "point under the cursor stays");

    // Middle-button drag pans.
    const QPointF centre0 = view->mapToScene(vp.center());
    QTest::mousePress(view->viewport(), Qt::MiddleButton, {}, vp.center());
    QTest::mouseMove(view->viewport(), vp.center() + QPoint(60, 0));
    QTest::mouseRelease(view->viewport(), Qt::MiddleButton, {}, vp.center() + QPoint(60, 0));
    const QPointF centre1 = view->mapToScene(vp.center());
    QVERIFY(centre1.x() < centre0.x() - 10 / view->zoom());
    QVERIFY(w.project() == engine::load(seed003().toStdString()));  // viewing edits nothing
  }

  void unsavedChangesPrompt() {
    MainWindow w;
    QVERIFY(showProject(w, seed003()));
    QVERIFY(!w.isWindowModified());
    w.scene()->selectObjects({"src"});
    QVERIFY(w.schematicView()->rotateSelection());
    QVERIFY(w.isWindowModified());
    QVERIFY(w.windowTitle().contains("[*]"));  // Qt shows the mark where [*] stands
    // Closing asks; Cancel keeps the window open, Discard closes it.
    auto answer = [](QMessageBox::StandardButton b, QString* text) {
      QTimer::singleShot(50, [b, text] {
        for (QWidget* top : QApplication::topLevelWidgets())
          if (auto* box = qobject_cast<QMessageBox*>(top); box && box->isVisible()) {
            *text = box->text();
            box->button(b)->click();
          }
      });
    };
    QString asked;
    answer(QMessageBox::Cancel, &asked);
    QVERIFY(!w.close());
    QVERIFY(asked.contains("unsaved"));
    QVERIFY(w.isVisible());
    asked.clear();
    answer(QMessageBox::Discard, &asked);
    QVERIFY(w.close());
    QVERIFY(!asked.isEmpty());
  }

  void checksListProblemsAndSelect() {
    MainWindow w;
    QVERIFY(showNewCircuit(w));
    w.schematicView()->addComponent("cylinder_double", {0, 0});
    const auto found = w.runChecks();
    QVERIFY(hasErrors(found));
    QListWidget* list = w.messageList();
    QVERIFY(list->count() >= 2);
    int noSupply = -1, port = -1;
    for (int i = 0; i < list->count(); ++i) {
      if (list->item(i)->text().contains("No supply")) noSupply = i;
      if (list->item(i)->text().contains("port A is not connected")) port = i;
    }
    QVERIFY(noSupply >= 0);
    QVERIFY(port >= 0);
    w.scene()->clearSelection();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(port)).center());
    QCOMPARE(w.scene()->selectedComponents(), std::set<std::string>{"cyl1"});
    // Run refuses to start with errors.
    w.runSimulation();
    QVERIFY(!w.runner()->isRunning());
    QVERIFY(w.statusText().contains("errors"));
  }

  void runAnimatesTheCircuit() {
    MainWindow w;
    QVERIFY(showProject(w, seed003()));
    QVERIFY(test::runToEnd(w));  // the views at the end when it ends
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    QSlider* slider = w.timeSlider();
    QVERIFY(slider->isEnabled());
    QCOMPARE(slider->value(), slider->maximum());
    const RunFrame& end = w.scene()->frame();
    QVERIFY(end.active);
    QCOMPARE(end.lineColor.size(), w.project().connections.size());
    QVERIFY(end.rod.at("cyl1") > 0.99);             // extended
    QVERIFY(std::abs(end.spool.at("v1") - 1.0) < 1e-6);  // active square (14) at the ports
    QVERIFY(end.litInputs.at("v1").count("sol14"));
    QVERIFY(end.lit.count("sw1"));
    // The switch's signal line is drawn lit while the switch is on.
    auto litPixelsOnSignalLine = [&] {
      const auto& lines = w.scene()->signalLines()->lines();
      if (lines.size() != 1) return -1;
      const QPolygonF& l = lines.front();
      int longest = 0;
      for (int i = 0; i + 1 < l.size(); ++i)
        if (QLineF(l[i], l[i + 1]).length() > QLineF(l[longest], l[longest + 1]).length()) longest = i;
      const QPointF mid = (l[longest] + l[longest + 1]) / 2;
      const QRectF r(mid - QPointF(5, 5), QSizeF(10, 10));
      QImage img(80, 80, QImage::Format_RGB32);
      img.fill(Qt::white);
      {
        QPainter p(&img);
        w.scene()->render(&p, QRectF(img.rect()), r);
      }
      int n = 0;
      for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
          const QColor c = img.pixelColor(x, y);
          n += c.red() > 200 && c.green() > 120 && c.green() < 210 && c.blue() < 90;
        }
      return n;
    };
    QVERIFY(litPixelsOnSignalLine() > 20);
    // Scrub back to t = 0: retracted, rest position, nothing lit.
    slider->setValue(0);
    const RunFrame& start = w.scene()->frame();
    QVERIFY(start.rod.at("cyl1") < 1e-3);
    QVERIFY(std::abs(start.spool.at("v1")) < 1e-9);
    QVERIFY(!start.lit.count("sw1"));
    QCOMPARE(litPixelsOnSignalLine(), 0);
    // The supply line has the top colour of the scale, the others differ.
    QVERIFY(start.lineColor.at("l1") == pressureColor(1.0));

    const QString png = dir_.filePath("seed003_running.png");
    slider->setValue(slider->maximum() / 3);
    QVERIFY(w.schematicView()->grab().save(png));
  }

  void screenshotOfSeed003() {
    MainWindow w;
    QVERIFY(showProject(w, seed003()));
    SchematicScene* scene = w.scene();
    const QRectF r = scene->drawingBounds().adjusted(-10, -10, 10, 10);
    QImage img(int(r.width() * 4), int(r.height() * 4), QImage::Format_RGB32);
    img.fill(Qt::white);
    {
      QPainter p(&img);
      p.setRenderHint(QPainter::Antialiasing);
      scene->render(&p, QRectF(img.rect()), r);
    }
    // Kept in the working directory (the build's tests folder) to be looked at.
    const QString out = QDir::current().filePath("seed003_schematic.png");
    QVERIFY(img.save(out));
    qInfo("seed-003 circuit rendered to %s (%dx%d)", qPrintable(out), img.width(), img.height());
    // Not blank: enough dark ink, many colours, not one flat fill.
    long dark = 0;
    std::set<QRgb> colours;
    for (int y = 0; y < img.height(); y += 2)
      for (int x = 0; x < img.width(); x += 2) {
        const QRgb c = img.pixel(x, y);
        colours.insert(c);
        if (qGray(c) < 100) ++dark;
      }
    const double frac = double(dark) / (double(img.width() / 2) * (img.height() / 2));
    QVERIFY2(frac > 0.005 && frac < 0.5, qPrintable(QString::number(frac)));
    QVERIFY(colours.size() > 20);
    // Every component and line of the project is drawn.
    QCOMPARE(int(scene->items().size()) >= int(w.project().components.size() + w.project().connections.size()), true);
  }

  void openLargeCircuitTiming() {
    // 125 copies of a supply - 5/2 valve - flow control - cylinder group.
    Project p;
    for (int g = 0; g < 125; ++g) {
      const double x = (g % 25) * 200.0, y = (g / 25) * 320.0;
      const std::string n = std::to_string(g);
      auto add = [&](const std::string& id, const std::string& type, double dx, double dy) {
        Component c;
        c.id = id + "_" + n;
        c.type = type;
        c.label = id + n;
        c.placement = {x + dx, y + dy, 0, false};
        p.components.push_back(c);
      };
      add("cyl", "cylinder_double", 0, 0);
      add("fc", "flow_control_one_way", 30, 80);
      add("v", "valve_5_2", 0, 180);
      add("src", "supply", 20, 260);
      auto con = [&](const std::string& a, const std::string& b) {
        Connection k;
        k.id = "l";  // not "l" + to_string(): GCC 12's -Wrestrict false positive
        k.id += std::to_string(p.connections.size() + 1);
        const auto dot = [](const std::string& s) { return s.find('.'); };
        k.from = {a.substr(0, dot(a)) + "_" + n, a.substr(dot(a) + 1)};
        k.to = {b.substr(0, dot(b)) + "_" + n, b.substr(dot(b) + 1)};
        p.connections.push_back(k);
      };
      con("src.1", "v.1");
      con("v.4", "cyl.A");
      con("v.2", "fc.1");
      con("fc.2", "cyl.B");
    }
    QCOMPARE(p.components.size(), size_t(500));
    const QString path = dir_.filePath("large.pneumech.json");
    engine::save(p, path.toStdString());

    MainWindow w;
    QVERIFY(showWindow(w));
    QElapsedTimer t;
    // CPU time of this thread too: wall time on a loaded machine says little.
    auto cpuMs = [] {
      timespec ts{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
      return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
    };
    const double cpu0 = cpuMs();
    t.start();
    QVERIFY(w.openProject(path));
    const double open = t.nsecsElapsed() * 1e-6;
    const double openCpu = cpuMs() - cpu0;
    t.restart();
    w.schematicView()->zoomToFit();
    w.schematicView()->viewport()->repaint();
    const double paint = t.nsecsElapsed() * 1e-6;
    // Pan and zoom steps at a working zoom level.
    w.schematicView()->setTransform(QTransform::fromScale(2, 2));
    t.restart();
    for (int i = 0; i < 10; ++i) {
      w.schematicView()->horizontalScrollBar()->setValue(w.schematicView()->horizontalScrollBar()->value() + 40);
      w.schematicView()->viewport()->repaint();
    }
    const double pan = t.nsecsElapsed() * 1e-6 / 10;
    t.restart();
    for (int i = 0; i < 10; ++i) {
      i % 2 ? w.schematicView()->zoomOut() : w.schematicView()->zoomIn();
      w.schematicView()->viewport()->repaint();
    }
    const double zoom = t.nsecsElapsed() * 1e-6 / 10;
    t.restart();
    const double cpu1 = cpuMs();
    w.document()->edit("move one", [](Project& q) { q.components[0].placement.x += 10; });
    const double edit = t.nsecsElapsed() * 1e-6;
    const double editCpu = cpuMs() - cpu1;
    qInfo("500 components, 500 lines: open %.0f ms (CPU %.0f ms), fit+paint %.0f ms, pan step %.1f ms, zoom step %.1f ms, "
          "one edit %.1f ms (CPU %.1f ms)",
          open, openCpu, paint, pan, zoom, edit, editCpu);
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiSchematic)
#include "test_gui_schematic.moc"
