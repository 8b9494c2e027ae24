// Contact pairs in the 3D view (issue 27): the pair's shapes are drawn on
// their parts, and during playback an arrow from the contact point along
// the normal whose length is proportional to the normal force; none while
// out of contact. A ball dropped on the ground plane, damped: it falls
// (no contact), bounces, and comes to rest on the plane, where the force is
// its weight (damping ratio 0.2: at rest well before 1 s). Needs OpenGL: runs under Xvfb.
#include "main_window.h"
#include "mechanism_view.h"
#include "mechanism_view_controls.h"
#include "result_buffer.h"
#include "scene3d_scene.h"
#include "simulation_runner.h"
#include "engine/engine.h"
#include "support/mechanism_builders.h"
#include "support/studio_window.h"

#include <QDir>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;

namespace {

constexpr double kMass = 0.1, kRadius = 0.02, g0 = 9.80665;

Project ballOnFloor() {
  Mechanism m;
  PartDef ball = test::part("ball", kMass, 0.4 * kMass * kRadius * kRadius, {0, 0, kRadius + 0.01},
                            {test::mk("c", {0, 0, 0})});
  Geometry sphere;
  sphere.shape = "sphere";
  sphere.size = {{"radius", kRadius}};
  ball.geometry = {sphere};
  m.parts = {test::ground({test::mk("floor", {0, 0, 0})}), ball};
  m.contacts = {{"hit",
                 {"ground.floor", "plane", {}},
                 {"ball.c", "sphere", {{"radius", kRadius}}},
                 {{"stiffness", 1e5}, {"exponent", 1.0}, {"damping", 40.0}, {"depth", 1e-5}}}};
  return test::mechProject(m, 1.0, 1e-3, 1e-6);
}

}  // namespace

class TestGui3dContacts : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void forceArrowFollowsTheNormalForce() {
    QTemporaryDir dir;
    const QString file = dir.filePath("ball.pneumech.json");
    engine::save(ballOnFloor(), file.toStdString());
    MainWindow w;
    QVERIFY(test::showProject(w, file, QSize(1500, 1000)));
    const MechanismView* view = w.mechanismView();
    QVERIFY(view);
    QCOMPARE(view->scene().contacts().shapesDrawn(), 2);  // the plane and the sphere
    QVERIFY(!view->scene().contacts().arrow("hit").visible);

    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(done.wait(120000));
    QVERIFY(w.runner()->lastResult().ok());
    const ResultBuffer* b = w.resultBuffer();
    const std::vector<double> times = b->times();
    auto column = [&](const char* name) {
      const int c = b->find(name);
      if (c < 0) qFatal("no channel %s", name);
      return b->columns()[c];
    };
    const auto force = column("hit.normal_force");
    const auto px = column("hit.point_x"), pz = column("hit.point_z");

    // The slider dragged to the start: falling, out of contact, no arrow.
    AnimationControls* a = w.animationControls();
    QSlider* s = a->slider();
    s->setFocus();
    QTest::keyClick(s, Qt::Key_Home);
    QVERIFY(std::abs(view->time() - times.front()) < 1e-9);
    QCOMPARE(force[b->rowAt(view->time())], 0.0);
    QVERIFY(!view->scene().contacts().arrow("hit").visible);

    // To the end: at rest on the plane, the arrow up from the contact
    // point, its length the weight times the view's scale.
    QTest::keyClick(s, Qt::Key_End);
    QVERIFY(std::abs(view->time() - times.back()) < 1e-9);
    const size_t last = times.size() - 1;
    QVERIFY2(std::abs(force[last] - kMass * g0) < 1e-6 * kMass * g0, qPrintable(QString::number(force[last])));
    const auto rest = view->scene().contacts().arrow("hit");
    const double mpn = view->scene().contacts().metresPerNewton();
    QVERIFY(rest.visible);
    QVERIFY(mpn > 0);
    QVERIFY2(std::abs(rest.vector.length() - force[last] * mpn) < 1e-12, qPrintable(QString::number(rest.vector.length())));
    QVERIFY2(std::abs(rest.vector.z() - rest.vector.length()) < 1e-12, "the arrow points up, along the plane's normal");
    QVERIFY(std::abs(rest.base.x() - px[last]) < 1e-12);
    QVERIFY(std::abs(rest.base.z() - pz[last]) < 1e-12);
    w.grab().save(QDir::current().filePath("contacts_3d.png"));

    // Stepped back to the row of the largest force (the first impact): the
    // arrow is longer in proportion.
    const size_t peak = static_cast<size_t>(std::max_element(force.begin(), force.end()) - force.begin());
    a->setTime(times[peak]);
    const auto hit = view->scene().contacts().arrow("hit");
    QVERIFY2(hit.visible, qPrintable(QString("t %1 (row %2 at %3), forces %4 %5 %6")
                                         .arg(view->time(), 0, 'g', 12)
                                         .arg(peak)
                                         .arg(times[peak], 0, 'g', 12)
                                         .arg(force[peak - 1])
                                         .arg(force[peak])
                                         .arg(force[peak + 1])));
    QVERIFY2(std::abs(hit.vector.length() / rest.vector.length() - force[peak] / force[last]) < 1e-9,
             qPrintable(QString("%1 vs %2").arg(hit.vector.length() / rest.vector.length()).arg(force[peak] / force[last])));
    QVERIFY(force[peak] > 2 * force[last]);
    w.grab().save(QDir::current().filePath("contacts_3d_impact.png"));
  }
};

QTEST_MAIN(TestGui3dContacts)
#include "test_gui3d_contacts.moc"
