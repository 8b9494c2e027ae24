// Editing the mechanism in the studio (issue 7): parts, markers and joints
// created through the actions, dialogs and property fields; a cylinder
// attached by clicking its two markers in the 3D view; the drawn rod at the
// end of a played run against the result channel; one selection shared by
// the model tree, the schematic and the 3D view; zoom to the cursor; a
// cylinder along a translational joint drawn. Needs OpenGL (Xvfb).
//
// To look at the studio: PM_STUDIO_SNAPSHOT=/tmp/studio.png (selectionIsShared),
// PM_PICK_SNAPSHOT=/tmp/pick.png (attachCylinderByClickingMarkers, mid-pick),
// PM_FORM_SNAPSHOT=/tmp/form.png (createPartMarkersAndRevoluteJoint, part form).
#include "document.h"
#include "main_window.h"
#include "mechanism_actions.h"
#include "mechanism_editing.h"
#include "mechanism_form.h"
#include "mechanism_view.h"
#include "result_buffer.h"
#include "mechanism_view_controls.h"
#include "model_tree.h"
#include "property_editor.h"
#include "schematic_scene.h"
#include "selection_model.h"
#include "simulation_runner.h"
#include "engine/engine.h"
#include "support/mechanism_builders.h"
#include "support/mechanism_view_frames.h"
#include "support/property_typing.h"
#include "support/studio_window.h"
#include "support/test_project.h"

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
#include <QUndoStack>
#include <QtTest/QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::waitFrame;

namespace {

// World matrix of a frame, the model's convention written out: R = Rz Ry Rx.
QMatrix4x4 frame(const Vec3& p, const Vec3& rpy) {
  QMatrix4x4 m;
  m.translate(float(p[0]), float(p[1]), float(p[2]));
  m.rotate(float(rpy[2] * 180 / M_PI), 0, 0, 1);
  m.rotate(float(rpy[1] * 180 / M_PI), 0, 1, 0);
  m.rotate(float(rpy[0] * 180 / M_PI), 1, 0, 0);
  return m;
}

QVector3D initialMarker(const Project& p, const std::string& part, const std::string& marker) {
  const PartDef* d = p.mechanism.part(part);
  for (const MarkerDef& mk : d->markers)
    if (mk.id == marker)
      return frame(d->position, d->orientation).map(QVector3D(float(mk.position[0]), float(mk.position[1]), float(mk.position[2])));
  return {};
}

// The studio at the size the pixel checks assume, shown and exposed, with
// `file` open.
bool showStudio(MainWindow& w, const QString& file) { return test::showProject(w, file, QSize(1500, 950)); }

QString toolChanger() { return QString::fromStdString(test::projectPath("tool_changer.pneumech.json")); }

QDialog* openDialog(MainWindow& w, QAction* action, const char* name) {
  action->trigger();
  auto* d = w.findChild<QDialog*>(name);
  if (d && !QTest::qWaitForWindowExposed(d)) return nullptr;
  return d;
}

void pressOk(QDialog* d) {
  auto* ok = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
  QTest::mouseClick(ok, Qt::LeftButton);
}

// Types into a property field and presses Enter.
void editField(MainWindow& w, const std::string& key, const QString& text) {
  auto* e = qobject_cast<QLineEdit*>(w.propertyEditor()->mechanismForm()->fieldEditor(key));
  QVERIFY2(e, key.c_str());
  e->setFocus();
  e->selectAll();
  QTest::keyClicks(e, text);
  QTest::keyClick(e, Qt::Key_Return);
}

// Clicks the model tree row of `id`.
void clickTree(MainWindow& w, const QString& id) {
  ModelTree* tree = w.modelTree();
  QTreeWidgetItem* item = tree->itemFor(id);
  QVERIFY2(item, qPrintable(id));
  tree->scrollToItem(item);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
}

// Waits until the 3D view has drawn a new frame (camera and poses current).
int highlightPixels(const QImage& img) {
  int n = 0;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) {
      const QColor c(img.pixel(x, y));
      n += c.red() > 190 && c.green() > 150 && c.blue() < 100 && c.red() - c.blue() > 120 ? 1 : 0;
    }
  return n;
}

}  // namespace

class TestGui3dEdit : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
  }

  void createPartMarkersAndRevoluteJoint() {
    MainWindow w;
    QVERIFY(test::showNewCircuit(w));
    MechanismActions* act = w.mechanismActions();
    QVERIFY(!act->addJoint()->isEnabled());  // no markers yet

    // Ground part (the first part is offered as ground).
    QDialog* d = openDialog(w, act->addPart(), "addPartDialog");
    QVERIFY(d);
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "base");
    QVERIFY(d->findChild<QCheckBox*>("dlg_ground")->isChecked());
    pressOk(d);
    QTRY_VERIFY(!w.findChild<QDialog*>("addPartDialog"));
    QCOMPARE(w.project().mechanism.parts.size(), size_t(1));
    QVERIFY(w.project().mechanism.parts[0].ground);
    QCOMPARE(w.selection()->current(), QString("base"));

    // A moving part at x = 100 mm with 2.5 kg; a taken id is refused in the dialog.
    d = openDialog(w, act->addPart(), "addPartDialog");
    QVERIFY(!d->findChild<QCheckBox*>("dlg_ground")->isChecked());  // there is a ground already
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "base");
    pressOk(d);
    QVERIFY(d->isVisible());
    QVERIFY(d->findChild<QLabel*>("dlg_message")->text().contains("taken"));
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "arm");
    test::typeInto(d->findChild<QWidget*>("dlg_shape"), "none");  // a point mass typed in, not a shape
    test::typeInto(d->findChild<QWidget*>("dlg_mass"), "2.5");
    test::typeInto(d->findChild<QWidget*>("dlg_position.x"), "100");
    pressOk(d);
    QTRY_VERIFY(!w.findChild<QDialog*>("addPartDialog"));
    const PartDef* arm = w.project().mechanism.part("arm");
    QVERIFY(arm);
    QVERIFY(!arm->ground);
    QCOMPARE(arm->mass, 2.5);
    QVERIFY(std::abs(arm->position[0] - 0.1) < 1e-15);

    // Marker arm.pivot at -50 mm in x, turned 90 degrees about z.
    QCOMPARE(w.selection()->current(), QString("arm"));
    d = openDialog(w, act->addMarker(), "addMarkerDialog");
    QCOMPARE(d->findChild<QComboBox*>("dlg_part")->currentText(), QString("arm"));
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "pivot");
    test::typeInto(d->findChild<QWidget*>("dlg_position.x"), "-50");
    test::typeInto(d->findChild<QWidget*>("dlg_orientation.yaw"), "90");
    pressOk(d);
    QTRY_VERIFY(!w.findChild<QDialog*>("addMarkerDialog"));
    arm = w.project().mechanism.part("arm");
    QCOMPARE(arm->markers.size(), size_t(1));
    QCOMPARE(arm->markers[0].id, std::string("pivot"));
    QVERIFY(std::abs(arm->markers[0].position[0] + 0.05) < 1e-15);
    QVERIFY(std::abs(arm->markers[0].orientation[2] - M_PI / 2) < 1e-15);

    // Marker base.O at 50 mm, on the part picked in the model tree.
    clickTree(w, "base");
    QCOMPARE(w.selection()->current(), QString("base"));
    d = openDialog(w, act->addMarker(), "addMarkerDialog");
    QCOMPARE(d->findChild<QComboBox*>("dlg_part")->currentText(), QString("base"));
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "O");
    test::typeInto(d->findChild<QWidget*>("dlg_position.x"), "50");
    pressOk(d);
    QTRY_VERIFY(!w.findChild<QDialog*>("addMarkerDialog"));
    QCOMPARE(w.project().mechanism.part("base")->markers.size(), size_t(1));

    // Revolute joint: I = arm.pivot, J = base.O.
    QVERIFY(act->addJoint()->isEnabled());
    d = openDialog(w, act->addJoint(), "addJointDialog");
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "hinge");
    test::typeInto(d->findChild<QWidget*>("dlg_type"), "rev");
    QCOMPARE(d->findChild<QComboBox*>("dlg_type")->currentText(), QString("revolute"));
    test::typeInto(d->findChild<QWidget*>("dlg_i"), "arm.p");
    test::typeInto(d->findChild<QWidget*>("dlg_j"), "base.O");
    QCOMPARE(d->findChild<QComboBox*>("dlg_i")->currentText(), QString("arm.pivot"));
    QCOMPARE(d->findChild<QComboBox*>("dlg_j")->currentText(), QString("base.O"));
    pressOk(d);
    QTRY_VERIFY(!w.findChild<QDialog*>("addJointDialog"));
    QCOMPARE(w.project().mechanism.joints.size(), size_t(1));
    const JointDef& j = w.project().mechanism.joints[0];
    QCOMPARE(j.id, std::string("hinge"));
    QCOMPARE(j.type, std::string("revolute"));
    QCOMPARE(j.i, std::string("arm.pivot"));
    QCOMPARE(j.j, std::string("base.O"));
    QVERIFY(w.modelTree()->itemFor("hinge"));
    QCOMPARE(w.modelTree()->currentItem()->data(0, ModelTree::IdRole).toString(), QString("hinge"));

    // The property editor edits the part: mass, yaw in degrees, a refusal.
    clickTree(w, "arm");
    QCOMPARE(w.propertyEditor()->mechanismForm()->objectId(), std::string("arm"));
    waitFrame(w.mechanismView());
    const QVector3D eye = w.mechanismView()->cameraEye();
    editField(w, "mass", "3");
    QCOMPARE(w.project().mechanism.part("arm")->mass, 3.0);
    editField(w, "orientation.yaw", "30");
    QVERIFY(std::abs(w.project().mechanism.part("arm")->orientation[2] - M_PI / 6) < 1e-15);
    editField(w, "position.z", "12.5 mm");
    QVERIFY(std::abs(w.project().mechanism.part("arm")->position[2] - 0.0125) < 1e-15);
    waitFrame(w.mechanismView());
    QCOMPARE(w.mechanismView()->cameraEye(), eye);  // field edits keep the camera
    const Project before = w.project();
    editField(w, "mass", "heavy");
    QVERIFY(w.project() == before);
    QVERIFY(w.propertyEditor()->mechanismForm()->message().contains("arm.mass"));
    if (const QByteArray out = qgetenv("PM_FORM_SNAPSHOT"); !out.isEmpty()) {
      waitFrame(w.mechanismView());
      QVERIFY(w.grab().save(QString::fromLocal8Bit(out)));
    }
    // The joint's fields: its type and markers as lists.
    clickTree(w, "hinge");
    auto* type = qobject_cast<QComboBox*>(w.propertyEditor()->mechanismForm()->fieldEditor("type"));
    QVERIFY(type);
    QCOMPARE(type->currentText(), QString("revolute"));

    // Deleting the part takes its joint along; undo brings both back.
    clickTree(w, "arm");
    w.mechanismActions()->deleteObject()->trigger();
    QVERIFY(!w.project().mechanism.part("arm"));
    QVERIFY(w.project().mechanism.joints.empty());
    w.document()->undoStack()->undo();
    QVERIFY(w.project().mechanism.part("arm"));
    QCOMPARE(w.project().mechanism.joints.size(), size_t(1));
    QVERIFY(w.project() == before);

    // The result compiles: a kinematic model the engine accepts.
    QVERIFY(w.mechanismView()->isVisible());
    QVector3D pivot, o;
    waitFrame(w.mechanismView());
    QVERIFY(w.mechanismView()->markerPosition("arm.pivot", pivot));
    QVERIFY(w.mechanismView()->markerPosition("base.O", o));
    // arm at x = 100 mm turned 30 deg: pivot at 100 - 50 cos 30 mm, -50 sin 30 mm, z 12.5 mm.
    QVERIFY(std::abs(pivot.x() - float(0.1 - 0.05 * std::cos(M_PI / 6))) < 1e-6);
    QVERIFY(std::abs(pivot.y() - float(-0.05 * std::sin(M_PI / 6))) < 1e-6);
    QVERIFY(std::abs(o.x() - 0.05f) < 1e-6);
  }

  // An edit rebuilds only the nodes of what changed, and the updated scene
  // draws exactly what a scene built afresh from the edited model draws.
  void editUpdatesOnlyTheChangedObject() {
    MainWindow w;
    QVERIFY(showStudio(w, toolChanger()));
    MechanismView* view = w.mechanismView();
    waitFrame(view);
    const int actuators = 1;  // cyl1: actuators are always redrawn
    clickTree(w, "arm");
    const Project before = w.project();
    editField(w, "mass", "4");
    QCOMPARE(view->nodesBuiltByLastEdit(), actuators);
    editField(w, "position.z", "7");
    QCOMPARE(view->nodesBuiltByLastEdit(), actuators);  // the part's transform moves, its nodes stay
    QVector3D c;
    QVERIFY(view->markerPosition("arm.C", c));
    QVERIFY(std::abs(c.z() - 0.007f) < 1e-6);
    clickTree(w, "arm.C");
    editField(w, "position.z", "5");
    // arm's shapes and marker triads, the glyph of the hinge coupler_c on arm.C
    QCOMPARE(view->nodesBuiltByLastEdit(), 2 + 1 + actuators);
    QVERIFY(view->markerPosition("arm.C", c));
    QVERIFY(std::abs(c.z() - 0.012f) < 1e-6);
    clickTree(w, "crank_pivot");
    editField(w, "param.upper", "80");
    QCOMPARE(view->nodesBuiltByLastEdit(), 1 + actuators);  // the hinge glyph
    for (int i = 0; i < 4; ++i) w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
    QVERIFY(view->markerPosition("arm.C", c));
    QVERIFY(std::abs(c.z() - float(initialMarker(before, "arm", "C").z())) < 1e-6);

    // Pixels: a view updated through several edits and one built afresh.
    Project p = before;
    MechanismView edited, fresh;
    for (MechanismView* v : {&edited, &fresh}) v->resize(360, 260);
    edited.setProject(p);
    edited.show();
    QVERIFY(QTest::qWaitForWindowExposed(&edited));
    findPart(p.mechanism, "arm")->position[2] += 0.01;
    edited.setProject(p);
    findPart(p.mechanism, "crank")->geometry.at(0).color = "#20a020";
    edited.setProject(p);
    QCOMPARE(edited.nodesBuiltByLastEdit(), 2 + actuators);
    p.mechanism.joints.pop_back();
    edited.setProject(p);
    fresh.setProject(p);
    fresh.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fresh));
    edited.fitAll();
    fresh.fitAll();
    waitFrame(&edited);
    waitFrame(&fresh);
    const QImage a = edited.snapshot(360, 260), b = fresh.snapshot(360, 260);
    int differ = 0;
    for (int y = 0; y < a.height(); ++y)
      for (int x = 0; x < a.width(); ++x) differ += a.pixel(x, y) != b.pixel(x, y) ? 1 : 0;
    QVERIFY2(differ == 0, qPrintable(QString("%1 pixels differ").arg(differ)));
  }

  // A semi-rotary actuator on a revolute joint: housing on the axis, an
  // indicator that turns with the joint; picked in 3D like a cylinder.
  void semiRotaryIsDrawnAndPickable() {
    Project p;
    p.mechanism = test::discOnShaft();
    p.components.push_back(test::comp("act", "semi_rotary_actuator", {}, {}, {{"attach", {{"joint", "shaft"}}}}));
    QTemporaryDir tmp;
    const QString file = tmp.filePath("rotary.pneumech.json");
    engine::save(p, file.toStdString());
    MainWindow w;
    QVERIFY(showStudio(w, file));
    MechanismView* view = w.mechanismView();
    QVERIFY(view && view->isVisible());
    waitFrame(view);
    QMatrix4x4 housing, indicator;
    QVERIFY(view->actuatorTransforms("act", housing, indicator));
    QVERIFY((housing.map(QVector3D(0, 0, 0))).length() < 1e-6);  // on the joint axis (ground.axis)
    QVERIFY((indicator.mapVector(QVector3D(1, 0, 0)) - QVector3D(1, 0, 0)).length() < 1e-6);
    QVERIFY(w.modelTree()->group("actuators")->childCount() == 1);

    if (const QByteArray out = qgetenv("PM_ROTARY_SNAPSHOT"); !out.isEmpty()) QVERIFY(w.grab().save(QString::fromLocal8Bit(out)));
    // Clicked in 3D near the axis where the actuator is drawn: selected everywhere.
    const QPoint axis = view->projectToWidget(QVector3D(0, 0, 0)).toPoint();
    QPoint at;
    for (int r = 0; r < 80 && at.isNull(); r += 4)
      for (int k = 0; k < 16 && at.isNull(); ++k) {
        const QPoint q = axis + QPoint(int(r * std::cos(k * M_PI / 8)), int(r * std::sin(k * M_PI / 8)));
        if (view->objectAt(q) == "act") at = q;
      }
    QVERIFY2(!at.isNull(), "no pixel of the actuator found near the joint axis");
    QTest::mouseClick(view, Qt::LeftButton, {}, at);
    QCOMPARE(w.selection()->current(), QString("act"));
    QCOMPARE(view->selectedId(), QString("act"));
    QCOMPARE(w.scene()->selectedComponents(), std::set<std::string>{"act"});
    QCOMPARE(w.modelTree()->currentItem()->data(0, ModelTree::IdRole).toString(), QString("act"));

    // The disc turned by 0.7 rad: the indicator turns with it, the housing stays.
    ResultStore store;
    std::vector<ChannelInfo> ch;
    for (const char* q : {"x", "y", "z", "roll", "pitch", "yaw"}) ch.push_back({std::string("disc.") + q, ""});
    store.setChannels(ch);
    const double row0[6] = {0, 0, 0, 0, 0, 0}, row1[6] = {0, 0, 0, 0, 0, 0.7};
    store.append(0.0, row0);
    store.append(1.0, row1);
    view->setResults(&store);
    view->setPose(1.0);
    QMatrix4x4 h1, i1;
    QVERIFY(view->actuatorTransforms("act", h1, i1));
    const QVector3D dir = i1.mapVector(QVector3D(1, 0, 0));
    QVERIFY(std::abs(std::atan2(dir.y(), dir.x()) - 0.7) < 1e-6);
    QVERIFY(std::abs(dir.z()) < 1e-6);
    QVERIFY(h1 == housing);
    view->setResults(nullptr);

    // Detached, it is no longer drawn; undo draws it again.
    QVERIFY(w.mechanismActions()->detachCylinder()->isEnabled());
    w.mechanismActions()->detachCylinder()->trigger();
    QVERIFY(attachment(*w.project().find("act")).is_null());
    QVERIFY(!view->actuatorTransforms("act", h1, i1));
    w.document()->undoStack()->undo();
    QVERIFY(view->actuatorTransforms("act", h1, i1));
  }

  // Renaming in the property form: every reference follows, duplicates are
  // refused with a message, undo restores the old names.
  void renameObjectsEverywhere() {
    MainWindow w;
    QVERIFY(showStudio(w, toolChanger()));
    const Project before = w.project();
    auto joint = [&](const char* id) { return findJoint(const_cast<Mechanism&>(w.project().mechanism), id); };

    clickTree(w, "arm");
    editField(w, "id", "lever");
    QVERIFY(!w.project().mechanism.part("arm"));
    QVERIFY(w.project().mechanism.part("lever"));
    QCOMPARE(joint("coupler_c")->i, std::string("lever.C"));
    QCOMPARE(joint("arm_pivot")->i, std::string("lever.D"));
    QCOMPARE(joint("holder_mount")->j, std::string("lever.mount"));
    QCOMPARE(w.selection()->current(), QString("lever"));
    QCOMPARE(w.propertyEditor()->mechanismForm()->objectId(), std::string("lever"));
    QVERIFY(w.modelTree()->itemFor("lever") && !w.modelTree()->itemFor("arm"));
    QVector3D c;
    QVERIFY(w.mechanismView()->markerPosition("lever.C", c));
    QVERIFY(w.mechanismView()->objectAt(w.mechanismView()->projectToWidget(c).toPoint()).size() > 0);

    // A taken id (a part, or a circuit component) is refused and named.
    const Project renamed = w.project();
    editField(w, "id", "crank");
    QVERIFY(w.project() == renamed);
    QVERIFY(w.propertyEditor()->mechanismForm()->message().contains("'crank' is taken"));
    editField(w, "id", "cyl1");
    QVERIFY(w.project() == renamed);
    editField(w, "id", "2x");
    QVERIFY(w.project() == renamed);
    QVERIFY(w.propertyEditor()->mechanismForm()->message().contains("starts with a letter"));

    // A marker carrying the cylinder's rod, and a joint.
    clickTree(w, "crank.P");
    editField(w, "id", "pin");
    QCOMPARE(w.project().find("cyl1")->data["attach"]["rod"].get<std::string>(), std::string("crank.pin"));
    QCOMPARE(w.selection()->current(), QString("crank.pin"));
    editField(w, "id", "crank.A");  // taken on this part
    QCOMPARE(w.project().find("cyl1")->data["attach"]["rod"].get<std::string>(), std::string("crank.pin"));
    QVERIFY(w.propertyEditor()->mechanismForm()->message().contains("already has a marker"));
    clickTree(w, "crank_pivot");
    editField(w, "id", "main_hinge");
    QVERIFY(joint("main_hinge") && !joint("crank_pivot"));

    for (int i = 0; i < 3; ++i) w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
    // The model-side rule also renames coupled joints, motions and signal inputs.
    Project p = before;
    JointDef coupler;
    coupler.id = "gear";
    coupler.type = "coupler";
    coupler.joints = {"crank_pivot", "arm_pivot"};
    p.mechanism.joints.push_back(coupler);
    MotionDef drive;
    drive.id = "drive";
    drive.joint = "crank_pivot";
    p.mechanism.motions.push_back(drive);
    p.components.push_back(test::comp("sens", "motion_sensor", {}, {{"in", "crank_pivot.angle"}}));
    std::string now;
    QCOMPARE(renameObject(p, "crank_pivot", "hinge", &now), QString());
    QCOMPARE(now, std::string("hinge"));
    QCOMPARE(findJoint(p.mechanism, "gear")->joints[0], std::string("hinge"));
    QCOMPARE(findMotion(p.mechanism, "drive")->joint, std::string("hinge"));
    QCOMPARE(p.find("sens")->inputs.at("in"), std::string("hinge.angle"));
  }

  // A part's display geometry edited in the property form: shape, sizes in
  // mm, colour, a shape added and removed; the 3D view redraws that part.
  void editDisplayGeometry() {
    MainWindow w;
    QVERIFY(showStudio(w, toolChanger()));
    const Project before = w.project();
    MechanismView* view = w.mechanismView();
    auto holder = [&] { return w.project().mechanism.part("holder"); };
    clickTree(w, "holder");
    MechanismForm* form = w.propertyEditor()->mechanismForm();
    auto* shape = qobject_cast<QComboBox*>(form->fieldEditor("geometry.0.shape"));
    QVERIFY(shape);
    QCOMPARE(shape->currentText(), QString("box"));
    editField(w, "geometry.0.lx", "95");
    QVERIFY(std::abs(holder()->geometry[0].size.at("lx") - 0.095) < 1e-15);
    QCOMPARE(view->nodesBuiltByLastEdit(), 2 + 1);  // holder's shapes and triads, cyl1
    editField(w, "geometry.0.ly", "-3");
    QVERIFY(form->message().contains("holder.geometry.0.ly"));
    editField(w, "geometry.0.color", "red");
    QVERIFY(form->message().contains("#rrggbb"));
    editField(w, "geometry.0.color", "#d02020");
    QCOMPARE(holder()->geometry[0].color, std::string("#d02020"));
    // Box to sphere: its sizes become a radius.
    test::typeInto(form->fieldEditor("geometry.0.shape"), "sph");
    QCOMPARE(holder()->geometry[0].shape, std::string("sphere"));
    QVERIFY(holder()->geometry[0].size.count("radius") && !holder()->geometry[0].size.count("lx"));
    QTRY_VERIFY(form->fieldEditor("geometry.0.radius"));
    editField(w, "geometry.0.radius", "30");
    QVERIFY(std::abs(holder()->geometry[0].size.at("radius") - 0.03) < 1e-15);
    // A second shape, a mesh with its file and scale; then removed again.
    test::typeInto(form->fieldEditor("geometry.add"), "me");
    QCOMPARE(holder()->geometry.size(), size_t(2));
    QCOMPARE(holder()->geometry[1].shape, std::string("mesh"));
    QTRY_VERIFY(form->fieldEditor("geometry.1.file"));
    editField(w, "geometry.1.file", "meshes/gripper.stl");
    editField(w, "geometry.1.scale", "0.001");
    QCOMPARE(holder()->geometry[1].file, std::string("meshes/gripper.stl"));
    QCOMPARE(holder()->geometry[1].size.at("scale"), 0.001);
    test::typeInto(form->fieldEditor("geometry.1.shape"), "(");
    QCOMPARE(holder()->geometry.size(), size_t(1));
    // Drawn: the red sphere on holder.mount is what a click there picks.
    waitFrame(view);
    QVector3D mount;
    QVERIFY(view->markerPosition("holder.mount", mount));
    QCOMPARE(view->objectAt(view->projectToWidget(mount).toPoint()), QString("holder"));
    // Markers are drawn on top of everything (issue 28): hidden here, so the
    // pixel on the marker is the sphere's.
    view->setMarkersVisible(false);
    const QColor seen = view->grabFramebuffer().pixelColor(view->projectToWidget(mount).toPoint() * view->devicePixelRatioF());
    QVERIFY2(seen.red() > 150 && seen.green() < 110, qPrintable(seen.name()));
    view->setMarkersVisible(true);
    if (const QByteArray out = qgetenv("PM_GEOMETRY_SNAPSHOT"); !out.isEmpty()) QVERIFY(w.grab().save(QString::fromLocal8Bit(out)));
    while (w.document()->undoStack()->canUndo() && !(w.project() == before)) w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
  }

  // A coupler (gear pair) and a motion from a time table, made in the studio.
  void createCouplerAndTableMotion() {
    MainWindow w;
    QVERIFY(showStudio(w, toolChanger()));
    const Project before = w.project();
    MechanismActions* act = w.mechanismActions();
    QDialog* d = openDialog(w, act->addJoint(), "addJointDialog");
    QVERIFY(d);
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "gear");
    test::typeInto(d->findChild<QWidget*>("dlg_type"), "cou");
    QCOMPARE(d->findChild<QComboBox*>("dlg_type")->currentText(), QString("coupler"));
    QVERIFY(!d->findChild<QComboBox*>("dlg_i")->isEnabled());
    QVERIFY(d->findChild<QComboBox*>("dlg_joint1")->isEnabled());
    test::typeInto(d->findChild<QWidget*>("dlg_joint1"), "crank_");
    test::typeInto(d->findChild<QWidget*>("dlg_joint2"), "crank_");
    pressOk(d);
    QVERIFY(d->isVisible());  // the same joint twice
    QVERIFY(d->findChild<QLabel*>("dlg_message")->text().contains("two different joints"));
    test::typeInto(d->findChild<QWidget*>("dlg_joint2"), "arm_");
    pressOk(d);
    QTRY_VERIFY(!w.findChild<QDialog*>("addJointDialog"));
    const JointDef* gear = findJoint(const_cast<Mechanism&>(w.project().mechanism), "gear");
    QVERIFY(gear);
    QCOMPARE(gear->type, std::string("coupler"));
    QCOMPARE(gear->joints, (std::vector<std::string>{"crank_pivot", "arm_pivot"}));
    QVERIFY(gear->i.empty() && gear->j.empty());
    QCOMPARE(w.selection()->current(), QString("gear"));
    auto* j2 = qobject_cast<QComboBox*>(w.propertyEditor()->mechanismForm()->fieldEditor("joints.1"));
    QVERIFY(j2);
    QCOMPARE(j2->currentText(), QString("arm_pivot"));

    // A displacement table on the crank's hinge, in degrees.
    d = openDialog(w, act->addMotion(), "addMotionDialog");
    QVERIFY(d);
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "drive");
    test::typeInto(d->findChild<QWidget*>("dlg_joint"), "crank_");
    test::typeInto(d->findChild<QWidget*>("dlg_function"), "tab");
    QCOMPARE(d->findChild<QComboBox*>("dlg_function")->currentText(), QString("table"));
    test::typeInto(d->findChild<QWidget*>("dlg_table"), "0 0; 0 30");
    pressOk(d);
    QVERIFY(d->isVisible());
    QVERIFY(d->findChild<QLabel*>("dlg_message")->text().contains("times must increase"));
    test::typeInto(d->findChild<QWidget*>("dlg_table"), "0 0; 0.5 30; 1 45");
    pressOk(d);
    QTRY_VERIFY(!w.findChild<QDialog*>("addMotionDialog"));
    const MotionDef* drive = findMotion(const_cast<Mechanism&>(w.project().mechanism), "drive");
    QVERIFY(drive);
    QCOMPARE(drive->function, std::string("table"));
    QCOMPARE(drive->table.size(), size_t(3));
    QCOMPARE(drive->table[1][0], 0.5);
    QVERIFY(std::abs(drive->table[1][1] - M_PI / 6) < 1e-15);
    QVERIFY(std::abs(drive->table[2][1] - M_PI / 4) < 1e-15);
    // The table is edited in the property form too.
    editField(w, "table", "0 0; 2 90");
    drive = findMotion(const_cast<Mechanism&>(w.project().mechanism), "drive");
    QCOMPARE(drive->table.size(), size_t(2));
    QVERIFY(std::abs(drive->table[1][1] - M_PI / 2) < 1e-15);
    for (int i = 0; i < 3; ++i) w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
  }

  void attachCylinderByClickingMarkers() {
    MainWindow w;
    QVERIFY(showStudio(w, toolChanger()));
    MechanismView* view = w.mechanismView();
    QVERIFY(view && view->isVisible());
    MechanismActions* act = w.mechanismActions();
    clickTree(w, "cyl1");
    QCOMPARE(w.selection()->current(), QString("cyl1"));
    QVERIFY(act->detachCylinder()->isEnabled());
    act->detachCylinder()->trigger();
    QVERIFY(w.project().find("cyl1")->data.is_null());
    QVERIFY(!w.modelTree()->group("actuators")->childCount());

    QVERIFY(act->attachCylinder()->isEnabled());
    act->attachCylinder()->trigger();
    QVERIFY(view->isPickingMarker());
    waitFrame(view);
    QVector3D barrel, rod;
    QVERIFY(view->markerPosition("ground.clevis", barrel));
    QVERIFY(view->markerPosition("arm.C", rod));
    const QPoint pb = view->projectToWidget(barrel).toPoint(), pr = view->projectToWidget(rod).toPoint();
    QVERIFY(view->rect().contains(pb) && view->rect().contains(pr));
    // A click far from any marker picks nothing; the mode stays.
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(5, view->height() - 5));
    QVERIFY(view->isPickingMarker());
    QVERIFY(act->pickedBarrel().isEmpty());
    QTest::mouseClick(view, Qt::LeftButton, {}, pb);
    QCOMPARE(act->pickedBarrel(), QString("ground.clevis"));
    if (const QByteArray out = qgetenv("PM_PICK_SNAPSHOT"); !out.isEmpty()) {
      waitFrame(view);  // the screen's pixels: the overlay is drawn after OSG's frame
      QVERIFY(w.screen()->grabWindow(w.winId()).save(QString::fromLocal8Bit(out)));
    }
    QVERIFY(view->isPickingMarker());
    QVERIFY(w.project().find("cyl1")->data.is_null());  // nothing written yet
    // arm.C and coupler.C coincide (the joint coupler_c): a menu asks which.
    QCOMPARE(view->markersAt(pr), (QStringList{"coupler.C", "arm.C"}));
    QTest::mouseClick(view, Qt::LeftButton, {}, pr);
    QMenu* menu = nullptr;
    QTRY_VERIFY((menu = view->findChild<QMenu*>("markerChoiceMenu")) && menu->isVisible());
    QVERIFY(view->isPickingMarker());
    QAction* choice = nullptr;
    for (QAction* a : menu->actions())
      if (a->text() == "arm.C") choice = a;
    QVERIFY(choice);
    QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(choice).center());
    QVERIFY(!view->isPickingMarker());
    const nlohmann::json& data = w.project().find("cyl1")->data;
    QCOMPARE(data["attach"]["barrel"].get<std::string>(), std::string("ground.clevis"));
    QCOMPARE(data["attach"]["rod"].get<std::string>(), std::string("arm.C"));
    // The same object: the schematic symbol and the actuator row are cyl1.
    QVERIFY(w.scene()->componentItem("cyl1"));
    QVERIFY(w.modelTree()->group("actuators")->childCount() == 1);
    // Drawn between the picked markers.
    waitFrame(view);
    QMatrix4x4 mb, mr;
    QVERIFY(view->actuatorTransforms("cyl1", mb, mr));
    QVERIFY((mb.map(QVector3D(0, 0, 0)) - barrel).length() < 1e-6);
    QVERIFY((mr.map(QVector3D(0, 0, 1)) - rod).length() < 1e-6);
    // One undo step back to detached; Escape cancels a pick.
    w.document()->undoStack()->undo();
    QVERIFY(w.project().find("cyl1")->data.is_null());
    act->attachCylinder()->trigger();
    QVERIFY(view->isPickingMarker());
    QTest::keyClick(view, Qt::Key_Escape);
    QVERIFY(!view->isPickingMarker());
    QVERIFY(act->attaching().isEmpty());
  }

  void rodFollowsResultAfterPlaying() {
    MainWindow w;
    QVERIFY(test::showProject(w, QString::fromStdString(test::projectPath("tool_changer.pneumech.json"))));
    const Project& p = w.project();
    // Run from the studio: the 3D view follows the document's time cursor,
    // whose instants are the run's rows.
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(done.wait(120000));
    QVERIFY2(w.runner()->lastResult().status == RunStatus::Completed, w.runner()->lastResult().message.c_str());
    const ResultStore& results = *w.resultBuffer()->store();
    MechanismView* view = w.mechanismView();
    AnimationControls* anim = w.animationControls();
    anim->setTime(0.0);
    anim->play();
    for (int i = 0; i < 100 && anim->isPlaying(); ++i) anim->tick(0.1);
    QVERIFY(!anim->isPlaying());
    QCOMPARE(view->time(), p.simulation.t_end);

    // Drawn extension: pin distance minus its retracted value, which the
    // model's initial pose gives (x0 = 0 in this example).
    const auto x = results.column("cyl1.x");
    const double stroke = p.find("cyl1")->params.at("stroke");
    const double d0 = (initialMarker(p, "crank", "P") - initialMarker(p, "ground", "clevis")).length();
    auto drawnX = [&] {
      QMatrix4x4 mb, mr;
      if (!view->actuatorTransforms("cyl1", mb, mr)) return -1.0;
      return double((mr.map(QVector3D(0, 0, 1)) - mb.map(QVector3D(0, 0, 0))).length()) - d0;
    };
    // Float matrices on a 0.3 m scene: 1e-5 m.
    qInfo("t = %g s (end): drawn x %.7f m, cyl1.x %.7f m", view->time(), drawnX(), x.back());
    QVERIFY2(std::abs(drawnX() - x.back()) < 1e-5, qPrintable(QString("drawn %1, result %2").arg(drawnX()).arg(x.back())));
    // The rod pin is on crank.P as drawn.
    QMatrix4x4 mb, mr;
    QVERIFY(view->actuatorTransforms("cyl1", mb, mr));
    QVector3D pin;
    QVERIFY(view->markerPosition("crank.P", pin));
    QVERIFY((mr.map(QVector3D(0, 0, 1)) - pin).length() < 1e-6);
    // The run extends the cylinder (switch on at 0.1 s) and retracts it
    // (off at 1.2 s): the drawn rod also matches at full extension and at a
    // row in mid-stroke on the way out.
    const auto t = results.times();
    const size_t top = size_t(std::max_element(x.begin(), x.end()) - x.begin());
    QVERIFY2(x[top] > 0.9 * stroke, qPrintable(QString("x max = %1").arg(x[top])));
    size_t mid = 0;
    for (size_t i = 0; i < top; ++i)
      if (std::abs(x[i] - 0.5 * stroke) < std::abs(x[mid] - 0.5 * stroke)) mid = i;
    for (size_t row : {top, mid}) {
      anim->setTime(t[row]);
      QCOMPARE(view->time(), t[row]);
      qInfo("t = %g s: drawn x %.7f m, cyl1.x %.7f m", t[row], drawnX(), x[row]);
      QVERIFY2(std::abs(drawnX() - x[row]) < 1e-5,
               qPrintable(QString("t = %1: drawn %2, result %3").arg(t[row]).arg(drawnX()).arg(x[row])));
    }
  }

  void selectionIsShared() {
    MainWindow w;
    QVERIFY(showStudio(w, toolChanger()));
    MechanismView* view = w.mechanismView();
    waitFrame(view);
    const int before = highlightPixels(view->snapshot(600, 400));
    // The cylinder picked in the model tree (its actuator row) ...
    ModelTree* tree = w.modelTree();
    QTreeWidgetItem* row = tree->group("actuators")->child(0);
    QCOMPARE(row->data(0, ModelTree::IdRole).toString(), QString("cyl1"));
    tree->scrollToItem(row);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(row).center());
    QCOMPARE(w.selection()->current(), QString("cyl1"));
    // ... is selected in the schematic, highlighted in 3D, shown in the properties.
    QCOMPARE(w.scene()->selectedComponents(), std::set<std::string>{"cyl1"});
    QCOMPARE(view->selectedId(), QString("cyl1"));
    QCOMPARE(w.propertyEditor()->componentId(), std::string("cyl1"));
    waitFrame(view);
    const int after = highlightPixels(view->snapshot(600, 400));
    // The cylinder at its size (stroke + bore long): about 190 samples.
    QVERIFY2(before < 20 && after > 100, qPrintable(QString("highlight pixels %1 -> %2").arg(before).arg(after)));
    if (const QByteArray out = qgetenv("PM_STUDIO_SNAPSHOT"); !out.isEmpty()) QVERIFY(w.grab().save(QString::fromLocal8Bit(out)));

    // A valve picked in the schematic: the tree follows, the 3D highlight goes.
    w.scene()->selectObjects({"v1"});
    QCOMPARE(w.selection()->current(), QString("v1"));
    QCOMPARE(tree->currentItem()->data(0, ModelTree::IdRole).toString(), QString("v1"));
    QVERIFY(view->selectedId().isEmpty());
    // A part clicked in 3D: the tree shows it, the schematic has nothing selected.
    QVector3D a, b;
    QVERIFY(view->markerPosition("arm.D", a));
    QVERIFY(view->markerPosition("arm.C", b));
    const QPoint mid = view->projectToWidget((a + b) * 0.5f).toPoint();
    QCOMPARE(view->objectAt(mid), QString("arm"));
    QTest::mouseClick(view, Qt::LeftButton, {}, mid);
    QCOMPARE(w.selection()->current(), QString("arm"));
    QCOMPARE(tree->currentItem()->data(0, ModelTree::IdRole).toString(), QString("arm"));
    QVERIFY(w.scene()->selectedComponents().empty());
    QCOMPARE(w.propertyEditor()->mechanismForm()->objectId(), std::string("arm"));
    // The cylinder clicked in 3D selects its symbol.
    QMatrix4x4 mb, mr;
    QVERIFY(view->actuatorTransforms("cyl1", mb, mr));
    const QPoint onBarrel = view->projectToWidget(mb.map(QVector3D(0, 0, 0.5f))).toPoint();
    QCOMPARE(view->objectAt(onBarrel), QString("cyl1"));
    QTest::mouseClick(view, Qt::LeftButton, {}, onBarrel);
    QCOMPARE(w.scene()->selectedComponents(), std::set<std::string>{"cyl1"});
  }

  void wheelZoomsTowardsTheCursor() {
    const Project p = engine::load(test::projectPath("tool_changer.pneumech.json"));
    MechanismView view;
    view.resize(640, 480);
    view.setProject(p);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    waitFrame(&view);
    for (bool ortho : {false, true}) {
      view.setOrthographic(ortho);
      waitFrame(&view);
      QVector3D target;
      QVERIFY(view.markerPosition("holder.chuck", target));  // on the tool, off the centre
      const QPointF at = view.projectToWidget(target);
      QVERIFY((at - QPointF(320, 240)).manhattanLength() > 40);
      const double dist = (view.cameraEye() - view.cameraCenter()).length();
      QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                        Qt::NoScrollPhase, false);
      QApplication::sendEvent(&view, &wheel);
      waitFrame(&view);
      QVERIFY(std::abs((view.cameraEye() - view.cameraCenter()).length() - 0.85 * dist) < 1e-4 * dist);
      // The point under the cursor stays under it (a pixel); the centre moved.
      const QPointF now = view.projectToWidget(target);
      qInfo("%s: distance %.4f -> %.4f m, point under the cursor moved %.3f px", ortho ? "orthographic" : "perspective",
            dist, (view.cameraEye() - view.cameraCenter()).length(), QLineF(now, at).length());
      QVERIFY2(QLineF(now, at).length() < 1.0, qPrintable(QString("ortho %1: moved %2 px").arg(ortho).arg(QLineF(now, at).length())));
    }
  }

  // The model-side rules behind the commands (no widgets involved).
  void deleteTakesDependentsAndFieldsUseDisplayUnits() {
    Project p = engine::load(test::projectPath("tool_changer.pneumech.json"));
    // Deleting marker crank.A takes the joint coupler_a on it; crank.P carries
    // the cylinder's rod: deleting it detaches cyl1, which stays in the circuit.
    Project q = p;
    QVERIFY(removeMechanismObject(q, "crank.A"));
    QVERIFY(!findJoint(q.mechanism, "coupler_a"));
    QCOMPARE(q.mechanism.joints.size(), p.mechanism.joints.size() - 1);
    QVERIFY(attachment(*q.find("cyl1")).is_object());
    QVERIFY(removeMechanismObject(q, "crank.P"));
    QVERIFY(q.find("cyl1") && q.find("cyl1")->data.is_null());
    // Deleting a part takes its markers and every joint on them.
    q = p;
    QVERIFY(removeMechanismObject(q, "arm"));
    QVERIFY(!q.mechanism.part("arm"));
    for (const JointDef& j : q.mechanism.joints) QVERIFY(j.i.rfind("arm.", 0) != 0 && j.j.rfind("arm.", 0) != 0);
    QCOMPARE(q.mechanism.joints.size(), size_t(3));  // coupler_c, arm_pivot, holder_mount went
    QVERIFY(!removeMechanismObject(q, "nothing"));
    // Joint limits in the joint's own units: mm for a slide, degrees for a hinge.
    q = p;
    QCOMPARE(applyField(q, "crank_pivot", "param.upper", "90"), QString());
    QVERIFY(std::abs(findJoint(q.mechanism, "crank_pivot")->params.at("upper") - M_PI / 2) < 1e-15);
    // A type without the parameter drops it.
    QCOMPARE(applyField(q, "crank_pivot", "type", "spherical"), QString());
    QVERIFY(findJoint(q.mechanism, "crank_pivot")->params.empty());
    QCOMPARE(applyField(q, "crank_pivot", "type", "translational"), QString());
    QCOMPARE(applyField(q, "crank_pivot", "param.upper", "25"), QString());
    QVERIFY(std::abs(findJoint(q.mechanism, "crank_pivot")->params.at("upper") - 0.025) < 1e-15);
    // Refusals name object and field and change nothing.
    const Project before = q;
    QVERIFY(applyField(q, "crank", "mass", "-1").contains("crank.mass"));
    QVERIFY(applyField(q, "crank_pivot", "type", "hinge").contains("crank_pivot.type"));
    QVERIFY(applyField(q, "crank.P", "position.x", "1e").contains("crank.P.position.x"));
    QVERIFY(q == before);
    QCOMPARE(checkNewId(q, "cyl1").isEmpty(), false);  // one id space with the circuit
    QCOMPARE(checkNewId(q, "2arm").isEmpty(), false);
    QCOMPARE(freshObjectId(q, "crank"), std::string("crank1"));
  }

  // The part form's "mass properties": a material computes mass, cm and
  // inertia from the solids (then read-only), a size edit recomputes them, a
  // mass typed in keeps the distribution, "entered" keeps the numbers as
  // entered ones; a part without solids is refused naming the field.
  void massPropertiesFromGeometryInTheForm() {
    Project p;
    PartDef g;
    g.id = "ground";
    g.ground = true;
    PartDef a;
    a.id = "arm";
    a.geometry.push_back({"box", {{"lx", 0.2}, {"ly", 0.02}, {"lz", 0.01}}, "", "", "", ""});
    p.mechanism.parts = {g, a};
    QCOMPARE(applyField(p, "arm", "mass_properties", "from geometry: steel"), QString());
    const PartDef* d = p.mechanism.part("arm");
    const double m = 7850.0 * 0.2 * 0.02 * 0.01;
    QVERIFY(std::abs(d->mass - m) < 1e-12 * m);
    QVERIFY(std::abs(d->inertia[0] - m * (0.02 * 0.02 + 0.01 * 0.01) / 12) < 1e-12 * d->inertia[0]);
    for (const EditField& f : editFields(p, "arm"))
      if (f.key.rfind("inertia.", 0) == 0 || f.key.rfind("cm.", 0) == 0) QVERIFY(!f.editable);
    QVERIFY(!applyField(p, "arm", "inertia.Ixx", "1").isEmpty());
    QCOMPARE(applyField(p, "arm", "geometry.0.lx", "400"), QString());  // mm: twice as long, twice the mass
    QVERIFY(std::abs(p.mechanism.part("arm")->mass - 2 * m) < 1e-12 * m);
    QCOMPARE(applyField(p, "arm", "mass", "3"), QString());
    d = p.mechanism.part("arm");
    QVERIFY(d->mass == 3.0 && d->material.empty() && d->mass_properties == "from_geometry");
    QVERIFY(std::abs(d->inertia[2] - 3.0 * (0.4 * 0.4 + 0.02 * 0.02) / 12) < 1e-12 * d->inertia[2]);
    QCOMPARE(applyField(p, "arm", "mass_properties", "entered"), QString());
    d = p.mechanism.part("arm");
    QVERIFY(d->mass_properties.empty() && d->mass == 3.0);
    QVERIFY(std::abs(d->inertia[2] - 3.0 * (0.4 * 0.4 + 0.02 * 0.02) / 12) < 1e-12 * d->inertia[2]);
    QCOMPARE(applyField(p, "arm", "geometry.0.shape", "link"), QString());
    const QString err = applyField(p, "arm", "mass_properties", "from geometry: aluminium");
    QVERIFY2(err.contains("arm.geometry"), qPrintable(err));
  }

  void cylinderAlongJointAxisIsDrawn() {
    // A slide on a translational joint along world x (J's z turned by pitch
    // 90 deg), driven by a cylinder attached to the joint.
    Project p;
    PartDef ground;
    ground.id = "ground";
    ground.ground = true;
    ground.markers.push_back({"rail", {0, 0, 0}, {0, M_PI / 2, 0}});
    PartDef slide;
    slide.id = "slide";
    slide.position = {0.2, 0, 0};
    slide.markers.push_back({"s", {0, 0, 0}, {0, M_PI / 2, 0}});
    p.mechanism.parts = {ground, slide};
    JointDef guide;
    guide.id = "guide";
    guide.type = "translational";
    guide.i = "slide.s";
    guide.j = "ground.rail";
    p.mechanism.joints = {guide};
    p.components.push_back(test::comp("cyl1", "cylinder_double", {{"stroke", 0.1}, {"bore", 0.025}}, {},
                                      {{"attach", {{"joint", "guide"}}}}));
    MechanismView view;
    view.resize(400, 300);
    view.setProject(p);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QMatrix4x4 mb, mr;
    QVERIFY(view.actuatorTransforms("cyl1", mb, mr));
    const QVector3D tip0 = mr.map(QVector3D(0, 0, 1)), base0 = mb.map(QVector3D(0, 0, 0));
    QVERIFY((tip0 - QVector3D(0.2f, 0, 0)).length() < 1e-6);  // rod pin on I
    const QVector3D axis = (tip0 - base0).normalized();
    QVERIFY((axis - QVector3D(1, 0, 0)).length() < 1e-6);  // along J's z = world x
    // The slide 60 mm further: the rod comes out by 60 mm, the barrel stays.
    ResultStore store;
    std::vector<ChannelInfo> ch;
    for (const char* q : {"x", "y", "z", "roll", "pitch", "yaw"}) ch.push_back({std::string("slide.") + q, ""});
    store.setChannels(ch);
    const double row0[6] = {0.2, 0, 0, 0, 0, 0}, row1[6] = {0.26, 0, 0, 0, 0, 0};
    store.append(0.0, row0);
    store.append(1.0, row1);
    view.setResults(&store);
    view.setPose(1.0);
    QVERIFY(view.actuatorTransforms("cyl1", mb, mr));
    QVERIFY((mr.map(QVector3D(0, 0, 1)) - QVector3D(0.26f, 0, 0)).length() < 1e-6);
    QVERIFY((mb.map(QVector3D(0, 0, 0)) - base0).length() < 1e-6);
    QVERIFY(std::abs((mr.map(QVector3D(0, 0, 1)) - base0).length() - (tip0 - base0).length() - 0.06f) < 1e-6);
    view.setResults(nullptr);
  }
};

QTEST_MAIN(TestGui3dEdit)
#include "test_gui3d_edit.moc"
