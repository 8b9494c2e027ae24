// Beside the inside of a sub-circuit (issue 24): the type's external ports
// and exposed parameters, with what each stands for inside. An inner port or
// parameter is picked from a list, named, and exposed; a row selected is
// taken back. Each change is one undo step of the project and every
// instance follows (subcircuit_interface.h).
#pragma once

#include "model/project.h"

#include <QWidget>

#include <functional>
#include <string>

class QComboBox;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace pm::gui {

class Document;

class SubcircuitInterfacePanel : public QWidget {
  Q_OBJECT
 public:
  // `inside`: the Document of the type's inside (its outer() holds the definition).
  explicit SubcircuitInterfacePanel(Document* inside, QWidget* parent = nullptr);

  QTableWidget* portsTable() const { return ports_; }
  QTableWidget* parametersTable() const { return params_; }

 signals:
  void statusMessage(const QString& text);  // why a change was refused

 private:
  void refresh();
  // Runs one change of the interface on the project as one undo step.
  void apply(const QString& text, const std::function<std::string(Project&)>& change);
  void exposePort();
  void removePort();
  void exposeParameter();
  void removeParameter();

  Document* inside_;
  std::string type_;
  QTableWidget* ports_;
  QComboBox* portChoice_;
  QLineEdit* portName_;
  QTableWidget* params_;
  QComboBox* paramChoice_;
  QLineEdit* paramName_;
};

}  // namespace pm::gui
