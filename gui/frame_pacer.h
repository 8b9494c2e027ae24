// Paces a repeating GUI job (a playback frame, a run's new rows into the
// views) so that it leaves the event loop idle long enough: at least as long
// as the loop was busy since its last turn (wall time), and long enough for
// the GUI thread's CPU time since then to be at most `cpuShare` of the
// interval (issue 25 point 7: under 20 % of a core during a live run). On a
// loaded machine or with dear frames the frames thin out (down to maxMs
// apart) instead of keeping the GUI thread busy, and input waits for at most
// about one frame.
#pragma once

#include <QElapsedTimer>

namespace pm::gui {

class FramePacer {
 public:
  static constexpr double kCpuShare = 0.15;  // of the GUI thread's core, with some room below 20 %

  explicit FramePacer(int minMs = 33, int maxMs = 400, double cpuShare = kCpuShare)
      : min_(minMs), max_(maxMs), share_(cpuShare), last_(minMs) {}

  // A new series of frames starts now.
  void restart();
  // At each frame (after its own work): the wait before the next one [ms].
  // The time since the last frame beyond the wait asked for then is how
  // long the loop was busy (this frame's work, the repaints, other events);
  // the calling thread's CPU time since then is what it cost.
  int next();

 private:
  int min_, max_;
  double share_;
  int last_;
  QElapsedTimer since_;
  double cpu0_ = 0.0;  // the thread's CPU time at the last frame [ms]
};

}  // namespace pm::gui
