// The move/rotate gizmo of the 3D view (issue #28, point 4): three arrows
// along a frame's axes (move) and three rings about them (turn), centred on
// the selected part's or marker's origin; the frame is the world's or the
// target's own (part-local axes). It is an OSG node drawn over the
// geometry (no depth test, a late render bin) and scaled at every frame to
// a constant size on screen; handles are hit in screen space, so picking
// parts never sees it. GizmoDrag turns the cursor's ray into an offset along
// the grabbed arrow's axis or an angle about the grabbed ring's axis.
#pragma once

#include <osg/Matrixd>
#include <osg/MatrixTransform>
#include <osg/Vec3d>

#include <QPointF>

#include <functional>

namespace pm::gui {

enum class GizmoHandle { None = -1, MoveX, MoveY, MoveZ, TurnX, TurnY, TurnZ };

inline int gizmoAxis(GizmoHandle h) { return h == GizmoHandle::None ? -1 : int(h) % 3; }
inline bool gizmoTurns(GizmoHandle h) { return int(h) >= int(GizmoHandle::TurnX); }

class TransformGizmo {
 public:
  // Arrow length on screen [px]; the rings' radius is kRing of it.
  static constexpr double kPixels = 95.0;
  static constexpr double kRing = 0.62;

  TransformGizmo();
  osg::Node* node() const { return xf_.get(); }
  void setVisible(bool on);
  bool visible() const { return visible_; }
  // At world point `origin`, arrows `length` [m] long, along the axes of
  // `axes` (identity: the world's).
  void place(const osg::Vec3d& origin, double length, const osg::Quat& axes = {});
  const osg::Vec3d& origin() const { return origin_; }
  const osg::Quat& axes() const { return axes_; }
  // Axis k (0 x, 1 y, 2 z) as drawn, a world unit vector.
  osg::Vec3d axis(int k) const;
  double length() const { return length_; }
  // The handle drawn highlighted (hovered or dragged).
  void setHot(GizmoHandle h);
  GizmoHandle hot() const { return hot_; }
  // While a handle is dragged only it is drawn: the other handles and the
  // centre would hide the dragged marker's triad (drawn where it goes).
  void setDragging(bool on);
  // A world point on handle h where a click grabs it: 80 % along an arrow;
  // on a ring, half-way between its plane's arrows on the side facing `toEye`.
  osg::Vec3d grabPoint(GizmoHandle h, const osg::Vec3d& toEye) const;
  // The handle drawn within `radius` pixels of `pos` (arrows before rings);
  // `project` maps a world point to widget pixels.
  GizmoHandle hit(const std::function<QPointF(const osg::Vec3d&)>& project, const QPointF& pos,
                  double radius = 8.0) const;

 private:
  void rebuild();
  osg::ref_ptr<osg::MatrixTransform> xf_;
  osg::Vec3d origin_;
  osg::Quat axes_;
  double length_ = 1.0;
  bool visible_ = false;
  bool dragging_ = false;
  GizmoHandle hot_ = GizmoHandle::None;
};

// One drag of a handle. The rays are two world points on the cursor's ray.
class GizmoDrag {
 public:
  // False when the ray runs along the arrow or the ring's plane. `axes`
  // turns the world axes onto the gizmo's (identity: world axes).
  bool begin(GizmoHandle h, const osg::Vec3d& origin, const osg::Quat& axes, const osg::Vec3d& a,
             const osg::Vec3d& b);
  // The offset (rounded to `step` [m]) or the angle (rounded to `angleStep`
  // [rad]); 0 = no rounding. False when the ray gives no point.
  bool update(const osg::Vec3d& a, const osg::Vec3d& b, double step, double angleStep);
  void end() { handle_ = GizmoHandle::None; }
  bool active() const { return handle_ != GizmoHandle::None; }
  GizmoHandle handle() const { return handle_; }
  int axis() const { return gizmoAxis(handle_); }
  bool turning() const { return gizmoTurns(handle_); }
  const osg::Vec3d& origin() const { return origin_; }
  // The grabbed handle's axis (world unit vector).
  const osg::Vec3d& direction() const { return axisDir_; }
  // Moving: the offset along the axis [m]; turning: the angle [rad].
  double amount() const { return amount_; }
  // The motion as a world matrix (OSG row vectors: p' = p * delta()); a
  // turn is about the axis through the origin.
  osg::Matrixd delta() const;

 private:
  bool param(const osg::Vec3d& a, const osg::Vec3d& b, double& t) const;
  GizmoHandle handle_ = GizmoHandle::None;
  osg::Vec3d origin_, axisDir_, e1_, e2_;
  double start_ = 0, last_ = 0, turned_ = 0, amount_ = 0;
};

}  // namespace pm::gui
