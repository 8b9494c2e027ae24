// Paces a repeating GUI job (a playback frame, a run's new rows into the
// views) so that it leaves the event loop at least as long idle as the
// loop was busy since its last turn: on a loaded machine the frames thin
// out (down to maxMs apart) instead of keeping the GUI thread busy all the
// time, and input waits for at most about one frame.
#pragma once

#include <QElapsedTimer>

namespace pm::gui {

class FramePacer {
 public:
  explicit FramePacer(int minMs = 33, int maxMs = 200) : min_(minMs), max_(maxMs), last_(minMs) {}

  // A new series of frames starts now.
  void restart();
  // At each frame (after its own work): the wait before the next one [ms].
  // The time since the last frame beyond the wait asked for then is how
  // long the loop was busy (this frame's work, the repaints, other events).
  int next();

 private:
  int min_, max_, last_;
  QElapsedTimer since_;
};

}  // namespace pm::gui
