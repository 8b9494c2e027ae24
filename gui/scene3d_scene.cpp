#include "scene3d_scene.h"

#include "engine/engine.h"
#include "engine/expanded_view.h"

#include <osg/ComputeBoundsVisitor>
#include <osg/Geode>
#include <osg/Transform>
#include <osg/Uniform>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>

namespace pm::gui::scene3d {

constexpr double kTriadLength = 0.06;  // marker triads, of the characteristic length

namespace {

const osg::Vec4 kJointColor(0.38f, 0.42f, 0.48f, 1.0f);
const osg::Vec4 kSpringColor(0.72f, 0.58f, 0.20f, 1.0f);
const osg::Vec3f kHighlight(1.0f, 0.86f, 0.15f);  // selection yellow
const osg::Vec4 kAxisColor(0.95f, 0.45f, 0.05f, 1.0f);  // joint axes
const char* kQuantities[6] = {"x", "y", "z", "roll", "pitch", "yaw"};

osg::ref_ptr<osg::MatrixTransform> frameNode(const osg::Matrixd& m) {
  osg::ref_ptr<osg::MatrixTransform> t = new osg::MatrixTransform(m);
  return t;
}

std::pair<std::string, std::string> splitRef(const std::string& ref) {
  const auto dot = ref.find('.');
  if (dot == std::string::npos) return {ref, {}};
  return {ref.substr(0, dot), ref.substr(dot + 1)};
}

}  // namespace

// ---------------------------------------------------------------- PoseTrack

void PoseTrack::setStore(const ResultStore* store, const std::vector<std::string>& parts) {
  parts_ = parts;
  std::vector<std::string> names;  // 6 per part, in parts' order
  for (const std::string& part : parts)
    for (const char* q : kQuantities) names.push_back(part + "." + q);
  track_.setStore(store, std::move(names));
}

bool PoseTrack::refresh() { return track_.refresh(); }

bool PoseTrack::complete(size_t k) const {
  if (k >= parts_.size()) return false;
  for (size_t q = 0; q < 6; ++q)
    if (!track_.has(6 * k + q)) return false;
  return true;
}

osg::Matrixd PoseTrack::rowMatrix(size_t k, size_t row) const {
  auto v = [&](size_t q) { return track_.column(6 * k + q)[row]; };
  return frameMatrix({v(0), v(1), v(2)}, {v(3), v(4), v(5)});
}

bool PoseTrack::rowPosition(size_t k, size_t row, osg::Vec3d& p) const {
  if (row >= track_.rows() || !complete(k)) return false;
  p.set(track_.column(6 * k)[row], track_.column(6 * k + 1)[row], track_.column(6 * k + 2)[row]);
  return true;
}

bool PoseTrack::rowPose(size_t k, size_t row, osg::Matrixd& m) const {
  if (row >= track_.rows() || !complete(k)) return false;
  m = rowMatrix(k, row);
  return true;
}

bool PoseTrack::pose(size_t k, double t, osg::Matrixd& m) const {
  if (track_.rows() == 0 || !complete(k)) return false;
  const ChannelTrack::Bracket b = track_.bracket(t);
  const osg::Matrixd m0 = rowMatrix(k, b.i0), m1 = rowMatrix(k, b.i1);
  osg::Quat q;
  q.slerp(b.w, m0.getRotate(), m1.getRotate());
  m.makeRotate(q);
  m.setTrans(m0.getTrans() * (1 - b.w) + m1.getTrans() * b.w);
  return true;
}

// ----------------------------------------------------------- MechanismScene

MechanismScene::MechanismScene() : root_(new osg::Group) {
  applyLitState(root_->getOrCreateStateSet());
  // No tint below the node parts' own (a program keeps the last value set).
  root_->getOrCreateStateSet()->addUniform(new osg::Uniform("pm_tint", osg::Vec4()));
}

void MechanismScene::clearCaches() {
  parts_.clear();
  joints_.clear();
  springs_.clear();
  gridKey_ = {};
}

MechanismScene::Part* MechanismScene::partById(const std::string& id) {
  for (Part& p : parts_)
    if (p.id == id) return &p;
  return nullptr;
}

void MechanismScene::build(const Project& project, const std::string& projectDir) {
  highlight({});  // kept nodes must not keep the old tint
  previewed_ = nullptr;  // drawn from the new model
  model_ = project.mechanism;
  firstNodePart_ = model_.parts.size();
  for (PartDef& node : flexibleNodeParts(model_)) model_.parts.push_back(std::move(node));
  const osg::Vec3d g(model_.gravity[0], model_.gravity[1], model_.gravity[2]);
  up_ = osg::Quat();
  if (g.length() > 0) up_.makeRotate(osg::Vec3d(0, 0, 1), -g / g.length());

  // Characteristic length from the initial part origins and markers.
  osg::BoundingBoxd box;
  for (const PartDef& p : model_.parts) {
    const osg::Matrixd m = frameMatrix(p.position, p.orientation);
    box.expandBy(m.getTrans());
    for (const MarkerDef& mk : p.markers) box.expandBy(toOsg(mk.position) * m);
  }
  const double raw = box.valid() ? std::max(0.05, (box._max - box._min).length()) : 0.5;
  // Glyph sizes follow this length in steps of 2^(1/4), so most edits keep
  // it and an updated scene stays identical to one built afresh.
  const double scale = std::pow(2.0, std::round(4.0 * std::log2(raw)) / 4.0);
  if (!mechanism_ || projectDir != projectDir_ || scale != scale_) {
    clearCaches();
    scale_ = scale;
    projectDir_ = projectDir;
  }
  if (!mechanism_) {
    mechanism_ = new osg::Group;
    mechanism_->setNodeMask(kDrawMask | kPickMask);
    root_->addChild(mechanism_);
  }
  mechanism_->removeChildren(0, mechanism_->getNumChildren());
  nodesBuilt_ = 0;
  objects_.clear();
  highlighted_.clear();
  markerSwitches_.clear();
  partIds_.clear();
  actuators_.clear();

  std::vector<Part> oldParts = std::move(parts_);
  parts_.clear();
  for (size_t k = 0; k < model_.parts.size(); ++k) {
    const PartDef& def = model_.parts[k];
    const osg::Vec4 fallback = def.ground ? osg::Vec4(0.55f, 0.57f, 0.6f, 1) : paletteColor(static_cast<int>(k));
    auto old = std::find_if(oldParts.begin(), oldParts.end(), [&](const Part& p) { return p.id == def.id && p.xf; });
    // Shapes and triads depend on the geometry, the markers, the colour and
    // (the default box) the centre of mass; mass or pose edits keep them.
    const bool same = old != oldParts.end() && old->fallback == fallback && old->def.ground == def.ground &&
                      old->def.markers == def.markers && old->def.geometry == def.geometry &&
                      (!def.geometry.empty() || old->def.cm == def.cm);
    if (!same) {
      addPart(def, static_cast<int>(k), projectDir);
      continue;
    }
    Part part = std::move(*old);
    part.xf->removeChildren(2, part.xf->getNumChildren() - 2);  // glyphs come back below
    part.def = def;
    part.initial = frameMatrix(def.position, def.orientation);
    part.xf->setMatrix(part.initial);
    placeShapes(part, def);  // as the model has them, should a drag's preview have moved them
    auto* triads = dynamic_cast<osg::Switch*>(part.xf->getChild(1));
    markerSwitches_.push_back(triads);
    for (size_t m = 0; m < def.markers.size() && m < triads->getNumChildren(); ++m)
      addObject(def.id + "." + def.markers[m].id, triads->getChild(unsigned(m)));
    if (!def.ground || !def.geometry.empty()) addObject(def.id, part.xf.get());
    mechanism_->addChild(part.xf);
    parts_.push_back(std::move(part));
    partIds_.push_back(def.id);
  }
  adoptNodeParts();

  std::map<std::string, JointGlyphs> oldJoints = std::move(joints_);
  joints_.clear();
  for (const JointDef& j : model_.joints) {
    const MarkerDef* mi = marker(j.i);
    const MarkerDef* mj = marker(j.j);
    auto old = oldJoints.find(j.id);
    if (old != oldJoints.end() && old->second.def == j && mi && old->second.mi == *mi &&
        old->second.mj == (mj ? *mj : MarkerDef{})) {
      for (auto& [partId, node] : old->second.nodes)
        if (Part* p = partById(partId)) {
          p->xf->addChild(node);
          addObject(j.id, node.get());
        }
      joints_[j.id] = std::move(old->second);
      continue;
    }
    addJoint(j);
  }

  std::vector<Spring> oldSprings = std::move(springs_);
  springs_.clear();
  for (const ForceDef& f : model_.forces) {
    if (f.type != "spring_damper") continue;
    auto old = std::find_if(oldSprings.begin(), oldSprings.end(), [&](const Spring& s) { return s.def == f && s.node; });
    if (old != oldSprings.end() && marker(f.i) && marker(f.j)) {
      mechanism_->addChild(old->node);
      addObject(f.id, old->node.get());
      springs_.push_back(std::move(*old));
      continue;
    }
    addSpring(f);
  }
  // Actuators are few and hang on several parts' poses: always redrawn.
  rotaries_.clear();
  // An actuator inside a sub-circuit block is drawn too, under its expanded
  // id, whose channels the run names it by.
  std::optional<Project> expanded;
  for (const Component& c : engine::expandedView(project, expanded).components) {
    addActuator(c);
    addSemiRotary(c);
  }
  contacts_.build(
      model_, scale_,
      [this](const std::string& id) {
        Part* p = partById(id);
        return p ? p->xf.get() : nullptr;
      },
      mechanism_.get(), [this](const std::string& id, osg::Node* node) { addObject(id, node); });
  latches_.build(
      model_, scale_,
      [this](const std::string& id) {
        Part* p = partById(id);
        return p ? p->xf.get() : nullptr;
      },
      [this](const std::string& id, osg::Node* node) { addObject(id, node); });
  const auto partIndex = [this](const std::string& id) {
    const auto it = std::find(partIds_.begin(), partIds_.end(), id);
    return it == partIds_.end() ? -1 : static_cast<int>(it - partIds_.begin());
  };
  mechanism_->addChild(beamLines_.build(model_, partIndex));
  beamDisplay_.build(model_, partIndex);
  for (size_t k = firstNodePart_; k < parts_.size(); ++k)
    if (osg::StateSet* ss = shapesState(parts_[k]))
      ss->getOrCreateUniform("pm_tint", osg::Uniform::FLOAT_VEC4)->set(osg::Vec4());
  addEnvironment();
  setMarkersVisible(markersVisible_);
  updateSprings();
  placeGround();
}

// The plate under the drawing as built (initial pose), ready to be lowered
// and widened by the poses of results.
void MechanismScene::placeGround() {
  if (ground_.node()->getNumParents() == 0) root_->addChild(ground_.node());
  ground_.reset(up_, scale_);
  partBoxes_.clear();
  partReach_.clear();
  for (const Part& p : parts_) {
    // Shapes and the glyphs riding on the part; not its marker triads (child 1).
    osg::ComputeBoundsVisitor cbv;
    for (unsigned i = 0; i < p.xf->getNumChildren(); ++i)
      if (i != 1) p.xf->getChild(i)->accept(cbv);
    osg::BoundingBoxd box;
    if (cbv.getBoundingBox().valid()) box.set(cbv.getBoundingBox()._min, cbv.getBoundingBox()._max);
    partBoxes_.push_back(box);
    double reach = 0.0;
    if (box.valid())
      for (unsigned c = 0; c < 8; ++c) reach = std::max(reach, box.corner(c).length());
    partReach_.push_back(reach);
  }
  osg::ComputeBoundsVisitor all;
  mechanism_->accept(all);
  const osg::BoundingBox& box = all.getBoundingBox();
  if (box.valid())
    for (unsigned c = 0; c < 8; ++c) ground_.include(box.corner(c));
  ground_.keepAsBuilt();
  ground_.update();
}

void MechanismScene::fitGround(const PoseTrack& track) {
  ground_.fromBuild();
  osg::Matrixd m;
  osg::Vec3d origin;
  for (size_t r = 0; r < track.rows(); ++r)
    for (size_t k = 0; k < parts_.size() && k < partBoxes_.size(); ++k) {
      if (!partBoxes_[k].valid() || !track.rowPosition(k, r, origin)) continue;
      // Every corner lies within the part's reach of its origin: when that
      // ball is inside the extent, no corner widens it (most rows, once the
      // plate fits), and the pose's rotation need not be built.
      if (ground_.holds(origin, partReach_[k])) continue;
      if (!track.rowPose(k, r, m)) continue;
      for (unsigned c = 0; c < 8; ++c) ground_.include(partBoxes_[k].corner(c) * m);
    }
  ground_.update(true);
  ++groundFits_;
}

void MechanismScene::adoptNodeParts() {
  for (size_t k = firstNodePart_; k < parts_.size(); ++k) {
    const std::string& id = parts_[k].id;
    const std::string beam = beamOfNodePart(model_, id);
    if (beam.empty()) continue;
    std::vector<std::pair<std::string, std::string>> renames{{id, beam}};
    for (const MarkerDef& mk : model_.parts[k].markers) renames.push_back({id + "." + mk.id, beam + "." + mk.id});
    for (const auto& [from, to] : renames) {
      auto it = objects_.find(from);
      if (it == objects_.end()) continue;
      const auto nodes = std::move(it->second);
      objects_.erase(it);
      for (const auto& n : nodes) addObject(to, n.get());
    }
  }
}

void MechanismScene::addObject(const std::string& id, osg::Node* node) {
  node->setName(id);
  osg::StateSet* ss = node->getOrCreateStateSet();
  if (!ss->getUniform("pm_highlight")) ss->addUniform(new osg::Uniform("pm_highlight", osg::Vec3f(0, 0, 0)));
  objects_[id].push_back(node);
}

void MechanismScene::addPart(const PartDef& def, int index, const std::string& projectDir) {
  Part part;
  part.id = def.id;
  part.def = def;
  part.initial = frameMatrix(def.position, def.orientation);
  part.xf = frameNode(part.initial);
  part.xf->setDataVariance(osg::Object::DYNAMIC);
  const osg::Vec4 fallback = def.ground ? osg::Vec4(0.55f, 0.57f, 0.6f, 1) : paletteColor(index);
  part.fallback = fallback;
  nodesBuilt_ += 2;  // shapes and triads
  osg::ref_ptr<osg::Group> shapes = new osg::Group;
  for (const Geometry& g : def.geometry) {
    PartShape& drawn = part.shapes.emplace_back();
    drawn.a = g.marker;
    const osg::Vec4 color = parseColor(g.color, fallback);
    auto size = [&](const char* key, double dflt) {
      auto it = g.size.find(key);
      return it == g.size.end() ? dflt : it->second;
    };
    osg::ref_ptr<osg::Node> node;
    if (g.shape == "box") {
      node = makeBox({0, 0, 0}, {size("lx", 0.05), size("ly", 0.05), size("lz", 0.05)}, color);
    } else if (g.shape == "cylinder" || g.shape == "tube") {  // a tube drawn by its outer radius
      node = makeCylinder({0, 0, 0}, {0, 0, 1}, size("radius", 0.01), size("length", 0.1), color);
    } else if (g.shape == "sphere") {
      node = makeSphere({0, 0, 0}, size("radius", 0.02), color);
    } else if (g.shape == "link") {
      drawn.b = g.marker2;
      drawn.link = makeLink(size("width", 0.02), color);
      shapes->addChild(drawn.link.node);
      continue;  // placed in part coordinates below
    } else if (g.shape == "mesh") {
      // Read as every file a project names: inside its folder, a regular
      // file under the size limit (a project from an untrusted sender reads
      // nothing outside it). One that cannot be read is not drawn; loading
      // and the geometry check say why.
      TriangleMesh m;
      try {
        m = engine::readMesh(projectDir.empty() ? std::string(".") : projectDir, g.file);
      } catch (const std::exception&) {
        continue;
      }
      osg::ref_ptr<osg::Node> mesh = makeMesh(m, color);
      const double s = size("scale", 1.0);
      osg::ref_ptr<osg::MatrixTransform> scaled = new osg::MatrixTransform(osg::Matrixd::scale(s, s, s));
      scaled->addChild(mesh);
      node = scaled;
    }
    if (!node) continue;
    drawn.placed = new osg::MatrixTransform;
    drawn.placed->addChild(node);
    shapes->addChild(drawn.placed);
  }
  if (def.geometry.empty() && !def.ground) {
    // No display geometry: bars between the markers, else a small box at the cm.
    if (def.markers.size() >= 2) {
      for (size_t m = 1; m < def.markers.size(); ++m) {
        PartShape& bar = part.shapes.emplace_back();
        bar.a = def.markers[0].id;
        bar.b = def.markers[m].id;
        bar.partNormal = true;
        bar.link = makeLink(0.03 * scale_, fallback);
        shapes->addChild(bar.link.node);
      }
    } else {
      const double s = 0.06 * scale_;
      shapes->addChild(makeBox(toOsg(def.cm), {s, s, s}, fallback));
    }
  }
  placeShapes(part, def);
  part.xf->addChild(shapes);

  osg::ref_ptr<osg::Switch> triads = new osg::Switch;
  triads->setNodeMask(kDrawMask);
  for (const MarkerDef& mk : def.markers) {
    osg::ref_ptr<osg::MatrixTransform> t = frameNode(frameMatrix(mk.position, mk.orientation));
    t->addChild(makeTriad(kTriadLength * scale_));
    triads->addChild(t);
    // A marker is an object of its own ("<part>.<marker>"): selecting it in
    // the tree tints its triad. Its own uniform keeps the part's tint off it.
    addObject(def.id + "." + mk.id, t.get());
  }
  part.xf->addChild(triads);
  markerSwitches_.push_back(triads);

  if (!def.ground || !def.geometry.empty()) addObject(def.id, part.xf.get());
  else part.xf->setName(def.id);
  mechanism_->addChild(part.xf);
  parts_.push_back(part);
  partIds_.push_back(def.id);
}

const MarkerDef* MechanismScene::marker(const std::string& ref, size_t* partIndex) const {
  const auto [partId, markerId] = splitRef(nodeMarkerRef(model_, ref));
  for (size_t k = 0; k < model_.parts.size(); ++k) {
    if (model_.parts[k].id != partId) continue;
    for (const MarkerDef& mk : model_.parts[k].markers)
      if (mk.id == markerId) {
        if (partIndex) *partIndex = k;
        return &mk;
      }
  }
  return nullptr;
}

void MechanismScene::addJoint(const JointDef& def) {
  size_t pi = 0, pj = 0;
  const MarkerDef* mi = marker(def.i, &pi);
  const MarkerDef* mj = marker(def.j, &pj);
  if (!mi) return;
  JointGlyphs& record = joints_[def.id];
  record.def = def;
  record.mi = *mi;
  record.mj = mj ? *mj : MarkerDef{};
  const double r = 0.025 * scale_;
  auto glyph = [&](size_t part, const MarkerDef& mk, osg::ref_ptr<osg::Node> shape) {
    osg::ref_ptr<osg::MatrixTransform> t = frameNode(shownFrame(mk));
    t->addChild(shape);
    addObject(def.id, t.get());
    parts_[part].xf->addChild(t);
    record.nodes.emplace_back(parts_[part].id, t);
    record.markers.push_back(&mk == mi ? def.i : def.j);
    ++nodesBuilt_;
  };
  if (def.type == "revolute" || def.type == "cylindrical") {
    const double h = def.type == "revolute" ? 3.0 * r : 5.0 * r;
    // The axis the joint turns about (z of its markers) as an arrow through
    // the glyph, so a revolute's axis is visible at a glance.
    osg::ref_ptr<osg::Group> g = new osg::Group;
    g->addChild(makeCylinder({0, 0, -h / 2}, {0, 0, 1}, r, h, kJointColor, kGlyphDetail));
    g->addChild(makeArrow({0, 0, -h / 2 - 2 * r}, {0, 0, h + 6 * r}, 0.22 * r, kAxisColor));
    glyph(pi, *mi, g);
  } else if (def.type == "translational") {
    glyph(pi, *mi, makeBox({0, 0, 0}, {2.4 * r, 2.4 * r, 2.4 * r}, kJointColor));
    if (mj) {
      const double len = 0.6 * scale_;
      glyph(pj, *mj, makeBox({0, 0, 0}, {0.8 * r, 0.8 * r, len}, osg::Vec4(0.30f, 0.32f, 0.36f, 1.0f)));
    }
  } else if (def.type == "spherical") {
    glyph(pi, *mi, makeSphere({0, 0, 0}, 1.3 * r, kJointColor, kGlyphDetail));
  } else {
    glyph(pi, *mi, makeBox({0, 0, 0}, {1.8 * r, 1.8 * r, 1.8 * r}, kJointColor));
  }
}

void MechanismScene::addSpring(const ForceDef& def) {
  if (!marker(def.i) || !marker(def.j)) return;
  Spring s;
  s.id = def.id;
  s.i = def.i;
  s.j = def.j;
  s.def = def;
  s.helix = makeHelix(0.03 * scale_, 0.004 * scale_, 10, kSpringColor);
  osg::ref_ptr<osg::Node> g = s.helix.node;
  addObject(def.id, g.get());
  mechanism_->addChild(g);
  s.node = g;
  ++nodesBuilt_;
  springs_.push_back(std::move(s));
}

namespace {
constexpr double kBarrelWall = 0.004;  // m, drawn round the bore
}  // namespace

bool MechanismScene::anchorOfMarker(const std::string& ref, Anchor& a) const {
  size_t k = 0;
  const MarkerDef* mk = marker(ref, &k);
  if (!mk) return false;
  a.part = k;
  a.local = shownPosition(*mk);
  return true;
}

osg::Vec3d MechanismScene::anchorWorld(const Anchor& a) const { return a.local * parts_[a.part].xf->getMatrix(); }

void MechanismScene::addActuator(const Component& c) {
  if (c.type.rfind("cylinder_", 0) != 0 || !c.data.is_object() || !c.data.contains("attach")) return;
  if (!c.data["attach"].is_object()) return;
  Actuator act;
  act.id = c.id;
  act.def = c;
  if (!placeActuator(act)) return;
  auto param = [&](const char* n, double def) {
    auto it = c.params.find(n);
    return it == c.params.end() ? def : it->second;
  };
  act.barrelXf = new osg::MatrixTransform;
  act.barrelXf->addChild(
      makeCylinder({0, 0, 0}, {0, 0, 1}, 0.5 * param("bore", 0.032) + kBarrelWall, 1.0, {0.75f, 0.77f, 0.80f, 1}));
  act.rodXf = new osg::MatrixTransform;
  act.rodXf->addChild(makeCylinder({0, 0, 0}, {0, 0, 1}, 0.5 * param("rod", 0.012), 1.0, {0.88f, 0.88f, 0.90f, 1}));
  osg::ref_ptr<osg::Group> g = new osg::Group;
  g->addChild(act.barrelXf);
  g->addChild(act.rodXf);
  addObject(c.id, g.get());
  ++nodesBuilt_;
  mechanism_->addChild(g);
  actuators_.push_back(std::move(act));
  updateActuators();
}

bool MechanismScene::placeActuator(Actuator& act) const {
  const Component& c = act.def;
  const auto& a = c.data["attach"];
  auto param = [&](const char* n, double def) {
    auto it = c.params.find(n);
    return it == c.params.end() ? def : it->second;
  };
  const double stroke = param("stroke", 0.1), x0 = param("x0", 0.0), bore = param("bore", 0.032);
  const double given = param("L_retracted", 0.0);
  // The pins where the model places the parts (a pose of the results shown
  // meanwhile does not change the body's length).
  auto initialWorld = [this](const Anchor& p) { return p.local * parts_[p.part].initial; };
  double d0 = 0;  // pin distance when retracted
  if (a.contains("joint")) {
    // Along a translational joint: x = travel of I along J's z + offset, so
    // the rod pin is I and the barrel pin sits on J's part, d0 + x0 behind
    // where I starts, along J's z.
    const std::string joint = a.value("joint", "");
    auto it = std::find_if(model_.joints.begin(), model_.joints.end(), [&](const JointDef& j) { return j.id == joint; });
    if (it == model_.joints.end()) return false;
    size_t pj = 0;
    const MarkerDef* mj = marker(it->j, &pj);
    if (!mj || !anchorOfMarker(it->i, act.rod)) return false;
    const osg::Vec3d zLocal = osg::Matrixd::transform3x3(osg::Vec3d(0, 0, 1), shownFrame(*mj));
    const osg::Vec3d rodStartLocal = initialWorld(act.rod) * osg::Matrixd::inverse(parts_[pj].initial);
    // No pins to measure: the catalogue length, else the shortest body.
    d0 = given > 0 ? given : stroke + 1.5 * bore;
    act.barrel.part = pj;
    act.barrel.local = rodStartLocal - zLocal * (d0 + x0);
  } else {
    if (!anchorOfMarker(a.value("barrel", ""), act.barrel) || !anchorOfMarker(a.value("rod", ""), act.rod)) return false;
    d0 = std::max(1e-3, (initialWorld(act.rod) - initialWorld(act.barrel)).length() - x0);
  }
  // The body at its size (issue 23: a catalogue choice shows): a barrel of
  // the bore plus its wall, as long as the stroke plus a bore (end caps and
  // piston; CylinderLength's shortest body, stroke + 1.5 bore pin to pin,
  // leaves half a bore for the rod eye). Retracted, the piston sits half a
  // bore from the barrel pin; the rod runs from it to the rod pin, so it
  // stays half a bore inside the barrel at full stroke. Pins closer than
  // the body allows (Check names them) shorten the barrel to fit.
  act.barrelLength = std::max(0.0, std::min(stroke + bore, d0 - 0.25 * bore));
  act.rodLength = std::max(0.0, d0 - 0.5 * bore);
  return true;
}

void MechanismScene::updateActuators() {
  for (Actuator& a : actuators_) {
    const osg::Vec3d pa = anchorWorld(a.barrel), pb = anchorWorld(a.rod);
    osg::Vec3d dir = pb - pa;
    // Markers on one point give no line: draw nothing rather than a unit
    // cylinder at the origin (Check names the markers).
    const bool line = dir.length() >= 1e-12;
    a.barrelXf->setNodeMask(line ? ~0u : 0u);
    a.rodXf->setNodeMask(line ? ~0u : 0u);
    if (!line) continue;
    dir.normalize();
    osg::Quat q;
    q.makeRotate(osg::Vec3d(0, 0, 1), dir);
    // Unit cylinders along +z: scale to length, turn onto the line, place.
    a.barrelXf->setMatrix(osg::Matrixd::scale(1, 1, a.barrelLength) * osg::Matrixd::rotate(q) *
                          osg::Matrixd::translate(pa));
    a.rodXf->setMatrix(osg::Matrixd::scale(1, 1, a.rodLength) * osg::Matrixd::rotate(q) *
                       osg::Matrixd::translate(pb - dir * a.rodLength));
  }
}

void MechanismScene::addSemiRotary(const Component& c) {
  if (c.type != "semi_rotary_actuator" || !c.data.is_object() || !c.data.contains("attach")) return;
  const auto& a = c.data["attach"];
  if (!a.is_object()) return;
  const std::string joint = a.value("joint", "");
  auto it = std::find_if(model_.joints.begin(), model_.joints.end(), [&](const JointDef& j) { return j.id == joint; });
  if (it == model_.joints.end() || it->type != "revolute") return;
  Rotary r;
  r.id = c.id;
  r.i = it->i;
  r.j = it->j;
  const MarkerDef* mi = marker(it->i, &r.indicatorPart);
  const MarkerDef* mj = marker(it->j, &r.housingPart);
  if (!mi || !mj) return;
  // Sized from the joint glyph (radius rg, 3 rg long about the axis): the
  // housing sits behind it along the axis, the indicator on its face.
  const double rg = 0.025 * scale_;
  r.housing = frameNode(shownFrame(*mj));
  r.housing->addChild(makeCylinder({0, 0, -4.6 * rg}, {0, 0, 1}, 2.6 * rg, 3.0 * rg, {0.75f, 0.77f, 0.80f, 1}));
  r.indicator = frameNode(shownFrame(*mi));
  r.indicator->addChild(makeBox({1.3 * rg, 0, -1.45 * rg}, {2.6 * rg, 0.6 * rg, 0.3 * rg}, {0.16f, 0.17f, 0.2f, 1}));
  addObject(c.id, r.housing.get());
  addObject(c.id, r.indicator.get());
  parts_[r.housingPart].xf->addChild(r.housing);
  parts_[r.indicatorPart].xf->addChild(r.indicator);
  nodesBuilt_ += 2;
  rotaries_.push_back(std::move(r));
}

bool MechanismScene::actuatorMatrices(const std::string& id, osg::Matrixd& barrel, osg::Matrixd& rod) const {
  for (const Rotary& r : rotaries_)
    if (r.id == id) {
      barrel = r.housing->getMatrix() * parts_[r.housingPart].xf->getMatrix();
      rod = r.indicator->getMatrix() * parts_[r.indicatorPart].xf->getMatrix();
      return true;
    }
  for (const Actuator& a : actuators_)
    if (a.id == id) {
      barrel = a.barrelXf->getMatrix();
      rod = a.rodXf->getMatrix();
      return true;
    }
  return false;
}

bool MechanismScene::actuatorRadii(const std::string& id, double& barrel, double& rod) const {
  // Half the width of each unit cylinder's drawn vertices (across its axis).
  auto radius = [](const osg::MatrixTransform& xf) {
    osg::ComputeBoundsVisitor cbv;
    for (unsigned i = 0; i < xf.getNumChildren(); ++i) const_cast<osg::Node*>(xf.getChild(i))->accept(cbv);
    const osg::BoundingBox& b = cbv.getBoundingBox();
    return b.valid() ? 0.5 * double(b.xMax() - b.xMin()) : 0.0;
  };
  for (const Actuator& a : actuators_)
    if (a.id == id) {
      barrel = radius(*a.barrelXf);
      rod = radius(*a.rodXf);
      return true;
    }
  return false;
}

void MechanismScene::addEnvironment() {
  const osg::BoundingSphere b = bounds();
  // Work in the "up" frame (z against gravity), then turn the grid into place.
  const osg::Quat down = up_.inverse();
  const osg::Vec3d c = down * (b.valid() ? osg::Vec3d(b.center()) : osg::Vec3d());
  // Grid step: a round number near a tenth of the model size.
  const double raw = scale_ / 10;
  const double p10 = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / p10 < 2 ? p10 : (raw / p10 < 5 ? 2 * p10 : 5 * p10);
  // The grid is the world's z = 0 plane (turned to lie across gravity), so
  // heights read off it are world coordinates.
  const double z = 0.0;
  const double cx = std::round(c.x() / step) * step, cy = std::round(c.y() / step) * step;
  // Redrawn only when it moves (the model grew, sank or turned).
  const std::array<double, 9> key{cx, cy, z, scale_, step, up_.x(), up_.y(), up_.z(), up_.w()};
  if (environment_ && key == gridKey_) return;
  gridKey_ = key;
  const int n = std::max(1, static_cast<int>(std::ceil(0.75 * scale_ / step)));
  grid_ = {osg::Vec3d(cx, cy, z), n * step, step, up_};
  const bool gridOn = !environment_ || environment_->getNumChildren() < 2 || environment_->getValue(1);
  if (environment_) root_->removeChild(environment_);
  environment_ = new osg::Switch;
  environment_->setNodeMask(kDrawMask);
  environment_->addChild(makeBackground({0.78f, 0.83f, 0.90f, 1}, {0.97f, 0.97f, 0.98f, 1}));
  osg::ref_ptr<osg::MatrixTransform> grid = new osg::MatrixTransform(osg::Matrixd::rotate(up_));
  grid->setName("grid");
  grid->addChild(makeGrid(cx, cy, z, 0.75 * scale_, step));
  environment_->addChild(grid, gridOn);
  osg::ref_ptr<osg::Group> axes = new osg::Group;
  axes->setName("worldAxes");
  const double len = worldAxisLength(), rad = 0.006 * scale_;
  axes->addChild(makeArrow({0, 0, 0}, {len, 0, 0}, rad, {0.85f, 0.2f, 0.2f, 1}));
  axes->addChild(makeArrow({0, 0, 0}, {0, len, 0}, rad, {0.2f, 0.7f, 0.25f, 1}));
  axes->addChild(makeArrow({0, 0, 0}, {0, 0, len}, rad, {0.2f, 0.35f, 0.9f, 1}));
  environment_->addChild(axes);
  root_->addChild(environment_);
}

osg::BoundingSphere MechanismScene::bounds() const {
  // The sphere around the box of the drawn vertices: tighter than the union
  // of the children's bounding spheres.
  osg::BoundingSphere b;
  if (mechanism_) {
    osg::ComputeBoundsVisitor cbv;
    mechanism_->accept(cbv);
    const osg::BoundingBox& box = cbv.getBoundingBox();
    if (box.valid()) b = osg::BoundingSphere(box.center(), box.radius());
  }
  if (!b.valid() || b.radius() <= 0) b = osg::BoundingSphere(osg::Vec3(), static_cast<float>(scale_ / 2));
  return b;
}

osg::BoundingSphere MechanismScene::objectBounds(const std::string& id) const {
  osg::Vec3d p;
  if (markerWorld(id, p)) return osg::BoundingSphere(p, static_cast<float>(0.1 * scale_));
  auto it = objects_.find(id);
  if (it == objects_.end()) return {};
  osg::BoundingBox box;
  for (const auto& node : it->second) {
    // The node's drawn vertices in world coordinates: its parents' transforms
    // pushed before it is visited (its own transform applies itself).
    osg::NodePathList paths = node->getParentalNodePaths();
    osg::Matrixd m;
    if (!paths.empty()) {
      paths.front().pop_back();
      m = osg::computeLocalToWorld(paths.front());
    }
    osg::ComputeBoundsVisitor cbv;
    cbv.pushMatrix(m);
    node->accept(cbv);
    if (cbv.getBoundingBox().valid()) box.expandBy(cbv.getBoundingBox());
  }
  if (!box.valid()) return {};
  return osg::BoundingSphere(box.center(), std::max(box.radius(), static_cast<float>(0.02 * scale_)));
}

osg::Matrixd MechanismScene::partMatrix(size_t k) const { return parts_.at(k).xf->getMatrix(); }

void MechanismScene::setPartMatrix(size_t k, const osg::Matrixd& m) { parts_.at(k).xf->setMatrix(m); }

void MechanismScene::resetPose() {
  for (Part& p : parts_) p.xf->setMatrix(p.initial);
  for (size_t k = firstNodePart_; k < parts_.size(); ++k)
    if (osg::StateSet* ss = shapesState(parts_[k]))
      if (osg::Uniform* u = ss->getUniform("pm_tint")) u->set(osg::Vec4());
  beamLines_.colour([](int, osg::Vec4&) { return false; });
  contacts_.hide();
  latches_.hide();
  updateSprings();
}

void MechanismScene::applyPose(const PoseTrack& track, double t) {
  std::vector<osg::Matrixd> world(parts_.size());
  for (size_t k = 0; k < parts_.size(); ++k)
    if (!track.pose(k, t, world[k])) world[k] = parts_[k].initial;
  beamDisplay_.exaggerate(deformationScale_, world);
  for (size_t k = 0; k < parts_.size(); ++k) parts_[k].xf->setMatrix(world[k]);
  growGround(world);
  applyStressColours(t);
  updateSprings();
}

// A pose drawn before the run's fit (a live run) may go below or beside the
// plate: the extent takes that part's corners and the plate is redrawn only
// when the extent left it, so it grows in a few steps and parts never pass
// through it. Most poses are held by the extent and cost one test a part.
void MechanismScene::growGround(const std::vector<osg::Matrixd>& world) {
  bool wider = false;
  for (size_t k = 0; k < parts_.size() && k < partBoxes_.size(); ++k) {
    if (!partBoxes_[k].valid() || ground_.holds(world[k].getTrans(), partReach_[k])) continue;
    for (unsigned c = 0; c < 8; ++c) ground_.include(partBoxes_[k].corner(c) * world[k]);
    wider = true;
  }
  if (wider) ground_.update();
}

void MechanismScene::applyStressColours(double t) {
  beamDisplay_.refresh();
  const double top = beamDisplay_.maxStress();
  for (size_t k = firstNodePart_; k < parts_.size(); ++k) {
    osg::StateSet* ss = shapesState(parts_[k]);
    osg::Uniform* u = ss ? ss->getUniform("pm_tint") : nullptr;
    if (!u) continue;
    double s = 0.0;
    const bool on = stressColours_ && top > 0 && beamDisplay_.nodeStress(k, t, s);
    u->set(on ? stressColor(s / top) : osg::Vec4());
  }
  // The centre line too (drawn over thin sections), in the same colours.
  beamLines_.colour([this](int k, osg::Vec4& c) {
    c = partTint(static_cast<size_t>(k));
    return c.a() > 0;
  });
}

// The stress tint goes on a part's shapes (child 0), not on its triads and glyphs.
osg::StateSet* MechanismScene::shapesState(const Part& p) {
  return p.xf->getNumChildren() > 0 ? p.xf->getChild(0)->getOrCreateStateSet() : nullptr;
}

osg::Vec4 MechanismScene::partTint(size_t k) const {
  osg::Vec4 v;
  if (k >= parts_.size()) return v;
  const osg::StateSet* ss = shapesState(parts_[k]);
  if (const osg::Uniform* u = ss ? ss->getUniform("pm_tint") : nullptr) u->get(v);
  return v;
}

bool MechanismScene::markerWorld(const std::string& ref, osg::Vec3d& p) const {
  size_t k = 0;
  const MarkerDef* mk = marker(ref, &k);
  if (!mk) return false;
  p = shownPosition(*mk) * parts_[k].xf->getMatrix();
  return true;
}

// The triad node of marker `m` on a part's transform (child 1 is the
// switch of its triads, in marker order).
osg::MatrixTransform* MechanismScene::triadNode(const osg::MatrixTransform& part, size_t m) {
  if (part.getNumChildren() < 2) return nullptr;
  const auto* triads = dynamic_cast<const osg::Switch*>(part.getChild(1));
  if (!triads || m >= triads->getNumChildren()) return nullptr;
  return dynamic_cast<osg::MatrixTransform*>(const_cast<osg::Node*>(triads->getChild(unsigned(m))));
}

bool MechanismScene::markerFrame(const std::string& ref, osg::Matrixd& local, size_t* part) const {
  size_t k = 0;
  const MarkerDef* mk = marker(ref, &k);
  if (!mk) return false;
  const auto& markers = model_.parts[k].markers;
  const osg::MatrixTransform* t = triadNode(*parts_[k].xf, size_t(mk - markers.data()));
  local = t ? t->getMatrix() : frameMatrix(mk->position, mk->orientation);
  // Without the triad's enlargement (setMarkerFrame): the frame alone.
  const double s = osg::Vec3d(local(0, 0), local(0, 1), local(0, 2)).length();
  if (s > 0 && std::abs(s - 1.0) > 1e-12)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) local(r, c) /= s;
  if (part) *part = k;
  return true;
}

double MechanismScene::markerTriadLength() const { return kTriadLength * scale_; }

void MechanismScene::updateSprings() {
  updateActuators();
  beamLines_.update([this](int k) { return parts_[static_cast<size_t>(k)].xf->getMatrix().getTrans(); });
  for (Spring& s : springs_) {
    osg::Vec3d a, b;
    if (markerWorld(s.i, a) && markerWorld(s.j, b)) updateHelix(s.helix, a, b);
  }
}

void MechanismScene::setMarkersVisible(bool on) {
  markersVisible_ = on;
  for (auto& s : markerSwitches_) on ? s->setAllChildrenOn() : s->setAllChildrenOff();
}

void MechanismScene::setGridVisible(bool on) {
  if (environment_ && environment_->getNumChildren() > 1) environment_->setValue(1, on);
}

bool MechanismScene::gridVisible() const {
  return environment_ && environment_->getNumChildren() > 1 && environment_->getValue(1);
}

std::string MechanismScene::idOnPath(const osg::NodePath& path) const {
  for (auto it = path.rbegin(); it != path.rend(); ++it)
    if (!(*it)->getName().empty() && objects_.count((*it)->getName())) return (*it)->getName();
  return {};
}

void MechanismScene::highlight(const std::string& id) {
  auto set = [&](const std::string& which, const osg::Vec3f& v) {
    auto it = objects_.find(which);
    if (it == objects_.end()) return;
    for (auto& n : it->second)
      if (osg::Uniform* u = n->getOrCreateStateSet()->getUniform("pm_highlight")) u->set(v);
  };
  set(highlighted_, osg::Vec3f(0, 0, 0));
  highlighted_ = objects_.count(id) ? id : std::string();
  set(highlighted_, kHighlight);
}

}  // namespace pm::gui::scene3d
