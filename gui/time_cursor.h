// The document's one time cursor: the instant every view shows (schematic
// colours and valves, 3D poses, plot cursor, results tree values,
// displacement-step diagram, status bar). Controls (the schematic's slider
// and play button, the 3D toolbar, a click in a plot) write to it; views
// listen to timeChanged() and must not write back from that slot, so no
// signal loop can form. It also owns playback (play/pause, speed, loop) and
// "live": while a run appends results the cursor stays at the newest row.
//
// With a snap function (the studio's: the nearest result row) every time set
// lands on an instant the results hold, so all views show the same row.
// Playback keeps its own unsnapped playhead, so sparse rows do not stall it.
//
// Speed infinity is "as fast as possible": playback jumps to the end. An
// open-ended range (a run still appending rows) makes playback wait at the
// newest row instead of stopping there, so a run can be watched at real
// speed from its start while the solver computes ahead.
#pragma once

#include "frame_pacer.h"

#include <QElapsedTimer>
#include <QObject>

#include <functional>

class QTimer;

namespace pm::gui {

class TimeCursor : public QObject {
  Q_OBJECT
 public:
  explicit TimeCursor(QObject* parent = nullptr);

  double time() const { return time_; }
  double start() const { return start_; }
  double end() const { return end_; }
  bool isPlaying() const { return playing_; }
  bool loops() const { return loop_; }
  double speed() const { return speed_; }
  bool followsLive() const { return live_; }
  bool isOpenEnded() const { return openEnded_; }
  static double asFastAsPossible();  // the speed that jumps to the end

  // Maps a requested time to the instant shown (null: continuous time).
  using Snap = std::function<double(double)>;
  void setSnap(Snap snap) { snap_ = std::move(snap); }

  // The time range the results cover. While live, the cursor moves to the
  // new end; otherwise it is clamped into the range.
  void setRange(double start, double end);
  // No results (a new project, a new run): range [0, 0], time 0, stopped,
  // not live. Emits rangeChanged and timeChanged.
  void reset();

 public slots:
  // Snapped and clamped; timeChanged is emitted even when the time is
  // unchanged, because the results behind it may be new (rows of a run).
  void setTime(double t);
  // A user moved a control to t: live stays on only at the end of the
  // range, and playback continues from t.
  void seek(double t);
  void play();  // from the start again when standing at the end of a closed range
  void pause();
  void togglePlay();
  void setLoop(bool on);
  void setSpeed(double factor);
  void setFollowLive(bool on);
  // The range still grows (a run appends rows): playback waits at its end.
  // Closing it lets a playback that waits there stop.
  void setOpenEnded(bool on);
  // One clock tick of playback; public so tests can drive time exactly.
  void tick(double wallSeconds);

 signals:
  void timeChanged(double t);
  void rangeChanged(double start, double end);
  void playingChanged(bool playing);
  void followLiveChanged(bool on);
  void loopChanged(bool on);
  void speedChanged(double factor);
  // Playback: a frame is due and the time is about to move. A caller with
  // new rows adds them now, so they are drawn with the frame (one repaint
  // of the window instead of two).
  void frameDue();

 private:
  double shown(double t) const;

  Snap snap_;
  double start_ = 0.0, end_ = 0.0, time_ = 0.0;
  double playhead_ = 0.0;
  double speed_ = 1.0;
  bool playing_ = false, loop_ = false, live_ = false, openEnded_ = false;
  // A setTime() from a timeChanged() slot is applied after the current
  // emission, so every view of one emission gets the same time.
  bool emitting_ = false, again_ = false;
  QTimer* timer_;
  QElapsedTimer clock_;
  FramePacer pacer_;
};

}  // namespace pm::gui
