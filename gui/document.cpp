#include "document.h"

#include "engine/subcircuits.h"
#include "model/project_error.h"
#include "model/user_types.h"

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

Document::Document(Document* outer, std::string type, QObject* parent)
    : QObject(parent), undo_(outer->undoStack()), type_(std::move(type)) {
  // Every type's definition lives in the project's own document, nested ones too.
  while (outer->outer_) outer = outer->outer_;
  outer_ = outer;
  file_ = outer->file();
  readInside();
  connect(outer, &Document::changed, this, [this] {
    file_ = outer_->file();
    readInside();
  });
  connect(outer, &Document::modifiedChanged, this, &Document::modifiedChanged);
}

Document::~Document() {
  for (const std::string& name : carried_) withdrawUserType(name, origins_);
}

bool Document::isModified() const { return !undo_->isClean(); }

void Document::reset(Project project, const QString& file) {
  const bool wasModified = isModified();
  undo_->clear();
  // The old project's types leave the registry: those the new one does not
  // carry, and the old copies of those it carries (its own, read with it,
  // stay), so none comes back when the new one drops its copy.
  const std::string origin = engine::projectOrigin(file.toStdString());
  std::set<std::string> others = origins_;
  others.erase(origin);
  for (const std::string& name : carried_)
    withdrawUserType(name, project.userComponents.count(name) ? others : origins_);
  carried_.clear();
  origins_ = {origin};
  project_ = std::move(project);
  file_ = file;
  registerSubcircuits();
  emit fileChanged(file_);
  emit changed();
  if (wasModified) emit modifiedChanged(false);
}

void Document::markSaved(const QString& file) {
  if (file != file_) {
    file_ = file;
    origins_.insert(engine::projectOrigin(file_.toStdString()));
    emit fileChanged(file_);
  }
  undo_->setClean();
}

bool Document::edit(const QString& text, const std::function<void(Project&)>& change) {
  if (outer_) return editInside(text, change);
  Project after = project_;
  change(after);
  if (after == project_) return false;
  undo_->push(new ProjectEditCommand(this, text, project_, std::move(after)));
  return true;
}

void Document::setProject(const Project& p) {
  project_ = p;
  registerSubcircuits();
  emit changed();
}

// An undo or redo may bring back another definition of a type than the
// registry holds (an edit of its inside, a type made or undone).
void Document::registerSubcircuits() {
  origins_.insert(engine::projectOrigin(file_.toStdString()));
  try {
    engine::registerSubcircuits(project_, file_.toStdString());
  } catch (const ProjectError& e) {
    emit rejected(QString::fromStdString(e.what()));
  }
  withdrawTypesGone();
}

// A type the project carried and carries no more (its making undone,
// another project opened) leaves the registry, as registered from this
// project's files; a library type of its name comes back. Before the
// views re-read: none of them then draws an instance of it.
void Document::withdrawTypesGone() {
  std::set<std::string> now;
  for (const auto& [name, def] : project_.userComponents) now.insert(name);
  for (const std::string& name : carried_)
    if (!now.count(name)) withdrawUserType(name, origins_);
  carried_ = std::move(now);
}

void Document::readInside() {
  const Project& outer = outer_->project();
  const auto it = outer.userComponents.find(type_);
  Project inside;
  bool found = it != outer.userComponents.end();
  if (found) {
    try {
      inside = engine::subcircuitInside(it->second, file_.toStdString());
    } catch (const ProjectError&) {
      found = false;
    }
  }
  inside.simulation = outer.simulation;
  project_ = std::move(inside);
  emit changed();
  if (!found) emit lost();
}

// The change applied to the inside read from the definition, which is then
// rewritten with it and checked before the outer document takes it.
bool Document::editInside(const QString& text, const std::function<void(Project&)>& change) {
  QString refused;
  const bool done = outer_->edit(text + tr(" (in %1)").arg(QString::fromStdString(type_)), [&](Project& p) {
    const auto it = p.userComponents.find(type_);
    if (it == p.userComponents.end()) return;
    const std::string file = file_.toStdString();
    try {
      Project inside = engine::subcircuitInside(it->second, file);
      inside.simulation = p.simulation;
      change(inside);
      nlohmann::json def = engine::withInside(it->second, inside);
      if (def == it->second) return;
      engine::registerSubcircuit(def, file);
      it->second = std::move(def);
    } catch (const ProjectError& e) {
      refused = QString::fromStdString(e.what());
    }
  });
  if (!refused.isEmpty()) emit rejected(refused);
  return done;
}

}  // namespace pm::gui
