// Issue #28's task built by hand in the studio, with real clicks and typing
// under Xvfb, counted: from the seed 003 circuit, a ground plate and a steel
// lever from shapes, four markers placed by clicking on the parts, the
// lever and the ground's pivot positioned with the gizmo (mouse drags of its
// arrows, no typed coordinate), the lever's pivot snapped onto the ground's
// while dragging and the revolute joint taken from that offer, the cylinder
// attached by two clicks, and a run. At most 25 actions (a click, a menu
// choice, a drag, or typing one value).
// The model is checked after each step, and the lever's end angle against
// the hand calculation of where the cylinder's end stop holds it.
//
// PM_BUILD_SNAPSHOTS=<folder> saves a screenshot after each stage.
#include "build_tools_3d.h"
#include "document.h"
#include "engine/engine.h"
#include "main_window.h"
#include "marker_placement.h"
#include "mechanism_editing.h"
#include "mechanism_actions.h"
#include "mechanism_form.h"
#include "mechanism_view.h"
#include "property_editor.h"
#include "result_buffer.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "selection_model.h"
#include "simulation_runner.h"
#include "support/build_studio.h"
#include "support/four_bar_crank.h"
#include "support/menu_choice.h"
#include "support/mechanism_view_frames.h"
#include "support/property_typing.h"
#include "support/studio_window.h"
#include "support/test_project.h"
#include "gizmo_edits.h"
#include "model/orientation.h"
#include "transform_gizmo.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QElapsedTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest/QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::waitFrame;

namespace {

int actions = 0;  // the user's actions so far

void snapshot(MainWindow& w, const QString& name) { test::saveScreenshot("PM_BUILD_SNAPSHOTS", w, name); }

void click(QWidget* on, QPoint at) {
  ++actions;
  QTest::mouseClick(on, Qt::LeftButton, {}, at);
}

void clickButton(QWidget* w) {
  QVERIFY2(w && w->isVisible() && w->isEnabled(), w ? qPrintable(w->objectName()) : "no widget");
  click(w, w->rect().center());
}

// A toolbar button for an action (its widget).
void clickAction(QToolBar* bar, QAction* a) { clickButton(bar->widgetForAction(a)); }

// Chooses from a tool button's menu (submenu), counting each click as an action.
void chooseFromMenu(QToolButton* button, QAction* item) { test::chooseFromMenu(button, item, click); }
void chooseFromSubmenu(QToolButton* button, QAction* sub, QAction* item) {
  test::chooseFromSubmenu(button, sub, item, click);
}

// Clicks a field (one action), then types `text` over what it holds.
void clickAndType(QLineEdit* e, const QString& text) {
  QVERIFY(e);
  click(e, e->rect().center());
  test::typeInto(e, text);
}

void pressOk(QDialog* d) { clickButton(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)); }

QDialog* dialog(MainWindow& w, const char* name) {
  QDialog* d = nullptr;
  for (int i = 0; i < 100 && !((d = w.findChild<QDialog*>(name)) && d->isVisible()); ++i) QTest::qWait(20);
  return d;
}

// The status bar shows `text` as its temporary message, drawn in full left
// of the permanent widgets: dark text pixels reach the message's width.
void statusShows(MainWindow& w, const QString& text) {
  QStatusBar* bar = w.statusBar();
  QCOMPARE(bar->currentMessage(), text);
  QTest::qWait(50);
  const QImage img = bar->grab().toImage();
  int room = bar->width();
  for (QWidget* c : bar->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
    if (c->isVisible() && c->x() > 0) room = std::min(room, c->x());
  int reach = -1;
  for (int x = 0; x < room && x < img.width(); ++x)
    for (int y = 0; y < img.height(); ++y)
      if (qGray(img.pixel(x, y)) < 110) reach = x;
  const double wide = bar->fontMetrics().horizontalAdvance(text);
  qInfo("status bar %d px, message room %d px, text %.0f px wide, drawn to x = %d", bar->width(), room, wide, reach);
  QVERIFY2(reach > 0.9 * wide && wide < room, "the whole message is drawn");
}

// Where a world point is drawn in the 3D view.
QPoint at(MechanismView* v, const QVector3D& world) {
  waitFrame(v);
  return v->projectToWidget(world).toPoint();
}

// Clicks the marker drawn at `ref`; where two coincide, chooses it in the menu.
void clickMarker(MechanismView* v, const QString& ref) {
  QVector3D p;
  QVERIFY2(v->markerPosition(ref, p), qPrintable(ref));
  const QPoint pos = at(v, p);
  const bool shared = v->markersAt(QPointF(pos)).size() > 1;
  click(v, pos);
  if (!shared) return;
  QMenu* menu = nullptr;
  QTRY_VERIFY((menu = v->findChild<QMenu*>("markerChoiceMenu")) && menu->isVisible());
  for (QAction* a : menu->actions())
    if (a->text() == ref) {
      click(menu, menu->actionGeometry(a).center());
      return;
    }
  QFAIL(qPrintable("no " + ref + " in the menu"));
}

// One action: drags the selected object's gizmo arrow `h` by `metres` along
// its world axis (press on the arrow, six moves, release). With `shot`, a
// screenshot before the release.
void dragArrow(MechanismView* v, GizmoHandle h, double metres, const char* shot = nullptr) {
  ++actions;
  waitFrame(v);
  QVERIFY(v->gizmoVisible());
  QVector3D grab;
  QVERIFY(v->gizmoGrabPoint(int(h), grab));
  QVector3D along;
  along[gizmoAxis(h)] = float(metres);
  const QPoint a = v->projectToWidget(grab).toPoint(), b = v->projectToWidget(grab + along).toPoint();
  QTest::mousePress(v, Qt::LeftButton, {}, a);
  for (int k = 1; k <= 6; ++k) QTest::mouseMove(v, a + (b - a) * k / 6);
  waitFrame(v);
  if (shot && !qgetenv("PM_BUILD_SNAPSHOTS").isEmpty())
    v->window()->screen()->grabWindow(0).save(QString::fromLocal8Bit(qgetenv("PM_BUILD_SNAPSHOTS")) + "/" + shot + ".png");
  QTest::mouseRelease(v, Qt::LeftButton, {}, b);
}

// One action: drags ring `h` of the selected object's gizmo through
// `degrees` about its axis, from its grab point.
void turnRing(MechanismView* v, GizmoHandle h, double degrees, Qt::KeyboardModifiers mods) {
  ++actions;
  waitFrame(v);
  QVERIFY(v->gizmoVisible());
  QVector3D grab;
  QVERIFY(v->gizmoGrabPoint(int(h), grab));
  const QVector3D o = v->gizmoOrigin();
  QMatrix4x4 r;
  QVector3D axis;
  axis[gizmoAxis(h)] = 1;
  const QPoint a = v->projectToWidget(grab).toPoint();
  QTest::mousePress(v, Qt::LeftButton, mods, a);
  QPoint b = a;
  for (int k = 1; k <= 8; ++k) {
    QMatrix4x4 t;
    t.rotate(float(degrees * k / 8), axis);
    b = v->projectToWidget(o + t.map(grab - o)).toPoint();
    QMouseEvent move(QEvent::MouseMove, QPointF(b), v->mapToGlobal(QPointF(b)), Qt::NoButton, Qt::LeftButton, mods);
    QApplication::sendEvent(v, &move);
  }
  QTest::mouseRelease(v, Qt::LeftButton, mods, b);
}

const MarkerDef* marker(const Project& p, const std::string& part, const std::string& id) {
  const PartDef* q = p.mechanism.part(part);
  if (!q) return nullptr;
  for (const MarkerDef& m : q->markers)
    if (m.id == id) return &m;
  return nullptr;
}

bool near(const Vec3& a, const Vec3& b, double tol) {
  return std::abs(a[0] - b[0]) <= tol && std::abs(a[1] - b[1]) <= tol && std::abs(a[2] - b[2]) <= tol;
}

}  // namespace

class TestGui3dBuildLinkage : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
  }

  void leverFromTheSeedCircuitIn25Actions() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("seed003_meter_out"), QSize(1500, 950)));
    QVERIFY(w.project().mechanism.empty());
    QVERIFY(w.buildTools());
    actions = 0;
    QToolBar* bar = w.buildTools()->toolBar();
    MechanismView* view = w.mechanismView();

    // 1-3. The ground (the model panel's Add menu: the 3D view appears with
    // the first part): the dialog offers a base plate, 600 x 600 x 20 mm.
    chooseFromMenu(w.findChild<QToolButton*>("mechanismAddButton"), w.mechanismActions()->addPart());
    QDialog* d = dialog(w, "addPartDialog");
    QVERIFY(d);
    QVERIFY(d->findChild<QCheckBox*>("dlg_ground")->isChecked());
    pressOk(d);
    QTRY_VERIFY(view->isVisible());
    QCOMPARE(w.project().mechanism.parts.size(), size_t(1));
    const std::string ground = w.project().mechanism.parts[0].id;
    QVERIFY(w.project().mechanism.parts[0].ground);
    QCOMPARE(w.project().mechanism.parts[0].geometry.at(0).size.at("lx"), 0.6);
    snapshot(w, "1_ground");

    // 4-6. The pivot marker on the plate's top face at (-200, 0) mm, z
    // along the face normal; the new marker is selected, and its gizmo's z
    // arrow lifts it 20 mm (a pin standing on the plate).
    w.buildTools()->setSnapStep(0.005);
    const QVector3D pivotW(-0.2f, 0.0f, 0.01f), clevisW(0.2f, -0.25f, 0.01f);
    clickAction(bar, w.buildTools()->markerHere());
    QVERIFY(view->isPickingSurface());
    click(view, at(view, pivotW));
    const MarkerDef* pivot = marker(w.project(), ground, "m1");
    QVERIFY(pivot);
    QVERIFY2(near(pivot->position, {-0.2, 0, 0.01}, 1e-12), "ground pivot snapped to the 5 mm grid on the face");
    QVERIFY(near(pivot->orientation, {0, 0, 0}, 1e-12));  // z up: the face normal
    QCOMPARE(w.selection()->current(), QString::fromStdString(ground + ".m1"));
    dragArrow(view, GizmoHandle::MoveZ, 0.021);  // released 21 mm up: the 5 mm step makes it 20
    pivot = marker(w.project(), ground, "m1");
    QVERIFY2(near(pivot->position, {-0.2, 0, 0.03}, 1e-12), "the pivot lifted 20 mm by the gizmo");
    // 7-8. The clevis at (200, -250) mm on the face.
    clickAction(bar, w.buildTools()->markerHere());
    click(view, at(view, clevisW));
    const MarkerDef* clevis = marker(w.project(), ground, "m2");
    QVERIFY(clevis && near(clevis->position, {0.2, -0.25, 0.01}, 1e-12));
    snapshot(w, "2_ground_markers");

    // 9-10. The lever: a steel bar 500 x 40 x 20 mm (the default) at the
    // origin, its mass properties shown and computed; it is selected.
    clickAction(bar, bar->findChild<QAction*>("buildPart3d"));
    d = dialog(w, "addPartDialog");
    QVERIFY(d);
    QVERIFY(!d->findChild<QCheckBox*>("dlg_ground")->isChecked());
    const QString shown = d->findChild<QLabel*>("dlg_massProperties")->text();
    QVERIFY2(shown.contains("Mass 3.14 kg"), qPrintable(shown));
    snapshot(w, "3_lever_dialog");
    pressOk(d);
    QCOMPARE(w.project().mechanism.parts.size(), size_t(2));
    const PartDef lever0 = w.project().mechanism.parts[1];
    const double m = 7850 * 0.5 * 0.04 * 0.02;
    QVERIFY(std::abs(lever0.mass - m) < 1e-12 * m);
    QVERIFY(std::abs(lever0.inertia[2] - m * (0.25 + 0.0016) / 12) < 1e-12);
    QVERIFY(near(lever0.position, {0, 0, 0}, 0));
    const std::string lever = lever0.id;
    QCOMPARE(w.selection()->current(), QString::fromStdString(lever));
    // 11. Out of the plate: the gizmo's z arrow, 50 mm up.
    dragArrow(view, GizmoHandle::MoveZ, 0.05);
    QVERIFY2(near(w.project().mechanism.part(lever)->position, {0, 0, 0.05}, 1e-12), "the lever lifted by the gizmo");
    snapshot(w, "4_lever_lifted");

    // 12-15. Its pivot and rod end on its top face (z = 60 mm), 400 mm apart.
    clickAction(bar, w.buildTools()->markerHere());
    click(view, at(view, QVector3D(-0.2f, 0.0f, 0.06f)));
    clickAction(bar, w.buildTools()->markerHere());
    click(view, at(view, QVector3D(0.2f, 0.0f, 0.06f)));
    const MarkerDef* lp = marker(w.project(), lever, "m1");
    const MarkerDef* rodEnd = marker(w.project(), lever, "m2");
    QVERIFY(lp && rodEnd);
    QVERIFY(near(lp->position, {-0.2, 0, 0.01}, 1e-12));
    QVERIFY(near(rodEnd->position, {0.2, 0, 0.01}, 1e-12));

    // 16-17. The lever selected again and lowered with the gizmo: its pivot
    // snaps onto the ground's raised pivot, and the joint is offered.
    click(view, at(view, QVector3D(0.0f, 0.0f, 0.06f)));
    QCOMPARE(w.selection()->current(), QString::fromStdString(lever));
    QVERIFY(!w.buildTools()->jointAtSnap()->isEnabled());
    QSignalSpy status(w.buildTools(), &BuildTools3d::statusMessage);
    dragArrow(view, GizmoHandle::MoveZ, -0.027, "5_lever_snapping");
    QVERIFY2(near(w.project().mechanism.part(lever)->position, {0, 0, 0.02}, 1e-12), "pivot on pivot");
    QVERIFY(!status.isEmpty());
    const QString offer = status.back().front().toString();
    QVERIFY2(offer.contains(QString::fromStdString("Markers " + lever + ".m1 and " + ground + ".m1 coincide")), qPrintable(offer));
    QVERIFY(w.buildTools()->jointAtSnap()->isEnabled());
    QVERIFY2(view->hint().contains("coincide: Joint at Snap"), qPrintable(view->hint()));  // said in the view too
    snapshot(w, "5b_joint_offer");

    // 18-19. Joint at Snap: the palette for those two markers, revolute.
    chooseFromMenu(w.buildTools()->jointAtSnap(), w.buildTools()->jointAtSnapAction("revolute"));
    QCOMPARE(w.project().mechanism.joints.size(), size_t(1));
    const JointDef joint = w.project().mechanism.joints[0];
    QCOMPARE(joint.type, std::string("revolute"));
    QCOMPARE(joint.i, lever + ".m1");
    QCOMPARE(joint.j, ground + ".m1");
    QVERIFY(!w.buildTools()->jointAtSnap()->isEnabled());
    QVERIFY(view->hint().isEmpty());
    snapshot(w, "6_joint");

    // 20-23. The cylinder: its symbol, Attach, the clevis, the rod end.
    SchematicView* sv = w.schematicView();
    const QPointF sym = w.scene()->componentItem("cyl1")->sceneBoundingRect().center();
    click(sv->viewport(), sv->mapFromScene(sym));
    QCOMPARE(w.selection()->current(), QString("cyl1"));
    clickAction(w.mechanismActions()->toolBar(), w.mechanismActions()->attachCylinder());
    QTRY_VERIFY(view->isPickingMarker());
    clickMarker(view, QString::fromStdString(ground + ".m2"));
    snapshot(w, "7_attach_pick");
    clickMarker(view, QString::fromStdString(lever + ".m2"));
    const nlohmann::json& data = w.project().find("cyl1")->data;
    QCOMPARE(data["attach"]["barrel"].get<std::string>(), ground + ".m2");
    QCOMPARE(data["attach"]["rod"].get<std::string>(), lever + ".m2");

    // 24. Run (the main toolbar's button).
    auto* main = w.findChild<QToolBar*>("mainToolBar");
    QAction* run = nullptr;
    for (QAction* a : main->actions())
      if (a->text().remove('&') == "Run") run = a;
    QVERIFY(run);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    clickAction(main, run);
    QVERIFY(done.wait(120000));
    QVERIFY2(w.runner()->lastResult().status == RunStatus::Completed, w.runner()->lastResult().message.c_str());
    snapshot(w, "8_run");
    qInfo("actions: %d", actions);
    QVERIFY2(actions <= 25, qPrintable(QString("%1 actions").arg(actions)));

    // The end stop holds the cylinder at full stroke L = L0 + 200 mm. The
    // rod end P = pivot + 400 mm (cos q, sin q) in the plane z = 30 mm, the
    // clevis C = (200, -250, 10) mm, the pivot (-200, 0) mm:
    // |P - C|^2 = 400^2 (cos q - 1)^2 + (400 sin q + 250)^2 + 20^2
    //           = 382900 - 320000 cos q + 200000 sin q   [mm^2],
    // so 320000 cos q - 200000 sin q = 382900 - L^2, L0^2 = 62900.
    const ResultStore& r = *w.resultBuffer()->store();
    const auto q = r.column(joint.id + ".angle");
    const auto x = r.column("cyl1.x");
    const double L = std::sqrt(62900.0) + 200.0;
    const double R = std::hypot(320000.0, 200000.0), phi = std::atan2(200000.0, 320000.0);
    const double qEnd = std::acos((382900.0 - L * L) / R) - phi;
    qInfo("end: cyl1.x = %.6f m, angle %.5f deg, hand calculation %.5f deg", x.back(), q.back() * 180 / M_PI,
          qEnd * 180 / M_PI);
    // The end stop's contact lets the piston sink in by well under 0.1 mm:
    // 0.1 mm of stroke is 0.016 deg here.
    QVERIFY2(std::abs(x.back() - 0.2) < 1e-4, "the cylinder reaches its end stop");
    QVERIFY2(std::abs(q.back() - qEnd) < 0.02 * M_PI / 180, "the lever's end angle");
  }

  // Move: typed world offsets rounded to the snap step, one undo step; a
  // marker's offset goes into its part's axes.
  void moveByTypedOffsetsSnapped() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "four_bar"));
    BuildTools3d* tools = w.buildTools();
    QVERIFY(!tools->move()->isEnabled());
    w.selection()->select("crank");
    QVERIFY(tools->move()->isEnabled());
    const Project before = w.project();
    const Vec3 p0 = before.mechanism.part("crank")->position;
    clickAction(tools->toolBar(), tools->move());
    QDialog* d = dialog(w, "moveDialog");
    QVERIFY(d);
    clickAndType(d->findChild<QLineEdit*>("move_dx"), "12");   // -> 10 mm
    clickAndType(d->findChild<QLineEdit*>("move_dz"), "-3.2"); // -> -5 mm
    pressOk(d);
    const Vec3 p1 = w.project().mechanism.part("crank")->position;
    QVERIFY(std::abs(p1[0] - (p0[0] + 0.01)) < 1e-12);
    QVERIFY(std::abs(p1[1] - p0[1]) < 1e-12);
    QVERIFY(std::abs(p1[2] - (p0[2] - 0.005)) < 1e-12);
    w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
    // A marker of the crank: the world offset in the crank's axes.
    const PartDef* crank = before.mechanism.part("crank");
    QVERIFY(!crank->markers.empty());
    const QString ref = QString::fromStdString("crank." + crank->markers[0].id);
    w.selection()->select(ref);
    clickAction(tools->toolBar(), tools->move());
    d = dialog(w, "moveDialog");
    QVERIFY(d);
    clickAndType(d->findChild<QLineEdit*>("move_dy"), "50");
    pressOk(d);
    const QVector3D local = gui::rotationFromRpy(crank->orientation).transposed().mapVector(QVector3D(0, 0.05f, 0));
    const Vec3 m0 = crank->markers[0].position, m1 = findMarker(w.project().mechanism, ref.toStdString())->position;
    for (int k = 0; k < 3; ++k) {
      const double want = std::round((m0[k] + local[k]) / 0.005) * 0.005;
      QVERIFY2(std::abs(m1[k] - want) < 1e-9, qPrintable(QString("[%1] %2 vs %3").arg(k).arg(m1[k]).arg(want)));
    }
  }

  // Shift + drag on a part moves it in the grid's plane, snapped; the
  // camera stays; one undo step.
  void shiftDragMovesAPart() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "four_bar"));
    MechanismView* view = w.mechanismView();
    const Project before = w.project();
    const Vec3 p0 = before.mechanism.part("crank")->position;
    // four_bar's gravity is -y: the plane across up is y = const.
    const QPoint from = at(view, QVector3D(0, 0.06f, 0)), to = at(view, QVector3D(0.05f, 0.06f, 0));
    QCOMPARE(view->objectAt(from), QString("crank"));
    const QVector3D eye = view->cameraEye();
    QTest::mousePress(view, Qt::LeftButton, Qt::ShiftModifier, from);
    for (int k = 1; k <= 5; ++k) QTest::mouseMove(view, from + (to - from) * k / 5);
    waitFrame(view);
    QVERIFY((view->partTransform("crank").column(3).toVector3D() - QVector3D(0.05f, 0, 0)).length() < 1e-6);  // drawn moved
    QTest::mouseRelease(view, Qt::LeftButton, Qt::ShiftModifier, to);
    const Vec3 p1 = w.project().mechanism.part("crank")->position;
    const Vec3 want{std::round((p0[0] + 0.05) / 0.005) * 0.005, std::round(p0[1] / 0.005) * 0.005,
                    std::round(p0[2] / 0.005) * 0.005};
    qInfo("crank moved from (%g, %g, %g) to (%g, %g, %g) m", p0[0], p0[1], p0[2], p1[0], p1[1], p1[2]);
    QVERIFY(near(p1, want, 1e-12));
    QCOMPARE(view->cameraEye(), eye);
    QCOMPARE(w.selection()->current(), QString("crank"));
    w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
  }

  // A ring of the gizmo turns the selected part about its world axis
  // through the part's origin: 40 degrees of mouse travel are 45 in steps
  // of 15; with Shift, 40 (within the pixel grid). Each drag is one undo step.
  void gizmoRingTurnsInSnappedSteps() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("four_bar"), QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    w.selection()->select("coupler");
    const Project before = w.project();
    const PartDef* c0 = before.mechanism.part("coupler");
    turnRing(view, GizmoHandle::TurnZ, 40.0, Qt::NoModifier);
    const PartDef* c1 = w.project().mechanism.part("coupler");
    QVERIFY(near(c1->position, c0->position, 0));  // about its own origin
    const Eigen::Matrix3d want = Eigen::AngleAxisd(M_PI / 4, Eigen::Vector3d::UnitZ()) * pm::rotationFromRpy(c0->orientation);
    const double err = (pm::rotationFromRpy(c1->orientation) - want).norm();
    qInfo("ring turn 40 deg of travel: yaw %.12g deg, |R - Rz(45) R0| = %.2e", c1->orientation[2] * 180 / M_PI, err);
    QVERIFY2(err < 1e-12, "45 degrees about world z");
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Turn coupler"));
    w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
    turnRing(view, GizmoHandle::TurnZ, 40.0, Qt::ShiftModifier);
    const double yaw = w.project().mechanism.part("coupler")->orientation[2] * 180 / M_PI;
    qInfo("Shift: yaw %.4f deg for 40 deg of travel", yaw);
    QVERIFY2(std::abs(yaw - 40.0) < 1.5, "free angle with Shift (half a pixel at each end of a 60 px radius)");
    // A marker turns about the world axis too: its axes in its part's frame.
    w.document()->undoStack()->undo();
    w.selection()->select("rocker.C");
    turnRing(view, GizmoHandle::TurnX, -100.0, Qt::NoModifier);  // -> -105
    const MarkerDef* mk = findMarker(w.project().mechanism, "rocker.C");
    QVERIFY(near(mk->position, before.mechanism.part("rocker")->markers[1].position, 0));
    QVERIFY2(near(mk->orientation, {-105 * M_PI / 180, 0, 0}, 1e-12), "roll -105 deg");
  }

  // Moving a part with the gizmo, one of its markers coming within the snap
  // radius of another part's marker lands on it exactly (here off the 5 mm
  // grid), and Joint at Snap joins the two. Markers that already coincide
  // (the crank's joints) are no offer.
  void gizmoMoveSnapsMarkerOntoMarker() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "four_bar"));
    MechanismView* view = w.mechanismView();
    w.document()->edit("set-up", [](Project& p) {
      MarkerDef pin;
      pin.id = "P";
      pin.position = {0.0, 0.1, 0.0437};
      findPart(p.mechanism, "ground")->markers.push_back(pin);
    });
    w.selection()->select("crank");
    const Project before = w.project();
    dragArrow(view, GizmoHandle::MoveZ, 0.046, "gizmo_marker_snap");
    Vec3 b{}, pin{};
    QVERIFY(markerWorld(w.project().mechanism, "crank.B", b) && markerWorld(w.project().mechanism, "ground.P", pin));
    qInfo("crank.B at (%.12g, %.12g, %.12g), ground.P at (%.12g, %.12g, %.12g)", b[0], b[1], b[2], pin[0], pin[1], pin[2]);
    QVERIFY2(near(b, pin, 1e-12), "crank.B on ground.P");
    QVERIFY(w.buildTools()->jointAtSnap()->isEnabled());
    QVERIFY2(!w.buildTools()->alignAndJoin()->isVisible(), "z axes agree: nothing to align");
    chooseFromMenu(w.buildTools()->jointAtSnap(), w.buildTools()->jointAtSnapAction("spherical"));
    const JointDef& j = w.project().mechanism.joints.back();
    QCOMPARE(j.type, std::string("spherical"));
    QCOMPARE(j.i, std::string("crank.B"));
    QCOMPARE(j.j, std::string("ground.P"));
    w.document()->undoStack()->undo();  // the joint
    w.document()->undoStack()->undo();  // the move
    QVERIFY(w.project() == before);
    // A short drag of a crank whose markers sit on their joints: the grid
    // step, no snap back onto them.
    w.selection()->select("crank");
    dragArrow(view, GizmoHandle::MoveX, 0.01);
    QVERIFY(near(w.project().mechanism.part("crank")->position, {0.01, 0, 0}, 1e-12));
    QVERIFY(!w.buildTools()->jointAtSnap()->isEnabled());
  }

  // Escape during a gizmo drag: the part (or marker) is drawn where it was,
  // the release changes nothing, no undo step; the camera stays.
  void escapeCancelsAGizmoDrag() {
    MainWindow w;
    // Keys go to the active window's focus widget.
    QVERIFY(test::showExampleToBuild(w, "four_bar", true));
    MechanismView* view = w.mechanismView();
    QUndoStack* undo = w.document()->undoStack();
    const int steps = undo->count();
    const Project before = w.project();
    for (const QString id : {QString("crank"), QString("rocker.C")}) {
      w.selection()->select(id);
      waitFrame(view);
      const QVector3D o0 = view->gizmoOrigin();
      const QMatrix4x4 m0 = view->partTransform("crank");
      QVector3D grab;
      QVERIFY(view->gizmoGrabPoint(int(GizmoHandle::MoveX), grab));
      const QPoint a = view->projectToWidget(grab).toPoint(),
                   b = view->projectToWidget(grab + QVector3D(0.08f, 0, 0)).toPoint();
      const QVector3D eye = view->cameraEye();
      QTest::mousePress(view, Qt::LeftButton, {}, a);
      for (int k = 1; k <= 6; ++k) QTest::mouseMove(view, a + (b - a) * k / 6);
      waitFrame(view);
      QVERIFY2((view->gizmoOrigin() - o0 - QVector3D(0.08f, 0, 0)).length() < 0.006, "dragged 80 mm");
      if (id == "crank") QVERIFY((view->partTransform("crank").column(3) - m0.column(3)).toVector3D().length() > 0.07);
      // The key as typed: to the focus widget, which the press made the view.
      QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(view));
      QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
      waitFrame(view);
      QVERIFY2((view->gizmoOrigin() - o0).length() < 1e-6, "the gizmo back at the start");
      QVERIFY2(view->partTransform("crank") == m0, "the crank drawn where it was");
      for (int k = 1; k <= 3; ++k) QTest::mouseMove(view, b + QPoint(10 * k, 5 * k));  // still held: nothing
      QTest::mouseRelease(view, Qt::LeftButton, {}, b + QPoint(30, 15));
      waitFrame(view);
      QVERIFY(view->partTransform("crank") == m0);
      QVERIFY2(w.project() == before, qPrintable(id + " unchanged in the model"));
      QCOMPARE(undo->count(), steps);
      QCOMPARE(view->cameraEye(), eye);
      QCOMPARE(w.selection()->current(), id);
    }
    // The next drag works as before.
    w.selection()->select("crank");
    dragArrow(view, GizmoHandle::MoveX, 0.01);
    QVERIFY(near(w.project().mechanism.part("crank")->position, {0.01, 0, 0}, 1e-12));
    QCOMPARE(undo->count(), steps + 1);
  }

  // "Add joint" by picking two markers (issue 28, point 4): four_bar without
  // its joint jC; the 3D toolbar's Joint palette, revolute, then a click on
  // rocker.C and one on coupler.C (they coincide: each click offers the
  // markers there in a list) add jC's joint back, one undo step.
  void jointByPickingTwoMarkers() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("four_bar"), QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    const JointDef jC = w.project().mechanism.joints.at(2);
    QCOMPARE(jC.id, std::string("jC"));
    w.document()->edit("set-up", [](Project& p) { p.mechanism.joints.erase(p.mechanism.joints.begin() + 2); });
    QUndoStack* undo = w.document()->undoStack();
    const int steps = undo->count();
    auto* button = w.buildTools()->toolBar()->findChild<QToolButton*>("buildJoint3d");
    chooseFromMenu(button, w.buildTools()->jointAction("revolute"));
    QTRY_VERIFY(view->isPickingMarker());
    clickMarker(view, "rocker.C");
    QVERIFY2(view->isPickingMarker(), "marker J next");
    clickMarker(view, "coupler.C");
    QCOMPARE(w.project().mechanism.joints.size(), size_t(4));
    const JointDef& j = w.project().mechanism.joints.back();
    QCOMPARE(j.type, jC.type);
    QCOMPARE(j.i, jC.i);
    QCOMPARE(j.j, jC.j);
    QCOMPARE(undo->count(), steps + 1);
    QVERIFY(!view->isPickingMarker());
    // The new joint selected, its form filled in.
    QCOMPARE(w.selection()->current(), QString::fromStdString(j.id));
    MechanismForm* form = w.propertyEditor()->mechanismForm();
    QElapsedTimer shown;
    shown.start();
    QTRY_VERIFY(form->fieldEditor("type") && form->fieldEditor("type")->isVisible());
    qInfo("form shown after %lld ms", shown.elapsed());
    undo->undo();
    QCOMPARE(w.project().mechanism.joints.size(), size_t(3));
  }

  // The crank alone (its joints, the coupler and the rocker gone), a ground
  // pin P whose z axis lies along -y (roll 90 deg): the crank's B snaps onto
  // P with z axes 90 deg apart. "Align and join" turns the crank about B so
  // they agree and adds the revolute joint in one undo step: the check then
  // finds nothing for the assembly to move; the plain joint is refused
  // (the mechanism cannot be assembled).
  void alignAndJoinTurnsTheMovedPart() {
    MainWindow w;
    QVERIFY(test::showCrankAlone(w, [](Mechanism& m) { test::addGroundPin(m, {0.0, 0.1, 0.0437}, {M_PI / 2, 0, 0}); }));
    MechanismView* view = w.mechanismView();
    w.selection()->select("crank");
    QSignalSpy status(w.buildTools(), &BuildTools3d::statusMessage);
    dragArrow(view, GizmoHandle::MoveZ, 0.046);
    const Project moved = w.project();
    Vec3 b{}, pin{};
    QVERIFY(markerWorld(moved.mechanism, "crank.B", b) && markerWorld(moved.mechanism, "ground.P", pin));
    QVERIFY2(near(b, pin, 1e-12), "crank.B on ground.P");
    QVERIFY(std::abs(zAxisAngle(moved.mechanism, "crank.B", "ground.P") - M_PI / 2) < 1e-12);
    QVERIFY(!status.isEmpty());
    const QString offer = status.back().front().toString();
    qInfo("offer: %s", qPrintable(offer));
    QVERIFY2(offer.contains("z axes 90 deg apart") && offer.contains("Align and join"), qPrintable(offer));
    QVERIFY(w.buildTools()->alignAndJoin()->isVisible());
    QVERIFY2(view->hint().contains("Align and join"), qPrintable(view->hint()));
    statusShows(w, offer);
    snapshot(w, "align_offer");
    QUndoStack* undo = w.document()->undoStack();
    const int steps = undo->count();

    chooseFromSubmenu(w.buildTools()->jointAtSnap(), w.buildTools()->alignAndJoin(),
                      w.buildTools()->alignAndJoinAction("revolute"));
    QCOMPARE(undo->count(), steps + 1);
    const Mechanism& m = w.project().mechanism;
    QCOMPARE(m.joints.size(), size_t(1));
    QCOMPARE(m.joints[0].type, std::string("revolute"));
    QCOMPARE(m.joints[0].i, std::string("crank.B"));
    QCOMPARE(m.joints[0].j, std::string("ground.P"));
    QVERIFY(markerWorld(m, "crank.B", b));
    const double angle = zAxisAngle(m, "crank.B", "ground.P");
    qInfo("aligned: crank rpy (%.12g, %.12g, %.12g) deg, B off P by %.2e m, z axes %.2e rad apart",
          m.part("crank")->orientation[0] * 180 / M_PI, m.part("crank")->orientation[1] * 180 / M_PI,
          m.part("crank")->orientation[2] * 180 / M_PI, std::hypot(b[0] - pin[0], b[1] - pin[1], b[2] - pin[2]), angle);
    snapshot(w, "align_joined");
    QVERIFY2(near(b, pin, 1e-12), "B stays on P");
    QVERIFY2(angle < 1e-9, "z axes agree");
    // The smallest turn taking B's z (world z) onto P's (-y): 90 deg about world x.
    const Eigen::Matrix3d want = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitX()) *
                                 pm::rotationFromRpy(moved.mechanism.part("crank")->orientation);
    QVERIFY((pm::rotationFromRpy(m.part("crank")->orientation) - want).norm() < 1e-12);
    auto assemblyNotes = [](const Project& p) {
      QStringList moves;
      try {
        for (const std::string& n : pm::engine::check(p))
          if (n.find("assembly moved") != std::string::npos) moves << QString::fromStdString(n);
      } catch (const std::exception& e) {
        moves << QString("refused: ") + e.what();
      }
      return moves.join("; ");
    };
    const QString aligned = assemblyNotes(w.project());
    QVERIFY2(aligned.isEmpty(), qPrintable(aligned));

    // Undone in one step (the offer back); the plain revolute is refused.
    undo->undo();
    QVERIFY(w.project() == moved);
    QVERIFY(w.buildTools()->jointAtSnap()->isEnabled());
    chooseFromMenu(w.buildTools()->jointAtSnap(), w.buildTools()->jointAtSnapAction("revolute"));
    QVERIFY(std::abs(zAxisAngle(w.project().mechanism, "crank.B", "ground.P") - M_PI / 2) < 1e-12);
    const QString plain = assemblyNotes(w.project());
    qInfo("plain joint: %s", qPrintable(plain));
    QVERIFY2(plain.contains("refused") && plain.contains("cannot be assembled"), "misaligned: refused");
  }
};

QTEST_MAIN(TestGui3dBuildLinkage)
#include "test_gui3d_build_linkage.moc"
