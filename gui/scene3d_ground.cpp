#include "scene3d_ground.h"

#include "scene3d_shapes.h"

#include <algorithm>

namespace pm::gui::scene3d {

GroundPlate::GroundPlate() : node_(new osg::MatrixTransform) {
  node_->setName("groundPlate");
  node_->setNodeMask(kDrawMask);
}

void GroundPlate::reset(const osg::Quat& up, double scale) {
  down_ = up.inverse();
  scale_ = scale;
  extent_.init();
  plate_.init();
  built_.init();
  redraws_ = 0;
  node_->setMatrix(osg::Matrixd::rotate(up));
  node_->removeChildren(0, node_->getNumChildren());
}

void GroundPlate::include(const osg::Vec3d& world) { extent_.expandBy(down_ * world); }

bool GroundPlate::holds(const osg::Vec3d& world, double radius) const {
  if (!extent_.valid()) return false;
  const osg::Vec3d q = down_ * world;
  const double r = radius * (1.0 + 1e-9) + 1e-12 * scale_;
  return q.x() - r > extent_.xMin() && q.x() + r < extent_.xMax() && q.y() - r > extent_.yMin() &&
         q.y() + r < extent_.yMax() && q.z() - r > extent_.zMin() && q.z() + r < extent_.zMax();
}

bool GroundPlate::update(bool tight) {
  if (!extent_.valid()) return false;
  const double gap = this->gap();
  // Still under and around everything: nothing to redraw.
  if (!tight && plate_.valid() && extent_.zMin() >= plate_.zMax() + 0.5 * gap && extent_.xMin() >= plate_.xMin() &&
      extent_.xMax() <= plate_.xMax() && extent_.yMin() >= plate_.yMin() && extent_.yMax() <= plate_.yMax())
    return false;
  const double margin = 0.08 * scale_, thick = 0.03 * scale_;
  const double top = extent_.zMin() - gap;
  const osg::BoundingBoxd plate(extent_.xMin() - margin, extent_.yMin() - margin, top - thick, extent_.xMax() + margin,
                                extent_.yMax() + margin, top);
  if (plate_.valid() && plate._min == plate_._min && plate._max == plate_._max) return false;
  plate_ = plate;
  ++redraws_;
  node_->removeChildren(0, node_->getNumChildren());
  // Brushed steel, darker than the ground part's grey so the two read apart.
  node_->addChild(makeBox(plate_.center(), {plate_.xMax() - plate_.xMin(), plate_.yMax() - plate_.yMin(), thick},
                          osg::Vec4(0.42f, 0.45f, 0.50f, 1.0f)));
  return true;
}

}  // namespace pm::gui::scene3d
