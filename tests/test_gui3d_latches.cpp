// Latches in the 3D view (issue 27): a carriage drops 100 mm along a
// vertical slide until its hook comes within the 5 mm capture radius of
// the ground's catch (free fall: t = sqrt(2 x 0.095 m / g) = 0.139 s), where
// the latch engages and holds it. The latch is drawn as a clamp glyph at
// both markers; with the time cursor before the engagement it is amber
// (released), after it green (engaged), as the run's channel catch.engaged
// says at those times — checked on the scene graph and on the pixels drawn.
// Clicking the glyph selects the latch in the model tree. Needs OpenGL:
// runs under Xvfb.
#include "main_window.h"
#include "mechanism_view.h"
#include "mechanism_view_controls.h"
#include "model_tree.h"
#include "result_buffer.h"
#include "scene3d_scene.h"
#include "selection_model.h"
#include "simulation_runner.h"
#include "engine/engine.h"
#include "support/mechanism_builders.h"
#include "support/mechanism_view_frames.h"
#include "support/studio_window.h"

#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::waitFrame;

namespace {

constexpr double g0 = 9.80665;

Project carriageOnSlide() {
  Mechanism m;
  // Off the origin (the world axes drawn there would cross the glyph), the
  // hook beside the carriage's box, on the side the view looks at.
  m.parts = {test::ground({test::mk("catch", {0.105, 0, 0}), test::mk("rail", {0.06, 0, 0})}),
             test::part("carriage", 1.0, {1e-3, 1e-3, 1e-3, 0, 0, 0}, {0.06, 0, 0.12},
                        {test::mk("hook", {0.045, 0, -0.02}), test::mk("slide", {0, 0, 0})})};
  Geometry box;
  box.shape = "box";
  box.size = {{"lx", 0.04}, {"ly", 0.04}, {"lz", 0.04}};
  box.color = "#4a78b0";  // not amber, not green
  m.parts[1].geometry = {box};
  m.joints = {test::joint("guide", "translational", "carriage.slide", "ground.rail")};
  LatchDef l;
  l.id = "catch";
  l.i = "carriage.hook";
  l.j = "ground.catch";
  l.params = {{"capture_radius", 0.005}};
  m.latches = {l};
  return test::mechProject(m, 0.3, 1e-3, 1e-6);
}

// A 1 m aluminium strip, 10 mm wide (its y) and 5 mm thick (its z: gravity
// bends it in the x-z plane), clamped at its root and released straight:
// its tip swings down (static sag w L^4 / (8 E I) = 23 mm, first mode
// near 4 Hz). A latch from the tip to a ground marker above it, with a
// capture radius the tip never comes within: drawn released all along.
Project stripWithLatch() {
  Mechanism m;
  m.parts = {test::ground({test::mk("clamp", {0, 0, 0.2}), test::mk("hook", {0.9, 0, 0.35})})};
  FlexibleBodyDef b;
  b.id = "strip";
  b.length = 1.0;
  b.elements = 8;
  b.section = {{"hy", 0.01}, {"bz", 0.005}};
  b.material = {{"E", 7e10}, {"nu", 0.33}, {"density", 2700}};
  b.damping = {{"ratio", 0.02}};
  b.position = {0, 0, 0.2};
  b.markers = {{"root", 0, {}, {}}, {"tip", 8, {}, {}}};
  m.flexible_bodies = {b};
  m.joints = {test::joint("clamp", "fixed", "strip.root", "ground.clamp")};
  LatchDef l;
  l.id = "snap";
  l.i = "strip.tip";
  l.j = "ground.hook";
  l.params = {{"capture_radius", 0.001}};
  m.latches = {l};
  return test::mechProject(m, 0.3, 2e-3, 1e-6);
}

void snapshot(QWidget& w, const QString& name) { test::saveScreenshot("PM_LATCH_SNAPSHOTS", w, name); }

enum class Hue { Amber, Green, Other };

Hue hueOf(QColor c) {
  if (c.red() > c.green() + 20 && c.green() > c.blue() + 20) return Hue::Amber;
  if (c.green() > c.red() + 40 && c.green() > c.blue() + 40) return Hue::Green;
  return Hue::Other;
}

// The glyph's pixels around the catch (the clamp's lower cone, under the
// ground's marker), counted by hue in the view's framebuffer.
std::pair<int, int> glyphHues(MechanismView* view, const QVector3D& at) {
  const QImage img = view->grabFramebuffer();
  if (const QByteArray dir = qgetenv("PM_LATCH_SNAPSHOTS"); !dir.isEmpty()) {
    const QPointF p = view->projectToWidget(at) * img.devicePixelRatio();
    img.copy(int(p.x()) - 40, int(p.y()) - 40, 80, 80).scaled(320, 320).save(QString::fromLocal8Bit(dir) + "/latch_crop.png");
  }
  const QPointF c = view->projectToWidget(at) * img.devicePixelRatio();
  int amber = 0, green = 0;
  for (int dy = -12; dy <= 12; ++dy)
    for (int dx = -12; dx <= 12; ++dx) {
      const QPoint q(int(c.x()) + dx, int(c.y()) + dy);
      if (!img.rect().contains(q)) continue;
      const Hue h = hueOf(img.pixelColor(q));
      amber += h == Hue::Amber;
      green += h == Hue::Green;
    }
  return {amber, green};
}

}  // namespace

class TestGui3dLatches : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void glyphFollowsTheEngagedState() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(test::showSavedProject(w, carriageOnSlide(), dir.filePath("latch.pneumech.json"), QSize(1500, 1000)));
    MechanismView* view = w.mechanismView();
    QVERIFY(view && view->isVisible());
    const scene3d::LatchLayer& latches = view->scene().latches();
    QCOMPARE(latches.glyphsDrawn(), 2);  // at the hook and at the catch
    QVERIFY(!latches.engaged("catch"));
    QVERIFY(w.modelTree()->itemFor("catch"));

    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(done.wait(120000));
    QVERIFY(w.runner()->lastResult().ok());
    // Let the run's last queued updates land (rows, the views' end of run):
    // one arriving after the cursor is set below showed the run's end
    // (1 run in 8 on a loaded machine).
    QTest::qWait(300);
    const ResultBuffer* b = w.resultBuffer();
    const int ch = b->find("catch.engaged");
    QVERIFY(ch >= 0);
    const std::vector<double> times = b->times();
    const auto engaged = b->columns()[ch];
    // Engaged where the free fall brings the hook within the radius.
    const double tCatch = std::sqrt(2 * 0.095 / g0);
    size_t first = 0;
    while (first < engaged.size() && engaged[first] < 0.5) ++first;
    QVERIFY(first > 0 && first < engaged.size());
    QVERIFY2(std::abs(times[first] - tCatch) < 2e-3, qPrintable(QString::number(times[first], 'g', 10)));
    QCOMPARE(engaged.back(), 1.0);

    // Released before: amber, at the row the cursor shows.
    const QVector3D below(0.105f, 0.0f, float(-0.04 * view->scene().characteristicLength()));
    view->setMarkersVisible(false);  // their triads' green y-axes cross the glyph
    AnimationControls* a = w.animationControls();
    const double tBefore = 0.5 * tCatch, tAfter = 0.25;
    a->setTime(tBefore);
    QCOMPARE(engaged[size_t(b->rowAt(view->time()))], 0.0);
    QVERIFY(!latches.engaged("catch"));
    waitFrame(view);
    snapshot(w, "latch_released");
    auto [amber, green] = glyphHues(view, below);
    QVERIFY2(amber > 20 && green == 0, qPrintable(QString("amber %1 green %2").arg(amber).arg(green)));

    // Engaged after: green.
    a->setTime(tAfter);
    QCOMPARE(engaged[size_t(b->rowAt(view->time()))], 1.0);
    QVERIFY(latches.engaged("catch"));
    waitFrame(view);
    snapshot(w, "latch_engaged");
    std::tie(amber, green) = glyphHues(view, below);
    QVERIFY2(green > 20 && amber == 0, qPrintable(QString("amber %1 green %2").arg(amber).arg(green)));

    // Back before the engagement: amber again (the state follows the cursor).
    a->setTime(tBefore);
    QVERIFY(!latches.engaged("catch"));

    // A click on the glyph selects the latch everywhere.
    const QPoint c = view->projectToWidget(below).toPoint();
    QPoint at;
    for (int r = 0; r < 30 && at.isNull(); r += 2)
      for (int k = 0; k < 16 && at.isNull(); ++k) {
        const QPoint q = c + QPoint(int(r * std::cos(k * M_PI / 8)), int(r * std::sin(k * M_PI / 8)));
        if (view->objectAt(q) == "catch") at = q;
      }
    QVERIFY2(!at.isNull(), "no pixel of the latch glyph found");
    QTest::mouseClick(view, Qt::LeftButton, {}, at);
    QCOMPARE(w.selection()->current(), QString("catch"));
    QCOMPARE(view->selectedId(), QString("catch"));
    QCOMPARE(w.modelTree()->currentItem()->data(0, ModelTree::IdRole).toString(), QString("catch"));
    waitFrame(view);
    snapshot(w, "latch_selected");
  }

  // A latch on a flexible body's marker: its glyph rides on the marker's
  // node and follows the node's deformed position in playback, as the
  // run's pose channels of that node ("strip_n8") give it.
  void glyphFollowsAFlexibleBodysNode() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(test::showSavedProject(w, stripWithLatch(), dir.filePath("strip.pneumech.json"), QSize(1500, 1000)));
    MechanismView* view = w.mechanismView();
    QVERIFY(view && view->isVisible());
    const scene3d::LatchLayer& latches = view->scene().latches();
    QCOMPARE(latches.glyphsDrawn(), 2);  // at the strip's tip and at the hook
    auto at = latches.glyphOrigins("snap");
    QCOMPARE(at.size(), size_t(2));
    QVERIFY((at[0] - osg::Vec3d(1.0, 0, 0.2)).length() < 1e-12);  // the undeformed tip
    QVERIFY((at[1] - osg::Vec3d(0.9, 0, 0.35)).length() < 1e-12);

    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(done.wait(120000));
    QVERIFY(w.runner()->lastResult().ok());
    QTest::qWait(300);  // the run's last queued updates (as above)
    const ResultBuffer* b = w.resultBuffer();
    const int cx = b->find("strip_n8.x"), cy = b->find("strip_n8.y"), cz = b->find("strip_n8.z");
    QVERIFY(cx >= 0 && cy >= 0 && cz >= 0);
    QCOMPARE(b->columns()[b->find("snap.engaged")].back(), 0.0);
    const std::vector<double> times = b->times();
    AnimationControls* a = w.animationControls();
    view->setMarkersVisible(false);
    double lowest = 1.0, highest = -1.0;
    for (const double t : {0.0, 0.04, 0.08, 0.12, 0.2, 0.3}) {
      const size_t row = size_t(b->rowAt(t));
      a->setTime(times[row]);
      QVERIFY(std::abs(view->time() - times[row]) < 1e-12);
      const osg::Vec3d node(b->columns()[cx][row], b->columns()[cy][row], b->columns()[cz][row]);
      at = latches.glyphOrigins("snap");
      QVERIFY2((at[0] - node).length() < 1e-9,
               qPrintable(QString("t %1: glyph z %2, node z %3").arg(times[row]).arg(at[0].z()).arg(node.z())));
      QVERIFY((at[1] - osg::Vec3d(0.9, 0, 0.35)).length() < 1e-12);  // the hook stays
      QVector3D tip;
      QVERIFY(view->markerPosition("strip.tip", tip));
      QVERIFY(std::abs(tip.z() - at[0].z()) < 1e-6);
      lowest = std::min(lowest, node.z());
      highest = std::max(highest, node.z());
      if (std::abs(t - 0.12) < 1e-9) {
        waitFrame(view);
        snapshot(w, "latch_on_flexible_tip");
      }
    }
    // The tip swung through tens of mm (its sag alone is 23 mm): the glyph went with it.
    QVERIFY2(highest - lowest > 0.02, qPrintable(QString::number(highest - lowest)));
  }
};

QTEST_MAIN(TestGui3dLatches)
#include "test_gui3d_latches.moc"
