#include "run_operator.h"

#include "document.h"
#include "schematic_items.h"
#include "simulation_runner.h"
#include "engine/engine.h"

#include <QGraphicsView>
#include <QMouseEvent>

#include <utility>

namespace pm::gui {

RunOperator::RunOperator(QGraphicsView* view, Document* doc, SimulationRunner* runner, QObject* parent)
    : QObject(parent), view_(view), doc_(doc), runner_(runner) {
  view_->viewport()->installEventFilter(this);
}

QString RunOperator::operableAt(const QPoint& pos) const {
  for (QGraphicsItem* item : view_->items(pos)) {
    for (QGraphicsItem* i = item; i; i = i->parentItem())
      if (auto* c = qgraphicsitem_cast<ComponentItem*>(i)) {
        const Component* comp = doc_->project().find(c->id());
        return comp && handOperable(*comp) ? QString::fromStdString(c->id()) : QString();
      }
  }
  return {};
}

bool RunOperator::eventFilter(QObject* watched, QEvent* e) {
  if (watched != view_->viewport()) return false;
  // A press already held is released even when the mode went off meanwhile.
  if (!active_ && held_.isEmpty()) return false;
  if (e->type() == QEvent::MouseButtonPress || e->type() == QEvent::MouseButtonDblClick) {
    auto* me = static_cast<QMouseEvent*>(e);
    if (me->button() != Qt::LeftButton || !runner_->isRunning()) return false;
    const QString id = operableAt(me->position().toPoint());
    if (id.isEmpty()) return false;
    held_ = id;
    runner_->operate(id.toStdString(), 1.0);
    emit operated(id, true);
    return true;  // no selection or drag of the symbol while operating it
  }
  if (e->type() == QEvent::MouseMove) {
    // During a run what can be operated shows the pointing hand, as a link
    // does; elsewhere the schematic sets its own cursor.
    auto* me = static_cast<QMouseEvent*>(e);
    if (me->buttons() != Qt::NoButton || !runner_->isRunning() || operableAt(me->position().toPoint()).isEmpty())
      return false;
    view_->viewport()->setCursor(Qt::PointingHandCursor);
    return true;
  }
  if (e->type() == QEvent::MouseButtonRelease && !held_.isEmpty()) {
    const QString id = std::exchange(held_, QString());
    if (runner_->isRunning()) runner_->operate(id.toStdString(), 0.0);
    emit operated(id, false);
    return true;
  }
  return false;
}

}  // namespace pm::gui
