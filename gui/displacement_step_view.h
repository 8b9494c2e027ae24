// The displacement-step diagram (VDI 3260) of a sequence-controlled circuit
// as a studio view and as a drawing for the PDF report: steps along x, one
// band per actuator with its position between retracted (0) and extended (1).
// The data come from the core (displacementStepDiagram); this only draws.
#pragma once

#include "engine/engine.h"
#include "model/project.h"

#include <QPainter>
#include <QWidget>

#include <limits>
#include <optional>
#include <string>

namespace pm::gui {

class ResultBuffer;

// The first step_sequence component of the project ("" when none).
std::string firstSequence(const Project& project);

// Where time t falls along the diagram's columns (column k: the k-th step
// entered, the last one: the end of the run), linear in time between two
// columns; 0 before the first step, the last column after the end.
double stepColumnAt(const DisplacementStepDiagram& d, double t);

// Paints `d` into `r`; `mm` is the device size of 1 mm (labels scale with it).
// Actuators are named by their label when the project gives one. A finite
// `cursorT` draws the time cursor across the bands.
void paintDisplacementStep(QPainter& p, const QRectF& r, double mm, const DisplacementStepDiagram& d,
                           const Project& project, double cursorT = std::numeric_limits<double>::quiet_NaN());

class DisplacementStepView : public QWidget {
  Q_OBJECT
 public:
  explicit DisplacementStepView(ResultBuffer* data, QWidget* parent = nullptr);

  void setProject(const Project& project);
  // Recomputes from the buffer's store (new rows, a finished run).
  void recompute();
  const std::optional<DisplacementStepDiagram>& diagram() const { return diagram_; }
  bool hasSequence() const { return !sequence_.empty(); }
  // Why there is no diagram (no sequence, no run yet, a missing channel).
  const QString& note() const { return note_; }
  // The document's time cursor, drawn as a line across the bands.
  void setCursorTime(double t);
  double cursorTime() const { return cursor_; }

 protected:
  void paintEvent(QPaintEvent* e) override;

 private:
  ResultBuffer* data_;
  Project project_;
  std::string sequence_;
  std::optional<DisplacementStepDiagram> diagram_;
  QString note_;
  double cursor_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace pm::gui
