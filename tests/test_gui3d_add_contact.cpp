// Add Contact from the studio (issue 27): the user clicks a table (the
// ground's box) and then a ball in the 3D view, chooses Add > Add Contact,
// and the dialog offers the pair ground box - ball sphere taken from their
// display geometry; the stiffness, exponent, damping and depth typed in
// their display units become the pair's parameters in SI, the sphere's
// centre gets a marker of its own, and all of it is one undo step. Run, the
// ball drops 10 mm onto the table and comes to rest (damping 40 N s/m at
// 0.01 mm: at rest well before 1 s) on the contact force m g, read from the
// pair's channels. Needs OpenGL: runs under Xvfb.
#include "contact_dialog.h"
#include "main_window.h"
#include "mechanism_actions.h"
#include "mechanism_view.h"
#include "model_tree.h"
#include "result_buffer.h"
#include "scene3d_scene.h"
#include "selection_model.h"
#include "simulation_runner.h"
#include "document.h"
#include "engine/engine.h"
#include "support/property_typing.h"
#include "support/mechanism_builders.h"
#include "support/mechanism_view_frames.h"
#include "support/studio_window.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::waitFrame;

namespace {

constexpr double kMass = 0.1, kRadius = 0.02, g0 = 9.80665;

// A 300 x 300 x 20 mm table top (the ground's box, its top face at z = 0)
// and a ball whose sphere is drawn at its part frame, 10 mm above the table.
Project ballOverTable() {
  Mechanism m;
  PartDef ground = test::ground({test::mk("table", {0, 0, -0.01})});
  Geometry top;
  top.shape = "box";
  top.marker = "table";
  top.size = {{"lx", 0.3}, {"ly", 0.3}, {"lz", 0.02}};
  ground.geometry = {top};
  PartDef ball = test::part("ball", kMass, 0.4 * kMass * kRadius * kRadius, {0.05, 0.02, kRadius + 0.01}, {});
  Geometry sphere;
  sphere.shape = "sphere";
  sphere.size = {{"radius", kRadius}};
  ball.geometry = {sphere};
  m.parts = {ground, ball};
  return test::mechProject(m, 1.0, 1e-3, 1e-6);
}

void snapshot(QWidget& w, const QString& name) { test::saveScreenshot("PM_CONTACT_SNAPSHOTS", w, name); }

// A pixel of object `id` near the projection of `world` (searched outwards).
QPoint pixelOf(MechanismView* view, const QVector3D& world, const QString& id) {
  const QPoint c = view->projectToWidget(world).toPoint();
  for (int r = 0; r < 60; r += 3)
    for (int k = 0; k < 16; ++k) {
      const QPoint q = c + QPoint(int(r * std::cos(k * M_PI / 8)), int(r * std::sin(k * M_PI / 8)));
      if (view->objectAt(q) == id) return q;
    }
  return {};
}

}  // namespace

class TestGui3dAddContact : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void clickTwoPartsAndAddAContact() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(test::showSavedProject(w, ballOverTable(), dir.filePath("ball.pneumech.json"), QSize(1500, 1000)));
    MechanismView* view = w.mechanismView();
    QVERIFY(view && view->isVisible());
    waitFrame(view);

    // The table, then the ball, clicked in the 3D view.
    const QPoint table = pixelOf(view, QVector3D(-0.1f, -0.1f, 0.0f), "ground");
    QVERIFY2(!table.isNull(), "no pixel of the table found");
    QTest::mouseClick(view, Qt::LeftButton, {}, table);
    QCOMPARE(w.selection()->current(), QString("ground"));
    const QPoint ball = pixelOf(view, QVector3D(0.05f, 0.02f, float(kRadius + 0.01)), "ball");
    QVERIFY2(!ball.isNull(), "no pixel of the ball found");
    QTest::mouseClick(view, Qt::LeftButton, {}, ball);
    QCOMPARE(w.selection()->current(), QString("ball"));
    QCOMPARE(w.mechanismActions()->recentParts(), (QStringList{"ground", "ball"}));

    // Add > Add Contact, from the menu over the model tree.
    MechanismActions* actions = w.mechanismActions();
    QVERIFY(actions->addContact()->isEnabled());
    auto* add = w.findChild<QToolButton*>("mechanismAddButton");
    QVERIFY(add);
    bool chosen = false;
    QTimer::singleShot(100, [&] {
      QMenu* m = add->menu();
      for (int i = 0; i < 50 && !m->isVisible(); ++i) QTest::qWait(20);
      QTest::mouseClick(m, Qt::LeftButton, {}, m->actionGeometry(actions->addContact()).center());
      chosen = true;
    });
    QTest::mouseClick(add, Qt::LeftButton, {}, add->rect().center());
    QTRY_VERIFY(chosen);
    ContactDialog* d = nullptr;
    QTRY_VERIFY((d = w.findChild<ContactDialog*>("addContactDialog")));
    QVERIFY(QTest::qWaitForWindowExposed(d));
    QCOMPARE(d->partBox(0)->currentText(), QString("ground"));
    QCOMPARE(d->partBox(1)->currentText(), QString("ball"));
    QVERIFY2(d->shapeBox(0)->currentText().startsWith("box 300 x 300 x 20 mm"), qPrintable(d->shapeBox(0)->currentText()));
    QVERIFY2(d->shapeBox(1)->currentText().startsWith("sphere r 20 mm"), qPrintable(d->shapeBox(1)->currentText()));
    const int undo = w.document()->undoStack()->count();

    // Stiffness and exponent in SI, damping in N s/mm, depth in mm.
    test::typeInto(d->paramEdit("stiffness"), "1e5");
    test::typeInto(d->paramEdit("exponent"), "1");
    test::typeInto(d->paramEdit("damping"), "0.04");
    test::typeInto(d->paramEdit("depth"), "0.01");
    snapshot(w, "add_contact_dialog");
    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<ContactDialog*>("addContactDialog"));

    const Mechanism& m = w.project().mechanism;
    QCOMPARE(m.contacts.size(), size_t(1));
    const ContactDef& c = m.contacts[0];
    QCOMPARE(c.id, std::string("contact1"));
    QCOMPARE(c.i.marker, std::string("ground.table"));
    QCOMPARE(c.i.shape, std::string("box"));
    QCOMPARE(c.i.size, (std::map<std::string, double>{{"lx", 0.3}, {"ly", 0.3}, {"lz", 0.02}}));
    QCOMPARE(c.j.shape, std::string("sphere"));
    QCOMPARE(c.j.size, (std::map<std::string, double>{{"radius", kRadius}}));
    // The sphere is drawn at the ball's frame, which had no marker: one at its origin.
    QCOMPARE(c.j.marker, std::string("ball.contact1"));
    QCOMPARE(m.part("ball")->markers.size(), size_t(1));
    QCOMPARE(m.part("ball")->markers[0].position, (Vec3{0, 0, 0}));
    QCOMPARE(c.params.size(), size_t(4));
    QCOMPARE(c.params.at("stiffness"), 1e5);
    QCOMPARE(c.params.at("exponent"), 1.0);
    QVERIFY(std::abs(c.params.at("damping") - 40.0) < 1e-12);
    QVERIFY(std::abs(c.params.at("depth") - 1e-5) < 1e-18);
    QCOMPARE(w.document()->undoStack()->count(), undo + 1);
    QCOMPARE(w.selection()->current(), QString("contact1"));
    QVERIFY(w.modelTree()->itemFor("contact1"));
    QCOMPARE(w.modelTree()->currentItem()->data(0, ModelTree::IdRole).toString(), QString("contact1"));
    waitFrame(view);
    QCOMPARE(view->scene().contacts().shapesDrawn(), 2);
    QCOMPARE(view->selectedId(), QString("contact1"));  // its shapes highlighted
    snapshot(w, "add_contact_added");

    // One undo step takes the pair and its marker away; redo brings both.
    w.document()->undoStack()->undo();
    QVERIFY(w.project().mechanism.contacts.empty());
    QVERIFY(w.project().mechanism.part("ball")->markers.empty());
    QVERIFY(!w.modelTree()->itemFor("contact1"));
    QCOMPARE(view->scene().contacts().shapesDrawn(), 0);
    w.document()->undoStack()->redo();
    QCOMPARE(w.project().mechanism.contacts.size(), size_t(1));

    // Run: the pair's channels are there; the ball falls free, then rests on
    // the table on its weight.
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(done.wait(120000));
    QVERIFY(w.runner()->lastResult().ok());
    const ResultBuffer* b = w.resultBuffer();
    for (const char* ch : {"normal_force", "friction_force", "penetration", "in_contact", "point_z"})
      QVERIFY2(b->find(std::string("contact1.") + ch) >= 0, ch);
    const auto force = b->columns()[b->find("contact1.normal_force")];
    const auto touching = b->columns()[b->find("contact1.in_contact")];
    QCOMPARE(touching.front(), 0.0);
    QCOMPARE(touching.back(), 1.0);
    QVERIFY2(std::abs(force.back() - kMass * g0) < 1e-6 * kMass * g0, qPrintable(QString::number(force.back(), 'g', 12)));
    waitFrame(view);
    snapshot(w, "add_contact_run");
  }
};

QTEST_MAIN(TestGui3dAddContact)
#include "test_gui3d_add_contact.moc"
