// Table model of one component's parameters: name, value in display
// (engineering) units, unit, range and doc. Edits are parsed through the unit
// layer (gui/units.h), checked against the parameter's range (rejected with a
// message, never clamped) and written to the Project in SI.
#pragma once

#include "model/component_type.h"
#include "model/project.h"

#include <QAbstractTableModel>

namespace pm::gui {

class ParamModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Value, Unit, Range, Doc, ColumnCount };

  explicit ParamModel(QObject* parent = nullptr);

  // Shows the parameters of component `id` of `project` (nullptr / unknown id: empty).
  void setComponent(Project* project, const std::string& id);
  const std::string& componentId() const { return id_; }
  int rowOf(const std::string& param) const;  // -1 when absent

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
  Component* component() const;
  const ComponentType* type() const;

  Project* project_ = nullptr;
  std::string id_;
};

}  // namespace pm::gui
