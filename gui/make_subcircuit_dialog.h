// Edit > Make Sub-circuit... (issue 24): the selected components become one
// instance of a new sub-circuit type. The dialog asks for the type's name
// and the instance's id and lists the external ports (the lines crossing
// the selection's boundary) and inputs (signals read from outside), each
// named after the inner port or input it stands for, editable. OK makes
// it, one undo step (subcircuit_making.h); a refusal is shown in place.
// The inner parameters the user ticks become the type's parameters.
#pragma once

#include "subcircuit_making.h"

#include <QDialog>

#include <set>
#include <string>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace pm::gui {

class Document;

class MakeSubcircuitDialog : public QDialog {
  Q_OBJECT
 public:
  MakeSubcircuitDialog(Document* doc, std::set<std::string> ids, QWidget* parent = nullptr);

  QLineEdit* typeEdit() const { return type_; }
  QLineEdit* instanceEdit() const { return instance_; }
  // One row per external port, then per input: name (editable), what it stands for.
  QTableWidget* table() const { return table_; }
  // One row per inner parameter: checked ones become the type's parameters
  // (name editable), each instance then sets it.
  QTableWidget* parameterTable() const { return params_; }
  QPushButton* okButton() const { return ok_; }
  QString message() const;
  // The ports and inputs with the names as edited.
  SubcircuitPlan plan() const;

  void accept() override;

 signals:
  void made(const QString& instance);

 private:
  Document* doc_;
  std::set<std::string> ids_;
  SubcircuitPlan plan_;
  QLineEdit* type_;
  QLineEdit* instance_;
  QTableWidget* table_;
  std::vector<ExposedParam> exposable_;
  QTableWidget* params_;
  QLabel* message_;
  QPushButton* ok_;
};

}  // namespace pm::gui
