// Choosing an STL/OBJ mesh for a project: projects read files from their own
// folder only, so a mesh chosen elsewhere is copied into it and named by
// its path relative to the project file (the Add Part and Add Contact
// dialogs' "Browse...").
#pragma once

#include <QString>

class QWidget;

namespace pm::gui {

// Asks for a mesh file (a native file dialog) and returns its path relative
// to `projectFile`'s folder, copying it there when it lies outside; "" when
// cancelled or refused, with the reason in *error (unsaved project, copy failed).
QString chooseProjectMesh(QWidget* parent, const QString& projectFile, QString* error);

}  // namespace pm::gui
