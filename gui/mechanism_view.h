// The 3D view of a project's mechanism: OpenSceneGraph inside a
// QOpenGLWidget (osgViewer::Viewer with an embedded graphics window, single
// threaded, rendered on demand). Shows the parts' display geometry, joint
// glyphs, springs, marker triads, a ground grid and world axes; poses come
// from a ResultStore at the time given to setPose(), so one time cursor
// drives it. Mouse: left orbit (on the gizmo's handles: move/turn), Shift + left drags a part, middle pan, right drag zoom, wheel zooms
// towards the point under the cursor, click selects, hovering shows the
// object id and labels the marker under the cursor; F fits all; L turns
// the gizmo's axes between the world's and the target's own. The grid
// (world z = 0) and world axes are labelled. In marker-pick mode (attaching a cylinder) a click picks the
// marker nearest to the cursor instead; in surface-pick mode (add marker
// here) it picks the point and normal of the part surface under the cursor.
//
// OpenGL needs a real display (Xvfb headless): the offscreen platform has no
// OpenGL and a QOpenGLWidget crashes there, so callers check isSupported().
#pragma once

#include <QImage>
#include <QMatrix4x4>
#include <QOpenGLWidget>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector3D>

class QPainter;

#include <memory>

namespace pm {
struct Project;
class ResultStore;
}  // namespace pm

namespace pm::gui {

namespace scene3d {
class MechanismScene;
}

class MechanismView : public QOpenGLWidget {
  Q_OBJECT

 public:
  enum class StandardView { Front, Top, Side, Iso };

  explicit MechanismView(QWidget* parent = nullptr);
  ~MechanismView() override;

  // False on platforms without OpenGL ("offscreen", "minimal").
  static bool isSupported();

  // Updates the scene: only the nodes of objects that changed are rebuilt;
  // `projectDir` resolves mesh files. Keeps the results
  // pointer but resets the pose to the model's initial one; the camera fits
  // the model again only when the set of parts changed.
  void setProject(const Project& project, const QString& projectDir = {});
  // The store is read, never owned; pass nullptr before deleting it. Rows
  // appended later (a running simulation) are picked up by refreshResults().
  // Complete results get the machine base fitted under all their poses at
  // once; a running simulation's (complete false) when resultsComplete()
  // says its rows are all there: the base keeps its size while they come.
  void setResults(const ResultStore* results, bool complete = true);
  void resultsComplete();
  // Pulls rows appended since the last call; true when there were new ones.
  bool refreshResults();
  // At most one pose drawn per `ms` (0, the default: every setPose() at
  // once): while a run streams rows the 3D view is redrawn less often than
  // the other views (without a GPU its GL is drawn by the CPU). A pose held
  // back is drawn when the interval is over, at the newest time given;
  // time() is that time at once. Setting 0 draws a held-back pose now.
  void setPoseInterval(int ms);
  int poseInterval() const;
  double startTime() const;
  double endTime() const;
  double time() const;

  // Keeps the view direction; frames the whole mechanism, or the selected
  // object's bounding sphere (everything when nothing is selected).
  void fitAll();
  void fitSelection();
  void setStandardView(StandardView view);
  void setOrthographic(bool on);
  bool orthographic() const;
  // Follow: at every pose the camera is moved (not turned) so that it looks
  // at the centre of the mechanism as drawn then.
  void setFollow(bool on);
  bool follows() const;
  // The marker labelled because the cursor is over it ("" if none).
  QString hoveredMarker() const;
  // The scene graph drawn (tests inspect its nodes).
  const scene3d::MechanismScene& scene() const;
  void setMarkersVisible(bool on);
  bool markersVisible() const;
  void setGridVisible(bool on);
  // Flexible bodies (issue #22): their deformation drawn `scale` times as
  // large (1: as computed), and their sections coloured by stress with a
  // colour bar (0 to the results' largest stress, in MPa).
  void setDeformationScale(double scale);
  double deformationScale() const;
  void setStressColours(bool on);
  bool stressColours() const;
  bool hasFlexibleBodies() const;
  // Shown in the top left instead of "t = ... s" ("" gives the time back):
  // the rows shown are not a run's (a mode animation).
  void setTimeCaption(const QString& text);

  QString selectedId() const;
  // The selectable object under a widget position ("" if none).
  QString objectAt(const QPoint& pos);
  // Widget position of a world point with the current camera.
  QPointF projectToWidget(const QVector3D& world) const;
  // World matrix of a part as drawn (column-vector convention: world =
  // M * local); identity for an unknown id.
  QMatrix4x4 partTransform(const QString& id) const;
  // World position of marker "<part>.<marker>" as drawn.
  bool markerPosition(const QString& ref, QVector3D& world) const;
  // The marker whose projected position is nearest to `pos`, within
  // `radius` pixels ("" if none).
  QString markerAt(const QPointF& pos, double radius = 14.0) const;
  // That marker and every other one drawn on the same spot (within 2 px),
  // in model order; a pick click with several offers them in a menu
  // ("markerChoiceMenu").
  QStringList markersAt(const QPointF& pos, double radius = 14.0) const;
  // World matrices of a cylinder's barrel and rod nodes as drawn (unit
  // cylinders along local +z: the barrel pin at local 0, the rod pin at
  // local z = 1); false when the cylinder is not drawn.
  bool actuatorTransforms(const QString& id, QMatrix4x4& barrel, QMatrix4x4& rod) const;
  // The outer radii of a cylinder's barrel and rod as drawn [m].
  bool actuatorRadii(const QString& id, double& barrel, double& rod) const;
  // Eye and centre of the camera (world).
  QVector3D cameraEye() const;
  QVector3D cameraCenter() const;

  // Marker-pick mode: markers are shown and circled, `prompt` is drawn on
  // top, and the next left click on (or near) a marker emits markerPicked
  // and ends the mode; Escape emits markerPickCancelled. `owner` names who
  // asked (several commands pick markers): pickOwner() until the next pick.
  // With `partsToo`, a click on a part or flexible body away from its
  // markers picks that body: markerPicked gets its id (no '.'). A flexible
  // body's marker is picked as "<body>.<marker>", as the file names it.
  void beginMarkerPick(const QString& prompt, const QObject* owner = nullptr, bool partsToo = false);
  const QObject* pickOwner() const;
  void cancelMarkerPick();
  bool isPickingMarker() const;
  // Surface-pick mode ("add marker here"): the next left click on a part
  // emits surfacePicked with the point and the outward normal there (world);
  // Escape emits markerPickCancelled.
  void beginSurfacePick(const QString& prompt, const QObject* owner = nullptr);
  bool isPickingSurface() const;
  // The part surface under a widget position: the part's id, the world
  // point and unit normal there; false over empty space.
  bool surfaceAt(const QPoint& pos, QString* part, QVector3D* world, QVector3D* normal);
  // Shift + left drag on a moving part drags it (gui/part_drag.h), its
  // offset rounded to this step [m] (0: none); on release partDragged.
  void setSnapStep(double metres);
  // The move/rotate gizmo (transform_gizmo.h) on the selected part (not a
  // ground) or marker: dragging an arrow moves it along that axis, rounded
  // to the snap step; dragging a ring turns it about that axis through its
  // origin in steps of 15 degrees (Shift: freely). The axes are the world's
  // or, local, the target's own (L in the view toggles). While moving, a
  // marker of the dragged part (or the dragged marker) that comes within
  // 12 px of another part's marker snaps onto it. The part, or the marker
  // with the joint glyphs, springs and cylinders on it, is drawn where the
  // drag takes it (the scene's transforms). On release gizmoMoved (world
  // axes or a snap), gizmoMovedLocal or gizmoTurned; the model is the
  // caller's to change; a move's snap step applies to the distance moved.
  // Escape during a drag puts the target back and emits nothing.
  bool gizmoVisible() const;
  void setGizmoLocal(bool on);
  bool gizmoLocal() const;
  // A world point where a press grabs handle `handle` (GizmoHandle).
  bool gizmoGrabPoint(int handle, QVector3D& world) const;
  // Where the gizmo is drawn (world).
  QVector3D gizmoOrigin() const;
  // A line drawn along the view's bottom edge ("" none): an offer that
  // stands until taken (the joint at a snap).
  void setHint(const QString& text);
  QString hint() const;

  // Renders the current view into an image of w x h pixels (anti-aliased,
  // independent of the widget size). The widget must have been shown.
  QImage snapshot(int w, int h);
  // Milliseconds the last paint took (OSG frame plus overlay) and the number
  // of paints so far (benchmarks, tests).
  double lastFrameMs() const;
  // Object nodes the last setProject() created (the others were kept).
  int nodesBuiltByLastEdit() const;
  quint64 frameCount() const;
  // Poses applied so far (each emits poseShown): tests count them against
  // the pose interval.
  quint64 poseCount() const;

 public slots:
  void setPose(double time);
  // Selects an object (part, joint, force id) and highlights it; "" clears.
  // Emits objectSelected only when the selection changes.
  void select(const QString& id);

 signals:
  void objectSelected(const QString& id);
  // After setProject(): whether the project has flexible bodies.
  void flexibleBodiesShown(bool any);
  void markerPicked(const QString& ref);
  void markerPickCancelled();
  void partDragged(const QString& part, const QVector3D& worldOffset);
  void surfacePicked(const QString& part, const QVector3D& world, const QVector3D& normal, const QPoint& pos);
  // `id` moved by `worldOffset`; when `marker` (of id) snapped onto `onto`
  // (another part's marker), the offset puts them on one point.
  void gizmoMoved(const QString& id, const QVector3D& worldOffset, const QString& marker, const QString& onto);
  // `id` moved by `distance` [m] (snapped) along its own axis `axis`.
  void gizmoMovedLocal(const QString& id, int axis, double distance);
  // `id` turned by `angle` [rad] about axis `axis` (0 x, 1 y, 2 z) through
  // its origin: the world's, or with `local` its own.
  void gizmoTurned(const QString& id, int axis, double angle, bool local);
  void gizmoLocalChanged(bool local);
  // The scene was posed at time t (its repaint is scheduled).
  void poseShown(double t);

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  bool event(QEvent* e) override;

 private:
  struct Impl;
  void cleanupGL();
  void fitCamera();
  void fitSphere(const QVector3D& center, double radius);
  void drawLabels(QPainter& p);
  void drawStressBar(QPainter& p);
  void applyCamera(int w, int h);
  void drawOverlay();
  void zoomAt(const QPointF& pos, double factor);
  void showPose();
  void finishPick(const QString& ref);
  bool beginDrag(const QPoint& pos);
  // mechanism_view_gizmo.cpp
  void placeGizmo();
  bool gizmoPress(QMouseEvent* e);
  bool gizmoMove(QMouseEvent* e);
  bool gizmoRelease(QMouseEvent* e);
  bool cancelGizmoDrag();
  void restoreGizmoTarget();
  void findMarkerSnap();
  void drawGizmoOverlay(QPainter& p);
  std::unique_ptr<Impl> d_;
};

}  // namespace pm::gui
