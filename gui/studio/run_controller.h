// The studio's run control: starts a run once the pre-run checks pass,
// pauses, resumes and stops it, takes the rows the runner hands over into the
// result buffer and shows them in the views at most about 30 times a second
// (schematic colours, plots, time bar, 3D view, progress and status), and
// reports its end.
//
// Live results by default: a run plays in the views from its start at the
// time cursor's speed (real time unless the user chose another), waiting at
// the newest row when the solver is slower; "as fast as possible" shows the
// newest row at once. Interactive mode paces the run itself at that speed
// and lets hand-operated components be clicked while it runs (RunOperator).
#pragma once

#include "engine/engine.h"
#include "frame_pacer.h"
#include "project_checks.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

class QLabel;
class QProgressBar;
class QTimer;

namespace pm::gui {

class Document;
class MechanismView;
class ResultBuffer;
class ResultsPanel;
class RunOperator;
class RunAnimation;
class SchematicScene;
class SchematicView;
class SimulationRunner;
class TimeBar;
class TimeCursor;

class RunController : public QObject {
  Q_OBJECT
 public:
  // What a run updates; the window builds them (view3d may be null).
  struct Views {
    ResultBuffer* buffer = nullptr;
    SchematicScene* scene = nullptr;
    SchematicView* view = nullptr;
    ResultsPanel* results = nullptr;
    TimeCursor* cursor = nullptr;
    TimeBar* timeBar = nullptr;
    QLabel* status = nullptr;
    QProgressBar* progress = nullptr;
    MechanismView* view3d = nullptr;
  };

  RunController(Document* doc, QObject* parent);
  ~RunController() override;  // stops a running simulation
  void setViews(const Views& views);
  // The schematic's hand operation, active in interactive mode only.
  void setOperator(RunOperator* op);
  // The pre-run checks (the window lists them); a run starts only without errors.
  void setChecks(std::function<std::vector<CheckMessage>()> checks) { checks_ = std::move(checks); }

  SimulationRunner* runner() const { return runner_; }
  // Running, or ended and its views not yet showing the end (the copy made
  // again from the results file).
  bool isRunning() const;
  bool isPaused() const;
  // The store the 3D view shows the run from (null before a run).
  const ResultStore* shown3d() const { return shown3d_; }

  void run();
  void pause();
  void resume();
  void stop();
  // Interactive mode: the run keeps to the wall clock at the cursor's speed
  // (unpaced at "as fast as possible"), the cursor shows its newest row, and
  // push buttons, switches and manual valves can be clicked during it.
  void setInteractive(bool on);
  bool isInteractive() const { return interactive_; }
  // The old run's results leave every view.
  void clearResults();
  // The schematic's picture at the cursor's time t.
  void showFrame(double t);
  // The schematic's colour legend on the run's scale while its picture
  // shows a run (after a mode animation ends), else none.
  void showLegend();

 signals:
  void checksFailed();        // the window shows its messages
  void stateChanged();        // started, paused, resumed, finished: actions to update
  void finished(bool ok);     // after the views show the end

 public:
  // The least time between two poses of the 3D view during a run [ms].
  static constexpr int kRun3dFrameMs = 150;

 private:
  void onRowsReady();
  bool alignedIntake() const;
  void takeRows();
  void showRows();
  void updateStatus();
  void onRunnerFinished(bool ok);
  void finishViews(bool ok);
  void updatePacing();

  Document* doc_;
  Views v_;
  std::function<std::vector<CheckMessage>()> checks_;
  SimulationRunner* runner_ = nullptr;
  std::unique_ptr<RunAnimation> anim_;
  QTimer* pace_ = nullptr;  // running: the views were just redrawn
  bool waiting_ = false;    // rows came while pace_ ran
  FramePacer pacer_;
  std::vector<double> rows_;  // taken from the runner (reused)
  const ResultStore* shown3d_ = nullptr;  // what the 3D view copies rows from
  uint64_t generation3d_ = 0;
  double tEnd_ = 0.0;  // of the run shown
  RunOperator* operator_ = nullptr;
  bool interactive_ = false;
  // The run ended and the buffer makes its copy again from the results
  // file (the GUI fell behind): the views end the run when it is in place.
  bool finishPending_ = false;
  bool finishedOk_ = false;
};

}  // namespace pm::gui
