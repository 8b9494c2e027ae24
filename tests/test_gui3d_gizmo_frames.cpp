// The 3D gizmo's frames (issue #28), with mouse drags and keys under Xvfb:
// World/Local axes (the toolbar's Local Axes and L in the view) move and
// turn a part or marker along its own axes, snapped, one undo step each; a
// dragged marker's triad is drawn where the drag takes it (the scene's node,
// not an overlay), and so are the joint glyphs, cylinders, part shapes and
// links, contact shapes and latch glyphs on it, the model unchanged until
// the release; a move's snap step applies to the
// distance moved (a part off the grid stays off it); the Move dialog moves
// along the world's axes or the target's own; "Align and join" lines up the markers' x axes as well as
// their z axes, so a revolute starts at angle 0.
//
// PM_GIZMO_SNAPSHOTS=<folder> saves screenshots of the steps.
#include "build_tools_3d.h"
#include "document.h"
#include "engine/engine.h"
#include "gizmo_edits.h"
#include "main_window.h"
#include "mechanism_editing.h"
#include "mechanism_view.h"
#include "model/orientation.h"
#include "scene3d_scene.h"
#include "selection_model.h"
#include "support/build_studio.h"
#include "support/four_bar_crank.h"
#include "support/mechanism_view_frames.h"
#include "support/menu_choice.h"
#include "support/studio_window.h"
#include "transform_gizmo.h"

#include <osg/ComputeBoundsVisitor>

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QMenu>
#include <QScreen>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::chooseFromSubmenu;
using pm::test::waitFrame;

namespace {

void snapshot(QWidget* w, const QString& name) { test::saveScreenshot("PM_GIZMO_SNAPSHOTS", *w, name); }

// Presses handle `h` of the selected object's gizmo and moves the mouse so
// that the grab point travels by `travel` (world); released unless `hold`.
// Returns where the mouse is.
QPoint dragHandle(MechanismView* v, GizmoHandle h, const QVector3D& travel, bool hold = false) {
  waitFrame(v);
  QVector3D grab;
  if (!v->gizmoVisible() || !v->gizmoGrabPoint(int(h), grab)) return {};
  const QPoint a = v->projectToWidget(grab).toPoint(), b = v->projectToWidget(grab + travel).toPoint();
  QTest::mousePress(v, Qt::LeftButton, {}, a);
  for (int k = 1; k <= 6; ++k) QTest::mouseMove(v, a + (b - a) * k / 6);
  waitFrame(v);
  if (!hold) QTest::mouseRelease(v, Qt::LeftButton, {}, b);
  return b;
}

// Drags ring `h` through `degrees` about the world direction `axis` (the
// ring's, as drawn) from its grab point; released unless `hold`.
void turnHandle(MechanismView* v, GizmoHandle h, const QVector3D& axis, double degrees, bool hold = false) {
  waitFrame(v);
  QVector3D grab;
  QVERIFY(v->gizmoVisible() && v->gizmoGrabPoint(int(h), grab));
  const QVector3D o = v->gizmoOrigin();
  const QPoint a = v->projectToWidget(grab).toPoint();
  QTest::mousePress(v, Qt::LeftButton, {}, a);
  QPoint b = a;
  for (int k = 1; k <= 8; ++k) {
    QMatrix4x4 t;
    t.rotate(float(degrees * k / 8), axis);
    b = v->projectToWidget(o + t.map(grab - o)).toPoint();
    QTest::mouseMove(v, b);
  }
  waitFrame(v);
  if (!hold) QTest::mouseRelease(v, Qt::LeftButton, {}, b);
}

bool near(const Vec3& a, const Vec3& b, double tol) {
  return std::abs(a[0] - b[0]) <= tol && std::abs(a[1] - b[1]) <= tol && std::abs(a[2] - b[2]) <= tol;
}

Eigen::Matrix3d rot(double angle, int axis) { return Eigen::AngleAxisd(angle, Eigen::Vector3d::Unit(axis)).toRotationMatrix(); }

// A marker's triad as the scene draws it, in the world.
osg::Matrixd triadWorld(MechanismView* v, const std::string& ref) {
  osg::Matrixd local;
  size_t k = 0;
  if (!v->scene().markerFrame(ref, local, &k)) return {};
  return local * v->scene().partMatrix(k);
}

// The first transform named `name` under `root` (a joint's glyph carries its id).
osg::MatrixTransform* namedTransform(osg::Node* root, const std::string& name) {
  struct Find : osg::NodeVisitor {
    Find() : osg::NodeVisitor(TRAVERSE_ALL_CHILDREN) {}
    std::string name;
    osg::MatrixTransform* found = nullptr;
    void apply(osg::MatrixTransform& t) override {
      if (!found && t.getName() == name) found = &t;
      traverse(t);
    }
  } find;
  find.name = name;
  root->accept(find);
  return find.found;
}

size_t partIndex(const scene3d::MechanismScene& s, const std::string& id) {
  return size_t(std::find(s.partIds().begin(), s.partIds().end(), id) - s.partIds().begin());
}

}  // namespace

class TestGui3dGizmoFrames : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
  }

  // The crank of four_bar turned 90 deg about z: its own x is world y. With
  // Local Axes (L in the view, or the toolbar button) the gizmo's x arrow
  // points along world y, and dragging it 46 mm moves the crank 45 mm (the
  // 5 mm step) along world y, nothing along x or z. Its x ring turns it
  // about its own x: R = Rz(90) Rx(45). A marker moves along its own y.
  void localAxesMoveAndTurnAlongTheTargetsOwn() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "four_bar"));
    MechanismView* view = w.mechanismView();
    BuildTools3d* tools = w.buildTools();
    w.document()->edit("set-up", [](Project& p) {
      findPart(p.mechanism, "crank")->orientation = {0, 0, M_PI / 2};
      findMarker(p.mechanism, "coupler.C")->orientation = {M_PI / 2, 0, 0};
    });
    w.selection()->select("crank");
    const Project before = w.project();
    QUndoStack* undo = w.document()->undoStack();
    const int steps = undo->count();

    // L in the view and the toolbar button toggle the same state.
    QVERIFY(!view->gizmoLocal() && !tools->localAxes()->isChecked());
    QTest::keyClick(view, Qt::Key_L);
    QVERIFY(view->gizmoLocal() && tools->localAxes()->isChecked());
    QWidget* button = tools->toolBar()->widgetForAction(tools->localAxes());
    QVERIFY(button && button->isVisible());
    QTest::mouseClick(button, Qt::LeftButton, {}, button->rect().center());
    QVERIFY(!view->gizmoLocal() && !tools->localAxes()->isChecked());
    waitFrame(view);
    QVector3D grab;
    QVERIFY(view->gizmoGrabPoint(int(GizmoHandle::MoveX), grab));
    QVERIFY2(std::abs((grab - view->gizmoOrigin()).normalized().x() - 1) < 1e-5, "world: the x arrow along world x");
    QTest::mouseClick(button, Qt::LeftButton, {}, button->rect().center());
    QVERIFY(view->gizmoLocal());
    waitFrame(view);
    QVERIFY(view->gizmoGrabPoint(int(GizmoHandle::MoveX), grab));
    const QVector3D arrow = (grab - view->gizmoOrigin()).normalized();
    qInfo("local x arrow drawn along (%.6f, %.6f, %.6f)", arrow.x(), arrow.y(), arrow.z());
    QVERIFY2((arrow - QVector3D(0, 1, 0)).length() < 1e-5, "local: the crank's x arrow along world y");
    snapshot(view, "local_axes_crank");

    // 46 mm of travel along the arrow: 45 mm, along world y only.
    const QPoint end = dragHandle(view, GizmoHandle::MoveX, QVector3D(0, 0.046f, 0), true);
    snapshot(view, "local_axes_drag");
    QTest::mouseRelease(view, Qt::LeftButton, {}, end);
    const Vec3 p0 = before.mechanism.part("crank")->position, p1 = w.project().mechanism.part("crank")->position;
    qInfo("crank from (%g, %g, %g) to (%.15g, %.15g, %.15g) m", p0[0], p0[1], p0[2], p1[0], p1[1], p1[2]);
    QVERIFY2(near(p1, {p0[0], p0[1] + 0.045, p0[2]}, 1e-12), "45 mm along world y");
    QCOMPARE(undo->count(), steps + 1);
    QCOMPARE(undo->undoText(), QString("Move crank"));
    undo->undo();
    QVERIFY(w.project() == before);

    // Its own x ring: 40 deg of travel about world y (the crank's x) is 45.
    turnHandle(view, GizmoHandle::TurnX, QVector3D(0, 1, 0), 40.0);
    const PartDef* c = w.project().mechanism.part("crank");
    const Eigen::Matrix3d want = rot(M_PI / 2, 2) * rot(M_PI / 4, 0);
    const double err = (pm::rotationFromRpy(c->orientation) - want).norm();
    qInfo("local x ring: rpy (%.9g, %.9g, %.9g) deg, |R - Rz(90) Rx(45)| = %.2e", c->orientation[0] * 180 / M_PI,
          c->orientation[1] * 180 / M_PI, c->orientation[2] * 180 / M_PI, err);
    QVERIFY2(err < 1e-12, "45 deg about the crank's own x");
    QVERIFY(near(c->position, p0, 0));
    QCOMPARE(undo->count(), steps + 1);
    QCOMPARE(undo->undoText(), QString("Turn crank"));
    undo->undo();
    QVERIFY(w.project() == before);

    // A marker (rolled 90 deg: its y is its part's z) along its own y.
    w.selection()->select("coupler.C");
    const Vec3 c0 = findMarker(before.mechanism, "coupler.C")->position;
    dragHandle(view, GizmoHandle::MoveY, QVector3D(0, 0, 0.031f));
    const Vec3 c1 = findMarker(w.project().mechanism, "coupler.C")->position;
    qInfo("coupler.C from (%g, %g, %g) to (%.15g, %.15g, %.15g) m", c0[0], c0[1], c0[2], c1[0], c1[1], c1[2]);
    QVERIFY2(near(c1, {c0[0], c0[1], c0[2] + 0.03}, 1e-12), "30 mm along the marker's own y (part z)");
    QCOMPARE(undo->count(), steps + 1);
    undo->undo();
    QVERIFY(w.project() == before);
  }

  // A marker dragged with the gizmo: its triad (the scene's node) is drawn
  // at the dragged pose while the button is held, moved and then turned;
  // Escape puts it back; the model changes only on release.
  void draggedMarkersTriadIsDrawnLive() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "four_bar", true));
    MechanismView* view = w.mechanismView();
    w.selection()->select("rocker.C");
    const Project before = w.project();
    waitFrame(view);
    const osg::Matrixd t0 = triadWorld(view, "rocker.C");
    const QVector3D o0 = view->gizmoOrigin();

    const QPoint b = dragHandle(view, GizmoHandle::MoveX, QVector3D(0.08f, 0, 0), true);
    const osg::Vec3d moved = triadWorld(view, "rocker.C").getTrans() - t0.getTrans();
    const QVector3D go = view->gizmoOrigin() - o0;
    qInfo("held: triad moved (%.6f, %.6f, %.6f) m, gizmo (%.6f, %.6f, %.6f) m", moved.x(), moved.y(), moved.z(), go.x(),
          go.y(), go.z());
    QVERIFY2(moved.x() > 0.07 && std::abs(moved.y()) < 1e-9 && std::abs(moved.z()) < 1e-9, "the triad moved along x");
    QVERIFY2(std::abs(moved.x() / 0.005 - std::round(moved.x() / 0.005)) < 1e-6, "by whole 5 mm steps");
    QVERIFY((QVector3D(float(moved.x()), 0, 0) - go).length() < 1e-6);
    QVERIFY2(w.project() == before, "the model waits for the release");
    snapshot(view, "marker_triad_live_move");
    QTest::mouseRelease(view, Qt::LeftButton, {}, b);
    waitFrame(view);
    // Released where the drag showed it: the step applies to the move.
    Vec3 c0{}, c1{};
    QVERIFY(markerWorld(before.mechanism, "rocker.C", c0) && markerWorld(w.project().mechanism, "rocker.C", c1));
    QVERIFY(near(c1, {c0[0] + moved.x(), c0[1], c0[2]}, 1e-12));
    Vec3 cw{};
    QVERIFY(markerWorld(w.project().mechanism, "rocker.C", cw));
    QVERIFY2((triadWorld(view, "rocker.C").getTrans() - osg::Vec3d(cw[0], cw[1], cw[2])).length() < 1e-6,
             "drawn from the model");
    w.document()->undoStack()->undo();
    waitFrame(view);

    // Turned 45 deg about world z: the triad's x axis turns with the drag.
    turnHandle(view, GizmoHandle::TurnZ, QVector3D(0, 0, 1), 40.0, true);
    const osg::Matrixd held = triadWorld(view, "rocker.C");
    const osg::Vec3d x = osg::Matrixd::transform3x3(osg::Vec3d(1, 0, 0), held);
    qInfo("held: triad x axis (%.6f, %.6f, %.6f)", x.x(), x.y(), x.z());
    QVERIFY2((x - osg::Vec3d(M_SQRT1_2, M_SQRT1_2, 0)).length() < 1e-6, "x turned 45 deg about z");
    QVERIFY2((held.getTrans() - t0.getTrans()).length() < 1e-9, "about its origin");
    snapshot(view, "marker_triad_live_turn");
    // Escape: the triad back where the model has it, no edit.
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(view));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    waitFrame(view);
    const osg::Matrixd back = triadWorld(view, "rocker.C");
    QVERIFY2((osg::Matrixd::transform3x3(osg::Vec3d(1, 0, 0), back) - osg::Vec3d(1, 0, 0)).length() < 1e-9, "back");
    QTest::mouseRelease(view, Qt::LeftButton, {}, view->rect().center());
    QVERIFY(w.project() == before);

    // A part with markers: they ride on it while it is dragged.
    w.selection()->select("crank");
    QVector3D b0, b1;
    QVERIFY(view->markerPosition("crank.B", b0));
    const QPoint end = dragHandle(view, GizmoHandle::MoveZ, QVector3D(0, 0, 0.05f), true);
    QVERIFY(view->markerPosition("crank.B", b1));
    QVERIFY2(std::abs(b1.z() - b0.z() - 0.05f) < 1e-6, "crank.B lifted with the crank");
    snapshot(view, "part_markers_live_move");
    QTest::mouseRelease(view, Qt::LeftButton, {}, end);
  }

  // knuckle_press: cylinder cyl1 runs from ground.clevis (barrel pin) to
  // upper.K (rod pin); the knee joint's glyph sits on lower.K. upper.K
  // dragged 50 mm up (held): the rod's drawn end is at the marker as drawn
  // (the scene's double matrices, 1e-9), the barrel still at the clevis,
  // the model unchanged; Escape brings the rod end back. lower.K dragged:
  // the knee's glyph goes with it, and back on Escape.
  void markerDragCarriesItsCylinderAndJoint() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "knuckle_press", true));
    MechanismView* view = w.mechanismView();
    const Project before = w.project();
    const scene3d::MechanismScene& scene = view->scene();
    auto pins = [&](osg::Vec3d& barrel, osg::Vec3d& rod) {
      osg::Matrixd b, r;
      if (!scene.actuatorMatrices("cyl1", b, r)) return false;
      barrel = osg::Vec3d(0, 0, 0) * b;  // the barrel's pin end
      rod = osg::Vec3d(0, 0, 1) * r;      // the rod's pin end
      return true;
    };
    w.selection()->select("upper.K");
    waitFrame(view);
    osg::Vec3d clevis, rod;
    QVERIFY(pins(clevis, rod));
    const osg::Vec3d k0 = triadWorld(view, "upper.K").getTrans();
    QVERIFY((rod - k0).length() < 1e-9);

    const QPoint b = dragHandle(view, GizmoHandle::MoveZ, QVector3D(0, 0, 0.05f), true);
    const osg::Vec3d k1 = triadWorld(view, "upper.K").getTrans();
    osg::Vec3d barrel1, rod1;
    QVERIFY(pins(barrel1, rod1));
    qInfo("held: upper.K at z = %.6f m; the rod's end %.3e m from it, the barrel's pin %.3e m from the clevis",
          k1.z(), (rod1 - k1).length(), (barrel1 - clevis).length());
    QVERIFY2(k1.z() - k0.z() > 0.04, "the marker moved up");
    QVERIFY2((rod1 - k1).length() < 1e-9, "the rod's end follows the marker");
    QVERIFY2((barrel1 - clevis).length() < 1e-9, "the barrel stays on the clevis");
    QVERIFY2(w.project() == before, "the model waits for the release");
    snapshot(view, "marker_drag_cylinder_live");
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(view));
    QTest::keyClick(view, Qt::Key_Escape);
    waitFrame(view);
    QVERIFY(pins(barrel1, rod1));
    QVERIFY2((rod1 - k0).length() < 1e-9, "Escape: the rod's end back");
    QTest::mouseRelease(view, Qt::LeftButton, {}, b);
    QVERIFY(w.project() == before);

    // The knee's glyph rides on lower at lower.K.
    osg::MatrixTransform* knee = namedTransform(scene.root(), "knee");
    QVERIFY(knee);
    const size_t lower = partIndex(scene, "lower");
    auto kneeWorld = [&] { return (knee->getMatrix() * scene.partMatrix(lower)).getTrans(); };
    w.selection()->select("lower.K");
    const osg::Vec3d g0 = kneeWorld();
    const QPoint e = dragHandle(view, GizmoHandle::MoveZ, QVector3D(0, 0, 0.05f), true);
    const osg::Vec3d l1 = triadWorld(view, "lower.K").getTrans();
    qInfo("held: lower.K at z = %.6f m; the knee glyph %.3e m from it", l1.z(), (kneeWorld() - l1).length());
    QVERIFY2(l1.z() - g0.z() > 0.04, "the marker moved up");
    QVERIFY2((kneeWorld() - l1).length() < 1e-9, "the knee's glyph follows its marker");
    QVERIFY(w.project() == before);
    snapshot(view, "marker_drag_joint_live");
    QTest::keyClick(view, Qt::Key_Escape);
    waitFrame(view);
    QVERIFY2((kneeWorld() - g0).length() < 1e-9, "Escape: the glyph back");
    QTest::mouseRelease(view, Qt::LeftButton, {}, e);
    QVERIFY(w.project() == before);
  }

  // knuckle_press's upper link is drawn from upper.T to upper.K: while K is
  // held 50 mm up, the link's end is drawn at K and its thickness reaches
  // up to it, T's end stays. contact_pusher's rod.tip carries a cylinder of
  // the rod, the contact pair "push"'s shape and (added here) latch
  // "grab"'s glyph: all drawn at the held marker. Escape puts everything
  // back; the model waits for the release.
  void markerDragCarriesItsShapesAndContacts() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "knuckle_press", true));
    MechanismView* view = w.mechanismView();
    const Project before = w.project();
    const scene3d::MechanismScene& scene = view->scene();
    osg::Matrixd t0, k0, t1, k1;
    QVERIFY(scene.shapeFrames("upper", 0, t0, k0));
    QVERIFY((k0.getTrans() - triadWorld(view, "upper.K").getTrans()).length() < 1e-9);
    // The link's drawn vertices, in upper's frame (turned about z only:
    // heights are the world's): half its thickness above z = 0.
    osg::MatrixTransform* upper = namedTransform(scene.root(), "upper");
    QVERIFY(upper && upper->getNumChildren() > 0);
    auto top = [&] {
      osg::ComputeBoundsVisitor cbv;
      upper->getChild(0)->accept(cbv);
      return double(cbv.getBoundingBox().zMax());
    };
    const double width = 0.03, r = width / 2, half = width / 4;  // the link's size: 30 mm wide, 15 mm thick
    QVERIFY(std::abs(top() - half) < 1e-6);
    w.selection()->select("upper.K");
    const QPoint b = dragHandle(view, GizmoHandle::MoveZ, QVector3D(0, 0, 0.05f), true);
    const osg::Vec3d held = triadWorld(view, "upper.K").getTrans();
    const double dz = held.z() - k0.getTrans().z();
    QVERIFY(scene.shapeFrames("upper", 0, t1, k1));
    // The link from T (0, 0, 0) to K (0.2, 0, dz) in upper's frame: its end
    // disc (radius r, thickness 2 half) tilted by dz / L reaches up to
    // dz + r dz / L + half 0.2 / L.
    const double L = std::hypot(0.2, dz), expected = dz + r * dz / L + half * 0.2 / L;
    qInfo("held: upper.K %.4f m up; the link's end %.3e m from it, its top at %.6f m (%.6f by hand), T's end moved %.3e m",
          dz, (k1.getTrans() - held).length(), top(), expected, (t1.getTrans() - t0.getTrans()).length());
    QVERIFY2(dz > 0.04, "the marker moved up");
    QVERIFY2((k1.getTrans() - held).length() < 1e-9, "the link's end follows the marker");
    QVERIFY2((t1.getTrans() - t0.getTrans()).length() < 1e-12, "the other end stays");
    QVERIFY2(std::abs(top() - expected) < 1e-6, "the link is drawn up to the marker");
    QVERIFY(w.project() == before);
    snapshot(view, "marker_drag_link_live");
    QTest::keyClick(view, Qt::Key_Escape);
    waitFrame(view);
    QVERIFY(scene.shapeFrames("upper", 0, t1, k1));
    QVERIFY2((k1.getTrans() - k0.getTrans()).length() < 1e-12, "Escape: the link's end back");
    QVERIFY2(std::abs(top() - half) < 1e-6, "Escape: the link flat again");
    QTest::mouseRelease(view, Qt::LeftButton, {}, b);
    QVERIFY(w.project() == before);

    QVERIFY(test::showProject(w, test::examplePath("contact_pusher"), QSize(1500, 950)));
    w.document()->edit("set-up", [](Project& p) {
      LatchDef l;
      l.id = "grab";
      l.i = "rod.tip";
      l.j = "box.c";
      l.params = {{"capture_radius", 0.005}};
      p.mechanism.latches = {l};
    });
    const Project pusher = w.project();
    const size_t rod = partIndex(scene, "rod");
    osg::MatrixTransform* latch = nullptr;  // rod's: rod is drawn before box
    QTRY_VERIFY((latch = namedTransform(scene.root(), "grab")) != nullptr);
    auto drawn = [&](osg::Vec3d& cylinder, osg::Vec3d& contact, osg::Vec3d& glyph) {
      osg::Matrixd a, b2, c;
      if (!scene.shapeFrames("rod", 0, a, b2) || !scene.contacts().shapeFrame("push", true, c)) return false;
      cylinder = a.getTrans();
      contact = (c * scene.partMatrix(rod)).getTrans();
      glyph = (latch->getMatrix() * scene.partMatrix(rod)).getTrans();
      return true;
    };
    osg::Vec3d cyl0, con0, gl0, cyl1, con1, gl1;
    QVERIFY(drawn(cyl0, con0, gl0));
    const osg::Vec3d tip0 = triadWorld(view, "rod.tip").getTrans();
    QVERIFY((cyl0 - tip0).length() < 1e-9 && (con0 - tip0).length() < 1e-9 && (gl0 - tip0).length() < 1e-9);
    w.selection()->select("rod.tip");
    const QPoint e = dragHandle(view, GizmoHandle::MoveZ, QVector3D(0, 0, 0.05f), true);
    const osg::Vec3d tip1 = triadWorld(view, "rod.tip").getTrans();
    QVERIFY(drawn(cyl1, con1, gl1));
    qInfo("held: rod.tip %.4f m up; its cylinder %.3e m, the contact shape %.3e m, the latch glyph %.3e m from it",
          tip1.z() - tip0.z(), (cyl1 - tip1).length(), (con1 - tip1).length(), (gl1 - tip1).length());
    QVERIFY2(tip1.z() - tip0.z() > 0.04, "the marker moved up");
    QVERIFY2((cyl1 - tip1).length() < 1e-9, "the rod's cylinder follows the marker");
    QVERIFY2((con1 - tip1).length() < 1e-9, "the contact shape follows the marker");
    QVERIFY2((gl1 - tip1).length() < 1e-9, "the latch glyph follows the marker");
    QVERIFY(w.project() == pusher);
    snapshot(view, "marker_drag_contact_live");
    QTest::keyClick(view, Qt::Key_Escape);
    waitFrame(view);
    QVERIFY(drawn(cyl1, con1, gl1));
    QVERIFY2((cyl1 - tip0).length() < 1e-12 && (con1 - tip0).length() < 1e-12 && (gl1 - tip0).length() < 1e-12,
             "Escape: all back at the marker");
    QTest::mouseRelease(view, Qt::LeftButton, {}, e);
    QVERIFY(w.project() == pusher);
  }

  // The crank off the 5 mm grid at x = 13 mm, y = 2.1 mm: dragged 46 mm
  // along world x it shows +45 mm (58 mm) while held and is released there,
  // not rounded to the grid (60 mm), its y untouched. Turned 90 deg about z
  // with Local Axes: 46 mm along its own x (world y) ends at y = 47.1 mm.
  void moveStepIsRelativeToTheStart() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "four_bar"));
    MechanismView* view = w.mechanismView();
    Vec3 p0{};
    w.document()->edit("set-up", [&](Project& p) {
      PartDef* c = findPart(p.mechanism, "crank");
      c->position = {0.013, 0.0021, c->position[2]};
      p0 = c->position;
    });
    w.selection()->select("crank");
    const size_t k = partIndex(view->scene(), "crank");
    const QPoint b = dragHandle(view, GizmoHandle::MoveX, QVector3D(0.046f, 0, 0), true);
    const osg::Vec3d held = view->scene().partMatrix(k).getTrans();
    qInfo("held at x = %.9f m", held.x());
    QVERIFY2(std::abs(held.x() - 0.058) < 1e-9, "the drag shows +45 mm");
    QTest::mouseRelease(view, Qt::LeftButton, {}, b);
    const Vec3 p1 = w.project().mechanism.part("crank")->position;
    qInfo("released at (%.15g, %.15g, %.15g) m", p1[0], p1[1], p1[2]);
    QVERIFY2(near(p1, {0.058, p0[1], p0[2]}, 1e-12), "released where the drag showed it");
    QCOMPARE(p1[1], p0[1]);
    w.document()->undoStack()->undo();

    w.document()->edit("turn", [](Project& p) { findPart(p.mechanism, "crank")->orientation = {0, 0, M_PI / 2}; });
    view->setGizmoLocal(true);
    dragHandle(view, GizmoHandle::MoveX, QVector3D(0, 0.046f, 0));
    const Vec3 p2 = w.project().mechanism.part("crank")->position;
    qInfo("local: released at (%.15g, %.15g, %.15g) m", p2[0], p2[1], p2[2]);
    QVERIFY2(near(p2, {p0[0], 0.0471, p0[2]}, 1e-12), "45 mm along its own x from where it was");
    QCOMPARE(p2[0], p0[0]);
  }

  // The toolbar's Move: "Local axes" takes the offsets along the target's
  // own axes. The crank turned 90 deg about z, 45 mm along its own x: 45 mm
  // along world y, one undo step. The dialog opens on the gizmo's choice
  // (Local Axes on: local); a marker rolled 90 deg moves along its own y
  // (its part's z).
  void moveDialogAlongTheTargetsOwnAxes() {
    MainWindow w;
    QVERIFY(test::showExampleToBuild(w, "four_bar"));
    BuildTools3d* tools = w.buildTools();
    w.document()->edit("set-up", [](Project& p) {
      findPart(p.mechanism, "crank")->orientation = {0, 0, M_PI / 2};
      findMarker(p.mechanism, "coupler.C")->orientation = {M_PI / 2, 0, 0};
    });
    const Project before = w.project();
    QUndoStack* undo = w.document()->undoStack();
    const int steps = undo->count();
    QWidget* button = tools->toolBar()->widgetForAction(tools->move());
    QVERIFY(button && button->isVisible());

    // Fills the dialog the Move button opens: the axes (index), the offsets [mm].
    auto move = [&](int axes, int expectedAxes, const QStringList& mm) {
      QTest::mouseClick(button, Qt::LeftButton, {}, button->rect().center());
      QDialog* d = nullptr;
      QTRY_VERIFY((d = w.findChild<QDialog*>("moveDialog")) && d->isVisible());
      auto* frame = d->findChild<QComboBox*>("move_frame");
      QVERIFY2(frame, "the dialog offers world or local axes");
      QCOMPARE(frame->currentIndex(), expectedAxes);
      frame->setFocus();
      while (frame->currentIndex() < axes) QTest::keyClick(frame, Qt::Key_Down);
      while (frame->currentIndex() > axes) QTest::keyClick(frame, Qt::Key_Up);
      for (int k = 0; k < 3; ++k) {
        auto* edit = d->findChild<QLineEdit*>(QString("move_d") + "xyz"[k]);
        QVERIFY(edit);
        edit->setFocus();
        QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(edit, mm[k]);
      }
      snapshot(d, QString("move_dialog_axes%1").arg(axes));
      auto* box = d->findChild<QDialogButtonBox*>();
      QTest::mouseClick(box->button(QDialogButtonBox::Ok), Qt::LeftButton);
      QTRY_VERIFY(!w.findChild<QDialog*>("moveDialog"));
    };

    w.selection()->select("crank");
    move(1, 0, {"45", "0", "0"});
    if (QTest::currentTestFailed()) return;
    const Vec3 p0 = before.mechanism.part("crank")->position, p1 = w.project().mechanism.part("crank")->position;
    qInfo("crank from (%g, %g, %g) to (%.15g, %.15g, %.15g) m", p0[0], p0[1], p0[2], p1[0], p1[1], p1[2]);
    QVERIFY2(near(p1, {p0[0], p0[1] + 0.045, p0[2]}, 1e-12), "45 mm along its own x = world y");
    QCOMPARE(undo->count(), steps + 1);
    QCOMPARE(undo->undoText(), QString("Move crank"));
    undo->undo();
    QVERIFY(w.project() == before);

    w.mechanismView()->setGizmoLocal(true);
    w.selection()->select("coupler.C");
    move(1, 1, {"0", "30", "0"});
    if (QTest::currentTestFailed()) return;
    const Vec3 c0 = findMarker(before.mechanism, "coupler.C")->position;
    const Vec3 c1 = findMarker(w.project().mechanism, "coupler.C")->position;
    QVERIFY2(near(c1, {c0[0], c0[1], c0[2] + 0.03}, 1e-12), "30 mm along the marker's own y (its part's z)");
    QCOMPARE(undo->count(), steps + 1);
  }

  // crank alone, yawed 20 deg, its B turned 10 deg about its z; a ground
  // pin P with roll 90 and yaw 50 deg sits 43.7 mm above B. The z drag
  // snaps B onto P. Align and join makes B's frame P's: the crank's
  // rotation R with R Rz(10) = Rz(50) Rx(90), so R = Rz(50) Rx(90) Rz(-10),
  // not the smallest turn of the z axes (Rz(50) Rx(90) Rz(-30), 20 deg
  // off); the revolute's angle starts at 0.
  void alignAndJoinLinesUpTheXAxes() {
    MainWindow w;
    const double deg = M_PI / 180;
    QVERIFY(test::showCrankAlone(w, [&](Mechanism& m) {
      findPart(m, "crank")->orientation = {0, 0, 20 * deg};
      findMarker(m, "crank.B")->orientation = {0, 0, 10 * deg};
      Vec3 b{};
      markerWorld(m, "crank.B", b);
      test::addGroundPin(m, {b[0], b[1], b[2] + 0.0437}, {90 * deg, 0, 50 * deg});
    }));
    MechanismView* view = w.mechanismView();
    w.selection()->select("crank");
    dragHandle(view, GizmoHandle::MoveZ, QVector3D(0, 0, 0.046f));
    const Project moved = w.project();
    Vec3 b{}, pin{};
    QVERIFY(markerWorld(moved.mechanism, "crank.B", b) && markerWorld(moved.mechanism, "ground.P", pin));
    QVERIFY2(near(b, pin, 1e-12), "crank.B snapped onto ground.P");
    QVERIFY(w.buildTools()->alignAndJoin()->isVisible());
    snapshot(view, "align_x_offer");

    chooseFromSubmenu(w.buildTools()->jointAtSnap(), w.buildTools()->alignAndJoin(),
                      w.buildTools()->alignAndJoinAction("revolute"));
    const Mechanism& m = w.project().mechanism;
    QCOMPARE(m.joints.size(), size_t(1));
    const Eigen::Matrix3d r = pm::rotationFromRpy(m.part("crank")->orientation);
    const Eigen::Matrix3d want = rot(50 * deg, 2) * rot(90 * deg, 0) * rot(-10 * deg, 2);
    // What the old alignment (smallest turn of z onto z) gives, for contrast.
    const Eigen::Matrix3d zOnly =
        Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), rot(50 * deg, 2) * rot(90 * deg, 0) * Eigen::Vector3d::UnitZ())
            .toRotationMatrix() * rot(20 * deg, 2);
    qInfo("aligned crank rpy (%.9g, %.9g, %.9g) deg; |R - Rz(50)Rx(90)Rz(-10)| = %.2e; z-only turn %.3f away",
          m.part("crank")->orientation[0] / deg, m.part("crank")->orientation[1] / deg, m.part("crank")->orientation[2] / deg,
          (r - want).norm(), (zOnly - want).norm());
    QVERIFY2((r - want).norm() < 1e-12, "the crank's rotation as computed by hand");
    QVERIFY(markerWorld(m, "crank.B", b));
    QVERIFY2(near(b, pin, 1e-12), "B stays on P");
    QVERIFY2(frameAngle(m, "crank.B", "ground.P") < 1e-9, "x and z axes agree");
    // The revolute's angle at the start: atan2(xI . yJ, xI . xJ) = 0.
    const Eigen::Matrix3d ai = r * pm::rotationFromRpy(findMarker(m, "crank.B")->orientation);
    const Eigen::Matrix3d aj = pm::rotationFromRpy(findMarker(m, "ground.P")->orientation);
    const double angle = std::atan2(ai.col(0).dot(aj.col(1)), ai.col(0).dot(aj.col(0)));
    qInfo("revolute angle at the start %.2e rad", angle);
    QVERIFY(std::abs(angle) < 1e-12);
    snapshot(view, "align_x_joined");
  }
};

QTEST_MAIN(TestGui3dGizmoFrames)
#include "test_gui3d_gizmo_frames.moc"
