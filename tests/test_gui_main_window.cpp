// The first studio window: open a project, edit a parameter in engineering
// units through the table editor, run on the worker thread with a live plot,
// save and reload.
#include "library_panel.h"
#include "main_window.h"
#include "mechanism_form.h"
#include "selection_model.h"
#include "document.h"
#include "model_tree.h"
#include "param_model.h"
#include "property_editor.h"
#include "results_panel.h"
#include "result_buffer.h"
#include "results_tree.h"
#include "schematic_scene.h"
#include "simulation_runner.h"
#include "units.h"

#include "engine/engine.h"
#include "model/component_type.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QChart>
#include <QFile>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>
#include <QSlider>
#include <QToolBar>
#include <QToolButton>

#include <cmath>

using namespace pm;
using namespace pm::gui;

namespace {

const char* kProject = R"({
  "format": "pneumech-project", "schema_version": 1,
  "meta": {"title": "t"},
  "simulation": {"t_end": 0.5, "output_interval": 0.001},
  "components": [
    {"id": "src", "type": "supply"},
    {"id": "r1", "type": "restriction", "params": {"C": 1e-7}},
    {"id": "tank", "type": "reservoir"}
  ],
  "connections": [
    {"id": "c1", "from": "src.1", "to": "r1.1"},
    {"id": "c2", "from": "r1.2", "to": "tank.1"}
  ]
})";

// Closes the next modal message box (error dialogs) and records its text.
void closeNextMessageBox(QString* text) {
  QTimer::singleShot(50, [text] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
        if (text) *text = box->text();
        box->accept();
        return;
      }
  });
}

}  // namespace

class TestGuiMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // recent files go to a test location
    QVERIFY(dir_.isValid());
  }

  void units() {
    const ComponentType* tank = Registry::instance().find("reservoir");
    QVERIFY(tank);
    const ParamDecl* V = tank->param("V");
    const ParamDecl* p0 = tank->param("p0");
    QVERIFY(V && p0);
    // volumes: cm3 up to 1 l, litres above
    QCOMPARE(units::forParam(*V, 1e-3).unit, QString("cm3"));
    QCOMPARE(units::forParam(*V, 2e-3).unit, QString("l"));
    QVERIFY(std::abs(units::forParam(*V, 2e-3).toDisplay(2e-3) - 2.0) < 1e-12);
    // gauge pressure by default for p0 and for channels (issue #25: one
    // pressure scale everywhere; channels were absolute before)
    const auto g = units::forParam(*p0, 701325.0);
    QCOMPARE(g.unit, QString("bar (g)"));
    QVERIFY(std::abs(g.toDisplay(701325.0) - 6.0) < 1e-12);
    QVERIFY(std::abs(g.toSi(6.0) - 701325.0) < 1e-6);
    QCOMPARE(units::forChannel("tank.p", "Pa").unit, QString("bar (g)"));
    QVERIFY(std::abs(units::forUnit("m3/(s Pa)").toDisplay(1e-8) - 1.0) < 1e-12);
    QVERIFY(std::abs(units::forUnit("K").toDisplay(293.15) - 20.0) < 1e-9);
    QCOMPARE(units::forUnit("N").unit, QString("N"));
    // typed values with an explicit unit
    QString err;
    auto si = units::parseToSi("2.5 l", *V, units::forParam(*V, 1e-3), &err);
    QVERIFY(si && std::abs(*si - 2.5e-3) < 1e-15);
    si = units::parseToSi("7 bar (abs)", *p0, g, &err);
    QVERIFY(si && std::abs(*si - 7e5) < 1e-6);
    QVERIFY(!units::parseToSi("abc", *V, units::forParam(*V, 1e-3), &err));
    QVERIFY(!units::parseToSi("3 furlongs", *V, units::forParam(*V, 1e-3), &err));
  }

  void openEditRunSaveReload() {
    const QString path = dir_.filePath("circuit.pneumech.json");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(kProject);
    }
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(path));
    QCOMPARE(w.modelTree()->group("circuit")->childCount(), 3);

    // Select the tank in the model tree by clicking its row.
    ModelTree* tree = w.modelTree();
    QTreeWidgetItem* tankItem = tree->itemFor("tank");
    QVERIFY(tankItem);
    QCOMPARE(tankItem->parent(), tree->group("circuit"));
    tree->scrollToItem(tankItem);
    const QRect r = tree->visualItemRect(tankItem);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, r.center());
    QCOMPARE(tree->currentItem(), tankItem);
    QCOMPARE(w.scene()->selectedComponents(), std::set<std::string>{"tank"});

    QTableView* view = w.paramView();
    auto* model = qobject_cast<ParamModel*>(view->model());
    QVERIFY(model);
    QCOMPARE(model->componentId(), std::string("tank"));
    const int row = model->rowOf("V");
    QVERIFY(row >= 0);
    const QModelIndex vIdx = model->index(row, ParamModel::Value);
    QCOMPARE(model->index(row, ParamModel::Unit).data().toString(), QString("cm3"));
    QCOMPARE(vIdx.data().toString(), QString("1000"));  // default 1e-3 m3

    // Type 2500 (cm3) into the cell editor.
    view->setFocus();
    view->setCurrentIndex(vIdx);
    view->edit(vIdx);
    QTest::qWait(20);
    auto* editor = view->findChild<QLineEdit*>();
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, "2500");
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::qWait(20);
    QVERIFY(w.project().find("tank")->params.count("V"));
    QVERIFY(std::abs(w.project().find("tank")->params.at("V") - 2.5e-3) < 1e-15);
    QCOMPARE(model->index(row, ParamModel::Unit).data().toString(), QString("l"));
    QCOMPARE(model->index(row, ParamModel::Value).data().toString(), QString("2.5"));

    // Out of range: refused with a message shown in the property editor,
    // never clamped.
    QVERIFY(!model->setData(model->index(row, ParamModel::Value), "-3", Qt::EditRole));
    QVERIFY(w.propertyEditor()->message().contains("outside"));
    QVERIFY(w.lastError().contains("outside"));
    QVERIFY(std::abs(w.project().find("tank")->params.at("V") - 2.5e-3) < 1e-15);
    // The accepted edit is one undo step; undo restores the type default.
    QVERIFY(w.isModified());
    w.document()->undoStack()->undo();
    QVERIFY(!w.project().find("tank")->params.count("V"));
    w.document()->undoStack()->redo();
    QVERIFY(std::abs(w.project().find("tank")->params.at("V") - 2.5e-3) < 1e-15);

    // A gauge pressure: supply p shown in bar(g).
    QVERIFY(w.selectComponent("src"));
    const int pRow = model->rowOf("p");
    QCOMPARE(model->index(pRow, ParamModel::Unit).data().toString(), QString("bar (g)"));
    QCOMPARE(model->index(pRow, ParamModel::Value).data().toString(), QString("6"));

    // Run on the worker thread; the plot fills while it runs.
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    QVERIFY(w.runner()->isRunning());
    QVERIFY(done.wait(120000));
    QCOMPARE(done.takeFirst().at(0).toBool(), true);
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    QVERIFY(w.statusText().contains("Completed"));
    QVERIFY(w.statusText().contains("real-time factor"));
    QVERIFY(w.resultsPanel()->tree()->channelCount() > 0);
    QVERIFY(w.setChannelChecked("tank.p", true));

    QLineSeries* tankSeries = nullptr;
    for (auto* s : w.chart()->series())
      if (s->name().startsWith("tank.p ")) tankSeries = qobject_cast<QLineSeries*>(s);
    QVERIFY(tankSeries);
    QVERIFY(tankSeries->count() >= 500);  // every output row (t = 0 ... 0.5 s)
    // Final tank pressure (bar (g)) approaches the supply's 6 bar (g).
    const double pEnd = tankSeries->at(tankSeries->count() - 1).y();
    const double pStart = tankSeries->at(0).y();
    QVERIFY2(std::abs(pStart) < 1e-3, qPrintable(QString::number(pStart)));
    QVERIFY2(pEnd > 5.5 && pEnd < 6.01, qPrintable(QString::number(pEnd)));
    const double pStore = w.resultBuffer()->store()->last("tank.p");
    QVERIFY(std::abs((pStore - 101325.0) * 1e-5 - pEnd) < 1e-9);

    // The play button under the schematic replays the run from the start and
    // stops at its end.
    QSlider* slider = w.timeSlider();
    QToolButton* play = w.timePlayButton();
    QVERIFY(play->isEnabled());
    // The run itself played in the views at real speed (the default): done
    // after t_end = 0.5 s, at the last row.
    QTRY_VERIFY_WITH_TIMEOUT(!play->isChecked(), 10000);
    QCOMPARE(slider->value(), slider->maximum());
    QTest::mouseClick(play, Qt::LeftButton);
    QVERIFY(play->isChecked());
    QVERIFY(slider->value() < slider->maximum());
    QTRY_VERIFY_WITH_TIMEOUT(slider->value() > 0, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!play->isChecked(), 10000);
    QCOMPARE(slider->value(), slider->maximum());

    // Save to a new file and reload: the edited value survived.
    const QString saved = dir_.filePath("saved.pneumech.json");
    QVERIFY(w.saveProjectAs(saved));
    QCOMPARE(w.currentFile(), saved);
    const Project back = engine::load(saved.toStdString());
    QVERIFY(back.find("tank")->params.count("V"));
    QVERIFY(std::abs(back.find("tank")->params.at("V") - 2.5e-3) < 1e-15);
    MainWindow w2;
    QVERIFY(w2.openProject(saved));
    QVERIFY(w2.selectComponent("tank"));
    auto* m2 = qobject_cast<ParamModel*>(w2.paramView()->model());
    QCOMPARE(m2->index(m2->rowOf("V"), ParamModel::Value).data().toString(), QString("2.5"));
  }

  // Issue 28, point 7: the main toolbar's buttons stay where they are when
  // an edit makes the Undo action's text longer ("Undo <the edit's name>").
  void toolbarStaysPutAfterAnEdit() {
    const QString path = dir_.filePath("toolbar.pneumech.json");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(kProject);
    }
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(path));
    auto* bar = w.findChild<QToolBar*>("mainToolBar");
    QVERIFY(bar);
    auto places = [&] {
      std::vector<QRect> r;
      for (QAction* a : bar->actions())
        if (QWidget* b = bar->widgetForAction(a)) r.push_back(b->geometry());
      return r;
    };
    QTest::qWait(20);
    const std::vector<QRect> before = places();
    QVERIFY(before.size() > 8);
    w.document()->edit("Set the restriction's flow coefficient to a value with a long name",
                       [](Project& p) { p.find("r1")->params["C"] = 2e-7; });
    QTest::qWait(20);
    QVERIFY(w.document()->undoStack()->undoText().startsWith("Set the restriction"));
    QVERIFY(places() == before);
    w.document()->undoStack()->undo();
    QTest::qWait(20);
    QVERIFY(places() == before);
  }

  // Issue 28, point 4: Ctrl+Z while a property field has the focus undoes
  // the last edit (a committed mass), and Ctrl+Shift+Z redoes it; typing not
  // yet committed is undone in the field first, the model untouched.
  void undoKeysWhileAFieldHasFocus() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(QString(PM_SOURCE_DIR) + "/projects/pendulum.pneumech.json"));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    w.selection()->select("bob");
    QTRY_VERIFY(w.propertyEditor()->mechanismForm()->fieldEditor("mass"));
    auto* mass = qobject_cast<QLineEdit*>(w.propertyEditor()->mechanismForm()->fieldEditor("mass"));
    QVERIFY(mass);
    QTRY_VERIFY(mass->isVisible());
    const QString shown = mass->text();
    auto bob = [&] { return w.project().mechanism.part("bob")->mass; };
    QCOMPARE(bob(), 1.0);
    QTest::mouseClick(mass, Qt::LeftButton);
    QTRY_VERIFY(mass->hasFocus());
    mass->selectAll();
    QTest::keyClicks(mass, "3");
    QTest::keyClick(mass, Qt::Key_Return);
    QCOMPARE(bob(), 3.0);
    QVERIFY(mass->hasFocus());
    QTest::keyClick(mass, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(bob(), 1.0);
    QCOMPARE(mass->text(), shown);
    QTest::keyClick(mass, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(bob(), 3.0);
    // Typing not committed: the field's own undo, the model as it was.
    const QString three = mass->text();
    QTest::keyClicks(mass, "7");
    QCOMPARE(mass->text(), three + "7");
    QTest::keyClick(mass, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(bob(), 3.0);
    QCOMPARE(mass->text(), three);
  }

  void stopCancels() {
    const QString path = dir_.filePath("long.pneumech.json");
    {
      std::string text = kProject;
      text.replace(text.find("\"t_end\": 0.5"), 12, "\"t_end\": 500");
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text.c_str());
    }
    MainWindow w;
    QVERIFY(w.openProject(path));
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    w.runSimulation();
    // Stopped while its worker runs; not after a wait: a fast machine ran
    // the 500 s to the end within 100 ms, and Stop then had nothing to stop.
    QVERIFY(w.runner()->isRunning());
    w.stopSimulation();
    QVERIFY(done.wait(60000));
    QCOMPARE(w.runner()->lastResult().status, RunStatus::Cancelled);
    QVERIFY(w.statusText().contains("Cancelled"));
  }

  void openErrorShowsMessage() {
    const QString path = dir_.filePath("bad.pneumech.json");
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("{ not json");
    }
    MainWindow w;
    QString boxText;
    closeNextMessageBox(&boxText);
    QVERIFY(!w.openProject(path));
    QVERIFY(boxText.contains("bad.pneumech.json"));
    QCOMPARE(w.lastError(), boxText);
  }

  // A project carrying user components (issue 24): once open, the library
  // lists them beside the built-in types, marked, and the sheet draws them
  // (a generated box: they have no symbol files).
  void userComponentsInTheLibrary() {
    const QString path = QString::fromStdString(std::string(PM_SOURCE_DIR) +
                                                "/projects/user_components/seed003_user_rc.pneumech.json");
    MainWindow w;
    QVERIFY(!w.libraryPanel()->itemOf("user_chamber"));  // not registered before the project brings it
    QVERIFY(w.openProject(path));
    QTreeWidgetItem* item = w.libraryPanel()->itemOf("user_chamber");
    QVERIFY(item);
    QVERIFY(item->text(0).contains("(user)"));
    QVERIFY(item->font(0).italic());
    QVERIFY(item->toolTip(0).contains("seed003_user_rc.pneumech.json"));
    QTreeWidgetItem* builtIn = w.libraryPanel()->itemOf("reservoir");
    QVERIFY(builtIn && !builtIn->text(0).contains("(user)"));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiMainWindow)
#include "test_gui_main_window.moc"
