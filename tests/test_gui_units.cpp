// Pressure units that agree (issue #25 point 3): one studio setting, View >
// Pressure Units, gauge "bar (g)" by default or "bar (abs)", used by the plot
// axes and series, the results tree, the crosshair, the property editor (its
// values, units, ranges, descriptions and what the user types), the
// schematic's colour scale and key data, and CSV files in display units.
// Gauge values are relative to the project's ambient pressure. The numbers
// are checked by hand: gauge = (absolute - ambient) / 1e5 bar.
#include "main_window.h"
#include "param_model.h"
#include "plot_pane.h"
#include "report_export.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "results_tree.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "simulation_runner.h"
#include "time_cursor.h"
#include "units.h"
#include "support/studio_window.h"

#include "engine/engine.h"
#include "model/component_type.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::runToEnd;
using pm::test::showProject;

namespace {

QString plain(QString s) { return s.remove('&'); }

// Clicks through the window's menus as a user does: the menu bar's entry,
// then each submenu, then the last entry (texts compared without '&', by
// their start).
bool clickMenu(QMainWindow& w, const QStringList& path) {
  QMenuBar* bar = w.menuBar();
  QAction* top = nullptr;
  for (QAction* a : bar->actions())
    if (plain(a->text()) == path.front()) top = a;
  if (!top || !top->menu()) return false;
  QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(top).center());
  QMenu* menu = top->menu();
  if (!QTest::qWaitFor([&] { return menu->isVisible(); }, 2000)) return false;
  for (int i = 1; i < path.size(); ++i) {
    QAction* hit = nullptr;
    for (QAction* a : menu->actions())
      if (plain(a->text()).startsWith(path[i])) hit = a;
    if (!hit) return false;
    const QPoint at = menu->actionGeometry(hit).center();
    QTest::mouseMove(menu, at);
    QTest::mouseClick(menu, Qt::LeftButton, {}, at);
    if (i + 1 < path.size()) {
      if (!hit->menu()) return false;
      menu = hit->menu();
      if (!QTest::qWaitFor([&] { return menu->isVisible(); }, 2000)) return false;
    }
  }
  QTest::qWait(20);
  return true;
}

// The title of the y axis that carries `name` in `pane`.
QString axisTitleOf(PlotPane* pane, const std::string& name) {
  QLineSeries* s = pane->series(name);
  if (!s) return {};
  for (QAbstractAxis* a : s->attachedAxes())
    if (a->orientation() == Qt::Vertical) {
      // The axis shows the whole title, or a shorter one with the same unit.
      const QString full = pane->axisTitle(qobject_cast<QValueAxis*>(a));
      if (!full.endsWith(a->titleText().section('[', -1))) return "shown: " + a->titleText();
      return full;
    }
  return {};
}

// seed 003 at another ambient pressure (a plant at altitude), as a file.
QString seed003At(const QTemporaryDir& dir, double ambient) {
  Project p = engine::load(examplePath("seed003_meter_out").toStdString());
  p.simulation.ambient_pressure = ambient;
  const QString path = dir.filePath("seed003_ambient.pneumech.json");
  engine::save(p, path.toStdString());
  return path;
}

// Types `text` into the property editor's value cell of `param` and presses Return.
void typeValue(MainWindow& w, const std::string& param, const QString& text) {
  QTableView* view = w.paramView();
  auto* model = qobject_cast<ParamModel*>(view->model());
  const QModelIndex idx = model->index(model->rowOf(param), ParamModel::Value);
  view->setFocus();
  view->setCurrentIndex(idx);
  view->edit(idx);
  QTest::qWait(20);
  auto* editor = view->findChild<QLineEdit*>();
  QVERIFY(editor);
  editor->selectAll();
  QTest::keyClicks(editor, text);
  QTest::keyClick(editor, Qt::Key_Return);
  QTest::qWait(20);
}

}  // namespace

class TestGuiUnits : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove("units/pressure");
    QVERIFY(dir_.isValid());
  }
  void init() {
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
    units::UnitSettings::instance().setAmbient(units::kStandardAmbient);
  }

  // Every pressure the registry declares has a kind, and the kinds agree
  // with the declarations' own words.
  void kindsOfEveryDeclaredPressure() {
    int levels = 0, gauges = 0, differences = 0;
    for (const ComponentType* t : Registry::instance().all()) {
      for (const ParamDecl& d : t->params) {
        if (d.unit != "Pa") continue;
        const auto k = units::pressureKind(d.name, d.doc);
        const QString doc = QString::fromStdString(d.doc).toLower();
        const QString where = QString::fromStdString(t->name + "." + d.name + ": " + d.doc);
        if (doc.contains("absolute")) QVERIFY2(k == units::PressureKind::Absolute, qPrintable(where));
        else if (doc.contains("gauge")) QVERIFY2(k == units::PressureKind::Gauge, qPrintable(where));
        levels += k == units::PressureKind::Absolute;
        gauges += k == units::PressureKind::Gauge;
        differences += k == units::PressureKind::Difference;
      }
      for (const ChannelDecl& c : t->channels) {
        if (c.unit != "Pa") continue;
        const auto k = units::pressureKind(c.quantity, c.doc);
        const QString doc = QString::fromStdString(c.doc).toLower();
        const QString where = QString::fromStdString(t->name + "." + c.quantity + ": " + c.doc);
        if (doc.contains("gauge")) QVERIFY2(k == units::PressureKind::Gauge, qPrintable(where));
        else QVERIFY2(k == units::PressureKind::Absolute, qPrintable(where));
      }
    }
    QVERIFY(levels >= 8 && gauges >= 2 && differences >= 5);
    QVERIFY(units::pressureKind("beam1.max_stress") == units::PressureKind::Stress);
    QVERIFY(units::pressureKind("n:v1.4.p") == units::PressureKind::Absolute);
    QVERIFY(units::pressureKind("ps1.p_gauge") == units::PressureKind::Gauge);
  }

  // The one conversion, by hand, at the standard and at another ambient.
  void conversionsByHand() {
    using K = units::PressureKind;
    using S = units::PressureScale;
    auto g = units::pressureUnit(K::Absolute, S::Gauge, 101325.0);
    QCOMPARE(g.unit, QString("bar (g)"));
    QVERIFY(std::abs(g.toDisplay(701325.0) - 6.0) < 1e-12);
    QVERIFY(std::abs(g.toSi(6.0) - 701325.0) < 1e-9);
    auto a = units::pressureUnit(K::Absolute, S::Absolute, 101325.0);
    QCOMPARE(a.unit, QString("bar (abs)"));
    QVERIFY(std::abs(a.toDisplay(701325.0) - 7.01325) < 1e-12);
    // At 950 mbar ambient: 6.01325 bar (abs) is 5.06325 bar (g).
    g = units::pressureUnit(K::Absolute, S::Gauge, 95000.0);
    QVERIFY(std::abs(g.toDisplay(601325.0) - 5.06325) < 1e-12);
    // A switch point stored as gauge (p_on 4e5 Pa): 4 bar (g) = 4.95 bar (abs) there.
    QVERIFY(std::abs(units::pressureUnit(K::Gauge, S::Gauge, 95000.0).toDisplay(4e5) - 4.0) < 1e-12);
    QVERIFY(std::abs(units::pressureUnit(K::Gauge, S::Absolute, 95000.0).toDisplay(4e5) - 4.95) < 1e-12);
    // A difference has no reference; a stress is in MPa.
    QCOMPARE(units::pressureUnit(K::Difference, S::Absolute, 95000.0).unit, QString("bar"));
    QVERIFY(std::abs(units::pressureUnit(K::Difference, S::Gauge, 95000.0).toDisplay(5e3) - 0.05) < 1e-15);
    QVERIFY(std::abs(units::pressureUnit(K::Stress, S::Gauge, 1e5).toDisplay(2e8) - 200.0) < 1e-9);

    // Typed pressures: explicit references, and a bare "bar" in the one shown.
    const ParamDecl* p = Registry::instance().find("supply")->param("p");
    QVERIFY(p);
    const auto shownG = units::pressureUnit(K::Absolute, S::Gauge, 101325.0);
    const auto shownA = units::pressureUnit(K::Absolute, S::Absolute, 101325.0);
    QString err;
    auto si = units::parseToSi("6 bar (g)", *p, shownA, &err);
    QVERIFY(si && std::abs(*si - 701325.0) < 1e-9);
    si = units::parseToSi("7 bar (abs)", *p, shownG, &err);
    QVERIFY(si && std::abs(*si - 7e5) < 1e-9);
    si = units::parseToSi("6 bar", *p, shownG, &err);
    QVERIFY(si && std::abs(*si - 701325.0) < 1e-9);
    si = units::parseToSi("6 bar", *p, shownA, &err);
    QVERIFY(si && std::abs(*si - 6e5) < 1e-9);
    si = units::parseToSi("5 barg", *p, shownA, &err);
    QVERIFY(si && std::abs(*si - 601325.0) < 1e-9);
    si = units::parseToSi("600 kPa (abs)", *p, shownG, &err);
    QVERIFY(si && std::abs(*si - 6e5) < 1e-9);
    si = units::parseToSi("600000 Pa", *p, shownG, &err);  // the SI value as stored
    QVERIFY(si && std::abs(*si - 6e5) < 1e-9);
    QVERIFY(!units::parseToSi("6 psi", *p, shownG, &err));
    const ParamDecl* crack = Registry::instance().find("flow_control_one_way")->param("p_crack");
    QVERIFY(crack);
    QVERIFY(!units::parseToSi("0.1 bar (g)", *crack, units::forParam(*crack, 1e4), &err));  // a difference
  }

  // Switching View > Pressure Units changes every view at once, by the same
  // numbers; the setting is remembered.
  void switchUnitsEverywhere() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1500, 1000)));
    QVERIFY(runToEnd(w));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    ResultsPanel* panel = w.resultsPanel();
    ResultBuffer* data = w.resultBuffer();
    PlotPane* pane = panel->pane(0);
    QVERIFY(pane->hasChannel("cyl1.pA"));  // the first run plots the chamber pressures
    w.timeCursor()->seek(0.7);
    QTest::qWait(20);
    const double t = w.timeCursor()->time();
    const int ch = data->find("cyl1.pA");
    const double pSi = data->valueAt(ch, t);
    QVERIFY(pSi > 3e5);
    const double amb = 101325.0;

    // Gauge, the default.
    QCOMPARE(units::UnitSettings::instance().pressureScale(), units::PressureScale::Gauge);
    QCOMPARE(axisTitleOf(pane, "cyl1.pA"), QString("pressure pA, pB [bar (g)]"));
    QTreeWidgetItem* item = panel->tree()->channelItem("cyl1.pA");
    QVERIFY(item);
    item->parent()->setExpanded(true);
    panel->tree()->setTime(t);
    QCOMPARE(item->text(0), QString("pA [bar (g)]"));
    const double treeG = item->text(1).toDouble();
    QVERIFY2(std::abs(treeG - (pSi - amb) / 1e5) < 1e-5, qPrintable(item->text(1)));
    QLineSeries* s = pane->series("cyl1.pA");
    QVERIFY(s && s->count() == int(data->rows()));
    const double yG = s->at(700).y();
    QVERIFY(std::abs(yG - (data->columns()[size_t(ch)][700] - amb) / 1e5) < 1e-12);
    SchematicView* view = w.schematicView();
    QVERIFY(view->legendVisible());
    QCOMPARE(view->legendUnit(), QString("bar (g)"));
    QCOMPARE(view->legendTicks(), QStringList({"0", "1.25", "2.5", "3.75", "5"}));  // supply 5 bar (g)
    QCOMPARE(w.scene()->componentItem("src")->keyDataText(), QString("5 bar (g)"));
    QVERIFY(w.selectComponent("src"));
    auto* model = qobject_cast<ParamModel*>(w.paramView()->model());
    const int pRow = model->rowOf("p");
    QCOMPARE(model->index(pRow, ParamModel::Unit).data().toString(), QString("bar (g)"));
    QCOMPARE(model->index(pRow, ParamModel::Value).data().toString(), QString("5"));
    const QString docG = model->index(pRow, ParamModel::Doc).data().toString();
    QVERIFY2(!docG.contains("absolute", Qt::CaseInsensitive) && docG.contains("gauge"), qPrintable(docG));
    pane->setCrosshair(t);
    QVERIFY2(pane->crosshairText().contains("cyl1.pA = " + units::formatNumber((pSi - amb) / 1e5) + " bar (g)"),
             qPrintable(pane->crosshairText()));

    // The user picks View > Pressure Units > Absolute.
    QVERIFY(clickMenu(w, {"View", "Pressure Units", "Absolute"}));
    QCOMPARE(units::UnitSettings::instance().pressureScale(), units::PressureScale::Absolute);
    QCOMPARE(QSettings().value("units/pressure").toString(), QString("absolute"));
    QVERIFY(w.findChild<QAction*>("actionPressureAbsolute")->isChecked());
    QVERIFY(!w.findChild<QAction*>("actionPressureGauge")->isChecked());
    QCOMPARE(axisTitleOf(pane, "cyl1.pA"), QString("pressure pA, pB [bar (abs)]"));
    QCOMPARE(item->text(0), QString("pA [bar (abs)]"));
    const double treeA = item->text(1).toDouble();
    QVERIFY2(std::abs(treeA - pSi / 1e5) < 1e-5, qPrintable(item->text(1)));
    QVERIFY(std::abs(treeG - (treeA - amb / 1e5)) < 2e-5);
    s = pane->series("cyl1.pA");
    QVERIFY(s);
    QVERIFY(std::abs(s->at(700).y() - (yG + amb / 1e5)) < 1e-12);
    QVERIFY(s->name().endsWith("[bar (abs)]"));
    QCOMPARE(view->legendUnit(), QString("bar (abs)"));
    QCOMPARE(view->legendTicks(), QStringList({"1.01", "2.26", "3.51", "4.76", "6.01"}));
    QCOMPARE(w.scene()->componentItem("src")->keyDataText(), QString("6.01 bar (abs)"));
    QCOMPARE(model->index(pRow, ParamModel::Unit).data().toString(), QString("bar (abs)"));
    QCOMPARE(model->index(pRow, ParamModel::Value).data().toString(), QString("6.01325"));
    QVERIFY(model->index(pRow, ParamModel::Doc).data().toString().contains("(absolute)"));
    w.grab().save(QDir::current().filePath("gui_units_absolute.png"));  // for a look
    // A difference stays a difference: fc1's cracking pressure, 0.1 bar either way.
    QVERIFY(w.selectComponent("fc1"));
    QCOMPARE(model->index(model->rowOf("p_crack"), ParamModel::Unit).data().toString(), QString("bar"));
    QCOMPARE(model->index(model->rowOf("p_crack"), ParamModel::Value).data().toString(), QString("0.1"));

    // Typing in the absolute scale: "4" is 4 bar (abs); "4 bar (g)" is 4 bar above ambient.
    QVERIFY(w.selectComponent("src"));
    typeValue(w, "p", "4");
    QVERIFY(std::abs(w.project().find("src")->params.at("p") - 4e5) < 1e-6);
    typeValue(w, "p", "4 bar (g)");
    QVERIFY(std::abs(w.project().find("src")->params.at("p") - 501325.0) < 1e-6);
    QCOMPARE(model->index(pRow, ParamModel::Value).data().toString(), QString("5.01325"));

    // And back to gauge.
    QVERIFY(clickMenu(w, {"View", "Pressure Units", "Gauge"}));
    QCOMPARE(QSettings().value("units/pressure").toString(), QString("gauge"));
    QCOMPARE(model->index(pRow, ParamModel::Value).data().toString(), QString("4"));
    typeValue(w, "p", "5");
    QVERIFY(std::abs(w.project().find("src")->params.at("p") - 601325.0) < 1e-6);
  }

  // The PDF report labels its pressures in the studio's setting as well.
  void reportFollowsTheSetting() {
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: PDF text not checked");
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1500, 1000)));
    QVERIFY(runToEnd(w));
    QVERIFY(clickMenu(w, {"View", "Pressure Units", "Absolute"}));
    auto text = [&](const QString& pdf) {
      QString err;
      if (!exportReport(w.project(), *w.resultBuffer()->store(), pdf, &err, w.currentFile())) return err;
      QProcess p;
      p.start(pdftotext, {pdf, "-"});
      p.waitForFinished(30000);
      return QString::fromUtf8(p.readAllStandardOutput()).simplified();
    };
    const QString abs = text(dir_.filePath("abs.pdf"));
    // The peaks table's two columns and the pressure plot's two legend entries.
    QVERIFY2(abs.count("[bar (abs)]") >= 4 && abs.contains("chamber A pressure [bar (abs)]"), qPrintable(abs));
    // The assumptions state the supply in the setting's scale alone (the
    // report follows the one setting; the ambient is the only absolute
    // value a gauge report states).
    QVERIFY2(abs.contains(": 6.01325 bar (abs), 20 °C, constant."), qPrintable(abs));
    QVERIFY(!abs.contains("bar (g)"));
    QVERIFY(abs.contains("Pressures are absolute, bar (abs)."));
    QVERIFY(!abs.contains("bar (g)]"));
    QVERIFY(clickMenu(w, {"View", "Pressure Units", "Gauge"}));
    const QString gauge = text(dir_.filePath("gauge.pdf"));
    QVERIFY(gauge.count("[bar (g)]") >= 4 && gauge.contains("chamber A pressure [bar (g)]"));
    QVERIFY(!gauge.contains("bar (abs)]"));
  }

  // Gauge values are relative to the project's own ambient pressure.
  void projectAmbient() {
    MainWindow w;
    QVERIFY(showProject(w, seed003At(dir_, 95000.0), QSize(1500, 1000)));
    QCOMPARE(units::UnitSettings::instance().ambient(), 95000.0);
    QVERIFY(w.selectComponent("src"));
    auto* model = qobject_cast<ParamModel*>(w.paramView()->model());
    const int pRow = model->rowOf("p");
    QCOMPARE(model->index(pRow, ParamModel::Value).data().toString(), QString("5.06325"));  // (601325 - 95000) / 1e5
    QVERIFY(runToEnd(w));
    QVERIFY2(w.runner()->lastResult().ok(), w.runner()->lastResult().message.c_str());
    ResultBuffer* data = w.resultBuffer();
    const int ch = data->find("cyl1.pB");
    QLineSeries* s = w.resultsPanel()->pane(0)->series("cyl1.pB");
    QVERIFY(s);
    QVERIFY(std::abs(s->at(0).y() - (data->columns()[size_t(ch)][0] - 95000.0) / 1e5) < 1e-12);
    QCOMPARE(w.schematicView()->legendTicks().front(), QString("0"));
    QCOMPARE(w.schematicView()->legendTicks().back(), QString("5.06"));
    // Another project: its ambient (the standard one) again.
    QVERIFY(w.openProject(examplePath("seed003_meter_out")));
    QCOMPARE(units::UnitSettings::instance().ambient(), 101325.0);
    QVERIFY(w.selectComponent("src"));
    QCOMPARE(model->index(model->rowOf("p"), ParamModel::Value).data().toString(), QString("5"));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiUnits)
#include "test_gui_units.moc"
