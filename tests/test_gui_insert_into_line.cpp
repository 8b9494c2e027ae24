// A component with two pneumatic ports dropped onto a line goes into it
// (issue 25: seed 003 in 20 actions): the line splits, each half ends at the
// port nearer its old end, in one undo step. Other components dropped on a
// line are placed without touching it.
#include "document.h"
#include "library_panel.h"
#include "main_window.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "support/drop_events.h"
#include "support/studio_window.h"

#include <QMimeData>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>

#include <memory>

using namespace pm;
using namespace pm::gui;

namespace {

bool drop(MainWindow& w, const QString& type, const QPointF& scenePos) {
  QTreeWidgetItem* item = w.libraryPanel()->itemOf(type);
  if (!item) return false;
  QTreeWidget* tree = w.libraryPanel()->tree();
  std::unique_ptr<QMimeData> mime(tree->model()->mimeData({tree->indexFromItem(item)}));
  return mime && pm::test::deliverDrop(w.schematicView()->viewport(), w.schematicView()->mapFromScene(scenePos),
                                       mime.get());
}

// The middle of the longest stretch of line `id` (scene).
QPointF middleOf(MainWindow& w, const std::string& id) {
  const QPolygonF r = w.scene()->wireItem(id)->route();
  int best = 0;
  for (int i = 0; i + 1 < r.size(); ++i)
    if (QLineF(r[i], r[i + 1]).length() > QLineF(r[best], r[best + 1]).length()) best = i;
  return (r[best] + r[best + 1]) / 2;
}

bool joins(const Project& p, const std::string& a, const std::string& b) {
  for (const Connection& k : p.connections)
    if ((k.from.str() == a && k.to.str() == b) || (k.from.str() == b && k.to.str() == a)) return true;
  return false;
}

}  // namespace

class TestGuiInsertIntoLine : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void flowControlDroppedIntoTheSupplyLine() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, pm::test::examplePath("seed003_meter_out"), QSize(1400, 1000)));
    QTest::qWait(50);
    const Project before = w.project();
    QVERIFY(joins(before, "src.1", "v1.1"));
    // The supply line (l1) runs up from the supply to the valve.
    QVERIFY(drop(w, "flow_control_one_way", middleOf(w, "l1")));
    const Project& p = w.project();
    QCOMPARE(p.components.size(), before.components.size() + 1);
    const std::string fc = p.components.back().id;
    QCOMPARE(p.components.back().type, std::string("flow_control_one_way"));
    QCOMPARE(p.connections.size(), before.connections.size() + 1);
    QVERIFY(!joins(p, "src.1", "v1.1"));
    // Port 1 is drawn at the symbol's bottom, nearer the supply below it.
    QVERIFY(joins(p, "src.1", fc + ".1"));
    QVERIFY(joins(p, fc + ".2", "v1.1"));
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Insert %1 flow_control_one_way into line l1")
                                                        .arg(QString::fromStdString(p.components.back().label)));
    // One undo: the circuit as before, line and all.
    w.schematicView()->setFocus();
    QTest::keyClick(w.schematicView(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(w.project().components.size(), before.components.size());
    QVERIFY(w.project().connections == before.connections);

    // A 3/2 valve (three pneumatic ports) dropped on a line is placed beside
    // it, the line untouched.
    QVERIFY(drop(w, "valve_3_2_nc", middleOf(w, "l1")));
    QCOMPARE(w.project().components.size(), before.components.size() + 1);
    QCOMPARE(w.project().components.back().type, std::string("valve_3_2_nc"));
    QVERIFY(w.project().connections == before.connections);
  }
};

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  TestGuiInsertIntoLine test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_gui_insert_into_line.moc"
