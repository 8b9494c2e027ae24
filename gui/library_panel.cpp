#include "library_panel.h"

#include "model/component_type.h"
#include "schematic_view.h"
#include "symbol_library.h"
#include "valve_actuation.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QMimeData>
#include <QPainter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>
#include <map>

namespace pm::gui {

namespace {

constexpr int kSearchRole = Qt::UserRole + 1;

// A tree that starts a drag carrying the type name.
class LibraryTree : public QTreeWidget {
 public:
  using QTreeWidget::QTreeWidget;

 protected:
  QStringList mimeTypes() const override { return {kComponentMime}; }
  QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override {
    if (items.isEmpty() || items.front()->data(0, Qt::UserRole).toString().isEmpty()) return nullptr;
    auto* m = new QMimeData;
    m->setData(kComponentMime, items.front()->data(0, Qt::UserRole).toString().toUtf8());
    return m;
  }
};

// A small picture of the symbol for the library entry.
QIcon symbolIcon(const std::string& type) {
  const Symbol& s = SymbolLibrary::instance().symbol(type);
  QPixmap pm(40, 28);
  pm.fill(Qt::transparent);
  QPainter p(&pm);
  p.setRenderHint(QPainter::Antialiasing);
  const double k = std::min(38.0 / s.size.width(), 26.0 / s.size.height());
  p.translate((40 - s.size.width() * k) / 2, (28 - s.size.height() * k) / 2);
  p.scale(k, k);
  Component c;  // drawn as a new one is: default parameters, nothing connected
  c.type = type;
  s.paint(&p, 0.0, 0.0, valveGlyphs(c, s, nullptr));
  return QIcon(pm);
}

// What a circuit needs first, in the order it is drawn: supply, valves,
// cylinders, flow controls, the signals that switch the valves, then
// sensors; the other categories follow alphabetically.
int categoryRank(const std::string& category) {
  static const char* first[] = {"Supply", "Directional valves", "Actuators", "Flow valves", "Signals", "Sensors"};
  for (int i = 0; i < int(std::size(first)); ++i)
    if (category == first[i]) return i;
  return int(std::size(first));
}

// The text an entry is searched by: registry name, display name,
// description, ISO name and common names (the symbol's keywords).
QString searchText(const ComponentType& t, const QString& name) {
  const Symbol& s = SymbolLibrary::instance().symbol(t.name);
  return QStringList{QString::fromStdString(t.name), name, QString::fromStdString(t.description), s.title,
                     s.keywords.join('\n')}
      .join('\n');
}

}  // namespace

LibraryPanel::LibraryPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("libraryPanel");
  search_ = new QLineEdit;
  search_->setObjectName("librarySearch");
  search_->setPlaceholderText(tr("Search components..."));
  search_->setClearButtonEnabled(true);
  tree_ = new LibraryTree;
  tree_->setObjectName("libraryTree");
  tree_->setHeaderHidden(true);
  tree_->setDragEnabled(true);
  tree_->setDragDropMode(QAbstractItemView::DragOnly);
  tree_->setIconSize(QSize(40, 28));
  tree_->setUniformRowHeights(true);

  rebuild();

  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(4, 4, 4, 4);
  lay->addWidget(search_);
  lay->addWidget(tree_);
  connect(search_, &QLineEdit::textChanged, this, &LibraryPanel::filter);
  connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
    const QString type = item->data(0, Qt::UserRole).toString();
    if (!type.isEmpty()) emit activated(type);
  });
}

// The user types as an entry shows them (name, origin, category, description).
static std::string userTypesListed() {
  std::string s;
  for (const ComponentType* t : Registry::instance().all())
    if (!t->origin.empty()) s += t->name + '\n' + t->origin + '\n' + t->category + '\n' + t->description + '\n';
  return s;
}

void LibraryPanel::refresh() {
  if (userTypesListed() != listed_) rebuild();
}

void LibraryPanel::rebuild() {
  listed_ = userTypesListed();
  tree_->clear();
  std::map<std::string, QTreeWidgetItem*> categories;
  std::vector<const ComponentType*> types = Registry::instance().all();
  std::stable_sort(types.begin(), types.end(), [](const ComponentType* a, const ComponentType* b) {
    return categoryRank(a->category) < categoryRank(b->category);
  });
  for (const ComponentType* t : types) {
    QTreeWidgetItem*& cat = categories[t->category];
    if (!cat) {
      cat = new QTreeWidgetItem(tree_, {QString::fromStdString(t->category)});
      cat->setFlags(Qt::ItemIsEnabled);
      QFont f = cat->font(0);
      f.setBold(true);
      cat->setFont(0, f);
    }
    QString name = QString::fromStdString(t->name).replace('_', ' ');
    name[0] = name[0].toUpper();
    const bool user = !t->origin.empty();
    auto* item = new QTreeWidgetItem(cat, {user ? name + tr("  (user)") : name});
    item->setData(0, Qt::UserRole, QString::fromStdString(t->name));
    item->setData(0, kSearchRole, searchText(*t, name));
    QString tip = QString("<b>%1</b><br>%2").arg(QString::fromStdString(t->name).toHtmlEscaped(),
                                                 QString::fromStdString(t->description).toHtmlEscaped());
    if (user) {
      tip += "<br><i>" + tr("User component from %1").arg(QString::fromStdString(t->origin).toHtmlEscaped()) + "</i>";
      QFont f = item->font(0);
      f.setItalic(true);
      item->setFont(0, f);
    }
    item->setToolTip(0, tip);
    item->setIcon(0, symbolIcon(t->name));
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
  }
  tree_->expandAll();
  filter(search_->text());
}

QTreeWidgetItem* LibraryPanel::itemOf(const QString& type) const {
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* cat = tree_->topLevelItem(i);
    for (int j = 0; j < cat->childCount(); ++j)
      if (cat->child(j)->data(0, Qt::UserRole).toString() == type && !cat->child(j)->isHidden()) return cat->child(j);
  }
  return nullptr;
}

// Every word of the query must occur in the entry's search text (or its
// category's name); "5/2 solenoid" finds the 5/2 valve, "valve_3" the 3/2s.
void LibraryPanel::filter(const QString& text) {
  const QStringList words = text.simplified().split(' ', Qt::SkipEmptyParts);
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* cat = tree_->topLevelItem(i);
    int shown = 0;
    for (int j = 0; j < cat->childCount(); ++j) {
      QTreeWidgetItem* it = cat->child(j);
      const QString hay = cat->text(0) + '\n' + it->data(0, kSearchRole).toString();
      const bool match = std::all_of(words.begin(), words.end(),
                                     [&](const QString& w) { return hay.contains(w, Qt::CaseInsensitive); });
      it->setHidden(!match);
      shown += match;
    }
    cat->setHidden(shown == 0);
  }
}

QStringList LibraryPanel::matches() const {
  QStringList out;
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    const QTreeWidgetItem* cat = tree_->topLevelItem(i);
    for (int j = 0; j < cat->childCount(); ++j)
      if (!cat->child(j)->isHidden()) out << cat->child(j)->data(0, Qt::UserRole).toString();
  }
  return out;
}

}  // namespace pm::gui
