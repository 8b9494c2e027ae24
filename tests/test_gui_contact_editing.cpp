// Contact pairs and latches edited in the studio (issue 27), without a 3D
// view: the two parts clicked in the model tree are Add Contact's pair; the
// dialog refuses what a run refuses, with the core's message (a transition
// velocity below the stiction velocity), and stays open; the pair, once
// added, is listed, selected and edited in the property form (a friction
// coefficient; a negative radius refused with the core's message), deleted
// with Delete and with the part it stands on, each one undo step. A latch
// row shows the latch's fields; its "engaged at the start" box sets
// params.engaged. Add Contact's sizes are typed per side, the fields and
// tips those the core declares, and what is typed stays by size name when
// the shape changes.
#include "contact_dialog.h"
#include "document.h"
#include "main_window.h"
#include "mechanism_actions.h"
#include "mechanism_form.h"
#include "model_tree.h"
#include "property_editor.h"
#include "selection_model.h"
#include "engine/engine.h"
#include "support/mechanism_builders.h"
#include "support/property_typing.h"
#include "support/studio_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QScreen>
#include <QToolTip>
#include <QUndoStack>
#include <QtTest>

using namespace pm;
using namespace pm::gui;

namespace {

// A ball over the ground's floor marker (no ground geometry: a plane there).
Project ballOverFloor() {
  Mechanism m;
  PartDef ball = test::part("ball", 0.1, {1.6e-5, 1.6e-5, 1.6e-5, 0, 0, 0}, {0, 0, 0.03}, {test::mk("c", {0, 0, 0})});
  Geometry sphere;
  sphere.shape = "sphere";
  sphere.marker = "c";
  sphere.size = {{"radius", 0.02}};
  ball.geometry = {sphere};
  m.parts = {test::ground({test::mk("floor", {0, 0, 0}), test::mk("catch", {0, 0, 0.01})}), ball};
  LatchDef l;
  l.id = "hold";
  l.i = "ball.c";
  l.j = "ground.catch";
  l.params = {{"capture_radius", 0.002}};
  m.latches = {l};
  return test::mechProject(m, 0.2, 1e-3, 1e-6);
}

void clickTree(MainWindow& w, const QString& id) {
  ModelTree* tree = w.modelTree();
  QTreeWidgetItem* item = tree->itemFor(id);
  QVERIFY2(item, qPrintable(id));
  tree->scrollToItem(item);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
  QCOMPARE(w.selection()->current(), id);
}

// The ground, then the ball, clicked in the model tree, then Mechanism > Add
// Contact: the dialog it opens (nullptr if none opened within 5 s).
ContactDialog* addContactOnGroundAndBall(MainWindow& w) {
  clickTree(w, "ground");
  clickTree(w, "ball");
  w.mechanismActions()->addContact()->trigger();
  ContactDialog* d = nullptr;
  return QTest::qWaitFor([&] { return (d = w.findChild<ContactDialog*>("addContactDialog")) != nullptr; }) ? d : nullptr;
}

// The ball over the floor saved in `dir`, shown in `w`, and the Add
// Contact dialog opened on the ground and the ball and exposed (nullptr if
// any step fails).
ContactDialog* addContactOnBallOverFloor(MainWindow& w, const QTemporaryDir& dir) {
  const QString file = dir.filePath("ball.pneumech.json");
  engine::save(ballOverFloor(), file.toStdString());
  if (!test::showProject(w, file, test::kLargeWindow)) return nullptr;
  ContactDialog* d = addContactOnGroundAndBall(w);
  return d && QTest::qWaitForWindowExposed(d) ? d : nullptr;
}

void editField(MainWindow& w, const std::string& key, const QString& text) {
  auto* e = qobject_cast<QLineEdit*>(w.propertyEditor()->mechanismForm()->fieldEditor(key));
  QVERIFY2(e, key.c_str());
  test::typeInto(e, text);
  QTest::keyClick(e, Qt::Key_Return);
}

// Chooses item `index` of `box` with the arrow keys, as a user does.
void choose(QComboBox* box, int index) {
  QVERIFY(index >= 0);
  box->setFocus();
  while (box->currentIndex() != index) {
    const int at = box->currentIndex();
    QTest::keyClick(box, index > at ? Qt::Key_Down : Qt::Key_Up);
    QVERIFY(box->currentIndex() != at);
  }
}

QLineEdit* sizeField(ContactDialog* d, const char* key) {
  return d->findChild<QLineEdit*>(QString("dlg_%1").arg(key));
}

// The size fields side `side` ("i", "j") shows (-1: no row of sizes).
int sizeFieldCount(ContactDialog* d, const char* side) {
  auto* row = d->findChild<QWidget*>(QString("dlg_%1_sizes").arg(side));
  return row ? int(row->findChildren<QLineEdit*>().size()) : -1;
}

}  // namespace

class TestGuiContactEditing : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void addEditAndDeleteAContact() {
    QTemporaryDir dir;
    const QString file = dir.filePath("ball.pneumech.json");
    engine::save(ballOverFloor(), file.toStdString());
    MainWindow w;
    QVERIFY(test::showProject(w, file, test::kLargeWindow));
    QUndoStack* undo = w.document()->undoStack();

    ContactDialog* d = addContactOnGroundAndBall(w);
    QVERIFY(d);
    QCOMPARE(d->partBox(0)->currentText(), QString("ground"));
    QCOMPARE(d->partBox(1)->currentText(), QString("ball"));
    QVERIFY2(d->shapeBox(0)->currentText().startsWith("plane at floor"), qPrintable(d->shapeBox(0)->currentText()));
    QVERIFY2(d->shapeBox(1)->currentText().startsWith("sphere r 20 mm at c"), qPrintable(d->shapeBox(1)->currentText()));

    // A transition velocity below the stiction velocity (0.1 mm/s): the core's refusal.
    test::typeInto(d->paramEdit("mu_static"), "0.5");
    test::typeInto(d->paramEdit("transition_velocity"), "0.05");
    const int before = undo->count();
    auto* ok = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(d->isVisible());
    QVERIFY2(d->message().contains("params.transition_velocity: must be larger than stiction_velocity"),
             qPrintable(d->message()));
    QVERIFY(w.project().mechanism.contacts.empty());
    QCOMPARE(undo->count(), before);
    test::typeInto(d->paramEdit("transition_velocity"), "10");
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<ContactDialog*>("addContactDialog"));
    QCOMPARE(undo->count(), before + 1);
    {
      const ContactDef& c = w.project().mechanism.contacts.at(0);
      QCOMPARE(c.i.marker, std::string("ground.floor"));
      QCOMPARE(c.i.shape, std::string("plane"));
      QCOMPARE(c.j.marker, std::string("ball.c"));  // the sphere's own marker
      QCOMPARE(c.params.at("mu_static"), 0.5);
      QCOMPARE(c.params.at("transition_velocity"), 0.01);
      QCOMPARE(c.params.size(), size_t(2));
    }
    QCOMPARE(w.project().mechanism.part("ball")->markers.size(), size_t(1));  // no marker added

    // Listed and selected; its fields in the form, edited there.
    QCOMPARE(w.modelTree()->itemFor("contact1")->text(1), QString("plane ground.floor - sphere ball.c"));
    clickTree(w, "ground");
    clickTree(w, "contact1");
    MechanismForm* form = w.propertyEditor()->mechanismForm();
    QVERIFY(form->fieldEditor("param.stiffness"));
    editField(w, "param.mu_dynamic", "0.3");
    QCOMPARE(w.project().mechanism.contacts.at(0).params.at("mu_dynamic"), 0.3);
    editField(w, "param.stiffness", "2e6");
    QCOMPARE(w.project().mechanism.contacts.at(0).params.at("stiffness"), 2e6);
    editField(w, "j.size.radius", "25");
    QCOMPARE(w.project().mechanism.contacts.at(0).j.size.at("radius"), 0.025);
    const Project kept = w.project();
    editField(w, "j.size.radius", "-1");
    QVERIFY2(form->message().contains("contact1.j.size.radius: -1 mm is not a size: it must be > 0"),
             qPrintable(form->message()));
    QVERIFY(w.project() == kept);
    // A friction coefficient outside its declared range (0 to 10) is refused.
    editField(w, "param.mu_static", "11");
    QVERIFY2(form->message().contains("is outside"), qPrintable(form->message()));
    QVERIFY(w.project() == kept);

    // Delete: one undo step.
    clickTree(w, "contact1");
    const int n = undo->count();
    w.mechanismActions()->deleteObject()->trigger();
    QVERIFY(w.project().mechanism.contacts.empty());
    QVERIFY(!w.modelTree()->itemFor("contact1"));
    QCOMPARE(undo->count(), n + 1);
    undo->undo();
    QCOMPARE(w.project().mechanism.contacts.size(), size_t(1));

    // Deleting the ball takes its contact and its latch along.
    clickTree(w, "ball");
    w.mechanismActions()->deleteObject()->trigger();
    QVERIFY(w.project().mechanism.contacts.empty());
    QVERIFY(w.project().mechanism.latches.empty());
    undo->undo();
    QCOMPARE(w.project().mechanism.contacts.size(), size_t(1));

    // The latch row: its form, "engaged at the start" set by its box.
    clickTree(w, "hold");
    auto* start = qobject_cast<QCheckBox*>(form->fieldEditor("param.engaged"));
    QVERIFY(start);
    QVERIFY(!start->isChecked());
    QTest::mouseClick(start, Qt::LeftButton, {}, QPoint(2, start->height() / 2));
    QCOMPARE(w.project().mechanism.latches.at(0).params.at("engaged"), 1.0);
    editField(w, "param.capture_radius", "3");
    QCOMPARE(w.project().mechanism.latches.at(0).params.at("capture_radius"), 0.003);
  }

  // The ground offers a mesh from a file (the ball, which moves, does not):
  // the file typed relative to the project's folder, in mm; the pair keeps
  // the file and the scale, and its triangles are the file's, scaled, as
  // the loader reads them back.
  void addAMeshContactFromAFile() {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QString(PM_SOURCE_DIR) + "/projects/contact_vblock_chute.stl", dir.filePath("chute.stl")));
    const QString file = dir.filePath("ball.pneumech.json");
    engine::save(ballOverFloor(), file.toStdString());
    MainWindow w;
    QVERIFY(test::showProject(w, file, test::kLargeWindow));
    ContactDialog* d = addContactOnGroundAndBall(w);
    QVERIFY(d);
    QCOMPARE(d->shapeBox(1)->findData(ContactDialog::kMeshChoice), -1);
    const int mesh = d->shapeBox(0)->findData(ContactDialog::kMeshChoice);
    QVERIFY(mesh >= 0);
    QCOMPARE(d->shapeBox(0)->itemText(mesh), QString("Mesh from STL/OBJ file..."));
    QVERIFY(!d->meshFileEdit()->isVisible());
    d->shapeBox(0)->setFocus();
    while (d->shapeBox(0)->currentIndex() != mesh) {
      const int at = d->shapeBox(0)->currentIndex();
      QTest::keyClick(d->shapeBox(0), Qt::Key_Down);
      QVERIFY(d->shapeBox(0)->currentIndex() != at);
    }
    QVERIFY(d->meshFileEdit()->isVisible());
    QVERIFY(d->shapeBox(1)->currentText().startsWith("sphere r 20 mm at c"));

    // No file yet: refused, naming the field; the dialog stays.
    auto* ok = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(d->isVisible());
    QVERIFY2(d->message().startsWith("i.file:"), qPrintable(d->message()));
    QVERIFY(w.project().mechanism.contacts.empty());

    test::typeInto(d->meshFileEdit(), "chute.stl");
    QCOMPARE(d->meshUnitBox()->currentText(), QString("file in mm"));
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<ContactDialog*>("addContactDialog"));
    const ContactDef c = w.project().mechanism.contacts.at(0);
    QCOMPARE(c.i.shape, std::string("mesh"));
    QCOMPARE(c.i.file, std::string("chute.stl"));
    QCOMPARE(c.i.size.at("scale"), 0.001);
    QCOMPARE(c.i.marker, std::string("ground.floor"));  // the marker at the ground's frame
    QCOMPARE(c.j.shape, std::string("sphere"));
    const TriangleMesh raw = engine::readMesh(dir.path().toStdString(), "chute.stl");
    QCOMPARE(c.i.vertices.size(), raw.vertices.size());
    QCOMPARE(c.i.triangles.size(), raw.triangles.size());
    for (size_t k = 0; k < raw.vertices.size(); ++k)
      for (int a = 0; a < 3; ++a) QCOMPARE(c.i.vertices[k][a], 0.001 * raw.vertices[k][a]);

    // Saved and read back: the same pair (the file and scale written, the
    // vertices read from the file).
    const QString saved = dir.filePath("saved.pneumech.json");
    engine::save(w.project(), saved.toStdString());
    QCOMPARE(engine::load(saved.toStdString()).mechanism.contacts.at(0), c);
  }

  // Each side's marker is the user's choice, for a mesh too: the ground's
  // mesh on marker "catch" (the file's axes those of the marker), the
  // ball's sphere on a marker "top" instead of the one at its centre. Each
  // chosen from the marker box with the keyboard; no marker is added.
  void chooseTheMarkerOfEveryShape() {
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QString(PM_SOURCE_DIR) + "/projects/contact_vblock_chute.stl", dir.filePath("chute.stl")));
    Project p = ballOverFloor();
    p.mechanism.parts[1].markers.push_back(test::mk("top", {0, 0, 0.02}));
    const QString file = dir.filePath("ball.pneumech.json");
    engine::save(p, file.toStdString());
    MainWindow w;
    QVERIFY(test::showProject(w, file, test::kLargeWindow));
    ContactDialog* d = addContactOnGroundAndBall(w);
    QVERIFY(d);
    // I: the mesh; its marker box offers the part frame first, then the ground's markers.
    choose(d->shapeBox(0), d->shapeBox(0)->findData(ContactDialog::kMeshChoice));
    QCOMPARE(d->markerBox(0)->itemText(0), QString("at the shape (the part frame)"));
    QCOMPARE(d->markerBox(0)->findData("floor"), 1);
    choose(d->markerBox(0), d->markerBox(0)->findData("catch"));
    test::typeInto(d->meshFileEdit(), "chute.stl");
    // J: the sphere at c, moved onto "top".
    QVERIFY(d->shapeBox(1)->currentText().startsWith("sphere r 20 mm at c"));
    QCOMPARE(d->markerBox(1)->itemText(0), QString("at the shape (c)"));
    choose(d->markerBox(1), d->markerBox(1)->findData("top"));
    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<ContactDialog*>("addContactDialog"));
    const ContactDef c = w.project().mechanism.contacts.at(0);
    QCOMPARE(c.i.shape, std::string("mesh"));
    QCOMPARE(c.i.marker, std::string("ground.catch"));
    const TriangleMesh raw = engine::readMesh(dir.path().toStdString(), "chute.stl");
    QCOMPARE(c.i.vertices.size(), raw.vertices.size());
    QCOMPARE(c.i.vertices[0][2], 0.001 * raw.vertices[0][2]);  // in the marker's axes, as the file has them
    QCOMPARE(c.j.shape, std::string("sphere"));
    QCOMPARE(c.j.marker, std::string("ball.top"));
    QCOMPARE(c.j.size.at("radius"), 0.02);
    QCOMPARE(w.project().mechanism.part("ground")->markers.size(), size_t(2));
    QCOMPARE(w.project().mechanism.part("ball")->markers.size(), size_t(2));
  }

  // Each side's sizes typed in the dialog, in mm: the fields are those the
  // core declares for the shape chosen (a funnel's three, a cylinder's two,
  // none for a plane), valued from the drawn shape or the defaults. I: a
  // funnel (not drawn) on the ground's marker "catch"; J: a cylinder (not
  // drawn) at the ball's frame, where a marker is added. A negative size is
  // refused naming its field, the project unchanged; then the pair is added
  // with exactly the sizes typed (SI) and a friction coefficient, and one
  // undo step takes the pair and the marker away.
  void typeEachSidesSizes() {
    QTemporaryDir dir;
    Project p = ballOverFloor();
    p.mechanism.parts[1].markers[0].position = {0, 0, 0.005};  // no marker at the ball's frame
    const QString file = dir.filePath("ball.pneumech.json");
    engine::save(p, file.toStdString());
    MainWindow w;
    QVERIFY(test::showProject(w, file, test::kLargeWindow));
    QUndoStack* undo = w.document()->undoStack();
    ContactDialog* d = addContactOnGroundAndBall(w);
    QVERIFY(d);
    QVERIFY(QTest::qWaitForWindowExposed(d));

    // As offered: I the plane at floor (no size), J the drawn sphere (20 mm).
    QVERIFY(d->shapeBox(0)->currentText().startsWith("plane at floor"));
    QVERIFY(!sizeField(d, "i.size.radius"));
    QCOMPARE(sizeFieldCount(d, "i"), 0);
    QVERIFY(d->shapeBox(1)->currentText().startsWith("sphere r 20 mm at c"));
    QVERIFY(sizeField(d, "j.size.radius") && sizeField(d, "j.size.radius")->isVisible());
    QCOMPARE(sizeField(d, "j.size.radius")->text(), QString("20"));

    // I: the funnel, its base radius, mouth radius and length typed.
    const int funnel = d->shapeBox(0)->findData("funnel");
    QVERIFY(funnel >= 0);
    QCOMPARE(d->shapeBox(0)->itemText(funnel), QString("funnel, sizes typed below"));
    choose(d->shapeBox(0), funnel);
    QCOMPARE(sizeFieldCount(d, "i"), 3);
    QVERIFY(sizeField(d, "i.size.length")->isVisible());  // at once, ready for the keys
    d->markerBox(0)->setFocus();  // Tab: from the marker to the sizes
    QTest::keyClick(d->markerBox(0), Qt::Key_Tab);
    QCOMPARE(d->focusWidget(), sizeField(d, "i.size.radius"));
    QCOMPARE(sizeField(d, "i.size.radius")->text(), QString("10"));  // the defaults
    QCOMPARE(sizeField(d, "i.size.mouth_radius")->text(), QString("20"));
    QCOMPARE(sizeField(d, "i.size.length")->text(), QString("20"));
    const QList<QLabel*> labels = d->findChild<QWidget*>("dlg_i_sizes")->findChildren<QLabel*>();
    QCOMPARE(labels.size(), qsizetype(3));
    QCOMPARE(labels[1]->text(), QString("mouth_radius [mm]"));
    QCOMPARE(labels[1]->buddy(), sizeField(d, "i.size.mouth_radius"));
    choose(d->markerBox(0), d->markerBox(0)->findData("catch"));
    test::typeInto(sizeField(d, "i.size.radius"), "30");
    test::typeInto(sizeField(d, "i.size.mouth_radius"), "62.5");
    test::typeInto(sizeField(d, "i.size.length"), "40 mm");  // the unit may follow

    // J: the cylinder at the ball's frame; a negative radius first.
    const int cylinder = d->shapeBox(1)->findData("cylinder");
    QVERIFY(cylinder >= 0);
    choose(d->shapeBox(1), cylinder);
    QCOMPARE(d->markerBox(1)->itemText(0), QString("at the shape (the part frame)"));
    QVERIFY(!sizeField(d, "i.size.lx"));
    test::typeInto(sizeField(d, "j.size.radius"), "-8");
    test::typeInto(sizeField(d, "j.size.length"), "35");
    test::typeInto(d->paramEdit("mu_static"), "0.4");
    const Project before = w.project();
    const int steps = undo->count();
    auto* ok = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(d->isVisible());
    QCOMPARE(d->message(), QString("contact1.j.size.radius: -8 mm is not a size: it must be > 0"));
    QVERIFY(d->findChild<QLabel*>("dlg_message")->isVisible());
    QVERIFY(w.project() == before);
    QCOMPARE(undo->count(), steps);
    test::typeInto(sizeField(d, "j.size.radius"), "0");
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(d->isVisible());
    QCOMPARE(d->message(), QString("contact1.j.size.radius: 0 mm is not a size: it must be > 0"));
    QVERIFY(w.project() == before);
    if (const QByteArray shots = qgetenv("PM_CONTACT_SNAPSHOTS"); !shots.isEmpty()) {
      QTest::qWait(100);
      QVERIFY(d->grab().save(QString::fromLocal8Bit(shots) + "/add_contact_sizes.png"));
    }
    test::typeInto(sizeField(d, "j.size.radius"), "8.5");
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<ContactDialog*>("addContactDialog"));

    const Mechanism& m = w.project().mechanism;
    QCOMPARE(m.contacts.size(), size_t(1));
    const ContactDef& c = m.contacts[0];
    QCOMPARE(c.i.shape, std::string("funnel"));
    QCOMPARE(c.i.marker, std::string("ground.catch"));
    QVERIFY(c.i.size == (std::map<std::string, double>{{"radius", 0.03}, {"mouth_radius", 0.0625}, {"length", 0.04}}));
    QCOMPARE(c.j.shape, std::string("cylinder"));
    QCOMPARE(c.j.marker, std::string("ball.contact1"));
    QVERIFY(c.j.size == (std::map<std::string, double>{{"radius", 0.0085}, {"length", 0.035}}));
    QCOMPARE(c.params, (std::map<std::string, double>{{"mu_static", 0.4}}));
    const PartDef* ball = m.part("ball");
    QCOMPARE(ball->markers.size(), size_t(2));
    QCOMPARE(ball->markers[1].position, (Vec3{0, 0, 0}));
    QCOMPARE(undo->count(), steps + 1);

    // One undo step: the pair and the marker gone.
    undo->undo();
    QVERIFY(w.project() == before);
  }

  // What is typed stays by size name when the shape changes: J's radius
  // typed for the drawn sphere is the cylinder's radius (its length made by
  // the core's rule from the ball's drawing, 40 mm), the length typed for
  // the cylinder waits while the sphere is chosen and comes back with the
  // cylinder; the pair added with the sphere has exactly the radius typed.
  // Each field's tip is the core's description of the size.
  void typedSizesStayWhenTheShapeChanges() {
    QTemporaryDir dir;
    MainWindow w;
    ContactDialog* d = addContactOnBallOverFloor(w, dir);
    QVERIFY(d);
    const int sphere = d->shapeBox(1)->findData("sphere"), cylinder = d->shapeBox(1)->findData("cylinder");
    QVERIFY(sphere >= 0 && cylinder >= 0);
    QCOMPARE(d->shapeBox(1)->currentIndex(), sphere);  // the drawn sphere, r 20 mm
    QCOMPARE(sizeField(d, "j.size.radius")->text(), QString("20"));
    QVERIFY(sizeField(d, "j.size.radius")->toolTip().startsWith("The sphere's radius [mm]"));
    test::typeInto(sizeField(d, "j.size.radius"), "12.5");

    choose(d->shapeBox(1), cylinder);
    QCOMPARE(sizeFieldCount(d, "j"), 2);
    QCOMPARE(sizeField(d, "j.size.radius")->text(), QString("12.5"));
    QCOMPARE(sizeField(d, "j.size.length")->text(), QString("40"));
    QVERIFY(sizeField(d, "j.size.length")->toolTip().startsWith("The cylinder's full length along the marker's z"));
    test::typeInto(sizeField(d, "j.size.length"), "33");

    choose(d->shapeBox(1), sphere);
    QCOMPARE(sizeFieldCount(d, "j"), 1);
    QCOMPARE(sizeField(d, "j.size.radius")->text(), QString("12.5"));
    choose(d->shapeBox(1), cylinder);
    QCOMPARE(sizeField(d, "j.size.radius")->text(), QString("12.5"));
    QCOMPARE(sizeField(d, "j.size.length")->text(), QString("33"));
    choose(d->shapeBox(1), sphere);
    QCOMPARE(sizeField(d, "j.size.radius")->text(), QString("12.5"));
    if (const QByteArray shots = qgetenv("PM_CONTACT_SNAPSHOTS"); !shots.isEmpty()) {
      QTest::qWait(100);
      QVERIFY(d->grab().save(QString::fromLocal8Bit(shots) + "/add_contact_kept_sizes.png"));
      QLineEdit* radius = sizeField(d, "j.size.radius");
      QToolTip::showText(radius->mapToGlobal(radius->rect().center()), radius->toolTip(), radius);
      QTest::qWait(300);
      QVERIFY(QGuiApplication::primaryScreen()->grabWindow(0).save(QString::fromLocal8Bit(shots) +
                                                                    "/add_contact_tooltip.png"));
    }

    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<ContactDialog*>("addContactDialog"));
    const Mechanism& m = w.project().mechanism;
    QCOMPARE(m.contacts.size(), size_t(1));
    QCOMPARE(m.contacts[0].j.shape, std::string("sphere"));
    QCOMPARE(m.contacts[0].j.marker, std::string("ball.c"));
    QVERIFY(m.contacts[0].j.size == (std::map<std::string, double>{{"radius", 0.0125}}));
  }

  // The drawn sphere's item in the shape box says the radius its field
  // shows: the drawn 20 mm, then the 12.5 mm typed (marked "typed"), the
  // drawn label again when 20 is typed back or what is typed does not read.
  // (Before, the item kept the drawn 20 mm while the field said 12.5.)
  void shapeLabelFollowsTypedSizes() {
    QTemporaryDir dir;
    MainWindow w;
    ContactDialog* d = addContactOnBallOverFloor(w, dir);
    QVERIFY(d);
    QComboBox* box = d->shapeBox(1);
    QCOMPARE(box->currentText(), QString("sphere r 20 mm at c"));
    test::typeInto(sizeField(d, "j.size.radius"), "12.5");
    QCOMPARE(box->currentText(), QString("sphere r 12.5 mm (typed) at c"));
    const int cylinder = box->findData("cylinder");
    choose(box, cylinder);
    QCOMPARE(sizeField(d, "j.size.radius")->text(), QString("12.5"));
    QCOMPARE(box->itemText(box->findData("sphere")), QString("sphere r 12.5 mm (typed) at c"));
    choose(box, box->findData("sphere"));
    test::typeInto(sizeField(d, "j.size.radius"), "20");
    QCOMPARE(box->currentText(), QString("sphere r 20 mm at c"));
    test::typeInto(sizeField(d, "j.size.radius"), "x");
    QCOMPARE(box->currentText(), QString("sphere r 20 mm at c"));
    test::typeInto(sizeField(d, "j.size.radius"), "7");
    QCOMPARE(box->currentText(), QString("sphere r 7 mm (typed) at c"));
    QVERIFY(box->findText("sphere, sizes typed below") >= 0);  // not drawn: no drawn size to set apart
    if (const QByteArray shots = qgetenv("PM_CONTACT_SNAPSHOTS"); !shots.isEmpty()) {
      box->showPopup();
      QTest::qWait(200);
      QVERIFY(QGuiApplication::primaryScreen()->grabWindow(0).save(QString::fromLocal8Bit(shots) +
                                                                    "/add_contact_typed_label.png"));
      box->hidePopup();
    }
  }
};

QTEST_MAIN(TestGuiContactEditing)
#include "test_gui_contact_editing.moc"
