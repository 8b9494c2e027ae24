#include "param_model.h"

#include "attachment_box.h"

#include "units.h"

#include <QBrush>
#include <QFont>

namespace pm::gui {

ParamModel::ParamModel(QObject* parent) : QAbstractTableModel(parent) {
  // View > Pressure Units (or another ambient pressure): the values anew.
  connect(&units::UnitSettings::instance(), &units::UnitSettings::changed, this, &ParamModel::refresh);
}

std::vector<double> catalogueValues(const std::string& type, const std::string& param) {
  auto mm = [](std::initializer_list<double> v) {
    std::vector<double> out;
    for (double x : v) out.push_back(x * 1e-3);
    return out;
  };
  const bool actuator = type.rfind("cylinder_", 0) == 0;
  if (actuator && param == "bore") return mm({8, 10, 12, 16, 20, 25, 32, 40, 50, 63, 80, 100, 125});
  if (actuator && param == "stroke")
    return mm({10, 25, 40, 50, 80, 100, 125, 160, 200, 250, 320, 400, 500, 600, 800, 1000});
  if (actuator && param == "rod") return mm({4, 6, 8, 10, 12, 16, 20, 25, 32});
  if (type == "tube" && param == "d") return mm({2.6, 4, 5.7, 7, 8, 10});
  return {};
}

void ParamModel::setComponent(const Project* project, const std::string& id) {
  beginResetModel();
  project_ = project;
  id_ = id;
  const ComponentType* t = type();
  rows_ = t ? t->params.size() : 0;
  endResetModel();
}

void ParamModel::refresh() {
  const ComponentType* t = type();
  if (!t || t->params.size() != rows_) {
    setComponent(component() ? project_ : nullptr, component() ? id_ : std::string());
    return;
  }
  if (rows_ > 0) emit dataChanged(index(0, 0), index(static_cast<int>(rows_) - 1, ColumnCount - 1));
}

const ParamDecl* ParamModel::paramAt(int row) const {
  const ComponentType* t = type();
  if (!t || row < 0 || row >= static_cast<int>(t->params.size())) return nullptr;
  return &t->params[row];
}

units::DisplayUnit ParamModel::displayUnit(const ParamDecl& d, double si) const {
  const ComponentType* t = type();
  return t ? units::chosenUnit(t->name, d, si) : units::forParam(d, si);
}

std::vector<double> ParamModel::catalogue(int row) const {
  const ParamDecl* d = paramAt(row);
  const ComponentType* t = type();
  return d && t ? catalogueValues(t->name, d->name) : std::vector<double>{};
}

const Component* ParamModel::component() const { return project_ ? project_->find(id_) : nullptr; }

const ComponentType* ParamModel::type() const {
  const Component* c = component();
  return c ? Registry::instance().find(c->type) : nullptr;
}

int ParamModel::rowOf(const std::string& param) const {
  const ComponentType* t = type();
  if (!t) return -1;
  for (size_t i = 0; i < t->params.size(); ++i)
    if (t->params[i].name == param) return static_cast<int>(i);
  return -1;
}

int ParamModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  const ComponentType* t = type();
  return t ? static_cast<int>(t->params.size()) : 0;
}

int ParamModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ParamModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Parameter");
    case Value: return tr("Value");
    case Unit: return tr("Unit");
    case Range: return tr("Range");
    case Doc: return tr("Description");
  }
  return {};
}

QVariant ParamModel::data(const QModelIndex& index, int role) const {
  const Component* c = component();
  const ComponentType* t = type();
  if (!c || !t || !index.isValid() || index.row() >= static_cast<int>(t->params.size())) return {};
  const ParamDecl& d = t->params[index.row()];
  const double si = paramValue(*c, *t, d.name);
  const units::DisplayUnit du = displayUnit(d, si);
  const bool isDefault = !c->params.count(d.name);
  // A parameter with no effect as things stand (an attached cylinder's
  // mass) is greyed out, with the reason on every cell.
  const QString unused = unusedParameterReason(*c, d.name);
  if (!unused.isEmpty() && role == Qt::ToolTipRole) return unused;
  switch (role) {
    case Qt::UserRole: return si;
    case Qt::DisplayRole:
    case Qt::EditRole:
      switch (index.column()) {
        case Name: return QString::fromStdString(d.name);
        case Value: return units::formatNumber(du.toDisplay(si));
        case Unit: return du.unit;
        case Range: return units::rangeText(d, du);
        case Doc: return units::describe(d, du);
      }
      break;
    case Qt::ToolTipRole:
      if (index.column() == Value)
        return tr("%1 %2 (SI: %3 %4)%5")
            .arg(units::formatNumber(du.toDisplay(si)), du.unit, units::formatNumber(si),
                 QString::fromStdString(d.unit), isDefault ? tr(", type default") : QString());
      return units::describe(d, du);
    case Qt::FontRole:
      if (index.column() == Value && isDefault) {
        QFont f;
        f.setItalic(true);
        return f;
      }
      break;
    case Qt::ForegroundRole:
      if (index.column() == Value && isDefault) return QBrush(Qt::darkGray);
      break;
    case Qt::TextAlignmentRole:
      if (index.column() == Value) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
  }
  return {};
}

Qt::ItemFlags ParamModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractTableModel::flags(index);
  const Component* c = component();
  const ComponentType* t = type();
  if (c && t && index.isValid() && index.row() < static_cast<int>(t->params.size()) &&
      !unusedParameterReason(*c, t->params[index.row()].name).isEmpty())
    return f & ~Qt::ItemIsEnabled;
  if (index.isValid() && (index.column() == Value || index.column() == Unit)) f |= Qt::ItemIsEditable;
  return f;
}

bool ParamModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || !index.isValid()) return false;
  const Component* c = component();
  const ComponentType* t = type();
  if (!c || !t || index.row() >= static_cast<int>(t->params.size())) return false;
  const ParamDecl& d = t->params[index.row()];
  const double current = paramValue(*c, *t, d.name);
  if (index.column() == Unit) {
    // The studio's choice for this parameter (the study dialog shows it too); its changed() refreshes this.
    for (const units::DisplayUnit& u : units::choices(d))
      if (u.unit == value.toString()) {
        units::UnitSettings::instance().setParameterUnit(t->name, d.name, u.unit);
        return true;
      }
    return false;
  }
  if (index.column() != Value) return false;
  const units::DisplayUnit du = displayUnit(d, current);

  const QString text = value.toString().trimmed();
  // Unchanged text (editor opened and closed): keep the exact SI value.
  if (text == units::formatNumber(du.toDisplay(current)) || text.isEmpty()) return true;

  QString err;
  const std::optional<double> si = units::parseToSi(text, d, du, &err);
  const QString where = QString("%1.%2").arg(QString::fromStdString(c->id), QString::fromStdString(d.name));
  if (!si) {
    emit editRejected(QString("%1: %2").arg(where, err));
    return false;
  }
  if (!d.accepts(*si)) {
    emit editRejected(tr("%1: %2 %3 is outside the allowed range %4 %3 (SI: %5 %6 outside %7); value not changed.")
                          .arg(where, units::formatNumber(du.toDisplay(*si)), du.unit, units::rangeText(d, du),
                               units::formatNumber(*si), QString::fromStdString(d.unit),
                               QString::fromStdString(d.rangeText())));
    return false;
  }
  const std::string id = c->id, name = d.name;
  if (!commit_ || !commit_(id, name, *si)) return false;
  const int row = rowOf(name);
  if (row >= 0) emit dataChanged(this->index(row, 0), this->index(row, ColumnCount - 1));
  emit parameterChanged(QString::fromStdString(id), QString::fromStdString(name), *si);
  return true;
}

}  // namespace pm::gui
