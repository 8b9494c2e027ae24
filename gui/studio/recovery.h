// Nothing lost when the studio dies: every few minutes (setting "recovery/
// autosaveSeconds", 0 = off) unsaved edits go to a recovery file in the
// user's data folder; a clean close or a save removes it. Each running
// studio holds an flock on its session file, which the kernel releases
// however the process ends, so the next start can tell a crashed session's
// recovery file from a live one's and offer to restore it.
//
// The same locks say when a project is already open in another studio:
// opening it again warns that the two would overwrite each other's saves.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

class QWidget;

namespace pm::gui {

class Document;

class Recovery : public QObject {
  Q_OBJECT
 public:
  // `window`: the parent of the questions. Starts the session (its lock).
  Recovery(Document* doc, QWidget* window);
  ~Recovery() override;  // a clean end: the session's files go

  static QString folder();  // <user data>/recovery
  static int autosaveSeconds();
  // The setting, for this and later sessions (0 = off); restarts the timer.
  void setAutosaveSeconds(int seconds);

  // Writes the recovery file now if the document has edits not yet in it.
  // Returns false on a write error (said through failed()).
  bool autosave();
  QString recoveryFile() const;  // this session's (may not exist)

  // A crashed session's unsaved work: the project file it belonged to ("" =
  // untitled), when it was written, and the recovery file.
  struct Orphan {
    QString project, recoveryFile, sessionLock;
    QString savedAt;
  };
  // Sessions whose studio is gone and left a recovery file.
  static QList<Orphan> orphans();
  // Asks, for each orphan, whether to restore it: Restore opens the project
  // file and applies the recovered state as one undoable edit (so Undo shows
  // the file as it is on disk); Discard deletes it; Later keeps it.
  // Returns the number restored (at most one: the window has one document).
  int offerRestore();
  // Restores `o` into the document without asking (the Restore answer).
  bool restore(const Orphan& o);
  static void discard(const Orphan& o);

  // Another running studio has `path` open (checked before opening it).
  static bool openElsewhere(const QString& path, qint64* pid = nullptr);
  // This session now holds `path` ("" for none): the lock the check above sees.
  void holdProject(const QString& path);

 signals:
  void failed(const QString& title, const QString& text);

 private:
  void forget();  // the recovery file goes (saved, replaced, closed)
  void writeSessionInfo();

  Document* doc_;
  QWidget* window_;
  QTimer timer_;
  QString session_;     // "session-<pid>-<random>"
  int sessionFd_ = -1;  // flock held while we live
  int projectFd_ = -1;  // flock on the open project's lock file
  QString projectLock_;
  bool dirty_ = false;  // edits since the last autosave
};

}  // namespace pm::gui
