// The 3D view's own camera toolbar: fit all, fit selection, the standard
// views (front, top, side, isometric), perspective or orthographic, follow
// the mechanism during playback, and markers shown or hidden; with flexible
// bodies, their deformation scale and stress colours. Every action
// acts on one MechanismView; F (fit all) and Shift+F (fit selection) work
// while the view has focus.
#pragma once

#include <QToolBar>

namespace pm::gui {

class MechanismView;

class MechanismViewToolBar : public QToolBar {
  Q_OBJECT

 public:
  explicit MechanismViewToolBar(MechanismView* view, QWidget* parent = nullptr);

 private:
  void addFlexibleControls();
  MechanismView* view_;
};

}  // namespace pm::gui
