#include "mechanism_snapshot.h"

#include "scene3d_scene.h"
#include "engine/engine.h"

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>

#include <osgViewer/Viewer>

#include <algorithm>
#include <cmath>
#include <memory>

namespace pm::gui {

QImage renderMechanismSnapshot(const Project& project, const ResultStore* results, double t, int width, int height,
                               const QString& projectDir, QString* why) {
  auto fail = [&](const QString& m) {
    if (why) *why = m;
    return QImage();
  };
  if (project.mechanism.empty()) return fail(QStringLiteral("the project has no mechanism"));
  if (width <= 0 || height <= 0) return fail(QStringLiteral("empty image size"));
  const QString platform = QGuiApplication::platformName();
  QSurfaceFormat fmt = QSurfaceFormat::defaultFormat();
  fmt.setDepthBufferSize(24);
  fmt.setStencilBufferSize(8);
  QOpenGLContext ctx;
  ctx.setFormat(fmt);
  // Qt 6.4's offscreen platform creates a GLX context when $DISPLAY names
  // an X server (Xvfb will do) and fails cleanly without one.
  if (!ctx.create())
    return fail(QStringLiteral("no OpenGL context on the Qt platform '%1'%2")
                    .arg(platform, qEnvironmentVariableIsEmpty("DISPLAY") ? QStringLiteral(" without a display")
                                                                         : QString()));
  QOffscreenSurface surface;
  surface.setFormat(ctx.format());
  surface.create();
  if (!surface.isValid() || !ctx.makeCurrent(&surface))
    return fail(QStringLiteral("no offscreen OpenGL surface on the platform '%1'").arg(platform));

  QImage image;
  {
    QOpenGLFramebufferObjectFormat ff;
    ff.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
    ff.setSamples(4);
    QOpenGLFramebufferObject fbo(width, height, ff);
    if (!fbo.isValid()) {
      ctx.doneCurrent();
      return fail(QStringLiteral("cannot create an OpenGL framebuffer of %1 x %2").arg(width).arg(height));
    }
    fbo.bind();
    scene3d::MechanismScene scene;
    scene.build(project, projectDir.toStdString());
    scene3d::PoseTrack track;
    track.setStore(results, scene.partIds());
    track.refresh();
    if (track.rows() > 0) scene.applyPose(track, std::clamp(t, track.startTime(), track.endTime()));

    osg::ref_ptr<osgViewer::GraphicsWindowEmbedded> window = new osgViewer::GraphicsWindowEmbedded(0, 0, width, height);
    osg::ref_ptr<osgViewer::Viewer> viewer = new osgViewer::Viewer;
    viewer->setThreadingModel(osgViewer::Viewer::SingleThreaded);
    viewer->setLightingMode(osg::View::NO_LIGHT);  // the scene brings its own light, as in the 3D view
    osg::Camera* cam = viewer->getCamera();
    cam->setGraphicsContext(window.get());
    cam->setViewport(0, 0, width, height);
    cam->setClearColor(osg::Vec4(1.0f, 1.0f, 1.0f, 1.0f));
    cam->setClearMask(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    cam->setSmallFeatureCullingPixelSize(-1.0f);
    constexpr double kFovY = 30.0;
    const double aspect = double(width) / height;
    cam->setProjectionMatrixAsPerspective(kFovY, aspect, 1e-3, 1e4);
    cam->setProjectionResizePolicy(osg::Camera::FIXED);
    // The 3D view's iso direction, turned with the gravity vector.
    const osg::BoundingSphere b = scene.bounds();
    const double r = std::max(1e-3, double(b.radius()));
    const double half = osg::DegreesToRadians(kFovY / 2);
    const double dist = r / std::sin(std::atan(std::tan(half) * std::min(1.0, aspect))) * 1.1;
    osg::Vec3d dir = scene.upRotation() * osg::Vec3d(0.55, -1.0, 0.65);
    dir.normalize();
    const osg::Vec3d center(b.center());
    cam->setViewMatrixAsLookAt(center + dir * dist, center, scene.upRotation() * osg::Vec3d(0, 0, 1));
    viewer->setSceneData(scene.root());
    viewer->realize();
    window->setDefaultFboId(fbo.handle());
    viewer->frame();
    image = fbo.toImage().convertToFormat(QImage::Format_RGB32);
    fbo.release();
    scene.root()->releaseGLObjects(window->getState());
    viewer->setSceneData(nullptr);
  }
  ctx.doneCurrent();
  if (image.isNull()) return fail(QStringLiteral("rendering gave no image"));
  return image;
}

}  // namespace pm::gui
