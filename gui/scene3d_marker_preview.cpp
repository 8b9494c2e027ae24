// MechanismScene's live preview of a marker dragged with the gizmo (issue
// #28): the marker's triad and what hangs on it (joint glyphs, springs,
// cylinders, semi-rotary actuators) follow the drag by moving their
// transforms; the model and every other node stay as built
// (scene3d_scene.h).
#include "scene3d_scene.h"

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
  for (Actuator& a : actuators_) placeActuator(a);
  updateSprings();
}

}  // namespace pm::gui::scene3d
