// The studio's results dock: the results tree on the left; on the right, tabs
// with the plot panes (stacked, channels dragged onto them), the
// displacement-step diagram and the key results (key_results_view.h). The panel reads the ResultBuffer the main
// window fills while a run is in progress and draws the shared time cursor.
#pragma once

#include "csv_export_dialog.h"
#include "default_plots.h"
#include "model/project.h"

#include <QByteArray>
#include <QList>
#include <QWidget>

#include <string>
#include <vector>

class QAction;
class QLineEdit;
class QMenu;
class QTreeWidgetItem;
class QSplitter;
class QTabWidget;
class QTimer;
class QToolBar;

namespace pm::gui {

class DisplacementStepView;
class KeyResultsView;
class PlotPane;
class ResultBuffer;
class ResultsTree;

class ResultsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ResultsPanel(ResultBuffer* data, QWidget* parent = nullptr);

  ResultsTree* tree() const { return tree_; }
  DisplacementStepView* stepView() const { return stepView_; }
  KeyResultsView* keyResultsView() const { return keyView_; }
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

  // The plot selection: each pane's channels (engine names), top to bottom,
  // and the panes' heights; set again, the panes are made to match (names
  // a run does not have wait until one does).
  struct PlotSelection {
    std::vector<std::vector<std::string>> channels;
    QList<int> heights;
  };
  PlotSelection plotSelection() const;
  void setPlotSelection(const PlotSelection& selection);
  // The splitter between the results tree and the plots, and the tab shown.
  QByteArray saveLayout() const;
  bool restoreLayout(const QByteArray& state);
  QSplitter* treeSplitter() const { return split_; }
  QSplitter* paneSplitter() const { return paneSplitter_; }

  // A run starts: its end time and the project (for the step diagram).
  void startRun(const Project& project);
  void setProject(const Project& project);
  // Another project is shown (New, Open): one empty pane, its time axis
  // over the new project's end time, no filter, the cursor at 0.
  void resetForProject(const Project& project);
  // New rows are in the buffer (called ~30/s while running): the plots are
  // redrawn at most every kLivePlotMs, with the next call after it (the
  // last rows at the latest kLivePlotGraceMs later).
  static constexpr qint64 kLivePlotMs = 200;
  static constexpr qint64 kLivePlotGraceMs = 60;  // past it, waiting for the next rows
  void refresh();
  // The plots redrawn from the buffer now.
  void refreshPlots();
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
  QSplitter* split_;
  DisplacementStepView* stepView_;
  KeyResultsView* keyView_;
  // What the default panes are chosen from (the project's report plots,
  // the axes its parts can move along), and the panes' channels as last
  // chosen (while the panes show them, the choice follows the rows).
  DefaultPlotModel plotModel_;
  std::vector<std::vector<std::string>> defaults_;
  std::vector<PlotPane*> panes_;
  PlotPane* current_ = nullptr;
  QAction* maximise_ = nullptr;
  QString csvPath_ = QStringLiteral("results.csv");
  double tEnd_ = 1.0;
  double cursor_ = 0.0;
  qint64 lastStepUpdateMs_ = 0;
  qint64 lastPlotMs_ = 0;
  QTimer* plotTimer_ = nullptr;
  bool alignPending_ = false;
};

}  // namespace pm::gui
