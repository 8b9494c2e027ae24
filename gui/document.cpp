#include "document.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace pm::gui {

// Keeps the project before and after one edit; undo and redo swap them.
class ProjectEditCommand : public QUndoCommand {
 public:
  ProjectEditCommand(Document* doc, const QString& text, Project before, Project after)
      : QUndoCommand(text), doc_(doc), before_(std::move(before)), after_(std::move(after)) {}
  void undo() override { doc_->setProject(before_); }
  void redo() override { doc_->setProject(after_); }

 private:
  Document* doc_;
  Project before_, after_;
};

Document::Document(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {
  connect(undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

bool Document::isModified() const { return !undo_->isClean(); }

void Document::reset(Project project, const QString& file) {
  const bool wasModified = isModified();
  undo_->clear();
  project_ = std::move(project);
  file_ = file;
  emit fileChanged(file_);
  emit changed();
  if (wasModified) emit modifiedChanged(false);
}

void Document::markSaved(const QString& file) {
  if (file != file_) {
    file_ = file;
    emit fileChanged(file_);
  }
  undo_->setClean();
}

bool Document::edit(const QString& text, const std::function<void(Project&)>& change) {
  Project after = project_;
  change(after);
  if (after == project_) return false;
  undo_->push(new ProjectEditCommand(this, text, project_, std::move(after)));
  return true;
}

void Document::setProject(const Project& p) {
  project_ = p;
  emit changed();
}

}  // namespace pm::gui
