// MechanismScene's live preview of a marker dragged with the gizmo (issue
// #28): the marker's triad and what hangs on it (joint glyphs, springs,
// cylinders, semi-rotary actuators, its part's shapes and links, contact
// shapes, latch glyphs) follow the drag by moving their transforms; the
// model and every other node stay as built (scene3d_scene.h).
#include "scene3d_scene.h"

#include <algorithm>
#include <utility>

namespace pm::gui::scene3d {

osg::Matrixd MechanismScene::shownFrame(const MarkerDef& mk) const {
  return &mk == previewed_ ? previewFrame_ : frameMatrix(mk.position, mk.orientation);
}

void MechanismScene::placeGlyphsOn(const MarkerDef* mk) {
  for (auto& [id, glyphs] : joints_)
    for (size_t n = 0; n < glyphs.nodes.size() && n < glyphs.markers.size(); ++n)
      if (marker(glyphs.markers[n]) == mk)
        if (auto* t = dynamic_cast<osg::MatrixTransform*>(glyphs.nodes[n].second.get())) t->setMatrix(shownFrame(*mk));
  for (Rotary& r : rotaries_) {
    if (marker(r.j) == mk) r.housing->setMatrix(shownFrame(*mk));
    if (marker(r.i) == mk) r.indicator->setMatrix(shownFrame(*mk));
  }
}

void MechanismScene::placeShapes(Part& p, const PartDef& def) const {
  auto frame = [&](const std::string& id) {
    for (const MarkerDef& mk : def.markers)
      if (mk.id == id) return shownFrame(mk);
    return osg::Matrixd::identity();
  };
  for (PartShape& s : p.shapes) {
    const osg::Matrixd a = frame(s.a);
    if (s.placed) s.placed->setMatrix(a);
    if (!s.link.node) continue;
    const osg::Vec3d normal = s.partNormal ? osg::Vec3d(0, 0, 1) : osg::Matrixd::transform3x3(osg::Vec3d(0, 0, 1), a);
    placeLink(s.link, a.getTrans(), s.b.empty() ? osg::Vec3d() : frame(s.b).getTrans(), normal);
  }
}

bool MechanismScene::shapeFrames(const std::string& part, size_t g, osg::Matrixd& a, osg::Matrixd& b) const {
  auto it = std::find_if(parts_.begin(), parts_.end(), [&](const Part& p) { return p.id == part; });
  if (it == parts_.end() || g >= it->shapes.size()) return false;
  const PartShape& s = it->shapes[g];
  const osg::Matrixd& world = it->xf->getMatrix();
  if (s.placed) {
    a = b = s.placed->getMatrix() * world;
    return true;
  }
  if (!s.link.node) return false;
  a = s.link.endA->getMatrix() * world;
  b = s.link.endB->getMatrix() * world;
  return true;
}

bool MechanismScene::previewMarker(const std::string& ref, const osg::Matrixd& local, double enlarge) {
  size_t k = 0;
  const MarkerDef* mk = marker(ref, &k);
  if (!mk) return false;
  osg::MatrixTransform* triad = triadNode(*parts_[k].xf, size_t(mk - model_.parts[k].markers.data()));
  if (!triad) return false;
  if (previewed_ && previewed_ != mk) endMarkerPreview();
  previewed_ = mk;
  previewPart_ = k;
  previewFrame_ = local;
  triad->setMatrix(osg::Matrixd::scale(enlarge, enlarge, enlarge) * local);
  placeGlyphsOn(mk);
  placeShapes(parts_[k], model_.parts[k]);
  contacts_.placeOn(mk, local);
  latches_.placeOn(mk, local);
  // Actuators are few: each placed again, as a rebuild would (their pins
  // and the body's length follow the markers).
  for (Actuator& a : actuators_) placeActuator(a);
  updateSprings();  // springs and cylinders between their pins as shown
  return true;
}

void MechanismScene::endMarkerPreview() {
  const MarkerDef* mk = std::exchange(previewed_, nullptr);
  if (!mk) return;
  const auto& markers = model_.parts[previewPart_].markers;
  if (osg::MatrixTransform* triad = triadNode(*parts_[previewPart_].xf, size_t(mk - markers.data())))
    triad->setMatrix(frameMatrix(mk->position, mk->orientation));
  placeGlyphsOn(mk);
  placeShapes(parts_[previewPart_], model_.parts[previewPart_]);
  contacts_.placeOn(mk, frameMatrix(mk->position, mk->orientation));
  latches_.placeOn(mk, frameMatrix(mk->position, mk->orientation));
  for (Actuator& a : actuators_) placeActuator(a);
  updateSprings();
}

}  // namespace pm::gui::scene3d
