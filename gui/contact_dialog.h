// Add Contact (issue 27; ADAMS's Contact tool): a contact pair between two
// parts, each shape chosen among those the part's display geometry offers
// (contact_editing.h: a box, sphere, cylinder or link as a capsule, or a
// plane at a marker), with the pair's parameters in display units and
// their declared defaults. OK checks the pair as a run does (the core's
// message shown in the dialog, which stays open) and adds it, with a marker
// a shape needs, as one undoable edit; the pair becomes the selection.
// A part that cannot move also offers "Mesh from STL/OBJ file...": a file
// in the project's folder (Browse copies one from elsewhere into it), in
// mm or m, its axes the part frame's.
// Each side's marker box chooses the marker the shape sits on, for every
// shape, a mesh too: "at the shape" (the marker the option names, or one
// added there) or any marker of the body. Flexible bodies are offered
// beside the parts, with a sphere, a box or a plane on one of their
// markers (the engine keeps the names "<body>.<marker>" on its node bodies).
// Each side's sizes are typed in the dialog (mm; SI in the model): the
// fields are those the core declares for the shape chosen
// (contactSizeFields, the core's description of each as its tip), valued
// from the drawn shape, or by the core's rules from the part's drawing or
// the flexible body's section; one not > 0 is refused, naming its field.
// What was typed stays by size name when the shape changes (a radius typed
// for a sphere is the cylinder's radius, and a length typed for the
// cylinder comes back when it is chosen again). Every shape the core has is
// offered on a part, the ones not drawn at the core's default sizes.
// "Pick in 3D" hides the dialog while the user clicks a marker or a part
// in the 3D view (MechanismView's marker pick, parts too): the side takes
// that body, and that marker with the shape centred on it when there is one.
#pragma once

#include <QDialog>
#include <QString>

#include "contact_editing.h"

#include <map>
#include <string>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace pm::gui {

class Document;
class MechanismView;
class SelectionModel;

class ContactDialog : public QDialog {
  Q_OBJECT
 public:
  // `partI`, `partJ`: the parts (or flexible bodies) offered first ("" or
  // unknown: the first parts of the model). `view`: where Pick in 3D
  // clicks (null: no picking).
  ContactDialog(Document* doc, SelectionModel* selection, MechanismView* view, const QString& partI,
                const QString& partJ, QWidget* parent = nullptr);

  QComboBox* partBox(int side) const { return part_[side]; }
  QComboBox* shapeBox(int side) const { return shape_[side]; }
  // Item data: the marker's id, "" for "at the shape" (rigid parts only).
  QComboBox* markerBox(int side) const { return marker_[side]; }
  QPushButton* pickButton(int side) const { return pick_[side]; }
  // The side being picked in the 3D view (-1: none).
  int picking() const { return picking_; }
  QLineEdit* paramEdit(const std::string& name) const;
  // Side `side`'s field for size `name` ("radius", "lx", ...) of the shape
  // chosen (null: the shape has no such size).
  QLineEdit* sizeEdit(int side, const std::string& name) const;
  // The mesh's file (relative to the project's folder) and its units.
  QLineEdit* meshFileEdit() const { return meshFile_; }
  QComboBox* meshUnitBox() const { return meshUnit_; }
  static constexpr const char* kMeshChoice = "mesh";  // the shape boxes' item data
  QString message() const;

 private:
  void fillShapes(int side);
  void fillMarkers(int side);
  void fillSizes(int side);
  void labelShapes(int side);
  void markUnsupported();
  void startPick(int side);
  void onPicked(const QString& ref);
  void onPickCancelled();
  // Side `side` takes body `body` and, when given, its marker `marker`.
  void takePick(int side, const QString& body, const QString& marker);
  bool flexible(int side) const;
  void showMeshRow();
  void browseMesh();
  // "" when the pair was added, else the reason (shown).
  QString add();

  Document* doc_;
  SelectionModel* selection_;
  MechanismView* view_;
  QLineEdit* id_;
  QComboBox* part_[2];
  QComboBox* shape_[2];
  QComboBox* marker_[2];
  QPushButton* pick_[2];
  std::vector<ContactShapeOption> options_[2];  // shape_[side]'s items but the mesh, in order
  int picking_ = -1;
  std::map<std::string, QLineEdit*> params_;
  std::map<std::string, QString> initial_;  // the parameters' texts as first shown
  QWidget* sizeRow_[2];
  std::vector<EditField> sizeFields_[2];  // the shape's sizes, their texts as first shown
  std::map<std::string, QLineEdit*> sizes_[2];
  // What the user typed per size name on each side, kept across shape
  // changes (also sizes the shape now chosen lacks, for a switch back);
  // cleared when the side's body changes.
  std::map<std::string, QString> typed_[2];
  QLabel* message_;
  QFormLayout* form_;
  QWidget* meshRow_;
  QLineEdit* meshFile_;
  QComboBox* meshUnit_;
};

}  // namespace pm::gui
