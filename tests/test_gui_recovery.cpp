// Nothing lost when the studio dies (issue #26, point 5): a studio killed
// with SIGKILL after an edit leaves a recovery file, and the next start
// restores the edit; a clean save or close leaves nothing behind; a project
// open in another studio is said before it is opened twice.
//
// The killed studio is this test binary run again as a child process with
// one test function (childEditsAndWaits) and PM_RECOVERY_CHILD set: a real
// main window, a real edit typed into the property editor, a real SIGKILL.
#include "document.h"
#include "file_session.h"
#include "main_window.h"
#include "param_model.h"
#include "recovery.h"
#include "support/studio_window.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <cstdio>

using namespace pm;
using namespace pm::gui;

namespace {

// Types `value` into the property editor's cell of `param` of component `id`.
bool typeParameter(MainWindow& w, const QString& id, const std::string& param, const QString& value) {
  if (!w.selectComponent(id)) return false;
  QTableView* view = w.paramView();
  auto* model = qobject_cast<ParamModel*>(view->model());
  if (!model || model->componentId() != id.toStdString()) return false;
  const int row = model->rowOf(param);
  if (row < 0) return false;
  const QModelIndex idx = model->index(row, ParamModel::Value);
  view->setFocus();
  view->setCurrentIndex(idx);
  view->edit(idx);
  QTest::qWait(20);
  auto* editor = view->findChild<QLineEdit*>();
  if (!editor) return false;
  editor->selectAll();
  QTest::keyClicks(editor, value);
  QTest::keyClick(editor, Qt::Key_Return);
  QTest::qWait(20);
  return true;
}

double massOf(const MainWindow& w) { return w.project().find("cyl1")->params.at("mass"); }

// Clicks `button` of the next modal message box named `name` when it shows.
void answerNextBox(const QString& name, const QString& button) {
  QTimer::singleShot(50, [name, button] {
    for (QWidget* top : QApplication::topLevelWidgets())
      if (auto* box = qobject_cast<QMessageBox*>(top); box && box->objectName() == name && box->isVisible()) {
        for (QAbstractButton* b : box->buttons())
          if (b->text() == button) {
            b->click();
            return;
          }
      }
    answerNextBox(name, button);  // not shown yet
  });
}

}  // namespace

class TestGuiRecovery : public QObject {
  Q_OBJECT
  QTemporaryDir home_;
  QString project_;

 private slots:
  void initTestCase() {
    // The child inherits these: its recovery folder and settings are ours.
    if (qEnvironmentVariableIsEmpty("PM_RECOVERY_CHILD")) {
      QVERIFY(home_.isValid());
      qputenv("XDG_DATA_HOME", (home_.path() + "/data").toLocal8Bit());
      qputenv("XDG_CONFIG_HOME", (home_.path() + "/config").toLocal8Bit());
      project_ = home_.path() + "/work/machine.pneumech.json";
      QVERIFY(QDir().mkpath(home_.path() + "/work"));
      QVERIFY(QFile::copy(test::examplePath("seed003_meter_out"), project_));
    }
  }

  // The child's part: open, type an edit, wait for the autosave, then wait
  // to be killed.
  void childEditsAndWaits() {
    const QString path = qEnvironmentVariable("PM_RECOVERY_CHILD");
    if (path.isEmpty()) QSKIP("run by crashedStudioIsRestored as its child process");
    MainWindow w;
    QVERIFY(test::showProject(w, path));
    QCOMPARE(Recovery::autosaveSeconds(), 1);
    QVERIFY(typeParameter(w, "cyl1", "mass", "8"));
    QCOMPARE(massOf(w), 8.0);
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(w.recovery()->recoveryFile()), 10000);
    std::printf("AUTOSAVED\n");
    std::fflush(stdout);
    QTest::qWait(60000);
    QFAIL("not killed");
  }

  void crashedStudioIsRestored() {
    if (!qEnvironmentVariableIsEmpty("PM_RECOVERY_CHILD")) QSKIP("the parent's part");
    QSettings().setValue("recovery/autosaveSeconds", 1);
    QSettings().sync();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PM_RECOVERY_CHILD", project_);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {"childEditsAndWaits"});
    QVERIFY(child.waitForStarted());
    QByteArray out;
    QElapsedTimer waited;
    waited.start();
    while (!out.contains("AUTOSAVED") && child.state() == QProcess::Running && waited.elapsed() < 60000) {
      child.waitForReadyRead(100);
      out += child.readAllStandardOutput();
    }
    QVERIFY2(out.contains("AUTOSAVED"), (out + child.readAllStandardError()).constData());
    child.kill();  // SIGKILL: no destructor, no clean-up
    QVERIFY(child.waitForFinished());
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    const QList<Recovery::Orphan> orphans = Recovery::orphans();
    QCOMPARE(orphans.size(), 1);
    QCOMPARE(orphans.front().project, QFileInfo(project_).absoluteFilePath());

    // The next start: the studio offers the edit back and Restore takes it.
    QSettings().setValue("recovery/autosaveSeconds", 0);
    MainWindow w;
    QVERIFY(test::showWindow(w));
    answerNextBox("recoveryQuestion", "Restore");
    w.offerRecovery();
    QCOMPARE(w.currentFile(), QFileInfo(project_).absoluteFilePath());
    QVERIFY(w.isModified());
    QCOMPARE(massOf(w), 8.0);
    QVERIFY(!w.isShowingStartPage());
    QVERIFY(Recovery::orphans().isEmpty());  // taken: not offered again
    // This session now carries the unsaved edit, in case it dies too.
    QVERIFY(QFile::exists(w.recovery()->recoveryFile()));
    // Undo shows the file as it is on disk; the file itself was never touched.
    w.document()->undoStack()->undo();
    QCOMPARE(massOf(w), 5.0);
    w.document()->undoStack()->redo();
    QCOMPARE(massOf(w), 8.0);
    QVERIFY(w.recovery()->autosave());
    QVERIFY(QFile::exists(w.recovery()->recoveryFile()));
    QVERIFY(w.saveProject());
    QVERIFY(!QFile::exists(w.recovery()->recoveryFile()));
  }

  // Saving, undoing back to the file, or closing cleanly leaves no recovery
  // file; a crash-free exit leaves nothing to offer.
  void cleanEndLeavesNothing() {
    if (!qEnvironmentVariableIsEmpty("PM_RECOVERY_CHILD")) QSKIP("the parent's part");
    QString recoveryFile;
    {
      MainWindow w;
      QVERIFY(test::showProject(w, project_));
      QVERIFY(typeParameter(w, "cyl1", "mass", "9"));
      QVERIFY(w.recovery()->autosave());
      recoveryFile = w.recovery()->recoveryFile();
      QVERIFY(QFile::exists(recoveryFile));
      w.document()->undoStack()->undo();  // back to the file: nothing to recover
      QVERIFY(!QFile::exists(recoveryFile));
      QVERIFY(typeParameter(w, "cyl1", "mass", "7"));
      QVERIFY(w.recovery()->autosave());
      QVERIFY(QFile::exists(recoveryFile));
      // The window goes without a crash (its close question answered
      // Discard): the recovery file goes with it.
    }
    QVERIFY(!QFile::exists(recoveryFile));
    QVERIFY(Recovery::orphans().isEmpty());
    QVERIFY(QDir(Recovery::folder()).entryList({"session-*"}, QDir::Files).isEmpty());
  }

  // A second studio opening the same project is warned, and still opens it.
  void openTwiceWarns() {
    if (!qEnvironmentVariableIsEmpty("PM_RECOVERY_CHILD")) QSKIP("the parent's part");
    QVERIFY(!Recovery::openElsewhere(project_));
    MainWindow a;
    QVERIFY(test::showProject(a, project_));
    QVERIFY(Recovery::openElsewhere(project_));
    MainWindow b;
    QVERIFY(test::showProject(b, project_));
    QVERIFY2(b.lastWarning().contains("already open in another PneuMech Studio"), qPrintable(b.lastWarning()));
    QCOMPARE(b.currentFile(), a.currentFile());
    a.newProject();
    QVERIFY(Recovery::openElsewhere(project_));  // b still has it
    b.newProject();
    QVERIFY(!Recovery::openElsewhere(project_));
  }
};

QTEST_MAIN(TestGuiRecovery)
#include "test_gui_recovery.moc"
