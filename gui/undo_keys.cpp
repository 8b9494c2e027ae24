#include "undo_keys.h"

#include <QEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLineEdit>

namespace pm::gui {

namespace {

class UndoKeys : public QObject {
 public:
  explicit UndoKeys(QLineEdit* field) : QObject(field), field_(field) {}

  bool eventFilter(QObject* watched, QEvent* ev) override {
    if (watched != field_ || ev->type() != QEvent::ShortcutOverride || field_->isModified()) return false;
    auto* key = static_cast<QKeyEvent*>(ev);
    if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo)) return false;
    key->ignore();  // not overridden: the shortcut (the window's action) takes it
    return true;
  }

 private:
  QLineEdit* field_;
};

}  // namespace

void passUndoToDocument(QLineEdit* field) { field->installEventFilter(new UndoKeys(field)); }

}  // namespace pm::gui
