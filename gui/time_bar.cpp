#include "time_bar.h"

#include "result_buffer.h"
#include "time_cursor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace pm::gui {

TimeBar::TimeBar(TimeCursor* cursor, ResultBuffer* data, QWidget* parent)
    : QWidget(parent), cursor_(cursor), data_(data) {
  setObjectName("timeBar");
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setObjectName("timeSlider");
  slider_->setToolTip(tr("Scrub through the results of the run"));
  label_ = new QLabel;
  label_->setObjectName("timeLabel");
  label_->setMinimumWidth(150);
  // Plays the results at the chosen speed, from the start again when the
  // cursor stands at the end.
  play_ = new QToolButton;
  play_->setObjectName("timePlay");
  play_->setCheckable(true);
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_->setToolTip(tr("Play the results at the chosen speed"));
  speed_ = new QComboBox;
  speed_->setObjectName("playbackSpeed");
  speed_->setToolTip(tr("Playback speed: simulated seconds per wall-clock second. A run plays at this speed "
                        "from its start; \"As fast as possible\" shows the newest results at once"));
  for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0}) speed_->addItem(QString("%1x").arg(s), s);
  speed_->addItem(tr("As fast as possible"), TimeCursor::asFastAsPossible());
  speed_->setCurrentIndex(speed_->findData(cursor_->speed()));
  auto* tl = new QHBoxLayout(this);
  tl->setContentsMargins(8, 2, 8, 2);
  tl->addWidget(play_);
  tl->addWidget(new QLabel(tr("Time")));
  tl->addWidget(slider_, 1);
  tl->addWidget(label_);
  tl->addWidget(new QLabel(tr("Speed")));
  tl->addWidget(speed_);

  connect(slider_, &QSlider::valueChanged, this, [this](int row) {
    const auto& t = data_->times();
    if (row < 0 || row >= static_cast<int>(t.size())) return;
    cursor_->seek(t[static_cast<size_t>(row)]);
    if (row == slider_->maximum()) emit scrubbedToEnd();
  });
  connect(play_, &QToolButton::toggled, cursor_, [this](bool on) { on ? cursor_->play() : cursor_->pause(); });
  connect(cursor_, &TimeCursor::playingChanged, this, [this](bool on) {
    const QSignalBlocker block(play_);
    play_->setChecked(on);
    play_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  });
  connect(cursor_, &TimeCursor::timeChanged, this, &TimeBar::showTime);
  connect(speed_, &QComboBox::currentIndexChanged, cursor_,
          [this](int i) { cursor_->setSpeed(speed_->itemData(i).toDouble()); });
  connect(cursor_, &TimeCursor::speedChanged, this, [this](double s) {
    const QSignalBlocker block(speed_);
    const int i = speed_->findData(s);
    if (i >= 0) speed_->setCurrentIndex(i);
  });
  updateRows();
}

void TimeBar::updateRows() {
  const int rows = static_cast<int>(data_->rows());
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, rows - 1));
  }
  slider_->setEnabled(rows > 0);
  play_->setEnabled(rows > 0);
  showTime(cursor_->time());
}

void TimeBar::showTime(double t) {
  if (data_->rows() == 0) {
    label_->setText(tr("no results"));
    return;
  }
  const QSignalBlocker block(slider_);
  slider_->setValue(static_cast<int>(data_->rowAt(t)));
  label_->setText(tr("t = %1 s").arg(QString::number(t, 'f', 3)));
}

}  // namespace pm::gui
