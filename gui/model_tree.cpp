#include "model_tree.h"

#include "document.h"
#include "mechanism_editing.h"
#include "model/component_type.h"
#include "selection_model.h"
#include "units.h"

#include <QHeaderView>
#include <QSet>

namespace pm::gui {

namespace {

QString mm(const Vec3& v) {
  return QString("(%1, %2, %3) mm")
      .arg(units::formatNumber(v[0] * 1e3), units::formatNumber(v[1] * 1e3), units::formatNumber(v[2] * 1e3));
}

}  // namespace

ModelTree::ModelTree(Document* doc, SelectionModel* selection, QWidget* parent)
    : QTreeWidget(parent), doc_(doc), selection_(selection) {
  setObjectName("modelTree");
  setColumnCount(2);
  setHeaderLabels({tr("Object"), tr("Details")});
  setSelectionMode(QAbstractItemView::SingleSelection);
  setUniformRowHeights(true);
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  connect(this, &QTreeWidget::itemCollapsed, this, [this](QTreeWidgetItem* i) {
    if (!i->parent()) collapsed_.insert(i->data(0, GroupRole).toString());
  });
  connect(this, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* i) {
    if (!i->parent()) collapsed_.remove(i->data(0, GroupRole).toString());
  });
  connect(doc_, &Document::changed, this, &ModelTree::rebuild);
  connect(selection_, &SelectionModel::changed, this, &ModelTree::showSelection);
  connect(this, &QTreeWidget::itemSelectionChanged, this, [this] {
    if (syncing_) return;
    const auto items = selectedItems();
    if (items.isEmpty()) return;  // a group row or nothing: keep the selection
    selection_->select(items.front()->data(0, IdRole).toString());
  });
  rebuild();
}

QTreeWidgetItem* ModelTree::group(const QString& name) const {
  for (int i = 0; i < topLevelItemCount(); ++i)
    if (topLevelItem(i)->data(0, GroupRole).toString() == name) return topLevelItem(i);
  return nullptr;
}

QTreeWidgetItem* ModelTree::itemFor(const QString& id) const {
  if (id.isEmpty()) return nullptr;
  for (QTreeWidgetItemIterator it(const_cast<ModelTree*>(this)); *it; ++it)
    if ((*it)->data(0, IdRole).toString() == id) return *it;
  return nullptr;
}

void ModelTree::rebuild() {
  // Keep which parts the user opened (groups stay open unless closed).
  QSet<QString> open;
  for (QTreeWidgetItemIterator it(this); *it; ++it)
    if ((*it)->isExpanded() && (*it)->parent()) open.insert((*it)->data(0, IdRole).toString());
  const Project& p = doc_->project();
  const Mechanism& m = p.mechanism;
  syncing_ = true;
  clear();
  auto addGroup = [&](const QString& name, const QString& title, int count) {
    auto* g = new QTreeWidgetItem(this, {QString("%1 (%2)").arg(title).arg(count)});
    g->setData(0, GroupRole, name);
    g->setFlags(Qt::ItemIsEnabled);
    QFont f = g->font(0);
    f.setBold(true);
    g->setFont(0, f);
    const bool closed = collapsed_.contains(name);
    g->setExpanded(!closed);
    if (closed) collapsed_.insert(name);
    return g;
  };
  auto addRow = [](QTreeWidgetItem* parent, const std::string& id, const QString& text, const QString& details) {
    auto* item = new QTreeWidgetItem(parent, {text, details});
    item->setData(0, IdRole, QString::fromStdString(id));
    item->setToolTip(0, QString::fromStdString(id));
    return item;
  };
  QTreeWidgetItem* parts = addGroup("parts", tr("Parts"), int(m.parts.size()));
  for (const PartDef& d : m.parts) {
    const QString details = d.ground ? tr("ground") : tr("%1 kg").arg(units::formatNumber(d.mass));
    QTreeWidgetItem* part = addRow(parts, d.id, QString::fromStdString(d.id), details);
    for (const MarkerDef& mk : d.markers)
      addRow(part, d.id + "." + mk.id, QString::fromStdString(mk.id), tr("marker %1").arg(mm(mk.position)));
    part->setExpanded(open.contains(QString::fromStdString(d.id)));
  }
  QTreeWidgetItem* beams = addGroup("flexible", tr("Flexible bodies"), int(m.flexible_bodies.size()));
  for (const FlexibleBodyDef& b : m.flexible_bodies) {
    QTreeWidgetItem* beam = addRow(beams, b.id, QString::fromStdString(b.id),
                                   tr("%1 mm, %2 elements, %3").arg(units::formatNumber(b.length * 1e3)).arg(b.elements)
                                       .arg(QString::fromStdString(b.section_shape)));
    for (const BeamMarkerDef& mk : b.markers)
      addRow(beam, b.id + "." + mk.id, QString::fromStdString(mk.id), tr("marker at node %1").arg(mk.node));
    beam->setExpanded(open.contains(QString::fromStdString(b.id)));
  }
  QTreeWidgetItem* joints = addGroup("joints", tr("Joints"), int(m.joints.size()));
  for (const JointDef& j : m.joints)
    addRow(joints, j.id, QString::fromStdString(j.id),
           j.type == "coupler" ? QString("coupler  %1").arg(QString::fromStdString(
                                     j.joints.size() == 2 ? j.joints[0] + " + " + j.joints[1] : std::string()))
                               : QString("%1  %2 - %3").arg(QString::fromStdString(j.type), QString::fromStdString(j.i),
                                                            QString::fromStdString(j.j)));
  QTreeWidgetItem* forces = addGroup("forces", tr("Forces"), int(m.forces.size()));
  for (const ForceDef& f : m.forces)
    addRow(forces, f.id, QString::fromStdString(f.id),
           QString("%1  %2%3").arg(QString::fromStdString(f.type), QString::fromStdString(f.i),
                                   f.j.empty() ? QString() : " - " + QString::fromStdString(f.j)));
  QTreeWidgetItem* motions = addGroup("motions", tr("Motions"), int(m.motions.size()));
  for (const MotionDef& mo : m.motions)
    addRow(motions, mo.id, QString::fromStdString(mo.id),
           QString("%1 of %2 (%3)").arg(QString::fromStdString(mo.quantity), QString::fromStdString(mo.joint),
                                        QString::fromStdString(mo.function)));
  QTreeWidgetItem* contacts = addGroup("contacts", tr("Contacts"), int(m.contacts.size()));
  for (const ContactDef& c : m.contacts)
    addRow(contacts, c.id, QString::fromStdString(c.id),
           QString("%1 %2 - %3 %4").arg(QString::fromStdString(c.i.shape), QString::fromStdString(c.i.marker),
                                        QString::fromStdString(c.j.shape), QString::fromStdString(c.j.marker)));
  QTreeWidgetItem* latches = addGroup("latches", tr("Latches"), int(m.latches.size()));
  for (const LatchDef& l : m.latches) {
    const auto start = l.params.find("engaged");
    const bool atStart = start != l.params.end() && start->second > 0.5;
    addRow(latches, l.id, QString::fromStdString(l.id),
           QString("%1  %2 - %3%4").arg(QString::fromStdString(l.type), QString::fromStdString(l.i),
                                        QString::fromStdString(l.j), atStart ? tr(", engaged at the start") : QString()));
  }
  int attached = 0;
  for (const Component& c : p.components) attached += isActuator(c) && attachment(c).is_object() ? 1 : 0;
  QTreeWidgetItem* actuators = addGroup("actuators", tr("Actuators"), attached);
  for (const Component& c : p.components) {
    const nlohmann::json a = attachment(c);
    if (!isActuator(c) || !a.is_object()) continue;
    const QString where = a.contains("joint")
                              ? (isCylinder(c) ? tr("along joint %1") : tr("on joint %1"))
                                    .arg(QString::fromStdString(a.value("joint", "")))
                              : QString("%1 - %2").arg(QString::fromStdString(a.value("barrel", "")),
                                                       QString::fromStdString(a.value("rod", "")));
    addRow(actuators, c.id, QString::fromStdString(c.id), where);
  }
  QTreeWidgetItem* circuit = addGroup("circuit", tr("Circuit"), int(p.components.size()));
  for (const Component& c : p.components) {
    QTreeWidgetItem* row = addRow(circuit, c.id, QString::fromStdString(c.id),
                                  QString::fromStdString(c.type) + (c.label.empty() ? QString() : "  " + QString::fromStdString(c.label)));
    if (const ComponentType* t = Registry::instance().find(c.type))
      for (int col = 0; col < 2; ++col) row->setToolTip(col, QString::fromStdString(t->description));
  }
  syncing_ = false;
  showSelection(selection_->current());
}

void ModelTree::showSelection(const QString& id) {
  syncing_ = true;
  QTreeWidgetItem* item = nullptr;
  // Keep the row the user clicked when it already shows the id (a cylinder
  // is listed under Actuators and Circuit).
  if (!selectedItems().isEmpty() && selectedItems().front()->data(0, IdRole).toString() == id)
    item = selectedItems().front();
  if (!item) item = itemFor(id);
  if (item) {
    for (QTreeWidgetItem* up = item->parent(); up; up = up->parent()) up->setExpanded(true);
    setCurrentItem(item);
    scrollToItem(item);
  } else {
    clearSelection();
  }
  syncing_ = false;
}

}  // namespace pm::gui
