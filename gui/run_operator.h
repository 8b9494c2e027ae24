// Interactive mode: while a run is in progress, pressing the mouse on a
// hand-operable component in the schematic (pm::handOperable: push button,
// selector switch, manual valve) presses it in the simulation and releasing
// the mouse releases it (through the run's RunControl). The element decides
// what a press means: held while pressed (push button, spring-return valve)
// or a detent step (selector switch, detent valve toggles). Pair it with
// real-time pacing to demonstrate a circuit. Hovering an operable component
// during a run shows the pointing-hand cursor. Other clicks pass on to the
// schematic as usual. The studio turns it on with its Interactive mode
// (toolbar), which also paces the run to the wall clock; off, clicks during
// a run select and move symbols as at any other time.
#pragma once

#include <QObject>
#include <QString>

class QGraphicsView;

namespace pm::gui {

class Document;
class SimulationRunner;

class RunOperator : public QObject {
  Q_OBJECT
 public:
  RunOperator(QGraphicsView* view, Document* doc, SimulationRunner* runner, QObject* parent = nullptr);

  void setActive(bool on) { active_ = on; }
  bool isActive() const { return active_; }
  // The operable component at a viewport point ("" when none).
  QString operableAt(const QPoint& viewportPos) const;

 signals:
  void operated(const QString& id, bool pressed);

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  QGraphicsView* view_;
  Document* doc_;
  SimulationRunner* runner_;
  QString held_;
  bool active_ = true;
};

}  // namespace pm::gui
