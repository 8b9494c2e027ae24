// Latches in the 3D view (issue 27): each latch drawn as a clamp glyph at
// both its markers (two small wedges meeting tip to tip along the marker's
// z-axis, riding on the marker's part), selectable as the latch, and
// coloured by its state: amber while released, green while engaged. During
// playback the state is the result channel "<id>.engaged" at the row at or
// before the time shown (it changes at events: no interpolation); without
// results, the state at the start (params.engaged). A marker of a flexible
// body rides on its node part, so its glyph follows the node's deformed
// pose (as drawn: with the view's deformation scale).
#pragma once

#include "model/mechanism.h"
#include "scene3d_channel_track.h"

#include <osg/Group>
#include <osg/MatrixTransform>
#include <osg/Switch>
#include <osg/Vec4>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace pm {
class ResultStore;
}

namespace pm::gui::scene3d {

class LatchLayer {
 public:
  // The transform of a part by id (null if not drawn).
  using PartTransform = std::function<osg::MatrixTransform*(const std::string& part)>;
  // Registers a selectable node under an object id (MechanismScene::addObject).
  using AddObject = std::function<void(const std::string& id, osg::Node* node)>;
  // Draws the latches of `m` on their parts; `scale`: the model's
  // characteristic length [m] (the glyphs' size follows it).
  void build(const Mechanism& m, double scale, const PartTransform& partXf, const AddObject& addObject);
  // The channels the states are read from (null: the state at the start).
  void setStore(const ResultStore* store);
  // Pulls rows appended since the last call; true when something changed.
  bool refresh();
  // Shows each latch's state at time t.
  void apply(double t);
  // The state at the start (no results, the initial pose).
  void hide();

  // Whether latch `id` is drawn engaged; false for an unknown id.
  bool engaged(const std::string& id) const;
  // Glyph nodes drawn by the last build() (two per latch whose markers are drawn).
  int glyphsDrawn() const { return glyphs_; }
  // Where latch `id`'s glyphs are drawn now (world; I's first): their markers' origins.
  std::vector<osg::Vec3d> glyphOrigins(const std::string& id) const;
  // The glyphs at marker `mk` (an entry of the Mechanism built from) drawn
  // at `local` (its frame in its part's): a marker dragged with the gizmo.
  void placeOn(const MarkerDef* mk, const osg::Matrixd& local);
  static osg::Vec4 releasedColor();
  static osg::Vec4 engagedColor();

 private:
  struct Latch {
    std::string id;
    bool atStart = false;
    bool engaged = false;
    std::vector<osg::ref_ptr<osg::Switch>> glyphs;  // child 0 released, 1 engaged
  };
  void show(Latch& l, bool engaged);
  std::vector<Latch> latches_;
  std::vector<std::pair<const MarkerDef*, osg::ref_ptr<osg::MatrixTransform>>> atMarkers_;
  ChannelTrack track_;  // "<latch>.engaged" per latch, in latches_' order
  int glyphs_ = 0;
};

}  // namespace pm::gui::scene3d
