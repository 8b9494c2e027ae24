#include "scene3d_latches.h"

#include "engine/engine.h"
#include "mechanism_editing.h"
#include "scene3d_flexible.h"
#include "scene3d_shapes.h"

#include <osg/Geode>
#include <osg/ShapeDrawable>

#include <algorithm>

namespace pm::gui::scene3d {

namespace {

// Two cones tip to tip along z with a small gap: a clamp closing on the
// marker's origin.
osg::ref_ptr<osg::Node> clamp(double scale, const osg::Vec4& color) {
  const double h = 0.06 * scale, r = 0.04 * scale, gap = 0.01 * scale;
  osg::ref_ptr<osg::TessellationHints> hints = new osg::TessellationHints;
  hints->setDetailRatio(kGlyphDetail);
  osg::ref_ptr<osg::Geode> g = new osg::Geode;
  for (const double dir : {1.0, -1.0}) {
    // OSG's cone is centred a quarter of its height above its base.
    const osg::Vec3d tip(0, 0, -dir * gap), axis(0, 0, dir);
    auto* cone = new osg::Cone(tip - axis * (0.75 * h), static_cast<float>(r), static_cast<float>(h));
    osg::Quat q;
    q.makeRotate(osg::Vec3d(0, 0, 1), axis);
    cone->setRotation(q);
    auto* d = new osg::ShapeDrawable(cone, hints.get());
    d->setColor(color);
    g->addDrawable(d);
  }
  return g;
}

}  // namespace

osg::Vec4 LatchLayer::releasedColor() { return {0.95f, 0.60f, 0.10f, 1.0f}; }
osg::Vec4 LatchLayer::engagedColor() { return {0.15f, 0.70f, 0.25f, 1.0f}; }

void LatchLayer::build(const Mechanism& m, double scale, const PartTransform& partXf, const AddObject& addObject) {
  latches_.clear();
  atMarkers_.clear();
  glyphs_ = 0;
  for (const LatchDef& d : m.latches) {
    Latch l;
    l.id = d.id;
    const auto start = d.params.find("engaged");
    l.atStart = start != d.params.end() && start->second > 0.5;
    for (const std::string* fileRef : {&d.i, &d.j}) {
      // A flexible body's marker rides on its node part, deformed with it.
      const std::string ref = nodeMarkerRef(m, *fileRef);
      const MarkerDef* mk = findMarker(m, ref);
      const std::string part = ref.substr(0, ref.find('.'));
      osg::MatrixTransform* xf = mk ? partXf(part) : nullptr;
      if (!xf) continue;
      osg::ref_ptr<osg::MatrixTransform> at = new osg::MatrixTransform(frameMatrix(mk->position, mk->orientation));
      osg::ref_ptr<osg::Switch> states = new osg::Switch;
      states->addChild(clamp(scale, releasedColor()), !l.atStart);
      states->addChild(clamp(scale, engagedColor()), l.atStart);
      at->addChild(states);
      xf->addChild(at);
      atMarkers_.emplace_back(mk, at);
      addObject(d.id, at.get());
      l.glyphs.push_back(states);
      ++glyphs_;
    }
    l.engaged = l.atStart;
    latches_.push_back(std::move(l));
  }
  setStore(track_.store());
}

void LatchLayer::setStore(const ResultStore* store) {
  std::vector<std::string> names;
  for (const Latch& l : latches_) names.push_back(l.id + ".engaged");
  track_.setStore(store, std::move(names));
}

bool LatchLayer::refresh() { return !latches_.empty() && track_.refresh(); }

void LatchLayer::apply(double t) {
  if (track_.rows() == 0) return hide();
  const size_t row = track_.rowAtOrBefore(t);
  for (size_t k = 0; k < latches_.size(); ++k)
    show(latches_[k], track_.has(k) ? track_.column(k)[row] > 0.5 : latches_[k].atStart);
}

void LatchLayer::hide() {
  for (Latch& l : latches_) show(l, l.atStart);
}

void LatchLayer::show(Latch& l, bool engaged) {
  l.engaged = engaged;
  for (auto& s : l.glyphs) {
    s->setValue(0, !engaged);
    s->setValue(1, engaged);
  }
}

void LatchLayer::placeOn(const MarkerDef* mk, const osg::Matrixd& local) {
  for (auto& [marker, at] : atMarkers_)
    if (marker == mk) at->setMatrix(local);
}

std::vector<osg::Vec3d> LatchLayer::glyphOrigins(const std::string& id) const {
  std::vector<osg::Vec3d> out;
  for (const Latch& l : latches_)
    if (l.id == id)
      for (const auto& s : l.glyphs) {
        const osg::MatrixList world = s->getWorldMatrices();
        if (!world.empty()) out.push_back(osg::Vec3d() * world.front());
      }
  return out;
}

bool LatchLayer::engaged(const std::string& id) const {
  for (const Latch& l : latches_)
    if (l.id == id) return l.engaged;
  return false;
}

}  // namespace pm::gui::scene3d
