// MechanismView's state, shared by its source files (mechanism_view.cpp,
// mechanism_view_gizmo.cpp). Private to the view.
#pragma once

#include "mechanism_view.h"
#include "part_drag.h"
#include "scene3d_scene.h"
#include "transform_gizmo.h"

#include <QElapsedTimer>
#include <QTimer>

#include <osgGA/TrackballManipulator>
#include <osgViewer/Viewer>

namespace pm::gui {

struct MechanismView::Impl {
  scene3d::MechanismScene scene;
  scene3d::PoseTrack track;
  const ResultStore* results = nullptr;
  bool complete = false;  // every row of `results` is there: the ground lies under them
  void fitGround() {
    track.refresh();
    if (complete && track.rows() > 0) scene.fitGround(track);
  }
  double time = 0.0;
  bool orthographic = false;
  bool built = false;
  osg::ref_ptr<osgViewer::Viewer> viewer;
  osg::ref_ptr<osgViewer::GraphicsWindowEmbedded> window;
  osg::ref_ptr<osgGA::TrackballManipulator> manipulator;
  QString selected;
  QPoint pressPos;
  bool pressed = false;
  double frameMs = 0.0;
  // setPoseInterval: the least time between two poses drawn [ms] (0: none),
  // when the last was drawn, and the timer that draws a pose held back.
  int poseInterval = 0;
  QElapsedTimer lastPose;
  QTimer poseTimer;
  quint64 frames = 0;
  quint64 poses = 0;
  bool fitPending = true;
  osg::Vec3d viewDir{0.55, -1.0, 0.65};  // centre -> eye
  osg::Quat appliedUp;                    // the scene's up rotation the view directions follow
  osg::Vec3d viewUp{0, 0, 1};
  bool follow = false;
  QString hovered;       // marker under the cursor (labelled)
  bool picking = false;  // marker-pick mode
  bool surfacePicking = false;  // with picking: a part surface, not a marker
  bool pickParts = false;       // with picking: a click on a part away from its markers picks the part
  const QObject* pickOwner = nullptr;
  PartDrag drag;
  // The move/rotate gizmo (mechanism_view_gizmo.cpp): the drag, its target
  // (part or marker) and where the target was drawn when it began; a marker
  // of the target snapped onto another part's.
  TransformGizmo gizmo;
  GizmoDrag gizmoDrag;
  QString gizmoTarget;
  osg::Matrixd gizmoStart;
  bool gizmoLocal = false;   // the gizmo along the target's own axes
  QString snapMarker, snapOnto;
  osg::Vec3d snapOffset;
  QPointF gizmoCursor;
  // Escape ended the drag: the rest of the press (moves, release) is ignored.
  bool gizmoCancelled = false;
  QString hint;
  QString timeCaption;  // shown instead of "t = ..." (setTimeCaption)
  double snapStep = 0.0;
  bool markersBeforePick = false;
  QString pickPrompt;

  double dpr(const QWidget* w) const { return w->devicePixelRatioF(); }
};

}  // namespace pm::gui
