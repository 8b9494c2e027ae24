// The time bar under the schematic: a play button, a slider over the result
// rows, the time shown and the playback speed (0.1x to 10x real time, or as
// fast as possible: the views jump to the newest row). It is one control of the document's TimeCursor:
// moving the slider or pressing play writes to the cursor, and whatever
// moved the cursor (the 3D toolbar, a plot click, playback, a run) shows
// here, with the bar's own signals blocked so it does not write back.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace pm::gui {

class ResultBuffer;
class TimeCursor;

class TimeBar : public QWidget {
  Q_OBJECT
 public:
  TimeBar(TimeCursor* cursor, ResultBuffer* data, QWidget* parent = nullptr);

  QSlider* slider() const { return slider_; }
  QToolButton* playButton() const { return play_; }
  QLabel* label() const { return label_; }
  QComboBox* speedBox() const { return speed_; }
  // The buffer gained or lost rows: the slider spans them.
  void updateRows();

 signals:
  // The user moved the slider to the last row (a run's cursor may follow it).
  void scrubbedToEnd();

 private:
  void showTime(double t);

  TimeCursor* cursor_;
  ResultBuffer* data_;
  QToolButton* play_;
  QSlider* slider_;
  QLabel* label_;
  QComboBox* speed_;
};

}  // namespace pm::gui
