// Typing as a user does: a parameter's value into the studio's property
// editor (the value cell opened for editing, the text typed over what is
// there, Return), or text into a dialog's field. Header-only; GUI tests only.
#pragma once

#include "param_model.h"
#include "property_editor.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QString>
#include <QTableView>
#include <QtTest>

#include <string>

namespace pm::test {

// Types `text` into the value cell of `param` in property editor `pe`.
inline void typeParam(gui::PropertyEditor* pe, const std::string& param, const QString& text) {
  QTableView* view = pe->table();
  gui::ParamModel* model = pe->model();
  const QModelIndex idx = model->index(model->rowOf(param), gui::ParamModel::Value);
  QVERIFY2(idx.isValid(), param.c_str());
  view->setFocus();
  view->setCurrentIndex(idx);
  view->edit(idx);
  QTest::qWait(10);
  QLineEdit* editor = nullptr;
  for (QLineEdit* e : view->findChildren<QLineEdit*>())
    if (e->isVisible()) editor = e;
  QVERIFY(editor);
  editor->selectAll();
  QTest::keyClicks(editor, text);
  QTest::keyClick(editor, Qt::Key_Return);
  QTest::qWait(10);
}

// Types `text` over what line edit `e` holds, as a user does.
inline void typeInto(QLineEdit* e, const QString& text) {
  QVERIFY(e);
  e->setFocus();
  e->selectAll();
  QTest::keyClicks(e, text);
}

// Types `text` into combo box `c`: its keyboard search picks the item (a
// new search once the input interval has passed since the last keys).
inline void typeInto(QComboBox* c, const QString& text) {
  QVERIFY(c);
  QTest::qWait(QApplication::keyboardInputInterval() + 50);
  QTest::keyClicks(c, text);
}

// A dialog's field found by name: a line edit or a combo box.
inline void typeInto(QWidget* field, const QString& text) {
  if (auto* e = qobject_cast<QLineEdit*>(field)) typeInto(e, text);
  else if (auto* c = qobject_cast<QComboBox*>(field)) typeInto(c, text);
  else QFAIL("typeInto: no line edit or combo box");
}

}  // namespace pm::test
