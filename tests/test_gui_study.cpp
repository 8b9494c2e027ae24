// The studio's Parameter Study dialog as a user drives it: type a bore
// range (in mm, as the property editor shows a bore) into the parameter
// row, run the study on threads, and the table
// holds one row per variant with the bores typed and results equal to
// each variant's own run; the plot shows every finished variant; the
// Pareto front of two objectives matches one worked by hand. Stop ends a
// running study keeping its finished rows; a Latin hypercube sample gives
// the core's sample; a two-parameter grid draws as a heat map, and the study
// goes into the PDF report. A pressure and a length typed in their display
// units reach the core in SI; a change of unit converts the typed values.
#include "document.h"
#include "param_model.h"
#include "report_export.h"
#include "engine/engine.h"
#include "study_dialog.h"
#include "study_plot.h"
#include "support/property_typing.h"
#include "support/test_project.h"
#include "units.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QLabel>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QProcess>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace pm;
using namespace pm::gui;

namespace {

// Clicks `box` open and clicks its entry `index`.
void clickItem(QComboBox* box, int index) {
  box->showPopup();  // what a click on the box does (the offscreen platform takes no click on it)
  QAbstractItemView* view = box->view();
  QVERIFY(QTest::qWaitForWindowExposed(view->window()));
  const QModelIndex idx = view->model()->index(index, 0);
  view->scrollTo(idx);
  QTest::qWait(20);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(idx).center());
  QTRY_VERIFY(!view->isVisible());
}

// Types `text` into line edit `name` of `dlg`, replacing what it held.
// Clicks field `name` of `dlg`, then types `text` over what it holds.
void clickAndType(QWidget& dlg, const char* name, const QString& text) {
  auto* e = dlg.findChild<QLineEdit*>(name);
  QVERIFY2(e, name);
  QTest::mouseClick(e, Qt::LeftButton);
  test::typeInto(e, text);
}

// Fills parameter row `row`: path, from, to, points.
void parameterRow(StudyDialog& dlg, int row, const QString& path, const QString& from, const QString& to,
                  const QString& count) {
  auto* box = dlg.findChild<QComboBox*>(QString("studyPath%1").arg(row));
  QVERIFY(box);
  QTest::mouseClick(box->lineEdit(), Qt::LeftButton);
  QTest::keyClicks(box->lineEdit(), path);
  clickAndType(dlg, qPrintable(QString("studyCell%1_1").arg(row)), from);
  clickAndType(dlg, qPrintable(QString("studyCell%1_2").arg(row)), to);
  clickAndType(dlg, qPrintable(QString("studyCell%1_4").arg(row)), count);
}

int rowsWithStatus(QTableWidget* t, const QString& status) {
  int n = 0;
  for (int r = 0; r < t->rowCount(); ++r)
    n += t->item(r, t->columnCount() - 1) && t->item(r, t->columnCount() - 1)->text() == status;
  return n;
}

}  // namespace

class TestGuiStudy : public QObject {
  Q_OBJECT
  units::PressureScale scale_ = units::PressureScale::Gauge;

 private slots:
  // Pressures in bar (g), whatever the last session chose.
  void initTestCase() {
    scale_ = units::UnitSettings::instance().pressureScale();
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
  }
  void cleanupTestCase() { units::UnitSettings::instance().setPressureScale(scale_); }
  void cleanup() {  // every test starts from the default units
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Gauge);
    units::UnitSettings::instance().setParameterUnit("cylinder_double", "bore", {});
  }

  // (1,5) (2,3) (3,4) (4,1) (2,6) (5,1), NaN: (3,4) is dominated by (2,3),
  // (2,6) by (1,5) and (2,3), (5,1) by (4,1); the NaN point takes no part.
  // The front: (1,5), (2,3), (4,1).
  void paretoByHand() {
    const std::vector<double> x{1, 2, 3, 4, 2, 5, std::nan("")}, y{5, 3, 4, 1, 6, 1, 0};
    QCOMPARE(paretoFront(x, y), (std::vector<size_t>{0, 1, 3}));
  }

  void typeRangeRunAndReadTable() {
    const std::string path = test::projectPath("seed003_meter_out.pneumech.json");
    Document doc;
    doc.reset(engine::load(path), QString::fromStdString(path));
    StudyDialog dlg(&doc);
    dlg.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dlg));

    auto* pathBox = dlg.findChild<QComboBox*>("studyPath0");
    QVERIFY(pathBox && pathBox->count() > 10);  // the components' fields
    QTest::mouseClick(pathBox->lineEdit(), Qt::LeftButton);
    QTest::keyClicks(pathBox->lineEdit(), "cyl1.bore");
    auto type = [&](const char* name, const char* text) {
      auto* e = dlg.findChild<QLineEdit*>(name);
      QVERIFY(e);
      QTest::mouseClick(e, Qt::LeftButton);
      e->selectAll();
      QTest::keyClicks(e, text);
    };
    type("studyCell0_1", "30");  // mm
    type("studyCell0_2", "40");
    type("studyCell0_4", "3");
    auto* results = dlg.findChild<QLineEdit*>("studyResults");
    results->selectAll();
    QTest::keyClicks(results, "cyl1.extend_time, air_per_cycle");
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyRun"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dlg.isFinished(), 180000);

    QTableWidget* t = dlg.table();
    QCOMPARE(t->rowCount(), 3);
    // Each column in its display unit, as the report's plots: the bores typed in mm shown in mm.
    QStringList headers;
    for (int c = 0; c < t->columnCount(); ++c) headers << t->horizontalHeaderItem(c)->text();
    QCOMPARE(headers, (QStringList{"variant", "cyl1.bore [mm]", "cyl1.extend_time [s]", "air_per_cycle [Nl]", "feasible",
                                   "status"}));
    const QStringList bores{"0.03", "0.035", "0.04"}, boresShown{"30", "35", "40"};
    for (int r = 0; r < 3; ++r) {
      QCOMPARE(t->item(r, 1)->text(), boresShown[r]);
      QCOMPARE(t->item(r, t->columnCount() - 1)->text(), QString("ok"));
      // Each row's extend time is that variant's own run, as --set makes it.
      engine::Overrides o;
      o.sets = {"cyl1.bore=" + bores[r].toStdString()};
      const Project pr = engine::load(path, o);
      engine::CompiledProject sim(pr, path);
      ResultStore store;
      QVERIFY(sim.run(store).ok());
      const KeyResults kr = engine::keyResults(pr, store);
      const double own = kr.cylinders.at(0).firstStroke(true)->duration();
      QCOMPARE(t->item(r, 2)->text(), QString::number(own, 'g', 6));
    }
    // Meter-out: the throttle on the rod side sets the speed (v = its volume flow / the annulus),
    // so a larger bore extends more slowly here, and uses more air.
    qInfo("extend times %s %s %s s, air %s %s %s Nl", qPrintable(t->item(0, 2)->text()), qPrintable(t->item(1, 2)->text()),
          qPrintable(t->item(2, 2)->text()), qPrintable(t->item(0, 3)->text()), qPrintable(t->item(1, 3)->text()),
          qPrintable(t->item(2, 3)->text()));
    QVERIFY(t->item(0, 2)->text().toDouble() < t->item(2, 2)->text().toDouble());
    QVERIFY(t->item(0, 3)->text().toDouble() < t->item(2, 3)->text().toDouble());
    QCOMPARE(dlg.plot()->pointCount(), size_t(3));
    QCOMPARE(dlg.plot()->data().xLabel, QString("cyl1.bore [mm]"));  // the axis titles drawn
    QCOMPARE(dlg.plot()->data().yLabel, QString("cyl1.extend_time [s]"));
    for (size_t r = 0; r < 3; ++r) QCOMPARE(dlg.plot()->data().x[r], 30.0 + 5.0 * double(r));
    // Extend time against air, both to minimise: the 30 mm bore is faster and leaner than
    // the others, so it alone is the front.
    dlg.findChild<QComboBox*>("studyPlotX")->setCurrentText("cyl1.extend_time");
    dlg.findChild<QComboBox*>("studyPlotY")->setCurrentText("air_per_cycle");
    QTest::mouseClick(dlg.findChild<QCheckBox*>("studyPareto"), Qt::LeftButton, {}, QPoint(5, 5));
    QCOMPARE(dlg.plot()->front(), (std::vector<size_t>{0}));
    QCOMPARE(dlg.plot()->data().yLabel, QString("air_per_cycle [Nl]"));
    if (const QByteArray shots = qgetenv("PM_STUDY_SNAPSHOTS"); !shots.isEmpty())
      QVERIFY(dlg.grab().save(QString::fromLocal8Bit(shots) + "/study_scatter.png"));
    // Parameter against result: no Pareto line unless asked.
    QTest::mouseClick(dlg.findChild<QCheckBox*>("studyPareto"), Qt::LeftButton, {}, QPoint(5, 5));
    QVERIFY(dlg.plot()->front().empty());
    QTest::mouseClick(dlg.findChild<QCheckBox*>("studyPareto"), Qt::LeftButton, {}, QPoint(5, 5));
  }

  // A sales engineer's study: the supply pressure from 4 to 6 bar gauge and
  // the bore from 30 mm to "4 cm" (a unit typed with the value), typed as
  // the rows show them. The core gets SI: 4 bar (g) over the seed's ambient
  // 101325 Pa is 501325 Pa, 30 mm 0.03 m. View > Pressure Units absolute
  // while the dialog is open shows the same pressures as 5.01325 and 7.01325
  // bar (abs) at once, and the bore's unit chosen cm in its row shows 3 and
  // 4 (the property editor's bore in cm too); the study built again gets
  // the same SI values. Bad input names the row and field and runs nothing.
  void typedInDisplayUnits() {
    const std::string path = test::projectPath("seed003_meter_out.pneumech.json");
    Document doc;
    doc.reset(engine::load(path), QString::fromStdString(path));
    const double ambient = doc.project().simulation.ambient_pressure;
    QCOMPARE(ambient, 101325.0);
    QCOMPARE(units::UnitSettings::instance().ambient(), ambient);
    StudyDialog dlg(&doc);
    dlg.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dlg));
    QCOMPARE(dlg.findChild<QTableWidget*>("studyParameters")->horizontalHeaderItem(3)->text(), QString("Unit"));

    auto choose = [&](int row, const char* param) {
      auto* box = dlg.findChild<QComboBox*>(QString("studyPath%1").arg(row));
      QVERIFY(box);
      QTest::mouseClick(box->lineEdit(), Qt::LeftButton);
      QTest::keyClicks(box->lineEdit(), param);
    };
    auto text = [&](int row, int column) {
      auto* e = dlg.findChild<QLineEdit*>(QString("studyCell%1_%2").arg(row).arg(column));
      return e ? e->text() : QString("(no cell)");
    };
    auto unit = [&](int row) { return dlg.findChild<QComboBox*>(QString("studyUnit%1").arg(row)); };

    // The supply at 5 bar (g): its row in bar (g), From and To a fifth below and above.
    choose(0, "src.p");
    QVERIFY(unit(0));
    QCOMPARE(unit(0)->currentText(), QString("bar (g)"));
    QCOMPARE(text(0, 1), QString("4"));
    QCOMPARE(text(0, 2), QString("6"));
    clickAndType(dlg, "studyCell0_1", "4");
    clickAndType(dlg, "studyCell0_2", "6 bar");  // a bare "bar": gauge, as the row shows
    clickAndType(dlg, "studyCell0_4", "3");
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyAddParameter"), Qt::LeftButton);
    choose(1, "cyl1.bore");
    QCOMPARE(unit(1)->currentText(), QString("mm"));
    const double bore = doc.project().find("cyl1")->params.at("bore");
    QVERIFY(text(1, 1).toDouble() < bore * 1e3 && bore * 1e3 < text(1, 2).toDouble());
    clickAndType(dlg, "studyCell1_1", "30");
    clickAndType(dlg, "studyCell1_2", "4 cm");
    clickAndType(dlg, "studyCell1_4", "2");

    auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); };
    // Run builds the study (the core's StudySetup) and starts it; stopped at once, as only the setup matters here.
    auto buildAndCheck = [&] {
      QTest::mouseClick(dlg.findChild<QPushButton*>("studyRun"), Qt::LeftButton);
      const studies::StudySetup* st = dlg.setup();
      QVERIFY2(st, qPrintable(dlg.findChild<QLabel*>("studyStatus")->text()));
      QCOMPARE(st->study.parameters.size(), size_t(2));
      const studies::StudyParameter& p = st->study.parameters[0];
      const studies::StudyParameter& b = st->study.parameters[1];
      QCOMPARE(p.path, std::string("src.p"));
      QVERIFY2(near(p.from, 4e5 + ambient) && near(p.to, 6e5 + ambient), qPrintable(QString("%1 %2").arg(p.from).arg(p.to)));
      QCOMPARE(p.values.size(), size_t(3));
      for (size_t k = 0; k < 3; ++k) QVERIFY(near(p.values[k], (4.0 + double(k)) * 1e5 + ambient));
      QCOMPARE(b.path, std::string("cyl1.bore"));
      QVERIFY2(near(b.from, 0.03) && near(b.to, 0.04), qPrintable(QString("%1 %2").arg(b.from).arg(b.to)));
      QCOMPARE(b.values.size(), size_t(2));
      QVERIFY(near(b.values[0], 0.03) && near(b.values[1], 0.04));
      QTest::mouseClick(dlg.findChild<QPushButton*>("studyStop"), Qt::LeftButton);
      QTRY_VERIFY_WITH_TIMEOUT(dlg.isFinished(), 60000);
    };
    buildAndCheck();
    // The table's parameter columns in the units typed: the last variant is 6 bar (g), 40 mm.
    QTableWidget* t = dlg.table();
    QCOMPARE(t->rowCount(), 6);
    QCOMPARE(t->horizontalHeaderItem(1)->text(), QString("src.p [bar (g)]"));
    QCOMPARE(t->horizontalHeaderItem(2)->text(), QString("cyl1.bore [mm]"));
    QCOMPARE(t->item(0, 1)->text(), QString("4"));
    QCOMPARE(t->item(5, 1)->text(), QString("6"));
    QCOMPARE(t->item(5, 2)->text(), QString("40"));

    // Absolute pressures: the typed values converted at once, the table too.
    units::UnitSettings::instance().setPressureScale(units::PressureScale::Absolute);
    QCOMPARE(unit(0)->currentText(), QString("bar (abs)"));
    QCOMPARE(text(0, 1), QString("5.01325"));
    QCOMPARE(text(0, 2), QString("7.01325"));
    QCOMPARE(text(1, 1), QString("30"));
    QCOMPARE(t->horizontalHeaderItem(1)->text(), QString("src.p [bar (abs)]"));
    QCOMPARE(t->item(0, 1)->text(), QString("5.01325"));
    // The bore in cm, chosen in its row: the row and the property editor show cm.
    clickItem(unit(1), unit(1)->findText("cm"));
    QCOMPARE(unit(1)->currentText(), QString("cm"));
    QCOMPARE(text(1, 1), QString("3"));
    QCOMPARE(text(1, 2), QString("4"));
    QCOMPARE(t->horizontalHeaderItem(2)->text(), QString("cyl1.bore [cm]"));
    ParamModel editor;
    editor.setComponent(&doc.project(), "cyl1");
    QCOMPARE(editor.index(editor.rowOf("bore"), ParamModel::Unit).data().toString(), QString("cm"));
    if (const QByteArray shots = qgetenv("PM_STUDY_SNAPSHOTS"); !shots.isEmpty())
      QVERIFY(dlg.grab().save(QString::fromLocal8Bit(shots) + "/study_units.png"));
    buildAndCheck();  // the same SI values from the converted cells
    QCOMPARE(t->horizontalHeaderItem(2)->text(), QString("cyl1.bore [cm]"));
    QCOMPARE(t->item(5, 1)->text(), QString("7.01325"));
    QCOMPARE(t->item(5, 2)->text(), QString("4"));

    // Bad input: the row and field named, the study not built, nothing run.
    auto refused = [&](const char* cellName, const QString& typed, const QString& message) {
      auto* e = dlg.findChild<QLineEdit*>(cellName);
      const QString before = e->text();
      clickAndType(dlg, cellName, typed);
      const studies::StudySetup* last = dlg.setup();
      QTest::mouseClick(dlg.findChild<QPushButton*>("studyRun"), Qt::LeftButton);
      QCOMPARE(dlg.findChild<QLabel*>("studyStatus")->text(), message);
      QVERIFY(dlg.setup() == last && !dlg.isRunning());
      clickAndType(dlg, cellName, before);
    };
    refused("studyCell1_1", "abc", "Parameter row 2 (cyl1.bore), From: 'abc' is not a number");
    refused("studyCell1_2", "4 in", "Parameter row 2 (cyl1.bore), To: unknown unit 'in' for bore (shown in cm)");
    refused("studyCell1_1", "5", "Parameter row 2 (cyl1.bore), To: 4 cm must be greater than From (5 cm)");
    refused("studyCell0_1", "-2", "Parameter row 1 (src.p), From: -2 bar (abs) is outside the parameter's range [1e-05, 1000] bar (abs)");
    refused("studyCell0_4", "1", "Parameter row 1 (src.p), Points: expected a whole number of points, 2 or more");
    buildAndCheck();  // the cells as they were: the study builds again
  }

  // Stop while the study runs on one thread: the rows finished stay with
  // their results, the running one is cancelled and the rest never start;
  // the dialog can run again.
  void stopKeepsFinishedRows() {
    const std::string path = test::projectPath("seed003_meter_out.pneumech.json");
    Project pr = engine::load(path);
    pr.simulation.t_end = 30.0;  // a second or more per variant
    Document doc;
    doc.reset(pr, QString::fromStdString(path));
    StudyDialog dlg(&doc);
    dlg.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dlg));
    parameterRow(dlg, 0, "cyl1.bore", "25", "50", "12");
    auto* jobs = dlg.findChild<QSpinBox*>("studyJobs");
    jobs->setValue(1);
    auto* stop = dlg.findChild<QPushButton*>("studyStop");
    QVERIFY(!stop->isEnabled());
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyRun"), Qt::LeftButton);
    QVERIFY(dlg.isRunning() && stop->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(rowsWithStatus(dlg.table(), "ok") >= 2, 120000);
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dlg.isFinished(), 20000);
    QVERIFY(dlg.wasStopped());
    QTableWidget* t = dlg.table();
    const int ok = rowsWithStatus(t, "ok");
    qInfo("stopped after %d of 12 variants", ok);
    QVERIFY(ok >= 2 && ok < 12);
    QCOMPARE(ok + rowsWithStatus(t, "stopped"), 12);
    for (int r = 0; r < 12; ++r) {  // one thread: the finished rows come first
      const bool done = r < ok;
      QCOMPARE(t->item(r, t->columnCount() - 1)->text(), done ? QString("ok") : QString("stopped"));
      QCOMPARE(t->item(r, 2) && !t->item(r, 2)->text().isEmpty(), done);
    }
    QVERIFY(dlg.findChild<QLabel*>("studyStatus")->text().startsWith(QString("Stopped: %1 of 12 variants run").arg(ok)));
    QVERIFY(dlg.findChild<QPushButton*>("studyRun")->isEnabled() && !stop->isEnabled());
    QCOMPARE(dlg.plot()->pointCount(), size_t(ok));
    QCOMPARE(int(dlg.summary().rows.size()), 12);
  }

  // A Latin hypercube of 6 samples with seed 7 over two ranges: the rows are
  // the core's sample (studies::studyVariants of the same definition).
  void latinHypercubeWithSeed() {
    const std::string path = test::projectPath("seed003_meter_out.pneumech.json");
    Document doc;
    doc.reset(engine::load(path), QString::fromStdString(path));
    StudyDialog dlg(&doc);
    dlg.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dlg));
    parameterRow(dlg, 0, "cyl1.bore", "25", "50", "3");  // mm
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyAddParameter"), Qt::LeftButton);
    parameterRow(dlg, 1, "src.p", "3", "6", "3");  // bar (g)
    auto* sampling = dlg.findChild<QComboBox*>("studySampling");
    auto* samples = dlg.findChild<QSpinBox*>("studySamples");
    auto* seed = dlg.findChild<QSpinBox*>("studySeed");
    QVERIFY(!samples->isEnabled() && !seed->isEnabled());
    clickItem(sampling, sampling->findData("latin_hypercube"));
    QVERIFY(samples->isEnabled() && seed->isEnabled());
    samples->selectAll();
    QTest::keyClicks(samples, "6");
    seed->selectAll();
    QTest::keyClicks(seed, "7");
    QCOMPARE(samples->value(), 6);
    QCOMPARE(seed->value(), 7);
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyRun"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dlg.isFinished(), 180000);
    const nlohmann::json st = {{"parameters", {{{"path", "cyl1.bore"}, {"from", 0.025}, {"to", 0.05}},
                                               {{"path", "src.p"}, {"from", 401325}, {"to", 701325}}}},
                               {"sampling", "latin_hypercube"}, {"samples", 6}, {"seed", 7}};
    const auto expect = studies::studyVariants(studies::parseStudy(st, "f", "studies[0]"));
    QTableWidget* t = dlg.table();
    QCOMPARE(t->rowCount(), 6);
    std::set<int> strata;
    for (int r = 0; r < 6; ++r) {
      // In mm and bar (g): the bore in m times 1000, the absolute pressure less 101325 Pa over 1e5.
      QCOMPARE(t->item(r, 1)->text(), QString::number(expect[size_t(r)][0] * 1e3, 'g', 6));
      QCOMPARE(t->item(r, 2)->text(), QString::number((expect[size_t(r)][1] - 101325.0) * 1e-5, 'g', 6));
      QCOMPARE(t->item(r, t->columnCount() - 1)->text(), QString("ok"));
      strata.insert(int((expect[size_t(r)][0] - 0.025) / 0.025 * 6));  // one bore per sixth of the range
    }
    QCOMPARE(strata.size(), size_t(6));
    QVERIFY(!dlg.findChild<QCheckBox*>("studyHeatMap")->isEnabled());  // not a grid
  }

  // Bore x supply pressure, 2 x 2: the heat map's cells hold the table's
  // extend times (cell (i, j) = row 2i + j) and are drawn in the colour of
  // their place in the range: the fastest at the ramp's start, the slowest at
  // its end. The study then goes into the PDF report.
  void heatMapAndReport() {
    const std::string path = test::projectPath("seed003_meter_out.pneumech.json");
    Document doc;
    doc.reset(engine::load(path), QString::fromStdString(path));
    StudyDialog dlg(&doc);
    dlg.resize(1100, 700);
    dlg.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dlg));
    parameterRow(dlg, 0, "cyl1.bore", "30", "40", "2");
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyAddParameter"), Qt::LeftButton);
    parameterRow(dlg, 1, "src.p", "4", "6", "2");
    clickAndType(dlg, "studyResults", "cyl1.extend_time, air_per_cycle");
    clickAndType(dlg, "studyConstraints", "cyl1.extend_time <= 10");
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyRun"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dlg.isFinished(), 180000);
    auto* heat = dlg.findChild<QCheckBox*>("studyHeatMap");
    QVERIFY(heat->isEnabled());
    QTest::mouseClick(heat, Qt::LeftButton, {}, QPoint(5, 5));
    QVERIFY(dlg.plot()->heatMapOn());
    QCOMPARE(dlg.findChild<QComboBox*>("studyHeatValue")->currentText(), QString("cyl1.extend_time"));
    const StudyPlotData& d = dlg.plot()->data();
    // The axes and the colour bar titled with their display units, the grid
    // in the units typed: 30 and 40 mm, 4 and 6 bar (g).
    QCOMPARE(d.heatXLabel, QString("cyl1.bore [mm]"));
    QCOMPARE(d.heatYLabel, QString("src.p [bar (g)]"));
    QCOMPARE(d.zLabel, QString("cyl1.extend_time [s]"));
    QCOMPARE(d.gridX.size(), size_t(2));
    QCOMPARE(d.gridY.size(), size_t(2));
    QCOMPARE(d.gridX[0], 30.0);
    QCOMPARE(d.gridX[1], 40.0);
    QCOMPARE(d.gridY[0], 4.0);
    QCOMPARE(d.gridY[1], 6.0);
    QTableWidget* t = dlg.table();
    QCOMPARE(t->horizontalHeaderItem(1)->text(), QString("cyl1.bore [mm]"));
    QCOMPARE(t->horizontalHeaderItem(2)->text(), QString("src.p [bar (g)]"));
    QCOMPARE(t->item(3, 1)->text(), QString("40"));
    QCOMPARE(t->item(3, 2)->text(), QString("6"));
    size_t lo = 0, hi = 0;
    for (size_t k = 0; k < 4; ++k) {
      QCOMPARE(QString::number(d.z[k], 'g', 6), t->item(int(k), 3)->text());
      if (d.z[k] < d.z[lo]) lo = k;
      if (d.z[k] > d.z[hi]) hi = k;
    }
    QVERIFY(lo != hi);
    const QImage img = dlg.plot()->grab().toImage();
    const QColor cLo = img.pixelColor(dlg.plot()->cellCentre(lo / 2, lo % 2).toPoint());
    const QColor cHi = img.pixelColor(dlg.plot()->cellCentre(hi / 2, hi % 2).toPoint());
    QCOMPARE(cLo, heatColor(0.0));
    QCOMPARE(cHi, heatColor(1.0));
    if (const QByteArray shots = qgetenv("PM_STUDY_SNAPSHOTS"); !shots.isEmpty())
      QVERIFY(dlg.grab().save(QString::fromLocal8Bit(shots) + "/study_heat_map.png"));

    // The report: a study section with the table, the heat map and the chosen design.
    t->selectRow(int(lo));
    const StudySummary summary = dlg.summary();
    QCOMPARE(summary.chosenRow, int(lo));
    QVERIFY(summary.plot.heatMap);
    const Project pr = engine::load(path);
    engine::CompiledProject sim(pr, path);
    ResultStore store;
    QVERIFY(sim.run(store).ok());
    QTemporaryDir dir;
    QString error;
    int without = 0, with = 0;
    QVERIFY2(exportReport(pr, store, dir.path() + "/plain.pdf", &error, QString::fromStdString(path), &without), qPrintable(error));
    QVERIFY2(exportReport(pr, store, dir.path() + "/study.pdf", &error, QString::fromStdString(path), &with, &summary),
             qPrintable(error));
    QCOMPARE(with, without + 1);
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: the report's text not checked");
    QProcess p;
    p.start(pdftotext, {"-layout", dir.path() + "/study.pdf", "-"});
    QVERIFY(p.waitForFinished(60000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY(text.contains("Parameter study"));
    QVERIFY(text.contains("Constraints: cyl1.extend_time <= 10"));
    const QString chosen = QString("Chosen in the study table: variant %1, cyl1.bore = %2 mm, src.p = %3 bar (g)")
                               .arg(lo).arg(t->item(int(lo), 1)->text(), t->item(int(lo), 2)->text());
    QVERIFY2(text.simplified().contains(chosen), qPrintable(chosen));
    QVERIFY(text.contains("Heat map: one cell per variant"));
    for (int r = 0; r < 4; ++r)
      QVERIFY2(text.contains(QRegularExpression(QString("%1( \\(chosen\\))? +%2 +%3 +%4 +%5").arg(r).arg(t->item(r, 1)->text(),
                                                  t->item(r, 2)->text(), t->item(r, 3)->text(), t->item(r, 4)->text()))),
               qPrintable(QString("row %1 missing").arg(r)));
  }
};

QTEST_MAIN(TestGuiStudy)
#include "test_gui_study.moc"
