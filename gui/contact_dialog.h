// Add Contact (issue 27; ADAMS's Contact tool): a contact pair between two
// parts, each shape chosen among those the part's display geometry offers
// (contact_editing.h: a box, sphere, cylinder or link as a capsule, or a
// plane at a marker), with the pair's parameters in display units and
// their declared defaults. OK checks the pair as a run does (the core's
// message shown in the dialog, which stays open) and adds it, with a marker
// a shape needs, as one undoable edit; the pair becomes the selection.
// A part that cannot move also offers "Mesh from STL/OBJ file...": a file
// in the project's folder (Browse copies one from elsewhere into it), in
// mm or m, at the part's frame.
#pragma once

#include <QDialog>
#include <QString>

#include <map>
#include <string>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace pm::gui {

class Document;
class SelectionModel;

class ContactDialog : public QDialog {
  Q_OBJECT
 public:
  // `partI`, `partJ`: the parts offered first ("" or unknown: the first
  // parts of the model).
  ContactDialog(Document* doc, SelectionModel* selection, const QString& partI, const QString& partJ,
                QWidget* parent = nullptr);

  QComboBox* partBox(int side) const { return part_[side]; }
  QComboBox* shapeBox(int side) const { return shape_[side]; }
  QLineEdit* paramEdit(const std::string& name) const;
  // The mesh's file (relative to the project's folder) and its units.
  QLineEdit* meshFileEdit() const { return meshFile_; }
  QComboBox* meshUnitBox() const { return meshUnit_; }
  static constexpr const char* kMeshChoice = "mesh";  // the shape boxes' item data
  QString message() const;

 private:
  void fillShapes(int side);
  void markUnsupported();
  void showMeshRow();
  void browseMesh();
  // "" when the pair was added, else the reason (shown).
  QString add();

  Document* doc_;
  SelectionModel* selection_;
  QLineEdit* id_;
  QComboBox* part_[2];
  QComboBox* shape_[2];
  std::map<std::string, QLineEdit*> params_;
  std::map<std::string, QString> initial_;  // the parameters' texts as first shown
  QLabel* message_;
  QFormLayout* form_;
  QWidget* meshRow_;
  QLineEdit* meshFile_;
  QComboBox* meshUnit_;
};

}  // namespace pm::gui
