// The 3D gizmo's frames (issue #28), with mouse drags and keys under Xvfb:
// World/Local axes (the toolbar's Local Axes and L in the view) move and
// turn a part or marker along its own axes, snapped, one undo step each; a
// dragged marker's triad is drawn where the drag takes it (the scene's node,
// not an overlay); "Align and join" lines up the markers' x axes as well as
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
#include "support/studio_window.h"
#include "transform_gizmo.h"

#include <QAction>
#include <QMenu>
#include <QScreen>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest/QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;

namespace {

void snapshot(QWidget* w, const QString& name) {
  const QByteArray dir = qgetenv("PM_GIZMO_SNAPSHOTS");
  if (dir.isEmpty()) return;
  QTest::qWait(50);
  w->window()->screen()->grabWindow(0).save(QString::fromLocal8Bit(dir) + "/" + name + ".png");
}

void waitFrame(MechanismView* v) {
  const quint64 n = v->frameCount();
  v->update();
  QTRY_VERIFY(v->frameCount() > n);
}

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

// Clicks a toolbar button whose menu pops up, then `sub` in it and `item`
// in the submenu (each menu runs its own event loop: clicked from a timer).
void chooseFromSubmenu(QToolButton* button, QAction* sub, QAction* item) {
  QVERIFY(button && button->isEnabled() && sub && sub->isVisible() && item);
  bool chosen = false;
  QTimer::singleShot(100, [&] {
    QMenu* m = button->menu();
    for (int i = 0; i < 50 && !m->isVisible(); ++i) QTest::qWait(20);
    QTest::mouseClick(m, Qt::LeftButton, {}, m->actionGeometry(sub).center());
    QMenu* s = sub->menu();
    for (int i = 0; i < 50 && !s->isVisible(); ++i) QTest::qWait(20);
    QTest::mouseClick(s, Qt::LeftButton, {}, s->actionGeometry(item).center());
    chosen = true;
  });
  QTest::mouseClick(button, Qt::LeftButton, {}, button->rect().center());
  QTRY_VERIFY(chosen);
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
    QVERIFY(test::showProject(w, test::examplePath("four_bar"), QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    BuildTools3d* tools = w.buildTools();
    tools->setSnapStep(0.005);
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
    QVERIFY(test::showProject(w, test::examplePath("four_bar"), QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    w.buildTools()->setSnapStep(0.005);
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
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
    const Vec3 c1 = findMarker(w.project().mechanism, "rocker.C")->position;
    const Vec3 c0 = findMarker(before.mechanism, "rocker.C")->position;
    // A world move rounds the new position to the grid (as before).
    QVERIFY(std::abs(c1[0] - std::round((c0[0] + moved.x()) / 0.005) * 0.005) < 1e-12);
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

  // crank alone, yawed 20 deg, its B turned 10 deg about its z; a ground
  // pin P with roll 90 and yaw 50 deg sits 43.7 mm above B. The z drag
  // snaps B onto P. Align and join makes B's frame P's: the crank's
  // rotation R with R Rz(10) = Rz(50) Rx(90), so R = Rz(50) Rx(90) Rz(-10),
  // not the smallest turn of the z axes (Rz(50) Rx(90) Rz(-30), 20 deg
  // off); the revolute's angle starts at 0.
  void alignAndJoinLinesUpTheXAxes() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("four_bar"), QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    w.buildTools()->setSnapStep(0.005);
    const double deg = M_PI / 180;
    w.document()->edit("set-up", [&](Project& p) {
      Mechanism& m = p.mechanism;
      m.joints.clear();
      m.motions.clear();
      std::erase_if(m.parts, [](const PartDef& q) { return q.id == "coupler" || q.id == "rocker"; });
      findPart(m, "crank")->orientation = {0, 0, 20 * deg};
      findMarker(m, "crank.B")->orientation = {0, 0, 10 * deg};
      Vec3 b{};
      markerWorld(m, "crank.B", b);
      MarkerDef pin;
      pin.id = "P";
      pin.position = {b[0], b[1], b[2] + 0.0437};
      pin.orientation = {90 * deg, 0, 50 * deg};
      findPart(m, "ground")->markers.push_back(pin);
    });
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
