// Dragging a part in the 3D view (Shift + left drag, issue #28 point 4):
// the part follows the cursor in a plane through the grabbed point, across
// "up" (the grid's plane) unless the view looks along that plane, then
// across the world axis the view looks most along. The offset is rounded to
// the snap step per world axis.
#pragma once

#include <osg/Matrixd>
#include <osg/Vec3d>

#include <string>

namespace pm::gui {

class PartDrag {
 public:
  // Starts at world point `grab` on part `index`; `up` is the grid's normal,
  // `view` the direction from the scene to the eye.
  void begin(const std::string& part, size_t index, const osg::Matrixd& initial, const osg::Vec3d& grab,
             const osg::Vec3d& up, const osg::Vec3d& view, double step);
  // The cursor's ray (two world points on it): the new offset; false when
  // the ray runs along the plane.
  bool update(const osg::Vec3d& a, const osg::Vec3d& b);
  void end() { part_.clear(); }

  bool active() const { return !part_.empty(); }
  const std::string& part() const { return part_; }
  size_t index() const { return index_; }
  const osg::Vec3d& offset() const { return offset_; }
  // The part's world matrix moved by the offset.
  osg::Matrixd matrix() const { return initial_ * osg::Matrixd::translate(offset_); }

 private:
  std::string part_;
  size_t index_ = 0;
  osg::Matrixd initial_;
  osg::Vec3d grab_, normal_, offset_;
  double step_ = 0;
};

}  // namespace pm::gui
