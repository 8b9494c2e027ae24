// Ctrl+Z and Redo in a text field of a form (issue 28: "Ctrl+Z works while
// a property field has focus"). A QLineEdit takes the Undo and Redo keys
// for itself even with nothing of its own to undo, so after a value was
// committed they did nothing. With passUndoToDocument, the field keeps
// them only while it holds typing not yet committed (isModified()); else
// they reach the window's Undo and Redo actions: the document's.
#pragma once

class QLineEdit;

namespace pm::gui {

void passUndoToDocument(QLineEdit* field);

}  // namespace pm::gui
