// The open project as the editor sees it: the Project (single source of
// truth), its file, and the undo stack through which every edit goes. An edit
// is a function applied to the Project; its command keeps the project before
// and after and swaps them on undo/redo, then the views re-read the model.
#pragma once

#include "model/project.h"

#include <QObject>
#include <QString>

#include <functional>

class QUndoStack;

namespace pm::gui {

class Document : public QObject {
  Q_OBJECT
 public:
  explicit Document(QObject* parent = nullptr);

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
  bool edit(const QString& text, const std::function<void(Project&)>& change);

 signals:
  void changed();  // the project's content changed (edit, undo, redo, reset)
  void modifiedChanged(bool modified);
  void fileChanged(const QString& file);

 private:
  friend class ProjectEditCommand;
  void setProject(const Project& p);

  Project project_;
  QString file_;
  QUndoStack* undo_ = nullptr;
};

}  // namespace pm::gui
