// The studio's file session: which file the document is (New, Open, Save,
// Save As with their dialogs), the question before unsaved edits are
// dropped, and the recent files (QSettings "recentFiles"). The window
// reacts to its signals: results cleared before a project is replaced,
// views reset after.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace pm::gui {

class Document;

class FileSession : public QObject {
  Q_OBJECT
 public:
  // `window`: the parent of the dialogs.
  FileSession(Document* doc, QWidget* window);

  // While it returns true (a run in progress) no project replaces the open one.
  void setBusy(std::function<bool()> busy) { busy_ = std::move(busy); }

  bool open(const QString& path);         // errors: failed(), false
  bool save();                            // to the current file (Save As when none)
  bool saveAs(const QString& path);       // and make it the current file
  void newProject();                      // an empty, untitled circuit
  // Offers to save unsaved edits; false: the user cancelled.
  bool maybeSave();
  // The menu's commands: each asks maybeSave() first where edits would be lost.
  void newCommand();
  void openCommand();                     // file dialog
  void openCommand(const QString& path);  // recent file, start page
  void saveAsCommand();                   // file dialog
  // Where the file dialogs open without a current file: the folder of the
  // last file opened or saved (QSettings "lastFolder"), else the examples.
  QString lastFolder() const;

  QStringList recentFiles() const;

 signals:
  void aboutToReplace();                    // the old project's results go
  void replaced(const QString& path);       // the document holds a new project ("" for New)
  void saved(const QString& path);
  void recentFilesChanged(const QStringList& files);
  void failed(const QString& title, const QString& text);
  void warning(const QString& title, const QString& text);  // said, and the command goes on

 private:
  void addRecentFile(const QString& path);

  Document* doc_;
  QWidget* window_;
  std::function<bool()> busy_;
};

}  // namespace pm::gui
