// A picture of a project's mechanism without a window, for the PDF report:
// the same OpenSceneGraph scene as the 3D view, posed at a time of a result,
// rendered through a QOffscreenSurface, a QOpenGLContext and a framebuffer
// object handed to OSG as its default FBO.
//
// Needs OpenGL from the platform. The studio has it; Qt's "offscreen"
// platform (the CLI's default for `pneumech report`) has it only when
// $DISPLAY names an X server (it then uses GLX; Xvfb will do) - with no
// display at all the result is a null image and `why` says so.
#pragma once

#include "model/project.h"

#include <QImage>
#include <QString>

namespace pm {
class ResultStore;
}

namespace pm::gui {

// `results` may be null (the model's initial pose). Iso view fitted to the
// mechanism, 4x multisampled. Runs on the GUI thread.
QImage renderMechanismSnapshot(const Project& project, const ResultStore* results, double t, int width, int height,
                               const QString& projectDir, QString* why);

}  // namespace pm::gui
