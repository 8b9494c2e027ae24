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
// The schematic plays the mode too: its lines take the colours of their
// nets' pressures oscillating in the mode about the operating point (the
// time playback's colouring, the same scale factor as the motion), rods
// move with the cylinders. A mode that moves no part swings its largest
// pressure by the amplitude slider's % of the colour scale. The window
// shows the schematic's colour legend meanwhile (schematicColoured).
//
// Compute runs the analysis on a worker thread (a copy of the project), the
// window answering meanwhile; Cancel (or an edit of the project, or closing
// the window) gives it up: the run to the operating point stops at its next
// step, the eigensolution runs out and its result is dropped. A Compute
// while another computes gives the older one up the same way.
#pragma once

#include "engine/engine.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QTableWidget;
class QTimer;

namespace pm::gui {

class Document;
class MechanismView;
class RunAnimation;
class SchematicScene;

class ModesPanel : public QWidget {
  Q_OBJECT

 public:
  // `view3d` may be null (no OpenGL): the table works, nothing moves in 3D;
  // `schematic` may be null: no pressure colours.
  ModesPanel(Document* doc, MechanismView* view3d, SchematicScene* schematic = nullptr, QWidget* parent = nullptr);
  ~ModesPanel() override;

  // Starts computing the modes at the panel's operating point (computed()
  // comes when they are listed, or the failure is shown in the panel).
  void compute();
  bool isComputing() const { return job_ != nullptr; }
  // Gives up the computation in progress (no-op when none).
  void cancel();
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
  // The schematic's lines take the mode's pressure colours on this scale
  // [Pa absolute] (the window shows the colour legend, run or no run).
  void schematicColoured(double pLow, double pHigh);
  // A computation ended: true when its modes are listed, false when it
  // failed (the panel says why). Not emitted for one given up.
  void computed(bool ok);

 private:
  struct Job;
  void finish(const std::shared_ptr<Job>& job);
  void setComputing(bool on);
  void fillTable();
  void animate(int mode);
  void rebuildRows();
  double pressureScale(size_t k) const;
  void showSchematic();
  void tick();
  void setStatus(const QString& text, bool error = false);

  Document* doc_;
  QPointer<MechanismView> view3d_;  // may go first when the window closes
  QPointer<SchematicScene> schematic_;
  std::unique_ptr<RunAnimation> colours_;     // the schematic's picture of a row
  std::vector<std::vector<double>> columns_;  // rows_ by channel, for colours_
  QDoubleSpinBox* at_;
  QCheckBox* static_;
  QCheckBox* all_;
  QPushButton* compute_;
  QPushButton* cancel_;
  QProgressBar* busy_;
  QLabel* status_;
  QTableWidget* table_;
  QSlider* amplitude_;
  QLabel* amplitudeLabel_;
  QPushButton* stop_;
  QTimer* timer_;
  std::optional<ModalResult> result_;
  std::shared_ptr<Job> job_;                // the computation whose result is awaited
  std::vector<std::shared_ptr<Job>> jobs_;  // every worker not yet joined (given-up ones too)
  std::unique_ptr<ResultStore> rows_;
  int animating_ = -1;
  double phase_ = 0.0;
};

}  // namespace pm::gui
