// The studio's run and report dialogs, driven by clicks and typing:
// - Report settings: a plot with two channels picked from the run's channel
//   list and a title is added; the project's "report" section changes, undo
//   restores it, and the exported PDF shows the plot under its title.
// - Simulation settings: end time, output interval and the co-simulation
//   coupling with its exchange interval (typed in ms) reach the project
//   through the undo stack; bad values keep the dialog open with a message.
// - Pane export: the PNG has the size typed into the export size dialog.
// - Project properties: title, customer, author, description, logo and the
//   required cycle time typed in, undone, saved, and shown in the report
//   without the technical notes.
#include "document.h"
#include "export_size_dialog.h"
#include "main_window.h"
#include "plot_pane.h"
#include "project_properties_dialog.h"
#include "report_export.h"
#include "report_settings_dialog.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "simulation_runner.h"
#include "simulation_settings_dialog.h"
#include "engine/engine.h"
#include "support/studio_window.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QLineSeries>
#include <QSpinBox>
#include <QTimer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <set>

using namespace pm;
using namespace pm::gui;
using pm::test::examplePath;
using pm::test::runToEnd;
using pm::test::showProject;

namespace {

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(name); }

void clickItem(QListWidget* list, const QString& text, Qt::KeyboardModifiers mod = Qt::NoModifier) {
  const auto found = list->findItems(text, Qt::MatchExactly);
  QVERIFY2(found.size() == 1, qPrintable(text));
  list->scrollToItem(found[0]);
  QTest::mouseClick(list->viewport(), Qt::LeftButton, mod, list->visualItemRect(found[0]).center());
}

void clickOk(QDialog* d) {
  auto* box = d->findChild<QDialogButtonBox*>();
  QTest::mouseClick(box->button(QDialogButtonBox::Ok), Qt::LeftButton);
}

void retype(QLineEdit* e, const QString& text) {
  e->setFocus();
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
}

// Event-loop rounds until every plot pane's plot area stayed the same for
// five of them in a row; false when they still move after 200.
bool settleLayouts(MainWindow& w) {
  std::vector<QRectF> last;
  for (int round = 0, still = 0; round < 200; ++round) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    std::vector<QRectF> now;
    for (PlotPane* p : w.resultsPanel()->findChildren<PlotPane*>()) now.push_back(p->chart()->plotArea());
    still = now == last ? still + 1 : 0;
    if (still == 5) return true;
    last = std::move(now);
  }
  return false;
}

}  // namespace

class TestGuiRunDialogs : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
  }

  void reportSettingsDialog() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1400, 900)));
    QVERIFY(runToEnd(w));
    QVERIFY(w.runner()->lastResult().ok());
    const ReportSettings before = reportSettings(w.project());
    QCOMPARE(before.plots.size(), size_t(4));

    action(w, "actionReportSettings")->trigger();
    auto* d = w.findChild<ReportSettingsDialog*>();
    QVERIFY(d);
    QVERIFY(QTest::qWaitForWindowExposed(d));
    QCOMPARE(d->plotList()->count(), 4);
    QVERIFY(d->availableList()->count() > 10);  // every channel of the run
    QTest::mouseClick(d->button("addPlot"), Qt::LeftButton);
    QCOMPARE(d->plotList()->count(), 5);
    QCOMPARE(d->plotList()->currentRow(), 4);
    clickItem(d->availableList(), "cyl1.v");
    clickItem(d->availableList(), "cyl1.pA", Qt::ControlModifier);
    QCOMPARE(d->availableList()->selectedItems().size(), 2);
    QTest::mouseClick(d->button("addChannel"), Qt::LeftButton);
    QCOMPARE(d->plotChannelList()->count(), 2);
    QTest::keyClicks(d->plotTitleEdit(), "Rod speed versus cap pressure");
    // Move the new plot to the front, and drop the flow plot (now the last).
    QTest::mouseClick(d->button("plotUp"), Qt::LeftButton);
    QTest::mouseClick(d->button("plotUp"), Qt::LeftButton);
    QTest::mouseClick(d->button("plotUp"), Qt::LeftButton);
    QTest::mouseClick(d->button("plotUp"), Qt::LeftButton);
    QCOMPARE(d->plotList()->currentRow(), 0);
    clickItem(d->plotList(), "src.q");
    QTest::mouseClick(d->button("removePlot"), Qt::LeftButton);
    retype(d->companyEdit(), "Druckluft Demo GmbH");
    d->grab().save(QDir::current().filePath("gui_report_settings.png"));
    QSignalSpy closed(d, &QDialog::finished);
    clickOk(d);
    QCOMPARE(closed.count(), 1);

    const ReportSettings after = reportSettings(w.project());
    QCOMPARE(after.plots.size(), size_t(4));
    QCOMPARE(after.plots[0].title, std::string("Rod speed versus cap pressure"));
    QCOMPARE(after.plots[0].channels, (std::vector<std::string>{"cyl1.v", "cyl1.pA"}));
    QCOMPARE(after.plots[1], before.plots[0]);
    QCOMPARE(after.plots[3], before.plots[2]);
    QCOMPARE(after.company, std::string("Druckluft Demo GmbH"));
    QCOMPARE(after.cyclesPerMinute, before.cyclesPerMinute);
    QVERIFY(w.isModified());
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Report settings"));

    // Undo restores the example's settings, redo brings the new ones back.
    w.document()->undoStack()->undo();
    QCOMPARE(reportSettings(w.project()), before);
    w.document()->undoStack()->redo();
    QCOMPARE(reportSettings(w.project()), after);

    // Saved in the project file.
    const QString saved = dir_.filePath("seed003_report.pneumech.json");
    QVERIFY(w.saveProjectAs(saved));
    QCOMPARE(reportSettings(engine::load(saved.toStdString())), after);

    // The report (what File -> Export Report writes) shows the new plot.
    const QString pdf = dir_.filePath("settings.pdf");
    QString err;
    int pages = 0;
    QVERIFY2(exportReport(w.project(), *w.resultBuffer()->store(), pdf, &err, w.currentFile(), &pages), qPrintable(err));
    if (QStandardPaths::findExecutable("pdftotext").isEmpty()) QSKIP("pdftotext not installed");
    QProcess p;
    p.start("pdftotext", {"-layout", pdf, "-"});
    QVERIFY(p.waitForFinished(30000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(text.contains("Figure 2: Rod speed versus cap pressure"), qPrintable(text));
    QVERIFY(text.contains("Druckluft Demo GmbH"));
    QVERIFY(!text.contains("Figure 6:"));  // four plots: figures 2 to 5
    QVERIFY(text.contains("Figure 5:"));
    p.start("pdftoppm", {"-png", "-r", "50", pdf, QDir::current().filePath("gui_report_settings_page")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
  }

  // File -> Project Properties, typed in: the project's meta and properties
  // change as one undoable edit, are saved, and the report shows them (its
  // title no longer "Untitled project") but not the technical notes.
  void projectPropertiesDialog() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1400, 900)));
    QVERIFY(runToEnd(w));
    const QString saved = dir_.filePath("props.pneumech.json");
    QVERIFY(w.saveProjectAs(saved));
    QImage logo(120, 60, QImage::Format_RGB32);
    logo.fill(QColor(20, 60, 160));
    QVERIFY(logo.save(dir_.filePath("logo.png")));
    const Project before = w.project();
    const std::string notes = before.meta.notes;
    QVERIFY(notes.find("Sakurai") != std::string::npos);  // the example's notes

    action(w, "actionProjectProperties")->trigger();
    auto* d = w.findChild<ProjectPropertiesDialog*>();
    QVERIFY(d);
    QVERIFY(QTest::qWaitForWindowExposed(d));
    retype(d->titleEdit(), "Swivel unit SU-200");
    retype(d->customerEdit(), "Mustermann Maschinenbau");
    retype(d->authorEdit(), "A. Engineer");
    d->descriptionEdit()->setFocus();
    d->descriptionEdit()->selectAll();
    QTest::keyClick(d->descriptionEdit(), Qt::Key_Delete);
    QTest::keyClicks(d->descriptionEdit(), "Moves the part 200 mm onto the conveyor.");
    // A bad time and an unreadable logo keep the dialog open, saying why.
    retype(d->cycleTimeEdit(), "fast");
    clickOk(d);
    QVERIFY(d->isVisible());
    QVERIFY2(d->messageLabel()->text().contains("Required cycle time"), qPrintable(d->messageLabel()->text()));
    retype(d->cycleTimeEdit(), "0.5");
    retype(d->logoEdit(), "missing.png");
    clickOk(d);
    QVERIFY(d->isVisible());
    QVERIFY2(d->messageLabel()->text().contains("Logo"), qPrintable(d->messageLabel()->text()));
    retype(d->logoEdit(), "logo.png");
    d->grab().save(QDir::current().filePath("gui_project_properties.png"));
    QSignalSpy closed(d, &QDialog::finished);
    clickOk(d);
    QCOMPARE(closed.count(), 1);

    const Metadata& m = w.project().meta;
    QCOMPARE(m.title, std::string("Swivel unit SU-200"));
    QCOMPARE(m.customer, std::string("Mustermann Maschinenbau"));
    QCOMPARE(m.author, std::string("A. Engineer"));
    QCOMPARE(m.description, std::string("Moves the part 200 mm onto the conveyor."));
    const Metadata props = w.project().meta;
    QCOMPARE(props.requiredCycleTime, 0.5);
    QCOMPARE(props.logo, std::string("logo.png"));
    QCOMPARE(props.notes, notes);  // untouched
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Project properties"));
    w.document()->undoStack()->undo();
    QVERIFY(w.project() == before);
    w.document()->undoStack()->redo();
    QVERIFY(w.project().meta == props);
    QVERIFY(w.saveProject());
    const Project reread = engine::load(saved.toStdString());
    QVERIFY(reread.meta == m);
    QVERIFY(reread.meta == props);

    const QString pdf = dir_.filePath("props.pdf");
    QString err;
    QVERIFY2(exportReport(w.project(), *w.resultBuffer()->store(), pdf, &err, w.currentFile()), qPrintable(err));
    if (QStandardPaths::findExecutable("pdftotext").isEmpty()) QSKIP("pdftotext not installed");
    QProcess p;
    p.start("pdftotext", {"-layout", pdf, "-"});
    QVERIFY(p.waitForFinished(30000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    for (const char* s : {"Swivel unit SU-200", "Mustermann Maschinenbau", "A. Engineer", "onto the conveyor",
                          "Required cycle time", "Conclusion", "Bill of materials", "Nl/min"})
      QVERIFY2(text.contains(s), s);
    QVERIFY(!text.contains("Untitled project"));
    QVERIFY2(!text.contains("Sakurai") && !text.contains("seed 003"), "the technical notes leaked into the report");
  }

  void reportSettingsRefuseAnEmptyPlot() {
    ReportSettings s;
    ReportSettingsDialog d(s, "T", {"a.x", "a.v"}, {});
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    QTest::mouseClick(d.button("addPlot"), Qt::LeftButton);
    clickOk(&d);
    QVERIFY(d.isVisible());
    QVERIFY(d.findChild<QLabel*>("note")->text().contains("no channels"));
    clickItem(d.availableList(), "a.v");
    QTest::mouseClick(d.button("addChannel"), Qt::LeftButton);
    clickOk(&d);
    QCOMPARE(d.result(), int(QDialog::Accepted));
    QCOMPARE(d.settings().plots.size(), size_t(1));
    QCOMPARE(d.settings().plots[0].channels, std::vector<std::string>{"a.v"});
  }

  void simulationSettingsDialog() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("tool_changer")));
    const SimulationSettings before = w.project().simulation;
    QCOMPARE(before.coupling, std::string("monolithic"));

    action(w, "actionSimulationSettings")->trigger();
    auto* d = w.findChild<SimulationSettingsDialog*>();
    QVERIFY(d);
    QVERIFY(QTest::qWaitForWindowExposed(d));
    QVERIFY(!d->field("exchange_interval")->isEnabled());  // monolithic
    retype(d->field("t_end"), "1.5");
    retype(d->field("output_interval"), "2");  // ms
    retype(d->field("rel_tol"), "1e-6");
    retype(d->field("wall_time_limit"), "90");  // s
    // Co-simulation, chosen with the keyboard in the combo box.
    d->couplingBox()->setFocus();
    QTest::keyClick(d->couplingBox(), Qt::Key_Down);
    QCOMPARE(d->couplingBox()->currentData().toString(), QString("cosimulation"));
    QVERIFY(d->field("exchange_interval")->isEnabled());

    // An exchange interval longer than the run: refused, with a message.
    retype(d->field("exchange_interval"), "2000");
    clickOk(d);
    QVERIFY(d->isVisible());
    qInfo("%s", qPrintable(d->messageLabel()->text()));
    QVERIFY(d->messageLabel()->text().contains("Exchange interval"));
    QVERIFY(d->messageLabel()->text().contains("longer than t_end"));
    // Not a number: refused too.
    retype(d->field("exchange_interval"), "0.5 ms");
    clickOk(d);
    QVERIFY(d->isVisible());
    QVERIFY(d->messageLabel()->text().contains("not a number"));
    QCOMPARE(w.project().simulation, before);

    retype(d->field("exchange_interval"), "0.5");
    d->grab().save(QDir::current().filePath("gui_simulation_settings.png"));
    clickOk(d);
    QTRY_VERIFY(!w.findChild<SimulationSettingsDialog*>());

    const SimulationSettings& s = w.project().simulation;
    QCOMPARE(s.t_end, 1.5);
    QCOMPARE(s.output_interval, 2e-3);
    QCOMPARE(s.rel_tol, 1e-6);
    QCOMPARE(s.coupling, std::string("cosimulation"));
    QCOMPARE(s.exchange_interval, 5e-4);
    QCOMPARE(s.wall_time_limit, 90.0);
    QCOMPARE(s.abs_tol_position, before.abs_tol_position);  // untouched fields stay
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Simulation settings"));
    w.document()->undoStack()->undo();
    QCOMPARE(w.project().simulation, before);
    w.document()->undoStack()->redo();
    const QString saved = dir_.filePath("tool_changer_cosim.pneumech.json");
    QVERIFY(w.saveProjectAs(saved));
    const Project back = engine::load(saved.toStdString());
    QCOMPARE(back.simulation.coupling, std::string("cosimulation"));
    QCOMPARE(back.simulation.exchange_interval, 5e-4);
  }

  // Toolbar "Export PNG...": the size typed into the size dialog is the
  // PNG's; the chart is laid out for it and back on screen afterwards.
  void paneExportSize() {
    MainWindow w;
    QVERIFY(showProject(w, examplePath("seed003_meter_out"), QSize(1400, 900)));
    QVERIFY(runToEnd(w));
    PlotPane* pane = w.resultsPanel()->currentPane();
    QVERIFY(pane && !pane->channelNames().empty());
    // The run's end lays the panes out anew in a chain of posted events
    // (axis ranges and titles, then the time axes' insets, each a layout
    // request): the on-screen layout is the one they settle on. A wait of
    // 50 ms was one event-loop round on a loaded machine, which took a
    // layout in transit (insets set, not yet laid out; 5 runs in 10 on
    // main's code too). Rounds until the plot areas hold still.
    QVERIFY(settleLayouts(w));
    const QSize onScreen = pane->chart()->size().toSize();
    const QRectF plotOnScreen = pane->chart()->plotArea();

    for (const bool svg : {false, true}) {
      const QString file = dir_.filePath(svg ? "sized.svg" : "sized.png");
      bool sawSize = false, sawFile = false;
      QSize offered;
      // The two modal dialogs in turn: size, then file name.
      QTimer driver;
      connect(&driver, &QTimer::timeout, this, [&] {
        QWidget* m = QApplication::activeModalWidget();
        if (auto* d = qobject_cast<ExportSizeDialog*>(m)) {
          if (sawSize) return;
          offered = d->size();
          for (auto [box, v] : {std::pair{d->widthBox(), "1234"}, std::pair{d->heightBox(), "567"}}) {
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, v);
          }
          sawSize = true;
          clickOk(d);
        } else if (auto* fd = qobject_cast<QFileDialog*>(m)) {
          QLineEdit* name = fd->findChild<QLineEdit*>("fileNameEdit");
          QVERIFY(name);
          // The name's completer may pop up over the typed path and keep the
          // first accept from closing the dialog: while the dialog stays,
          // close the popup, put the whole name back and accept again.
          if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
          if (!sawFile) {
            name->setFocus();
            name->selectAll();
            QTest::keyClicks(name, file);
          } else {
            name->setText(file);
          }
          sawFile = true;
          QMetaObject::invokeMethod(fd, "accept", Qt::QueuedConnection);
        }
      });
      driver.start(50);
      QAction* act = w.resultsPanel()->findChild<QAction*>(svg ? "actionExportSvg" : "actionExportPng");
      QVERIFY(act);
      QSignalSpy messages(w.resultsPanel(), &ResultsPanel::message);
      act->trigger();  // returns when both dialogs are done
      driver.stop();
      for (const auto& m : messages) qInfo("%s", qPrintable(m.at(0).toString()));
      QVERIFY(sawSize && sawFile);
      QCOMPARE(offered, onScreen);  // the size dialog starts at the on-screen size
      QVERIFY2(QFile::exists(file), qPrintable(file));
      QCOMPARE(pane->chart()->size().toSize(), onScreen);
      QCOMPARE(pane->chart()->plotArea(), plotOnScreen);
      if (svg) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains("viewBox=\"0 0 1234 567\""), text.left(400).constData());
        continue;
      }
      const QImage img(file);
      QCOMPARE(img.size(), QSize(1234, 567));
      // Not a blank or stretched copy: many colours, the first series' colour
      // among them, and the curves reach across the wider picture.
      std::set<QRgb> colours;
      const QColor c = pane->series(pane->channelNames().front())->pen().color();
      int hits = 0, rightmost = 0;
      for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
          const QColor p = img.pixelColor(x, y);
          colours.insert(p.rgb());
          if (std::abs(p.red() - c.red()) < 8 && std::abs(p.green() - c.green()) < 8 && std::abs(p.blue() - c.blue()) < 8) {
            ++hits;
            rightmost = std::max(rightmost, x);
          }
        }
      qInfo("on screen %dx%d, PNG 1234x567: %zu colours, %d series pixels, rightmost at x = %d", onScreen.width(),
            onScreen.height(), colours.size(), hits, rightmost);
      QVERIFY(colours.size() > 20);
      QVERIFY(hits > 500);
      QVERIFY(rightmost > 1000);
      img.save(QDir::current().filePath("gui_pane_export_1234x567.png"));
    }
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestGuiRunDialogs)
#include "test_gui_run_dialogs.moc"
