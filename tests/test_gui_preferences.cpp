// Edit > Preferences (issue 24): the user component library folder, typed
// into the dialog, is read at once (the library panel lists its type, a
// project that uses the type opens) and remembered in QSettings (a
// temporary folder here); a path that is no folder is refused in the dialog
// with a message naming it, and the old folder is kept.
#include "library_folder.h"
#include "library_panel.h"
#include "main_window.h"
#include "preferences_dialog.h"
#include "support/studio_window.h"

#include "engine/engine.h"
#include "model/component_type.h"

#include <QAction>
#include <QDir>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidgetItem>
#include <QtTest>

#include <fstream>

using namespace pm;
using namespace pm::gui;

namespace {

// Opens Edit > Preferences by its action, as the menu does.
PreferencesDialog* openPreferences(MainWindow& w) {
  auto* action = w.findChild<QAction*>("actionPreferences");
  if (!action) return nullptr;
  action->trigger();
  return w.findChild<PreferencesDialog*>();
}

// Replaces the folder field's text by typing, then clicks OK.
void typeFolderAndOk(PreferencesDialog* d, const QString& folder) {
  QLineEdit* edit = d->libraryFolderEdit();
  edit->setFocus();
  QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, folder);
  QTest::mouseClick(d->okButton(), Qt::LeftButton);
}

}  // namespace

class TestGuiPreferences : public QObject {
  Q_OBJECT
  QTemporaryDir settings_, library_, projects_;
  QString project_;

 private slots:
  void initTestCase() {
    QVERIFY(settings_.isValid() && library_.isValid() && projects_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
    QCoreApplication::setOrganizationName("PneuMechTest");
    QCoreApplication::setApplicationName("preferences");
    // One user type in the library folder, and a project that uses it
    // without carrying its definition.
    std::ofstream(library_.path().toStdString() + "/pref_orifice.json")
        << R"json({"name": "pref_orifice", "ports": [{"name": "1"}, {"name": "2"}],
              "parameters": [{"name": "C", "unit": "m3/(s Pa)", "default": 1e-8, "min": 0}],
              "flows": [{"from": "1", "to": "2", "mass_flow": "C * (p_1 - p_2) * rho_ref"}]})json";
    project_ = projects_.path() + "/uses_pref.pneumech.json";
    std::ofstream(project_.toStdString())
        << R"({"format": "pneumech-project", "schema_version": 1,
              "components": [{"id": "src", "type": "supply"}, {"id": "o1", "type": "pref_orifice"}],
              "connections": [{"id": "c1", "from": "src.1", "to": "o1.1"}]})";
  }

  void libraryFolderIsReadAtOnceAndRemembered() {
    QVERIFY(!Registry::instance().find("pref_orifice"));
    bool refused = false;
    try {
      engine::load(project_.toStdString());
    } catch (const ProjectError& e) {
      refused = std::string(e.what()).find("pref_orifice") != std::string::npos;
    }
    QVERIFY2(refused, "the project loads without the library");

    MainWindow w;
    QVERIFY(test::showNewCircuit(w));
    QVERIFY(!w.libraryPanel()->itemOf("pref_orifice"));
    QPointer<PreferencesDialog> d = openPreferences(w);
    QVERIFY2(d, "no Edit > Preferences");
    QTRY_VERIFY(d->isVisible());
    QCOMPARE(d->libraryFolderEdit()->text(), library_folder::current());
    typeFolderAndOk(d, library_.path());
    QTRY_VERIFY(!d);  // accepted and closed

    QCOMPARE(QSettings().value("library/folder").toString(), library_.path());
    QTreeWidgetItem* item = w.libraryPanel()->itemOf("pref_orifice");
    QVERIFY2(item, "the library panel does not list the folder's type");
    QVERIFY(item->text(0).contains("(user)"));
    QVERIFY(w.openProject(project_));
    const Component* o1 = w.project().find("o1");
    QVERIFY(o1);
    QCOMPARE(o1->type, std::string("pref_orifice"));
    // The next start reads the remembered folder.
    QCOMPARE(library_folder::current(), library_.path());
    QString problem;
    QCOMPARE(library_folder::loadAtStart(&problem), QStringList{"pref_orifice"});
    QCOMPARE(problem, QString());
  }

  void badFolderIsRefusedAndTheOldOneKept() {
    MainWindow w;
    QVERIFY(test::showNewCircuit(w));
    const QString before = QSettings().value("library/folder").toString();
    QCOMPARE(before, library_.path());
    QPointer<PreferencesDialog> d = openPreferences(w);
    QVERIFY(d);
    QTRY_VERIFY(d->isVisible());
    const QString missing = projects_.path() + "/no_such_folder";
    typeFolderAndOk(d, missing);
    QVERIFY(d && d->isVisible());  // stays open for the user to mend the path
    qInfo("%s", qPrintable(d->errorText()));
    QVERIFY(d->errorText().contains(missing) && d->errorText().contains("does not exist"));
    QVERIFY(d->errorText().contains("the library stays '" + before + "'"));
    d->grab().save(QDir::current().filePath("preferences_bad_folder.png"));  // to look at
    typeFolderAndOk(d, project_);  // a file
    QVERIFY(d && d->isVisible());
    QVERIFY(d->errorText().contains(project_) && d->errorText().contains("is not a folder"));
    QCOMPARE(QSettings().value("library/folder").toString(), before);
    d->reject();
    QTRY_VERIFY(!d);
    QCOMPARE(QSettings().value("library/folder").toString(), before);
    QVERIFY(w.libraryPanel()->itemOf("pref_orifice"));
  }
};

QTEST_MAIN(TestGuiPreferences)
#include "test_gui_preferences.moc"
