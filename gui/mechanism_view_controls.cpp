#include "mechanism_view_controls.h"

#include "mechanism_view.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace pm::gui {

namespace {

constexpr int kSliderSteps = 1000;

QElapsedTimer& clock() {
  static QElapsedTimer c = [] {
    QElapsedTimer t;
    t.start();
    return t;
  }();
  return c;
}

}  // namespace

AnimationControls::AnimationControls(QWidget* parent) : QWidget(parent), timer_(new QTimer(this)) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(4, 2, 4, 2);
  row->setSpacing(2);
  auto button = [&](QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    row->addWidget(b);
    return b;
  };
  auto* back = button(QStyle::SP_MediaSeekBackward, tr("Step back"));
  playButton_ = button(QStyle::SP_MediaPlay, tr("Play / pause"));
  auto* forward = button(QStyle::SP_MediaSeekForward, tr("Step forward"));
  loopButton_ = button(QStyle::SP_BrowserReload, tr("Loop"));
  loopButton_->setCheckable(true);
  liveButton_ = new QToolButton(this);
  liveButton_->setText(tr("Live"));
  liveButton_->setToolTip(tr("Follow the newest results while a simulation runs"));
  liveButton_->setCheckable(true);
  liveButton_->setAutoRaise(true);
  row->addWidget(liveButton_);
  speedBox_ = new QComboBox(this);
  speedBox_->setToolTip(tr("Playback speed (simulated seconds per wall-clock second)"));
  for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0}) speedBox_->addItem(QString("%1x").arg(s), s);
  speedBox_->setCurrentIndex(3);
  row->addWidget(speedBox_);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, kSliderSteps);
  row->addWidget(slider_, 1);
  label_ = new QLabel(this);
  label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance("0000.000 s / 0000.000 s"));
  label_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  row->addWidget(label_);

  connect(back, &QToolButton::clicked, this, &AnimationControls::stepBack);
  connect(forward, &QToolButton::clicked, this, &AnimationControls::stepForward);
  connect(playButton_, &QToolButton::clicked, this, &AnimationControls::togglePlay);
  connect(loopButton_, &QToolButton::toggled, this, &AnimationControls::setLoop);
  connect(liveButton_, &QToolButton::toggled, this, &AnimationControls::setFollowLive);
  connect(speedBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setSpeed(speedBox_->itemData(i).toDouble()); });
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    setFollowLive(false);
    setTime(start_ + (end_ - start_) * v / kSliderSteps);
  });
  timer_->setTimerType(Qt::PreciseTimer);
  timer_->setInterval(33);
  connect(timer_, &QTimer::timeout, this, [this] {
    const qint64 now = clock().nsecsElapsed();
    const double dt = lastTickNs_ < 0 ? 0.0 : (now - lastTickNs_) * 1e-9;
    lastTickNs_ = now;
    tick(std::min(dt, 0.2));
  });
  timer_->start();
  showTime();
}

void AnimationControls::setRangeSource(RangeSource source) {
  source_ = std::move(source);
  pollRange();
}

void AnimationControls::setRange(double start, double end) {
  start_ = start;
  end_ = std::max(start, end);
  showTime();
}

void AnimationControls::attach(MechanismView* view) {
  setRangeSource([view] {
    view->refreshResults();
    return std::make_pair(view->startTime(), view->endTime());
  });
  connect(this, &AnimationControls::timeChanged, view, &MechanismView::setPose);
}

void AnimationControls::pollRange() {
  if (!source_) return;
  const auto [s, e] = source_();
  if (s != start_ || e != end_) setRange(s, e);
}

double AnimationControls::stepLength() const {
  if (step_ > 0) return step_;
  return std::max((end_ - start_) / 100.0, 1e-9);
}

void AnimationControls::setTime(double t) {
  // Emitted even when unchanged: rows may have arrived for the same time.
  time_ = std::clamp(t, start_, end_);
  showTime();
  emit timeChanged(time_);
}

void AnimationControls::play() {
  if (playing_) return;
  setFollowLive(false);
  if (time_ >= end_) time_ = start_;
  playing_ = true;
  playButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
  emit playingChanged(true);
}

void AnimationControls::pause() {
  if (!playing_) return;
  playing_ = false;
  playButton_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  emit playingChanged(false);
}

void AnimationControls::togglePlay() { playing_ ? pause() : play(); }

void AnimationControls::stepForward() {
  pause();
  setFollowLive(false);
  setTime(time_ + stepLength());
}

void AnimationControls::stepBack() {
  pause();
  setFollowLive(false);
  setTime(time_ - stepLength());
}

void AnimationControls::setLoop(bool on) {
  loop_ = on;
  QSignalBlocker b(loopButton_);
  loopButton_->setChecked(on);
}

void AnimationControls::setSpeed(double factor) {
  speed_ = factor > 0 ? factor : 1.0;
  QSignalBlocker b(speedBox_);
  const int i = speedBox_->findData(speed_);
  if (i >= 0) speedBox_->setCurrentIndex(i);
}

void AnimationControls::setFollowLive(bool on) {
  live_ = on;
  if (on) pause();
  QSignalBlocker b(liveButton_);
  liveButton_->setChecked(on);
}

void AnimationControls::tick(double wallSeconds) {
  pollRange();
  if (live_) {
    if (time_ != end_) setTime(end_);
    return;
  }
  if (!playing_) return;
  double t = time_ + wallSeconds * speed_;
  if (t >= end_) {
    if (loop_ && end_ > start_) {
      t = start_ + std::fmod(t - start_, end_ - start_);
    } else {
      t = end_;
      pause();
    }
  }
  setTime(t);
}

void AnimationControls::showTime() {
  label_->setText(QString("%1 s / %2 s").arg(time_, 0, 'f', 3).arg(end_, 0, 'f', 3));
  QSignalBlocker b(slider_);
  slider_->setValue(end_ > start_ ? int(std::lround((time_ - start_) / (end_ - start_) * kSliderSteps)) : 0);
}

}  // namespace pm::gui
