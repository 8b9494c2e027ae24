// A circuit that cannot work says so, and the way to make it work is
// findable (issue 25, point 2), done as a user does it: the seed 003
// valve's solenoid field cleared by typing, Check Circuit clicked on the
// toolbar, the warning clicked (the valve is selected); the solenoid field's
// "Add a push button here" picked from its list (a push button placed beside
// the valve and read by it, one undo step); the library searched by ISO
// name, common name and id prefix, with what a circuit needs listed first.
#include "document.h"
#include "library_panel.h"
#include "main_window.h"
#include "property_editor.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "support/studio_window.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QPainter>
#include <QLineEdit>
#include <QListWidget>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>

using namespace pm;
using namespace pm::gui;
using namespace pm::test;

namespace {

// Clicks the toolbar button of the action whose text is `text`.
bool clickToolbar(MainWindow& w, const QString& text) {
  for (QToolBar* tb : w.findChildren<QToolBar*>())
    for (QAction* a : tb->actions())
      if (a->text().remove('&') == text)
        if (QWidget* b = tb->widgetForAction(a)) {
          QTest::mouseClick(b, Qt::LeftButton);
          return true;
        }
  return false;
}

// Opens the combo box's list and clicks the entry whose text is `text`.
bool pickFromList(QComboBox* box, const QString& text) {
  const int i = box->findText(text);
  if (i < 0) return false;
  box->showPopup();
  QAbstractItemView* view = box->view();
  if (!QTest::qWaitForWindowExposed(view->window())) return false;
  const QModelIndex idx = view->model()->index(i, 0);
  view->scrollTo(idx);
  QTest::qWait(20);
  const QPoint at = view->visualRect(idx).center();
  if (view->viewport()->rect().contains(at)) {
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  } else {  // a list taller than the (offscreen) screen: walk to the entry with the keys
    view->setFocus();
    for (int k = 0; k < 100 && view->currentIndex().row() < i; ++k) QTest::keyClick(view, Qt::Key_Down);
    for (int k = 0; k < 100 && view->currentIndex().row() > i; ++k) QTest::keyClick(view, Qt::Key_Up);
    QTest::keyClick(view, Qt::Key_Return);
  }
  return true;
}

QStringList searchLibrary(LibraryPanel* lib, const QString& text) {
  QLineEdit* box = lib->searchBox();
  box->clear();
  QTest::keyClicks(box, text);
  return lib->matches();
}

}  // namespace

class TestGuiGuidance : public QObject {
  Q_OBJECT
 private slots:
  void checkCircuitFindsTheSilentSolenoid() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), kLargeWindow));
    // The circuit as shipped: nothing to say.
    QVERIFY(clickToolbar(w, "Check Circuit"));
    QCOMPARE(w.messageList()->count(), 1);
    QVERIFY(w.messageList()->item(0)->text().contains("no problems found"));

    // The user empties the solenoid's field.
    QVERIFY(w.selectComponent("v1"));
    QComboBox* sol = w.propertyEditor()->inputEditor("sol14");
    QVERIFY(sol);
    QCOMPARE(sol->currentText(), QString("sw1.out"));
    sol->lineEdit()->selectAll();
    QTest::keyClick(sol->lineEdit(), Qt::Key_Delete);
    QTest::keyClick(sol->lineEdit(), Qt::Key_Return);
    QTRY_VERIFY(!w.project().find("v1")->inputs.count("sol14"));

    // Check Circuit says so, and a click on the warning selects the valve.
    QVERIFY(clickToolbar(w, "Check Circuit"));
    QListWidget* list = w.messageList();
    int row = -1;
    for (int i = 0; i < list->count(); ++i)
      if (list->item(i)->text().contains("1V1 (v1): solenoid 14 has no signal")) row = i;
    QVERIFY2(row >= 0, qPrintable(list->count() ? list->item(0)->text() : QString("empty")));
    // The time switch now drives nothing, but a signal source is no sensor: one warning in all.
    QCOMPARE(list->count(), 1);
    w.scene()->clearSelection();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(row)).center());
    QCOMPARE(w.scene()->selectedComponents(), std::set<std::string>{"v1"});
  }

  void solenoidFieldAddsAPushButton() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), kLargeWindow));
    QVERIFY(w.document()->edit("no signal", [](Project& p) { p.find("v1")->inputs.clear(); }));
    const size_t before = w.project().components.size();
    const int undoBefore = w.document()->undoStack()->count();
    QVERIFY(w.selectComponent("v1"));
    QComboBox* sol = w.propertyEditor()->inputEditor("sol14");
    QVERIFY(sol);
    // The list offers the signals there are and the sources to add.
    QVERIFY(sol->findText("sw1.out") >= 0);
    for (const char* entry : {"Add a push button here", "Add a time switch here", "Add a sequence step here"})
      QVERIFY2(sol->findText(entry) >= 0, entry);
    QVERIFY(pickFromList(sol, "Add a push button here"));
    QTRY_COMPARE(w.project().components.size(), before + 1);

    const Project& p = w.project();
    const Component& pb = p.components.back();
    QCOMPARE(pb.type, std::string("push_button"));
    QCOMPARE(p.find("v1")->inputs.at("sol14"), pb.id + ".out");
    // Beside the valve on its solenoid's side (left), not on top of anything.
    const Component& v1 = *p.find("v1");
    QVERIFY2(pb.placement.x < v1.placement.x && v1.placement.x - pb.placement.x <= 200,
             qPrintable(QString("%1 vs %2").arg(pb.placement.x).arg(v1.placement.x)));
    for (const Component& o : p.components)
      if (o.id != pb.id)
        QVERIFY(std::abs(o.placement.x - pb.placement.x) >= 60 || std::abs(o.placement.y - pb.placement.y) >= 50);
    // On the canvas: its symbol and the signal line to the solenoid.
    QVERIFY(w.scene()->componentItem(pb.id));
    bool lineToValve = false;
    for (const SignalItem::Ref& r : w.scene()->signalLines()->refs())
      lineToValve = lineToValve || (r.reader == "v1" && r.input == "sol14" && r.source == pb.id);
    QVERIFY(lineToValve);
    // Looked at: the valve with its new push button.
    {
      const QRectF r = w.scene()->drawingBounds().adjusted(-10, -10, 10, 10);
      QImage img(int(r.width() * 4), int(r.height() * 4), QImage::Format_RGB32);
      img.fill(Qt::white);
      QPainter painter(&img);
      painter.setRenderHint(QPainter::Antialiasing);
      w.scene()->clearSelection();
      w.scene()->render(&painter, QRectF(img.rect()), r);
      QVERIFY(img.save(QDir::current().filePath("solenoid_push_button.png")));
    }
    // The circuit checks clean again.
    QVERIFY(clickToolbar(w, "Check Circuit"));
    QVERIFY(w.messageList()->item(0)->text().contains("no problems found"));
    // One undo step takes both back.
    QCOMPARE(w.document()->undoStack()->count(), undoBefore + 1);
    w.document()->undoStack()->undo();
    QCOMPARE(w.project().components.size(), before);
    QVERIFY(!w.project().find("v1")->inputs.count("sol14"));

    // A sequence step: a new step sequence whose output Y1 drives the valve;
    // asked again for another input, the same sequence gets output Y2.
    QVERIFY(w.selectComponent("v1"));
    sol = w.propertyEditor()->inputEditor("sol14");
    QVERIFY(sol);
    QVERIFY(pickFromList(sol, "Add a sequence step here"));
    QTRY_VERIFY(w.project().find("v1")->inputs.count("sol14"));
    const std::string ref = w.project().find("v1")->inputs.at("sol14");
    const Component* seq = w.project().find(ref.substr(0, ref.find('.')));
    QVERIFY(seq && seq->type == "step_sequence");
    QCOMPARE(ref.substr(ref.find('.')), std::string(".Y1"));
    QVERIFY(w.document()->edit("bistable", [](Project& p) { p.find("v1")->params["spring_return"] = 0; }));
    QVERIFY(w.selectComponent("v1"));
    QComboBox* sol12 = w.propertyEditor()->inputEditor("sol12");
    QVERIFY(sol12);
    QVERIFY(pickFromList(sol12, "Add a sequence step here"));
    QTRY_COMPARE(w.project().find("v1")->inputs.count("sol12"), size_t(1));
    QCOMPARE(w.project().find("v1")->inputs.at("sol12"), seq->id + ".Y2");
    QCOMPARE(int(w.project().find(seq->id)->data["outputs"].size()), 2);
  }

  void librarySearchAndOrder() {
    MainWindow w;
    QVERIFY(showNewCircuit(w));
    LibraryPanel* lib = w.libraryPanel();
    // What a circuit needs first.
    QStringList top;
    for (int i = 0; i < lib->tree()->topLevelItemCount() && i < 5; ++i) top << lib->tree()->topLevelItem(i)->text(0);
    QCOMPARE(top, (QStringList{"Supply", "Directional valves", "Actuators", "Flow valves", "Signals"}));

    // Common names.
    QStringList m = searchLibrary(lib, "solenoid valve");
    for (const char* v : {"valve_2_2_nc", "valve_3_2_nc", "valve_5_2", "valve_5_3_closed"}) QVERIFY2(m.contains(v), v);
    QVERIFY(!m.contains("cylinder_double"));
    m = searchLibrary(lib, "one-way flow control");
    QCOMPARE(m, QStringList{"flow_control_one_way"});
    m = searchLibrary(lib, "timer");
    for (const char* v : {"time_switch", "on_delay_timer", "off_delay_timer"}) QVERIFY2(m.contains(v), v);
    QVERIFY(!m.contains("valve_5_2"));
    // ISO names.
    QCOMPARE(searchLibrary(lib, "5/2-way"), QStringList{"valve_5_2"});
    m = searchLibrary(lib, "double-acting cylinder");
    QVERIFY(m.contains("cylinder_double") && !m.contains("cylinder_single"));
    QVERIFY(searchLibrary(lib, "non-return").contains("check_valve"));
    // Id prefixes.
    QCOMPARE(searchLibrary(lib, "valve_5_3").size(), 4);
    m = searchLibrary(lib, "cyl");
    QCOMPARE(m.mid(0, 3), (QStringList{"cylinder_double", "cylinder_single", "cylinder_through_rod"}));
    // Nothing typed: everything again, supply first.
    lib->searchBox()->clear();
    QCOMPARE(lib->matches().front(), QString("atmosphere"));
    QVERIFY(lib->matches().size() > 60);
  }
};

QTEST_MAIN(TestGuiGuidance)
#include "test_gui_guidance.moc"
