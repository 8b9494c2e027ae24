// What the studio's live plots cost the solver (issue 8: at most 10 %): the
// seed-003 circuit with t_end = 30 s runs (a) on a worker thread with nothing
// reading it and (b) from the studio window with the default plot panes
// updating at ~30 Hz, the results tree and the schematic animation. Prints
// both real-time factors (solver wall time) and their ratio; asserts nothing.
// A benchmark executable (pneumech-bench-live-plot), not registered with
// CTest; run it offscreen: QT_QPA_PLATFORM=offscreen build/bin/pneumech-bench-live-plot
#include "main_window.h"
#include "simulation_runner.h"


#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cstdio>
#include <thread>
#include "engine/engine.h"

using namespace pm;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const double tEnd = argc > 1 ? std::atof(argv[1]) : 30.0;
  Project p = engine::load(std::string(PM_SOURCE_DIR) + "/projects/seed003_meter_out.pneumech.json");
  p.simulation.t_end = tEnd;
  QTemporaryDir dir;
  const QString file = dir.filePath("seed003.pneumech.json");
  engine::save(p, file.toStdString());
  for (int round = 0; round < 2; ++round) {
    double bare = 0.0;
    {
      engine::CompiledProject sim(p);
      ResultStore out;
      RunResult r;
      std::thread worker([&] { r = sim.run(out); });  // the same thread set-up as the studio's
      worker.join();
      bare = r.stats.realTimeFactor();
    }
    double live = 0.0;
    {
      gui::MainWindow w;
      w.resize(1500, 1000);
      w.show();
      w.openProject(file);
      QSignalSpy done(&w, &gui::MainWindow::simulationFinished);
      w.runSimulation();
      done.wait(600000);
      live = w.runner()->lastResult().stats.realTimeFactor();
    }
    std::printf("round %d: t_end %g s, real-time factor without GUI %.1f, with live plots %.1f (%.1f %% slower)\n",
                round + 1, tEnd, bare, live, 100.0 * (1.0 - live / bare));
  }
  return 0;
}
