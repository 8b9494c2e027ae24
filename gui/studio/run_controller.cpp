#include "run_controller.h"

#include "document.h"
#include "mechanism_view.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "run_animation.h"
#include "run_operator.h"
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
#include <utility>

namespace pm::gui {

RunController::RunController(Document* doc, QObject* parent)
    : QObject(parent), doc_(doc), runner_(new SimulationRunner(this)), anim_(std::make_unique<RunAnimation>()) {
  connect(runner_, &SimulationRunner::finished, this, &RunController::onRunnerFinished);
  connect(runner_, &SimulationRunner::rowsReady, this, &RunController::onRowsReady);
  // Views are redrawn at most ~30 times a second, and less often when the
  // GUI thread is short of time (FramePacer): rows that come sooner wait in
  // the runner until the pause is over.
  pace_ = new QTimer(this);
  pace_->setSingleShot(true);
  pace_->setInterval(33);
  connect(pace_, &QTimer::timeout, this, [this] {
    if (alignedIntake()) return;  // the cursor's next frame takes them
    if (!std::exchange(waiting_, false)) return;
    takeRows();
    pace_->start(pacer_.next());  // the busier the GUI thread, the longer the pause
  });
}

RunController::~RunController() {
  pace_->stop();
  runner_->stop();
}

bool RunController::isRunning() const { return runner_->isRunning() || finishPending_; }
bool RunController::isPaused() const { return runner_->isPaused(); }

void RunController::clearResults() {
  if (v_.view3d) v_.view3d->setResults(nullptr);  // the old store goes with the old run
  shown3d_ = nullptr;
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
  updatePacing();
  if (interactive_ || std::isinf(v_.cursor->speed())) {
    v_.cursor->setFollowLive(true);
  } else {
    // Played from the start at the chosen speed while the rows come.
    v_.cursor->setOpenEnded(true);
    v_.cursor->play();
  }
  // The 3D view drawn less often while rows stream: it is the dearest view
  // to draw (in software on a machine without a GPU, on the cores the
  // solver and the GUI thread need).
  if (v_.view3d) v_.view3d->setPoseInterval(kRun3dFrameMs);
  runner_->start(project, doc_->file().toStdString());
  v_.status->setText(tr("Running..."));
  v_.progress->setValue(0);
  v_.progress->show();
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

void RunController::setViews(const Views& views) {
  v_ = views;
  connect(v_.buffer, &ResultBuffer::rowsReplaced, this, [this] {
    if (std::exchange(finishPending_, false)) finishViews(finishedOk_);
  });
  connect(v_.cursor, &TimeCursor::speedChanged, this, &RunController::updatePacing);
  connect(v_.cursor, &TimeCursor::frameDue, this, [this] {
    if (std::exchange(waiting_, false)) takeRows();
  });
  // Playback stopped with rows waiting for its frame: taken at the run's pace.
  connect(v_.cursor, &TimeCursor::playingChanged, this, [this](bool playing) {
    if (playing || !waiting_ || pace_->isActive()) return;
    waiting_ = false;
    pacer_.restart();
    takeRows();
    pace_->start(33);
  });
}

void RunController::setOperator(RunOperator* op) {
  operator_ = op;
  operator_->setActive(interactive_);
}

void RunController::setInteractive(bool on) {
  interactive_ = on;
  if (operator_) operator_->setActive(on);
  updatePacing();
  // A run in progress switches to showing its newest row.
  if (on && runner_->isRunning()) {
    v_.cursor->setOpenEnded(false);
    v_.cursor->setFollowLive(true);
  }
}

void RunController::updatePacing() {
  const double speed = v_.cursor ? v_.cursor->speed() : 1.0;
  runner_->setPacing(interactive_ && std::isfinite(speed) ? speed : 0.0);
}

void RunController::showFrame(double t) {
  if (v_.buffer->rows() > 0 && anim_->ready())
    v_.scene->setFrame(anim_->frame(v_.buffer->columns(), v_.buffer->rowAt(t), t));
}

void RunController::showLegend() {
  v_.view->setLegendVisible(v_.scene->frame().active && anim_->ready(), anim_->scaleLow(), anim_->scaleHigh());
}

// While the cursor plays, rows are taken at its frames: the views they
// change are repainted with the frame, in one repaint of the window (each
// repaint composes and presents the whole window, which the 3D view's
// OpenGL makes dear). Otherwise at the run's own pace.
bool RunController::alignedIntake() const {
  return v_.cursor->isPlaying();
}

void RunController::onRowsReady() {
  if (pace_->isActive() || alignedIntake()) {
    waiting_ = true;  // taken when the pause is over, or at the next frame
    return;
  }
  pacer_.restart();
  takeRows();
  pace_->start(33);
}

// The rows the runner has: into the buffer, then every view.
void RunController::takeRows() {
  std::vector<ChannelInfo> channels;
  const size_t added = runner_->takeRows(rows_, &channels);
  if (!channels.empty()) {
    v_.buffer->begin(channels);
    std::vector<std::string> names;
    for (const auto& c : channels) names.push_back(c.name);
    anim_->setChannels(names);
    v_.view->setLegendVisible(anim_->ready(), anim_->scaleLow(), anim_->scaleHigh());
  }
  if (added > 0) v_.buffer->append(rows_, added);
  if (added > 0 || !channels.empty()) showRows();
  if (runner_->isRunning()) updateStatus();
}

void RunController::showRows() {
  // The 3D view copies rows as they come: it starts over on a new store or
  // when the buffer thinned its rows out.
  if (v_.view3d && !doc_->project().mechanism.empty() && v_.buffer->store() &&
      (v_.buffer->store().get() != shown3d_ || v_.buffer->generation() != generation3d_)) {
    shown3d_ = v_.buffer->store().get();
    generation3d_ = v_.buffer->generation();
    v_.view3d->setResults(shown3d_, false);  // the base is fitted once the run is over
  }
  if (v_.buffer->rows() == 0) return;
  v_.results->refresh();
  v_.timeBar->updateRows();
  // Live, the cursor moves to the newest row the buffer holds, the same
  // row the status bar reports.
  v_.cursor->setRange(v_.buffer->times().front(), v_.buffer->times().back());
}

// Simulated time, progress and real-time factor (wall time without pauses).
void RunController::updateStatus() {
  const double tNow = v_.buffer->rows() ? v_.buffer->times().back() : 0.0;
  const double wall = runner_->wallSecondsSinceStart();
  const QString rtf = QString::number(wall > 0 ? tNow / wall : 0.0, 'g', 3);
  const int permille = tEnd_ > 0 ? static_cast<int>(std::lround(1000.0 * std::clamp(tNow / tEnd_, 0.0, 1.0))) : 0;
  // QProgressBar::setValue repaints at once: with the 3D view's OpenGL that
  // composes and presents the whole window a second time in the frame. With
  // updates off it only stores the value; turning them on again schedules
  // the repaint, which goes out with the frame's.
  v_.progress->setUpdatesEnabled(false);
  v_.progress->setValue(permille);
  v_.progress->setUpdatesEnabled(true);
  const QString what = runner_->isPaused() ? tr("Paused at t = %1 s of %2 s (%3 %), real-time factor %4")
                                           : tr("Running... t = %1 s of %2 s (%3 %), real-time factor %4");
  v_.status->setText(
      what.arg(units::formatNumber(tNow), units::formatNumber(tEnd_), QString::number(permille / 10.0, 'f', 1), rtf));
}

void RunController::onRunnerFinished(bool ok) {
  pace_->stop();
  waiting_ = false;
  takeRows();  // the last rows
  // Read once the run is over; the plotted copy made again from it when the
  // GUI fell behind and was given every k-th row.
  v_.buffer->finish(runner_->resultsFile(), runner_->rowsThinned());
  if (v_.buffer->reloading()) {
    finishPending_ = true;  // the views end the run when the copy is in place
    finishedOk_ = ok;
    return;
  }
  finishViews(ok);
}

// The run's end in every view, with the rows kept in place.
void RunController::finishViews(bool ok) {
  showRows();
  if (v_.view3d) {
    v_.view3d->setPoseInterval(0);
    v_.view3d->resultsComplete();
  }
  v_.progress->hide();
  v_.results->finishRun();
  v_.cursor->setOpenEnded(false);   // a playback goes on to the last row and stops there
  v_.cursor->setFollowLive(false);  // live: stays at the last row
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
