// The editor of a component's `data`, opened from the property editor:
// - script_controller: the program as multi-line text (syntax-checked by
//   compiling the component through the engine's own path, so an error names
//   its line), its inputs ("name=ref, ...") and outputs ("u, sol14" or
//   "u=0.5"); a program kept in a file (data.file) is loaded, checked from
//   the text, and saved to the file atomically on OK (the reference stays);
// - step_sequence: outputs, cyclic, and one table row per step (name, the
//   outputs it sets, the conditions of its transition);
// - time_table: one row per point (t, value);
//   both tables number their rows from 0, as messages index them (steps[k]);
// - any other type: the data as JSON text.
// OK checks the data (the type's check_data, and the compile for scripts);
// a refusal stays in the dialog with its message, otherwise the new data is
// one undoable edit of the Document.
#pragma once

#include "model/project.h"

#include <QDialog>

#include <string>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;
class QVBoxLayout;

namespace pm::gui {

class Document;

class DataEditor : public QDialog {
  Q_OBJECT
 public:
  enum class Kind { Script, Sequence, Points, Json };

  DataEditor(Document* doc, const std::string& componentId, QWidget* parent = nullptr);

  // Whether component `c` has data this editor handles, and the button text.
  static bool handles(const Component& c);
  static QString actionText(const Component& c);

  Kind kind() const { return kind_; }
  QPlainTextEdit* textEdit() const { return text_; }  // script or JSON; nullptr for tables
  QTableWidget* table() const { return table_; }      // steps or points; nullptr otherwise
  QLineEdit* inputsEdit() const { return inputs_; }   // script inputs
  QLineEdit* outputsEdit() const { return outputs_; } // script or sequence outputs
  QCheckBox* cyclicBox() const { return cyclic_; }
  QString message() const;

  // The data the fields describe, checked as the engine checks it; "" when
  // it passes, else the refusal (also shown in the dialog).
  QString check();

  void accept() override;

 private:
  void buildScript(const Component& c);
  void buildSequence(const Component& c);
  void buildPoints(const Component& c);
  void buildJson(const Component& c);
  void addRowButtons(QVBoxLayout* lay, const QString& addText, const QString& removeText);
  // The data from the fields; throws std::runtime_error naming the field.
  nlohmann::json collect() const;
  void showMessage(const QString& text);

  Document* doc_;
  std::string id_;
  Kind kind_ = Kind::Json;
  bool scriptLines_ = true;     // data.script was (or becomes) an array of lines
  bool scriptFromFile_ = false; // data.file: the program is edited here and saved to the file on OK
  QString scriptFile_;          // its absolute path
  QString fileText_;            // its text as read (or last written)
  bool outputsObject_ = false;  // script outputs as {name: initial}
  QPlainTextEdit* text_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLineEdit* inputs_ = nullptr;
  QLineEdit* outputs_ = nullptr;
  QCheckBox* cyclic_ = nullptr;
  QLabel* message_ = nullptr;
};

}  // namespace pm::gui
