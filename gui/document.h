// The open project as the editor sees it: the Project (single source of
// truth), its file, and the undo stack through which every edit goes. An edit
// is a function applied to the Project; its command keeps the project before
// and after and swaps them on undo/redo, then the views re-read the model.
// The sub-circuit types the project carries are registered as it changes,
// so the views and the compiler see the project's own definitions.
//
// A Document may also be the inside of a sub-circuit type of another
// (issue 24): its project is that type's components and connections, and
// its edits change the type's definition through the outer document (one
// undo step there; every instance follows).
#pragma once

#include "model/project.h"

#include <QObject>
#include <QString>

#include <functional>
#include <set>
#include <string>

class QUndoStack;

namespace pm::gui {

class Document : public QObject {
  Q_OBJECT
 public:
  explicit Document(QObject* parent = nullptr);
  // The inside of sub-circuit type `type` of `outer`'s project; it follows
  // the outer project (changed(), or lost() once the type is gone).
  Document(Document* outer, std::string type, QObject* parent = nullptr);
  // The project's own types leave the registry with it.
  ~Document() override;

  // The document whose type this one is the inside of (null: the project's own).
  Document* outer() const { return outer_; }
  const std::string& subcircuitType() const { return type_; }

  const Project& project() const { return project_; }
  QUndoStack* undoStack() const { return undo_; }
  const QString& file() const { return file_; }
  bool isModified() const;

  // Replaces the whole project (open, new); clears the undo history.
  void reset(Project project, const QString& file);
  // After a save under `file`: the current state is the clean one.
  void markSaved(const QString& file);

  // Applies `change` to a copy of the project and pushes it as one undoable
  // command named `text`. Returns false (and pushes nothing) when the change
  // left the project as it was.
  // The inside of a sub-circuit: a change that leaves the type invalid (a
  // port's inner component deleted) is refused, rejected() saying why.
  bool edit(const QString& text, const std::function<void(Project&)>& change);

 signals:
  void changed();  // the project's content changed (edit, undo, redo, reset)
  void modifiedChanged(bool modified);
  void fileChanged(const QString& file);
  void rejected(const QString& message);  // an edit refused (the inside of a sub-circuit)
  void lost();                             // the sub-circuit type of this inside is gone

 private:
  friend class ProjectEditCommand;
  void setProject(const Project& p);
  void registerSubcircuits();
  void withdrawTypesGone();
  void readInside();
  bool editInside(const QString& text, const std::function<void(Project&)>& change);

  Project project_;
  QString file_;
  QUndoStack* undo_ = nullptr;
  Document* outer_ = nullptr;
  std::string type_;
  // The user types the project carried (its own definitions) and the files
  // they were registered under: one it no longer carries (a made type
  // undone, another project opened) is withdrawn from the registry.
  std::set<std::string> carried_, origins_;
};

}  // namespace pm::gui
