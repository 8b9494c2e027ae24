// A flexible body's initial motion in the studio (issue #22): the mechanism
// form of the seed 001 link shows its root's velocity [mm/s] and its
// angular velocity [deg/s], as the studio shows rates elsewhere. Typed values
// change the model (SI: 250 mm/s -> 0.25 m/s, 90 deg/s -> pi/2 rad/s), each
// one undoable step (Edit > Undo and Redo); a refused value leaves the model
// alone; Save As and a fresh load keep them, and the form shows them again
// after reopening.
#include "document.h"
#include "engine/engine.h"
#include "main_window.h"
#include "mechanism_form.h"
#include "selection_model.h"
#include "support/studio_window.h"

#include <QAction>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::showProject;

namespace {

QLineEdit* field(MechanismForm* form, const std::string& key) {
  return qobject_cast<QLineEdit*>(form->fieldEditor(key));
}

// Types `text` into a form field and presses Enter (one committed edit).
void typeField(MechanismForm* form, const std::string& key, const QString& text) {
  QLineEdit* e = nullptr;
  QTRY_VERIFY2((e = field(form, key)) && e->isVisible(), key.c_str());
  QTest::mouseClick(e, Qt::LeftButton);
  e->selectAll();
  QTest::keyClicks(e, text);
  QTest::keyClick(e, Qt::Key_Return);
}

const FlexibleBodyDef& link(MainWindow& w) { return *w.project().mechanism.flexibleBody("link"); }

QAction* editAction(MainWindow& w, const QString& text) {
  for (QAction* a : w.findChildren<QAction*>())
    if (a->text().remove('&').startsWith(text)) return a;
  return nullptr;
}

}  // namespace

class TestGuiFlexibleBodyVelocity : public QObject {
  Q_OBJECT
 private slots:
  void typedUndoneAndSaved() {
    QTemporaryDir dir;
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed001_flexible_link"), QSize(1400, 900)));
    w.selection()->select("link");
    auto* form = w.findChild<MechanismForm*>("mechanismForm");
    QVERIFY(form);
    QTRY_COMPARE(form->objectId(), std::string("link"));
    QCOMPARE(link(w).velocity, (Vec3{0, 0, 0}));
    QVERIFY(field(form, "velocity.y") && field(form, "angular_velocity.z"));
    QCOMPARE(field(form, "velocity.y")->text(), QString("0"));

    const int steps = w.document()->undoStack()->count();
    typeField(form, "velocity.y", "250");
    QVERIFY2(form->message().isEmpty(), qPrintable(form->message()));
    QCOMPARE(link(w).velocity[1], 0.25);
    typeField(form, "angular_velocity.z", "90");
    QVERIFY(std::abs(link(w).angular_velocity[2] - std::numbers::pi / 2) < 1e-15);
    typeField(form, "velocity.x", "-12.5 mm/s");
    QCOMPARE(link(w).velocity[0], -0.0125);
    QCOMPARE(w.document()->undoStack()->count(), steps + 3);
    // Not a number: refused, the model as it was.
    typeField(form, "angular_velocity.x", "fast");
    QVERIFY(form->message().contains("angular_velocity.x"));
    QCOMPARE(link(w).angular_velocity[0], 0.0);
    QCOMPARE(w.document()->undoStack()->count(), steps + 3);

    // Undo takes the last typing back, Redo brings it again.
    QAction* undo = editAction(w, "Undo");
    QAction* redo = editAction(w, "Redo");
    QVERIFY(undo && redo);
    undo->trigger();
    QCOMPARE(link(w).velocity[0], 0.0);
    QCOMPARE(link(w).velocity[1], 0.25);
    undo->trigger();
    QCOMPARE(link(w).angular_velocity[2], 0.0);
    redo->trigger();
    redo->trigger();
    QCOMPARE(link(w).velocity[0], -0.0125);
    QVERIFY(std::abs(link(w).angular_velocity[2] - std::numbers::pi / 2) < 1e-15);

    // Saved and loaded again: the same numbers, in the file and in the form.
    const QString file = dir.path() + "/moving_link.pneumech.json";
    QVERIFY(w.saveProjectAs(file));
    const Project loaded = engine::load(file.toStdString());
    const FlexibleBodyDef* d = loaded.mechanism.flexibleBody("link");
    QVERIFY(d);
    QCOMPARE(d->velocity, (Vec3{-0.0125, 0.25, 0}));
    QCOMPARE(d->angular_velocity, link(w).angular_velocity);
    MainWindow again;
    QVERIFY(showProject(again, file, QSize(1400, 900)));
    again.selection()->select("link");
    auto* form2 = again.findChild<MechanismForm*>("mechanismForm");
    QTRY_COMPARE(form2->objectId(), std::string("link"));
    QCOMPARE(field(form2, "velocity.y")->text(), QString("250"));
    QCOMPARE(field(form2, "velocity.x")->text(), QString("-12.5"));
    QCOMPARE(field(form2, "angular_velocity.z")->text(), QString("90"));
  }
};

QTEST_MAIN(TestGuiFlexibleBodyVelocity)
#include "test_gui_flexible_body_velocity.moc"
