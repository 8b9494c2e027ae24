#include "scene3d_contacts.h"

#include "engine/engine.h"
#include "mechanism_editing.h"
#include "scene3d_flexible.h"
#include "scene3d_shapes.h"

#include <osg/Depth>
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/PolygonMode>

#include <algorithm>
#include <cmath>

namespace pm::gui::scene3d {

namespace {

const osg::Vec4 kShapeColor(0.10f, 0.65f, 0.62f, 1.0f);  // teal: not a part colour
const osg::Vec4 kArrowColor(0.90f, 0.15f, 0.10f, 1.0f);
const char* kChannels[7] = {"normal_force", "point_x", "point_y", "point_z", "normal_x", "normal_y", "normal_z"};

double size(const ContactShapeDef& s, const char* k, double def = 0.0) {
  auto it = s.size.find(k);
  return it == s.size.end() ? def : it->second;
}

// The conical wall of a funnel about z: radius r0 at z = 0, r1 at z = len.
osg::ref_ptr<osg::Node> makeFunnel(double r0, double r1, double len, const osg::Vec4& color) {
  constexpr int kSides = 32;
  osg::ref_ptr<osg::Geometry> g = new osg::Geometry;
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array, n = new osg::Vec3Array;
  const double slope = (r1 - r0) / std::max(len, 1e-12);
  for (int i = 0; i <= kSides; ++i) {
    const double a = 2 * osg::PI * i / kSides, c = std::cos(a), s = std::sin(a);
    osg::Vec3 nrm(static_cast<float>(c), static_cast<float>(s), static_cast<float>(-slope));
    nrm.normalize();
    v->push_back(osg::Vec3(static_cast<float>(r0 * c), static_cast<float>(r0 * s), 0.0f));
    v->push_back(osg::Vec3(static_cast<float>(r1 * c), static_cast<float>(r1 * s), static_cast<float>(len)));
    n->push_back(nrm);
    n->push_back(nrm);
  }
  osg::ref_ptr<osg::Vec4Array> col = new osg::Vec4Array;
  col->push_back(color);
  g->setVertexArray(v);
  g->setNormalArray(n, osg::Array::BIND_PER_VERTEX);
  g->setColorArray(col, osg::Array::BIND_OVERALL);
  g->addPrimitiveSet(new osg::DrawArrays(GL_TRIANGLE_STRIP, 0, static_cast<int>(v->size())));
  osg::ref_ptr<osg::Geode> geode = new osg::Geode;
  geode->addDrawable(g);
  return geode;
}

// A shape in its marker's axes (contact::Shape's conventions: centred
// boxes, capsules and cylinders along z, the plane the half-space z <= 0).
osg::ref_ptr<osg::Node> shapeNode(const ContactShapeDef& s, double scale) {
  const double r = size(s, "radius"), len = size(s, "length");
  const osg::Vec3d z(0, 0, 1);
  if (s.shape == "sphere") return makeSphere({0, 0, 0}, r, kShapeColor);
  if (s.shape == "box") return makeBox({0, 0, 0}, {size(s, "lx"), size(s, "ly"), size(s, "lz")}, kShapeColor);
  if (s.shape == "cylinder") return makeCylinder(-z * (len / 2), z, r, len, kShapeColor);
  if (s.shape == "capsule") {
    osg::ref_ptr<osg::Group> g = new osg::Group;
    g->addChild(makeCylinder(-z * (len / 2), z, r, len, kShapeColor));
    g->addChild(makeSphere(-z * (len / 2), r, kShapeColor));
    g->addChild(makeSphere(z * (len / 2), r, kShapeColor));
    return g;
  }
  if (s.shape == "plane") {  // a square of the model's size, thin, just below z = 0
    const double t = 0.01 * scale;
    return makeBox({0, 0, -t / 2}, {2 * scale, 2 * scale, t}, kShapeColor);
  }
  if (s.shape == "funnel") return makeFunnel(r, size(s, "mouth_radius"), len, kShapeColor);
  if (s.shape == "mesh") {  // its triangles; an index out of range (refused by a run) is left out
    TriangleMesh t;
    t.vertices = s.vertices;
    const int n = static_cast<int>(s.vertices.size());
    for (const auto& c : s.triangles)
      if (std::all_of(c.begin(), c.end(), [n](int i) { return i >= 0 && i < n; }))
        t.triangles.push_back({std::uint32_t(c[0]), std::uint32_t(c[1]), std::uint32_t(c[2])});
    return t.triangles.empty() ? nullptr : makeMesh(t, kShapeColor);
  }
  return nullptr;
}

}  // namespace

void ContactLayer::build(const Mechanism& m, double scale, const PartTransform& partXf, osg::Group* world,
                         const AddObject& addObject) {
  scale_ = scale;
  shapes_ = 0;
  pairs_.clear();
  atMarkers_.clear();
  for (const ContactDef& c : m.contacts) {
    for (const ContactShapeDef* s : {&c.i, &c.j}) {
      // A flexible body's marker rides on its node part, deformed with it.
      const std::string ref = nodeMarkerRef(m, s->marker);
      const MarkerDef* mk = findMarker(m, ref);
      const std::string part = ref.substr(0, ref.find('.'));
      osg::MatrixTransform* xf = mk ? partXf(part) : nullptr;
      osg::ref_ptr<osg::Node> shape = mk ? shapeNode(*s, scale) : nullptr;
      if (!xf || !shape) continue;
      osg::ref_ptr<osg::MatrixTransform> at = new osg::MatrixTransform(frameMatrix(mk->position, mk->orientation));
      at->addChild(shape);
      // Wireframe: the shapes usually coincide with the parts' own geometry.
      at->getOrCreateStateSet()->setAttributeAndModes(
          new osg::PolygonMode(osg::PolygonMode::FRONT_AND_BACK, osg::PolygonMode::LINE));
      at->setNodeMask(kDrawMask);  // not picked: the part under it is
      at->setName(c.id);
      if (addObject) addObject(c.id, at.get());
      xf->addChild(at);
      atMarkers_.push_back({c.id, s == &c.i, mk, at});
      ++shapes_;
    }
    Pair p;
    p.id = c.id;
    p.arrow = new osg::MatrixTransform;
    p.arrow->setDataVariance(osg::Object::DYNAMIC);
    p.arrow->setNodeMask(0);
    // A unit arrow along +z: apply() scales it along z to the force.
    p.arrow->addChild(makeArrow({0, 0, 0}, {0, 0, 1}, 0.06, kArrowColor));
    p.arrow->setName(c.id + ".force");
    // Drawn over the shapes: the arrow starts at the contact point, inside
    // the parts' geometry.
    osg::StateSet* ss = p.arrow->getOrCreateStateSet();
    ss->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS));
    ss->setRenderBinDetails(20, "RenderBin");
    world->addChild(p.arrow);
    pairs_.push_back(std::move(p));
  }
  setStore(track_.store());
}

void ContactLayer::setStore(const ResultStore* store) {
  std::vector<std::string> names;  // 7 per pair, in pairs_' order
  for (const Pair& p : pairs_)
    for (const char* q : kChannels) names.push_back(p.id + "." + q);
  maxForce_ = 0.0;
  track_.setStore(store, std::move(names));
  updateMaxForce();
}

bool ContactLayer::refresh() {
  if (pairs_.empty() || !track_.refresh()) return false;
  updateMaxForce();
  return true;
}

void ContactLayer::updateMaxForce() {
  if (track_.firstNew() == 0) maxForce_ = 0.0;  // a new run
  for (size_t k = 0; k < pairs_.size(); ++k) {
    const std::vector<double>& f = track_.column(7 * k);
    for (size_t i = track_.firstNew(); i < f.size(); ++i) maxForce_ = std::max(maxForce_, f[i]);
  }
}

double ContactLayer::metresPerNewton() const { return maxForce_ > 0.0 ? 0.25 * scale_ / maxForce_ : 0.0; }

void ContactLayer::apply(double t) {
  if (track_.rows() == 0) return hide();
  const ChannelTrack::Bracket b = track_.bracket(t);
  const size_t i0 = b.i0, i1 = b.i1;
  const double w = b.w;
  const double mpn = metresPerNewton();
  for (size_t k = 0; k < pairs_.size(); ++k) {
    Pair& p = pairs_[k];
    bool complete = true;
    for (size_t q = 0; q < 7; ++q) complete = complete && track_.has(7 * k + q);
    const std::vector<double>& force = track_.column(7 * k);
    // Out of contact at either neighbouring row: no arrow (the force is
    // zero there; interpolating would draw one into the gap). On a row:
    // that row's.
    const bool on = complete && (w >= 1.0   ? force[i1] > 0.0
                                 : w <= 0.0 ? force[i0] > 0.0
                                            : force[i0] > 0.0 && force[i1] > 0.0);
    if (!on || mpn <= 0.0) {
      p.drawn = {};
      p.arrow->setNodeMask(0);
      continue;
    }
    auto at = [&](size_t q) { return b.at(track_.column(7 * k + q)); };
    osg::Vec3d n(at(4), at(5), at(6));
    n.normalize();
    const double len = at(0) * mpn;
    p.drawn.visible = true;
    p.drawn.base = osg::Vec3d(at(1), at(2), at(3));
    p.drawn.vector = n * len;
    // The shaft's radius follows the model (1 % of its length; the unit
    // arrow's is 0.06), the arrow's length the force.
    const double across = 0.01 * scale_ / 0.06;
    osg::Quat q;
    q.makeRotate(osg::Vec3d(0, 0, 1), n);
    p.arrow->setMatrix(osg::Matrixd::scale(across, across, len) * osg::Matrixd::rotate(q) *
                       osg::Matrixd::translate(p.drawn.base));
    p.arrow->setNodeMask(kDrawMask);
  }
}

void ContactLayer::hide() {
  for (Pair& p : pairs_) {
    p.drawn = {};
    p.arrow->setNodeMask(0);
  }
}

void ContactLayer::placeOn(const MarkerDef* mk, const osg::Matrixd& local) {
  for (AtMarker& a : atMarkers_)
    if (a.marker == mk) a.at->setMatrix(local);
}

bool ContactLayer::shapeFrame(const std::string& id, bool iSide, osg::Matrixd& local) const {
  for (const AtMarker& a : atMarkers_)
    if (a.pair == id && a.iSide == iSide) {
      local = a.at->getMatrix();
      return true;
    }
  return false;
}

ContactLayer::Arrow ContactLayer::arrow(const std::string& pair) const {
  for (const Pair& p : pairs_)
    if (p.id == pair) return p.drawn;
  return {};
}

}  // namespace pm::gui::scene3d
