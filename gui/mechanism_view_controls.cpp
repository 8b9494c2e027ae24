#include "mechanism_view_controls.h"

#include "mechanism_view.h"
#include "time_cursor.h"

#include <QComboBox>
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

}  // namespace

AnimationControls::AnimationControls(TimeCursor* cursor, QWidget* parent)
    : QWidget(parent), cursor_(cursor ? cursor : new TimeCursor(this)), poll_(new QTimer(this)) {
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
  playButton_->setObjectName("play3d");
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
  for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0}) speedBox_->addItem(QString("%1x").arg(s), s);
  speedBox_->addItem(tr("Max"), TimeCursor::asFastAsPossible());
  speedBox_->setItemData(speedBox_->count() - 1, tr("As fast as possible: the newest results at once"), Qt::ToolTipRole);
  speedBox_->setCurrentIndex(std::max(0, speedBox_->findData(cursor_->speed())));
  row->addWidget(speedBox_);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName("timeSlider3d");
  slider_->setRange(0, kSliderSteps);
  row->addWidget(slider_, 1);
  label_ = new QLabel(this);
  label_->setObjectName("timeLabel3d");
  label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance("0000.000 s / 0000.000 s"));
  label_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  row->addWidget(label_);

  connect(back, &QToolButton::clicked, this, &AnimationControls::stepBack);
  connect(forward, &QToolButton::clicked, this, &AnimationControls::stepForward);
  connect(playButton_, &QToolButton::clicked, this, &AnimationControls::togglePlay);
  connect(loopButton_, &QToolButton::toggled, cursor_, &TimeCursor::setLoop);
  connect(liveButton_, &QToolButton::toggled, cursor_, &TimeCursor::setFollowLive);
  connect(speedBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { cursor_->setSpeed(speedBox_->itemData(i).toDouble()); });
  connect(slider_, &QSlider::valueChanged, this,
          [this](int v) { cursor_->seek(start() + (end() - start()) * v / kSliderSteps); });

  // The cursor's state, whoever changed it, shows here; blocked so that
  // showing it does not write it back.
  connect(cursor_, &TimeCursor::timeChanged, this, &AnimationControls::showTime);
  connect(cursor_, &TimeCursor::rangeChanged, this, &AnimationControls::showTime);
  connect(cursor_, &TimeCursor::playingChanged, this, [this](bool on) {
    playButton_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  });
  connect(cursor_, &TimeCursor::loopChanged, this, [this](bool on) {
    const QSignalBlocker b(loopButton_);
    loopButton_->setChecked(on);
  });
  connect(cursor_, &TimeCursor::followLiveChanged, this, [this](bool on) {
    const QSignalBlocker b(liveButton_);
    liveButton_->setChecked(on);
  });
  connect(cursor_, &TimeCursor::speedChanged, this, [this](double s) {
    const QSignalBlocker b(speedBox_);
    const int i = speedBox_->findData(s);
    if (i >= 0) speedBox_->setCurrentIndex(i);
  });
  poll_->setInterval(33);
  connect(poll_, &QTimer::timeout, this, &AnimationControls::pollRange);
  showTime();
}

void AnimationControls::setRangeSource(RangeSource source) {
  source_ = std::move(source);
  if (source_) poll_->start();
  else poll_->stop();
  pollRange();
}

void AnimationControls::setRange(double start, double end) { cursor_->setRange(start, end); }

void AnimationControls::attach(MechanismView* view) {
  setRangeSource([view] {
    view->refreshResults();
    return std::make_pair(view->startTime(), view->endTime());
  });
  connect(cursor_, &TimeCursor::timeChanged, view, &MechanismView::setPose);
}

void AnimationControls::pollRange() {
  if (!source_) return;
  const auto [s, e] = source_();
  if (s != start() || e != end()) setRange(s, e);
}

double AnimationControls::time() const { return cursor_->time(); }
double AnimationControls::start() const { return cursor_->start(); }
double AnimationControls::end() const { return cursor_->end(); }
bool AnimationControls::isPlaying() const { return cursor_->isPlaying(); }
bool AnimationControls::loops() const { return cursor_->loops(); }
double AnimationControls::speed() const { return cursor_->speed(); }
bool AnimationControls::followsLive() const { return cursor_->followsLive(); }

double AnimationControls::stepLength() const {
  if (step_ > 0) return step_;
  return std::max((end() - start()) / 100.0, 1e-9);
}

void AnimationControls::setTime(double t) { cursor_->seek(t); }
void AnimationControls::play() { cursor_->play(); }
void AnimationControls::pause() { cursor_->pause(); }
void AnimationControls::togglePlay() { cursor_->togglePlay(); }
void AnimationControls::setLoop(bool on) { cursor_->setLoop(on); }
void AnimationControls::setSpeed(double factor) { cursor_->setSpeed(factor); }
void AnimationControls::setFollowLive(bool on) { cursor_->setFollowLive(on); }

void AnimationControls::stepForward() {
  cursor_->pause();
  cursor_->setFollowLive(false);
  cursor_->seek(time() + stepLength());
}

void AnimationControls::stepBack() {
  cursor_->pause();
  cursor_->setFollowLive(false);
  cursor_->seek(time() - stepLength());
}

void AnimationControls::tick(double wallSeconds) {
  pollRange();
  cursor_->tick(wallSeconds);
}

void AnimationControls::showTime() {
  const double t = time(), a = start(), b = end();
  label_->setText(QString("%1 s / %2 s").arg(t, 0, 'f', 3).arg(b, 0, 'f', 3));
  const QSignalBlocker block(slider_);
  slider_->setValue(b > a ? int(std::lround((t - a) / (b - a) * kSliderSteps)) : 0);
}

}  // namespace pm::gui
