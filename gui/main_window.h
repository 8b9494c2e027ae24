// The studio's main window (first usable version): component tree, parameter
// table in engineering units, simulation on a worker thread with a live plot
// of selected result channels. The schematic editor and 3D view come later.
#pragma once

#include "model/project.h"

#include <QMainWindow>
#include <QString>

#include <string>
#include <vector>

class QAction;
class QChart;
class QChartView;
class QCloseEvent;
class QLabel;
class QLineSeries;
class QListWidget;
class QListWidgetItem;
class QTableView;
class QTimer;
class QTreeWidget;
class QValueAxis;

namespace pm::gui {

class ParamModel;
class SimulationRunner;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // File operations; errors are shown in a message box with the ProjectError text.
  bool openProject(const QString& path);
  bool saveProject();                          // to the current file (Save As when none)
  bool saveProjectAs(const QString& path);     // and make it the current file

  const Project& project() const { return project_; }
  const QString& currentFile() const { return file_; }
  SimulationRunner* runner() const { return runner_; }
  QChart* chart() const { return chart_; }
  QTreeWidget* componentTree() const { return tree_; }
  QTableView* paramView() const { return paramView_; }
  QListWidget* channelList() const { return channelList_; }
  QString statusText() const;
  const QString& lastError() const { return lastError_; }
  // Selects a component in the tree (and shows its parameters).
  bool selectComponent(const QString& id);
  // Checks or unchecks a result channel in the plot list by name ("tank.p").
  bool setChannelChecked(const QString& name, bool on);

 public slots:
  void runSimulation();
  void stopSimulation();

 signals:
  void simulationFinished(bool ok);

 private slots:
  void onOpen();
  void onSaveAs();
  void onComponentSelected();
  void onPoll();
  void onRunFinished(bool ok);
  void onChannelItemChanged(QListWidgetItem* item);

 protected:
  void closeEvent(QCloseEvent* e) override;  // offers to save unsaved edits

 private:
  void buildUi();
  void buildMenus();
  void populateTree();
  void updateTitle();
  void updateActions();
  void showError(const QString& title, const QString& text);
  void setupChannels();
  void rebuildSeries();
  void refreshSeries();
  void updateAxes();

  Project project_;
  QString file_;
  bool modified_ = false;
  QString lastError_;

  QTreeWidget* tree_ = nullptr;
  QTableView* paramView_ = nullptr;
  ParamModel* paramModel_ = nullptr;
  QListWidget* channelList_ = nullptr;
  QChartView* chartView_ = nullptr;
  QChart* chart_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QLabel* statusLabel_ = nullptr;

  QAction* actOpen_ = nullptr;
  QAction* actSave_ = nullptr;
  QAction* actSaveAs_ = nullptr;
  QAction* actRun_ = nullptr;
  QAction* actStop_ = nullptr;

  SimulationRunner* runner_ = nullptr;
  QTimer* poll_ = nullptr;
  double tEnd_ = 0.0;  // of the run shown

  // Results of the run shown, in SI, as streamed from the ResultStore.
  struct Channel {
    std::string name, unit;
    QString label;  // "tank.p [bar]"
  };
  std::vector<Channel> channels_;
  std::vector<double> t_;
  std::vector<std::vector<double>> cols_;
  std::vector<std::string> wantedChannels_;  // checked names, kept across runs
  struct Shown {
    int channel;
    QLineSeries* series;
  };
  std::vector<Shown> shown_;
};

}  // namespace pm::gui
