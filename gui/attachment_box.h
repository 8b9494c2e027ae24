// An attached cylinder says what it is (issue 28, point 6): in the property
// editor, under its parameters, the markers it acts between (or the joint it
// drives), the length range between its mounting points with the distance
// at the assembled start, its initial stroke, and what is wrong with them;
// with Detach (one undoable edit) and Re-pick (the 3D view's marker pick,
// which MechanismActions runs). A cylinder not attached offers Attach.
#pragma once

#include "model/project.h"

#include <QGroupBox>
#include <QString>

#include <string>

class QFormLayout;
class QLabel;
class QPushButton;

namespace pm::gui {

class Document;

// Why parameter `param` of component `c` has no effect as things stand
// (mass and angle of an attached cylinder; L_retracted of one that is not),
// or empty when it acts.
QString unusedParameterReason(const Component& c, const std::string& param);

class AttachmentBox : public QGroupBox {
  Q_OBJECT
 public:
  explicit AttachmentBox(Document* doc, QWidget* parent = nullptr);

  // Shows component `id`'s attachment; hidden unless it is a cylinder.
  void setComponent(const std::string& id);
  // Re-reads the project (after an edit or undo).
  void refresh();

  QLabel* markersLabel() const { return markers_; }
  QLabel* lengthLabel() const { return length_; }
  QLabel* strokeLabel() const { return stroke_; }
  QLabel* problemLabel() const { return problem_; }
  QPushButton* detachButton() const { return detach_; }
  QPushButton* repickButton() const { return repick_; }

 signals:
  // The user asks to pick the cylinder's markers anew (or for the first time).
  void repickRequested(const QString& component);

 private:
  Document* doc_;
  std::string id_;
  QLabel *markers_, *length_, *stroke_, *problem_;
  QPushButton *detach_, *repick_;
  QFormLayout* form_;
};

}  // namespace pm::gui
