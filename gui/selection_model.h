// The studio's one selection: the id of the object the user picked in any
// view (schematic, model tree, 3D view, messages). Ids are the model's own:
// component, part, joint, force and motion ids, markers as "<part>.<marker>".
// A cylinder has one id, so selecting it anywhere selects it everywhere.
#pragma once

#include <QObject>
#include <QString>

namespace pm::gui {

class SelectionModel : public QObject {
  Q_OBJECT
 public:
  explicit SelectionModel(QObject* parent = nullptr) : QObject(parent) {}

  const QString& current() const { return current_; }

 public slots:
  // Emits changed() only when the id differs from the current one.
  void select(const QString& id);
  void clear() { select({}); }

 signals:
  void changed(const QString& id);

 private:
  QString current_;
};

}  // namespace pm::gui
