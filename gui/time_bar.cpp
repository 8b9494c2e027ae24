#include "time_bar.h"

#include "result_buffer.h"
#include "time_cursor.h"

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
  // Plays the results at real time (the 3D toolbar sets the speed), from
  // the start again when the cursor stands at the end.
  play_ = new QToolButton;
  play_->setObjectName("timePlay");
  play_->setCheckable(true);
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_->setToolTip(tr("Play the results at real time"));
  auto* tl = new QHBoxLayout(this);
  tl->setContentsMargins(8, 2, 8, 2);
  tl->addWidget(play_);
  tl->addWidget(new QLabel(tr("Time")));
  tl->addWidget(slider_, 1);
  tl->addWidget(label_);

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
