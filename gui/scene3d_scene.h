// The OpenSceneGraph scene of a project's mechanism (STYLE 9: the view binds
// to the parts' display descriptors). One transform per part, moved from
// result channels "<part>.x/.y/.z/.roll/.pitch/.yaw"; joint glyphs and marker
// triads ride on their part; springs are helices rebuilt between their
// markers. Every selectable object is a node named with its model id.
#pragma once

#include "model/project.h"
#include "scene3d_beam_display.h"
#include "scene3d_channel_track.h"
#include "scene3d_contacts.h"
#include "scene3d_flexible.h"
#include "scene3d_latches.h"
#include "scene3d_ground.h"
#include "scene3d_shapes.h"

#include <osg/BoundingSphere>
#include <osg/Group>
#include <osg/MatrixTransform>
#include <osg/NodeVisitor>
#include <osg/Switch>

#include <array>
#include <map>
#include <string>
#include <vector>

namespace pm {
class ResultStore;
}

namespace pm::gui::scene3d {

// A local copy of the pose channels of a ResultStore, refreshed
// incrementally while a run appends rows; poses between rows are
// interpolated (position linearly, orientation by slerp).
class PoseTrack {
 public:
  void setStore(const ResultStore* store, const std::vector<std::string>& parts);
  // Pulls rows appended since the last call; true when something changed.
  bool refresh();
  size_t rows() const { return track_.rows(); }
  double startTime() const { return rows() == 0 ? 0.0 : track_.times().front(); }
  double endTime() const { return rows() == 0 ? 0.0 : track_.times().back(); }
  // World matrix of part `k` (index into `parts`) at time t; false when the
  // store has no channels for it.
  bool pose(size_t k, double t, osg::Matrixd& m) const;
  // Row `row`'s time and part k's world matrix there.
  double time(size_t row) const { return track_.times()[row]; }
  bool rowPose(size_t k, size_t row, osg::Matrixd& m) const;
  // Part k's origin at row `row` (the translation of rowPose's matrix).
  bool rowPosition(size_t k, size_t row, osg::Vec3d& p) const;

 private:
  bool complete(size_t k) const;  // every pose channel of part k, every row
  osg::Matrixd rowMatrix(size_t k, size_t row) const;
  std::vector<std::string> parts_;
  ChannelTrack track_;  // per part (in parts_' order) x, y, z and its three angles
};

class MechanismScene {
 public:
  MechanismScene();

  // Brings the scene to `project`. Nodes of objects whose definition (and
  // what their drawing depends on) did not change are kept, with their GL
  // objects: editing one object of a large model rebuilds only its nodes.
  // Everything is rebuilt when the mesh folder changes or the model's size
  // crosses a step of its characteristic length (glyph sizes follow it).
  // `projectDir` resolves mesh files.
  void build(const Project& project, const std::string& projectDir = {});
  // Object nodes (part shapes, marker triads, joint glyphs, springs,
  // actuators) created by the last build() — the rest were kept.
  int nodesBuilt() const { return nodesBuilt_; }
  osg::Group* root() const { return root_.get(); }
  // Bounds of the mechanism alone (no grid, no background).
  osg::BoundingSphere bounds() const;
  // World bounds of one object as drawn (a marker "<part>.<marker>": a small
  // sphere around it); invalid for an unknown id.
  osg::BoundingSphere objectBounds(const std::string& id) const;
  // The ground grid: centre (in the up frame, z = 0), half extent, line
  // step, and the rotation taking it to the world (upRotation()).
  struct Grid {
    osg::Vec3d center;
    double half = 0, step = 0;
    osg::Quat up;
  };
  const Grid& grid() const { return grid_; }
  // Length of the world axes' arrows at the origin.
  double worldAxisLength() const { return 0.15 * scale_; }
  double characteristicLength() const { return scale_; }

  // The user's parts, then the node parts of flexible bodies ("<beam>_n<j>",
  // scene3d_flexible.h): the ids whose pose channels move the drawing.
  const std::vector<std::string>& partIds() const { return partIds_; }
  // How many of partIds() are the user's (the rest are beam nodes).
  size_t userParts() const { return firstNodePart_; }
  // Flexible body b's centre line (node origins, world) as drawn.
  const std::vector<osg::Vec3d>& beamLine(size_t b) const { return beamLines_.points(b); }
  // World matrix of part k as drawn.
  osg::Matrixd partMatrix(size_t k) const;
  void setPartMatrix(size_t k, const osg::Matrixd& m);
  // The machine base under the mechanism: under its initial pose as built
  // and, once fitGround() was given results, under every pose of them.
  const GroundPlate& ground() const { return ground_; }
  // Lays the base under the initial pose and every row of `track`: once a
  // run's rows are all there, or the model changed (build() lays it under
  // the initial pose alone), not on each pose drawn. How many times it did.
  // Between fits, applyPose() only widens and lowers the plate when a pose
  // leaves it (a live run going below its start), never shrinks it.
  void fitGround(const PoseTrack& track);
  int groundFits() const { return groundFits_; }
  // Resets to the initial pose of the model.
  void resetPose();
  // Moves every part to time t of `track` (parts without channels keep their
  // initial pose) and stretches the springs.
  void applyPose(const PoseTrack& track, double t);
  void updateSprings();

  // Flexible bodies as drawn (scene3d_beam_display.h): the deformation
  // exaggerated `scale` times (1: as computed), and the sections coloured by
  // stress, read from `store` (the one the pose track reads) at the pose's
  // time. Both take effect at the next applyPose().
  bool hasBeams() const { return beamDisplay_.beams() > 0; }
  void setDeformationScale(double scale) { deformationScale_ = scale; }
  double deformationScale() const { return deformationScale_; }
  void setStressColours(bool on) { stressColours_ = on; }
  bool stressColours() const { return stressColours_; }
  void setStressStore(const ResultStore* store) { beamDisplay_.setStore(store); }
  // The colour scale's top: the largest stress of the results [Pa].
  double maxStress() const { return beamDisplay_.maxStress(); }
  // The stress colour part k is drawn with (alpha 0: its own colours).
  osg::Vec4 partTint(size_t k) const;

  void setMarkersVisible(bool on);
  bool markersVisible() const { return markersVisible_; }
  void setGridVisible(bool on);
  bool gridVisible() const;

  // The id of the innermost selectable object on a node path ("" if none).
  std::string idOnPath(const osg::NodePath& path) const;
  // Highlights one object (parts, markers "<part>.<marker>", joints,
  // forces); "" clears.
  void highlight(const std::string& id);
  const std::string& highlighted() const { return highlighted_; }
  // World position of a part's marker "<part>.<marker>" as drawn.
  bool markerWorld(const std::string& ref, osg::Vec3d& p) const;
  // The frame of a marker's triad in its part's frame as drawn, and the
  // index of its part.
  bool markerFrame(const std::string& ref, osg::Matrixd& local, size_t* part = nullptr) const;
  // A gizmo drag's live preview (scene3d_marker_preview.cpp): marker `ref`
  // drawn at `local` (its frame in its part's), its triad `enlarge` times
  // its size, and what hangs on it with it: the glyphs of joints on it, the
  // springs and cylinders attached to it (their pins and drawn lengths as
  // a rebuild would make them), its part's shapes placed at it or drawn to
  // it (links), the contact shapes and latch glyphs at it. Node transforms
  // only, nothing rebuilt; the
  // model stays as built. endMarkerPreview() draws them from the model
  // again (build() ends a preview too).
  bool previewMarker(const std::string& ref, const osg::Matrixd& local, double enlarge = 1.0);
  void endMarkerPreview();
  // The length of a marker triad's axes [m].
  double markerTriadLength() const;
  bool hasObject(const std::string& id) const { return objects_.count(id) > 0; }
  // Rotation taking +z to "up" (against gravity): the grid lies under the
  // model and the standard views stand upright whichever way gravity points.
  const osg::Quat& upRotation() const { return up_; }
  const Mechanism& model() const { return model_; }
  // World matrices of a cylinder's barrel and rod nodes as drawn: unit
  // cylinders along local +z from the origin, scaled to their lengths (the
  // barrel starts at its pin, the rod ends at its pin, local z = 1). For a
  // semi-rotary actuator: its housing (J's frame) and its indicator (I's
  // frame: the indicator points along local +x, the axis is local z).
  bool actuatorMatrices(const std::string& id, osg::Matrixd& barrel, osg::Matrixd& rod) const;
  // The outer radii of a cylinder's barrel and rod as drawn (their
  // geometry's width across the axis); false for anything else.
  bool actuatorRadii(const std::string& id, double& barrel, double& rod) const;
  // World frames of part `part`'s shape g as drawn (g: its entry in the
  // part's geometry, or for a part without geometry the bar to its marker
  // g + 1): a solid's frame twice, or a link's two ends (origin at the end,
  // x along the bar, z through its thickness). False if g is not drawn.
  bool shapeFrames(const std::string& part, size_t g, osg::Matrixd& a, osg::Matrixd& b) const;
  // The contact pairs' shapes and force arrows (scene3d_contacts.h).
  ContactLayer& contacts() { return contacts_; }
  const ContactLayer& contacts() const { return contacts_; }
  // The latches' glyphs and their engaged state (scene3d_latches.h).
  LatchLayer& latches() { return latches_; }
  const LatchLayer& latches() const { return latches_; }

 private:
  ContactLayer contacts_;
  LatchLayer latches_;
  GroundPlate ground_;
  std::vector<osg::BoundingBoxd> partBoxes_;  // each part's drawing in its own frame
  std::vector<double> partReach_;             // the farthest corner of its box from the part's origin
  int groundFits_ = 0;
  void growGround(const std::vector<osg::Matrixd>& world);
  void placeGround();
  // A shape of a part placed from its markers (ids on the part; none or
  // an unknown one: the part's frame): a solid in marker a's frame, or a
  // link from a to b whose thickness lies along a's z (`partNormal`: the
  // part's z, for the bars drawn between the markers of a part without
  // geometry). Placed by transforms alone (placeShapes).
  struct PartShape {
    std::string a, b;
    osg::ref_ptr<osg::MatrixTransform> placed;  // a solid (null: a link, or nothing drawn)
    Link link;                                  // a link (null node: a solid)
    bool partNormal = false;
  };
  // A part's transform holds its shapes and marker triads (children 0 and
  // 1), then the glyphs of the joints and actuators riding on it.
  struct Part {
    std::string id;
    osg::ref_ptr<osg::MatrixTransform> xf;
    osg::Matrixd initial;
    PartDef def;          // what the shapes and triads were drawn from
    osg::Vec4 fallback;   // colour of shapes without one (palette by index)
    // Per entry of def.geometry (in its order), then the bars of a part without geometry.
    std::vector<PartShape> shapes;
  };
  struct Spring {
    std::string id;
    std::string i, j;
    Helix helix;
    ForceDef def;
    osg::ref_ptr<osg::Node> node;
  };
  // The glyph nodes of one joint, each on the part (by id) it rides on, and
  // what they were drawn from.
  struct JointGlyphs {
    JointDef def;
    MarkerDef mi, mj;
    std::vector<std::pair<std::string, osg::ref_ptr<osg::Node>>> nodes;
    std::vector<std::string> markers;  // the marker each node sits on
  };
  // A pneumatic cylinder: a barrel from its pin and a rod from its pin that
  // slides out of it, both re-placed at every pose. The pins are points
  // fixed on parts: the two markers of data.attach = {barrel, rod}, or for
  // data.attach.joint the joint's I marker (rod) and a point behind it on
  // J's part along J's z-axis (barrel).
  struct Anchor {
    size_t part = 0;
    osg::Vec3d local;  // in the part frame
  };
  struct Actuator {
    std::string id;
    Component def;  // what its pins and lengths are placed from
    Anchor barrel, rod;
    double barrelLength = 0, rodLength = 0;
    osg::ref_ptr<osg::MatrixTransform> barrelXf, rodXf;
  };
  // A semi-rotary actuator on a revolute joint: a housing fixed on J's part
  // around the joint axis, and an indicator on I's part that turns with the
  // joint angle.
  struct Rotary {
    std::string id;
    std::string i, j;  // the joint's markers: indicator, housing
    size_t housingPart = 0, indicatorPart = 0;
    osg::ref_ptr<osg::MatrixTransform> housing, indicator;
  };
  std::vector<Rotary> rotaries_;
  void addSemiRotary(const Component& c);
  bool anchorOfMarker(const std::string& ref, Anchor& a) const;
  osg::Vec3d anchorWorld(const Anchor& a) const;
  void addActuator(const Component& c);
  // Pins and lengths from the markers as shown, the parts at their initial poses.
  bool placeActuator(Actuator& act) const;
  void updateActuators();
  std::vector<Actuator> actuators_;
  void addPart(const PartDef& def, int index, const std::string& projectDir);
  void addJoint(const JointDef& def);
  void addSpring(const ForceDef& def);
  Part* partById(const std::string& id);
  void clearCaches();
  void addEnvironment();
  void addObject(const std::string& id, osg::Node* node);
  const MarkerDef* marker(const std::string& ref, size_t* partIndex = nullptr) const;
  // A marker's frame in its part's, position alone, as shown: the
  // preview's for the previewed marker, else the model's.
  osg::Matrixd shownFrame(const MarkerDef& mk) const;
  osg::Vec3d shownPosition(const MarkerDef& mk) const { return shownFrame(mk).getTrans(); }
  // The joint glyphs and semi-rotary nodes sitting on marker `mk`, placed at its shown frame.
  void placeGlyphsOn(const MarkerDef* mk);
  // Part p's shapes placed at its markers' shown frames (`def`: p's entry of model_).
  void placeShapes(Part& p, const PartDef& def) const;
  static osg::MatrixTransform* triadNode(const osg::MatrixTransform& part, size_t m);
  const MarkerDef* previewed_ = nullptr;  // the marker a gizmo drag previews (a model_ entry)
  size_t previewPart_ = 0;                // its part's index
  osg::Matrixd previewFrame_;

  // Node parts (from index firstNodePart_ on) answer to their beam's id.
  void adoptNodeParts();
  size_t firstNodePart_ = 0;
  CentreLines beamLines_;
  BeamDisplay beamDisplay_;
  double deformationScale_ = 1.0;
  bool stressColours_ = false;
  void applyStressColours(double t);
  static osg::StateSet* shapesState(const Part& p);

  Mechanism model_;  // the project's, with the node parts of flexible bodies appended
  osg::ref_ptr<osg::Group> root_;
  osg::ref_ptr<osg::Group> mechanism_;
  osg::ref_ptr<osg::Switch> environment_;
  std::vector<Part> parts_;
  std::map<std::string, JointGlyphs> joints_;
  std::string projectDir_;
  int nodesBuilt_ = 0;
  // The grid's placement (centre, height, extent, step, up) last drawn.
  std::array<double, 9> gridKey_{};
  std::vector<std::string> partIds_;
  std::vector<Spring> springs_;
  std::vector<osg::ref_ptr<osg::Switch>> markerSwitches_;
  // id -> its pickable nodes (a translational joint has a rail and a collar)
  std::map<std::string, std::vector<osg::ref_ptr<osg::Node>>> objects_;
  std::string highlighted_;
  double scale_ = 0.1;  // characteristic length of the model [m]
  osg::Quat up_;
  Grid grid_;
  bool markersVisible_ = true;  // markers drawn while building (issue 28)
};

}  // namespace pm::gui::scene3d
