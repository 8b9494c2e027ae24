// How the 3D view shows the flexible bodies' deformation (issue #22): the
// deformation exaggerated by a scale factor, and the sections coloured by
// the outer-fibre stress of the run (or of a mode being animated).
//
// Exaggeration: each beam's deformation is measured in its floating frame
// of reference as the finite-element model defines one (decision 0017,
// core/mechanics/beam/flexible_beam.h): the frame takes the six rigid
// motions, so that the rest is the elastic deflection.
//  - By default the root is clamped in the frame: the root node's frame
//    (a cantilever on a hub, the tip deflection channels' frame).
//  - A beam held by joints at two or more nodes and not clamped at its
//    root (pinned at both ends, on two supports): the frame
//    in which the outermost two of those nodes, `from` and `to`, stay on
//    the x axis (v = w = 0 there, as the model fixes a pinned end): origin
//    and twist from node `from`, x along the chord from it to node `to`.
//    A node is held by a joint to a body that reaches the ground without
//    passing through the beam (model/ground_paths.h): the ground, a
//    bracket fixed to it, a crank; not a payload hanging on the beam.
// Node j is drawn at r_j + s (p_j - r_j), r_j being its undeformed place
// x_j along the frame's x, and turned by s times its turn relative to the
// frame's axes. So the supports stay where they are and the factor scales
// the elastic deflection alone. A part welded to a node (a fixed joint:
// a gripper, a payload) moves with its node as drawn.
//
// Stress: node j's section takes the stress the run wrote for the section
// at node j ("<beam>_e<j>.stress", the outer-fibre normal stress of
// element j at its root end); the tip node takes the last element's.
#pragma once

#include "model/mechanism.h"
#include "scene3d_channel_track.h"

#include <osg/Matrixd>
#include <osg/Vec4>

#include <functional>
#include <string>
#include <vector>

namespace pm {
class ResultStore;
}

namespace pm::gui::scene3d {

// A colour for a fraction of the stress range: blue (0), cyan, green,
// yellow, red (1).
osg::Vec4 stressColor(double fraction);

class BeamDisplay {
 public:
  // The beams of `m` (the scene's model, node parts appended); `partIndex`
  // gives the index of a part among the scene's parts (-1 when absent).
  void build(const Mechanism& m, const std::function<int(const std::string&)>& partIndex);
  size_t beams() const { return beams_.size(); }
  // The node parts' matrices in `world` (by scene part index) exaggerated
  // `scale` times, and the welded parts moved with them.
  void exaggerate(double scale, std::vector<osg::Matrixd>& world) const;

  // The stress channels of `store` (read, never owned), copied as rows come.
  void setStore(const ResultStore* store);
  void refresh();
  // Node part k's stress at time t [Pa] (linear between rows); false when
  // k is no beam node or the store has no stress for it.
  bool nodeStress(size_t k, double t, double& stress) const;
  // The largest stress of every beam over every row copied [Pa] (0: none).
  double maxStress() const { return max_; }

 private:
  struct Beam {
    std::vector<int> parts;  // node parts, root first
    double elementLength = 0.0;
    // The reference frame: node `from`'s, its x through node `to` (-1: node from's own axes).
    int from = 0, to = -1;
  };
  static void placeFrame(const Mechanism& m, const FlexibleBodyDef& d, Beam& b);
  // Beam b's reference frame (local -> world, row vectors) with its nodes drawn as in `drawn`.
  static osg::Matrixd referenceFrame(const Beam& b, const std::vector<osg::Matrixd>& drawn);
  struct Weld {
    int part = -1, node = -1;  // scene part indices
  };
  std::vector<Beam> beams_;
  std::vector<Weld> welds_;
  // The largest stress so far, from the rows the last refresh brought.
  void updateMax();
  // Per scene part index: its stress column among names_ (-1: none).
  std::vector<int> column_;
  std::vector<std::string> names_;  // stress channel per column
  ChannelTrack track_;              // names_' channels
  double max_ = 0.0;
};

}  // namespace pm::gui::scene3d
