// Project properties (File -> Project Properties): what the report a
// customer receives says about the project: title, customer, prepared by,
// the machine's description, the logo (an image file, kept as a path
// relative to the project file), the customer's required cycle time, and
// the engineers' technical notes that the report leaves out. OK checks the
// logo and the time and applies everything as one undoable edit.
#pragma once

#include "model/project.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace pm::gui {

class Document;

class ProjectPropertiesDialog : public QDialog {
  Q_OBJECT
 public:
  // `projectDir`: the project file's folder (empty for an unsaved project),
  // against which a relative logo path is read.
  ProjectPropertiesDialog(const Metadata& meta, const QString& projectDir, QWidget* parent = nullptr);

  // The properties as typed; false with `error` set when the logo cannot
  // be read or the required cycle time is not a positive number of seconds.
  bool read(Metadata* meta, QString* error) const;

  // The widgets by role, for tests and keyboard users alike.
  QLineEdit* titleEdit() const { return title_; }
  QLineEdit* customerEdit() const { return customer_; }
  QLineEdit* authorEdit() const { return author_; }
  QPlainTextEdit* descriptionEdit() const { return description_; }
  QPlainTextEdit* notesEdit() const { return notes_; }
  QLineEdit* logoEdit() const { return logo_; }
  QLineEdit* cycleTimeEdit() const { return cycleTime_; }
  QLabel* messageLabel() const { return message_; }

 private:
  QString projectDir_;
  QLineEdit* title_;
  QLineEdit* customer_;
  QLineEdit* author_;
  QPlainTextEdit* description_;
  QPlainTextEdit* notes_;
  QLineEdit* logo_;
  QLineEdit* cycleTime_;
  QLabel* message_;
};

// Opens the dialog (window-modal, deleted on close) on the document's
// project; OK applies it as one undoable edit "Project properties".
ProjectPropertiesDialog* openProjectProperties(QWidget* parent, Document* doc);

}  // namespace pm::gui
