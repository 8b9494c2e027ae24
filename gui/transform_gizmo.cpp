#include "transform_gizmo.h"

#include "scene3d_shapes.h"

#include <osg/Depth>
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/LineWidth>

#include <QLineF>

#include <cmath>

namespace pm::gui {

namespace {

constexpr int kRingSegments = 72;
constexpr double kArrowStart = 0.2;  // the arrows leave the centre free

const osg::Vec3d kAxes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

osg::Vec4 axisColor(int k, bool hot) {
  if (hot) return {1.0f, 0.82f, 0.1f, 1};
  const osg::Vec4 c[3] = {{0.9f, 0.15f, 0.15f, 1}, {0.15f, 0.72f, 0.2f, 1}, {0.2f, 0.35f, 0.95f, 1}};
  return c[k];
}

// Two unit vectors across axis k, right-handed: e1 x e2 = axis.
void across(int k, osg::Vec3d& e1, osg::Vec3d& e2) {
  e1 = kAxes[(k + 1) % 3];
  e2 = kAxes[(k + 2) % 3];
}

osg::Vec3d ringPoint(int k, double angle, double radius) {
  osg::Vec3d e1, e2;
  across(k, e1, e2);
  return (e1 * std::cos(angle) + e2 * std::sin(angle)) * radius;
}

osg::ref_ptr<osg::Node> ring(int k, bool hot) {
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  for (int i = 0; i < kRingSegments; ++i) {
    v->push_back(ringPoint(k, 2 * M_PI * i / kRingSegments, TransformGizmo::kRing));
    c->push_back(axisColor(k, hot));
  }
  osg::ref_ptr<osg::Geometry> g = new osg::Geometry;
  g->setVertexArray(v.get());
  g->setColorArray(c.get(), osg::Array::BIND_PER_VERTEX);
  g->addPrimitiveSet(new osg::DrawArrays(GL_LINE_LOOP, 0, GLsizei(v->size())));
  osg::ref_ptr<osg::Geode> geode = new osg::Geode;
  geode->addDrawable(g.get());
  osg::StateSet* ss = geode->getOrCreateStateSet();
  scene3d::applyUnlitState(ss);
  ss->setAttributeAndModes(new osg::LineWidth(hot ? 4.0f : 2.5f));
  return geode;
}

}  // namespace

TransformGizmo::TransformGizmo() : xf_(new osg::MatrixTransform) {
  xf_->setName("transformGizmo");
  xf_->setNodeMask(0);  // hidden; never picked (not in kPickMask when shown)
  osg::StateSet* ss = xf_->getOrCreateStateSet();
  // Over everything: no depth test, no depth written, drawn last.
  ss->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS, 0.0, 1.0, false));
  ss->setRenderBinDetails(50, "RenderBin");
  ss->setMode(GL_CULL_FACE, osg::StateAttribute::ON);
  ss->setMode(GL_NORMALIZE, osg::StateAttribute::ON);  // the transform scales
  rebuild();
}

void TransformGizmo::rebuild() {
  xf_->removeChildren(0, xf_->getNumChildren());
  for (int k = 0; k < 3; ++k) {
    const bool hot = int(hot_) == k;
    if (dragging_ && !hot) continue;
    xf_->addChild(scene3d::makeArrow(kAxes[k] * kArrowStart, kAxes[k] * (1.0 - kArrowStart), hot ? 0.032 : 0.022,
                                     axisColor(k, hot)));
  }
  for (int k = 0; k < 3; ++k)
    if (!dragging_ || int(hot_) == k + 3) xf_->addChild(ring(k, int(hot_) == k + 3));
  if (!dragging_) xf_->addChild(scene3d::makeSphere({0, 0, 0}, 0.05, {0.95f, 0.95f, 0.95f, 1}, scene3d::kGlyphDetail));
}

void TransformGizmo::setDragging(bool on) {
  if (on == dragging_) return;
  dragging_ = on;
  rebuild();
}

void TransformGizmo::setVisible(bool on) {
  visible_ = on;
  xf_->setNodeMask(on ? scene3d::kDrawMask : 0u);
}

void TransformGizmo::place(const osg::Vec3d& origin, double length, const osg::Quat& axes) {
  origin_ = origin;
  length_ = length;
  axes_ = axes;
  xf_->setMatrix(osg::Matrixd::scale(length, length, length) * osg::Matrixd::rotate(axes) *
                 osg::Matrixd::translate(origin));
}

osg::Vec3d TransformGizmo::axis(int k) const { return axes_ * kAxes[k]; }

void TransformGizmo::setHot(GizmoHandle h) {
  if (h == hot_) return;
  hot_ = h;
  rebuild();
}

osg::Vec3d TransformGizmo::grabPoint(GizmoHandle h, const osg::Vec3d& toEye) const {
  const int k = gizmoAxis(h);
  if (k < 0) return origin_;
  if (!gizmoTurns(h)) return origin_ + axis(k) * (0.8 * length_);
  osg::Vec3d e1, e2;
  across(k, e1, e2);
  // Half-way between the two arrows in the ring's plane, on the near side.
  const double a = std::atan2(toEye * (axes_ * e2) < 0 ? -1.0 : 1.0, toEye * (axes_ * e1) < 0 ? -1.0 : 1.0);
  return origin_ + axes_ * ringPoint(k, a, kRing * length_);
}

GizmoHandle TransformGizmo::hit(const std::function<QPointF(const osg::Vec3d&)>& project, const QPointF& pos,
                                double radius) const {
  if (!visible_) return GizmoHandle::None;
  auto distance = [&](const QPointF& a, const QPointF& b) {  // to the segment a-b
    const QPointF d = b - a;
    const double l2 = QPointF::dotProduct(d, d);
    const double t = l2 > 0 ? std::clamp(QPointF::dotProduct(pos - a, d) / l2, 0.0, 1.0) : 0.0;
    return QLineF(pos, a + d * t).length();
  };
  GizmoHandle best = GizmoHandle::None;
  double bestD = radius;
  for (int k = 0; k < 3; ++k) {
    const double d = distance(project(origin_ + axis(k) * (kArrowStart * length_)), project(origin_ + axis(k) * length_));
    if (d <= bestD) bestD = d, best = GizmoHandle(k);
  }
  if (best != GizmoHandle::None) return best;
  for (int k = 0; k < 3; ++k) {
    QPointF prev = project(origin_ + axes_ * ringPoint(k, 0, kRing * length_));
    for (int i = 1; i <= kRingSegments; ++i) {
      const QPointF next = project(origin_ + axes_ * ringPoint(k, 2 * M_PI * i / kRingSegments, kRing * length_));
      if (const double d = distance(prev, next); d <= bestD) bestD = d, best = GizmoHandle(k + 3);
      prev = next;
    }
  }
  return best;
}

// ----------------------------------------------------------------- drag

bool GizmoDrag::param(const osg::Vec3d& a, const osg::Vec3d& b, double& t) const {
  osg::Vec3d d = b - a;
  d.normalize();
  if (!gizmoTurns(handle_)) {
    // The point of the axis line nearest to the ray.
    const osg::Vec3d w = origin_ - a;
    const double bd = axisDir_ * d, den = 1.0 - bd * bd;
    if (den < 1e-6) return false;  // looking along the arrow
    t = (bd * (d * w) - axisDir_ * w) / den;
    return true;
  }
  // The angle where the ray meets the ring's plane.
  const double den = d * axisDir_;
  if (std::abs(den) < 1e-4) return false;  // the ring seen edge-on
  const osg::Vec3d p = a + d * (((origin_ - a) * axisDir_) / den) - origin_;
  t = std::atan2(p * e2_, p * e1_);
  return true;
}

bool GizmoDrag::begin(GizmoHandle h, const osg::Vec3d& origin, const osg::Quat& axes, const osg::Vec3d& a,
                      const osg::Vec3d& b) {
  handle_ = h;
  origin_ = origin;
  const int k = gizmoAxis(h);
  axisDir_ = axes * kAxes[k];
  across(k, e1_, e2_);
  e1_ = axes * e1_;
  e2_ = axes * e2_;
  amount_ = turned_ = 0;
  if (!param(a, b, start_)) {
    handle_ = GizmoHandle::None;
    return false;
  }
  last_ = start_;
  return true;
}

bool GizmoDrag::update(const osg::Vec3d& a, const osg::Vec3d& b, double step, double angleStep) {
  double t = 0;
  if (!active() || !param(a, b, t)) return false;
  if (!turning()) {
    const double off = t - start_;
    amount_ = step > 0 ? std::round(off / step) * step + 0.0 : off;
    return true;
  }
  // Accumulated turn: whole turns are kept across the atan2 wrap.
  double d = t - last_;
  d -= 2 * M_PI * std::round(d / (2 * M_PI));
  turned_ += d;
  last_ = t;
  amount_ = angleStep > 0 ? std::round(turned_ / angleStep) * angleStep + 0.0 : turned_;
  return true;
}

osg::Matrixd GizmoDrag::delta() const {
  if (!active()) return {};
  if (!turning()) return osg::Matrixd::translate(axisDir_ * amount_);
  return osg::Matrixd::translate(-origin_) * osg::Matrixd::rotate(amount_, axisDir_) * osg::Matrixd::translate(origin_);
}

}  // namespace pm::gui
