// The model tree: the project's objects by kind — parts (with their
// markers), joints, forces, motions, actuators (cylinders attached to the
// mechanism) and the circuit's components. It re-reads the Document after
// every change and keeps the shared SelectionModel: picking a row selects
// that id everywhere, and a selection made elsewhere is shown here.
#pragma once

#include <QSet>
#include <QTreeWidget>

namespace pm::gui {

class Document;
class SelectionModel;

class ModelTree : public QTreeWidget {
  Q_OBJECT
 public:
  enum Role { IdRole = Qt::UserRole, GroupRole = Qt::UserRole + 1 };

  ModelTree(Document* doc, SelectionModel* selection, QWidget* parent = nullptr);

  // The first row showing `id` (nullptr if none).
  QTreeWidgetItem* itemFor(const QString& id) const;
  // The group row ("parts", "joints", "forces", "motions", "actuators", "circuit").
  QTreeWidgetItem* group(const QString& name) const;
  void rebuild();

 private:
  void showSelection(const QString& id);

  Document* doc_;
  SelectionModel* selection_;
  bool syncing_ = false;
  QSet<QString> collapsed_;  // groups the user closed
};

}  // namespace pm::gui
