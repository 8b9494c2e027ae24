// The animation time cursor and its toolbar: play/pause, step back and
// forward, loop, speed, a time slider and a "live" toggle that keeps the
// cursor at the newest row while a run appends results. Every view that
// shows results at a time (3D view, circuit animation, plots) connects to
// timeChanged(), so one cursor drives them all.
#pragma once

#include <QWidget>

#include <functional>
#include <utility>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace pm::gui {

class MechanismView;

class AnimationControls : public QWidget {
  Q_OBJECT

 public:
  explicit AnimationControls(QWidget* parent = nullptr);

  // Polled at every tick (about 30 Hz): the time range available now, so a
  // running simulation extends it. Without a source, setRange() sets it.
  using RangeSource = std::function<std::pair<double, double>()>;
  void setRangeSource(RangeSource source);
  void setRange(double start, double end);
  // Wires the 3D view: its results give the range, the cursor moves it.
  void attach(MechanismView* view);

  double time() const { return time_; }
  double start() const { return start_; }
  double end() const { return end_; }
  bool isPlaying() const { return playing_; }
  bool loops() const { return loop_; }
  double speed() const { return speed_; }
  bool followsLive() const { return live_; }
  // Step length in seconds (default: 1/100 of the range, at least one row).
  void setStep(double step) { step_ = step; }

 public slots:
  void setTime(double t);
  void play();
  void pause();
  void togglePlay();
  void stepForward();
  void stepBack();
  void setLoop(bool on);
  void setSpeed(double factor);
  // Live: the cursor stays at the newest result row (turned on for a run).
  void setFollowLive(bool on);
  // One tick of the clock; public so tests can drive time deterministically.
  void tick(double wallSeconds);

 signals:
  void timeChanged(double t);
  void playingChanged(bool playing);

 private:
  void pollRange();
  void showTime();
  double stepLength() const;

  RangeSource source_;
  double start_ = 0.0, end_ = 0.0, time_ = 0.0;
  double speed_ = 1.0, step_ = 0.0;
  bool playing_ = false, loop_ = false, live_ = false;
  qint64 lastTickNs_ = -1;
  QTimer* timer_;
  QToolButton* playButton_;
  QToolButton* loopButton_;
  QToolButton* liveButton_;
  QComboBox* speedBox_;
  QSlider* slider_;
  QLabel* label_;
};

}  // namespace pm::gui
