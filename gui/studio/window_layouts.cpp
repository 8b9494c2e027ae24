#include "window_layouts.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QToolBar>

namespace pm::gui {

namespace {

const char* kGroup = "layouts";

// Window states are stored under a key of their own per name; names with a
// slash would become sub-groups.
bool usableName(const QString& name) {
  const QString n = name.trimmed();
  return !n.isEmpty() && !n.contains('/') && !n.contains('\\') &&
         n.compare(WindowLayouts::standardName(), Qt::CaseInsensitive) != 0 &&
         n.compare(WindowLayouts::machineName(), Qt::CaseInsensitive) != 0;
}

}  // namespace

WindowLayouts::WindowLayouts(QMainWindow* window, std::function<void()> fixDocks)
    : QObject(window), window_(window), fixDocks_(std::move(fixDocks)) {
  menu_ = new QMenu(tr("&Layout"), window);
  menu_->setObjectName("layoutMenu");
  group_ = new QActionGroup(this);
  // Optional: the toolbar's Machine button unchecked goes back to Standard.
  group_->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
  standard_ = menu_->addAction(tr("&Standard Layout"));
  standard_->setObjectName("actionLayoutStandard");
  standard_->setCheckable(true);
  standard_->setChecked(true);
  standard_->setToolTip(tr("The editing layout: library, schematic, model tree and properties"));
  group_->addAction(standard_);
  connect(standard_, &QAction::triggered, this, &WindowLayouts::applyStandard);
  machine_ = menu_->addAction(tr("&Machine Layout"));
  machine_->setObjectName("actionLayoutMachine");
  machine_->setCheckable(true);
  machine_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
  machine_->setIconText(tr("Machine View"));
  machine_->setStatusTip(tr("Machine layout: the 3D view big with the schematic beside it; "
                            "click again to go back to the layout before"));
  group_->addAction(machine_);
  connect(machine_, &QAction::triggered, this, [this](bool on) { on ? applyMachine() : applyStandard(); });
  savedSeparator_ = menu_->addSeparator();
  menu_->addSeparator();
  save_ = menu_->addAction(tr("Save Layout &As..."), this, &WindowLayouts::askSave);
  save_->setObjectName("actionLayoutSave");
  save_->setToolTip(tr("Keep the window's arrangement under a name, to switch back to it later"));
  remove_ = menu_->addAction(tr("&Delete Saved Layout..."), this, &WindowLayouts::askRemove);
  remove_->setObjectName("actionLayoutDelete");
  rebuildSaved();
}

void WindowLayouts::addTo(QMenu* viewMenu, QToolBar* toolBar) {
  viewMenu->addSeparator();
  viewMenu->addMenu(menu_);
  if (toolBar) toolBar->addAction(machine_);
}

QStringList WindowLayouts::savedNames() const {
  QSettings s;
  s.beginGroup(kGroup);
  QStringList names = s.childKeys();
  names.sort(Qt::CaseInsensitive);
  return names;
}

// The Standard layout is remembered as the user left it, so switching back
// returns to their arrangement.
void WindowLayouts::leaveStandard() {
  if (current_ == standardName()) standardState_ = window_->saveState();
}

void WindowLayouts::applyMachine() {
  leaveStandard();
  auto dock = [this](const char* name) { return window_->findChild<QDockWidget*>(name); };
  for (const char* name : {"libraryDock", "modelDock", "propertiesDock"})
    if (QDockWidget* d = dock(name)) d->hide();
  if (fixDocks_) fixDocks_();
  QDockWidget* view3d = dock("mechanismDock");
  if (view3d && view3d->isVisible() && !view3d->isFloating())
    window_->resizeDocks({view3d}, {window_->width() * 3 / 5}, Qt::Horizontal);
  QDockWidget* results = dock("resultsDock");
  if (results && results->isVisible() && !results->isFloating())
    window_->resizeDocks({results}, {window_->height() * 3 / 10}, Qt::Vertical);
  setCurrent(machineName());
}

void WindowLayouts::applyStandard() {
  if (current_ != standardName() && !standardState_.isEmpty()) window_->restoreState(standardState_);
  if (fixDocks_) fixDocks_();
  setCurrent(standardName());
}

bool WindowLayouts::save(const QString& name) {
  if (!usableName(name)) return false;
  QSettings s;
  s.beginGroup(kGroup);
  s.setValue(name.trimmed(), window_->saveState());
  s.endGroup();
  s.sync();
  rebuildSaved();
  setCurrent(name.trimmed());
  return true;
}

bool WindowLayouts::restore(const QString& name) {
  QSettings s;
  s.beginGroup(kGroup);
  const QByteArray state = s.value(name).toByteArray();
  if (state.isEmpty()) return false;
  leaveStandard();
  if (!window_->restoreState(state)) return false;
  if (fixDocks_) fixDocks_();
  setCurrent(name);
  return true;
}

bool WindowLayouts::remove(const QString& name) {
  QSettings s;
  s.beginGroup(kGroup);
  if (!s.contains(name)) return false;
  s.remove(name);
  s.endGroup();
  s.sync();
  rebuildSaved();
  if (current_ == name) setCurrent({});  // the arrangement stays; no layout is checked
  return true;
}

QByteArray WindowLayouts::standardState() const {
  return current_ == standardName() ? window_->saveState() : standardState_;
}

void WindowLayouts::resume(const QString& name, const QByteArray& standard) {
  standardState_ = standard;
  const bool known = name == standardName() || name == machineName() || savedNames().contains(name);
  setCurrent(known ? name : QString());
}

void WindowLayouts::setCurrent(const QString& name) {
  current_ = name;
  standard_->setChecked(name == standardName());
  machine_->setChecked(name == machineName());
  for (QAction* a : saved_) a->setChecked(a->data().toString() == name);
  emit changed(name);
}

void WindowLayouts::rebuildSaved() {
  for (QAction* a : saved_) {
    group_->removeAction(a);
    menu_->removeAction(a);
    delete a;
  }
  saved_.clear();
  const QStringList names = savedNames();
  for (const QString& n : names) {
    auto* a = new QAction(n, menu_);
    a->setCheckable(true);
    a->setChecked(n == current_);
    a->setData(n);
    a->setObjectName("actionLayout_" + n);
    a->setToolTip(tr("Your saved layout \"%1\"").arg(n));
    group_->addAction(a);
    menu_->insertAction(savedSeparator_, a);
    connect(a, &QAction::triggered, this, [this, n] {
      if (!restore(n)) setCurrent(current_);
    });
    saved_ << a;
  }
  remove_->setEnabled(!names.isEmpty());
}

void WindowLayouts::askSave() {
  bool ok = false;
  const QString name = QInputDialog::getText(window_, tr("Save Layout"), tr("Name of the layout:"),
                                             QLineEdit::Normal, QString(), &ok);
  if (!ok || name.trimmed().isEmpty()) return;
  if (!save(name))
    QMessageBox::warning(window_, tr("Save Layout"),
                         tr("\"%1\" cannot be used: choose a name other than Standard or Machine, without slashes.")
                             .arg(name));
}

void WindowLayouts::askRemove() {
  const QStringList names = savedNames();
  if (names.isEmpty()) return;
  bool ok = false;
  const QString name = QInputDialog::getItem(window_, tr("Delete Saved Layout"), tr("Layout:"), names, 0, false, &ok);
  if (ok) remove(name);
}

}  // namespace pm::gui
