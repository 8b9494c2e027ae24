// The studio's results dock: the results tree on the left; on the right, tabs
// with the plot panes (stacked, channels dragged onto them) and the
// displacement-step diagram. The panel reads the ResultBuffer the main
// window fills while a run is in progress and draws the shared time cursor.
#pragma once

#include "csv_export_dialog.h"
#include "model/project.h"

#include <QWidget>

#include <string>
#include <vector>

class QAction;
class QLineEdit;
class QMenu;
class QTreeWidgetItem;
class QSplitter;
class QTabWidget;
class QToolBar;

namespace pm::gui {

class DisplacementStepView;
class PlotPane;
class ResultBuffer;
class ResultsTree;

class ResultsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ResultsPanel(ResultBuffer* data, QWidget* parent = nullptr);

  ResultsTree* tree() const { return tree_; }
  DisplacementStepView* stepView() const { return stepView_; }
  QTabWidget* tabs() const { return tabs_; }
  int paneCount() const { return static_cast<int>(panes_.size()); }
  PlotPane* pane(int i) const { return panes_.at(static_cast<size_t>(i)); }
  PlotPane* currentPane() const { return current_; }
  PlotPane* addPane();
  void removePane(PlotPane* pane);
  void setCurrentPane(PlotPane* pane);
  // Lines the stacked panes' time axes up: every plot area gets the same
  // left and right edges (the widest y-axis labels and legend set them).
  void alignTimeAxes();

  // A run starts: its end time and the project (for the step diagram).
  void startRun(const Project& project);
  void setProject(const Project& project);
  // Another project is shown (New, Open): one empty pane, its time axis
  // over the new project's end time, no filter, the cursor at 0.
  void resetForProject(const Project& project);
  // New rows are in the buffer (called ~30/s while running).
  void refresh();
  // The run ended: the step diagram is computed from the whole result.
  void finishRun();
  // The document's time cursor: plot panes, the tree's values, the step diagram.
  void setTimeCursor(double t);
  double timeCursor() const { return cursor_; }

  // Writes time and the channels (engine names) to CSV: in display units
  // ("cyl1.pA [bar (g)]", as the studio shows them) or SI (the core's
  // ResultStore writer, as `pneumech simulate -o` writes them).
  bool exportCsv(const QString& path, const std::vector<std::string>& channels, bool displayUnits,
                 QString* error) const;
  // The channels of an export choice: plotted in any pane, selected in the
  // tree, or all of the run (engine names, no name twice).
  std::vector<std::string> channelsFor(CsvExportDialog::Channels which) const;
  // The studio's units a display-unit CSV uses: "bar (g), mm, °C".
  static QString displayUnitsText();
  // The Export CSV command: asks (CsvExportDialog), writes, reports through message().
  void exportCsvDialog();
  // The results tree's context menu for `item` (and the selection): "Plot
  // in" each pane or a new one. Null when no channel is concerned.
  QMenu* treeMenu(QTreeWidgetItem* item);
  QAction* maximiseAction() const { return maximise_; }

 signals:
  void timeRequested(double t);  // a click on a plot
  void message(const QString& text);
  // Maximise on: the plots alone on the whole screen; off: back in the window.
  void maximiseToggled(bool on);

 private:
  void onReset();
  void chooseDefaultChannels();
  void exportPaneDialog(bool svg);
  void scheduleAlign();

  ResultBuffer* data_;
  ResultsTree* tree_;
  QLineEdit* filter_;
  QTabWidget* tabs_;
  QSplitter* paneSplitter_;
  DisplacementStepView* stepView_;
  std::vector<PlotPane*> panes_;
  PlotPane* current_ = nullptr;
  QAction* maximise_ = nullptr;
  QString csvPath_ = QStringLiteral("results.csv");
  double tEnd_ = 1.0;
  double cursor_ = 0.0;
  qint64 lastStepUpdateMs_ = 0;
  bool alignPending_ = false;
};

}  // namespace pm::gui
