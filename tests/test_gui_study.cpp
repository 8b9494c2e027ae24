// The studio's Parameter Study dialog as a user drives it: type a bore
// range into the parameter row, run the study on threads, and the table
// holds one row per variant with the bores typed and results equal to
// each variant's own run; the plot shows every finished variant; the
// Pareto front of two objectives matches one worked by hand.
#include "document.h"
#include "engine/engine.h"
#include "study_dialog.h"
#include "study_plot.h"
#include "support/test_project.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace pm;
using namespace pm::gui;

class TestGuiStudy : public QObject {
  Q_OBJECT
 private slots:
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
    type("studyCell0_1", "0.03");
    type("studyCell0_2", "0.04");
    type("studyCell0_3", "3");
    auto* results = dlg.findChild<QLineEdit*>("studyResults");
    results->selectAll();
    QTest::keyClicks(results, "cyl1.extend_time, air_per_cycle");
    QTest::mouseClick(dlg.findChild<QPushButton*>("studyRun"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dlg.isFinished(), 180000);

    QTableWidget* t = dlg.table();
    QCOMPARE(t->rowCount(), 3);
    QCOMPARE(t->horizontalHeaderItem(1)->text(), QString("cyl1.bore"));
    const QStringList bores{"0.03", "0.035", "0.04"};
    for (int r = 0; r < 3; ++r) {
      QCOMPARE(t->item(r, 1)->text(), bores[r]);
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
    // Extend time against air, both to minimise: the 30 mm bore is faster and leaner than
    // the others, so it alone is the front.
    dlg.findChild<QComboBox*>("studyPlotX")->setCurrentText("cyl1.extend_time");
    dlg.findChild<QComboBox*>("studyPlotY")->setCurrentText("air_per_cycle");
    QTest::mouseClick(dlg.findChild<QCheckBox*>("studyPareto"), Qt::LeftButton, {}, QPoint(5, 5));
    QCOMPARE(dlg.plot()->front(), (std::vector<size_t>{0}));
    // Parameter against result: no Pareto line unless asked.
    QTest::mouseClick(dlg.findChild<QCheckBox*>("studyPareto"), Qt::LeftButton, {}, QPoint(5, 5));
    QVERIFY(dlg.plot()->front().empty());
    QTest::mouseClick(dlg.findChild<QCheckBox*>("studyPareto"), Qt::LeftButton, {}, QPoint(5, 5));
    dlg.grab().save("/tmp/h8_study_dialog.png");
  }
};

QTEST_MAIN(TestGuiStudy)
#include "test_gui_study.moc"
