#include "subcircuit_editor.h"

#include "document.h"
#include "engine/subcircuits.h"
#include "property_editor.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "subcircuit_interface_panel.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cstring>

namespace pm::gui {

namespace {

QString projectName(const Document* doc) {
  if (doc->file().isEmpty()) return QObject::tr("Untitled");
  QString name = QFileInfo(doc->file()).fileName();
  for (const char* end : {".json", ".pneumech"})
    if (name.endsWith(end)) name.chop(int(strlen(end)));
  return name;
}

}  // namespace

SubcircuitEditor::SubcircuitEditor(Document* project, QWidget* parent) : QWidget(parent), project_(project) {
  setObjectName("subcircuitEditor");
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->setSpacing(0);
  auto* bar = new QWidget;
  bar->setObjectName("subcircuitBar");
  auto* bl = new QHBoxLayout(bar);
  bl->setContentsMargins(6, 3, 6, 3);
  back_ = new QPushButton(tr("◀ Back"));
  back_->setObjectName("subcircuitBack");
  back_->setToolTip(tr("Back to the circuit this block is drawn in"));
  connect(back_, &QPushButton::clicked, this, [this] { backTo(depth() - 1); });
  crumbs_ = new QLabel;
  crumbs_->setObjectName("subcircuitBreadcrumb");
  crumbs_->setTextFormat(Qt::RichText);
  connect(crumbs_, &QLabel::linkActivated, this, [this](const QString& link) { backTo(link.toInt()); });
  bl->addWidget(back_);
  bl->addWidget(crumbs_, 1);
  lay->addWidget(bar);
  pages_ = new QStackedWidget;
  lay->addWidget(pages_, 1);
}

SubcircuitEditor::~SubcircuitEditor() = default;

Document* SubcircuitEditor::document() const { return levels_.empty() ? nullptr : levels_.back().doc; }
SchematicScene* SubcircuitEditor::scene() const { return levels_.empty() ? nullptr : levels_.back().scene; }
SchematicView* SubcircuitEditor::view() const { return levels_.empty() ? nullptr : levels_.back().view; }
PropertyEditor* SubcircuitEditor::propertyEditor() const { return levels_.empty() ? nullptr : levels_.back().props; }
SubcircuitInterfacePanel* SubcircuitEditor::interfacePanel() const {
  return levels_.empty() ? nullptr : levels_.back().iface;
}

bool SubcircuitEditor::open(const std::string& id) {
  Document* outer = levels_.empty() ? project_ : levels_.back().doc;
  const Component* c = outer->project().find(id);
  if (!c || !engine::isSubcircuitType(c->type) || !project_->project().userComponents.count(c->type)) return false;
  levels_.push_back(makeLevel(outer, id, c->type));
  pages_->addWidget(levels_.back().page);
  pages_->setCurrentWidget(levels_.back().page);
  updateBreadcrumb();
  QTimer::singleShot(0, levels_.back().view, &SchematicView::zoomToFit);
  emit opened();
  return true;
}

SubcircuitEditor::Level SubcircuitEditor::makeLevel(Document* outer, const std::string& instance, const std::string& type) {
  Level l{instance, type};
  l.page = new QSplitter(Qt::Horizontal);
  l.doc = new Document(outer, type, l.page);
  l.scene = new SchematicScene(l.doc, l.page);
  l.view = new SchematicView(l.scene);
  l.view->setObjectName("subcircuitView");
  l.props = new PropertyEditor(l.doc);
  l.props->setObjectName("subcircuitProperties");
  l.iface = new SubcircuitInterfacePanel(l.doc);
  auto* side = new QSplitter(Qt::Vertical);
  side->addWidget(l.props);
  side->addWidget(l.iface);
  side->setStretchFactor(0, 1);
  side->setStretchFactor(1, 1);
  auto* split = static_cast<QSplitter*>(l.page);
  split->addWidget(l.view);
  split->addWidget(side);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setSizes({700, 340});
  SchematicScene* scene = l.scene;
  PropertyEditor* props = l.props;
  // The project's scene is synced by the main window; this one follows its inside.
  connect(l.doc, &Document::changed, scene, &SchematicScene::sync);
  connect(scene, &QGraphicsScene::selectionChanged, props, [scene, props] {
    const auto comps = scene->selectedComponents();
    props->showComponent(comps.size() == 1 ? *comps.begin() : std::string(),
                         int(comps.size() + scene->selectedConnections().size()));
  });
  connect(l.view, &SchematicView::statusMessage, this, &SubcircuitEditor::statusMessage);
  connect(l.props, &PropertyEditor::rejected, this, &SubcircuitEditor::statusMessage);
  connect(l.doc, &Document::rejected, this, &SubcircuitEditor::statusMessage);
  connect(l.iface, &SubcircuitInterfacePanel::statusMessage, this, &SubcircuitEditor::statusMessage);
  connect(l.view, &SchematicView::subcircuitOpenRequested, this, [this](const QString& id) { open(id.toStdString()); });
  // The type gone (its making undone, another project opened): back out.
  const int depth = int(levels_.size());
  connect(l.doc, &Document::lost, this, [this, depth] {
    QTimer::singleShot(0, this, [this, depth] {
      if (this->depth() > depth) backTo(depth);
    });
  });
  // The inside's own canvas keys (the Edit menu's act on the project's schematic).
  SchematicView* v = l.view;
  const auto key = [v](const QKeySequence& k, auto fn) {
    auto* a = new QAction(v);
    a->setShortcut(k);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(a, &QAction::triggered, v, fn);
    v->addAction(a);
  };
  key(QKeySequence::Delete, [v] { v->deleteSelection(); });
  key(QKeySequence::Copy, [v] { v->copySelection(); });
  key(QKeySequence::Paste, [v] { v->paste(); });
  key(QKeySequence(Qt::CTRL | Qt::Key_D), [v] { v->duplicateSelection(); });
  key(QKeySequence(Qt::Key_R), [v] { v->rotateSelection(); });
  key(QKeySequence(Qt::Key_M), [v] { v->mirrorSelection(); });
  key(QKeySequence(Qt::Key_F), [v] { v->zoomToFit(); });
  return l;
}

void SubcircuitEditor::backTo(int depth) {
  depth = std::max(depth, 0);
  const bool wasOpen = isOpen();
  while (int(levels_.size()) > depth) {
    Level l = levels_.back();
    levels_.pop_back();
    pages_->removeWidget(l.page);
    l.page->deleteLater();
  }
  updateBreadcrumb();
  if (wasOpen && !isOpen()) emit closed();
}

QString SubcircuitEditor::breadcrumbText() const {
  QString s = projectName(project_);
  for (const Level& l : levels_)
    s += QString::fromUtf8(" › ") + QString::fromStdString(l.instance + " (" + l.type + ")");
  return s;
}

void SubcircuitEditor::updateBreadcrumb() {
  QString html = QString("<a href=\"0\">%1</a>").arg(projectName(project_).toHtmlEscaped());
  for (size_t i = 0; i < levels_.size(); ++i) {
    const QString crumb = QString::fromStdString(levels_[i].instance + " (" + levels_[i].type + ")").toHtmlEscaped();
    html += QString::fromUtf8(" › ") + (i + 1 < levels_.size() ? QString("<a href=\"%1\">%2</a>").arg(i + 1).arg(crumb)
                                                                : QString("<b>%1</b>").arg(crumb));
  }
  crumbs_->setText(html);
}

}  // namespace pm::gui
