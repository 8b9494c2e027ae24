// Contact pairs in the 3D view (issue 27): each pair's two shapes drawn as
// wireframes on their parts at their markers, and during playback one arrow
// per pair from its contact point along the normal (the force on j's part),
// its length proportional to the normal force, hidden while out of contact.
// The arrows read the pair channels "<id>.normal_force", ".point_x/_y/_z"
// and ".normal_x/_y/_z" of a ResultStore.
#pragma once

#include "model/mechanism.h"
#include "scene3d_channel_track.h"

#include <osg/Group>
#include <osg/MatrixTransform>
#include <osg/Vec3d>

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace pm {
class ResultStore;
}

namespace pm::gui::scene3d {

class ContactLayer {
 public:
  // The transform of a part by id (null if not drawn).
  using PartTransform = std::function<osg::MatrixTransform*(const std::string& part)>;
  // Registers a node under an object id, for highlighting (MechanismScene::addObject).
  using AddObject = std::function<void(const std::string& id, osg::Node* node)>;
  // Draws the pairs of `m`: shapes under their parts' transforms (each
  // registered under the pair's id: selecting the pair highlights them; the
  // parts under them stay the ones picked), arrows under `world`. `scale`:
  // the model's characteristic length [m].
  void build(const Mechanism& m, double scale, const PartTransform& partXf, osg::Group* world,
             const AddObject& addObject = {});
  // The channels the arrows read (null: arrows hidden).
  void setStore(const ResultStore* store);
  // Pulls rows appended since the last call; true when something changed.
  bool refresh();
  // Places the arrows at time t (interpolated between rows).
  void apply(double t);
  // Hides every arrow (the initial pose, no results).
  void hide();

  // An arrow as drawn: shown, its base (the contact point) and its vector
  // (length = normal force x metresPerNewton()).
  struct Arrow {
    bool visible = false;
    osg::Vec3d base, vector;
  };
  Arrow arrow(const std::string& pair) const;
  // Arrow length per newton: a quarter of the model's length for the
  // largest normal force of the rows so far.
  double metresPerNewton() const;
  // Shape nodes drawn by the last build().
  int shapesDrawn() const { return shapes_; }
  // The shapes at marker `mk` (an entry of the Mechanism built from) drawn
  // at `local` (its frame in its part's): a marker dragged with the gizmo.
  void placeOn(const MarkerDef* mk, const osg::Matrixd& local);
  // The frame pair `id`'s shape on side i (else j) is drawn at, in its part's frame.
  bool shapeFrame(const std::string& id, bool iSide, osg::Matrixd& local) const;

 private:
  struct Pair {
    std::string id;
    osg::ref_ptr<osg::MatrixTransform> arrow;  // a unit arrow along +z, placed by apply()
    Arrow drawn;
  };
  // A shape's transform on its part, at its marker.
  struct AtMarker {
    std::string pair;
    bool iSide = true;
    const MarkerDef* marker = nullptr;
    osg::ref_ptr<osg::MatrixTransform> at;
  };
  std::vector<AtMarker> atMarkers_;
  // The largest normal force so far, from the rows the last refresh brought.
  void updateMaxForce();
  std::vector<Pair> pairs_;
  // Per pair (in pairs_' order) 7 channels: F, point xyz, normal xyz.
  ChannelTrack track_;
  double scale_ = 0.1;
  double maxForce_ = 0.0;
  int shapes_ = 0;
};

}  // namespace pm::gui::scene3d
