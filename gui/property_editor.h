// The property editor for the schematic selection: identification code,
// parameters in engineering units with a unit choice per parameter, standard
// sizes as an editable list where a catalogue exists, range checks with the
// refusal shown in place, descriptions as tooltips. Mechanism objects (parts,
// markers, joints, forces, motions) show their fields in a MechanismForm
// instead. Every accepted value is one undoable edit of the Document.
#pragma once

#include <QWidget>

#include <string>

class QComboBox;
class QPushButton;
class QFormLayout;
class QLabel;
class QLineEdit;
class QScrollArea;
class QTableView;

namespace pm::gui {

class AttachmentBox;
class DataEditor;
class Document;
class MechanismForm;
class ParamModel;

class PropertyEditor : public QWidget {
  Q_OBJECT
 public:
  explicit PropertyEditor(Document* doc, QWidget* parent = nullptr);

  // Shows component `id` ("" for none); `count` objects are selected in all.
  void showComponent(const std::string& id, int count = 1);
  // Shows any object by id: a component, or a mechanism object in the form.
  void showObject(const std::string& id);
  MechanismForm* mechanismForm() const { return mechForm_; }
  const std::string& componentId() const;
  QTableView* table() const { return table_; }
  ParamModel* model() const { return model_; }
  QLineEdit* codeEdit() const { return code_; }
  QString message() const;  // the last refusal shown, empty when none
  // The editor of signal input `name` ("sol14"), nullptr when absent.
  QComboBox* inputEditor(const QString& name) const;
  // The button opening the data editor (script, sequence, table), hidden
  // when the shown component has no data to edit.
  QPushButton* dataButton() const { return dataButton_; }
  // "Choose from catalogue": the entries of the shown component's type, the
  // first item "(none)"; choosing one is one undoable edit. Hidden when the
  // catalogue has none of the type.
  QComboBox* catalogueChoice() const { return catalogue_; }
  // A cylinder's attachment to the mechanism, with Detach and Re-pick.
  AttachmentBox* attachmentBox() const { return attachment_; }
  // Opens the data editor of the shown component (window-modal, not
  // blocking); its OK applies the edit. nullptr when there is none.
  DataEditor* openDataEditor();

 signals:
  void rejected(const QString& message);

 private:
  void onDocumentChanged();
  void showMessage(const QString& text);
  void rebuildInputs();
  void rebuildCatalogueChoice();
  void choosePart(int index);

  Document* doc_;
  QLabel* title_;
  QLineEdit* code_;
  QComboBox* catalogue_;
  QLabel* catalogueLabel_;
  QWidget* inputsBox_;
  QFormLayout* inputs_;
  QTableView* table_;
  ParamModel* model_;
  QLabel* message_;
  QPushButton* dataButton_;
  AttachmentBox* attachment_;
  QWidget* componentPage_;
  MechanismForm* mechForm_;
  QScrollArea* mechPage_;
};

}  // namespace pm::gui
