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
//   xvfb-run -a -s '-screen 0 1600x1000x24' build/bin/pneumech-bench-responsiveness [t_end] [--run-only]
// --run-only: the run at 1x alone, without the baselines, the playing on
// and the frame costs (for a profiler: valgrind --tool=callgrind
// --collect-atstart=no --fair-sched=yes collects the run alone).
#include "main_window.h"
#include "mechanism_view.h"
#include "plot_pane.h"
#include "results_panel.h"
#include "run_controller.h"
#include "schematic_view.h"
#include "simulation_runner.h"
#include "time_cursor.h"

#include "engine/engine.h"

#include <QApplication>
#include <QEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QEventLoop>

#include <algorithm>
#include <cmath>
#include <functional>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#endif
#include <sys/resource.h>
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

// CPU time of Qt's painting helpers: the raster engine fills and blends
// large areas on the threads of Qt's GUI thread pool ("Thread (pooled)")
// while the GUI thread waits, so their time is the GUI's too.
double poolCpuSeconds() {
  double sum = 0.0;
  const long hz = sysconf(_SC_CLK_TCK);
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name.rfind("Thread (pooled)", 0) != 0) continue;
    std::ifstream stat(task.path() / "stat");
    std::string line;
    std::getline(stat, line);
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 14) utime = std::stod(field);
      if (i == 15) stime = std::stod(field);
    }
    sum += (utime + stime) / double(hz);
  }
  return sum;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

// Posts a probe every 20 ms from a thread of its own while it lives, and
// the GUI thread's CPU time and context switches from start to report().
class Probe {
 public:
  Probe() : cpu0_(threadCpuSeconds()), pool0_(poolCpuSeconds()), wall0_(Clock::now()), rusage0_(threadUsage()) {
    poster_ = std::thread([this] {
      while (!stop_) {
        QCoreApplication::postEvent(&receiver_, new ProbeEvent(Clock::now()));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  }
  ~Probe() { finish(); }
  void report(const char* what) {
    const double cpu = threadCpuSeconds() - cpu0_;
    const double pool = poolCpuSeconds() - pool0_;
    const double wall = std::chrono::duration<double>(Clock::now() - wall0_).count();
    const rusage r = threadUsage();
    finish();
    const auto& d = receiver_.delays;
    std::printf("  %-34s %5.1f s wall, GUI thread CPU %5.2f s = %4.1f %% of wall (with Qt's paint pool %4.1f %%), "
                "%ld preemptions; input latency (%zu probes) median %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms\n",
                what, wall, cpu, 100.0 * cpu / wall, 100.0 * (cpu + pool) / wall, r.ru_nivcsw - rusage0_.ru_nivcsw,
                d.size(), percentile(d, 0.5),
                percentile(d, 0.9), percentile(d, 0.99), percentile(d, 1.0));
    std::fflush(stdout);
  }

 private:
  static rusage threadUsage() {
    rusage r{};
    getrusage(RUSAGE_THREAD, &r);
    return r;
  }
  void finish() {
    if (stop_.exchange(true)) return;
    poster_.join();
    QCoreApplication::removePostedEvents(&receiver_);
  }
  ProbeReceiver receiver_;
  double cpu0_, pool0_;
  Clock::time_point wall0_;
  rusage rusage0_;
  std::atomic<bool> stop_{false};
  std::thread poster_;
};

void waitMs(int ms) {
  QEventLoop loop;
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  loop.exec();
}

// What one frame of playback costs the GUI thread, view by view: the
// cursor's listeners, then the repaint they cause.
void frameCost(gui::MainWindow& w) {
  w.timeCursor()->pause();
  const double end = w.timeCursor()->end();
  const int n = 60;
  auto each = [&](const char* what, const std::function<void(double)>& f) {
    QApplication::processEvents();
    const double c0 = threadCpuSeconds() + poolCpuSeconds();
    for (int i = 0; i < n; ++i) f(end * (i + 0.5) / n);
    std::printf("    %-46s %6.2f ms CPU per frame (GUI thread and paint pool)\n", what,
                1e3 * (threadCpuSeconds() + poolCpuSeconds() - c0) / n);
  };
  each("every view (TimeCursor::setTime)", [&](double t) { w.timeCursor()->setTime(t); });
  each("every view and the repaint", [&](double t) {
    w.timeCursor()->setTime(t);
    QApplication::processEvents();
  });
  each("schematic frame (RunController::showFrame)", [&](double t) { w.runController()->showFrame(t); });
  each("  and what it repaints", [&](double t) {
    w.runController()->showFrame(t);
    QApplication::processEvents();
  });
  each("plots, tree, step diagram (ResultsPanel)", [&](double t) { w.resultsPanel()->setTimeCursor(t); });
  each("  and what they repaint", [&](double t) {
    w.resultsPanel()->setTimeCursor(t);
    QApplication::processEvents();
  });
  // What a live run costs the plots at each redraw: every pane decimates
  // its channels from all rows and Qt Charts lays out and strokes them.
  each("plots redrawn from every row, and repainted", [&](double) {
    for (int i = 0; i < w.resultsPanel()->paneCount(); ++i) w.resultsPanel()->pane(i)->refresh();
    QApplication::processEvents();
  });
  if (w.mechanismView())
    each("3D view pose and its repaint", [&](double t) {
      w.mechanismView()->setPose(t);
      QApplication::processEvents();
    });
  std::fflush(stdout);
}

// The project at `file` in a new window at playback `speed`: idle, during
// the run, and (at a finite speed) while the views play on after it.
void measure(const QString& file, double speed, const char* what, bool runOnly = false) {
  gui::MainWindow w;
  w.resize(1500, 1000);
  w.show();
  w.openProject(file);
  w.timeCursor()->setSpeed(speed);
  std::printf("%s\n", what);
  if (runOnly) waitMs(1000);  // the window shown and laid out
  if (!runOnly) {
    Probe idle;
    waitMs(3000);
    idle.report("idle, project open (baseline)");
  }
  if (!runOnly) {
    // The scheduler alone: two threads of this process spinning, as the
    // solver and its output thread do, and the GUI thread doing nothing.
    std::atomic<bool> stop{false};
    std::vector<std::thread> spin;
    for (int i = 0; i < 2; ++i)
      spin.emplace_back([&] {
        volatile double x = 0;
        while (!stop) x = x + 1.0;
      });
    Probe busy;
    waitMs(3000);
    busy.report("idle, 2 threads spinning (baseline)");
    stop = true;
    for (auto& t : spin) t.join();
  }
  QSignalSpy done(&w, &gui::MainWindow::simulationFinished);
  QSignalSpy frames(w.timeCursor(), &gui::TimeCursor::frameDue);
  gui::MechanismView* v3d = w.mechanismView();
  const quint64 poses0 = v3d ? v3d->poseCount() : 0, paints0 = v3d ? v3d->frameCount() : 0;
  {
    Probe run;
    CALLGRIND_TOGGLE_COLLECT;  // under callgrind --collect-atstart=no: the run alone
    w.runSimulation();
    done.wait(1800000);
    CALLGRIND_TOGGLE_COLLECT;
    run.report("during the run");
  }
  const RunStats& s = w.runner()->lastResult().stats;
  std::printf("  run: t = %.1f s, solver real-time factor %.2f; the cursor at %.2f s when it ended; "
              "%d playback frames, 3D %llu poses, %llu paints; rows thinned for the GUI: %s\n",
              s.tReached, s.realTimeFactor(), w.timeCursor()->time(), int(frames.count()),
              (unsigned long long)(v3d ? v3d->poseCount() - poses0 : 0),
              (unsigned long long)(v3d ? v3d->frameCount() - paints0 : 0), w.runner()->rowsThinned() ? "yes" : "no");
  std::fflush(stdout);
  if (runOnly) return;
  if (w.timeCursor()->isPlaying()) {
    Probe play;
    waitMs(5000);
    play.report("playing on after the run (5 s)");
  }
  if (std::isfinite(speed)) frameCost(w);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const double tEnd = argc > 1 ? std::atof(argv[1]) : 90.0;
  const bool runOnly = argc > 2 && std::string(argv[2]) == "--run-only";
  Project p = engine::load(std::string(PM_SOURCE_DIR) + "/projects/torx_open_loop.pneumech.json");
  p.simulation.t_end = tEnd;
  QTemporaryDir dir;
  const QString file = dir.filePath("torx.pneumech.json");
  engine::save(p, file.toStdString());
  std::printf("TORX open loop, t_end %g s, platform %s\n", tEnd, qPrintable(QGuiApplication::platformName()));
  measure(file, 1.0, "Playback 1x (the default):", runOnly);
  if (!runOnly) measure(file, gui::TimeCursor::asFastAsPossible(), "Playback as fast as possible:");
  return 0;
}
