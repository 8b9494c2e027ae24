#include "results_tree.h"

#include "plot_pane.h"
#include "result_buffer.h"
#include "units.h"

#include <QHeaderView>
#include <QMimeData>

#include <cmath>
#include <map>

namespace pm::gui {

namespace {
constexpr int kChannelRole = Qt::UserRole;      // channel index (children only)
constexpr int kNameRole = Qt::UserRole + 1;     // engine name
}  // namespace

ResultsTree::ResultsTree(ResultBuffer* data, QWidget* parent) : QTreeWidget(parent), data_(data) {
  setObjectName("resultsTree");
  setColumnCount(2);
  setHeaderLabels({tr("Channel"), tr("Value")});
  header()->setSectionResizeMode(0, QHeaderView::Stretch);
  header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  header()->setStretchLastSection(false);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  setDragEnabled(true);
  setDragDropMode(QAbstractItemView::DragOnly);
  setUniformRowHeights(true);
  // The panel offers "Plot in" on a right click (it knows the panes).
  setContextMenuPolicy(Qt::CustomContextMenu);
  connect(data_, &ResultBuffer::reset, this, &ResultsTree::rebuild);
  connect(data_, &ResultBuffer::relabelled, this, &ResultsTree::relabel);
  connect(data_, &ResultBuffer::appended, this, &ResultsTree::updateValues);
  connect(this, &QTreeWidget::itemExpanded, this, &ResultsTree::updateValues);
  connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item, int) {
    const QString name = item->data(0, kNameRole).toString();
    if (!name.isEmpty()) emit channelActivated(name);
  });
}

void ResultsTree::rebuild() {
  clear();
  std::map<QString, QTreeWidgetItem*> groups;
  QList<QTreeWidgetItem*> tops;
  const auto& ch = data_->channels();
  for (size_t i = 0; i < ch.size(); ++i) {
    QTreeWidgetItem*& g = groups[ch[i].object];
    if (!g) {
      g = new QTreeWidgetItem({ch[i].object});
      g->setFlags(Qt::ItemIsEnabled);
      tops.append(g);
    }
    auto* item = new QTreeWidgetItem(g, {rowText(ch[i])});
    item->setData(0, kChannelRole, static_cast<int>(i));
    item->setData(0, kNameRole, QString::fromStdString(ch[i].name));
    item->setToolTip(0, tr("%1 (SI unit %2): drag onto a plot, or right-click to plot it")
                            .arg(QString::fromStdString(ch[i].name), QString::fromStdString(ch[i].unit)));
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
  }
  addTopLevelItems(tops);
  setFilter(filter_);
  updateValues();
}

QString ResultsTree::rowText(const ResultBuffer::Channel& c) {
  QString text = c.label;
  text.remove(0, c.object.size() + 1);  // "p [bar (g)]" under "tank"
  return text.isEmpty() ? c.label : text;
}

void ResultsTree::relabel() {
  const auto& ch = data_->channels();
  for (int i = 0; i < topLevelItemCount(); ++i)
    for (int k = 0; k < topLevelItem(i)->childCount(); ++k) {
      QTreeWidgetItem* item = topLevelItem(i)->child(k);
      const int c = item->data(0, kChannelRole).toInt();
      if (c >= 0 && c < int(ch.size())) item->setText(0, rowText(ch[size_t(c)]));
    }
  updateValues();
}

std::string ResultsTree::channelOf(const QTreeWidgetItem* item) {
  return item ? item->data(0, kNameRole).toString().toStdString() : std::string();
}

int ResultsTree::channelCount() const {
  int n = 0;
  for (int i = 0; i < topLevelItemCount(); ++i) n += topLevelItem(i)->childCount();
  return n;
}

QTreeWidgetItem* ResultsTree::channelItem(const std::string& name) const {
  const QString n = QString::fromStdString(name);
  for (int i = 0; i < topLevelItemCount(); ++i)
    for (int k = 0; k < topLevelItem(i)->childCount(); ++k)
      if (topLevelItem(i)->child(k)->data(0, kNameRole).toString() == n) return topLevelItem(i)->child(k);
  return nullptr;
}

std::vector<std::string> ResultsTree::selectedChannels() const {
  std::vector<std::string> names;
  // In tree order, not click order: the CSV columns follow the tree.
  for (int i = 0; i < topLevelItemCount(); ++i)
    for (int k = 0; k < topLevelItem(i)->childCount(); ++k)
      if (topLevelItem(i)->child(k)->isSelected())
        names.push_back(topLevelItem(i)->child(k)->data(0, kNameRole).toString().toStdString());
  return names;
}

void ResultsTree::selectChannels(const std::vector<std::string>& names) {
  clearSelection();
  for (const std::string& n : names)
    if (QTreeWidgetItem* item = channelItem(n)) {
      item->setSelected(true);
      scrollToItem(item);
    }
}

void ResultsTree::setFilter(const QString& text) {
  filter_ = text;
  for (int i = 0; i < topLevelItemCount(); ++i) {
    QTreeWidgetItem* g = topLevelItem(i);
    int visible = 0;
    for (int k = 0; k < g->childCount(); ++k) {
      const bool show = text.isEmpty() || g->child(k)->data(0, kNameRole).toString().contains(text, Qt::CaseInsensitive);
      g->child(k)->setHidden(!show);
      visible += show;
    }
    g->setHidden(visible == 0);
    g->setExpanded(!text.isEmpty() || topLevelItemCount() <= 8);
  }
}

void ResultsTree::setTime(double t) {
  t_ = t;
  updateValues();
}

void ResultsTree::updateValues() {
  if (data_->rows() == 0) return;
  const auto& ch = data_->channels();
  for (int i = 0; i < topLevelItemCount(); ++i) {
    QTreeWidgetItem* g = topLevelItem(i);
    if (!g->isExpanded()) continue;  // values of folded groups are not seen
    for (int k = 0; k < g->childCount(); ++k) {
      const int c = g->child(k)->data(0, kChannelRole).toInt();
      const ResultBuffer::Channel& info = ch[static_cast<size_t>(c)];
      const double v = units::forChannel(info.name, info.unit).toDisplay(data_->valueAt(c, t_));
      g->child(k)->setText(1, std::isfinite(v) ? units::formatNumber(v) : QString());
    }
  }
}

QStringList ResultsTree::mimeTypes() const { return {kChannelMime, "text/plain"}; }

QMimeData* ResultsTree::mimeData(const QList<QTreeWidgetItem*>& items) const {
  QStringList names;
  for (QTreeWidgetItem* item : items)
    if (const QString n = item->data(0, kNameRole).toString(); !n.isEmpty()) names << n;
  if (names.isEmpty()) return nullptr;
  auto* mime = new QMimeData;
  mime->setData(kChannelMime, names.join('\n').toUtf8());
  mime->setText(names.join('\n'));
  return mime;
}

}  // namespace pm::gui
