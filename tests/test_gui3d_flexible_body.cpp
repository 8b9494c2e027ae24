// A flexible body built in the studio with real clicks and typing under
// Xvfb (issue #22): a ground plate from the Add menu, then Add Flexible Body
// (a beam clamped to the ground), its length, elements, section and damping
// typed into the mechanism form, the model tree showing it, a run, and the
// beam drawn bent: the drawn tip (the centre line's last point, and the tip
// marker) moves in playback exactly as the run's arm.tip_* channels say.
//
// PM_BUILD_SNAPSHOTS=<folder> saves a screenshot of the bent beam.
#include "document.h"
#include "main_window.h"
#include "mechanism_actions.h"
#include "mechanism_form.h"
#include "mechanism_view.h"
#include "scene3d_scene.h"
#include "model_tree.h"
#include "result_buffer.h"
#include "selection_model.h"
#include "simulation_runner.h"
#include "support/mechanism_view_frames.h"
#include "support/menu_choice.h"
#include "support/studio_window.h"
#include "support/test_project.h"

#include <QAction>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScreen>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::chooseFromMenu;

namespace {

void clickButton(QWidget* w) {
  QVERIFY2(w && w->isVisible() && w->isEnabled(), w ? qPrintable(w->objectName()) : "no widget");
  QTest::mouseClick(w, Qt::LeftButton, {}, w->rect().center());
}

QDialog* dialog(MainWindow& w, const char* name) {
  QDialog* d = nullptr;
  for (int i = 0; i < 100 && !((d = w.findChild<QDialog*>(name)) && d->isVisible()); ++i) QTest::qWait(20);
  return d;
}

// Types `text` into a form field and presses Enter (one committed edit).
void typeField(MechanismForm* form, const std::string& key, const QString& text) {
  QLineEdit* e = nullptr;
  QTRY_VERIFY2((e = qobject_cast<QLineEdit*>(form->fieldEditor(key))) && e->isVisible(), key.c_str());
  QTest::mouseClick(e, Qt::LeftButton);
  e->selectAll();
  QTest::keyClicks(e, text);
  QTest::keyClick(e, Qt::Key_Return);
  QVERIFY2(form->message().isEmpty(), qPrintable(form->message()));
}

void snapshot(MainWindow& w, const QString& name) { test::saveScreenshot("PM_BUILD_SNAPSHOTS", w, name, 100); }

}  // namespace

class TestGui3dFlexibleBody : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
  }

  void addEditRunAndWatchItBend() {
    MainWindow w;
    QVERIFY(test::showNewCircuit(w, std::nullopt, QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    auto* add = w.findChild<QToolButton*>("mechanismAddButton");

    // A ground plate (the Add Part dialog's default for the first part).
    chooseFromMenu(add, w.mechanismActions()->addPart());
    QDialog* d = dialog(w, "addPartDialog");
    QVERIFY(d);
    clickButton(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok));
    QTRY_COMPARE(w.project().mechanism.parts.size(), size_t(1));
    const PartDef ground = w.project().mechanism.parts[0];
    QVERIFY(ground.ground);

    // Add Flexible Body: a beam clamped to the ground, selected for its form.
    chooseFromMenu(add, w.mechanismActions()->addFlexibleBody());
    QTRY_COMPARE(w.project().mechanism.flexible_bodies.size(), size_t(1));
    const std::string id = w.project().mechanism.flexible_bodies[0].id;
    QCOMPARE(id, std::string("beam1"));
    QCOMPARE(w.selection()->current(), QString("beam1"));
    QCOMPARE(w.project().mechanism.joints.size(), size_t(1));
    QCOMPARE(w.project().mechanism.joints[0].type, std::string("fixed"));
    QCOMPARE(w.project().mechanism.joints[0].i, std::string("beam1.root"));
    // Clear of the plate (a 20 mm box centred on the ground frame): its root 50 mm above the top.
    QCOMPARE(ground.geometry.at(0).shape, std::string("box"));
    const double plateTop = ground.position[2] + 0.5 * ground.geometry[0].size.at("lz");
    QVERIFY(std::abs(w.project().mechanism.flexible_bodies[0].position[2] - (plateTop + 0.05)) < 1e-12);

    // Its form: 400 mm, 8 elements, the bar 3 mm thick along its z (world z
    // here: gravity bends it about its thin side, in the x-z plane), 5 % damping.
    auto* form = w.findChild<MechanismForm*>("mechanismForm");
    QVERIFY(form);
    QTRY_COMPARE(form->objectId(), std::string("beam1"));
    typeField(form, "length", "400");
    typeField(form, "elements", "8");
    typeField(form, "section.bz", "3");
    typeField(form, "damping.ratio", "0.05");
    const FlexibleBodyDef beam = w.project().mechanism.flexible_bodies[0];
    QCOMPARE(beam.length, 0.4);
    QCOMPARE(beam.elements, 8);
    QCOMPARE(beam.section.at("bz"), 0.003);
    QCOMPARE(beam.damping.at("ratio"), 0.05);
    QCOMPARE(beam.markers.back().id, std::string("tip"));
    QCOMPARE(beam.markers.back().node, 8);  // the tip followed the element count
    // A refused value leaves the model as it was and says why.
    QLineEdit* elements = qobject_cast<QLineEdit*>(form->fieldEditor("elements"));
    QTest::mouseClick(elements, Qt::LeftButton);
    elements->selectAll();
    QTest::keyClicks(elements, "2.5");
    QTest::keyClick(elements, Qt::Key_Return);
    QVERIFY(form->message().contains("elements"));
    QCOMPARE(w.project().mechanism.flexible_bodies[0].elements, 8);

    // The model tree lists it with its markers.
    auto* tree = w.findChild<ModelTree*>();
    QVERIFY(tree);
    QList<QTreeWidgetItem*> rows = tree->findItems("beam1", Qt::MatchExactly | Qt::MatchRecursive);
    QCOMPARE(rows.size(), 1);
    QVERIFY(rows[0]->text(1).contains("400 mm") && rows[0]->text(1).contains("8 elements"));
    QCOMPARE(rows[0]->childCount(), 2);

    // Drawn: the centre line through 9 nodes along world x, the tip marker at its end.
    QTRY_VERIFY(view->isVisible());
    QCOMPARE(view->scene().beamLine(0).size(), size_t(9));
    QVector3D tip0;
    QVERIFY(view->markerPosition("beam1.tip", tip0));
    const float rootZ = static_cast<float>(w.project().mechanism.flexible_bodies[0].position[2]);
    QVERIFY(rootZ > 0.05f);  // above the plate
    QVERIFY(std::abs(tip0.x() - 0.4f) < 1e-6f && std::abs(tip0.z() - rootZ) < 1e-6f);

    // Run 0.5 s: the beam sags under gravity and rings.
    Project p = w.project();
    p.simulation.t_end = 0.5;
    p.simulation.output_interval = 0.002;
    w.document()->edit("t_end", [&](Project& q) { q = p; });
    auto* main = w.findChild<QToolBar*>("mainToolBar");
    QAction* run = nullptr;
    for (QAction* a : main->actions())
      if (a->text().remove('&') == "Run") run = a;
    QVERIFY(run);
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    clickButton(main->widgetForAction(run));
    QVERIFY(done.wait(120000));
    QVERIFY2(w.runner()->lastResult().status == RunStatus::Completed, w.runner()->lastResult().message.c_str());

    // The drawn tip follows the run's tip channels at several times: the
    // tip node's position, and the deflection (tip_w along the beam's z,
    // world z here) against the straight beam.
    const ResultStore& r = *w.resultBuffer()->store();
    const auto t = r.times();
    const auto w_ = r.column("beam1.tip_w"), defl = r.column("beam1.tip_deflection");
    const auto nx = r.column("beam1_n8.x"), nz = r.column("beam1_n8.z");
    QVERIFY(!t.empty() && t.size() == defl.size());
    double largest = 0.0;
    for (double v : defl) largest = std::max(largest, std::abs(v));
    qInfo("largest tip deflection %.4g m", largest);
    QVERIFY(largest > 1e-3);  // it really bends
    for (size_t i : {t.size() / 4, t.size() / 2, t.size() - 1}) {
      view->setPose(t[i]);
      const osg::Vec3d drawn = view->scene().beamLine(0).back();
      QVector3D marker;
      QVERIFY(view->markerPosition("beam1.tip", marker));
      qInfo("t = %.3f s: drawn tip (%.6f, %.6f) m, channels (%.6f, %.6f), tip_w %.6f, tip_deflection %.6f", t[i],
            drawn.x(), drawn.z(), nx[i], nz[i], w_[i], defl[i]);
      QVERIFY(std::abs(drawn.x() - nx[i]) < 1e-6 && std::abs(drawn.z() - nz[i]) < 1e-6);
      QVERIFY(std::abs(marker.z() - nz[i]) < 1e-5);
      // Clamped at rootZ, straight along x: the drawn tip's drop is the deflection.
      QVERIFY2(std::abs(std::abs(drawn.z() - rootZ) - std::abs(defl[i])) < 2e-3 * 0.4 + 1e-3 * std::abs(defl[i]),
               "drawn drop vs tip_deflection");
    }
    snapshot(w, "flexible_body_bent");
  }
};

QTEST_MAIN(TestGui3dFlexibleBody)
#include "test_gui3d_flexible_body.moc"
