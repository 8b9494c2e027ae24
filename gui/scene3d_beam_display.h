// How the 3D view shows the flexible bodies' deformation (issue #22): the
// deformation exaggerated by a scale factor, and the sections coloured by
// the outer-fibre stress of the run (or of a mode being animated).
//
// Exaggeration: each beam's rigid reference is its root node's frame (the
// beam's floating frame, clamped at the root, as the tip deflection
// channels measure it). Node j is drawn at r_j + s (p_j - r_j), where r_j is
// its undeformed place carried by the root frame, and turned by s times its
// turn relative to the root's axes. A part welded to a node (a fixed joint:
// a gripper, a payload) moves with its node as drawn.
//
// Stress: node j's section takes the stress the run wrote for the section
// at node j ("<beam>_e<j>.stress", the outer-fibre normal stress of
// element j at its root end); the tip node takes the last element's.
#pragma once

#include "model/mechanism.h"

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
  };
  struct Weld {
    int part = -1, node = -1;  // scene part indices
  };
  std::vector<Beam> beams_;
  std::vector<Weld> welds_;
  // Per scene part index: its stress column among cols_ (-1: none).
  std::vector<int> column_;
  std::vector<std::string> names_;  // stress channel per column
  const ResultStore* store_ = nullptr;
  std::vector<int> storeColumn_;  // per column: the store's channel (-1 absent)
  size_t channelCount_ = 0;
  std::vector<double> t_;
  std::vector<std::vector<double>> cols_;
  double max_ = 0.0;
};

}  // namespace pm::gui::scene3d
