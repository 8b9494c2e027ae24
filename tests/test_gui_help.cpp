// Help as a first-time user meets it (issue #25, point 9): a Help menu with
// Getting started (whose button opens the finished example), the component
// reference (the registry's own text, as `pneumech types` prints it) and the
// shortcuts; tool-tips that say what a button does and its key; Ctrl+Y
// redoes; one click on a start-page entry opens it; file dialogs open where
// the last file was; a cut-off file's error is short.
#include "document.h"
#include "file_session.h"
#include "help_menu.h"
#include "main_window.h"
#include "start_page.h"
#include "support/studio_window.h"
#include "engine/engine.h"
#include "model/component_type.h"
#include "model/project_error.h"

#include <QDialog>
#include <QFile>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoStack>
#include <QtTest>

using namespace pm;
using namespace pm::gui;

namespace {

QAction* helpAction(MainWindow& w, const QString& name) {
  auto* menu = w.menuBar()->findChild<QMenu*>("helpMenu");
  if (!menu) return nullptr;
  for (QAction* a : menu->actions())
    if (a->objectName() == name) return a;
  return nullptr;
}

template <class T>
T* shownDialogChild(const QString& dialog, const QString& child) {
  for (QWidget* top : QApplication::topLevelWidgets())
    if (top->objectName() == dialog && top->isVisible()) return top->findChild<T*>(child);
  return nullptr;
}

}  // namespace

class TestGuiHelp : public QObject {
  Q_OBJECT
  QTemporaryDir home_;

 private slots:
  void initTestCase() {
    QVERIFY(home_.isValid());
    qputenv("XDG_CONFIG_HOME", (home_.path() + "/config").toLocal8Bit());
    qputenv("XDG_DATA_HOME", (home_.path() + "/data").toLocal8Bit());
  }

  void componentReferenceIsTheRegistrys() {
    MainWindow w;
    QVERIFY(test::showWindow(w));
    QAction* ref = helpAction(w, "actionComponentReference");
    QVERIFY(ref);
    ref->trigger();
    auto* text = shownDialogChild<QPlainTextEdit>("componentReferenceDialog", "componentReferenceText");
    QVERIFY(text);
    const QString shown = text->toPlainText();
    QCOMPARE(shown, QString::fromStdString(Registry::instance().reference()));
    QVERIFY(shown.contains("cylinder_double  (Actuators)"));
    QVERIFY(shown.contains("    bore [m] default"));
    // Every registered type is in it.
    for (const ComponentType* t : Registry::instance().all())
      QVERIFY2(shown.contains(QString::fromStdString(t->name + "  (")), t->name.c_str());
  }

  void gettingStartedOpensTheExample() {
    MainWindow w;
    QVERIFY(test::showWindow(w));
    QVERIFY(gettingStartedHtml().contains("sol14"));
    QAction* start = helpAction(w, "actionGettingStarted");
    QVERIFY(start);
    QCOMPARE(start->shortcut(), QKeySequence(QKeySequence::HelpContents));
    start->trigger();
    auto* open = shownDialogChild<QPushButton>("gettingStartedDialog", "openExampleButton");
    QVERIFY(open);
    QTest::mouseClick(open, Qt::LeftButton);
    QTRY_VERIFY(w.currentFile().endsWith("seed003_meter_out.pneumech.json"));
    QVERIFY(w.project().find("v1"));
    QVERIFY(!shownDialogChild<QPushButton>("gettingStartedDialog", "openExampleButton"));
  }

  void shortcutsAndToolTips() {
    MainWindow w;
    QVERIFY(test::showWindow(w));
    const QString keys = shortcutsText(&w);
    QVERIFY2(keys.contains("Simulation > Run\tF5"), qPrintable(keys));
    QVERIFY2(keys.contains("Ctrl+Y"), qPrintable(keys));
    QVERIFY2(keys.contains("File > Save\tCtrl+S"), qPrintable(keys));
    auto* tb = w.findChild<QToolBar*>("mainToolBar");
    QVERIFY(tb);
    QStringList tips;
    for (QAction* a : tb->actions())
      if (!a->isSeparator()) tips << a->toolTip();
    QVERIFY2(tips.contains("Simulate the project and show the results live (F5)"), qPrintable(tips.join(" | ")));
    QVERIFY2(tips.contains("Save the project (Ctrl+S)"), qPrintable(tips.join(" | ")));
    // No tip just repeats its button's label.
    for (QAction* a : tb->actions()) {
      if (a->isSeparator()) continue;
      QString label = a->text();
      label.remove('&');
      QVERIFY2(a->toolTip() != label, qPrintable(label));
    }
  }

  void ctrlYRedoes() {
    MainWindow w;
    QVERIFY(test::showProject(w, test::examplePath("seed003_meter_out")));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QVERIFY(w.document()->edit("Heavier load", [](Project& p) { p.find("cyl1")->params["mass"] = 9.0; }));
    w.document()->undoStack()->undo();
    QCOMPARE(w.project().find("cyl1")->params.at("mass"), 5.0);
    QTest::keyClick(&w, Qt::Key_Y, Qt::ControlModifier);
    QCOMPARE(w.project().find("cyl1")->params.at("mass"), 9.0);
  }

  void startPageOpensOnOneClick() {
    MainWindow w;
    QVERIFY(test::showWindow(w));
    QVERIFY(w.isShowingStartPage());
    QListWidget* examples = w.startPage()->examples();
    QListWidgetItem* item = nullptr;
    for (int i = 0; i < examples->count() && !item; ++i)
      if (examples->item(i)->data(Qt::UserRole).toString().endsWith("seed003_meter_out.pneumech.json"))
        item = examples->item(i);
    QVERIFY(item);
    examples->scrollToItem(item);
    QTest::mouseClick(examples->viewport(), Qt::LeftButton, {}, examples->visualItemRect(item).center());
    QTRY_VERIFY(w.currentFile().endsWith("seed003_meter_out.pneumech.json"));
    QVERIFY(!w.isShowingStartPage());
  }

  void fileDialogsOpenWhereTheLastFileWas() {
    QTemporaryDir dir;
    const QString path = dir.path() + "/copy.pneumech.json";
    QVERIFY(QFile::copy(test::examplePath("seed003_meter_out"), path));
    MainWindow w;
    QVERIFY(test::showProject(w, path));
    w.newProject();
    QCOMPARE(w.fileSession()->lastFolder(), QFileInfo(path).absolutePath());
    MainWindow later;  // and in the next session
    QCOMPARE(later.fileSession()->lastFolder(), QFileInfo(path).absolutePath());
  }

  // A file cut off inside a long text: line, column and a short excerpt.
  void truncatedFileErrorIsShort() {
    QFile f(test::examplePath("seed003_meter_out"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().left(700).toStdString();
    try {
      engine::parse(text, "cut.pneumech.json");
      QFAIL("a cut-off file was accepted");
    } catch (const ProjectError& e) {
      const QString what = e.what();
      // Line 9: the example's technical notes, after its (shorter) description.
      QVERIFY2(what.contains("cut.pneumech.json: malformed JSON at line 9, column"), qPrintable(what));
      QVERIFY2(what.size() < 250 && !what.contains("last read"), qPrintable(what));
    }
  }
};

QTEST_MAIN(TestGuiHelp)
#include "test_gui_help.moc"
