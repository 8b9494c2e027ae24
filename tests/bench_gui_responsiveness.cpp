// The studio's responsiveness during a long run (issue 25 point 7): the TORX
// example with t_end = 90 s (first argument) runs in the studio window, with
// the default plot panes, the results tree, the schematic animation and (on
// a display or Xvfb) the 3D view. While it runs a probe thread posts a
// time-stamped event to the GUI thread every 20 ms: the delay until the GUI
// thread handles it is the input latency. The GUI thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID) over the wall time is its load (target: under
// 20 %). Two cases: the default playback (1x, the views play the run from
// its start) and "as fast as possible" (the views show the newest row).
// Prints the figures; asserts nothing (the machine is shared). A benchmark
// executable, not registered with CTest:
//   xvfb-run -a -s '-screen 0 1600x1000x24' build/bin/pneumech-bench-responsiveness [t_end]
#include "main_window.h"
#include "simulation_runner.h"
#include "time_cursor.h"

#include "build/project_input.h"

#include <QApplication>
#include <QEvent>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <thread>
#include <vector>

using namespace pm;
using Clock = std::chrono::steady_clock;

namespace {

const QEvent::Type kProbe = static_cast<QEvent::Type>(QEvent::registerEventType());

struct ProbeEvent : QEvent {
  explicit ProbeEvent(Clock::time_point t) : QEvent(kProbe), posted(t) {}
  Clock::time_point posted;
};

// Handles the probes in the GUI thread and keeps their delays [ms].
class ProbeReceiver : public QObject {
 public:
  std::vector<double> delays;
  bool event(QEvent* e) override {
    if (e->type() != kProbe) return QObject::event(e);
    delays.push_back(std::chrono::duration<double, std::milli>(Clock::now() - static_cast<ProbeEvent*>(e)->posted).count());
    return true;
  }
};

double threadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

// One run of the project at `file` in a new window at playback `speed`;
// prints latency and GUI-thread load during the run.
void measure(const QString& file, double speed, const char* what) {
  gui::MainWindow w;
  w.resize(1500, 1000);
  w.show();
  w.openProject(file);
  w.timeCursor()->setSpeed(speed);
  QApplication::processEvents();
  ProbeReceiver probe;
  std::atomic<bool> stop{false};
  std::thread poster([&] {
    while (!stop) {
      QCoreApplication::postEvent(&probe, new ProbeEvent(Clock::now()));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  QSignalSpy done(&w, &gui::MainWindow::simulationFinished);
  const double cpu0 = threadCpuSeconds();
  const auto wall0 = Clock::now();
  w.runSimulation();
  done.wait(1800000);
  const double cpu = threadCpuSeconds() - cpu0;
  const double wall = std::chrono::duration<double>(Clock::now() - wall0).count();
  stop = true;
  poster.join();
  QCoreApplication::removePostedEvents(&probe);
  const RunStats& s = w.runner()->lastResult().stats;
  std::printf(
      "%-22s run: t = %.1f s in %.1f s wall (solver real-time factor %.2f); GUI thread CPU %.2f s = %.1f %% of wall; "
      "input latency over %zu probes: median %.1f ms, p99 %.1f ms, max %.1f ms; cursor at %.2f s when the run ended\n",
      what, s.tReached, wall, s.realTimeFactor(), cpu, 100.0 * cpu / wall, probe.delays.size(),
      percentile(probe.delays, 0.5), percentile(probe.delays, 0.99), percentile(probe.delays, 1.0),
      w.timeCursor()->time());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const double tEnd = argc > 1 ? std::atof(argv[1]) : 90.0;
  Project p = loadProject(std::string(PM_SOURCE_DIR) + "/projects/torx_open_loop.pneumech.json");
  p.simulation.t_end = tEnd;
  QTemporaryDir dir;
  const QString file = dir.filePath("torx.pneumech.json");
  saveProject(p, file.toStdString());
  std::printf("TORX open loop, t_end %g s, platform %s\n", tEnd, qPrintable(QGuiApplication::platformName()));
  measure(file, 1.0, "playback 1x (default)");
  measure(file, gui::TimeCursor::asFastAsPossible(), "as fast as possible");
  return 0;
}
