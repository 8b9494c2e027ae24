// Add Part from a shape (issue #28, point 5): a box, cylinder, tube or
// sphere of typed dimensions, or an imported STL/OBJ mesh, and a material
// (or a density, or a mass). The part's mass, centre of mass and inertia
// are computed in core (mechanics/mass_properties.h) and shown while the
// dimensions are typed; the part is saved as "mass_properties":
// "from_geometry", so they follow later edits of its geometry.
#pragma once

#include "model/project.h"

#include <QDialog>
#include <QString>

#include <functional>
#include <map>

class QComboBox;
class QLabel;
class QLineEdit;
class QCheckBox;

namespace pm::gui {

// What the dialog's fields say, in the user's units (mm, kg/m3, kg).
struct PartShapeInput {
  std::string id;
  bool ground = false;
  std::string shape = "box";  // box | cylinder | tube | sphere | mesh | none
  std::map<std::string, double> size_mm;  // lx ly lz radius inner_radius length (mm); scale (mesh)
  std::string file;                       // mesh: relative to the project folder
  std::string basis = "steel";            // a material name, "density" or "mass"
  double density = 0.0, mass = 0.0;       // kg/m3, kg
  Vec3 position_mm{};
};

// The part these inputs describe, with its mass properties computed;
// "" in *error when it can be added, else the reason. `projectFile` locates
// a mesh file.
PartDef partFromShape(const PartShapeInput& in, const std::string& projectFile, QString* error);

// The dialog; `accept` adds the part (returns "" or the reason, shown in the
// dialog, which then stays open).
class PartShapeDialog : public QDialog {
  Q_OBJECT
 public:
  PartShapeDialog(QWidget* parent, const Project& project, const QString& projectFile,
                  std::function<QString(const PartDef&)> accept);

  PartShapeInput input() const;

 private:
  void refresh();
  void browseMesh();
  QLineEdit* number(const QString& key, const QString& value);

  QString projectFile_;
  std::function<QString(const PartDef&)> accept_;
  QLineEdit *id_, *file_;
  QCheckBox* ground_;
  QComboBox *shape_, *basis_;
  std::map<QString, QLineEdit*> numbers_;
  std::map<QString, QWidget*> rows_;  // the row of each size field (hidden when the shape has none)
  QLabel *properties_, *message_;
};

}  // namespace pm::gui
