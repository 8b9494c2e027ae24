#include "scene3d_flexible.h"

#include "flexible_body_editing.h"
#include "scene3d_shapes.h"

#include <osg/Geode>
#include <osg/LineWidth>
#include <osg/StateSet>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pm::gui::scene3d {

namespace {

constexpr const char* kBeamColor = "#4f7fb8";
const osg::Vec4 kLineColor(0.95f, 0.35f, 0.1f, 1.0f);

std::string nodePartId(const std::string& beam, int j) { return beam + "_n" + std::to_string(j); }

}  // namespace

std::vector<PartDef> flexibleNodeParts(const Mechanism& m) {
  std::vector<PartDef> out;
  for (const FlexibleBodyDef& d : m.flexible_bodies) {
    const int n = std::max(1, d.elements);
    const double l = d.length / n;
    const auto [hy, bz] = beamSectionSize(d);
    const osg::Matrixd root = frameMatrix(d.position, d.orientation);
    for (int j = 0; j <= n; ++j) {
      PartDef p;
      p.id = nodePartId(d.id, j);
      const osg::Vec3d at = osg::Vec3d(j * l, 0, 0) * root;
      p.position = {at.x(), at.y(), at.z()};
      p.orientation = d.orientation;
      p.mass = 1.0;
      // The node's share: half an element at either end (centred on the node).
      Geometry g;
      g.shape = "box";
      g.size = {{"lx", (j == 0 || j == n) ? 0.5 * l : l}, {"ly", hy}, {"lz", bz}};
      g.color = kBeamColor;
      p.geometry.push_back(g);
      for (const BeamMarkerDef& mk : d.markers)
        if (mk.node == j) p.markers.push_back({mk.id, mk.position, mk.orientation});
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::string nodeMarkerRef(const Mechanism& m, const std::string& ref) {
  const size_t dot = ref.find('.');
  if (dot == std::string::npos) return ref;
  const FlexibleBodyDef* d = m.flexibleBody(ref.substr(0, dot));
  if (!d) return ref;
  const std::string marker = ref.substr(dot + 1);
  for (const BeamMarkerDef& mk : d->markers)
    if (mk.id == marker) return nodePartId(d->id, mk.node) + "." + marker;
  return ref;
}

std::string beamOfNodePart(const Mechanism& m, const std::string& partId) {
  for (const FlexibleBodyDef& d : m.flexible_bodies) {
    const std::string stem = d.id + "_n";
    if (partId.size() > stem.size() && partId.compare(0, stem.size(), stem) == 0 &&
        std::all_of(partId.begin() + static_cast<long>(stem.size()), partId.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return d.id;
  }
  return {};
}

osg::ref_ptr<osg::Group> CentreLines::build(const Mechanism& m, const std::function<int(const std::string&)>& partIndex) {
  lines_.clear();
  osg::ref_ptr<osg::Group> group = new osg::Group;
  for (const FlexibleBodyDef& d : m.flexible_bodies) {
    Line line;
    line.beam = d.id;
    for (int j = 0; j <= std::max(1, d.elements); ++j) line.parts.push_back(partIndex(nodePartId(d.id, j)));
    if (std::find(line.parts.begin(), line.parts.end(), -1) != line.parts.end()) continue;
    line.points.resize(line.parts.size());
    line.geometry = new osg::Geometry;
    line.geometry->setDataVariance(osg::Object::DYNAMIC);
    line.geometry->setUseDisplayList(false);
    line.geometry->setUseVertexBufferObjects(true);
    line.geometry->setVertexArray(new osg::Vec3Array(static_cast<unsigned>(line.parts.size())));
    auto* colors = new osg::Vec4Array;
    colors->push_back(kLineColor);
    line.geometry->setColorArray(colors, osg::Array::BIND_OVERALL);
    line.geometry->addPrimitiveSet(new osg::DrawArrays(GL_LINE_STRIP, 0, static_cast<int>(line.parts.size())));
    osg::StateSet* ss = line.geometry->getOrCreateStateSet();
    ss->setAttributeAndModes(new osg::LineWidth(3.0f));
    applyUnlitState(ss);
    // Drawn over the sections, so the bending shows through them.
    ss->setMode(GL_DEPTH_TEST, osg::StateAttribute::OFF);
    ss->setRenderBinDetails(20, "RenderBin");
    osg::ref_ptr<osg::Geode> geode = new osg::Geode;
    geode->addDrawable(line.geometry);
    group->addChild(geode);
    lines_.push_back(std::move(line));
  }
  return group;
}

void CentreLines::colour(const std::function<bool(int, osg::Vec4&)>& tint) {
  for (Line& line : lines_) {
    osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array(static_cast<unsigned>(line.parts.size()));
    bool all = true;
    for (size_t j = 0; j < line.parts.size() && all; ++j) all = tint(line.parts[j], (*c)[static_cast<unsigned>(j)]);
    if (all) {
      line.geometry->setColorArray(c, osg::Array::BIND_PER_VERTEX);
    } else {
      osg::ref_ptr<osg::Vec4Array> one = new osg::Vec4Array;
      one->push_back(kLineColor);
      line.geometry->setColorArray(one, osg::Array::BIND_OVERALL);
    }
  }
}

void CentreLines::update(const std::function<osg::Vec3d(int)>& world) {
  for (Line& line : lines_) {
    auto* v = static_cast<osg::Vec3Array*>(line.geometry->getVertexArray());
    for (size_t j = 0; j < line.parts.size(); ++j) {
      line.points[j] = world(line.parts[j]);
      (*v)[j] = line.points[j];
    }
    v->dirty();
    line.geometry->dirtyBound();
  }
}

}  // namespace pm::gui::scene3d
