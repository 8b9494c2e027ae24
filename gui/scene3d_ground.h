// A machine base under the mechanism (issue 25 point 10), so parts do not
// float over the grid: a plate whose top lies just below the lowest point of
// the mechanism as drawn (its initial pose, the ground part's shapes and
// every pose of the results), spanning the mechanism's extent across gravity
// with a margin. Worked out in the "up" frame (z against gravity) and turned
// into place. Not pickable; not part of the mechanism's bounds.
#pragma once

#include <osg/BoundingBox>
#include <osg/MatrixTransform>
#include <osg/Quat>

namespace pm::gui::scene3d {

class GroundPlate {
 public:
  GroundPlate();

  // Starts over for a new drawing: `up` turns +z against gravity, `scale`
  // is the model's characteristic length (gap, margin and thickness follow it).
  void reset(const osg::Quat& up, double scale);
  // Widens the extent by a point given in world coordinates.
  void include(const osg::Vec3d& world);
  // The extent so far is the drawing's as built; fromBuild() goes back to
  // it, for a fit to the poses of other results.
  void keepAsBuilt() { built_ = extent_; }
  void fromBuild() { extent_ = built_; }
  // The ball of `radius` around a world point lies inside the extent (with a
  // hair to spare for rounding): including points of it changes nothing.
  bool holds(const osg::Vec3d& world, double radius) const;
  // Redraws the plate when the extent left it, or (tight) whenever it is
  // not the plate the extent gives; true when it did.
  bool update(bool tight = false);
  // How many times the plate was drawn since the last reset().
  int redraws() const { return redraws_; }

  osg::MatrixTransform* node() const { return node_.get(); }
  // In the up frame: what the plate must lie under, and the plate itself
  // (top face at box().zMax()).
  const osg::BoundingBoxd& extent() const { return extent_; }
  const osg::BoundingBoxd& box() const { return plate_; }
  double gap() const { return 0.004 * scale_; }

 private:
  osg::ref_ptr<osg::MatrixTransform> node_;
  osg::Quat down_;
  double scale_ = 0.1;
  osg::BoundingBoxd extent_, plate_, built_;
  int redraws_ = 0;
};

}  // namespace pm::gui::scene3d
