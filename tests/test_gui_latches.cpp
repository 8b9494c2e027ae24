// Latches and contacts in the studio (issue 27): Add Latch is one undoable
// edit made through its dialog (markers, capture radius in mm, engaged at
// the start), a latch without a condition is refused in the dialog, and the
// model tree lists the contacts and latches.
#include "document.h"
#include "mechanism_actions.h"
#include "model_tree.h"
#include "selection_model.h"
#include "support/property_typing.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUndoStack>
#include <QtTest/QtTest>

using namespace pm;
using namespace pm::gui;

namespace {

// A carriage with a hook and the ground with a catch; one contact pair.
Project carriage() {
  Project p;
  PartDef g;
  g.id = "ground";
  g.ground = true;
  g.markers = {MarkerDef{"catch", {0.5, 0, 0}, {0, 0, 0}}, MarkerDef{"floor", {0, 0, 0}, {0, 0, 0}}};
  PartDef c;
  c.id = "carriage";
  c.mass = 1.5;
  c.markers = {MarkerDef{"hook", {0.1, 0, 0}, {0, 0, 0}}};
  p.mechanism.parts = {g, c};
  ContactDef k;
  k.id = "rest";
  k.i = {"ground.floor", "plane", {}};
  k.j = {"carriage.hook", "sphere", {{"radius", 0.01}}};
  p.mechanism.contacts = {k};
  return p;
}

}  // namespace

class TestGuiLatches : public QObject {
  Q_OBJECT

 private slots:
  void addLatchThroughItsDialog() {
    Document doc;
    doc.reset(carriage(), {});
    SelectionModel selection;
    QWidget host;
    host.show();
    MechanismActions actions(&doc, &selection, nullptr, &host);
    ModelTree tree(&doc, &selection);
    QVERIFY(tree.itemFor("rest"));  // the contact pair is listed
    QVERIFY(tree.itemFor("rest")->text(1).contains("plane ground.floor - sphere carriage.hook"));
    QVERIFY(actions.addLatch()->isEnabled());
    const int undo = doc.undoStack()->count();

    // Without a condition the dialog refuses and stays open.
    actions.addLatch()->trigger();
    auto* d = host.findChild<QDialog*>("addLatchDialog");
    QVERIFY(d);
    QVERIFY(QTest::qWaitForWindowExposed(d));
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "catch");
    test::typeInto(d->findChild<QWidget*>("dlg_i"), "carriage.h");
    test::typeInto(d->findChild<QWidget*>("dlg_j"), "ground.c");
    QCOMPARE(d->findChild<QComboBox*>("dlg_i")->currentText(), QString("carriage.hook"));
    QCOMPARE(d->findChild<QComboBox*>("dlg_j")->currentText(), QString("ground.catch"));
    QCOMPARE(d->findChild<QComboBox*>("dlg_type")->currentText(), QString("fixed"));
    QVERIFY(d->findChild<QComboBox*>("dlg_type")->findText("coupler") < 0);
    auto* ok = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(d->isVisible());
    QVERIFY(d->findChild<QLabel*>("dlg_message")->text().contains("needs a condition"));
    QVERIFY(doc.project().mechanism.latches.empty());

    // A 5 mm capture radius, engaged at the start: one undoable edit.
    test::typeInto(d->findChild<QWidget*>("dlg_capture_radius"), "5");
    auto* start = d->findChild<QCheckBox*>("dlg_engaged");
    QTest::mouseClick(start, Qt::LeftButton, {}, QPoint(2, start->height() / 2));
    QVERIFY(start->isChecked());
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_VERIFY(!host.findChild<QDialog*>("addLatchDialog"));
    QCOMPARE(doc.project().mechanism.latches.size(), size_t(1));
    const LatchDef& l = doc.project().mechanism.latches[0];
    QCOMPARE(l.id, std::string("catch"));
    QCOMPARE(l.type, std::string("fixed"));
    QCOMPARE(l.i, std::string("carriage.hook"));
    QCOMPARE(l.j, std::string("ground.catch"));
    QCOMPARE(l.params.at("capture_radius"), 0.005);
    QCOMPARE(l.params.at("engaged"), 1.0);
    QCOMPARE(doc.undoStack()->count(), undo + 1);
    QCOMPARE(selection.current(), QString("catch"));
    QTreeWidgetItem* row = tree.itemFor("catch");
    QVERIFY(row);
    QCOMPARE(row->text(1), QString("fixed  carriage.hook - ground.catch, engaged at the start"));

    // Its id is taken now; undo removes it from the model and the tree.
    actions.addLatch()->trigger();
    d = host.findChild<QDialog*>("addLatchDialog");
    QVERIFY(d);
    QCOMPARE(d->findChild<QLineEdit*>("dlg_id")->text(), QString("latch1"));
    test::typeInto(d->findChild<QWidget*>("dlg_id"), "rest");
    test::typeInto(d->findChild<QWidget*>("dlg_engage"), "arm.out");
    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(d->findChild<QLabel*>("dlg_message")->text().contains("taken"));
    d->reject();
    doc.undoStack()->undo();
    QVERIFY(doc.project().mechanism.latches.empty());
    QVERIFY(!tree.itemFor("catch"));
  }
};

QTEST_MAIN(TestGuiLatches)
#include "test_gui_latches.moc"
