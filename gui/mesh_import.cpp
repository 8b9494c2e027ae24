#include "mesh_import.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QObject>

namespace pm::gui {

QString chooseProjectMesh(QWidget* parent, const QString& projectFile, QString* error) {
  if (projectFile.isEmpty()) {
    *error = QObject::tr("Save the project first: imported meshes are kept in its folder.");
    return {};
  }
  const QDir folder = QFileInfo(projectFile).absoluteDir();
  const QString f = QFileDialog::getOpenFileName(parent, QObject::tr("Import mesh"), folder.path(),
                                                 QObject::tr("Meshes (*.stl *.STL *.obj *.OBJ)"));
  if (f.isEmpty()) return {};
  QString rel = folder.relativeFilePath(f);
  if (rel.startsWith("..")) {
    rel = QFileInfo(f).fileName();
    if (!QFile::exists(folder.filePath(rel)) && !QFile::copy(f, folder.filePath(rel))) {
      *error = QObject::tr("Could not copy %1 into the project's folder").arg(f);
      return {};
    }
  }
  return rel;
}

}  // namespace pm::gui
