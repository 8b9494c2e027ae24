// Every result channel of the run shown, grouped by object (component, net,
// part, joint), with its value at the studio's time cursor. Channels drag
// onto plot panes (mime type kChannelMime); a double click asks for the
// channel to be plotted in the current pane, a right click lets the results
// panel offer "Plot in". Several may be selected (the CSV export may write
// the selection). Labels follow the studio's units (View > Pressure Units).
#pragma once

#include "result_buffer.h"

#include <QTreeWidget>

#include <string>
#include <vector>

namespace pm::gui {

class ResultsTree : public QTreeWidget {
  Q_OBJECT
 public:
  explicit ResultsTree(ResultBuffer* data, QWidget* parent = nullptr);

  int channelCount() const;
  // The channel's row ("tank.p"), or null.
  QTreeWidgetItem* channelItem(const std::string& name) const;
  std::vector<std::string> selectedChannels() const;
  // The channel of a row ("tank.p"); empty for a group row or null.
  static std::string channelOf(const QTreeWidgetItem* item);
  void selectChannels(const std::vector<std::string>& names);
  // Shows only channels whose name contains `text` (case-insensitive).
  void setFilter(const QString& text);
  // Values shown are those at time t.
  void setTime(double t);
  double time() const { return t_; }

 signals:
  void channelActivated(const QString& name);

 protected:
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;

 private:
  void rebuild();
  void relabel();
  void updateValues();
  static QString rowText(const ResultBuffer::Channel& c);

  ResultBuffer* data_;
  double t_ = 0.0;
  QString filter_;
};

}  // namespace pm::gui
