// Issue 28, point 1, in the studio: the lever (seed 003's Ø32 x 200
// cylinder, its rod end 150 mm from the pivot, the clevis 300 mm below it)
// opened in the main window. Check Circuit (the toolbar's button) lists the
// cylinder going over centre at 116.565 deg (|clevis - pivot| + 150 mm =
// 485.41 mm, x = 185.41 mm of the stroke) and the lever's default inertia
// against its drawn box; the run completes and then says, in the Messages,
// that the cylinder drove the linkage over a dead point and when.
//
// PM_GEOMETRY_SNAPSHOT=<file.png> saves the window after the run.
#include "engine/engine.h"
#include "simulation_runner.h"
#include "support/lever_project.h"
#include "support/studio_window.h"

#include <QListWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest/QtTest>

using namespace pm;
using namespace pm::gui;

namespace {

QStringList texts(const QListWidget* list) {
  QStringList out;
  for (int i = 0; i < list->count(); ++i) out << list->item(i)->text();
  return out;
}

bool anyContains(const QStringList& l, const QString& s) {
  return std::any_of(l.begin(), l.end(), [&](const QString& m) { return m.contains(s); });
}

}  // namespace

class TestGuiGeometryWarnings : public QObject {
  Q_OBJECT

 private slots:
  void checkAndRunSayWhatTheLinkageDoes() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("lever.pneumech.json");
    engine::save(test::leverProject({0.15, -0.3, 0}), path.toStdString());
    MainWindow w;
    QVERIFY(test::showProject(w, path, QSize(1500, 950)));
    auto* bar = w.findChild<QToolBar*>("mainToolBar");
    auto* list = w.findChild<QListWidget*>("messageList");
    QVERIFY(bar && list);
    QAction* check = nullptr;
    for (QAction* a : bar->actions())
      if (a->text().remove('&') == "Check Circuit") check = a;
    QVERIFY(check);
    QTest::mouseClick(bar->widgetForAction(check), Qt::LeftButton);
    const QStringList found = texts(list);
    QVERIFY2(anyContains(found, "cylinder 'cyl1' goes over centre: driving joint 'pivot' from 0 deg, its length peaks "
                                "at 485.41 mm (x = 185.41 mm of its 200 mm stroke) with 'pivot' at 116.565 deg"),
             qPrintable(found.join('\n')));
    QVERIFY2(anyContains(found, "part 'lever' has the default inertia"), qPrintable(found.join('\n')));

    QVERIFY(test::runToEnd(w));
    QCOMPARE(w.runner()->lastResult().status, RunStatus::Completed);
    const QStringList after = texts(list);
    QVERIFY2(anyContains(after, "Warning: cylinder 'cyl1' drove the linkage over a dead point at t = "),
             qPrintable(after.join('\n')));
    QVERIFY2(anyContains(after, "joint 'pivot' kept turning"), qPrintable(after.join('\n')));
    if (qEnvironmentVariableIsSet("PM_GEOMETRY_SNAPSHOT")) {
      QTest::qWait(200);
      w.grab().save(qEnvironmentVariable("PM_GEOMETRY_SNAPSHOT"));
    }
  }
};

QTEST_MAIN(TestGuiGeometryWarnings)
#include "test_gui_geometry_warnings.moc"
