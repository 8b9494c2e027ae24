// Flexible bodies in the 3D view (issue #22). The engine runs a beam as node
// bodies "<beam>_n<j>" (decision 0017) whose pose channels it writes like a
// part's, so the view draws each node as a drawing-only part of that name
// carrying its share of the beam's section, and the beam's deformed centre
// line as a line strip through the node origins, re-placed at every pose:
// the beam bends in playback exactly as the run bent it. Picking a node's
// section selects the beam; its markers are "<beam>.<marker>" as in the file.
#pragma once

#include "model/mechanism.h"

#include <osg/Geometry>
#include <osg/Group>
#include <osg/Vec3d>

#include <functional>
#include <string>
#include <vector>

namespace pm::gui::scene3d {

// The node parts of every flexible body, in beam and node order: pose at the
// undeformed node, a section box of the node's share of the beam, and the
// beam's markers on that node.
std::vector<PartDef> flexibleNodeParts(const Mechanism& m);
// "<beam>.<marker>" -> "<beam>_n<j>.<marker>"; other references unchanged.
std::string nodeMarkerRef(const Mechanism& m, const std::string& ref);
// The beam a node part ("<beam>_n<j>") belongs to, "" for any other id.
std::string beamOfNodePart(const Mechanism& m, const std::string& partId);

// The centre lines of the beams: one line strip per beam through the world
// positions of its node parts.
class CentreLines {
 public:
  // `partIndex` gives the index of a node part among the scene's parts.
  osg::ref_ptr<osg::Group> build(const Mechanism& m, const std::function<int(const std::string&)>& partIndex);
  // `world(k)`: part k's origin in the world as drawn.
  void update(const std::function<osg::Vec3d(int)>& world);
  // Colours the lines per node by `tint(part, colour)` (false for a node:
  // that line takes its one orange colour again).
  void colour(const std::function<bool(int, osg::Vec4&)>& tint);
  // Beam b's node positions as last drawn (world).
  const std::vector<osg::Vec3d>& points(size_t b) const { return lines_.at(b).points; }
  size_t size() const { return lines_.size(); }

 private:
  struct Line {
    std::string beam;
    std::vector<int> parts;
    std::vector<osg::Vec3d> points;
    osg::ref_ptr<osg::Geometry> geometry;
  };
  std::vector<Line> lines_;
};

}  // namespace pm::gui::scene3d
