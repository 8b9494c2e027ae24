#include "frame_pacer.h"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace pm::gui {

namespace {

// CPU time of the calling thread [ms].
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * double(ts.tv_sec) + 1e-6 * double(ts.tv_nsec);
}

}  // namespace

void FramePacer::restart() {
  last_ = min_;
  since_.start();
  cpu0_ = threadCpuMs();
}

int FramePacer::next() {
  if (!since_.isValid()) restart();
  const double wall = double(since_.restart());
  const double busy = wall - last_;
  const double now = threadCpuMs(), cpu = now - cpu0_;
  cpu0_ = now;
  // cpu / (busy + pause) <= share: with frames of the same cost, the thread
  // is busy for at most `share` of each frame's work and the pause after it.
  const double forShare = share_ > 0 ? cpu / share_ - busy : 0.0;
  last_ = std::clamp(int(std::lround(std::max(busy, forShare))), min_, max_);
  return last_;
}

}  // namespace pm::gui
