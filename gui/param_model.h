// Table model of one component's parameters: name, value in display
// (engineering) units, unit (a choice per parameter, kept by the studio's
// units::UnitSettings), range and doc. Edits are parsed through the unit
// layer (gui/units.h), checked against the parameter's range (rejected with
// a message, never clamped) and handed in SI to the commit function, which
// applies them as an undoable edit.
#pragma once

#include "model/component_type.h"
#include "model/project.h"
#include "units.h"

#include <QAbstractTableModel>

#include <functional>
#include <vector>

namespace pm::gui {

class ParamModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Value, Unit, Range, Doc, ColumnCount };
  // Stores a checked SI value; false when nothing changed.
  using Commit = std::function<bool(const std::string& component, const std::string& param, double si)>;

  explicit ParamModel(QObject* parent = nullptr);

  void setCommit(Commit commit) { commit_ = std::move(commit); }
  // Shows the parameters of component `id` of `project` (nullptr / unknown id: empty).
  void setComponent(const Project* project, const std::string& id);
  // The project changed (edit, undo): re-read the values.
  void refresh();
  const std::string& componentId() const { return id_; }
  int rowOf(const std::string& param) const;  // -1 when absent
  const ParamDecl* paramAt(int row) const;

  // Display unit of a parameter: the user's choice or the default one.
  units::DisplayUnit displayUnit(const ParamDecl& d, double si) const;
  // Catalogue values (SI) offered for a parameter, empty when none.
  std::vector<double> catalogue(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

 signals:
  // A value was accepted and stored (SI) in the project.
  void parameterChanged(const QString& component, const QString& param, double si);
  // A value was refused; `message` says why (not a number, out of range...).
  void editRejected(const QString& message);

 private:
  const Component* component() const;
  const ComponentType* type() const;

  const Project* project_ = nullptr;
  std::string id_;
  Commit commit_;
  size_t rows_ = 0;
};

// Standard sizes (SI) of catalogue parameters: cylinder bores (ISO 15552 /
// ISO 6432), strokes, rod diameters, tube inner diameters.
std::vector<double> catalogueValues(const std::string& type, const std::string& param);

}  // namespace pm::gui
