#include "time_cursor.h"

#include <QTimer>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pm::gui {

TimeCursor::TimeCursor(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
  timer_->setTimerType(Qt::PreciseTimer);
  timer_->setSingleShot(true);
  timer_->setInterval(33);  // ~30 frames/s, fewer when the GUI thread is short of time (FramePacer)
  connect(timer_, &QTimer::timeout, this, [this] {
    emit frameDue();
    // A stalled event loop must not make playback jump ahead by seconds.
    tick(std::min(1e-3 * double(clock_.restart()), 0.5));
    if (playing_) timer_->start(pacer_.next());
  });
}

double TimeCursor::asFastAsPossible() { return std::numeric_limits<double>::infinity(); }

double TimeCursor::shown(double t) const {
  if (!std::isfinite(t)) t = start_;
  t = std::clamp(t, start_, end_);
  return snap_ ? std::clamp(snap_(t), start_, end_) : t;
}

void TimeCursor::setRange(double start, double end) {
  start_ = start;
  end_ = std::max(start, end);
  emit rangeChanged(start_, end_);
  if (live_) setTime(end_);
  else if (time_ < start_ || time_ > end_) setTime(time_);
}

void TimeCursor::reset() {
  pause();
  setFollowLive(false);
  openEnded_ = false;
  start_ = end_ = playhead_ = 0.0;
  emit rangeChanged(start_, end_);
  setTime(0.0);
}

void TimeCursor::setTime(double t) {
  time_ = shown(t);
  if (emitting_) {
    again_ = true;
    return;
  }
  emitting_ = true;
  // A view that moved the time while being told it gets one more round, so
  // the last emission carries the final time to every view.
  for (int round = 0; round < 4; ++round) {
    again_ = false;
    emit timeChanged(time_);
    if (!again_) break;
  }
  emitting_ = false;
}

void TimeCursor::seek(double t) {
  if (live_ && t < end_) setFollowLive(false);
  playhead_ = std::clamp(std::isfinite(t) ? t : start_, start_, end_);
  setTime(t);
}

void TimeCursor::play() {
  if (playing_) return;
  setFollowLive(false);
  playing_ = true;
  if (time_ >= end_ && !openEnded_) {
    playhead_ = start_;
    setTime(start_);
  } else if (shown(playhead_) != time_) {
    playhead_ = time_;
  }
  clock_.start();
  pacer_.restart();
  timer_->start(33);
  emit playingChanged(true);
}

void TimeCursor::pause() {
  if (!playing_) return;
  playing_ = false;
  timer_->stop();
  emit playingChanged(false);
}

void TimeCursor::togglePlay() { playing_ ? pause() : play(); }

void TimeCursor::setLoop(bool on) {
  if (on == loop_) return;
  loop_ = on;
  emit loopChanged(on);
}

void TimeCursor::setSpeed(double factor) {
  const double s = factor > 0 && !std::isnan(factor) ? factor : 1.0;
  if (s == speed_) return;
  speed_ = s;
  emit speedChanged(s);
}

void TimeCursor::setFollowLive(bool on) {
  if (on) pause();
  if (on != live_) {
    live_ = on;
    emit followLiveChanged(on);
  }
  if (on) setTime(end_);
}

void TimeCursor::setOpenEnded(bool on) {
  openEnded_ = on;
  if (!on && playing_ && playhead_ >= end_) tick(0.0);  // waiting at the end: done
}

void TimeCursor::tick(double wallSeconds) {
  if (!playing_) return;
  playhead_ = std::isinf(speed_) ? end_ : playhead_ + std::max(0.0, wallSeconds) * speed_;
  if (playhead_ >= end_) {
    if (openEnded_) {
      playhead_ = end_;  // more rows are coming: wait for them
    } else if (loop_ && end_ > start_) {
      playhead_ = start_ + std::fmod(playhead_ - start_, end_ - start_);
    } else {
      playhead_ = end_;
      setTime(end_);
      pause();
      return;
    }
  }
  setTime(playhead_);
}

}  // namespace pm::gui
