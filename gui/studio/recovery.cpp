#include "recovery.h"

#include "document.h"
#include "engine/engine.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QStandardPaths>
#include <QWidget>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace pm::gui {

namespace {

constexpr int kDefaultAutosaveSeconds = 120;

int openLockFile(const QString& path) {
  return ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
}

// True when nobody holds a lock on `path` (its owners are gone).
bool unlocked(const QString& path) {
  const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return free;
}

QString projectLockPath(const QString& project) {
  const QByteArray key = QFileInfo(project).absoluteFilePath().toUtf8();
  return Recovery::folder() + "/open-" +
         QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex()) + ".lock";
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.read(1 << 16)).object();
}

}  // namespace

QString Recovery::folder() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

int Recovery::autosaveSeconds() {
  return QSettings().value("recovery/autosaveSeconds", kDefaultAutosaveSeconds).toInt();
}

void Recovery::setAutosaveSeconds(int seconds) {
  QSettings().setValue("recovery/autosaveSeconds", std::max(0, seconds));
  timer_.stop();
  if (seconds > 0) timer_.start(seconds * 1000);
}

Recovery::Recovery(Document* doc, QWidget* window) : QObject(window), doc_(doc), window_(window) {
  QDir().mkpath(folder());
  session_ = QString("session-%1-%2")
                 .arg(QCoreApplication::applicationPid())
                 .arg(QRandomGenerator::global()->generate(), 8, 16, QChar('0'));
  sessionFd_ = openLockFile(folder() + "/" + session_ + ".lock");
  if (sessionFd_ >= 0) ::flock(sessionFd_, LOCK_EX | LOCK_NB);
  writeSessionInfo();

  connect(doc_, &Document::changed, this, [this] { dirty_ = true; });
  connect(doc_, &Document::modifiedChanged, this, [this](bool modified) {
    if (!modified) forget();  // saved (or undone back to the file): nothing to recover
  });
  connect(doc_, &Document::fileChanged, this, [this] { writeSessionInfo(); });
  connect(&timer_, &QTimer::timeout, this, [this] { autosave(); });
  if (const int s = autosaveSeconds(); s > 0) timer_.start(s * 1000);
}

Recovery::~Recovery() {
  forget();
  QFile::remove(folder() + "/" + session_ + ".lock");
  if (sessionFd_ >= 0) ::close(sessionFd_);
  holdProject(QString());
}

QString Recovery::recoveryFile() const { return folder() + "/" + session_ + ".pneumech.json"; }

// The session file says which project the recovery file belongs to.
void Recovery::writeSessionInfo() {
  if (sessionFd_ < 0) return;
  QJsonObject o;
  o["pid"] = QCoreApplication::applicationPid();
  o["project"] = doc_->file().isEmpty() ? QString() : QFileInfo(doc_->file()).absoluteFilePath();
  o["saved_at"] = QDateTime::currentDateTime().toString(Qt::ISODate);
  const QByteArray text = QJsonDocument(o).toJson(QJsonDocument::Compact);
  if (::ftruncate(sessionFd_, 0) == 0) (void)::pwrite(sessionFd_, text.constData(), text.size(), 0);
}

bool Recovery::autosave() {
  if (!dirty_ || !doc_->isModified()) return true;
  try {
    engine::writeTextFile(recoveryFile().toStdString(), engine::serialize(doc_->project()));
  } catch (const std::exception& e) {
    timer_.stop();  // said once, not every interval
    emit failed(tr("Autosave failed"), QString::fromStdString(e.what()));
    return false;
  }
  writeSessionInfo();
  dirty_ = false;
  return true;
}

void Recovery::forget() {
  QFile::remove(recoveryFile());
  dirty_ = false;
}

QList<Recovery::Orphan> Recovery::orphans() {
  QList<Orphan> found;
  const QDir dir(folder());
  for (const QString& lock : dir.entryList({"session-*.lock"}, QDir::Files, QDir::Time)) {
    const QString lockPath = dir.filePath(lock);
    if (!unlocked(lockPath)) continue;  // a live studio's
    const QString base = lock.chopped(5);
    const QString rec = dir.filePath(base + ".pneumech.json");
    if (!QFileInfo::exists(rec)) {
      QFile::remove(lockPath);  // a crash with nothing unsaved
      continue;
    }
    const QJsonObject info = readJson(lockPath);
    found.push_back({info["project"].toString(), rec, lockPath,
                     QFileInfo(rec).lastModified().toString(QLocale().dateTimeFormat(QLocale::ShortFormat))});
  }
  return found;
}

void Recovery::discard(const Orphan& o) {
  QFile::remove(o.recoveryFile);
  QFile::remove(o.sessionLock);
}

bool Recovery::restore(const Orphan& o) {
  Project recovered;
  try {
    QFile f(o.recoveryFile);
    if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error("cannot read " + o.recoveryFile.toStdString());
    recovered = engine::parse(f.readAll().toStdString(), o.recoveryFile.toStdString());
  } catch (const std::exception& e) {
    emit failed(tr("Cannot restore unsaved changes"), QString::fromStdString(e.what()));
    return false;
  }
  // The file as on disk first (when it still is), then the recovered state
  // as one edit: modified, and Undo shows what the file holds.
  Project base;
  QString file = o.project;
  if (!file.isEmpty()) {
    try {
      base = engine::load(file.toStdString());
    } catch (const std::exception&) {
      file.clear();  // gone or broken: the recovered state stands alone, untitled
    }
  }
  doc_->reset(std::move(base), file);
  doc_->edit(tr("Restore unsaved changes"), [&](Project& p) { p = recovered; });
  holdProject(file);
  discard(o);
  autosave();  // this session now carries the unsaved work
  return true;
}

int Recovery::offerRestore() {
  int restored = 0;
  for (const Orphan& o : orphans()) {
    if (restored > 0) break;  // one document: the rest wait for the next start
    QMessageBox box(QMessageBox::Question, tr("Restore unsaved changes?"),
                    tr("PneuMech Studio did not close normally. Unsaved changes to %1 (autosaved %2) can be restored.")
                        .arg(o.project.isEmpty() ? tr("an untitled project") : QFileInfo(o.project).fileName(),
                             o.savedAt),
                    QMessageBox::NoButton, window_);
    QPushButton* restoreButton = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    QPushButton* discardButton = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("Later"), QMessageBox::RejectRole);
    box.setDefaultButton(restoreButton);
    box.setObjectName("recoveryQuestion");
    box.exec();
    if (box.clickedButton() == restoreButton) {
      if (restore(o)) ++restored;
    } else if (box.clickedButton() == discardButton) {
      discard(o);
    }
  }
  return restored;
}

bool Recovery::openElsewhere(const QString& path, qint64* pid) {
  const QString lock = projectLockPath(path);
  if (!QFileInfo::exists(lock) || unlocked(lock)) return false;
  if (pid) {
    QFile f(lock);
    *pid = f.open(QIODevice::ReadOnly) ? f.readAll().trimmed().toLongLong() : 0;
  }
  return true;
}

void Recovery::holdProject(const QString& path) {
  const QString lock = path.isEmpty() ? QString() : projectLockPath(path);
  if (lock == projectLock_) return;
  if (projectFd_ >= 0) {
    ::close(projectFd_);  // releases our shared lock
    if (unlocked(projectLock_)) QFile::remove(projectLock_);
    projectFd_ = -1;
  }
  projectLock_ = lock;
  if (lock.isEmpty()) return;
  projectFd_ = openLockFile(lock);
  if (projectFd_ < 0) return;
  ::flock(projectFd_, LOCK_SH | LOCK_NB);
  const QByteArray pid = QByteArray::number(QCoreApplication::applicationPid());
  if (::ftruncate(projectFd_, 0) == 0) (void)::pwrite(projectFd_, pid.constData(), pid.size(), 0);
}

}  // namespace pm::gui
