// "Choose from catalogue" in the property editor, as a user does it: pick an
// ISO 15552 cylinder and a 5/2 valve from the list under the code; the
// object takes the part's parameters and its part number (which the bill of
// materials lists) in one undo step; a company part with a stroke range
// moves the stroke into it; typing another bore ends the part.
#include "document.h"
#include "engine/engine.h"
#include "param_model.h"
#include "property_editor.h"
#include "support/test_project.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <fstream>

using namespace pm;
using namespace pm::gui;

namespace {

// Opens `box`'s list with a click and clicks the entry whose data is `part`.
bool clickEntry(QComboBox* box, const QString& part) {
  const int i = box->findData(part);
  if (i < 0) return false;
  box->showPopup();  // what a click on the box does (the offscreen platform takes no click on it)
  QAbstractItemView* view = box->view();
  if (!QTest::qWaitForWindowExposed(view->window())) return false;
  const QModelIndex idx = view->model()->index(i, 0);
  view->scrollTo(idx);
  QTest::qWait(20);
  const QPoint at = view->visualRect(idx).center();
  if (!view->viewport()->rect().contains(at)) return false;
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  return QTest::qWaitFor([&] { return !view->isVisible(); }, 2000);
}

// The project as saved, read back and compiled: "" or the error.
std::string loadsBack(const Project& pr, const std::string& path) {
  try {
    engine::check(engine::parse(engine::serialize(pr), path), path);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

const catalogue::Entry& entry(const char* part) { return *catalogue::processCatalogue().find(part); }

}  // namespace

class TestGuiCatalogueChoice : public QObject {
  Q_OBJECT
  QTemporaryDir company_;

 private slots:
  void initTestCase() {
    // A company's folder beside the shipped one: a compact cylinder made in strokes 5-50 mm.
    std::ofstream(company_.path().toStdString() + "/compact.json") << R"({"format": "pneumech-catalogue",
      "sources": ["test"], "entries": [{"part": "CMP-32", "price": 61.5, "type": "cylinder_double",
      "params": {"bore": 0.032, "rod": 0.01}, "strokes": {"min": 0.005, "max": 0.05}}]})";
    catalogue::addFolder(company_.path().toStdString());
  }

  void chooseCylinderAndValve() {
    const std::string path = test::projectPath("seed003_meter_out.pneumech.json");
    Document doc;
    doc.reset(engine::load(path), QString::fromStdString(path));
    PropertyEditor ed(&doc);
    ed.resize(520, 800);
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    ed.showComponent("cyl1");
    QComboBox* box = ed.catalogueChoice();
    QVERIFY(box->isVisible());
    // "(none)", 7 ISO 15552 bores, 6 ISO 6432 bores, the company's compact cylinder.
    QCOMPARE(box->count(), 1 + 7 + 6 + 1);
    QCOMPARE(box->currentIndex(), 0);
    QCOMPARE(box->itemText(box->findData("ISO15552-50")), QString("ISO15552-50: bore 50 mm, rod 20 mm"));

    const Component before = *doc.project().find("cyl1");
    const int steps = doc.undoStack()->count();
    QVERIFY(clickEntry(box, "ISO15552-50"));
    const Component* c = doc.project().find("cyl1");
    QCOMPARE(c->part, std::string("ISO15552-50"));
    QCOMPARE(c->params.at("bore"), 0.05);
    QCOMPARE(c->params.at("rod"), 0.02);
    QCOMPARE(c->params.at("stroke"), 0.2);  // the ISO part gives no stroke range: the stroke stays
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(box->currentData().toString(), QString("ISO15552-50"));
    // The table shows the new bore (in mm).
    ParamModel* m = ed.model();
    QCOMPARE(m->index(m->rowOf("bore"), ParamModel::Value).data(Qt::UserRole).toDouble(), 0.05);
    // The bill of materials lists the part number.
    bool listed = false;
    for (const BomItem& item : billOfMaterials(doc.project(), reportSettings(doc.project(), path)))
      listed = listed || (item.id == "cyl1" && item.part == "ISO15552-50");
    QVERIFY(listed);
    // The project as saved loads and builds with the part.
    QCOMPARE(loadsBack(doc.project(), path), std::string());

    // One undo step takes it all back; redo brings it again.
    doc.undoStack()->undo();
    QCOMPARE(doc.project().find("cyl1")->params, before.params);
    QCOMPARE(doc.project().find("cyl1")->part, std::string());
    QCOMPARE(box->currentIndex(), 0);
    doc.undoStack()->redo();
    QCOMPARE(doc.project().find("cyl1")->part, std::string("ISO15552-50"));

    // The company's compact cylinder is made up to 50 mm: the 200 mm stroke moves to 50 mm.
    QVERIFY(clickEntry(box, "CMP-32"));
    c = doc.project().find("cyl1");
    QCOMPARE(c->part, std::string("CMP-32"));
    QCOMPARE(c->params.at("bore"), 0.032);
    QCOMPARE(c->params.at("rod"), 0.01);
    QCOMPARE(c->params.at("stroke"), 0.05);

    // Typing another bore into the table ends the part, in the same step.
    const int beforeTyping = doc.undoStack()->count();
    const QModelIndex bore = m->index(m->rowOf("bore"), ParamModel::Value);
    ed.table()->setCurrentIndex(bore);
    ed.table()->setFocus();
    QTest::keyClick(ed.table(), Qt::Key_F2);
    QWidget* editor = ed.table()->indexWidget(bore);
    if (!editor) editor = QApplication::focusWidget();
    QVERIFY(editor);
    if (auto* cb = qobject_cast<QComboBox*>(editor)) cb->lineEdit()->selectAll();
    QTest::keyClicks(QApplication::focusWidget(), "40");
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
    QTRY_COMPARE(doc.project().find("cyl1")->params.at("bore"), 0.04);
    QCOMPARE(doc.project().find("cyl1")->part, std::string());
    QCOMPARE(doc.undoStack()->count(), beforeTyping + 1);
    QCOMPARE(box->currentIndex(), 0);
    QCOMPARE(loadsBack(doc.project(), path), std::string());

    // The valve: the G1/8 size sets both flow paths from its Nl/min and its switching time.
    ed.showComponent("v1");
    QVERIFY(box->isVisible());
    QCOMPARE(box->count(), 1 + 6);
    QVERIFY(clickEntry(box, "V52-G18"));
    const Component* v = doc.project().find("v1");
    QCOMPARE(v->part, std::string("V52-G18"));
    const double C = catalogue::sonicConductance(700.0, 0.3);
    QCOMPARE(v->params.at("C_supply"), C);
    QCOMPARE(v->params.at("C_exhaust"), C);
    QCOMPARE(v->params.at("b_supply"), 0.3);
    QCOMPARE(v->params.at("t_switch"), 0.015);
    QCOMPARE(entry("V52-G18").params.at("C_supply"), C);

    // Back to "(none)": the values stay, the part goes.
    QVERIFY(clickEntry(box, ""));
    QCOMPARE(doc.project().find("v1")->part, std::string());
    QCOMPARE(doc.project().find("v1")->params.at("C_supply"), C);

    // A flow control has no catalogue entries: no list.
    ed.showComponent("fc1");
    QVERIFY(!box->isVisible());
  }
};

QTEST_MAIN(TestGuiCatalogueChoice)
#include "test_gui_catalogue_choice.moc"
