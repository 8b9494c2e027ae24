#include "file_session.h"

#include "document.h"
#include "engine/engine.h"
#include "recovery.h"
#include "start_page.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QWidget>

namespace pm::gui {

namespace {
constexpr int kMaxRecent = 8;
}  // namespace

FileSession::FileSession(Document* doc, QWidget* window) : QObject(window), doc_(doc), window_(window) {}

bool FileSession::open(const QString& path) {
  if (busy_ && busy_()) {
    emit failed(tr("Open project"), tr("Stop the running simulation first."));
    return false;
  }
  qint64 pid = 0;
  if (QFileInfo(path).absoluteFilePath() != QFileInfo(doc_->file()).absoluteFilePath() &&
      Recovery::openElsewhere(path, &pid))
    emit warning(tr("Project open twice"),
                 tr("%1 is already open in another PneuMech Studio (process %2). Saving in both overwrites "
                    "each other's changes.")
                     .arg(QFileInfo(path).fileName())
                     .arg(pid));
  Project p;
  try {
    p = engine::load(path.toStdString());
  } catch (const std::exception& e) {
    emit failed(tr("Cannot open project"), QString::fromStdString(e.what()));
    return false;
  }
  emit aboutToReplace();
  doc_->reset(std::move(p), path);
  emit replaced(path);
  addRecentFile(path);
  return true;
}

void FileSession::newProject() {
  emit aboutToReplace();
  Project p;
  p.meta.title = "";
  doc_->reset(std::move(p), QString());
  emit replaced(QString());
}

bool FileSession::save() {
  if (doc_->file().isEmpty()) {
    saveAsCommand();
    return !doc_->file().isEmpty() && !doc_->isModified();
  }
  return saveAs(doc_->file());
}

bool FileSession::saveAs(const QString& path) {
  try {
    engine::save(doc_->project(), path.toStdString());  // atomic (write + rename)
  } catch (const std::exception& e) {
    emit failed(tr("Cannot save project"), QString::fromStdString(e.what()));
    return false;
  }
  doc_->markSaved(path);
  addRecentFile(path);
  emit saved(path);
  return true;
}

bool FileSession::maybeSave() {
  if (!doc_->isModified()) return true;
  const auto answer = QMessageBox::question(
      window_, tr("Unsaved changes"), tr("The project has unsaved changes. Save them first?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return save();
  return true;
}

void FileSession::newCommand() {
  if (maybeSave()) newProject();
}

void FileSession::openCommand() {
  if (!maybeSave()) return;
  const QString dir = doc_->file().isEmpty() ? lastFolder() : QFileInfo(doc_->file()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(window_, tr("Open project"), dir,
                                                    tr("PneuMech projects (*.pneumech.json *.json);;All files (*)"));
  if (!path.isEmpty()) open(path);
}

void FileSession::openCommand(const QString& path) {
  if (maybeSave()) open(path);
}

void FileSession::saveAsCommand() {
  const QString file = doc_->file();
  QString path = QFileDialog::getSaveFileName(window_, tr("Save project as"),
                                              file.isEmpty() ? lastFolder() + "/untitled.pneumech.json" : file,
                                              tr("PneuMech projects (*.pneumech.json);;All files (*)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".json")) path += ".pneumech.json";
  saveAs(path);
}

QString FileSession::lastFolder() const {
  const QString dir = QSettings().value("lastFolder").toString();
  return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : StartPage::examplesDirectory();
}

QStringList FileSession::recentFiles() const { return QSettings().value("recentFiles").toStringList(); }

void FileSession::addRecentFile(const QString& path) {
  QSettings s;
  QStringList files = s.value("recentFiles").toStringList();
  const QString abs = QFileInfo(path).absoluteFilePath();
  files.removeAll(abs);
  files.prepend(abs);
  while (files.size() > kMaxRecent) files.removeLast();
  s.setValue("recentFiles", files);
  s.setValue("lastFolder", QFileInfo(abs).absolutePath());  // where the next file dialog opens
  emit recentFilesChanged(files);
}

}  // namespace pm::gui
