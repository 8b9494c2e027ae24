// Analysis > Modes (issue #22): the modes of the whole coupled machine
// (engine::modal, the analysis `pneumech modal` runs) at an operating point
// the user picks (the run's state at a time, or the static equilibrium from
// there), listed with frequency, damping ratio and the parts, beams, joints,
// chambers and controllers the mode's motion sits in. Selecting a mode
// animates it in the 3D view: one period of the linearised oscillation about
// the operating point, slowed to two seconds on screen, the largest motion
// of a part set by the amplitude slider (in % of the mechanism's size); the
// view's deformation scale and stress colours apply to it as to a run. Stop
// hands the view back to the run at the time cursor (animationStopped).
#pragma once

#include "engine/engine.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QTableWidget;
class QTimer;

namespace pm::gui {

class Document;
class MechanismView;

class ModesPanel : public QWidget {
  Q_OBJECT

 public:
  // `view3d` may be null (no OpenGL): the table works, nothing is animated.
  ModesPanel(Document* doc, MechanismView* view3d, QWidget* parent = nullptr);
  ~ModesPanel() override;

  // Computes the modes at the panel's operating point and lists them; false
  // (the message shown in the panel) when the analysis fails.
  bool compute();
  const ModalResult* result() const { return result_ ? &*result_ : nullptr; }
  QTableWidget* table() const { return table_; }
  QSlider* amplitudeSlider() const { return amplitude_; }

  // The mode animated (index into result()->modes), -1 when none.
  int animatedMode() const { return animating_; }
  // The rows the 3D view plays (one period, t = fraction of it); null when none.
  const ResultStore* animationRows() const { return rows_.get(); }
  // Shows the animation at `fraction` of its period (the timer moves on from there).
  void showPhase(double fraction);
  double phase() const { return phase_; }
  // Ends the animation (no-op when none) and emits animationStopped.
  void stopAnimation();

 signals:
  void animationStopped();

 private:
  void fillTable();
  void animate(int mode);
  void rebuildRows();
  void tick();
  void setStatus(const QString& text, bool error = false);

  Document* doc_;
  QPointer<MechanismView> view3d_;  // may go first when the window closes
  QDoubleSpinBox* at_;
  QCheckBox* static_;
  QCheckBox* all_;
  QPushButton* compute_;
  QLabel* status_;
  QTableWidget* table_;
  QSlider* amplitude_;
  QLabel* amplitudeLabel_;
  QPushButton* stop_;
  QTimer* timer_;
  std::optional<ModalResult> result_;
  std::unique_ptr<ResultStore> rows_;
  int animating_ = -1;
  double phase_ = 0.0;
};

}  // namespace pm::gui
