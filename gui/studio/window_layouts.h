// The main window's layouts (issue 25 point 10): "Standard" (the editing
// layout the window starts with, or as the user last arranged it) and
// "Machine" (the 3D view big on the right, the schematic beside it, the plots
// under the schematic; the library, model tree and properties put away), and
// layouts the user saved under a name. Saved layouts are the window's
// saveState(), kept per user in QSettings (group "layouts"). View > Layout
// lists them; the toolbar's Machine button switches between Machine and the
// layout before it.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;
class QToolBar;

namespace pm::gui {

class WindowLayouts : public QObject {
  Q_OBJECT
 public:
  // `fixDocks` runs after every switch: docks that depend on the project
  // (the 3D view, shown only for a mechanism) are shown or hidden as it needs.
  WindowLayouts(QMainWindow* window, std::function<void()> fixDocks);

  static QString standardName() { return QStringLiteral("Standard"); }
  static QString machineName() { return QStringLiteral("Machine"); }

  // View > Layout and the toolbar's Machine button.
  void addTo(QMenu* viewMenu, QToolBar* toolBar);
  QAction* machineAction() const { return machine_; }
  QAction* standardAction() const { return standard_; }
  QAction* saveAction() const { return save_; }
  QMenu* menu() const { return menu_; }

  // The layout shown: standardName(), machineName() or a saved name.
  const QString& current() const { return current_; }
  void applyMachine();
  // Back to the layout the window had before Machine (or a saved layout) was chosen.
  void applyStandard();
  // Saves the window's arrangement under `name` (not "Standard" or
  // "Machine", no slashes); false when the name cannot be used.
  bool save(const QString& name);
  bool restore(const QString& name);
  bool remove(const QString& name);
  QStringList savedNames() const;
  // The Standard arrangement as the user left it (the window's own state
  // while Standard is shown), and, in a new session, going on from the
  // layout `name` already restored in the window, with Standard as `standard`.
  QByteArray standardState() const;
  void resume(const QString& name, const QByteArray& standard);

 signals:
  void changed(const QString& name);

 private:
  void leaveStandard();
  void setCurrent(const QString& name);
  void rebuildSaved();
  void askSave();
  void askRemove();

  QMainWindow* window_;
  std::function<void()> fixDocks_;
  QString current_ = standardName();
  QByteArray standardState_;  // the Standard layout as the user left it
  QMenu* menu_ = nullptr;
  QActionGroup* group_ = nullptr;
  QAction* standard_ = nullptr;
  QAction* machine_ = nullptr;
  QAction* save_ = nullptr;
  QAction* remove_ = nullptr;
  QAction* savedSeparator_ = nullptr;
  QList<QAction*> saved_;
};

}  // namespace pm::gui
