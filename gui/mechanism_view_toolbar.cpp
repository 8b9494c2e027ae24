#include "mechanism_view_toolbar.h"

#include "mechanism_view.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QLabel>

namespace pm::gui {

MechanismViewToolBar::MechanismViewToolBar(MechanismView* view, QWidget* parent)
    : QToolBar(tr("3D View"), parent), view_(view) {
  setObjectName("viewToolBar3d");
  setIconSize(QSize(16, 16));
  setToolButtonStyle(Qt::ToolButtonTextOnly);
  auto add = [&](const QString& name, const QString& text, const QString& tip, auto slot) {
    QAction* a = addAction(text);
    a->setObjectName(name);
    a->setToolTip(tip);
    connect(a, &QAction::triggered, view_, slot);
    return a;
  };
  // The shortcut is drawn in the tooltip; the view handles the key itself
  // (it must not clash with the schematic's F).
  add("fitAll3d", tr("Fit"), tr("Fit all (F in the 3D view)"), [this] { view_->fitAll(); });
  add("fitSelection3d", tr("Fit Sel"), tr("Fit the selected object (Shift+F in the 3D view)"),
      [this] { view_->fitSelection(); });
  addSeparator();
  using SV = MechanismView::StandardView;
  add("viewFront3d", tr("Front"), tr("Front view: looking along +y"), [this] { view_->setStandardView(SV::Front); });
  add("viewTop3d", tr("Top"), tr("Top view: looking down along -z"), [this] { view_->setStandardView(SV::Top); });
  add("viewSide3d", tr("Side"), tr("Side view: looking along -x"), [this] { view_->setStandardView(SV::Side); });
  add("viewIso3d", tr("Iso"), tr("Isometric view"), [this] { view_->setStandardView(SV::Iso); });
  addSeparator();
  QAction* ortho = add("ortho3d", tr("Ortho"), tr("Orthographic projection (off: perspective)"),
                       [this](bool on) { view_->setOrthographic(on); });
  ortho->setCheckable(true);
  ortho->setChecked(view_->orthographic());
  QAction* follow = add("follow3d", tr("Follow"), tr("Keep the mechanism in frame while the time moves"),
                        [this](bool on) { view_->setFollow(on); });
  follow->setCheckable(true);
  follow->setChecked(view_->follows());
  QAction* markers = add("markers3d", tr("Markers"), tr("Show the markers' frames (x red, y green, z blue)"),
                         [this](bool on) { view_->setMarkersVisible(on); });
  markers->setCheckable(true);
  markers->setChecked(view_->markersVisible());
  addFlexibleControls();
}

// Deformation scale and stress colours: shown while the project has flexible bodies.
void MechanismViewToolBar::addFlexibleControls() {
  QList<QAction*> flexible;
  flexible << addSeparator();
  auto* label = new QLabel(tr(" Deformation "));
  label->setToolTip(tr("Flexible bodies' deformation drawn this many times as large (1x: as computed)"));
  flexible << addWidget(label);
  auto* scale = new QDoubleSpinBox;
  scale->setObjectName("deformationScale3d");
  scale->setRange(0.0, 100000.0);
  scale->setDecimals(1);
  scale->setSingleStep(1.0);
  scale->setSuffix(tr("x"));
  scale->setValue(view_->deformationScale());
  scale->setKeyboardTracking(false);  // typed "50" is one change, not "5" then "50"
  scale->setToolTip(label->toolTip());
  label->setBuddy(scale);
  connect(scale, &QDoubleSpinBox::valueChanged, view_, [this](double v) { view_->setDeformationScale(v); });
  flexible << addWidget(scale);
  QAction* stress = addAction(tr("Stress"));
  stress->setObjectName("stressColours3d");
  stress->setCheckable(true);
  stress->setToolTip(tr("Colour the flexible bodies by their outer-fibre stress (colour bar in MPa)"));
  connect(stress, &QAction::toggled, view_, [this](bool on) { view_->setStressColours(on); });
  flexible << stress;
  for (QAction* a : flexible) a->setVisible(view_->hasFlexibleBodies());
  connect(view_, &MechanismView::flexibleBodiesShown, this, [flexible](bool any) {
    for (QAction* a : flexible) a->setVisible(any);
  });
}

}  // namespace pm::gui
