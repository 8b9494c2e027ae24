// The 3D view's time toolbar: play/pause, step back and forward, loop,
// speed, a time slider and a "live" toggle that keeps the cursor at the
// newest row while a run appends results. It is one control of a TimeCursor
// (the studio's: the document's one cursor, which every view follows);
// without one it makes its own.
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
class TimeCursor;

class AnimationControls : public QWidget {
  Q_OBJECT

 public:
  explicit AnimationControls(TimeCursor* cursor = nullptr, QWidget* parent = nullptr);

  TimeCursor* cursor() const { return cursor_; }
  QSlider* slider() const { return slider_; }
  QToolButton* playButton() const { return playButton_; }
  QLabel* label() const { return label_; }

  // Polled about 30 times a second: the time range available now, so a
  // running simulation extends it (standalone use; the studio sets the
  // cursor's range itself). Without a source, setRange() sets it.
  using RangeSource = std::function<std::pair<double, double>()>;
  void setRangeSource(RangeSource source);
  void setRange(double start, double end);
  // Standalone: the 3D view's results give the range, the cursor moves it.
  void attach(MechanismView* view);

  double time() const;
  double start() const;
  double end() const;
  bool isPlaying() const;
  bool loops() const;
  double speed() const;
  bool followsLive() const;
  // Step length in seconds (default: 1/100 of the range, at least one row).
  void setStep(double step) { step_ = step; }

 public slots:
  // As a user moving the slider: live off unless at the end.
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
  // Polls the range source, then one tick of the cursor's playback clock;
  // public so tests can drive time deterministically.
  void tick(double wallSeconds);

 private:
  void pollRange();
  void showTime();
  double stepLength() const;

  TimeCursor* cursor_;
  RangeSource source_;
  double step_ = 0.0;
  QTimer* poll_;
  QToolButton* playButton_;
  QToolButton* loopButton_;
  QToolButton* liveButton_;
  QComboBox* speedBox_;
  QSlider* slider_;
  QLabel* label_;
};

}  // namespace pm::gui
