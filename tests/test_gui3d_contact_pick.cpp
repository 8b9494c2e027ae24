// Add Contact by picking in the 3D view (issue 27), onto a flexible body:
// an aluminium strip 0.5 m long (10 mm along its y, 20 mm along its z: it
// bends under gravity in the x-z plane, I = hy bz^3 / 12), clamped at its
// root 0.2 m above the ground, its tip just touching a floor plane. The
// user opens Add Contact, presses I's Pick in 3D and clicks the ground's
// floor marker (I: the plane there), presses J's and clicks the strip's
// body (J: the strip, a sphere as thick as its section on its first
// marker), then J's again and clicks its tip marker (J: the sphere on the
// tip). The pair is added with those markers and no new one; the shapes
// are drawn on the strip. Run: the strip rests on the plane, a cantilever
// propped at its tip by the contact's spring k (exponent 1). The engine
// lumps the strip's weight at its nodes (w l at the inner nodes, w l / 2
// at either end), so the tip force is R = d0 / (L^3 / (3 E I) + 1 / k),
// d0 the free tip deflection of those loads (sum of P a^2 (3 L - a) /
// (6 E I)): 0.99612149 N. Needs OpenGL: runs under Xvfb.
#include "contact_dialog.h"
#include "document.h"
#include "main_window.h"
#include "mechanism_actions.h"
#include "mechanism_view.h"
#include "result_buffer.h"
#include "scene3d_scene.h"
#include "selection_model.h"
#include "simulation_runner.h"
#include "engine/engine.h"
#include "support/property_typing.h"
#include "support/mechanism_builders.h"
#include "support/mechanism_view_frames.h"
#include "support/studio_window.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::waitFrame;

namespace {

constexpr double kE = 7e10, kRho = 2700, kL = 0.5, kHy = 0.01, kBz = 0.02, kG = 9.80665, kK = 1e8;
constexpr int kElements = 10;

Project stripOverFloor() {
  Mechanism m;
  PartDef ground = test::ground({test::mk("clamp", {0, 0, 0.2}), test::mk("floor", {0.5, 0.12, 0.19}),
                                 test::mk("plate", {0.3, 0.05, 0.185})});
  Geometry plate;
  plate.shape = "box";
  plate.marker = "plate";
  plate.size = {{"lx", 0.8}, {"ly", 0.3}, {"lz", 0.01}};
  ground.geometry = {plate};
  m.parts = {ground};
  FlexibleBodyDef b;
  b.id = "strip";
  b.length = kL;
  b.elements = kElements;
  b.section = {{"hy", kHy}, {"bz", kBz}};
  b.material = {{"E", kE}, {"nu", 0.33}, {"density", kRho}};
  b.damping = {{"ratio", 0.2}};
  b.position = {0, 0, 0.2};
  b.markers = {{"root", 0, {}, {}}, {"tip", kElements, {}, {}}};
  m.flexible_bodies = {b};
  m.joints = {test::joint("clamp", "fixed", "strip.root", "ground.clamp")};
  return test::mechProject(m, 0.5, 1e-2, 1e-6);
}

// The tip force of the propped strip (see the top).
double proppedTipForce() {
  const double I = kHy * kBz * kBz * kBz / 12, w = kRho * kHy * kBz * kG, l = kL / kElements;
  double d0 = 0;
  for (int j = 1; j <= kElements; ++j) {
    const double P = w * l * (j == kElements ? 0.5 : 1.0), a = j * l;
    d0 += P * a * a * (3 * kL - a) / (6 * kE * I);
  }
  return d0 / (kL * kL * kL / (3 * kE * I) + 1 / kK);
}

void snapshot(QWidget& w, const QString& name) { test::saveScreenshot("PM_CONTACT_SNAPSHOTS", w, name); }

// A pixel of object `id` near the projection of `world` (searched outwards).
QPoint pixelOf(MechanismView* view, const QVector3D& world, const QString& id) {
  const QPoint c = view->projectToWidget(world).toPoint();
  for (int r = 0; r < 60; r += 2)
    for (int k = 0; k < 16; ++k) {
      const QPoint q = c + QPoint(int(r * std::cos(k * M_PI / 8)), int(r * std::sin(k * M_PI / 8)));
      if (view->objectAt(q) == id && view->markerAt(q).isEmpty()) return q;
    }
  return {};
}

// Presses side `side`'s Pick in 3D and clicks at `at` in the view: the
// dialog hides while the view picks, and comes back.
void pickAt(ContactDialog* d, MechanismView* view, int side, const QPoint& at) {
  QTest::mouseClick(d->pickButton(side), Qt::LeftButton);
  QTRY_VERIFY(!d->isVisible());
  QCOMPARE(d->picking(), side);
  QVERIFY(view->isPickingMarker());
  QTest::mouseClick(view, Qt::LeftButton, {}, at);
  QTRY_VERIFY(d->isVisible());
  QCOMPARE(d->picking(), -1);
  QVERIFY(!view->isPickingMarker());
}

QPoint markerPixel(MechanismView* view, const QString& ref) {
  QVector3D world;
  if (!view->markerPosition(ref, world)) return {};
  return view->projectToWidget(world).toPoint();
}

}  // namespace

class TestGui3dContactPick : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void pickAPlaneAndAFlexibleBodysTip() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(test::showSavedProject(w, stripOverFloor(), dir.filePath("strip.pneumech.json"), QSize(1500, 1000)));
    MechanismView* view = w.mechanismView();
    QVERIFY(view && view->isVisible());
    waitFrame(view);
    MechanismActions* actions = w.mechanismActions();
    QVERIFY(actions->addContact()->isEnabled());  // a ground and a flexible body
    actions->addContact()->trigger();
    ContactDialog* d = nullptr;
    QTRY_VERIFY((d = w.findChild<ContactDialog*>("addContactDialog")));
    QVERIFY(QTest::qWaitForWindowExposed(d));
    QVERIFY(d->partBox(1)->findText("strip") >= 0);  // flexible bodies are offered
    const int undo = w.document()->undoStack()->count();

    // I: the floor marker clicked; the plane at it.
    const QPoint floor = markerPixel(view, "ground.floor");
    QVERIFY(!floor.isNull());
    pickAt(d, view, 0, floor);
    QCOMPARE(d->partBox(0)->currentText(), QString("ground"));
    QCOMPARE(d->markerBox(0)->currentData().toString(), QString("floor"));
    QVERIFY2(d->shapeBox(0)->currentText().startsWith("plane at floor"), qPrintable(d->shapeBox(0)->currentText()));

    // J: the strip's body clicked (away from its markers): the strip, a
    // sphere as thick as its section, on its first marker.
    const QPoint body = pixelOf(view, QVector3D(0.25f, 0.0f, 0.2f), "strip");
    QVERIFY2(!body.isNull(), "no pixel of the strip found");
    pickAt(d, view, 1, body);
    QCOMPARE(d->partBox(1)->currentText(), QString("strip"));
    QVERIFY2(d->shapeBox(1)->currentText().startsWith("sphere r 10 mm"), qPrintable(d->shapeBox(1)->currentText()));
    QCOMPARE(d->markerBox(1)->currentData().toString(), QString("root"));
    // Then its tip marker clicked.
    const QPoint tip = markerPixel(view, "strip.tip");
    QVERIFY(!tip.isNull());
    pickAt(d, view, 1, tip);
    QCOMPARE(d->partBox(1)->currentText(), QString("strip"));
    QCOMPARE(d->markerBox(1)->currentData().toString(), QString("tip"));
    QVERIFY(d->shapeBox(1)->currentText().startsWith("sphere r 10 mm"));
    // Escape in a pick keeps the dialog as it was.
    QTest::mouseClick(d->pickButton(0), Qt::LeftButton);
    QTRY_VERIFY(!d->isVisible());
    QTest::keyClick(view, Qt::Key_Escape);
    QTRY_VERIFY(d->isVisible());
    QCOMPARE(d->markerBox(0)->currentData().toString(), QString("floor"));

    test::typeInto(d->paramEdit("stiffness"), "1e8");
    test::typeInto(d->paramEdit("exponent"), "1");
    test::typeInto(d->paramEdit("damping"), "1");  // N s/mm
    test::typeInto(d->paramEdit("depth"), "0.01");
    snapshot(w, "contact_pick_dialog");
    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<ContactDialog*>("addContactDialog"));

    const Mechanism& m = w.project().mechanism;
    QCOMPARE(m.contacts.size(), size_t(1));
    const ContactDef& c = m.contacts[0];
    QCOMPARE(c.i.marker, std::string("ground.floor"));
    QCOMPARE(c.i.shape, std::string("plane"));
    QCOMPARE(c.j.marker, std::string("strip.tip"));
    QCOMPARE(c.j.shape, std::string("sphere"));
    QCOMPARE(c.j.size, (std::map<std::string, double>{{"radius", 0.5 * kBz}}));
    QCOMPARE(c.params.at("stiffness"), kK);
    QCOMPARE(m.part("ground")->markers.size(), size_t(3));  // no marker added
    QCOMPARE(m.flexibleBody("strip")->markers.size(), size_t(2));
    QCOMPARE(w.document()->undoStack()->count(), undo + 1);
    QCOMPARE(w.selection()->current(), QString("contact1"));
    waitFrame(view);
    QCOMPARE(view->scene().contacts().shapesDrawn(), 2);  // the plane, and the sphere on the strip's tip

    // Run: the strip rests on the plane with the propped cantilever's tip force.
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(done.wait(120000));
    QVERIFY(w.runner()->lastResult().ok());
    const ResultBuffer* b = w.resultBuffer();
    const auto force = b->columns()[b->find("contact1.normal_force")];
    const auto touching = b->columns()[b->find("contact1.in_contact")];
    QCOMPARE(touching.back(), 1.0);
    const double R = proppedTipForce();
    QVERIFY2(std::abs(force.back() - R) < 1e-6 * R,
             qPrintable(QString("%1 N, closed form %2 N").arg(force.back(), 0, 'g', 10).arg(R, 0, 'g', 10)));
    waitFrame(view);
    snapshot(w, "contact_pick_run");
  }
};

QTEST_MAIN(TestGui3dContactPick)
#include "test_gui3d_contact_pick.moc"
