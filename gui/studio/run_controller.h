// The studio's run control: starts a run once the pre-run checks pass,
// pauses, resumes and stops it, takes the rows the runner hands over into the
// result buffer and shows them in the views at most about 30 times a second
// (schematic colours, plots, time bar, 3D view, progress and status), and
// reports its end.
#pragma once

#include "engine/engine.h"
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
  void setViews(const Views& views) { v_ = views; }
  // The pre-run checks (the window lists them); a run starts only without errors.
  void setChecks(std::function<std::vector<CheckMessage>()> checks) { checks_ = std::move(checks); }

  SimulationRunner* runner() const { return runner_; }
  bool isRunning() const;
  bool isPaused() const;

  void run();
  void pause();
  void resume();
  void stop();
  void setPacing(double factor);
  // The old run's results leave every view.
  void clearResults();
  // The schematic's picture at the cursor's time t.
  void showFrame(double t);

 signals:
  void checksFailed();        // the window shows its messages
  void stateChanged();        // started, paused, resumed, finished: actions to update
  void finished(bool ok);     // after the views show the end

 private:
  void onRowsReady();
  void takeRows();
  void showRows();
  void updateStatus();
  void onRunnerFinished(bool ok);

  Document* doc_;
  Views v_;
  std::function<std::vector<CheckMessage>()> checks_;
  SimulationRunner* runner_ = nullptr;
  std::unique_ptr<RunAnimation> anim_;
  QTimer* pace_ = nullptr;  // running: the views were just redrawn
  bool waiting_ = false;    // rows came while pace_ ran
  std::vector<double> rows_;  // taken from the runner (reused)
  const ResultStore* shown3d_ = nullptr;  // what the 3D view copies rows from
  uint64_t generation3d_ = 0;
  double tEnd_ = 0.0;  // of the run shown
};

}  // namespace pm::gui
