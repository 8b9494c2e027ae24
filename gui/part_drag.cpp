#include "part_drag.h"

#include <cmath>

namespace pm::gui {

void PartDrag::begin(const std::string& part, size_t index, const osg::Matrixd& initial, const osg::Vec3d& grab,
                     const osg::Vec3d& up, const osg::Vec3d& view, double step) {
  part_ = part;
  index_ = index;
  initial_ = initial;
  grab_ = grab;
  offset_ = osg::Vec3d();
  step_ = step;
  osg::Vec3d v = view;
  v.normalize();
  normal_ = up;
  if (std::abs(v * up) < 0.3) {  // looking along the grid: the axis faced most
    const osg::Vec3d axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double best = -1;
    for (const osg::Vec3d& a : axes)
      if (std::abs(a * v) > best) best = std::abs(a * v), normal_ = a;
  }
}

bool PartDrag::update(const osg::Vec3d& a, const osg::Vec3d& b) {
  const osg::Vec3d d = b - a;
  const double den = d * normal_;
  if (std::abs(den) < 1e-12 * d.length()) return false;
  osg::Vec3d off = a + d * (((grab_ - a) * normal_) / den) - grab_;
  if (step_ > 0)
    for (int k = 0; k < 3; ++k) off[k] = std::round(off[k] / step_) * step_ + 0.0;
  offset_ = off;
  return true;
}

}  // namespace pm::gui
