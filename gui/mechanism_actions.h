// The studio's commands on the mechanism (menu, model tree context menu and
// the toolbar over the model tree): Add part / marker / joint / force /
// motion / latch (a small dialog for what the object cannot exist without; the rest
// is edited in the property editor afterwards), Delete (with what depends on
// it), and Attach to mechanism for a cylinder: pick the barrel-end marker,
// then the rod-end marker, by clicking in the 3D view (a dialog with two
// lists where there is no 3D view). Add Contact pairs the two parts selected
// last (clicked in the 3D view or the model tree, in that order: I, then J)
// in its dialog (contact_dialog.h; flexible bodies too, and its Pick in 3D
// buttons click them in the view). Each command is one undoable Document
// edit and the new object becomes the shared selection.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QDialog;
class QToolBar;
class QWidget;

namespace pm::gui {

class Document;
class MechanismView;
class SelectionModel;

class MechanismActions : public QObject {
  Q_OBJECT
 public:
  // `view` may be null (no OpenGL); `dialogParent` owns the dialogs.
  MechanismActions(Document* doc, SelectionModel* selection, MechanismView* view, QWidget* dialogParent);

  QAction* addPart() const { return addPart_; }
  QAction* addFlexibleBody() const { return addBeam_; }
  QAction* addMarker() const { return addMarker_; }
  QAction* addJoint() const { return addJoint_; }
  QAction* addForce() const { return addForce_; }
  QAction* addMotion() const { return addMotion_; }
  QAction* addLatch() const { return addLatch_; }
  QAction* addContact() const { return addContact_; }
  // The parts selected last, oldest first (at most two): Add Contact's I and J.
  const QStringList& recentParts() const { return recentParts_; }
  QAction* deleteObject() const { return delete_; }
  QAction* attachCylinder() const { return attach_; }
  QAction* detachCylinder() const { return detach_; }
  QList<QAction*> actions() const;
  // A compact toolbar over the model tree: Add (a menu), Delete, Attach, Detach.
  QToolBar* toolBar() const { return toolBar_; }

  // The cylinder being attached ("" when no pick is under way) and the
  // barrel marker picked so far.
  const QString& attaching() const { return attaching_; }
  const QString& pickedBarrel() const { return barrel_; }

 signals:
  void statusMessage(const QString& text);

 private:
  void updateEnabled();
  void onAddPart();
  void onAddFlexibleBody();
  void onAddMarker();
  void onAddJoint();
  void onAddForce();
  void onAddMotion();
  void onAddLatch();
  void onAddContact();
  void notePart(const QString& id);
  void onDelete();
  void onAttach();
  void onMarkerPicked(const QString& ref);
  void onPickCancelled();

  Document* doc_;
  SelectionModel* selection_;
  MechanismView* view_;
  QWidget* parent_;
  QAction* addPart_;
  QAction* addBeam_;
  QAction* addMarker_;
  QAction* addJoint_;
  QAction* addForce_;
  QAction* addMotion_;
  QAction* addLatch_;
  QAction* addContact_;
  QStringList recentParts_;
  QAction* delete_;
  QAction* attach_;
  QAction* detach_;
  QString attaching_, barrel_;
  QToolBar* toolBar_;
};

}  // namespace pm::gui
