// The 3D view's camera toolbar and what it shows while building (issue 28,
// points 2 and 3): standard views look along the stated axes, fit all and
// fit selection frame the bounding sphere, orthographic removes perspective,
// follow keeps the mechanism centred during playback, wheel zoom is
// multiplicative (in and out again returns the camera), F fits; markers are
// drawn and a marker selected in the model tree is tinted in the scene
// graph; the grid lies at world z = 0 with the world axes at the origin; the
// forms name the frame of positions and a joint's axis. Needs OpenGL (Xvfb).
//
// To look: PM_CAMERA_SNAPSHOT=/tmp/camera.png and PM_JOINT_SNAPSHOT=/tmp/joint.png
// (markerSelectedInTreeIsHighlighted, studio), PM_TOP_SNAPSHOT=/tmp/top.png
// (orthographicTogglesPerspective, top view, orthographic).
#include "main_window.h"
#include "mechanism_form.h"
#include "mechanism_view.h"
#include "mechanism_view_toolbar.h"
#include "model_tree.h"
#include "property_editor.h"
#include "scene3d_scene.h"
#include "engine/engine.h"
#include "support/studio_window.h"
#include "support/test_project.h"

#include <QAction>
#include <QLabel>
#include <QScreen>
#include <QVBoxLayout>
#include <QtTest/QtTest>

#include <osg/ComputeBoundsVisitor>
#include <osg/Uniform>

#include <algorithm>
#include <cmath>

using namespace pm;
using namespace pm::gui;

namespace {

QVector3D toQ(const osg::Vec3d& v) { return QVector3D(float(v.x()), float(v.y()), float(v.z())); }

// The view with its toolbar above it, as the studio lays them out.
struct Rig {
  QWidget box;
  MechanismView* view;
  MechanismViewToolBar* bar;
  Project project;
  ResultStore results;
  Rig() {
    auto* lay = new QVBoxLayout(&box);
    view = new MechanismView;
    bar = new MechanismViewToolBar(view);
    lay->addWidget(bar);
    lay->addWidget(view, 1);
    box.resize(700, 520);
  }
  bool open(const std::string& name) {
    project = engine::load(test::projectPath(name));
    engine::analyse(project, name, MechanismAnalysis::Kinematic, results);
    view->setProject(project);
    view->setResults(&results);
    box.show();
    return QTest::qWaitForWindowExposed(&box);
  }
  void trigger(const char* name) {
    QAction* a = bar->findChild<QAction*>(name);
    QVERIFY2(a, name);
    a->trigger();
  }
  // Paints once, so the projection matches the camera.
  void paint() { view->grabFramebuffer(); }
  QVector3D lookDir() const { return (view->cameraCenter() - view->cameraEye()).normalized(); }
};

osg::Node* findNamed(osg::Node* n, const std::string& name) {
  if (n->getName() == name) return n;
  if (osg::Group* g = n->asGroup())
    for (unsigned i = 0; i < g->getNumChildren(); ++i)
      if (osg::Node* f = findNamed(g->getChild(i), name)) return f;
  return nullptr;
}

osg::Vec3f highlightOf(osg::Node* n) {
  osg::Vec3f v(-1, -1, -1);
  if (n && n->getStateSet() && n->getStateSet()->getUniform("pm_highlight"))
    n->getStateSet()->getUniform("pm_highlight")->get(v);
  return v;
}

// True when the sphere's projected silhouette lies inside the widget.
bool sphereInView(MechanismView* v, const QVector3D& c, float r) {
  const QVector3D look = (v->cameraCenter() - v->cameraEye()).normalized();
  QVector3D side = QVector3D::crossProduct(look, QVector3D(0, 0, 1));
  if (side.length() < 1e-3f) side = QVector3D(1, 0, 0);
  side.normalize();
  const QVector3D up = QVector3D::crossProduct(side, look).normalized();
  const QRectF rect(0, 0, v->width(), v->height());
  for (const QVector3D& d : {side, -side, up, -up})
    if (!rect.contains(v->projectToWidget(c + d * r))) return false;
  return true;
}

}  // namespace

class TestGui3dCamera : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
  }

  void standardViewsLookAlongTheirAxes() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    const float tol = 1e-4f;
    rig.trigger("viewTop3d");
    QVERIFY((rig.lookDir() - QVector3D(0, 0, -1)).length() < tol);
    rig.trigger("viewFront3d");
    QVERIFY((rig.lookDir() - QVector3D(0, 1, 0)).length() < tol);
    rig.trigger("viewSide3d");
    QVERIFY((rig.lookDir() - QVector3D(-1, 0, 0)).length() < tol);
    rig.trigger("viewIso3d");
    // Looks down (negative z) and at no axis.
    const QVector3D iso = rig.lookDir();
    QVERIFY(iso.z() < -0.3f && std::abs(iso.x()) > 0.3f && std::abs(iso.y()) > 0.3f);
    // Every standard view frames the whole mechanism.
    const osg::BoundingSphere b = rig.view->scene().bounds();
    QVERIFY((rig.view->cameraCenter() - toQ(b.center())).length() < 1e-6f);
  }

  void orthographicTogglesPerspective() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    rig.trigger("viewTop3d");
    // Two points off the axis, one nearer the eye: perspective draws the
    // nearer one further out, orthographic draws both on one spot.
    const QVector3D c = rig.view->cameraCenter();
    const float r = float(rig.view->scene().bounds().radius());
    const QVector3D a = c + QVector3D(0.5f * r, 0, 0), near = a + QVector3D(0, 0, 0.5f * r);
    rig.paint();
    QVERIFY(!rig.view->orthographic());
    QVERIFY(QLineF(rig.view->projectToWidget(a), rig.view->projectToWidget(near)).length() > 5.0);
    rig.trigger("ortho3d");
    QVERIFY(rig.view->orthographic());
    rig.paint();
    QVERIFY(QLineF(rig.view->projectToWidget(a), rig.view->projectToWidget(near)).length() < 0.01);
    if (qEnvironmentVariableIsSet("PM_TOP_SNAPSHOT"))
      QVERIFY(rig.view->snapshot(800, 600).save(qEnvironmentVariable("PM_TOP_SNAPSHOT")));
    rig.trigger("ortho3d");
    QVERIFY(!rig.view->orthographic());
  }

  void fitAllAndFitSelection() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    rig.paint();
    const osg::BoundingSphere all = rig.view->scene().bounds();
    // Zoomed far in off-centre, then Fit: the centre and the whole sphere.
    for (int k = 0; k < 8; ++k) {
      QWheelEvent wheel(QPointF(40, 40), rig.view->mapToGlobal(QPointF(40, 40)), {}, QPoint(0, 120), Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(rig.view, &wheel);
      rig.paint();
    }
    QVERIFY(!sphereInView(rig.view, toQ(all.center()), all.radius()));
    rig.trigger("fitAll3d");
    rig.paint();
    QVERIFY((rig.view->cameraCenter() - toQ(all.center())).length() < 1e-6f);
    QVERIFY(sphereInView(rig.view, toQ(all.center()), all.radius()));
    // The crank selected: fit selection centres its sphere and fills the
    // view with it (closer than fit all).
    rig.view->select("crank");
    const osg::BoundingSphere crank = rig.view->scene().objectBounds("crank");
    QVERIFY(crank.valid() && crank.radius() < all.radius());
    const float distAll = (rig.view->cameraEye() - rig.view->cameraCenter()).length();
    rig.trigger("fitSelection3d");
    rig.paint();
    QVERIFY((rig.view->cameraCenter() - toQ(crank.center())).length() < 1e-6f);
    QVERIFY(sphereInView(rig.view, toQ(crank.center()), crank.radius()));
    // Same lens, same margin: the distance scales with the radius.
    const float distSel = (rig.view->cameraEye() - rig.view->cameraCenter()).length();
    QVERIFY(std::abs(distSel / distAll - crank.radius() / all.radius()) < 1e-4f);
    // F in the view fits all again.
    rig.view->setFocus();
    QTest::keyClick(rig.view, Qt::Key_F);
    QVERIFY((rig.view->cameraCenter() - toQ(all.center())).length() < 1e-6f);
  }

  void wheelZoomIsMultiplicative() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    rig.paint();
    const QVector3D eye0 = rig.view->cameraEye(), c0 = rig.view->cameraCenter();
    const QPointF at(rig.view->width() * 0.5, rig.view->height() * 0.5);
    auto wheel = [&](int dy) {
      QWheelEvent e(at, rig.view->mapToGlobal(at), {}, QPoint(0, dy), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
      QApplication::sendEvent(rig.view, &e);
      rig.paint();
    };
    for (int k = 0; k < 3; ++k) wheel(120);
    const float d3 = (rig.view->cameraEye() - rig.view->cameraCenter()).length();
    QVERIFY(std::abs(d3 / (eye0 - c0).length() - std::pow(0.85f, 3.0f)) < 1e-4f);
    for (int k = 0; k < 3; ++k) wheel(-120);
    // Back where it started: no drift.
    QVERIFY((rig.view->cameraEye() - eye0).length() < 1e-4f * (eye0 - c0).length());
  }

  void followKeepsTheMechanismCentred() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    rig.paint();
    const double t1 = rig.view->endTime() * 0.3, t2 = rig.view->endTime() * 0.6;
    rig.view->setPose(t1);
    const QVector3D still = rig.view->cameraCenter();
    rig.view->setPose(t2);
    QCOMPARE(rig.view->cameraCenter(), still);  // not following: the camera stays
    rig.trigger("follow3d");
    QVERIFY(rig.view->follows());
    const QVector3D offset = rig.view->cameraEye() - rig.view->cameraCenter();
    for (double t : {t1, t2}) {
      rig.view->setPose(t);
      const QVector3D centre = toQ(rig.view->scene().bounds().center());
      QVERIFY((rig.view->cameraCenter() - centre).length() < 1e-6f);
      QVERIFY((rig.view->cameraEye() - rig.view->cameraCenter() - offset).length() < 1e-6f);
    }
    // The slider moves between t1 and t2, so the centre did too.
    rig.view->setPose(t1);
    const QVector3D a = rig.view->cameraCenter();
    rig.view->setPose(t2);
    QVERIFY((rig.view->cameraCenter() - a).length() > 1e-4f);
  }

  // Orbit and pan with the mouse (issue 28, point 3): a left drag on empty
  // space turns the camera about the point it looks at (that point and the
  // distance kept), a middle drag moves both along the view plane (the
  // direction and distance kept).
  void orbitAndPanWithTheMouse() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    rig.paint();
    const QVector3D c0 = rig.view->cameraCenter(), d0 = rig.lookDir();
    const float r0 = (rig.view->cameraCenter() - rig.view->cameraEye()).length();
    auto drag = [&](Qt::MouseButton b, QPoint from, QPoint by) {
      QTest::mousePress(rig.view, b, {}, from);
      for (int k = 1; k <= 8; ++k) QTest::mouseMove(rig.view, from + by * k / 8);
      QTest::mouseRelease(rig.view, b, {}, from + by);
      rig.paint();
    };
    const QPoint corner(40, rig.view->height() - 40);  // empty space, no part under it
    drag(Qt::LeftButton, corner, QPoint(240, 0));
    const QVector3D c1 = rig.view->cameraCenter(), d1 = rig.lookDir();
    const float r1 = (c1 - rig.view->cameraEye()).length();
    const double turned = std::acos(std::clamp(double(QVector3D::dotProduct(d0, d1)), -1.0, 1.0)) * 180 / M_PI;
    qInfo("orbit: turned %.2f deg, centre moved %.3g m, distance %.6g -> %.6g m", turned, (c1 - c0).length(), r0, r1);
    QVERIFY2(turned > 5, "the camera turned");
    QVERIFY2((c1 - c0).length() < 1e-6f * r0, "about the point it looks at");
    QVERIFY2(std::abs(r1 - r0) < 1e-4f * r0, "at the same distance");
    QVERIFY(rig.view->selectedId().isEmpty());
    drag(Qt::MiddleButton, corner, QPoint(0, -80));
    const QVector3D c2 = rig.view->cameraCenter(), d2 = rig.lookDir();
    const float r2 = (c2 - rig.view->cameraEye()).length();
    qInfo("pan: centre moved %.4g m, direction changed %.3g, distance %.6g m", (c2 - c1).length(), (d2 - d1).length(), r2);
    QVERIFY2((c2 - c1).length() > 0.01f * r0, "panned");
    QVERIFY2(std::abs(QVector3D::dotProduct(c2 - c1, d1)) < 1e-4f * r0, "across the view, not along it");
    QVERIFY2((d2 - d1).length() < 1e-5f, "looking the same way");
    QVERIFY2(std::abs(r2 - r1) < 1e-4f * r0, "at the same distance");
  }

  void gridAtWorldZeroWithWorldAxes() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    osg::Group* root = rig.view->scene().root();
    osg::Node* grid = findNamed(root, "grid");
    osg::Node* axes = findNamed(root, "worldAxes");
    QVERIFY(grid && axes);
    osg::ComputeBoundsVisitor g;
    grid->accept(g);
    QVERIFY(g.getBoundingBox().valid());
    QCOMPARE(g.getBoundingBox().zMin(), 0.0f);
    QCOMPARE(g.getBoundingBox().zMax(), 0.0f);
    QCOMPARE(rig.view->scene().grid().center.z(), 0.0);
    // The axes' arrows start at the origin and reach their length along +x, +y, +z.
    osg::ComputeBoundsVisitor a;
    axes->accept(a);
    const osg::BoundingBox& box = a.getBoundingBox();
    const float len = float(rig.view->scene().worldAxisLength());
    QVERIFY(std::abs(box.xMax() - len) < 1e-6f && std::abs(box.yMax() - len) < 1e-6f &&
            std::abs(box.zMax() - len) < 1e-6f);
    QVERIFY(box.xMin() < 0 && box.xMin() > -0.1f * len);  // the shaft's radius, no more
    // Markers are drawn while building.
    QVERIFY(rig.view->markersVisible());
  }

  void jointAxisArrowAndHoverLabel() {
    Rig rig;
    QVERIFY(rig.open("slider_crank.pneumech.json"));
    rig.paint();
    // The revolute's glyph (3 r long about its axis) carries an arrow along
    // the axis from 2 r behind it to 4 r past it: 9 r along the marker's z
    // (crank.o is not turned, so that is world z).
    osg::Node* pivot = findNamed(rig.view->scene().root(), "crank_pivot");
    QVERIFY(pivot);
    osg::ComputeBoundsVisitor cbv;
    pivot->accept(cbv);
    const double r = 0.025 * rig.view->scene().characteristicLength();
    const double extent = cbv.getBoundingBox().zMax() - cbv.getBoundingBox().zMin();
    QVERIFY2(std::abs(extent - 9 * r) < 1e-4 * r, qPrintable(QString::number(extent / r)));
    // Hovering over a marker labels it (crank.pin and rod.a coincide: the
    // first in model order).
    QVector3D pin;
    QVERIFY(rig.view->markerPosition("crank.pin", pin));
    QTest::mouseMove(rig.view, rig.view->projectToWidget(pin).toPoint());
    QTRY_COMPARE(rig.view->hoveredMarker(), QString("crank.pin"));
    QTest::mouseMove(rig.view, QPoint(5, 5));
    QTRY_COMPARE(rig.view->hoveredMarker(), QString());
  }

  void markerSelectedInTreeIsHighlighted() {
    MainWindow w;
    QVERIFY(test::showProject(w, QString::fromStdString(test::projectPath("slider_crank.pneumech.json")), QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    QVERIFY(view && view->isVisible());
    QVERIFY(w.findChild<MechanismViewToolBar*>());
    osg::Node* pin = findNamed(view->scene().root(), "crank.pin");
    QVERIFY(pin);
    QCOMPARE(highlightOf(pin), osg::Vec3f(0, 0, 0));
    ModelTree* tree = w.modelTree();
    QTreeWidgetItem* item = tree->itemFor("crank.pin");
    QVERIFY(item);
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    QCOMPARE(view->selectedId(), QString("crank.pin"));
    const osg::Vec3f tint = highlightOf(pin);
    QVERIFY(tint.length() > 0.5f);
    // Only that marker: the other marker of the crank and the crank itself stay plain.
    QCOMPARE(highlightOf(findNamed(view->scene().root(), "crank.o")), osg::Vec3f(0, 0, 0));
    QCOMPARE(highlightOf(findNamed(view->scene().root(), "crank")), osg::Vec3f(0, 0, 0));
    // The form says which frame the marker's position is in.
    auto* note = w.findChild<QLabel*>("frameNote");
    QVERIFY(note);
    QTRY_VERIFY(note->isVisible());  // a new layout row is shown from the event loop
    QVERIFY2(note->text().contains("frame of part crank"), qPrintable(note->text()));
    if (qEnvironmentVariableIsSet("PM_CAMERA_SNAPSHOT")) {
      QTest::qWait(300);
      w.screen()->grabWindow(0).save(qEnvironmentVariable("PM_CAMERA_SNAPSHOT"));
    }
    // A revolute joint's form names its axis.
    item = tree->itemFor("crank_pivot");
    QVERIFY(item);
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    QTRY_VERIFY(w.findChild<QLabel*>("frameNote") &&
                w.findChild<QLabel*>("frameNote")->text().contains("z axis of marker J (ground.o)"));
    if (qEnvironmentVariableIsSet("PM_JOINT_SNAPSHOT")) {
      QTest::qWait(300);
      w.screen()->grabWindow(0).save(qEnvironmentVariable("PM_JOINT_SNAPSHOT"));
    }
    QCOMPARE(highlightOf(pin), osg::Vec3f(0, 0, 0));
    // In the studio F on the focused 3D view fits the mechanism there (the
    // schematic's F does not take it).
    const osg::BoundingSphere all = view->scene().bounds();
    view->select("crank");
    view->fitSelection();
    QVERIFY((view->cameraCenter() - toQ(all.center())).length() > 1e-4f);
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    view->setFocus();
    QTRY_VERIFY(view->hasFocus());
    QTest::keyClick(view, Qt::Key_F);
    QVERIFY((view->cameraCenter() - toQ(all.center())).length() < 1e-6f);
  }
};

QTEST_MAIN(TestGui3dCamera)
#include "test_gui3d_camera.moc"
