#include "build_tools_3d.h"

#include "document.h"
#include "gizmo_edits.h"
#include "marker_placement.h"
#include "model/mechanism_types.h"
#include "mechanism_editing.h"
#include "mechanism_view.h"
#include "selection_model.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace pm::gui {

namespace {

QString mmText(const Vec3& p) {
  return QString("(%1, %2, %3) mm").arg(p[0] * 1000, 0, 'g', 6).arg(p[1] * 1000, 0, 'g', 6).arg(p[2] * 1000, 0, 'g', 6);
}

// The marker's matrix in its part's frame.
QMatrix4x4 markerMatrix(const MarkerDef& m) {
  QMatrix4x4 r = rotationFromRpy(m.orientation);
  r.setColumn(3, QVector4D(float(m.position[0]), float(m.position[1]), float(m.position[2]), 1.0f));
  return r;
}

}  // namespace

BuildTools3d::BuildTools3d(Document* doc, SelectionModel* selection, MechanismView* view, QAction* addPart,
                           QWidget* dialogParent)
    : QObject(dialogParent), doc_(doc), selection_(selection), view_(view), parent_(dialogParent) {
  toolBar_ = new QToolBar(tr("Build"));
  toolBar_->setObjectName("buildToolBar3d");
  toolBar_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  toolBar_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  QAction* part = toolBar_->addAction(tr("Part"));
  part->setObjectName("buildPart3d");
  part->setToolTip(tr("Add a part from a shape (box, cylinder, tube, sphere, STL/OBJ) and a material"));
  connect(part, &QAction::triggered, addPart, &QAction::trigger);
  markerHere_ = toolBar_->addAction(tr("Marker Here"));
  markerHere_->setObjectName("actAddMarkerHere");
  markerHere_->setToolTip(tr("Click on a part's surface: a marker there, its z axis along the surface normal. "
                             "Clicking on another part's marker puts the new one on it (a joint candidate)."));
  connect(markerHere_, &QAction::triggered, this, &BuildTools3d::onMarkerHere);
  // The joint palette: a type, then two marker clicks.
  auto* menu = new QMenu(toolBar_);
  for (const MechTypeDecl& t : jointTypes()) {
    if (t.name == "coupler") continue;  // couples joints, not markers
    QAction* a = menu->addAction(QString::fromStdString(t.name));
    a->setObjectName("actPickJoint_" + QString::fromStdString(t.name));
    a->setToolTip(QString::fromStdString(t.description));
    connect(a, &QAction::triggered, this, [this, a] { onPickJoint(a->text()); });
  }
  auto* joint = new QToolButton;
  joint->setObjectName("buildJoint3d");
  joint->setText(tr("Joint"));
  joint->setToolTip(tr("Add a joint: choose its type, then click marker I (on the moving part) and marker J"));
  joint->setMenu(menu);
  joint->setPopupMode(QToolButton::InstantPopup);
  toolBar_->addWidget(joint);
  // The joint a gizmo snap offers: the same palette, for the two markers.
  auto* candidates = new QMenu(toolBar_);
  for (const MechTypeDecl& t : jointTypes()) {
    if (t.name == "coupler") continue;
    QAction* a = candidates->addAction(QString::fromStdString(t.name));
    a->setObjectName("actJointAtSnap_" + QString::fromStdString(t.name));
    a->setToolTip(QString::fromStdString(t.description));
    connect(a, &QAction::triggered, this, [this, a] { addJointAtSnap(a->text(), false); });
  }
  // A joint between misaligned markers is refused (revolute, prismatic...)
  // or not what was meant: the same palette, aligning first.
  auto* align = new QMenu(tr("Align and join"), candidates);
  align->setObjectName("alignAndJoinMenu");
  for (const MechTypeDecl& t : jointTypes()) {
    if (t.name == "coupler") continue;
    QAction* a = align->addAction(QString::fromStdString(t.name));
    a->setObjectName("actAlignJoin_" + QString::fromStdString(t.name));
    a->setToolTip(tr("Turn the moved part about the snapped marker so the two markers' z and x axes agree "
                     "(the joint's angle starts at 0), then add a %1 joint")
                      .arg(QString::fromStdString(t.name)));
    connect(a, &QAction::triggered, this, [this, a] { addJointAtSnap(a->text(), true); });
  }
  candidates->addSeparator();
  alignAndJoin_ = candidates->addMenu(align);
  alignAndJoin_->setObjectName("actAlignAndJoin");
  alignAndJoin_->setVisible(false);
  jointAtSnap_ = new QToolButton;
  jointAtSnap_->setObjectName("buildJointAtSnap3d");
  jointAtSnap_->setText(tr("Joint at Snap"));
  jointAtSnap_->setMenu(candidates);
  jointAtSnap_->setPopupMode(QToolButton::InstantPopup);
  toolBar_->addWidget(jointAtSnap_);
  move_ = toolBar_->addAction(tr("Move"));
  move_->setObjectName("actMove3d");
  move_->setToolTip(tr("Move the selected part or marker by typed offsets along the world's axes or its own, "
                      "rounded to the snap step (or Shift + drag a part in the view)"));
  connect(move_, &QAction::triggered, this, &BuildTools3d::onMove);
  localAxes_ = toolBar_->addAction(tr("Local Axes"));
  localAxes_->setObjectName("actGizmoLocal3d");
  localAxes_->setCheckable(true);
  localAxes_->setChecked(view_->gizmoLocal());
  localAxes_->setToolTip(tr("Gizmo axes: checked, the selected part's or marker's own (moves and turns along them); "
                            "unchecked, the world's (L in the 3D view)"));
  connect(localAxes_, &QAction::toggled, view_, &MechanismView::setGizmoLocal);
  connect(view_, &MechanismView::gizmoLocalChanged, localAxes_, &QAction::setChecked);
  toolBar_->addSeparator();
  snap_ = new QComboBox;
  snap_->setObjectName("snapStep3d");
  snap_->setToolTip(tr("Snap step: picked marker positions and moves are rounded to it along the surface"));
  for (const auto& [text, m] : std::vector<std::pair<QString, double>>{
           {tr("Snap off"), 0.0}, {tr("Snap 1 mm"), 0.001}, {tr("Snap 5 mm"), 0.005}, {tr("Snap 10 mm"), 0.01},
           {tr("Snap 50 mm"), 0.05}})
    snap_->addItem(text, m);
  snap_->setCurrentIndex(2);
  toolBar_->addWidget(snap_);
  view_->setSnapStep(snapStep());
  connect(snap_, &QComboBox::currentIndexChanged, this, [this] { view_->setSnapStep(snapStep()); });
  // Shift + drag in the view: the part's new position, one undo step.
  connect(view_, &MechanismView::partDragged, this, [this](const QString& id, const QVector3D& offset) {
    doc_->edit(tr("Move %1").arg(id), [&](Project& p) {
      moveObject(p, id.toStdString(), {offset.x(), offset.y(), offset.z()}, snapStep());
    });
    emit statusMessage(tr("%1 moved to %2 (world)").arg(id, mmText(doc_->project().mechanism.part(id.toStdString())->position)));
  });
  connect(view_, &MechanismView::gizmoMoved, this, &BuildTools3d::onGizmoMoved);
  connect(view_, &MechanismView::gizmoMovedLocal, this, &BuildTools3d::onGizmoMovedLocal);
  connect(view_, &MechanismView::gizmoTurned, this, &BuildTools3d::onGizmoTurned);
  connect(view_, &MechanismView::surfacePicked, this, &BuildTools3d::onSurfacePicked);
  connect(view_, &MechanismView::markerPicked, this, &BuildTools3d::onMarkerPicked);
  connect(view_, &MechanismView::markerPickCancelled, this, [this] {
    if (jointType_.isEmpty()) return;
    jointType_.clear();
    jointI_.clear();
    emit statusMessage(tr("Adding a joint cancelled"));
  });
  connect(doc_, &Document::changed, this, &BuildTools3d::updateEnabled);
  connect(selection_, &SelectionModel::changed, this, &BuildTools3d::updateEnabled);
  updateEnabled();
}

QAction* BuildTools3d::jointAtSnapAction(const QString& type) const {
  return jointAtSnap_->menu()->findChild<QAction*>("actJointAtSnap_" + type);
}

QAction* BuildTools3d::alignAndJoinAction(const QString& type) const {
  return alignAndJoin_->menu()->findChild<QAction*>("actAlignJoin_" + type);
}

QAction* BuildTools3d::jointAction(const QString& type) const {
  return toolBar_->findChild<QAction*>("actPickJoint_" + type);
}

double BuildTools3d::snapStep() const { return snap_->currentData().toDouble(); }

void BuildTools3d::setSnapStep(double metres) {
  for (int k = 0; k < snap_->count(); ++k)
    if (std::abs(snap_->itemData(k).toDouble() - metres) < 1e-12) snap_->setCurrentIndex(k);
}

void BuildTools3d::updateEnabled() {
  const Project& p = doc_->project();
  markerHere_->setEnabled(!p.mechanism.parts.empty());
  const ObjectKind kind = objectKind(p, selection_->current().toStdString());
  move_->setEnabled(kind == ObjectKind::Part || kind == ObjectKind::Marker);
  checkCandidate();
}

// ----------------------------------------------------------- marker here

void BuildTools3d::onMarkerHere() {
  view_->beginSurfacePick(tr("Add marker: click on a part's surface (on another part's marker: the same spot)"), this);
  emit statusMessage(tr("Click on a part in the 3D view"));
}

void BuildTools3d::onSurfacePicked(const QString& partId, const QVector3D& world, const QVector3D& normal,
                                   const QPoint& pos) {
  if (view_->pickOwner() != this) return;
  const Mechanism& m = doc_->project().mechanism;
  const PartDef* part = m.part(partId.toStdString());
  if (!part) return;
  const QMatrix4x4 partWorld = view_->partTransform(partId);
  // Onto another part's marker drawn under the cursor: the same frame.
  QString onto;
  for (const QString& ref : view_->markersAt(QPointF(pos), 10.0))
    if (ref.section('.', 0, 0) != partId) {
      onto = ref;
      break;
    }
  MarkerPlacement place;
  if (!onto.isEmpty()) {
    const MarkerDef* other = findMarker(m, onto.toStdString());
    place = coincideWith(partWorld, view_->partTransform(onto.section('.', 0, 0)) * markerMatrix(*other));
  } else {
    place = placeOnSurface(partWorld, world, normal, snapStep());
  }
  MarkerDef mk;
  mk.id = freshMarkerId(*part);
  mk.position = place.position;
  mk.orientation = place.orientation;
  const QString ref = partId + "." + QString::fromStdString(mk.id);
  doc_->edit(tr("Add marker %1").arg(ref), [&](Project& p) { findPart(p.mechanism, partId.toStdString())->markers.push_back(mk); });
  selection_->select(ref);
  emit statusMessage(onto.isEmpty() ? tr("Marker %1 at %2 in the part frame, z along the surface normal").arg(ref, mmText(mk.position))
                                    : tr("Marker %1 on %2 (same position and axes: a joint can join them)").arg(ref, onto));
}

// ----------------------------------------------------------- joint by picking

void BuildTools3d::onPickJoint(const QString& type) {
  jointType_ = type;
  jointI_.clear();
  view_->beginMarkerPick(tr("Add %1 joint: click marker I, on the moving part").arg(type), this);
  emit statusMessage(tr("Add %1 joint: click marker I in the 3D view").arg(type));
}

void BuildTools3d::onMarkerPicked(const QString& ref) {
  if (jointType_.isEmpty()) return;
  if (view_->pickOwner() != this) {  // another command took the view over
    jointType_.clear();
    jointI_.clear();
    return;
  }
  if (jointI_.isEmpty()) {
    jointI_ = ref;
    view_->beginMarkerPick(tr("Add %1 joint: I = %2; now click marker J on the other part").arg(jointType_, ref), this);
    return;
  }
  if (ref.section('.', 0, 0) == jointI_.section('.', 0, 0)) {
    view_->beginMarkerPick(tr("Add %1 joint: J must be on another part than %2").arg(jointType_, jointI_), this);
    return;
  }
  JointDef j;
  j.id = freshObjectId(doc_->project(), jointType_.toStdString());
  j.type = jointType_.toStdString();
  j.i = jointI_.toStdString();
  j.j = ref.toStdString();
  jointType_.clear();
  jointI_.clear();
  doc_->edit(tr("Add joint %1").arg(QString::fromStdString(j.id)), [&](Project& p) { p.mechanism.joints.push_back(j); });
  selection_->select(QString::fromStdString(j.id));
  emit statusMessage(tr("Joint %1: %2 %3 moves relative to %4, about/along the z axis of marker %4")
                         .arg(QString::fromStdString(j.id), QString::fromStdString(j.type), QString::fromStdString(j.i),
                              QString::fromStdString(j.j)));
}

// ----------------------------------------------------------- move

void BuildTools3d::onMove() {
  const QString id = selection_->current();
  const ObjectKind kind = objectKind(doc_->project(), id.toStdString());
  if (kind != ObjectKind::Part && kind != ObjectKind::Marker) return;
  auto* d = new QDialog(parent_);
  d->setObjectName("moveDialog");
  d->setWindowTitle(tr("Move %1").arg(id));
  d->setAttribute(Qt::WA_DeleteOnClose);
  auto* form = new QFormLayout;
  // The axes the offsets are along: the world's or the target's own, as
  // the gizmo's Local Axes (L) has them when the dialog opens.
  auto* frame = new QComboBox;
  frame->setObjectName("move_frame");
  frame->addItem(tr("World axes"), false);
  frame->addItem(tr("Local axes (%1's own)").arg(id), true);
  frame->setCurrentIndex(view_->gizmoLocal() ? 1 : 0);
  frame->setToolTip(tr("Offsets along the world's axes, or along the selected %1's own axes")
                        .arg(kind == ObjectKind::Part ? tr("part") : tr("marker")));
  form->addRow(tr("Axes"), frame);
  std::array<QLineEdit*, 3> edits{};
  std::array<QLabel*, 3> labels{};
  for (int k = 0; k < 3; ++k) {
    edits[k] = new QLineEdit("0");
    edits[k]->setObjectName(QString("move_d") + "xyz"[k]);
    labels[k] = new QLabel;
    form->addRow(labels[k], edits[k]);
  }
  auto label = [labels, id, frame] {
    const bool local = frame->currentData().toBool();
    for (int k = 0; k < 3; ++k)
      labels[k]->setText(local ? tr("Offset along %1's own %2 [mm]").arg(id).arg("xyz"[k])
                               : tr("Offset %1 [mm] (world)").arg("xyz"[k]));
  };
  label();
  connect(frame, &QComboBox::currentIndexChanged, d, label);
  auto* note = new QLabel(tr("The offset is rounded to the snap step: %1 mm").arg(snapStep() * 1000));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::Ok), &QPushButton::clicked, d, [this, d, edits, id, frame] {
    Vec3 offset{};
    for (int k = 0; k < 3; ++k) offset[size_t(k)] = edits[k]->text().toDouble() / 1000.0;
    const bool local = frame->currentData().toBool();
    doc_->edit(tr("Move %1").arg(id), [&](Project& p) {
      local ? moveLocal(p, id.toStdString(), offset, snapStep()) : moveObject(p, id.toStdString(), offset, snapStep());
    });
    d->accept();
  });
  auto* lay = new QVBoxLayout(d);
  lay->addLayout(form);
  lay->addWidget(note);
  lay->addWidget(buttons);
  d->open();
}

}  // namespace pm::gui

namespace pm::gui {

// ----------------------------------------------------------- gizmo

void BuildTools3d::onGizmoMoved(const QString& id, const QVector3D& offset, const QString& marker, const QString& onto) {
  const std::string sid = id.toStdString();
  doc_->edit(tr("Move %1").arg(id), [&](Project& p) {
    if (onto.isEmpty()) moveObject(p, sid, {offset.x(), offset.y(), offset.z()}, snapStep());
    else moveOnto(p, sid, marker.toStdString(), onto.toStdString());
  });
  const Mechanism& m = doc_->project().mechanism;
  if (onto.isEmpty()) {
    Vec3 at{};
    if (const PartDef* part = m.part(sid)) at = part->position;
    else markerWorld(m, sid, at);
    emit statusMessage(tr("%1 moved to %2 (world)").arg(id, mmText(at)));
    return;
  }
  // The moving part's marker is I, unless it is the ground's.
  const PartDef* from = m.part(marker.section('.', 0, 0).toStdString());
  const bool swap = from && from->ground;
  candidateI_ = swap ? onto : marker;
  candidateJ_ = swap ? marker : onto;
  mover_ = id;
  moverMarker_ = marker;
  moverOnto_ = onto;
  const double tilt = zAxisAngle(m, marker.toStdString(), onto.toStdString()) * 180 / M_PI;
  const double apart = frameAngle(m, marker.toStdString(), onto.toStdString()) * 180 / M_PI;
  const QString align = tr(": Joint at Snap > Align and join turns %1)").arg(id);
  checkCandidate();
  emit statusMessage(tr("Markers %1 and %2 coincide%3: Joint at Snap adds a joint between them")
                         .arg(candidateI_, candidateJ_,
                              tilt > 1e-6    ? tr(" (their z axes %1 deg apart").arg(tilt, 0, 'g', 4) + align
                              : apart > 1e-6 ? tr(" (their x axes %1 deg apart, a revolute's angle would start there")
                                                       .arg(apart, 0, 'g', 4) + align
                                             : QString()));
}

void BuildTools3d::onGizmoMovedLocal(const QString& id, int axis, double distance) {
  doc_->edit(tr("Move %1").arg(id), [&](Project& p) { moveAlong(p, id.toStdString(), axis, distance, snapStep()); });
  const Mechanism& m = doc_->project().mechanism;
  Vec3 at{};
  if (const PartDef* part = m.part(id.toStdString())) at = part->position;
  else markerWorld(m, id.toStdString(), at);
  emit statusMessage(tr("%1 moved %2 mm along its own %3, to %4 (world)")
                         .arg(id).arg(distance * 1e3, 0, 'g', 6).arg(QChar("xyz"[axis])).arg(mmText(at)));
}

void BuildTools3d::onGizmoTurned(const QString& id, int axis, double angle, bool local) {
  doc_->edit(tr("Turn %1").arg(id), [&](Project& p) { turnObject(p, id.toStdString(), axis, angle, local); });
  emit statusMessage(tr("%1 turned %2 deg about %3 %4")
                         .arg(id)
                         .arg(angle * 180 / M_PI, 0, 'g', 6)
                         .arg(local ? tr("its own") : tr("world"))
                         .arg(QChar("xyz"[axis])));
}

// The offer stands while both markers exist, coincide and no joint joins
// them (undoing the joint offers it again).
void BuildTools3d::checkCandidate() {
  Vec3 a{}, b{};
  const Mechanism& m = doc_->project().mechanism;
  const bool there = !candidateI_.isEmpty() && markerWorld(m, candidateI_.toStdString(), a) &&
                     markerWorld(m, candidateJ_.toStdString(), b) &&
                     std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) < 1e-9;
  if (!there) candidateI_.clear(), candidateJ_.clear();
  const std::string ci = candidateI_.toStdString(), cj = candidateJ_.toStdString();
  const bool ok = there && std::none_of(m.joints.begin(), m.joints.end(), [&](const JointDef& j) {
                    return (j.i == ci && j.j == cj) || (j.i == cj && j.j == ci);
                  });
  jointAtSnap_->setEnabled(ok);
  alignAndJoin_->setVisible(ok && frameAngle(m, moverMarker_.toStdString(), moverOnto_.toStdString()) > 1e-9);
  view_->setHint(!ok ? QString()
                     : alignAndJoin_->isVisible()
                         ? tr("%1 on %2, axes differ: Joint at Snap > Align and join").arg(candidateI_, candidateJ_)
                         : tr("%1 and %2 coincide: Joint at Snap adds a joint between them").arg(candidateI_, candidateJ_));
  jointAtSnap_->setToolTip(ok ? tr("Add a joint between %1 (I, moving) and %2 (J), which coincide").arg(candidateI_, candidateJ_)
                              : tr("Move a part with the gizmo until one of its markers snaps onto another part's "
                                   "marker: then this adds a joint between the two"));
}

void BuildTools3d::addJointAtSnap(const QString& type, bool align) {
  if (candidateI_.isEmpty() || !jointAtSnap_->isEnabled()) return;
  const double tilt = frameAngle(doc_->project().mechanism, moverMarker_.toStdString(), moverOnto_.toStdString());
  JointDef j;
  j.id = freshObjectId(doc_->project(), type.toStdString());
  j.type = type.toStdString();
  j.i = candidateI_.toStdString();
  j.j = candidateJ_.toStdString();
  const std::string mover = mover_.toStdString(), marker = moverMarker_.toStdString(), onto = moverOnto_.toStdString();
  doc_->edit(align ? tr("Align %1 and add joint %2").arg(mover_, QString::fromStdString(j.id))
                   : tr("Add joint %1").arg(QString::fromStdString(j.id)),
             [&](Project& p) {
               if (align) alignFrames(p, mover, marker, onto);
               p.mechanism.joints.push_back(j);
             });
  selection_->select(QString::fromStdString(j.id));
  emit statusMessage(tr("Joint %1: %2 %3 moves relative to %4, about/along the z axis of marker %4%5")
                         .arg(QString::fromStdString(j.id), type, QString::fromStdString(j.i), QString::fromStdString(j.j),
                              align ? tr(" (%1 turned %2 deg to align the markers' axes)").arg(mover_).arg(tilt * 180 / M_PI, 0, 'g', 4)
                                    : QString()));
}

}  // namespace pm::gui
