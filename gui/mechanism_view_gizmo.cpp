// MechanismView's move/rotate gizmo: placing it at every frame, dragging its
// handles, snapping markers onto other parts' markers while moving, and the
// overlay that says what a drag does (mechanism_view.h).
#include "mechanism_view_impl.h"

#include "scene3d_shapes.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace pm::gui {

namespace {

constexpr double kAngleStep = M_PI / 12;  // 15 degrees
constexpr double kSnapPixels = 12.0;

// The gizmo's target as drawn: its part's index and its world matrix (a
// marker: its triad's frame on the part, which a drag moves). False for a
// ground part, a beam node or anything else.
bool targetFrame(const scene3d::MechanismScene& s, const QString& id, size_t& k, osg::Matrixd& m) {
  const std::string ref = id.toStdString();
  const auto dot = ref.find('.');
  const std::string partId = ref.substr(0, dot);
  const auto& ids = s.partIds();
  k = size_t(std::find(ids.begin(), ids.end(), partId) - ids.begin());
  if (k >= s.userParts()) return false;
  const PartDef* part = s.model().part(partId);
  if (!part) return false;
  if (dot == std::string::npos) {
    if (part->ground) return false;
    m = s.partMatrix(k);
    return true;
  }
  osg::Matrixd local;
  if (!s.markerFrame(ref, local)) return false;
  m = local * s.partMatrix(k);
  return true;
}

// The world ray under a widget position (device pixels, y up).
void ray(const osgViewer::Viewer* viewer, double x, double y, osg::Vec3d& a, osg::Vec3d& b) {
  const osg::Camera* cam = viewer->getCamera();
  const osg::Matrixd inv =
      osg::Matrixd::inverse(cam->getViewMatrix() * cam->getProjectionMatrix() * cam->getViewport()->computeWindowMatrix());
  a = osg::Vec3d(x, y, 0.0) * inv;
  b = osg::Vec3d(x, y, 1.0) * inv;
}

QString mm(double metres) { return QString::number(metres * 1e3, 'g', 6); }

}  // namespace

bool MechanismView::gizmoVisible() const { return d_->gizmo.visible(); }

void MechanismView::setGizmoLocal(bool on) {
  if (on == d_->gizmoLocal || d_->gizmoDrag.active()) return;  // not in mid-drag
  d_->gizmoLocal = on;
  emit gizmoLocalChanged(on);
  update();
}

bool MechanismView::gizmoLocal() const { return d_->gizmoLocal; }

QVector3D MechanismView::gizmoOrigin() const {
  const osg::Vec3d& o = d_->gizmo.origin();
  return QVector3D(float(o.x()), float(o.y()), float(o.z()));
}

void MechanismView::setHint(const QString& text) {
  if (text == d_->hint) return;
  d_->hint = text;
  update();
}

QString MechanismView::hint() const { return d_->hint; }

bool MechanismView::gizmoGrabPoint(int handle, QVector3D& world) const {
  if (!d_->gizmo.visible() || handle < 0 || handle > 5) return false;
  osg::Vec3d eye, center, up;
  d_->manipulator->getTransformation(eye, center, up);
  const osg::Vec3d p = d_->gizmo.grabPoint(GizmoHandle(handle), eye - d_->gizmo.origin());
  world = QVector3D(float(p.x()), float(p.y()), float(p.z()));
  return true;
}

// Before each frame: on the target's origin as drawn (a drag moves it),
// along the world's axes or the target's own, at kPixels on screen.
void MechanismView::placeGizmo() {
  size_t k = 0;
  osg::Matrixd m;
  const QString id = d_->gizmoDrag.active() ? d_->gizmoTarget : d_->selected;
  if (d_->picking || !d_->viewer || !targetFrame(d_->scene, id, k, m)) {
    d_->gizmo.setVisible(false);
    return;
  }
  const osg::Vec3d o = m.getTrans();
  const osg::Camera* cam = d_->viewer->getCamera();
  const osg::Matrixd vpw =
      d_->manipulator->getInverseMatrix() * cam->getProjectionMatrix() * cam->getViewport()->computeWindowMatrix();
  const osg::Vec3d w = o * vpw;
  const osg::Matrixd inv = osg::Matrixd::inverse(vpw);
  const double perPixel = (osg::Vec3d(w.x() + 1.0, w.y(), w.z()) * inv - o).length();
  d_->gizmo.place(o, TransformGizmo::kPixels * d_->dpr(this) * perPixel, d_->gizmoLocal ? m.getRotate() : osg::Quat());
  d_->gizmo.setVisible(true);
}

bool MechanismView::gizmoPress(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || d_->picking || !d_->gizmo.visible()) return false;
  auto project = [this](const osg::Vec3d& w) { return projectToWidget(QVector3D(float(w.x()), float(w.y()), float(w.z()))); };
  const GizmoHandle h = d_->gizmo.hit(project, e->position());
  if (h == GizmoHandle::None) return false;
  d_->gizmoCancelled = false;
  size_t k = 0;
  if (!targetFrame(d_->scene, d_->selected, k, d_->gizmoStart)) return false;
  const double r = d_->dpr(this);
  osg::Vec3d a, b;
  ray(d_->viewer.get(), e->position().x() * r, (height() - e->position().y()) * r, a, b);
  if (!d_->gizmoDrag.begin(h, d_->gizmo.origin(), d_->gizmo.axes(), a, b)) return false;
  d_->gizmoTarget = d_->selected;
  d_->snapMarker.clear();
  d_->snapOnto.clear();
  d_->gizmoCursor = e->position();
  d_->gizmo.setHot(h);
  d_->gizmo.setDragging(true);
  // A dragged marker's triad in its own colours (x red, y green, z blue),
  // not the selection's tint: its axes are what the drag shows.
  if (d_->gizmoTarget.contains('.')) d_->scene.highlight({});
  update();
  return true;
}

// Markers of the dragged part (or the dragged marker) moved by the drag's
// offset: the pair nearest within kSnapPixels, and the offset that makes
// them coincide.
void MechanismView::findMarkerSnap() {
  d_->snapMarker.clear();
  d_->snapOnto.clear();
  const QString& id = d_->gizmoTarget;
  const std::string partId = id.section('.', 0, 0).toStdString();
  const PartDef* part = d_->scene.model().part(partId);
  if (!part || d_->gizmoDrag.turning()) return;
  const auto& ids = d_->scene.partIds();
  const size_t k = size_t(std::find(ids.begin(), ids.end(), partId) - ids.begin());
  if (k >= d_->scene.userParts()) return;
  // The part's frame at the start: a dragged part's preview has moved it.
  const osg::Matrixd partStart = id.contains('.') ? d_->scene.partMatrix(k) : d_->gizmoStart;
  const osg::Vec3d offset = osg::Vec3d(0, 0, 0) * d_->gizmoDrag.delta();
  double best = kSnapPixels * d_->gizmo.length() / (TransformGizmo::kPixels * d_->dpr(this));
  for (const MarkerDef& mk : part->markers) {
    const QString ref = QString::fromStdString(partId + "." + mk.id);
    if (id.contains('.') && ref != id) continue;
    const osg::Vec3d from = scene3d::toOsg(mk.position) * partStart;
    for (size_t q = 0; q < d_->scene.userParts(); ++q) {
      if (ids[q] == partId) continue;
      for (const MarkerDef& other : d_->scene.model().part(ids[q])->markers) {
        const std::string onto = ids[q] + "." + other.id;
        osg::Vec3d at;
        // Markers that coincide already (a joint's two) are no new offer.
        if (!d_->scene.markerWorld(onto, at) || (from - at).length() < 1e-9) continue;
        if (const double dist = (from + offset - at).length(); dist < best) {
          best = dist;
          d_->snapMarker = ref;
          d_->snapOnto = QString::fromStdString(onto);
          d_->snapOffset = at - from;
        }
      }
    }
  }
}

bool MechanismView::gizmoMove(QMouseEvent* e) {
  if (d_->gizmoCancelled && e->buttons() != Qt::NoButton) return true;
  if (!d_->gizmoDrag.active()) {
    if (e->buttons() != Qt::NoButton || !d_->gizmo.visible()) return false;
    auto project = [this](const osg::Vec3d& w) { return projectToWidget(QVector3D(float(w.x()), float(w.y()), float(w.z()))); };
    const GizmoHandle h = d_->gizmo.hit(project, e->position());
    if (h != d_->gizmo.hot()) {
      d_->gizmo.setHot(h);
      update();
    }
    return false;  // hovering goes on (marker labels)
  }
  const double r = d_->dpr(this);
  osg::Vec3d a, b;
  ray(d_->viewer.get(), e->position().x() * r, (height() - e->position().y()) * r, a, b);
  const bool free = e->modifiers() & Qt::ShiftModifier;
  d_->gizmoCursor = e->position();
  if (d_->gizmoDrag.update(a, b, d_->snapStep, free ? 0.0 : kAngleStep)) {
    findMarkerSnap();
    size_t k = 0;
    osg::Matrixd m;
    targetFrame(d_->scene, d_->gizmoTarget, k, m);
    const osg::Matrixd delta = d_->snapOnto.isEmpty() ? d_->gizmoDrag.delta() : osg::Matrixd::translate(d_->snapOffset);
    if (!d_->gizmoTarget.contains('.')) {
      d_->scene.setPartMatrix(k, d_->gizmoStart * delta);
      d_->scene.updateSprings();
    } else {  // the marker where it goes, in its part's frame (its triad as long as half the
              // arrows), with the joint glyphs, springs and cylinders on it
      const double enlarge = std::max(1.0, 0.5 * d_->gizmo.length() / d_->scene.markerTriadLength());
      d_->scene.previewMarker(d_->gizmoTarget.toStdString(),
                              d_->gizmoStart * delta * osg::Matrixd::inverse(d_->scene.partMatrix(k)), enlarge);
    }
  }
  update();
  return true;
}

// Puts a dragged part, or a marker and what hangs on it, back where it was
// drawn before the drag.
void MechanismView::restoreGizmoTarget() {
  size_t k = 0;
  osg::Matrixd m;
  if (d_->gizmoTarget.contains('.')) {
    d_->scene.endMarkerPreview();
    d_->scene.highlight(d_->selected.toStdString());
  } else if (targetFrame(d_->scene, d_->gizmoTarget, k, m)) {
    d_->scene.setPartMatrix(k, d_->gizmoStart);
    d_->scene.updateSprings();
  }
}

// Escape while dragging: the target back, no signal; the button's release
// ends the press without a click or a camera move.
bool MechanismView::cancelGizmoDrag() {
  if (!d_->gizmoDrag.active()) return false;
  restoreGizmoTarget();
  d_->gizmoDrag.end();
  d_->gizmoTarget.clear();
  d_->snapMarker.clear();
  d_->snapOnto.clear();
  d_->gizmo.setHot(GizmoHandle::None);
  d_->gizmo.setDragging(false);
  d_->gizmoCancelled = true;
  update();
  return true;
}

bool MechanismView::gizmoRelease(QMouseEvent* e) {
  if (d_->gizmoCancelled && e->button() == Qt::LeftButton) {
    d_->gizmoCancelled = false;
    return true;
  }
  if (!d_->gizmoDrag.active() || e->button() != Qt::LeftButton) return false;
  const QString id = d_->gizmoTarget;
  restoreGizmoTarget();  // the model's edit redraws it
  const int axis = d_->gizmoDrag.axis();
  const double amount = d_->gizmoDrag.amount();
  const bool turning = d_->gizmoDrag.turning(), local = d_->gizmoLocal;
  const QString marker = d_->snapMarker, onto = d_->snapOnto;
  const osg::Vec3d offset = onto.isEmpty() ? osg::Vec3d(0, 0, 0) * d_->gizmoDrag.delta() : d_->snapOffset;
  d_->gizmoDrag.end();
  d_->gizmoTarget.clear();
  d_->snapMarker.clear();
  d_->snapOnto.clear();
  d_->gizmo.setHot(GizmoHandle::None);
  d_->gizmo.setDragging(false);
  update();
  if (turning && amount != 0.0) emit gizmoTurned(id, axis, amount, local);
  else if (!turning && local && onto.isEmpty() && amount != 0.0) emit gizmoMovedLocal(id, axis, amount);
  else if (!turning && (offset.length2() > 0 || !onto.isEmpty()))
    emit gizmoMoved(id, QVector3D(float(offset.x()), float(offset.y()), float(offset.z())), marker, onto);
  return true;
}

// During a drag: what it does, beside the cursor; a snap's two markers
// ringed (the target itself is drawn where it goes).
void MechanismView::drawGizmoOverlay(QPainter& p) {
  if (!d_->hint.isEmpty() && !d_->picking) {
    const QRectF band(84, height() - 30, width() - 84, 24);  // right of the axes in the corner
    p.fillRect(band, QColor(205, 240, 215, 235));
    p.setPen(QColor(0, 80, 40));
    p.drawText(band.adjusted(10, 0, -10, 0), Qt::AlignVCenter | Qt::AlignLeft, d_->hint);
  }
  if (!d_->gizmoDrag.active()) return;
  auto at = [this](const osg::Vec3d& w) { return projectToWidget(QVector3D(float(w.x()), float(w.y()), float(w.z()))); };
  const QString xyz(QChar("xyz"[d_->gizmoDrag.axis()]));
  const QString axis = d_->gizmoLocal ? tr("%1's own %2").arg(d_->gizmoTarget, xyz) : tr("world %1").arg(xyz);
  QString text = d_->gizmoDrag.turning()
                     ? tr("%1 deg about %2").arg(d_->gizmoDrag.amount() * 180 / M_PI, 0, 'f', 1).arg(axis)
                     : tr("%1%2 mm along %3").arg(d_->gizmoDrag.amount() >= 0 ? "+" : "").arg(mm(d_->gizmoDrag.amount())).arg(axis);
  text += tr("  (Esc cancels)");
  if (!d_->snapOnto.isEmpty()) {
    osg::Vec3d w;
    d_->scene.markerWorld(d_->snapOnto.toStdString(), w);
    p.setPen(QPen(QColor(0, 150, 90), 2.5));
    p.setBrush(QColor(0, 200, 120, 70));
    p.drawEllipse(at(w), 11, 11);
    text += tr("\nsnapped: %1 on %2 (release; then Joint at Snap joins them)").arg(d_->snapMarker, d_->snapOnto);
  }
  const QFontMetricsF fm(p.font());
  QRectF box = fm.boundingRect(QRectF(0, 0, 600, 100), Qt::AlignLeft, text).adjusted(-5, -3, 5, 3);
  box.moveTopLeft(d_->gizmoCursor + QPointF(18, 14));
  // Inside the view: to the cursor's left near the right edge.
  if (box.right() > width() - 4) box.moveRight(d_->gizmoCursor.x() - 12);
  if (box.bottom() > height() - 4) box.moveBottom(d_->gizmoCursor.y() - 12);
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(255, 250, 225, 235));
  p.drawRoundedRect(box, 4, 4);
  p.setPen(QColor(30, 30, 30));
  p.drawText(box.adjusted(5, 3, -5, -3), Qt::AlignLeft, text);
}

}  // namespace pm::gui
