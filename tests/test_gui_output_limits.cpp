// Issue 26 §6 in the studio: an output interval that would give more rows
// than the loader allows (5e7), or more values than a run may hold (rows x
// channels), is refused with a message naming the field wherever it comes
// in (File > Open, the settings dialog, Run), and the studio goes on: the
// ProjectError never leaves a slot or the run's thread (which would end
// the program through std::terminate).
#include "document.h"
#include "main_window.h"
#include "result_buffer.h"
#include "simulation_runner.h"
#include "simulation_settings_dialog.h"
#include "support/studio_window.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace pm;
using namespace pm::gui;

namespace {

QString project(double tEnd, double interval) {
  return QString(R"({
  "format": "pneumech-project", "schema_version": 1,
  "meta": {"title": "limits"},
  "simulation": {"t_end": %1, "output_interval": %2},
  "components": [
    {"id": "src", "type": "supply"},
    {"id": "r1", "type": "restriction", "params": {"C": 1e-9}},
    {"id": "tank", "type": "reservoir"}
  ],
  "connections": [
    {"id": "c1", "from": "src.1", "to": "r1.1"},
    {"id": "c2", "from": "r1.2", "to": "tank.1"}
  ]
})")
      .arg(tEnd, 0, 'g', 17)
      .arg(interval, 0, 'g', 17);
}

// Accepts every modal message box (the studio's error dialogs) while the
// test waits, keeping the last one's text.
class BoxCloser : public QObject {
 public:
  BoxCloser() {
    connect(&timer_, &QTimer::timeout, this, [this] {
      for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
          text = box->text();
          box->accept();
        }
    });
    timer_.start(20);
  }
  QString text;

 private:
  QTimer timer_;
};

QAction* action(MainWindow& w, const char* name) { return w.findChild<QAction*>(name); }

void retype(QLineEdit* e, const QString& text) {
  e->setFocus();
  e->selectAll();
  QTest::keyClick(e, Qt::Key_Delete);
  QTest::keyClicks(e, text);
}

}  // namespace

class TestGuiOutputLimits : public QObject {
  Q_OBJECT
  QTemporaryDir dir_, tmp_;

  QString write(const QString& name, const QString& text) {
    const QString path = dir_.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text.toUtf8());
    return path;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // recent files and recovery in a test location
    QVERIFY(dir_.isValid() && tmp_.isValid());
    // The studio's raw results files go to the temporary folder: this one.
    qputenv("TMPDIR", tmp_.path().toLocal8Bit());
    QCOMPARE(QDir::tempPath(), tmp_.path());
  }

  // 10 s at 1e-7 s: 1e8 rows. Refused at open with the file and field
  // named; the project open before stays open.
  void openingAFileOverTheRowLimit() {
    MainWindow w;
    const QString good = write("good.pneumech.json", project(0.1, 1e-3));
    QVERIFY(pm::test::showProject(w, good));
    const QString bad = write("rows.pneumech.json", project(10, 1e-7));
    BoxCloser boxes;
    QVERIFY(!w.openProject(bad));
    QVERIFY2(w.lastError().contains("rows.pneumech.json") && w.lastError().contains("output_interval") &&
                 w.lastError().contains("5e7 rows"),
             qPrintable(w.lastError()));
    QCOMPARE(w.currentFile(), good);
    QTRY_COMPARE(boxes.text, w.lastError());
  }

  // The same interval typed into Simulation > Settings: the dialog refuses
  // it and the project keeps its settings.
  void settingsDialogRefusesTheRowLimit() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, write("dialog.pneumech.json", project(0.1, 1e-3))));
    action(w, "actionSimulationSettings")->trigger();
    auto* d = w.findChild<SimulationSettingsDialog*>();
    QVERIFY(d);
    QVERIFY(QTest::qWaitForWindowExposed(d));
    retype(d->field("t_end"), "10");
    retype(d->field("output_interval"), "1e-4");  // ms
    QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(d->isVisible());
    QVERIFY2(d->messageLabel()->text().contains("5e7 rows"), qPrintable(d->messageLabel()->text()));
    QCOMPARE(w.project().simulation.output_interval, 1e-3);
    d->reject();
  }

  // 40 s at 1e-6 s: 4e7 rows load, but times the circuit's channels they are
  // more values than a run may hold. Run fails at once with the message
  // (from the run's thread), and the next run with a sensible interval works.
  void runOverTheValueLimitFailsAndTheStudioGoesOn() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, write("values.pneumech.json", project(40, 1e-6))));
    BoxCloser boxes;
    QSignalSpy done(&w, &MainWindow::simulationFinished);
    QElapsedTimer clock;
    clock.start();
    w.runSimulation();
    QVERIFY(done.wait(60000));
    QCOMPARE(done.takeFirst().at(0).toBool(), false);
    QVERIFY2(clock.elapsed() < 30000, "the refusal comes before the run, not after it");
    QCOMPARE(w.runner()->lastResult().status, RunStatus::Failed);
    const QString msg = QString::fromStdString(w.runner()->lastResult().message);
    QVERIFY2(msg.contains("output_interval") && msg.contains("values in the results file on disk"), qPrintable(msg));
    QVERIFY2(w.lastError().contains("output_interval"), qPrintable(w.lastError()));
    QCOMPARE(w.resultBuffer()->rows(), size_t(0));
    QVERIFY(!w.runner()->isRunning());

    // The studio is still usable: a sensible interval runs to the end.
    w.document()->edit("interval", [](Project& p) {
      p.simulation.t_end = 0.1;
      p.simulation.output_interval = 1e-3;
    });
    QVERIFY(pm::test::runToEnd(w));
    QCOMPARE(w.runner()->lastResult().status, RunStatus::Completed);
    QCOMPARE(w.resultBuffer()->rows(), size_t(101));
  }

  // Export Report reads every row the key results need back from the run's
  // results file. When that fails (the file cut short under it, or too big
  // to hold), the export says so; the exception does not leave the slot.
  void exportReportSaysAnUnreadableResultsFile() {
    MainWindow w;
    QVERIFY(pm::test::showProject(w, write("export.pneumech.json", project(0.1, 1e-3))));
    QVERIFY(pm::test::runToEnd(w));
    QCOMPARE(w.runner()->lastResult().status, RunStatus::Completed);
    // The results file (deleted on creation; the descriptor keeps it), cut to nothing.
    int cut = 0;
    for (const QFileInfo& fd : QDir("/proc/self/fd").entryInfoList(QDir::System | QDir::Files | QDir::NoDotAndDotDot)) {
      const QString target = fd.symLinkTarget();
      if (!target.startsWith(tmp_.path() + "/pneumech-results-") || !target.endsWith(" (deleted)")) continue;
      const int f = ::open(QFile::encodeName(fd.filePath()).constData(), O_WRONLY | O_CLOEXEC);
      QVERIFY(f >= 0);
      QCOMPARE(::ftruncate(f, 0), 0);
      ::close(f);
      ++cut;
    }
    QVERIFY(cut >= 1);

    const QString pdf = dir_.filePath("cut.pdf");
    QString error;
    QTimer driver;  // the file dialog, then the error box
    connect(&driver, &QTimer::timeout, this, [&] {
      QWidget* m = QApplication::activeModalWidget();
      if (auto* fd = qobject_cast<QFileDialog*>(m)) {
        if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
        fd->findChild<QLineEdit*>("fileNameEdit")->setText(pdf);
        QMetaObject::invokeMethod(fd, "accept", Qt::QueuedConnection);
      } else if (auto* box = qobject_cast<QMessageBox*>(m)) {
        error = box->text();
        box->accept();
      }
    });
    driver.start(50);
    QAction* exportReport = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == "Export &Report (PDF)...") exportReport = a;
    QVERIFY(exportReport);
    exportReport->trigger();
    QTRY_VERIFY(!error.isEmpty());
    QVERIFY2(error.contains("cannot read it back"), qPrintable(error));
    QVERIFY(!QFileInfo::exists(pdf));
  }
};

QTEST_MAIN(TestGuiOutputLimits)
#include "test_gui_output_limits.moc"
