// Every result channel of the run shown, grouped by object (component, net,
// part, joint), with its value at the studio's time cursor. Channels drag
// onto plot panes (mime type kChannelMime); a double click asks for the
// channel to be plotted in the current pane. Several may be selected (the
// CSV export writes the selection).
#pragma once

#include <QTreeWidget>

#include <string>
#include <vector>

namespace pm::gui {

class ResultBuffer;

class ResultsTree : public QTreeWidget {
  Q_OBJECT
 public:
  explicit ResultsTree(ResultBuffer* data, QWidget* parent = nullptr);

  int channelCount() const;
  // The channel's row ("tank.p"), or null.
  QTreeWidgetItem* channelItem(const std::string& name) const;
  std::vector<std::string> selectedChannels() const;
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
  void updateValues();

  ResultBuffer* data_;
  double t_ = 0.0;
  QString filter_;
};

}  // namespace pm::gui
