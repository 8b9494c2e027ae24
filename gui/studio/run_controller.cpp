#include "run_controller.h"

#include "document.h"
#include "mechanism_view.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "run_animation.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "simulation_runner.h"
#include "time_bar.h"
#include "time_cursor.h"
#include "units.h"

#include <QLabel>
#include <QProgressBar>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace pm::gui {

RunController::RunController(Document* doc, QObject* parent)
    : QObject(parent), doc_(doc), runner_(new SimulationRunner(this)), anim_(std::make_unique<RunAnimation>()) {
  connect(runner_, &SimulationRunner::finished, this, &RunController::onRunnerFinished);
  poll_ = new QTimer(this);
  poll_->setInterval(33);  // ~30 Hz
  connect(poll_, &QTimer::timeout, this, &RunController::poll);
}

RunController::~RunController() {
  poll_->stop();
  runner_->stop();
}

bool RunController::isRunning() const { return runner_->isRunning(); }
bool RunController::isPaused() const { return runner_->isPaused(); }

void RunController::clearResults() {
  if (v_.view3d) v_.view3d->setResults(nullptr);  // the old store goes with the old run
  v_.buffer->clear();
  v_.scene->setFrame({});
  v_.view->setLegendVisible(false);
  v_.cursor->reset();
  v_.timeBar->updateRows();
}

void RunController::run() {
  const Project& project = doc_->project();
  if (runner_->isRunning() || (project.components.empty() && project.mechanism.empty())) return;
  const auto found = checks_ ? checks_() : std::vector<CheckMessage>{};
  if (hasErrors(found)) {
    emit checksFailed();
    v_.status->setText(tr("Not started: the check found errors (see Messages)"));
    return;
  }
  clearResults();  // the panes keep the user's choice of channels for the next run
  tEnd_ = project.simulation.t_end;
  v_.results->startRun(project);
  anim_->prepare(project);
  v_.cursor->setFollowLive(true);
  runner_->start(project, doc_->file().toStdString());
  v_.status->setText(tr("Running..."));
  v_.progress->setValue(0);
  v_.progress->show();
  poll_->start();
  emit stateChanged();
}

void RunController::pause() {
  if (!runner_->isRunning() || runner_->isPaused()) return;
  runner_->pause();
  updateStatus();
  emit stateChanged();
}

void RunController::resume() {
  if (!runner_->isPaused()) return;
  runner_->resume();
  updateStatus();
  emit stateChanged();
}

void RunController::stop() {
  if (!runner_->isRunning()) return;
  runner_->stop();
  v_.status->setText(tr("Stopping..."));
}

void RunController::setPacing(double factor) { runner_->setPacing(factor); }

void RunController::showFrame(double t) {
  if (v_.buffer->rows() > 0 && anim_->ready())
    v_.scene->setFrame(anim_->frame(v_.buffer->columns(), v_.buffer->rowAt(t), t));
}

void RunController::poll() {
  auto store = runner_->store();
  if (!store) return;
  const bool fresh = v_.buffer->channels().empty();
  const size_t added = v_.buffer->pull(store);
  if (fresh && !v_.buffer->channels().empty()) {
    std::vector<std::string> names;
    for (const auto& c : v_.buffer->channels()) names.push_back(c.name);
    if (v_.view3d && !doc_->project().mechanism.empty()) v_.view3d->setResults(store.get());
    anim_->setChannels(names);
    v_.view->setLegendVisible(anim_->ready(), anim_->scaleLow(), anim_->scaleHigh());
  }
  if (added > 0) {
    v_.results->refresh();
    v_.timeBar->updateRows();
    // Live, the cursor moves to the newest row the buffer holds, the same
    // row the status bar reports.
    v_.cursor->setRange(v_.buffer->times().front(), v_.buffer->times().back());
  }
  if (runner_->isRunning()) updateStatus();
}

// Simulated time, progress and real-time factor (wall time without pauses).
void RunController::updateStatus() {
  const double tNow = v_.buffer->rows() ? v_.buffer->times().back() : 0.0;
  const double wall = runner_->wallSecondsSinceStart();
  const QString rtf = QString::number(wall > 0 ? tNow / wall : 0.0, 'g', 3);
  const int permille = tEnd_ > 0 ? static_cast<int>(std::lround(1000.0 * std::clamp(tNow / tEnd_, 0.0, 1.0))) : 0;
  v_.progress->setValue(permille);
  const QString what = runner_->isPaused() ? tr("Paused at t = %1 s of %2 s (%3 %), real-time factor %4")
                                           : tr("Running... t = %1 s of %2 s (%3 %), real-time factor %4");
  v_.status->setText(
      what.arg(units::formatNumber(tNow), units::formatNumber(tEnd_), QString::number(permille / 10.0, 'f', 1), rtf));
}

void RunController::onRunnerFinished(bool ok) {
  poll();  // the last rows
  poll_->stop();
  v_.progress->hide();
  v_.results->finishRun();
  v_.cursor->setFollowLive(false);  // stays at the last row
  const RunResult& r = runner_->lastResult();
  const RunStats& s = r.stats;
  QString head;
  switch (r.status) {
    case RunStatus::Completed: head = tr("Completed"); break;
    case RunStatus::Cancelled: head = tr("Cancelled"); break;
    case RunStatus::Failed: head = tr("Failed"); break;
  }
  QString text = tr("%1: t = %2 s in %3 s wall, real-time factor %4, %5 steps, %6 events")
                     .arg(head, units::formatNumber(s.tReached), QString::number(s.wallSeconds, 'g', 3),
                          QString::number(s.realTimeFactor(), 'g', 3))
                     .arg(s.steps)
                     .arg(s.events);
  if (!r.message.empty() && r.status != RunStatus::Completed) text += " - " + QString::fromStdString(r.message);
  v_.status->setText(text);
  emit stateChanged();
  emit finished(ok);
}

}  // namespace pm::gui
