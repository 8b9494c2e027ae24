// Issue #23: a cylinder chosen from the catalogue is drawn in the 3D view at
// its size. tool_changer's cyl1 (bore 32, rod 12, stroke 100 mm) hangs
// between ground.clevis and crank.P; choosing ISO15552-50 in the property
// editor's list (a click) redraws it with the 50 mm bore's barrel and the
// 20 mm rod: barrel radius bore/2 + the 4 mm wall, barrel length stroke +
// bore, rod from half a bore inside the barrel (the retracted piston) to
// the rod pin. Undo draws the 32 mm cylinder again.
//
// PM_CYLINDER_SNAPSHOTS=<folder> saves the view before and after.
#include "document.h"
#include "engine/engine.h"
#include "main_window.h"
#include "mechanism_view.h"
#include "property_editor.h"
#include "selection_model.h"
#include "support/studio_window.h"
#include "support/mechanism_view_frames.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QUndoStack>
#include <QtTest/QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::waitFrame;

namespace {

// Opens `box`'s list with a click and clicks the entry whose data is `part`.
bool clickEntry(QComboBox* box, const QString& part) {
  const int i = box->findData(part);
  if (i < 0) return false;
  QTest::mouseClick(box, Qt::LeftButton, {}, box->rect().center());
  QAbstractItemView* view = box->view();
  if (!QTest::qWaitFor([&] { return view->isVisible(); }, 2000)) return qInfo("no popup"), false;
  const QModelIndex idx = view->model()->index(i, 0);
  view->scrollTo(idx);
  // The list ignores a release within a double-click time of opening.
  QTest::qWait(QApplication::doubleClickInterval() + 100);
  const QPoint at = view->visualRect(idx).center();
  if (!view->viewport()->rect().contains(at)) return qInfo("entry outside the list"), false;
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  return QTest::qWaitFor([&] { return !view->isVisible(); }, 2000);
}

struct Drawn {
  double barrelRadius = 0, rodRadius = 0, barrelLength = 0, rodLength = 0;
  QVector3D barrelPin, rodPin;
};

Drawn drawn(MechanismView* v, const QString& id) {
  waitFrame(v);
  Drawn d;
  QMatrix4x4 mb, mr;
  if (!v->actuatorRadii(id, d.barrelRadius, d.rodRadius) || !v->actuatorTransforms(id, mb, mr)) return d;
  // Unit cylinders along local z, scaled to their lengths.
  d.barrelLength = mb.column(2).toVector3D().length();
  d.rodLength = mr.column(2).toVector3D().length();
  d.barrelPin = mb.map(QVector3D(0, 0, 0));
  d.rodPin = mr.map(QVector3D(0, 0, 1));
  return d;
}

void save(MechanismView* v, const char* name) {
  if (const QByteArray dir = qgetenv("PM_CYLINDER_SNAPSHOTS"); !dir.isEmpty())
    v->snapshot(900, 600).save(QString::fromLocal8Bit(dir) + "/" + name + ".png");
}

}  // namespace

class TestGui3dCylinderSize : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    if (!MechanismView::isSupported()) QSKIP("no OpenGL on this platform (run under Xvfb)");
  }

  void catalogueChoiceRedrawsTheCylinderAtItsSize() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("tool_changer"), QSize(1500, 950)));
    MechanismView* view = w.mechanismView();
    w.selection()->select("cyl1");
    QComboBox* box = w.propertyEditor()->catalogueChoice();
    QTRY_VERIFY(box->isVisible());
    QVector3D clevis, pin;
    QVERIFY(view->markerPosition("ground.clevis", clevis) && view->markerPosition("crank.P", pin));
    const double d0 = (pin - clevis).length();  // pins apart retracted (x0 = 0)

    const Drawn a = drawn(view, "cyl1");
    qInfo("bore 32: barrel r %.6f m, %.6f m long; rod r %.6f m, %.6f m long; pins %.6f m apart", a.barrelRadius,
          a.barrelLength, a.rodRadius, a.rodLength, d0);
    QVERIFY(std::abs(a.barrelRadius - (0.016 + 0.004)) < 1e-6);
    QVERIFY(std::abs(a.rodRadius - 0.006) < 1e-6);
    QVERIFY2(std::abs(a.barrelLength - (0.1 + 0.032)) < 1e-6, "stroke + bore");
    QVERIFY2(std::abs(a.rodLength - (d0 - 0.016)) < 1e-6, "piston half a bore from the barrel pin, to the rod pin");
    save(view, "cylinder_bore32");

    const int steps = w.document()->undoStack()->count();
    QVERIFY(clickEntry(box, "ISO15552-50"));
    QCOMPARE(w.project().find("cyl1")->part, std::string("ISO15552-50"));
    QCOMPARE(w.document()->undoStack()->count(), steps + 1);
    const Drawn b = drawn(view, "cyl1");
    qInfo("ISO15552-50: barrel r %.6f m, %.6f m long; rod r %.6f m, %.6f m long", b.barrelRadius, b.barrelLength,
          b.rodRadius, b.rodLength);
    QVERIFY2(std::abs(b.barrelRadius - (0.025 + 0.004)) < 1e-6, "the 50 mm bore's barrel");
    QVERIFY2(std::abs(b.rodRadius - 0.010) < 1e-6, "the 20 mm rod");
    QVERIFY(std::abs(b.barrelLength - (0.1 + 0.05)) < 1e-6);
    QVERIFY(std::abs(b.rodLength - (d0 - 0.025)) < 1e-6);
    // Still on its pins.
    QVERIFY((b.barrelPin - clevis).length() < 1e-6 && (b.rodPin - pin).length() < 1e-6);
    save(view, "cylinder_bore50");

    w.document()->undoStack()->undo();
    const Drawn c = drawn(view, "cyl1");
    QVERIFY(std::abs(c.barrelRadius - a.barrelRadius) < 1e-9 && std::abs(c.barrelLength - a.barrelLength) < 1e-9);
  }
};

QTEST_MAIN(TestGui3dCylinderSize)
#include "test_gui3d_cylinder_size.moc"
