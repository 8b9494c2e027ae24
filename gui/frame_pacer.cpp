#include "frame_pacer.h"

#include <algorithm>

namespace pm::gui {

void FramePacer::restart() {
  last_ = min_;
  since_.start();
}

int FramePacer::next() {
  if (!since_.isValid()) since_.start();
  const int busy = static_cast<int>(since_.restart()) - last_;
  last_ = std::clamp(busy, min_, max_);
  return last_;
}

}  // namespace pm::gui
