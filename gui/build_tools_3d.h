// Building the mechanism in the 3D view (issue #28, point 4): a toolbar over
// the view with Add Part (a shape), Marker Here (click on a part's surface:
// a marker there, its z axis along the outward normal), Joint (a palette of
// joint types, then a click on the moving part's marker I and on marker J),
// the snap step, and Move: the selected part or marker by typed offsets
// (mm) along the world's axes or its own ("Local axes", as the gizmo's
// Local Axes has it when the dialog opens); a part also by Shift + drag in
// the view (MechanismView::partDragged), and both by the view's gizmo
// (arrows move, rings turn; gizmo_edits.h), along the world's axes or,
// with Local Axes (L in the view), the target's own. A gizmo move that snapped a
// marker onto another part's marker offers the joint: "Joint at Snap"
// opens the joint palette for those two markers. A move's snap step
// applies to the distance moved, not to where the target ends (gizmo_edits.h).
// Every command is one undoable Document edit and its result becomes the
// shared selection.
#pragma once

#include <QObject>
#include <QPoint>
#include <QString>
#include <QVector3D>

class QAction;
class QComboBox;
class QToolBar;
class QToolButton;

namespace pm::gui {

class Document;
class MechanismView;
class SelectionModel;

class BuildTools3d : public QObject {
  Q_OBJECT
 public:
  BuildTools3d(Document* doc, SelectionModel* selection, MechanismView* view, QAction* addPart, QWidget* dialogParent);

  QToolBar* toolBar() const { return toolBar_; }
  QAction* markerHere() const { return markerHere_; }
  // "actPickJoint_<type>": starts picking the two markers of a joint.
  QAction* jointAction(const QString& type) const;
  QAction* move() const { return move_; }
  // "Local Axes": the gizmo along the selected part's or marker's own axes
  // (checked) or the world's; follows L in the view.
  QAction* localAxes() const { return localAxes_; }
  // "Joint at Snap": enabled while two markers a gizmo move put on one point
  // still coincide; its menu is the joint palette for them.
  QToolButton* jointAtSnap() const { return jointAtSnap_; }
  QAction* jointAtSnapAction(const QString& type) const;
  // Its "Align and join" submenu, shown while the two markers' axes differ:
  // the joint, the moved part (or marker) turned about the snapped marker
  // so that their z and x axes agree (a revolute starts at angle 0), one
  // undo step.
  QAction* alignAndJoin() const { return alignAndJoin_; }
  QAction* alignAndJoinAction(const QString& type) const;
  // The snap step [m]; 0 = off.
  double snapStep() const;
  void setSnapStep(double metres);

 signals:
  void statusMessage(const QString& text);

 private:
  void updateEnabled();
  void onMarkerHere();
  void onSurfacePicked(const QString& part, const QVector3D& world, const QVector3D& normal, const QPoint& pos);
  void onPickJoint(const QString& type);
  void onMarkerPicked(const QString& ref);
  void onMove();
  void onGizmoMoved(const QString& id, const QVector3D& offset, const QString& marker, const QString& onto);
  void onGizmoMovedLocal(const QString& id, int axis, double distance);
  void onGizmoTurned(const QString& id, int axis, double angle, bool local);
  void checkCandidate();
  void addJointAtSnap(const QString& type, bool align);

  Document* doc_;
  SelectionModel* selection_;
  MechanismView* view_;
  QWidget* parent_;
  QToolBar* toolBar_;
  QAction* markerHere_;
  QAction* move_;
  QAction* localAxes_;
  QComboBox* snap_;
  QToolButton* jointAtSnap_;
  QAction* alignAndJoin_;
  QString candidateI_, candidateJ_;  // the coinciding markers offered
  QString mover_, moverMarker_, moverOnto_;  // the snap: what was dragged, its marker, the other
  QString jointType_, jointI_;  // a joint being picked: its type and marker I so far
};

}  // namespace pm::gui
