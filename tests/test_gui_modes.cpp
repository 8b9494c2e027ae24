// The modes of the machine in the studio (issue #22), offscreen (no 3D
// view: tests/test_gui3d_modes.cpp animates them):
//  - Analysis > Modes shows the Modes dock; Compute lists, for the seed 001
//    flexible link, the same oscillating modes `pneumech modal` finds
//    (engine::modal), with their frequency, damping ratio and the beam
//    taking part; selecting a row animates that mode (one period of rows
//    whose tip node moves), Stop ends it;
//  - a static equilibrium that does not exist (the link driven by a torque)
//    is said in the panel, not thrown;
//  - ticking "Table of the lowest modes" in Report Settings writes
//    report.modes into the project, and the PDF report then holds the table
//    of the lowest modes with the frequencies engine::modal gives (pdftotext).
#include "document.h"
#include "main_window.h"
#include "modes_panel.h"
#include "report_export.h"
#include "report_settings_dialog.h"
#include "result_buffer.h"
#include "support/studio_window.h"

#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::runToEnd;
using pm::test::showProject;

namespace {

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(name); }

template <class T>
T* child(QWidget* w, const char* name) {
  T* c = w->findChild<T*>(name);
  if (!c) qWarning("no %s", name);
  return c;
}

void clickRow(QTableWidget* t, int row) {
  t->scrollToItem(t->item(row, 0));
  QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualItemRect(t->item(row, 0)).center());
}

// Enter is left out in a dialog (it would press OK).
void retype(QAbstractSpinBox* e, const QString& text, bool enter = true) {
  e->setFocus();
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
  if (enter) QTest::keyClick(e, Qt::Key_Enter);
}

std::vector<const Mode*> oscillating(const ModalResult& r) {
  std::vector<const Mode*> out;
  for (const Mode& m : r.modes)
    if (m.oscillating) out.push_back(&m);
  return out;
}

}  // namespace

class TestGuiModes : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void modesTableAndAnimation() {
    MainWindow w;
    const QString file = examplePath("seed001_flexible_link");
    QVERIFY(showProject(w, file, QSize(1400, 900)));
    QVERIFY(w.modesDock()->isHidden());
    action(w, "actionModes")->trigger();
    QVERIFY(w.modesDock()->isVisible());
    ModesPanel* panel = w.modesPanel();
    QTest::mouseClick(child<QPushButton>(panel, "computeModes"), Qt::LeftButton);
    QVERIFY2(panel->result(), qPrintable(child<QLabel>(panel, "modesStatus")->text()));

    const ModalResult expected = engine::modal(w.project(), file.toStdString(), {});
    const auto osc = oscillating(expected);
    QTableWidget* t = panel->table();
    QVERIFY(osc.size() >= 3);
    QCOMPARE(t->rowCount(), int(osc.size()));
    for (int r = 0; r < 3; ++r) {
      qInfo("row %d: mode %s, %s Hz, zeta %s, %s", r, qPrintable(t->item(r, 0)->text()), qPrintable(t->item(r, 1)->text()),
            qPrintable(t->item(r, 2)->text()), qPrintable(t->item(r, 4)->text()));
      QCOMPARE(t->item(r, 1)->text().toDouble(), QString::number(osc[size_t(r)]->frequency, 'g', 6).toDouble());
      QCOMPARE(t->item(r, 2)->text(), QString::number(osc[size_t(r)]->dampingRatio, 'g', 4));
      QVERIFY(t->item(r, 4)->text().contains("link"));
    }
    // Every mode, the non-oscillating ones too (the free rotation on the hub).
    QTest::mouseClick(child<QCheckBox>(panel, "modesShowAll"), Qt::LeftButton);
    QCOMPARE(t->rowCount(), int(expected.modes.size()));
    QTest::mouseClick(child<QCheckBox>(panel, "modesShowAll"), Qt::LeftButton);
    QCOMPARE(t->rowCount(), int(osc.size()));

    // Selecting the second row animates its mode: one period of rows in which the link's tip moves.
    clickRow(t, 1);
    const int mode = t->item(1, 0)->text().toInt() - 1;
    QCOMPARE(panel->animatedMode(), mode);
    const ResultStore* rows = panel->animationRows();
    QVERIFY(rows && rows->rows() == 61);
    auto swing = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end()); };
    // The square link bends in either plane: the tip's sideways swing, y or z.
    const std::string side = swing(rows->column("link_n7.y")) > swing(rows->column("link_n7.z")) ? "link_n7.y" : "link_n7.z";
    const double before = swing(rows->column(side));
    qInfo("tip swings %.6g m along %s at 10 %%", before, side.c_str());
    QVERIFY(before > 1e-3);
    // Twice the amplitude, twice the motion (the slider by keyboard: PageUp is +10 %).
    QSlider* amp = panel->amplitudeSlider();
    amp->setFocus();
    QTest::keyClick(amp, Qt::Key_PageUp);
    QCOMPARE(amp->value(), 20);
    QVERIFY(std::abs(swing(panel->animationRows()->column(side)) - 2 * before) < 1e-9 * before);
    QTest::mouseClick(child<QPushButton>(panel, "stopModeAnimation"), Qt::LeftButton);
    QCOMPARE(panel->animatedMode(), -1);
    QVERIFY(!panel->animationRows());

    // Static equilibrium at 0.5 s: the torque drives the free link, there is none.
    retype(child<QDoubleSpinBox>(panel, "modesAt"), "0.5");
    QTest::mouseClick(child<QCheckBox>(panel, "modesStatic"), Qt::LeftButton);
    QTest::mouseClick(child<QPushButton>(panel, "computeModes"), Qt::LeftButton);
    QVERIFY(!panel->result());
    QCOMPARE(t->rowCount(), 0);
    const QString status = child<QLabel>(panel, "modesStatus")->text();
    qInfo("%s", qPrintable(status));
    QVERIFY(status.contains("failed") && status.contains("static equilibrium"));
  }

  void reportHasTheModesTable() {
    MainWindow w;
    const QString file = examplePath("seed001_flexible_link");
    QVERIFY(showProject(w, file, QSize(1400, 900)));
    w.document()->edit("shorter", [](Project& p) { p.simulation.t_end = 0.3; });
    QCOMPARE(reportSettings(w.project()).modes, 0);
    action(w, "actionReportSettings")->trigger();
    auto* d = w.findChild<ReportSettingsDialog*>();
    QVERIFY(d && QTest::qWaitForWindowExposed(d));
    auto* count = child<QSpinBox>(d, "reportModeCount");
    QVERIFY(!count->isEnabled());
    QTest::mouseClick(child<QCheckBox>(d, "reportModes"), Qt::LeftButton);
    QVERIFY(count->isEnabled());
    retype(count, "4", false);
    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QCOMPARE(reportSettings(w.project()).modes, 4);
    QCOMPARE(w.project().extra["report"]["modes"], nlohmann::json(4));

    QVERIFY(runToEnd(w));
    const QString pdf = dir_.path() + "/modes.pdf";
    QString error;
    QVERIFY2(exportReport(w.project(), *w.resultBuffer()->store(), pdf, &error, file), qPrintable(error));
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: PDF text not checked");
    QProcess p;
    p.start(pdftotext, {"-layout", pdf, "-"});
    QVERIFY(p.waitForFinished(60000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY(text.contains("Modes of the machine") && text.contains("Lowest modes"));
    const ModalResult r = engine::modal(w.project(), file.toStdString(), {});
    const auto osc = oscillating(r);
    QVERIFY(osc.size() >= 5);
    for (size_t i = 0; i < 4; ++i) {
      const QString f = QString::number(osc[i]->frequency, 'g', 5);
      qInfo("mode %zu: %s Hz", i + 1, qPrintable(f));
      QVERIFY2(text.contains(f), qPrintable("no frequency " + f));
    }
    // The lowest four, not the fifth.
    QVERIFY(!text.contains(QString::number(osc[4]->frequency, 'g', 5)));
  }
};

QTEST_MAIN(TestGuiModes)
#include "test_gui_modes.moc"
