#include "mechanism_view.h"

#include "model/project.h"
#include "scene3d_flexible.h"
#include "scene3d_shapes.h"
#include "scene3d_scene.h"
#include "mechanism_view_impl.h"
#include "engine/engine.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineF>
#include <QMenu>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <osgGA/TrackballManipulator>
#include <osgUtil/LineSegmentIntersector>
#include <osgViewer/Viewer>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pm::gui {

namespace {

constexpr double kFovY = 30.0;  // degrees; a long lens reads like a CAD view

// A marker of the scene's part `p` as the file names it: a flexible body's
// marker sits on a node part ("<beam>_n<j>") but is "<beam>.<marker>".
QString fileMarkerRef(const Mechanism& m, const PartDef& p, const MarkerDef& mk) {
  const std::string beam = scene3d::beamOfNodePart(m, p.id);
  return QString::fromStdString((beam.empty() ? p.id : beam) + "." + mk.id);
}

int osgButton(Qt::MouseButton b) {
  switch (b) {
    case Qt::LeftButton: return 1;
    case Qt::MiddleButton: return 2;
    case Qt::RightButton: return 3;
    default: return 0;
  }
}

QMatrix4x4 toQt(const osg::Matrixd& m) {
  // OSG stores row vectors (p' = p M); QMatrix4x4 takes rows of the
  // column-vector matrix, i.e. the transpose.
  return QMatrix4x4(float(m(0, 0)), float(m(1, 0)), float(m(2, 0)), float(m(3, 0)),  //
                    float(m(0, 1)), float(m(1, 1)), float(m(2, 1)), float(m(3, 1)),  //
                    float(m(0, 2)), float(m(1, 2)), float(m(2, 2)), float(m(3, 2)),  //
                    float(m(0, 3)), float(m(1, 3)), float(m(2, 3)), float(m(3, 3)));
}

}  // namespace


MechanismView::MechanismView(QWidget* parent) : QOpenGLWidget(parent), d_(std::make_unique<Impl>()) {
  QSurfaceFormat fmt = format();
  fmt.setDepthBufferSize(24);
  fmt.setStencilBufferSize(8);
  // No multisampling on screen: with Mesa's software renderer MSAA
  // multiplies the cost of a frame. Snapshots are rendered with 4x.
  fmt.setSamples(0);
  setFormat(fmt);
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(160, 120);
  d_->manipulator = new osgGA::TrackballManipulator;
  d_->manipulator->setAllowThrow(false);
  d_->manipulator->setAutoComputeHomePosition(false);
  d_->scene.root()->addChild(d_->gizmo.node());
  d_->poseTimer.setSingleShot(true);
  connect(&d_->poseTimer, &QTimer::timeout, this, &MechanismView::showPose);
}

MechanismView::~MechanismView() {
  if (context()) disconnect(context(), &QOpenGLContext::aboutToBeDestroyed, this, nullptr);
  cleanupGL();
}

bool MechanismView::isSupported() {
  const QString p = QGuiApplication::platformName();
  return p != "offscreen" && p != "minimal";
}

void MechanismView::cleanupGL() {
  if (!d_->viewer) return;
  makeCurrent();
  d_->scene.root()->releaseGLObjects(d_->window->getState());
  d_->viewer->setSceneData(nullptr);
  d_->viewer = nullptr;
  d_->window = nullptr;
  doneCurrent();
}

void MechanismView::setProject(const Project& project, const QString& projectDir) {
  if (d_->viewer) makeCurrent();
  const std::vector<std::string> oldParts = d_->scene.partIds();
  const bool wasBuilt = d_->built;
  d_->scene.build(project, projectDir.toStdString());
  d_->built = true;
  // A new gravity direction turns the camera with it (edits keep the view).
  const osg::Quat delta = d_->scene.upRotation() * d_->appliedUp.inverse();
  d_->viewDir = delta * d_->viewDir;
  d_->viewUp = delta * d_->viewUp;
  d_->appliedUp = d_->scene.upRotation();
  if (d_->viewer) {
    // The root stays the same node across edits; setting it again would
    // make the viewer start over with it.
    if (d_->viewer->getSceneData() != d_->scene.root()) d_->viewer->setSceneData(d_->scene.root());
    doneCurrent();
  }
  // The highlight survives an edit when its object is still drawn. No
  // signal: an object that is no longer drawn (a cylinder just detached)
  // stays selected in the other views.
  d_->scene.highlight(d_->selected.toStdString());
  d_->selected = QString::fromStdString(d_->scene.highlighted());
  // Copying the result rows again is only needed when other parts are drawn.
  if (oldParts != d_->scene.partIds() || !wasBuilt) d_->track.setStore(d_->results, d_->scene.partIds());
  d_->scene.contacts().setStore(d_->results);  // the pairs were drawn anew
  d_->scene.latches().setStore(d_->results);
  d_->time = 0.0;
  d_->fitGround();  // the new drawing's base, under the poses shown
  if (d_->track.rows() > 0) {
    d_->scene.applyPose(d_->track, d_->time);
    d_->scene.contacts().apply(d_->time);
    d_->scene.latches().apply(d_->time);
  }
  // Refit for another model or when parts come or go; editing a field keeps
  // the camera where the user put it.
  if (!wasBuilt || oldParts != d_->scene.partIds()) d_->fitPending = true;
  update();
  emit flexibleBodiesShown(d_->scene.hasBeams());
}

void MechanismView::setResults(const ResultStore* results, bool complete) {
  d_->results = results;
  d_->complete = results && complete;
  d_->track.setStore(results, d_->scene.partIds());
  d_->scene.contacts().setStore(results);
  d_->scene.latches().setStore(results);
  d_->scene.setStressStore(results);
  d_->fitGround();
  setPose(d_->time);
}

void MechanismView::resultsComplete() {
  d_->complete = d_->results != nullptr;
  d_->fitGround();
  setPose(d_->time);
}

void MechanismView::setDeformationScale(double scale) {
  d_->scene.setDeformationScale(scale);
  setPose(d_->time);
}

void MechanismView::setTimeCaption(const QString& text) {
  d_->timeCaption = text;
  update();
}

double MechanismView::deformationScale() const { return d_->scene.deformationScale(); }

void MechanismView::setStressColours(bool on) {
  d_->scene.setStressColours(on);
  setPose(d_->time);
}

bool MechanismView::stressColours() const { return d_->scene.stressColours(); }
bool MechanismView::hasFlexibleBodies() const { return d_->scene.hasBeams(); }

// The stress colours' scale at the top right: 0 to the results' largest
// stress in MPa, the colours the sections take.
void MechanismView::drawStressBar(QPainter& p) {
  if (!d_->scene.stressColours() || !d_->scene.hasBeams()) return;
  const double top = d_->scene.maxStress();
  // The overlay's bold font as set (another font on this GL widget makes Qt
  // Charts crash at exit: see drawOverlay).
  const QFontMetrics fm = p.fontMetrics();
  const QString title = tr("Outer-fibre stress [MPa]");
  const int w = 16, h = std::clamp(height() / 3, 60, 180);
  const int panelW = std::max(fm.horizontalAdvance(title), w + 10 + fm.horizontalAdvance(QStringLiteral("000.000"))) + 24;
  // Under the grid's label in the top right corner.
  const QRect panel(width() - panelW - 14, 12 + fm.height() * 2, panelW + 4, fm.height() + h + 26);
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(255, 255, 255, 210));
  p.drawRoundedRect(panel, 4, 4);
  p.setPen(QColor(30, 30, 30));
  p.drawText(QPoint(panel.left() + 8, panel.top() + fm.ascent() + 6), title);
  const QRect bar(panel.left() + 8, panel.top() + fm.height() + 14, w, h);
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int i = 0; i <= 8; ++i) {
    const osg::Vec4 c = scene3d::stressColor(i / 8.0);
    g.setColorAt(i / 8.0, QColor::fromRgbF(c.r(), c.g(), c.b()));
  }
  p.setBrush(g);
  p.setPen(QPen(QColor(60, 60, 60), 1));
  p.drawRect(bar);
  p.setPen(QColor(30, 30, 30));
  if (!(top > 0)) {
    p.drawText(QPoint(bar.right() + 8, bar.bottom()), tr("no stress"));
    return;
  }
  for (int i = 0; i <= 4; ++i) {
    const int y = bar.bottom() - (bar.height() * i) / 4;
    p.drawLine(bar.right(), y, bar.right() + 4, y);
    p.drawText(QPoint(bar.right() + 8, y + fm.ascent() / 2 - 1), QString::number(top * i / 4 * 1e-6, 'g', 3));
  }
}

bool MechanismView::refreshResults() { return d_->track.refresh(); }
double MechanismView::startTime() const { return d_->track.startTime(); }
double MechanismView::endTime() const { return d_->track.endTime(); }
double MechanismView::time() const { return d_->time; }

namespace {
// A pose held back waits this much past its interval for the caller's next frame.
constexpr int kPoseGraceMs = 60;
}  // namespace

void MechanismView::setPose(double t) {
  d_->time = t;
  // Spaced out: drawn by the first call once the interval is over, so with
  // the caller's frame (one repaint of the window); the timer draws the
  // newest pose when no further call comes.
  if (d_->poseInterval > 0 && d_->lastPose.isValid() && d_->lastPose.elapsed() < d_->poseInterval) {
    if (!d_->poseTimer.isActive()) d_->poseTimer.start(int(d_->poseInterval - d_->lastPose.elapsed()) + kPoseGraceMs);
    return;
  }
  showPose();
}

void MechanismView::setPoseInterval(int ms) {
  d_->poseInterval = std::max(0, ms);
  if (d_->poseInterval == 0 && d_->poseTimer.isActive()) {
    d_->poseTimer.stop();
    showPose();  // the newest pose at once
  }
}

int MechanismView::poseInterval() const { return d_->poseInterval; }

void MechanismView::showPose() {
  d_->poseTimer.stop();
  d_->lastPose.start();
  const double t = d_->time;
  d_->track.refresh();
  d_->scene.contacts().refresh();
  d_->scene.latches().refresh();
  if (d_->track.rows() > 0) {
    d_->scene.applyPose(d_->track, t);
    d_->scene.contacts().apply(t);
    d_->scene.latches().apply(t);
  } else {
    d_->scene.resetPose();
  }
  if (d_->follow && !d_->fitPending) {
    // Translate eye and centre together: the view direction and distance
    // the user chose stay, the mechanism stays in frame.
    osg::Vec3d eye, center, up;
    d_->manipulator->getTransformation(eye, center, up);
    const osg::Vec3d shift = osg::Vec3d(d_->scene.bounds().center()) - center;
    d_->manipulator->setTransformation(eye + shift, center + shift, up);
  }
  update();
  ++d_->poses;
  emit poseShown(t);
}

void MechanismView::setFollow(bool on) {
  d_->follow = on;
  setPose(d_->time);
}

bool MechanismView::follows() const { return d_->follow; }
QString MechanismView::hoveredMarker() const { return d_->hovered; }
const scene3d::MechanismScene& MechanismView::scene() const { return d_->scene; }

void MechanismView::fitSelection() {
  const osg::BoundingSphere b = d_->scene.objectBounds(d_->selected.toStdString());
  if (!b.valid()) {
    fitAll();
    return;
  }
  fitSphere(QVector3D(b.center().x(), b.center().y(), b.center().z()), b.radius());
  update();
}

void MechanismView::fitAll() {
  fitCamera();
  update();
}

void MechanismView::fitCamera() {
  const osg::BoundingSphere b = d_->scene.bounds();
  fitSphere(QVector3D(b.center().x(), b.center().y(), b.center().z()), b.radius());
}

void MechanismView::fitSphere(const QVector3D& c, double radius) {
  const double r = std::max(1e-3, radius);
  const double half = osg::DegreesToRadians(kFovY / 2);
  const double aspect = height() > 0 ? double(width()) / height() : 1.0;
  const double fit = std::min(1.0, aspect);  // narrow windows: fit the width
  const double dist = r / std::sin(std::atan(std::tan(half) * fit)) * 1.15;
  osg::Vec3d dir = d_->viewDir;
  dir.normalize();
  const osg::Vec3d center(c.x(), c.y(), c.z());
  d_->manipulator->setTransformation(center + dir * dist, center, d_->viewUp);
  d_->manipulator->setHomePosition(center + dir * dist, center, d_->viewUp);
  d_->manipulator->setMinimumDistance(r * 1e-3);
  d_->fitPending = false;
}

void MechanismView::setStandardView(StandardView v) {
  switch (v) {
    case StandardView::Front: d_->viewDir = {0, -1, 0}; d_->viewUp = {0, 0, 1}; break;
    case StandardView::Top: d_->viewDir = {0, 0, 1}; d_->viewUp = {0, 1, 0}; break;
    case StandardView::Side: d_->viewDir = {1, 0, 0}; d_->viewUp = {0, 0, 1}; break;
    case StandardView::Iso: d_->viewDir = {0.55, -1.0, 0.65}; d_->viewUp = {0, 0, 1}; break;
  }
  d_->viewDir = d_->scene.upRotation() * d_->viewDir;
  d_->viewUp = d_->scene.upRotation() * d_->viewUp;
  fitAll();
}

void MechanismView::setOrthographic(bool on) {
  d_->orthographic = on;
  update();
}

bool MechanismView::orthographic() const { return d_->orthographic; }

void MechanismView::setMarkersVisible(bool on) {
  d_->scene.setMarkersVisible(on);
  update();
}

bool MechanismView::markersVisible() const { return d_->scene.markersVisible(); }

void MechanismView::setGridVisible(bool on) {
  d_->scene.setGridVisible(on);
  update();
}

QString MechanismView::selectedId() const { return d_->selected; }

void MechanismView::select(const QString& id) {
  const std::string s = id.toStdString();
  d_->scene.highlight(d_->scene.hasObject(s) ? s : std::string());
  const QString now = QString::fromStdString(d_->scene.highlighted());
  update();
  if (now == d_->selected) return;
  d_->selected = now;
  emit objectSelected(now);
}

QString MechanismView::objectAt(const QPoint& pos) {
  if (!d_->viewer) return {};
  const double r = d_->dpr(this);
  osgUtil::LineSegmentIntersector::Intersections hits;
  const float x = float(pos.x() * r), y = float((height() - pos.y()) * r);
  if (!d_->viewer->computeIntersections(d_->viewer->getCamera(), osgUtil::Intersector::WINDOW, x, y, hits,
                                        scene3d::kPickMask))
    return {};
  for (const auto& hit : hits) {
    const std::string id = d_->scene.idOnPath(hit.nodePath);
    if (!id.empty()) return QString::fromStdString(id);
  }
  return {};
}

QPointF MechanismView::projectToWidget(const QVector3D& w) const {
  if (!d_->viewer) return {};
  const osg::Camera* cam = d_->viewer->getCamera();
  const osg::Matrixd m = cam->getViewMatrix() * cam->getProjectionMatrix() * cam->getViewport()->computeWindowMatrix();
  const osg::Vec3d p = osg::Vec3d(w.x(), w.y(), w.z()) * m;
  const double r = d_->dpr(this);
  return {p.x() / r, height() - p.y() / r};
}

QMatrix4x4 MechanismView::partTransform(const QString& id) const {
  const auto& ids = d_->scene.partIds();
  for (size_t k = 0; k < ids.size(); ++k)
    if (ids[k] == id.toStdString()) return toQt(d_->scene.partMatrix(k));
  return {};
}

bool MechanismView::markerPosition(const QString& ref, QVector3D& world) const {
  osg::Vec3d p;
  if (!d_->scene.markerWorld(ref.toStdString(), p)) return false;
  world = QVector3D(float(p.x()), float(p.y()), float(p.z()));
  return true;
}

QString MechanismView::markerAt(const QPointF& pos, double radius) const {
  QString best;
  double bestDist = radius;
  const Mechanism& m = d_->scene.model();
  for (const PartDef& p : m.parts)
    for (const MarkerDef& mk : p.markers) {
      const QString ref = fileMarkerRef(m, p, mk);
      QVector3D w;
      if (!markerPosition(ref, w)) continue;
      const double dist = QLineF(projectToWidget(w), pos).length();
      if (dist < bestDist) bestDist = dist, best = ref;  // coincident markers: the first
    }
  return best;
}

QStringList MechanismView::markersAt(const QPointF& pos, double radius) const {
  const QString nearest = markerAt(pos, radius);
  QStringList refs;
  QVector3D w;
  if (nearest.isEmpty() || !markerPosition(nearest, w)) return refs;
  const QPointF at = projectToWidget(w);
  for (const PartDef& p : d_->scene.model().parts)
    for (const MarkerDef& mk : p.markers) {
      const QString ref = fileMarkerRef(d_->scene.model(), p, mk);
      if (markerPosition(ref, w) && QLineF(projectToWidget(w), at).length() < 2.0) refs << ref;
    }
  return refs;
}

void MechanismView::finishPick(const QString& ref) {
  if (!d_->picking) return;
  d_->picking = false;
  d_->scene.setMarkersVisible(d_->markersBeforePick);
  unsetCursor();
  update();
  emit markerPicked(ref);
}

bool MechanismView::actuatorTransforms(const QString& id, QMatrix4x4& barrel, QMatrix4x4& rod) const {
  osg::Matrixd b, r;
  if (!d_->scene.actuatorMatrices(id.toStdString(), b, r)) return false;
  barrel = toQt(b);
  rod = toQt(r);
  return true;
}

bool MechanismView::actuatorRadii(const QString& id, double& barrel, double& rod) const {
  return d_->scene.actuatorRadii(id.toStdString(), barrel, rod);
}

QVector3D MechanismView::cameraEye() const {
  osg::Vec3d eye, center, up;
  d_->manipulator->getTransformation(eye, center, up);
  return QVector3D(float(eye.x()), float(eye.y()), float(eye.z()));
}

QVector3D MechanismView::cameraCenter() const {
  const osg::Vec3d c = d_->manipulator->getCenter();
  return QVector3D(float(c.x()), float(c.y()), float(c.z()));
}

const QObject* MechanismView::pickOwner() const { return d_->pickOwner; }

void MechanismView::beginMarkerPick(const QString& prompt, const QObject* owner, bool partsToo) {
  d_->pickOwner = owner;
  d_->surfacePicking = false;
  d_->pickParts = partsToo;
  if (!d_->picking) d_->markersBeforePick = d_->scene.markersVisible();
  d_->picking = true;
  d_->pickPrompt = prompt;
  d_->scene.setMarkersVisible(true);
  setCursor(Qt::CrossCursor);
  setFocus();
  update();
}

void MechanismView::cancelMarkerPick() {
  if (!d_->picking) return;
  d_->picking = d_->surfacePicking = false;
  d_->scene.setMarkersVisible(d_->markersBeforePick);
  unsetCursor();
  update();
  emit markerPickCancelled();
}

bool MechanismView::isPickingMarker() const { return d_->picking && !d_->surfacePicking; }

void MechanismView::beginSurfacePick(const QString& prompt, const QObject* owner) {
  beginMarkerPick(prompt, owner);
  d_->surfacePicking = true;
}

bool MechanismView::isPickingSurface() const { return d_->picking && d_->surfacePicking; }

bool MechanismView::surfaceAt(const QPoint& pos, QString* part, QVector3D* world, QVector3D* normal) {
  if (!d_->viewer) return false;
  const double r = d_->dpr(this);
  osgUtil::LineSegmentIntersector::Intersections hits;
  const float x = float(pos.x() * r), y = float((height() - pos.y()) * r);
  if (!d_->viewer->computeIntersections(d_->viewer->getCamera(), osgUtil::Intersector::WINDOW, x, y, hits,
                                        scene3d::kPickMask))
    return false;
  const auto& parts = d_->scene.partIds();
  for (const auto& hit : hits) {  // nearest first; joint glyphs and springs are passed over
    const std::string id = d_->scene.idOnPath(hit.nodePath);
    if (std::find(parts.begin(), parts.end(), id) == parts.end()) continue;
    const osg::Vec3d p = hit.getWorldIntersectPoint();
    osg::Vec3d n = hit.getWorldIntersectNormal();
    n.normalize();
    // Facing the camera: a triangle wound inward still gives the outside.
    osg::Vec3d eye, center, up;
    d_->manipulator->getTransformation(eye, center, up);
    if (n * (eye - p) < 0) n = -n;
    *part = QString::fromStdString(id);
    *world = QVector3D(float(p.x()), float(p.y()), float(p.z()));
    *normal = QVector3D(float(n.x()), float(n.y()), float(n.z()));
    return true;
  }
  return false;
}

double MechanismView::lastFrameMs() const { return d_->frameMs; }
int MechanismView::nodesBuiltByLastEdit() const { return d_->scene.nodesBuilt(); }
quint64 MechanismView::frameCount() const { return d_->frames; }
quint64 MechanismView::poseCount() const { return d_->poses; }

void MechanismView::initializeGL() {
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &MechanismView::cleanupGL, Qt::UniqueConnection);
  const double r = d_->dpr(this);
  const int w = int(width() * r), h = int(height() * r);
  d_->window = new osgViewer::GraphicsWindowEmbedded(0, 0, w, h);
  d_->window->getEventQueue()->getCurrentEventState()->setMouseYOrientation(
      osgGA::GUIEventAdapter::Y_INCREASING_DOWNWARDS);
  d_->viewer = new osgViewer::Viewer;
  d_->viewer->setThreadingModel(osgViewer::Viewer::SingleThreaded);
  d_->viewer->setLightingMode(osg::View::NO_LIGHT);
  d_->viewer->setKeyEventSetsDone(0);
  osg::Camera* cam = d_->viewer->getCamera();
  cam->setGraphicsContext(d_->window.get());
  cam->setViewport(0, 0, w, h);
  cam->setClearColor(osg::Vec4(0.9f, 0.92f, 0.95f, 1.0f));
  cam->setClearMask(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  cam->setProjectionResizePolicy(osg::Camera::FIXED);
  cam->setSmallFeatureCullingPixelSize(-1.0f);
  d_->viewer->setCameraManipulator(d_->manipulator.get(), false);
  d_->viewer->setSceneData(d_->scene.root());
  d_->viewer->realize();
  d_->window->setDefaultFboId(defaultFramebufferObject());
}

void MechanismView::resizeGL(int w, int h) {
  if (!d_->window) return;
  const double r = d_->dpr(this);
  d_->window->resized(0, 0, int(w * r), int(h * r));
  d_->window->getEventQueue()->windowResize(0, 0, int(w * r), int(h * r));
  d_->viewer->getCamera()->setViewport(0, 0, int(w * r), int(h * r));
  if (d_->fitPending) fitCamera();
}

void MechanismView::applyCamera(int w, int h) {
  osg::Camera* cam = d_->viewer->getCamera();
  const double aspect = h > 0 ? double(w) / h : 1.0;
  if (d_->orthographic) {
    const double hh = d_->manipulator->getDistance() * std::tan(osg::DegreesToRadians(kFovY / 2));
    cam->setProjectionMatrixAsOrtho(-hh * aspect, hh * aspect, -hh, hh, -1e4, 1e4);
  } else {
    cam->setProjectionMatrixAsPerspective(kFovY, aspect, 1e-3, 1e4);
  }
}

void MechanismView::paintGL() {
  if (!d_->viewer) return;
  QElapsedTimer timer;
  timer.start();
  if (d_->fitPending) fitCamera();
  const double r = d_->dpr(this);
  d_->window->setDefaultFboId(defaultFramebufferObject());
  applyCamera(int(width() * r), int(height() * r));
  placeGizmo();
  d_->viewer->frame();
  drawOverlay();
  d_->frameMs = timer.nsecsElapsed() * 1e-6;
  ++d_->frames;
}

void MechanismView::drawOverlay() {
  // Orientation gizmo in the lower-left corner and the time, drawn by Qt on
  // top of the OSG frame (no OSG state reset: that would break depth).
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const osg::Matrixd view = d_->viewer->getCamera()->getViewMatrix();
  const QPointF o(42, height() - 42);
  const struct {
    osg::Vec3d axis;
    QColor color;
    const char* label;
  } axes[3] = {{{1, 0, 0}, QColor(210, 50, 50), "X"},
               {{0, 1, 0}, QColor(40, 160, 60), "Y"},
               {{0, 0, 1}, QColor(50, 90, 220), "Z"}};
  QFont f = font();
  f.setBold(true);
  p.setFont(f);
  for (const auto& a : axes) {
    const osg::Vec3d e = osg::Matrixd::transform3x3(a.axis, view);  // eye space (row vectors)
    const QPointF tip = o + QPointF(e.x(), -e.y()) * 28;
    p.setPen(QPen(a.color, 2.2));
    p.drawLine(o, tip);
    p.drawText(QRectF(tip.x() - 8, tip.y() - 8, 16, 16), Qt::AlignCenter, a.label);
  }
  p.save();
  drawStressBar(p);
  p.restore();
  if (!d_->picking) {
    // Saved and restored: the time below is drawn in the bold font as
    // before (a different font there makes Qt Charts crash at exit, in a
    // static QTextDocument's font engine cache, in test_gui3d_time_cursor).
    p.save();
    drawLabels(p);
    p.restore();
  }
  if (d_->picking) {
    // Every marker circled where a click picks it, and what to pick.
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    // Markers on the same spot share one circle and one label.
    std::vector<std::pair<QPointF, QStringList>> spots;
    for (const PartDef& part : d_->scene.model().parts)
      for (const MarkerDef& mk : part.markers) {
        QVector3D w;
        const QString ref = QString::fromStdString(part.id + "." + mk.id);
        if (!markerPosition(ref, w)) continue;
        const QPointF c = projectToWidget(w);
        auto it = std::find_if(spots.begin(), spots.end(), [&](const auto& s) { return QLineF(s.first, c).length() < 2.0; });
        if (it == spots.end()) spots.push_back({c, {ref}});
        else it->second << ref;
      }
    // Labels of nearby spots would overlap: each goes down past the ones
    // placed already, with a leader line back to its circle.
    std::vector<QRectF> placed;
    const QFontMetricsF fm(small);
    for (const auto& [c, refs] : spots) {
      p.setPen(QPen(QColor(200, 60, 20), 1.6));
      p.setBrush(QColor(255, 200, 60, 90));
      p.drawEllipse(c, 7, 7);
      const QString text = refs.join(" / ");
      QRectF r(c + QPointF(9, -6 - fm.ascent()), QSizeF(fm.horizontalAdvance(text) + 4, fm.height()));
      for (int tries = 0; tries < 40; ++tries) {
        const auto hit = std::find_if(placed.begin(), placed.end(), [&](const QRectF& q) { return q.intersects(r); });
        if (hit == placed.end()) break;
        r.moveTop(hit->bottom() + 1);
      }
      placed.push_back(r);
      p.setPen(QColor(40, 40, 40));
      if (r.top() > c.y()) p.drawLine(c + QPointF(5, 5), QPointF(r.left(), r.center().y()));
      p.setBrush(QColor(255, 255, 255, 170));
      p.setPen(Qt::NoPen);
      p.drawRect(r);
      p.setPen(QColor(40, 40, 40));
      p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    p.setFont(f);
    const QRectF band(0, 0, width(), 30);
    p.fillRect(band, QColor(255, 236, 170, 230));
    p.setPen(QColor(60, 45, 0));
    p.drawText(band.adjusted(10, 0, -10, 0), Qt::AlignVCenter | Qt::AlignLeft, d_->pickPrompt + tr("   (Esc cancels)"));
  }
  drawGizmoOverlay(p);
  if (d_->track.rows() > 0 && !d_->picking) {
    p.setPen(QColor(60, 66, 75));
    // A mode animation's rows are phases, not seconds: it names itself.
    if (!d_->timeCaption.isEmpty())
      p.drawText(QRectF(10, 8, width() - 20, 20), Qt::AlignLeft | Qt::AlignVCenter, d_->timeCaption);
    else
      p.drawText(QRectF(10, 8, 200, 20), Qt::AlignLeft | Qt::AlignVCenter, QString("t = %1 s").arg(d_->time, 0, 'f', 3));
  }
}

// Labels in the scene: world axes, the grid's major lines (mm, world z = 0),
// the hovered marker and the selected one.
void MechanismView::drawLabels(QPainter& p) {
  const QFont base = font();
  QFont small = base;
  small.setPointSizeF(base.pointSizeF() * 0.8);
  p.setFont(small);
  auto at = [&](const osg::Vec3d& w) { return projectToWidget(QVector3D(float(w.x()), float(w.y()), float(w.z()))); };
  const auto& g = d_->scene.grid();
  if (g.step > 0 && d_->scene.gridVisible()) {
    // The grid lies across gravity through the world origin; its lines run
    // along the world axes nearest to its own (x and y when gravity is -z),
    // and each label is the world coordinate of its line.
    auto nearest = [](const osg::Vec3d& v) {
      int k = 0;
      for (int i = 1; i < 3; ++i)
        if (std::abs(v[i]) > std::abs(v[k])) k = i;
      return k;
    };
    const char* names[3] = {"x", "y", "z"};
    const int ax = nearest(g.up * osg::Vec3d(1, 0, 0)), ay = nearest(g.up * osg::Vec3d(0, 1, 0));
    const int an = nearest(g.up * osg::Vec3d(0, 0, 1));
    p.setPen(QColor(90, 100, 115));
    const double major = 5 * g.step;
    const int n = int(std::floor(g.half / major + 1e-9));
    for (int i = -n; i <= n; ++i) {
      const double s = i * major;
      const osg::Vec3d xEnd = g.up * osg::Vec3d(g.center.x() + s, g.center.y() - g.half, 0);
      const osg::Vec3d yEnd = g.up * osg::Vec3d(g.center.x() - g.half, g.center.y() + s, 0);
      p.drawText(at(xEnd) + QPointF(-12, 14), QString("%1 %2").arg(names[ax]).arg(xEnd[ax] * 1e3, 0, 'g', 4));
      p.drawText(at(yEnd) + QPointF(-40, 4), QString("%1 %2").arg(names[ay]).arg(yEnd[ay] * 1e3, 0, 'g', 4));
    }
    p.drawText(QRectF(width() - 290, 8, 280, 16), Qt::AlignRight | Qt::AlignVCenter,
               tr("grid: world %1 = 0, %2 mm squares, labels in mm").arg(names[an]).arg(g.step * 1e3, 0, 'g', 4));
  }
  QFont bold = base;
  bold.setBold(true);
  p.setFont(bold);
  const double len = d_->scene.worldAxisLength() * 1.12;
  const struct {
    osg::Vec3d axis;
    QColor color;
    const char* label;
  } axes[3] = {{{len, 0, 0}, QColor(200, 40, 40), "X"},
               {{0, len, 0}, QColor(30, 140, 50), "Y"},
               {{0, 0, len}, QColor(40, 70, 210), "Z"}};
  for (const auto& a : axes) {
    p.setPen(a.color);
    p.drawText(QRectF(at(a.axis) - QPointF(8, 8), QSizeF(16, 16)), Qt::AlignCenter, a.label);
  }
  p.setFont(small);
  QStringList named;
  if (!d_->hovered.isEmpty()) named << d_->hovered;
  if (d_->selected.contains('.') && d_->selected != d_->hovered) named << d_->selected;
  for (const QString& ref : named) {
    QVector3D w;
    if (!markerPosition(ref, w)) continue;
    const QPointF c = projectToWidget(w);
    if (ref == d_->selected) {
      // The tinted triad is thin: a ring in the selection colour finds it.
      p.setPen(QPen(QColor(255, 200, 30), 2.0));
      p.setBrush(Qt::NoBrush);
      p.drawEllipse(c, 9, 9);
    }
    const QRectF box = QRectF(p.fontMetrics().boundingRect(ref)).adjusted(-3, -1, 3, 1).translated(c + QPointF(10, -8));
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 250, 225, 220));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(QColor(40, 40, 40));
    p.drawText(box, Qt::AlignCenter, ref);
  }
}

QImage MechanismView::snapshot(int w, int h) {
  if (!d_->viewer || w <= 0 || h <= 0) return {};
  makeCurrent();
  QOpenGLFramebufferObjectFormat fmt;
  fmt.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
  fmt.setSamples(4);
  QImage image;
  {
    QOpenGLFramebufferObject fbo(w, h, fmt);
    fbo.bind();
    osg::Camera* cam = d_->viewer->getCamera();
    d_->window->setDefaultFboId(fbo.handle());
    cam->setViewport(0, 0, w, h);
    applyCamera(w, h);
    const bool gizmo = d_->gizmo.visible();
    d_->gizmo.setVisible(false);  // an image of the model, not of the tools
    d_->viewer->frame();
    d_->gizmo.setVisible(gizmo);
    image = fbo.toImage();  // flipped to top-down rows
    fbo.release();
    const double r = d_->dpr(this);
    cam->setViewport(0, 0, int(width() * r), int(height() * r));
    d_->window->setDefaultFboId(defaultFramebufferObject());
  }
  doneCurrent();
  update();
  return image.convertToFormat(QImage::Format_RGB32);
}

void MechanismView::setSnapStep(double metres) { d_->snapStep = metres; }

// The world ray under a widget position: two points on it.
static void rayAt(const osg::Camera* cam, double x, double y, osg::Vec3d& a, osg::Vec3d& b) {
  const osg::Matrixd inv =
      osg::Matrixd::inverse(cam->getViewMatrix() * cam->getProjectionMatrix() * cam->getViewport()->computeWindowMatrix());
  a = osg::Vec3d(x, y, 0.0) * inv;
  b = osg::Vec3d(x, y, 1.0) * inv;
}

bool MechanismView::beginDrag(const QPoint& pos) {
  QString part;
  QVector3D world, normal;
  if (!surfaceAt(pos, &part, &world, &normal)) return false;
  const auto& ids = d_->scene.partIds();
  const size_t k = size_t(std::find(ids.begin(), ids.end(), part.toStdString()) - ids.begin());
  const PartDef* def = d_->scene.model().part(part.toStdString());
  if (!def || def->ground) return false;
  osg::Vec3d eye, center, up;
  d_->manipulator->getTransformation(eye, center, up);
  d_->drag.begin(part.toStdString(), k, d_->scene.partMatrix(k), osg::Vec3d(world.x(), world.y(), world.z()),
                 d_->scene.upRotation() * osg::Vec3d(0, 0, 1), eye - center, d_->snapStep);
  select(part);
  return true;
}

void MechanismView::mousePressEvent(QMouseEvent* e) {
  d_->pressPos = e->position().toPoint();
  if (gizmoPress(e)) return;  // the camera stays
  if (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier) && !d_->picking &&
      beginDrag(e->position().toPoint()))
    return;  // the camera stays
  d_->pressed = true;
  if (d_->window) {
    const double r = d_->dpr(this);
    d_->window->getEventQueue()->mouseButtonPress(float(e->position().x() * r), float(e->position().y() * r),
                                                  osgButton(e->button()));
  }
  update();
}

void MechanismView::mouseReleaseEvent(QMouseEvent* e) {
  if (gizmoRelease(e)) return;
  if (d_->drag.active()) {
    const osg::Vec3d off = d_->drag.offset();
    const QString part = QString::fromStdString(d_->drag.part());
    d_->scene.setPartMatrix(d_->drag.index(), d_->drag.matrix() * osg::Matrixd::translate(-off));
    d_->drag.end();
    update();
    if (off.length2() > 0) emit partDragged(part, QVector3D(float(off.x()), float(off.y()), float(off.z())));
    return;
  }
  if (d_->window) {
    const double r = d_->dpr(this);
    d_->window->getEventQueue()->mouseButtonRelease(float(e->position().x() * r), float(e->position().y() * r),
                                                    osgButton(e->button()));
  }
  const bool click = d_->pressed && e->button() == Qt::LeftButton &&
                     (e->position().toPoint() - d_->pressPos).manhattanLength() < 4;
  d_->pressed = false;
  if (click && d_->picking && d_->surfacePicking) {
    QString part;
    QVector3D world, normal;
    if (surfaceAt(e->position().toPoint(), &part, &world, &normal)) {
      d_->picking = d_->surfacePicking = false;
      d_->scene.setMarkersVisible(d_->markersBeforePick);
      unsetCursor();
      emit surfacePicked(part, world, normal, e->position().toPoint());
    }
  } else if (click && d_->picking) {
    const QStringList refs = markersAt(e->position());
    if (refs.size() == 1) {
      finishPick(refs.front());
    } else if (refs.size() > 1) {
      // Markers on the same spot (the two halves of a joint): ask which.
      auto* menu = new QMenu(this);
      menu->setObjectName("markerChoiceMenu");
      menu->setAttribute(Qt::WA_DeleteOnClose);
      for (const QString& r : refs) menu->addAction(r);
      connect(menu, &QMenu::triggered, this, [this](QAction* a) { finishPick(a->text()); });
      menu->popup(mapToGlobal(e->position().toPoint()));
    } else if (d_->pickParts) {
      // Away from the markers: the part (or flexible body) under the cursor.
      const QString id = objectAt(e->position().toPoint());
      const Mechanism& m = d_->scene.model();
      if (!id.isEmpty() && (m.part(id.toStdString()) || m.flexibleBody(id.toStdString()))) finishPick(id);
    }
  } else if (click) {
    select(objectAt(e->position().toPoint()));
  }
  update();
}

void MechanismView::mouseMoveEvent(QMouseEvent* e) {
  if (!d_->window) return;
  if (gizmoMove(e)) return;
  if (d_->drag.active()) {
    const double r = d_->dpr(this);
    osg::Vec3d a, b;
    rayAt(d_->viewer->getCamera(), e->position().x() * r, (height() - e->position().y()) * r, a, b);
    if (d_->drag.update(a, b)) d_->scene.setPartMatrix(d_->drag.index(), d_->drag.matrix());
    update();
    return;
  }
  if (e->buttons() == Qt::NoButton) {
    // Hovering: the marker under the cursor is labelled.
    const QString m = d_->scene.markersVisible() ? markerAt(e->position(), 8.0) : QString();
    if (m != d_->hovered) {
      d_->hovered = m;
      update();
    }
    return;
  }
  const double r = d_->dpr(this);
  d_->window->getEventQueue()->mouseMotion(float(e->position().x() * r), float(e->position().y() * r));
  update();
}

void MechanismView::wheelEvent(QWheelEvent* e) {
  const int dy = e->angleDelta().y();
  if (!d_->viewer || dy == 0) return;
  zoomAt(e->position(), std::pow(0.85, dy / 120.0));
}

// Scales the eye and the centre about the point under the cursor, so that
// point stays where it is on screen (perspective and orthographic alike: the
// orthographic extent follows the camera distance).
void MechanismView::zoomAt(const QPointF& pos, double factor) {
  osg::Vec3d eye, center, up;
  d_->manipulator->getTransformation(eye, center, up);
  const osg::Camera* cam = d_->viewer->getCamera();
  const double r = d_->dpr(this);
  const double x = pos.x() * r, y = (height() - pos.y()) * r;
  osg::Vec3d target = center;
  osgUtil::LineSegmentIntersector::Intersections hits;
  if (d_->viewer->computeIntersections(cam, osgUtil::Intersector::WINDOW, float(x), float(y), hits,
                                       scene3d::kPickMask)) {
    target = hits.begin()->getWorldIntersectPoint();
  } else {
    // Nothing under the cursor: the ray meets the plane through the centre
    // facing the camera.
    const osg::Matrixd inv =
        osg::Matrixd::inverse(cam->getViewMatrix() * cam->getProjectionMatrix() * cam->getViewport()->computeWindowMatrix());
    const osg::Vec3d a = osg::Vec3d(x, y, 0.0) * inv, b = osg::Vec3d(x, y, 1.0) * inv;
    const osg::Vec3d n = eye - center;
    const double den = (b - a) * n;
    if (std::abs(den) > 1e-12) target = a + (b - a) * (((center - a) * n) / den);
  }
  const double dist = (eye - center).length() * factor;
  if (dist < 1e-4 * d_->scene.characteristicLength() || dist > 1e3 * d_->scene.characteristicLength()) return;
  d_->manipulator->setTransformation(target + (eye - target) * factor, target + (center - target) * factor, up);
  update();
}

void MechanismView::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_Escape && cancelGizmoDrag()) return;
  if (e->key() == Qt::Key_Escape && d_->picking) {
    cancelMarkerPick();
    return;
  }
  if (e->key() == Qt::Key_L && !(e->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
    setGizmoLocal(!gizmoLocal());
    return;
  }
  if (e->key() == Qt::Key_F && !(e->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
    if (e->modifiers() & Qt::ShiftModifier) fitSelection();
    else fitAll();
    return;
  }
  QOpenGLWidget::keyPressEvent(e);
}

bool MechanismView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString id = objectAt(help->pos());
    if (id.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), id, this);
    return true;
  }
  return QOpenGLWidget::event(e);
}

}  // namespace pm::gui
