// The data editor (gui/data_editor.*) opened from the property editor, as a
// user drives it (offscreen platform): a script controller's program typed
// into the text editor, checked (a syntax error names its line), applied with
// OK and undone; a step sequence's steps and a time table's points edited in
// their tables; and paste of a sequence with its cylinders and limit switches
// renaming the references inside the copy's data; a program kept in a file
// (data.file) edited and saved to that file; table rows numbered as the
// engine's messages index them.
#include "data_editor.h"
#include "document.h"
#include "main_window.h"
#include "property_editor.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "support/property_typing.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QTemporaryDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTextBlock>
#include <QUndoStack>
#include <QPointer>
#include <QtTest>

#include <set>

using namespace pm;
using namespace pm::gui;

namespace {

QString example(const char* name) { return QString(PM_SOURCE_DIR) + "/projects/" + name; }

// Selects component `id` on the canvas and clicks the property editor's data button.
DataEditor* openEditorOf(MainWindow& w, const std::string& id) {
  w.scene()->selectObjects({id});
  QPushButton* b = w.propertyEditor()->dataButton();
  if (!b || !b->isVisible()) return nullptr;
  QTest::mouseClick(b, Qt::LeftButton);
  return w.propertyEditor()->findChild<DataEditor*>("dataEditor");
}

// Moves the text cursor to the end of line `line` (1-based) and types `text`.
void typeAtEndOfLine(QPlainTextEdit* e, int line, const QString& text) {
  e->setFocus();
  QTextCursor c(e->document()->findBlockByNumber(line - 1));
  c.movePosition(QTextCursor::EndOfBlock);
  e->setTextCursor(c);
  QTest::keyClicks(e, text);
}

// Types `text` into cell (row, col) as a user does: click the cell, F2 opens
// its editor, select all, type, Return (committed through a queued call).
void typeIntoCell(QTableWidget* t, int row, int col, const QString& text) {
  const QRect r = t->visualItemRect(t->item(row, col));
  QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, r.center());
  QCOMPARE(t->currentRow(), row);
  QCOMPARE(t->currentColumn(), col);
  QTest::keyClick(t, Qt::Key_F2);
  QLineEdit* le = nullptr;
  for (QLineEdit* e : t->viewport()->findChildren<QLineEdit*>())
    if (e->isVisible()) le = e;
  QVERIFY2(le, "a cell editor is open");
  test::typeInto(le, text);
  QTest::keyClick(le, Qt::Key_Return);
  QCoreApplication::processEvents();  // the delegate commits on Return through a queued call
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);  // the closed editor goes
  QCOMPARE(t->item(row, col)->text(), text);
}

QString readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString("<unreadable>");
}

// The vertical header's labels of a table, top to bottom.
QStringList rowLabels(const QTableWidget* t) {
  QStringList out;
  for (int r = 0; r < t->rowCount(); ++r)
    out << (t->verticalHeaderItem(r) ? t->verticalHeaderItem(r)->text() : t->model()->headerData(r, Qt::Vertical).toString());
  return out;
}

QStringList zeroTo(int n) {
  QStringList out;
  for (int k = 0; k < n; ++k) out << QString::number(k);
  return out;
}

}  // namespace

class TestGuiDataEditor : public QObject {
  Q_OBJECT
 private slots:
  // projects/script_pid_servo: ctl2's program is an array of lines; line 1
  // is a comment. Typing a syntax error into line 9 ("var e = ...; )") is
  // refused with the script line; fixed, OK applies the
  // new program as one undo step, and undo restores the original data.
  void scriptEditTypeCheckOkUndo() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("script_pid_servo.pneumech.json")));
    const Project original = w.project();
    const nlohmann::json data0 = original.find("ctl2")->data;
    QCOMPARE(w.propertyEditor()->dataButton()->isVisible(), false);

    // QPointer: the editor deletes itself once closed (WA_DeleteOnClose).
    const QPointer<DataEditor> dlg = openEditorOf(w, "ctl2");
    QVERIFY(dlg);
    QCOMPARE(w.propertyEditor()->dataButton()->text(), QString("Edit script..."));
    QVERIFY(QTest::qWaitForWindowExposed(dlg));
    QCOMPARE(dlg->kind(), DataEditor::Kind::Script);
    QPlainTextEdit* text = dlg->textEdit();
    QVERIFY(text);
    QCOMPARE(text->document()->blockCount(), int(data0["script"].size()));
    QCOMPARE(text->document()->findBlockByNumber(8).text(), QString("  var e = inp.r - inp.x;"));

    // A syntax error in line 9: the check names data.script and line 9;
    // OK is refused (dialog open, model unchanged).
    typeAtEndOfLine(text, 9, " )");
    QTest::mouseClick(dlg->findChild<QPushButton*>("checkButton"), Qt::LeftButton);
    const QString msg = dlg->message();
    qInfo("check: %s", qPrintable(msg));
    QVERIFY2(msg.contains("ctl2") && msg.contains("data.script") && msg.contains("line 9"), qPrintable(msg));
    QCOMPARE(text->textCursor().blockNumber(), 8);  // the cursor is put on the line
    QVERIFY(dlg->grab().save("gui_data_editor_script.png"));  // in the working directory, for a look
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY(dlg->isVisible());
    QVERIFY(w.project() == original);

    // Fix it by typing: "var e = inp.r - inp.x + 0.001;" (an offset of 1 mm).
    typeAtEndOfLine(text, 9, "");
    for (int k = 0; k < 3; ++k) QTest::keyClick(text, Qt::Key_Backspace);  // " )" and ';'
    QTest::keyClicks(text, " + 0.001;");
    QTest::mouseClick(dlg->findChild<QPushButton*>("checkButton"), Qt::LeftButton);
    QCOMPARE(dlg->message(), QString("No errors."));
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY(!dlg || !dlg->isVisible());

    const nlohmann::json& d = w.project().find("ctl2")->data;
    QCOMPARE(d["script"].size(), data0["script"].size());
    QCOMPARE(QString::fromStdString(d["script"][8].get<std::string>()), QString("  var e = inp.r - inp.x + 0.001;"));
    for (size_t i = 0; i < d["script"].size(); ++i)
      if (i != 8) QCOMPARE(d["script"][i], data0["script"][i]);
    QCOMPARE(d["inputs"], data0["inputs"]);
    QCOMPARE(d["outputs"], data0["outputs"]);
    QCOMPARE(w.document()->undoStack()->undoText(), QString("Data of ctl2"));

    w.document()->undoStack()->undo();
    QVERIFY(w.project() == original);
  }

  // projects/script_plc_cycle (copied to a temporary folder with its
  // script_plc_cycle.js): plc's program lives in data.file. The editor shows
  // the file's text, editable; a syntax error typed into line 13 is refused
  // naming data.file, the file and line 13 (cursor put there), and neither
  // the file nor the project changes; the dwell typed from 0.3 to 0.45 s in
  // line 9 passes "Check", and OK writes the file (no temporary left
  // beside it) while data.file keeps its reference and the project is
  // unchanged. Reopened, the editor shows the saved text.
  void scriptFileEditSavesTheFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString proj = dir.filePath("plc.pneumech.json"), js = dir.filePath("script_plc_cycle.js");
    QVERIFY(QFile::copy(example("script_plc_cycle.pneumech.json"), proj));
    QVERIFY(QFile::copy(example("script_plc_cycle.js"), js));
    QFile::setPermissions(js, QFile::ReadOwner | QFile::WriteOwner);
    const QString js0 = readFile(js);

    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(proj));
    const Project original = w.project();
    QCOMPARE(QString::fromStdString(original.find("plc")->data["file"].get<std::string>()),
             QString("script_plc_cycle.js"));
    DataEditor* dlg = openEditorOf(w, "plc");
    QVERIFY(dlg);
    QVERIFY(QTest::qWaitForWindowExposed(dlg));
    QCOMPARE(dlg->kind(), DataEditor::Kind::Script);
    QPlainTextEdit* text = dlg->textEdit();
    QVERIFY(!text->isReadOnly());
    QCOMPARE(text->toPlainText(), js0);
    QCOMPARE(text->document()->findBlockByNumber(8).text(), QString("const dwell = 0.3;"));
    QVERIFY(dlg->findChild<QLabel*>("scriptFile"));

    // A syntax error in line 13: refused with its line, nothing written.
    typeAtEndOfLine(text, 13, " )");
    QTest::mouseClick(dlg->findChild<QPushButton*>("checkButton"), Qt::LeftButton);
    QString msg = dlg->message();
    qInfo("check: %s", qPrintable(msg));
    QVERIFY2(msg.startsWith("plc: data.file: script_plc_cycle.js") && msg.contains("line 13"), qPrintable(msg));
    QCOMPARE(text->textCursor().blockNumber(), 12);
    QVERIFY(dlg->grab().save("gui_data_editor_script_file.png"));
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY(dlg->isVisible());
    QCOMPARE(readFile(js), js0);
    QVERIFY(w.project() == original);

    // Fixed, and the dwell changed: Check passes, OK saves the file.
    typeAtEndOfLine(text, 13, "");
    for (int k = 0; k < 2; ++k) QTest::keyClick(text, Qt::Key_Backspace);
    typeAtEndOfLine(text, 9, "");
    for (int k = 0; k < 3; ++k) QTest::keyClick(text, Qt::Key_Backspace);  // "0.3;" -> "0"
    QTest::keyClicks(text, ".45;");
    QCOMPARE(text->document()->findBlockByNumber(8).text(), QString("const dwell = 0.45;"));
    QTest::mouseClick(dlg->findChild<QPushButton*>("checkButton"), Qt::LeftButton);
    QCOMPARE(dlg->message(), QString("No errors."));
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY2(!dlg->isVisible(), qPrintable(dlg->message()));
    QString expected = js0;
    expected.replace("const dwell = 0.3;", "const dwell = 0.45;");
    QCOMPARE(readFile(js), expected);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"plc.pneumech.json", "script_plc_cycle.js"}));
    QVERIFY(w.project() == original);  // data.file, inputs and outputs as they were

    DataEditor* again = openEditorOf(w, "plc");
    QVERIFY(again);
    QCOMPARE(again->textEdit()->toPlainText(), expected);
    again->reject();
  }

  // The program file obeys the project's folder rule when read and written
  // (issue #26, point 4): a file outside it (a relative path leaving the
  // folder, an absolute path) is not read, and OK neither writes it nor
  // closes; inside, OK keeps a 0600 file 0600 and refuses to replace a
  // symbolic link (the link and its target stay as they were).
  void scriptFileConfinedToProjectFolder() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("proj") && QDir(dir.path()).mkpath("outside"));
    const QString victim = dir.filePath("outside/victim.js"), own = dir.filePath("proj/own.js");
    QVERIFY(QFile::copy(example("script_plc_cycle.js"), victim));
    QVERIFY(QFile::copy(example("script_plc_cycle.js"), own));
    const QFileDevice::Permissions privateFile = QFile::ReadOwner | QFile::WriteOwner;
    QVERIFY(QFile::setPermissions(victim, privateFile) && QFile::setPermissions(own, privateFile));
    QVERIFY(QFile::link("own.js", dir.filePath("proj/link.js")));
    const QString js0 = readFile(own);
    const QString projectText = readFile(example("script_plc_cycle.pneumech.json"));
    const QString proj = dir.filePath("proj/plc.pneumech.json");
    auto projectWith = [&](const QString& ref) {
      QString text = projectText;
      text.replace("\"file\": \"script_plc_cycle.js\"", "\"file\": \"" + ref + "\"");
      QFile f(proj);
      if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write %s", qPrintable(proj));
      f.write(text.toUtf8());
      return proj;
    };

    // Edits the program of `ref` (a comment appended to line 1, or a whole
    // program when none was read), presses OK; returns the dialog's message,
    // "" when it closed.
    auto editAndOk = [&](const QString& ref, QString* opened) -> QString {
      MainWindow w;  // one per project, as a user opening it afresh
      w.show();
      if (!QTest::qWaitForWindowExposed(&w)) return "no window";
      if (!w.openProject(projectWith(ref))) return "not opened";
      DataEditor* dlg = openEditorOf(w, "plc");
      if (!dlg) return "no editor";
      *opened = dlg->message();
      const bool empty = dlg->textEdit()->toPlainText().isEmpty();
      typeAtEndOfLine(dlg->textEdit(), 1, empty ? "function step(t) { return {}; }" : " edited");
      QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
      const QString msg = dlg->isVisible() ? dlg->message() : QString();
      if (dlg->isVisible()) dlg->reject();
      return msg;
    };
    const std::vector<std::pair<QString, QString>> outside = {
        {"../outside/victim.js", "it is outside the project's folder"}, {victim, "it is an absolute path"}};
    for (const auto& [ref, reason] : outside) {
      QString opened;
      const QString msg = editAndOk(ref, &opened);
      qInfo("%s: %s | %s", qPrintable(ref), qPrintable(opened), qPrintable(msg));
      QVERIFY2(opened.contains("plc: data.file: " + ref + ": " + reason), qPrintable(opened));
      QVERIFY2(msg.contains("plc: data.file: " + ref + ": " + reason), qPrintable(msg));
      QCOMPARE(readFile(victim), js0);
    }
    QCOMPARE(QFile::permissions(victim) & 0x7077, privateFile);

    QString opened;
    QCOMPARE(editAndOk("own.js", &opened), QString());
    QVERIFY(readFile(own).startsWith("// PLC-style cycle of two cylinders, one scan per sample (Ts = 5 ms): edited\n"));
    QCOMPARE(QFile::permissions(own) & 0x7077, privateFile);

    const QString saved = readFile(own);
    const QString msg = editAndOk("link.js", &opened);
    QVERIFY2(msg.contains("link.js: is a symbolic link"), qPrintable(msg));
    QVERIFY(QFileInfo(dir.filePath("proj/link.js")).isSymLink());
    QCOMPARE(readFile(own), saved);
    QCOMPARE(readFile(victim), js0);
  }

  // Inputs and outputs are edited in their line; an input without a
  // reference is refused naming the field.
  void scriptInputsRefused() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("script_pid_servo.pneumech.json")));
    const Project original = w.project();
    DataEditor* dlg = openEditorOf(w, "ctl2");
    QVERIFY(dlg);
    QLineEdit* in = dlg->inputsEdit();
    QCOMPARE(in->text(), QString("r=sp.out, x=cyl2.x"));
    in->selectAll();
    QTest::keyClicks(in, "r=sp.out, x");
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY2(dlg->message().contains("data.inputs") && dlg->message().contains("'x'"), qPrintable(dlg->message()));
    QVERIFY(dlg->isVisible());
    QVERIFY(w.project() == original);
    dlg->reject();
  }

  // projects/sequence_a_b_b_a: the step table shows one row per step; typing
  // a new condition for step "A+" and a value for step "B+" changes the data
  // (one undo step), an unknown output in a "Sets" cell is refused with the
  // sequence's own message.
  void sequenceTableEdit() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("sequence_a_b_b_a.pneumech.json")));
    const Project original = w.project();
    const nlohmann::json data0 = original.find("seq")->data;
    DataEditor* dlg = openEditorOf(w, "seq");
    QVERIFY(dlg);
    QCOMPARE(dlg->kind(), DataEditor::Kind::Sequence);
    dlg->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dlg));
    QTableWidget* t = dlg->table();
    QCOMPARE(t->rowCount(), int(data0["steps"].size()));
    QCOMPARE(t->item(1, 0)->text(), QString("A+"));
    QCOMPARE(t->item(1, 1)->text(), QString("Y1=1"));
    QCOMPARE(t->item(1, 2)->text(), QString("a1.out"));
    QCOMPARE(dlg->outputsEdit()->text(), QString("Y1, Y2"));

    typeIntoCell(t, 1, 2, "a1.out, T1.out");
    typeIntoCell(t, 2, 1, "Y3=1");
    QCOMPARE(t->item(1, 2)->text(), QString("a1.out, T1.out"));
    QCOMPARE(t->item(2, 1)->text(), QString("Y3=1"));
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    qInfo("refused: %s", qPrintable(dlg->message()));
    QVERIFY2(dlg->message().contains("seq: data.steps[2].set") && dlg->message().contains("Y3"),
             qPrintable(dlg->message()));
    QVERIFY(w.project() == original);
    QVERIFY(dlg->grab().save("gui_data_editor_sequence.png"));
    typeIntoCell(t, 2, 1, "Y2=1, Y1=1");
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY2(!dlg->isVisible(), qPrintable(dlg->message()));

    const nlohmann::json& d = w.project().find("seq")->data;
    QCOMPARE(d["steps"][1]["when"], nlohmann::json({"a1.out", "T1.out"}));
    QCOMPARE(d["steps"][2]["set"], nlohmann::json({{"Y1", 1.0}, {"Y2", 1.0}}));
    for (size_t i = 0; i < d["steps"].size(); ++i)
      if (i != 1 && i != 2) QCOMPARE(d["steps"][i], data0["steps"][i]);
    QCOMPARE(d["outputs"], data0["outputs"]);
    w.document()->undoStack()->undo();
    QVERIFY(w.project() == original);
  }

  // projects/servo_axis: the set-point table's points as rows (t, value);
  // the held position typed from 0.15 to 0.16 m changes that point only
  // (one undo step); a value that is not a number is refused naming the
  // point.
  void timeTableEdit() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("servo_axis.pneumech.json")));
    const Project original = w.project();
    const nlohmann::json data0 = original.find("sp")->data;
    DataEditor* dlg = openEditorOf(w, "sp");
    QVERIFY(dlg);
    QCOMPARE(w.propertyEditor()->dataButton()->text(), QString("Edit table..."));
    QCOMPARE(dlg->kind(), DataEditor::Kind::Points);
    dlg->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dlg));
    QTableWidget* t = dlg->table();
    QCOMPARE(t->rowCount(), int(data0["points"].size()));
    QCOMPARE(t->item(2, 1)->text(), QString("0.15"));
    typeIntoCell(t, 2, 1, "0.l6");
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY2(dlg->message().contains("sp: data.points[2][1]") && dlg->message().contains("0.l6"),
             qPrintable(dlg->message()));
    QVERIFY(w.project() == original);
    typeIntoCell(t, 2, 1, "0.16");
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    QVERIFY2(!dlg->isVisible(), qPrintable(dlg->message()));
    nlohmann::json expected = data0;
    expected["points"][2][1] = 0.16;
    QCOMPARE(w.project().find("sp")->data, expected);
    w.document()->undoStack()->undo();
    QVERIFY(w.project() == original);
  }

  // The step table numbers its rows from 0 as the engine's messages index
  // steps (steps[k]): a refused "Sets" cell in the row labelled 4 yields a
  // message about steps[4]; an added step renumbers the rows. The time
  // table's points are numbered the same way (points[k]).
  void rowsNumberedAsMessagesIndexThem() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("sequence_a_b_b_a.pneumech.json")));
    const Project original = w.project();
    DataEditor* dlg = openEditorOf(w, "seq");
    QVERIFY(dlg);
    dlg->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dlg));
    QTableWidget* t = dlg->table();
    const int n = t->rowCount();
    QCOMPARE(rowLabels(t), zeroTo(n));
    QCOMPARE(t->item(4, 0)->text(), QString("B-"));
    typeIntoCell(t, 4, 1, "Y9=0");
    QTest::mouseClick(dlg->findChild<QPushButton*>("okButton"), Qt::LeftButton);
    qInfo("row labelled %s refused: %s", qPrintable(rowLabels(t)[4]), qPrintable(dlg->message()));
    QVERIFY2(dlg->message().contains("data.steps[" + rowLabels(t)[4] + "]"), qPrintable(dlg->message()));
    QVERIFY(dlg->grab().save("gui_data_editor_sequence_rows.png"));
    typeIntoCell(t, 4, 1, "Y2=0");
    t->setCurrentCell(1, 0);
    QTest::mouseClick(dlg->findChild<QPushButton*>("addRow"), Qt::LeftButton);
    QCOMPARE(t->rowCount(), n + 1);
    QCOMPARE(rowLabels(t), zeroTo(n + 1));
    QCOMPARE(t->item(5, 0)->text(), QString("B-"));  // moved down one
    QTest::mouseClick(dlg->findChild<QPushButton*>("removeRow"), Qt::LeftButton);
    QCOMPARE(rowLabels(t), zeroTo(n));
    dlg->reject();
    QVERIFY(w.project() == original);

    QVERIFY(w.openProject(example("servo_axis.pneumech.json")));
    DataEditor* pts = openEditorOf(w, "sp");
    QVERIFY(pts);
    QCOMPARE(rowLabels(pts->table()), zeroTo(pts->table()->rowCount()));
    pts->reject();
  }

  // Copy the sequence with both cylinders, their limit switches, the start
  // button and the timer, paste: the copy's conditions (data.steps[k].when)
  // name the copied switches, timer and button; the copied switches read the
  // copied cylinders; nothing in the copy refers to an original.
  void pasteRenamesReferencesInData() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(example("sequence_a_b_b_a.pneumech.json")));
    const Project original = w.project();
    const std::set<std::string> chosen = {"seq", "A", "B", "a0", "a1", "b0", "b1", "start", "T1"};
    w.scene()->selectObjects(chosen);
    SchematicView* view = w.schematicView();
    QVERIFY(view->copySelection());
    QVERIFY(view->paste());
    const Project& p = w.project();
    QCOMPARE(p.components.size(), original.components.size() + chosen.size());
    std::map<std::string, std::string> copyOf;  // original id -> copy id, by order of addition
    {
      size_t k = original.components.size();
      for (const Component& c : original.components)
        if (chosen.count(c.id)) copyOf[c.id] = p.components[k++].id;
    }
    for (const auto& [o, c] : copyOf) QCOMPARE(p.find(c)->type, original.find(o)->type);
    const Component* seq2 = p.find(copyOf["seq"]);
    QVERIFY(seq2);
    const nlohmann::json& steps = seq2->data["steps"];
    const nlohmann::json& steps0 = original.find("seq")->data["steps"];
    QCOMPARE(steps.size(), steps0.size());
    int refs = 0;
    for (size_t i = 0; i < steps.size(); ++i) {
      QCOMPARE(steps[i]["when"].size(), steps0[i]["when"].size());
      for (size_t j = 0; j < steps[i]["when"].size(); ++j) {
        const std::string r0 = steps0[i]["when"][j], r = steps[i]["when"][j];
        const std::string id0 = r0.substr(0, r0.find('.'));
        QCOMPARE(QString::fromStdString(r), QString::fromStdString(copyOf.at(id0) + r0.substr(id0.size())));
        ++refs;
      }
      QCOMPARE(steps[i]["set"], steps0[i]["set"]);
    }
    qInfo("%d conditions renamed, e.g. %s -> %s", refs, steps0[0]["when"][0].get<std::string>().c_str(),
          steps[0]["when"][0].get<std::string>().c_str());
    QVERIFY(refs >= 6);
    for (const char* sw : {"a0", "a1", "b0", "b1"}) {
      const std::string cyl = sw[0] == 'a' ? "A" : "B";
      QCOMPARE(QString::fromStdString(p.find(copyOf[sw])->inputs.at("position")),
               QString::fromStdString(copyOf[cyl] + ".x"));
    }
    QCOMPARE(QString::fromStdString(p.find(copyOf["T1"])->inputs.at("in")), QString::fromStdString(copyOf["b1"] + ".out"));
    // The originals are untouched.
    QCOMPARE(p.find("seq")->data, original.find("seq")->data);
    w.document()->undoStack()->undo();
    QVERIFY(w.project() == original);
  }
};

QTEST_MAIN(TestGuiDataEditor)
#include "test_gui_data_editor.moc"
