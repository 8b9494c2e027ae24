#include "library_folder.h"

#include "engine/engine.h"
#include "engine/user_folder.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace pm::gui::library_folder {

namespace {
const char* const kKey = "library/folder";
}

QString current() {
  const QString set = QSettings().value(kKey).toString();
  return set.isEmpty() ? QString::fromStdString(engine::userComponentFolder()) : set;
}

bool chosen() { return !QSettings().value(kKey).toString().isEmpty(); }

QStringList load(const QString& folder, QString* problem) {
  QStringList names;
  try {
    for (const std::string& n : engine::loadUserLibrary(folder.toStdString())) names << QString::fromStdString(n);
  } catch (const ProjectError& e) {
    // The good files are registered all the same (user::loadLibrary).
    if (problem) *problem = QString::fromStdString(e.what());
  }
  return names;
}

bool choose(const QString& folder, QString* error, QString* problem) {
  const QString path = QDir::cleanPath(folder.trimmed());
  const QFileInfo info(path);
  QString wrong;
  if (path.isEmpty())
    wrong = QObject::tr("no folder given");
  else if (!info.exists())
    wrong = QObject::tr("does not exist");
  else if (!info.isDir())
    wrong = QObject::tr("is not a folder");
  else if (!info.isReadable() || !info.isExecutable())
    wrong = QObject::tr("cannot be read");
  if (!wrong.isEmpty()) {
    if (error)
      *error = QObject::tr("Library folder '%1' %2; the library stays '%3'.").arg(folder.trimmed(), wrong, current());
    return false;
  }
  const QString absolute = info.absoluteFilePath();
  load(absolute, problem);
  QSettings().setValue(kKey, absolute);
  return true;
}

QStringList loadAtStart(QString* problem) {
  const QString folder = current();
  if (!QFileInfo(folder).isDir()) {
    if (chosen() && problem)
      *problem = QObject::tr("the library folder '%1' (Edit > Preferences) is not there any more").arg(folder);
    return {};
  }
  return load(folder, problem);
}

}  // namespace pm::gui::library_folder
