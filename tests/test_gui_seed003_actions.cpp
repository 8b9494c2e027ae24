// Issue 25's "Done when": a new user draws the seed 003 circuit (supply,
// 5/2 valve with solenoid and spring return, one-way flow control in the
// rod-side line (meter-out), double-acting cylinder; Sakurai et al., fig. 8)
// from an empty project, runs it, and sees pressure and position plots, in at
// most 20 actions and without a dead end. Every action is a real input event
// on the widget a user would aim at, counted as it is made:
//   one click, one drag (a library drop, a port-to-port line), one typed
//   value (keys then Return), one key shortcut.
// The drops are delivered as the enter/move/drop events a drag ends in
// (support/drop_events.h: QDrag cannot run on the offscreen platform).
//
// The sequence (20 actions):
//    1      click "New circuit" on the start page
//    2      drag the 5/2 valve from the library onto the sheet (it is selected)
//    3-4    open its solenoid 14 field, click "Add a time switch here"
//    5      drag the double-acting cylinder onto the sheet (selected)
//    6-7    click its stroke, type 200 (mm) and Return
//    8-10   click its mass, type 5 (kg) and Tab (the editor moves on to the
//           load, the next parameter), type 50 (N) and Return
//    11     drag the supply onto the sheet (selected)
//    12-13  click its pressure, type 5 (bar (g))
//    14-16  three lines, port to port: 1 -> valve 1, valve 4 -> cylinder A,
//           valve 2 -> cylinder B
//    17     drag the one-way flow control onto the rod-side line: it goes
//           into it (valve 2 -> flow control 1, flow control 2 -> cylinder B)
//    18-19  click its throttle C_max, type 0.8 (dm3/(s bar), seed 003's value)
//    20     click Run
// Every parameter of the circuit drawn then equals seed 003's example
// project (projects/seed003_meter_out): typed, or the library's default.
// The run's first plot shows the chamber pressures and the second the piston
// position without any further action (ResultsPanel's default channels).
#include "document.h"
#include "engine/engine.h"
#include "model/component_type.h"
#include "library_panel.h"
#include "main_window.h"
#include "param_model.h"
#include "plot_pane.h"
#include "project_checks.h"
#include "property_editor.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "simulation_runner.h"
#include "schematic_view.h"
#include "start_page.h"
#include "support/drop_events.h"
#include "support/studio_window.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QStyleOptionComboBox>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include <algorithm>
#include <memory>

using namespace pm;
using namespace pm::gui;

namespace {

// The user's hands: every method is one counted action.
class User {
 public:
  explicit User(MainWindow& w) : w_(w) {}
  int actions() const { return n_; }
  const QStringList& log() const { return log_; }

  void click(QWidget* target, QPoint at, const QString& what) {
    count(what);
    QTest::mouseClick(target, Qt::LeftButton, {}, at);
    QTest::qWait(20);
  }

  // Drags library entry `type` (visible in the library without scrolling)
  // to scene point `at`; returns the new component's id.
  std::string dropFromLibrary(const QString& type, QPointF at) {
    QTreeWidget* tree = w_.libraryPanel()->tree();
    QTreeWidgetItem* item = w_.libraryPanel()->itemOf(type);
    if (!item) return {};
    const QRect r = tree->visualItemRect(item);
    if (!tree->viewport()->rect().contains(r)) {
      qWarning("%s is not in view in the library", qPrintable(type));
      return {};
    }
    std::unique_ptr<QMimeData> mime(tree->model()->mimeData({tree->indexFromItem(item)}));
    SchematicView* view = w_.schematicView();
    const QPoint p = view->mapFromScene(at);
    if (!view->viewport()->rect().contains(p)) {
      qWarning("drop point of %s outside the sheet's view", qPrintable(type));
      return {};
    }
    count("drag " + type + " onto the sheet");
    const size_t before = w_.project().components.size();
    if (!pm::test::deliverDrop(view->viewport(), p, mime.get())) return {};
    QTest::qWait(20);
    return w_.project().components.size() == before + 1 ? w_.project().components.back().id : std::string();
  }

  // Mouse drag from one port to another (viewport pixels, no zoom by the test).
  void dragPorts(const std::string& a, const std::string& pa, const std::string& b, const std::string& pb) {
    SchematicView* view = w_.schematicView();
    const QPoint from = view->mapFromScene(*w_.scene()->portPos({a, pa}));
    const QPoint to = view->mapFromScene(*w_.scene()->portPos({b, pb}));
    count(QString::fromStdString("line " + a + "." + pa + " -> " + b + "." + pb));
    QWidget* vp = view->viewport();
    QTest::mousePress(vp, Qt::LeftButton, {}, from);
    QTest::mouseMove(vp, (from + to) / 2);
    QTest::mouseMove(vp, to);
    QTest::mouseRelease(vp, Qt::LeftButton, {}, to);
    QTest::qWait(20);
  }

  // Clicks the value cell of `param` in the property editor, then types
  // `text` and `end` (the cell edits on the first key): two actions.
  bool setParam(const std::string& param, const QString& text, Qt::Key end = Qt::Key_Return) {
    QTableView* table = w_.paramView();
    ParamModel* model = w_.propertyEditor()->model();
    const int row = model->rowOf(param);
    if (row < 0) return false;
    const QModelIndex idx = model->index(row, ParamModel::Value);
    const QRect cell = table->visualRect(idx);
    if (!table->viewport()->rect().contains(cell.center())) {
      qWarning("%s not in view in the property editor", param.c_str());
      return false;
    }
    click(table->viewport(), cell.center(), QString::fromStdString("click " + param));
    count(QString::fromStdString("type " + param + " ") + text);
    // Each key to the widget with the focus: the table, then its editor.
    if (QApplication::focusWidget() != table) {
      qWarning("the click left the focus on %s", QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "nothing");
      return false;
    }
    return type(text, end);
  }

  // Types `text` and `end` (Return, or Tab: on to the next parameter's
  // editor) into the widget with the focus: one action.
  bool typeValue(const QString& text, Qt::Key end = Qt::Key_Return) {
    count("type " + text);
    return type(text, end);
  }

  // Opens an editable combo box's list with a click on its arrow and clicks
  // the entry `text`: two actions.
  bool pick(QComboBox* box, const QString& text) {
    QStyleOptionComboBox opt;
    opt.initFrom(box);
    opt.editable = box->isEditable();
    opt.subControls = QStyle::SC_All;
    const QRect arrow = box->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxArrow, box);
    click(box, arrow.center(), "open " + box->objectName());
    QAbstractItemView* view = box->view();
    if (!view->isVisible() || !QTest::qWaitForWindowExposed(view->window())) return false;
    // A release just after the popup opened is taken as the end of the
    // opening press (press-drag-release): a user's second click comes later.
    QTest::qWait(QApplication::doubleClickInterval() + 50);
    const int i = box->findText(text);
    if (i < 0) return false;
    const QRect r = view->visualRect(view->model()->index(i, 0));
    if (!view->viewport()->rect().contains(r.center())) return false;
    click(view->viewport(), r.center(), "pick " + text);
    return true;
  }

 private:
  bool type(const QString& text, Qt::Key end) {
    if (!QApplication::focusWidget()) return false;
    for (const QChar ch : text) QTest::keyClick(QApplication::focusWidget(), ch.toLatin1());
    QTest::keyClick(QApplication::focusWidget(), end);
    if (!w_.propertyEditor()->message().isEmpty()) qWarning("%s", qPrintable(w_.propertyEditor()->message()));
    QTest::qWait(20);
    return true;
  }

  void count(const QString& what) {
    ++n_;
    log_ << QString("%1. %2").arg(n_).arg(what);
  }
  MainWindow& w_;
  int n_ = 0;
  QStringList log_;
};

QToolButton* toolbarButton(MainWindow& w, const QString& text) {
  for (QToolBar* tb : w.findChildren<QToolBar*>())
    for (QAction* a : tb->actions())
      if (a->text().remove('&') == text)
        if (auto* b = qobject_cast<QToolButton*>(tb->widgetForAction(a))) return b;
  return nullptr;
}

bool connected(const Project& p, const std::string& a, const std::string& b) {
  for (const Connection& k : p.connections)
    if ((k.from.str() == a && k.to.str() == b) || (k.from.str() == b && k.to.str() == a)) return true;
  return false;
}

double paramOf(const Project& p, const std::string& id, const std::string& name) {
  const Component* c = p.find(id);
  return c && c->params.count(name) ? c->params.at(name) : -1.0;
}

// Every parameter of every component of `p` (typed, or the library's
// default) equals seed 003's example project, to the last bits of the unit
// conversion (0.8 dm3/(s bar) * 1e-8 and 5 bar + 101325 Pa).
void expectSeed003Values(const Project& p) {
  const Project seed = engine::load(pm::test::examplePath("seed003_meter_out").toStdString());
  QCOMPARE(seed.components.size(), p.components.size());
  for (const Component& want : seed.components) {
    const auto got = std::find_if(p.components.begin(), p.components.end(),
                                  [&](const Component& c) { return c.type == want.type; });
    QVERIFY2(got != p.components.end(), want.type.c_str());
    const ComponentType* t = Registry::instance().find(want.type);
    QVERIFY(t);
    for (const ParamDecl& d : t->params) {
      const double a = paramValue(*got, *t, d.name), b = paramValue(want, *t, d.name);
      QVERIFY2(std::abs(a - b) <= 1e-12 * std::abs(b),
               qPrintable(QString("%1.%2: drawn %3, seed 003 %4")
                              .arg(QString::fromStdString(got->id), QString::fromStdString(d.name))
                              .arg(a, 0, 'g', 17)
                              .arg(b, 0, 'g', 17)));
    }
  }
}

}  // namespace

class TestGuiSeed003Actions : public QObject {
  Q_OBJECT
 private slots:
  void seed003InTwentyActions() {
    MainWindow w;
    QVERIFY(pm::test::showWindow(w, pm::test::kLargeWindow));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.isShowingStartPage());
    User u(w);

    // 1: New circuit.
    auto* startNew = w.startPage()->findChild<QPushButton*>("startNew");
    QVERIFY(startNew);
    u.click(startNew, startNew->rect().center(), "click New circuit");
    QVERIFY(!w.isShowingStartPage());
    QVERIFY(w.project().components.empty());

    // The sheet as the user finds it: where the symbols go, in its view
    // (ISO 1219-2: supply at the bottom, valve, flow control, cylinder at the top).
    SchematicView* view = w.schematicView();
    const QPointF c = view->mapToScene(view->viewport()->rect().center());
    auto at = [&](double dx, double dy) { return c + QPointF(dx, dy); };
    qInfo("sheet view %d x %d px, scale %.2f", view->viewport()->width(), view->viewport()->height(), view->transform().m11());

    // 2-4: the valve, and the signal that switches it.
    const std::string v = u.dropFromLibrary("valve_5_2", at(0, 30));
    QVERIFY(!v.empty());
    QCOMPARE(w.propertyEditor()->componentId(), v);  // a drop selects the new symbol
    QComboBox* sol = w.propertyEditor()->inputEditor("sol14");
    QVERIFY(sol);
    QVERIFY(u.pick(sol, "Add a time switch here"));
    QTRY_VERIFY(w.project().find(v)->inputs.count("sol14"));

    // 5-10: the cylinder, its size and load.
    const std::string cyl = u.dropFromLibrary("cylinder_double", at(0, -150));
    QVERIFY(!cyl.empty());
    QCOMPARE(w.propertyEditor()->componentId(), cyl);
    QVERIFY(u.setParam("stroke", "200"));
    QVERIFY(u.setParam("mass", "5", Qt::Key_Tab));
    // Tab ended the mass and opened the load's editor (the next parameter).
    ParamModel* params = w.propertyEditor()->model();
    QCOMPARE(w.paramView()->currentIndex(), params->index(params->rowOf("F_load"), ParamModel::Value));
    QWidget* editor = QApplication::focusWidget();
    QVERIFY(editor && editor != w.paramView() && w.paramView()->isAncestorOf(editor));
    QVERIFY(u.typeValue("50"));

    // 11-13: the supply at 5 bar (g).
    const std::string src = u.dropFromLibrary("supply", at(20, 115));
    QVERIFY(!src.empty());
    QCOMPARE(w.propertyEditor()->componentId(), src);
    QVERIFY(u.setParam("p", "5"));

    // 14-16: the lines.
    u.dragPorts(src, "1", v, "1");
    u.dragPorts(v, "4", cyl, "A");
    u.dragPorts(v, "2", cyl, "B");
    QCOMPARE(w.project().connections.size(), size_t(3));

    // 17: the flow control dropped onto the rod-side line, at the middle of
    // its longest stretch; 18-19: its throttle.
    std::string rodLine;
    for (const Connection& k : w.project().connections)
      if (k.to.str() == cyl + ".B") rodLine = k.id;
    QVERIFY(!rodLine.empty());
    const QPolygonF route = w.scene()->wireItem(rodLine)->route();
    int longest = 0;
    for (int i = 0; i + 1 < route.size(); ++i)
      if (QLineF(route[i], route[i + 1]).length() > QLineF(route[longest], route[longest + 1]).length()) longest = i;
    const std::string fc = u.dropFromLibrary("flow_control_one_way", (route[longest] + route[longest + 1]) / 2);
    QVERIFY(!fc.empty());
    QCOMPARE(w.propertyEditor()->componentId(), fc);
    QVERIFY(u.setParam("C_max", "0.8"));

    // The model is seed 003's circuit.
    const Project& p = w.project();
    QCOMPARE(p.components.size(), size_t(5));
    QCOMPARE(p.find(v)->type, std::string("valve_5_2"));
    QCOMPARE(p.find(fc)->type, std::string("flow_control_one_way"));
    QCOMPARE(p.find(cyl)->type, std::string("cylinder_double"));
    QCOMPARE(p.find(src)->type, std::string("supply"));
    const std::string sw = p.find(v)->inputs.at("sol14");
    const Component* timer = p.find(sw.substr(0, sw.find('.')));
    QVERIFY(timer && timer->type == "time_switch");
    QCOMPARE(p.connections.size(), size_t(4));
    QVERIFY(connected(p, src + ".1", v + ".1"));
    QVERIFY(connected(p, v + ".4", cyl + ".A"));
    QVERIFY(connected(p, v + ".2", fc + ".1"));
    QVERIFY(connected(p, fc + ".2", cyl + ".B"));
    QCOMPARE(paramOf(p, cyl, "stroke"), 0.2);
    QCOMPARE(paramOf(p, cyl, "mass"), 5.0);
    QCOMPARE(paramOf(p, cyl, "F_load"), 50.0);
    // 5 bar (g) over the project's ambient pressure.
    QVERIFY(std::abs(paramOf(p, src, "p") - (5e5 + p.simulation.ambient_pressure)) < 1e-6);
    QVERIFY(std::abs(paramOf(p, fc, "C_max") - 8e-9) < 1e-21);
    expectSeed003Values(p);
    if (QTest::currentTestFailed()) return;
    // No dead end: Check Circuit (asked here, not by the user) finds nothing:
    // no open working port, no solenoid without a signal.
    const auto found = w.runChecks();
    QVERIFY2(found.empty(), qPrintable(found.empty() ? QString() : found.front().text));

    // 20: Run.
    QToolButton* run = toolbarButton(w, "Run");
    QVERIFY(run && run->isEnabled());
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    u.click(run, run->rect().center(), "click Run");
    // (a 1 s run can end within the click's own event processing)
    if (done.isEmpty() && !done.wait(30000))
      QFAIL(qPrintable(QString("the run did not end: running %1, status \"%2\", error \"%3\", warning \"%4\"")
                           .arg(w.runner()->isRunning())
                           .arg(w.statusText(), w.lastError(), w.lastWarning())));
    QCOMPARE(done.at(0).at(0).toBool(), true);
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QVERIFY2(w.lastWarning().isEmpty(), qPrintable(w.lastWarning()));

    qInfo("%s", qPrintable(u.log().join("\n")));
    QVERIFY2(u.actions() <= 20, qPrintable(QString("%1 actions").arg(u.actions())));

    // The plots: chamber pressures in the first pane, the piston position in the second.
    ResultsPanel* rp = w.resultsPanel();
    QVERIFY(rp->paneCount() >= 2);
    const auto& shown0 = rp->pane(0)->channelNames();
    const auto& shown1 = rp->pane(1)->channelNames();
    QVERIFY(std::find(shown0.begin(), shown0.end(), cyl + ".pA") != shown0.end());
    QVERIFY(std::find(shown0.begin(), shown0.end(), cyl + ".pB") != shown0.end());
    QVERIFY(std::find(shown1.begin(), shown1.end(), cyl + ".x") != shown1.end());
    for (const std::string& ch : {cyl + ".pA", cyl + ".pB"}) QVERIFY(rp->pane(0)->series(ch)->count() > 100);
    QVERIFY(rp->pane(1)->series(cyl + ".x")->count() > 100);
    // The simulated cylinder reaches its end: within 1 % of the 200 mm stroke
    // (a stroke ends there, key results' definition), and goes beyond it only
    // by the end stop's compliance (a stiff spring: well under 1 mm).
    ResultBuffer* buf = w.resultBuffer();
    const int kx = buf->find(cyl + ".x");
    QVERIFY(kx >= 0);
    const auto& x = buf->columns()[size_t(kx)];
    const double xMax = *std::max_element(x.begin(), x.end());
    qInfo("piston: x max %.6f m of 0.2 m, at the end of the run %.6f m", xMax, x.back());
    QVERIFY(xMax >= 0.99 * 0.2 && xMax <= 0.2 + 1e-3);
    QVERIFY(x.back() >= 0.99 * 0.2);
    // Supply pressure in chamber A at the end (the valve stays switched): 6.01325 bar abs.
    const int kA = buf->find(cyl + ".pA");
    QVERIFY(std::abs(buf->columns()[size_t(kA)].back() - 601325.0) < 0.01 * 5e5);

    // Looked at: the window after the run, and the plots.
    QVERIFY(w.grab().save(QDir::current().filePath("seed003_actions_window.png")));
    QVERIFY(rp->grab().save(QDir::current().filePath("seed003_actions_plots.png")));
  }
};

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  TestGuiSeed003Actions test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_gui_seed003_actions.moc"
