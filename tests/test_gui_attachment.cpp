// An attached cylinder says what it is (issue 28, point 6): the property
// editor shows its markers, length range and initial stroke; Detach is one
// undoable edit that changes the model; mass and angle, which an attached
// cylinder does not use, are greyed out with the reason.
#include "attachment_box.h"
#include "document.h"
#include "param_model.h"
#include "property_editor.h"
#include "scene3d_scene.h"
#include "support/lever_project.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest/QtTest>

using namespace pm;
using namespace pm::gui;

class TestGuiAttachment : public QObject {
  Q_OBJECT

 private slots:
  void showsAndDetaches() {
    Document doc;
    // The clevis 300 mm from the rod end: retracted 300 mm, extended 300 + 200.
    doc.reset(test::leverProject({0.15, -0.3, 0}), {});
    PropertyEditor ed(&doc);
    ed.resize(500, 800);
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    ed.showComponent("cyl1");
    AttachmentBox* box = ed.attachmentBox();
    QVERIFY(box->isVisible());
    QCOMPARE(box->markersLabel()->text(), QString("barrel ground.clevis, rod lever.P"));
    QCOMPARE(box->lengthLabel()->text(),
             QString("300 mm retracted .. 500 mm extended; the markers are 300 mm apart at the start"));
    QCOMPARE(box->strokeLabel()->text(), QString("x0 = 0 mm"));
    QVERIFY(!box->problemLabel()->isVisible());

    // Mass and angle greyed out with the reason; F_load still acts.
    ParamModel* m = ed.model();
    auto row = [&](const char* name) { return m->index(m->rowOf(name), ParamModel::Value); };
    QVERIFY(!(m->flags(row("mass")) & Qt::ItemIsEnabled));
    QVERIFY(!(m->flags(row("angle")) & Qt::ItemIsEnabled));
    QVERIFY(m->flags(row("F_load")) & Qt::ItemIsEnabled);
    QVERIFY(m->data(row("mass"), Qt::ToolTipRole).toString().startsWith("Not used while the cylinder is attached"));

    // Detach: the model changes, in one undo step.
    const int before = doc.undoStack()->count();
    QTest::mouseClick(box->detachButton(), Qt::LeftButton);
    QVERIFY(!doc.project().find("cyl1")->data.contains("attach"));
    QCOMPARE(doc.undoStack()->count(), before + 1);
    QCOMPARE(box->markersLabel()->text(), QString("not attached: the cylinder moves its own mass along its own axis"));
    QVERIFY(!box->detachButton()->isVisible());
    QVERIFY(!box->lengthLabel()->isVisible() && !box->strokeLabel()->isVisible());
    QCOMPARE(box->repickButton()->text(), QString("Attach..."));
    QVERIFY(m->flags(row("mass")) & Qt::ItemIsEnabled);
    QVERIFY(!(m->flags(row("L_retracted")) & Qt::ItemIsEnabled));

    doc.undoStack()->undo();
    QCOMPARE(doc.project().find("cyl1")->data["attach"]["rod"].get<std::string>(), std::string("lever.P"));
    QVERIFY(box->detachButton()->isVisible());

    // Re-pick asks for the pick (MechanismActions runs it in the studio).
    QSignalSpy repick(box, &AttachmentBox::repickRequested);
    QTest::mouseClick(box->repickButton(), Qt::LeftButton);
    QCOMPARE(repick.count(), 1);
    QCOMPARE(repick.at(0).at(0).toString(), QString("cyl1"));
  }

  // Markers too close: the box names the problem as the compile does.
  void showsTheProblem() {
    Document doc;
    doc.reset(test::leverProject({0.15, -0.05, 0}), {});
    PropertyEditor ed(&doc);
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    ed.showComponent("cyl1");
    // Ø32 x 200: at least 200 + 1.5 x 32 = 248 mm retracted, 448 mm extended.
    QCOMPARE(ed.attachmentBox()->lengthLabel()->text(),
             QString("248 mm retracted .. 448 mm extended; the markers are 50 mm apart at the start"));
    QCOMPARE(ed.attachmentBox()->problemLabel()->text(),
             QString("Does not fit: this cylinder needs the markers at least 248 mm apart. Move the parts (details in "
                     "the tooltip)."));
    const QString problem = ed.attachmentBox()->problemLabel()->toolTip();
    QVERIFY2(problem.startsWith("markers 'ground.clevis' (barrel) and 'lever.P' (rod) are 50 mm apart"), qPrintable(problem));
    QVERIFY(ed.attachmentBox()->problemLabel()->isVisible());
  }

  // Mounting markers on one point (0 mm apart, refused naming them): the
  // 3D view draws no cylinder rather than a stray one at the origin; 300 mm
  // apart it is drawn between them (clevis (150, -300, 0), rod end (150, 0,
  // 0) mm: its middle at y = -150 mm, within the barrel's 20 mm radius).
  void coincidentMarkersDrawNoStrayCylinder() {
    scene3d::MechanismScene scene;
    scene.build(test::leverProject({0.15, 0, 0}));
    QVERIFY(scene.hasObject("cyl1"));
    QVERIFY2(!scene.objectBounds("cyl1").valid(), "nothing drawn");
    scene.build(test::leverProject({0.15, -0.3, 0}));
    const osg::BoundingSphere b = scene.objectBounds("cyl1");
    QVERIFY(b.valid());
    QVERIFY2(std::abs(b.center().x() - 0.15) < 1e-6 && std::abs(b.center().y() + 0.15) < 0.02, "between the markers");
  }
};

QTEST_MAIN(TestGuiAttachment)
#include "test_gui_attachment.moc"
