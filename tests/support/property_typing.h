// Typing a parameter's value into the studio's property editor as a user
// does: the value cell opened for editing, the text typed over what is
// there, Return. Header-only; GUI tests only.
#pragma once

#include "param_model.h"
#include "property_editor.h"

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

}  // namespace pm::test
