// The studio's main window: start page or schematic editor in the centre,
// component library (left), project tree and property editor (right),
// messages and result plot (bottom), a time slider under the schematic that
// scrubs through the run. The Document holds the project and its undo stack;
// every view re-reads it when it changes.
#pragma once

#include "model/project.h"
#include "project_checks.h"

#include <QMainWindow>
#include <QString>

#include <memory>
#include <string>
#include <vector>

class QAction;
class QChart;
class QChartView;
class QCloseEvent;
class QDockWidget;
class QLabel;
class QLineSeries;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QSlider;
class QStackedWidget;
class QTableView;
class QTimer;
class QTreeWidget;
class QValueAxis;

namespace pm::gui {

class Document;
class LibraryPanel;
class MechanismActions;
class ModelTree;
class SelectionModel;
class PropertyEditor;
class RunAnimation;
class SchematicScene;
class SchematicView;
class SimulationRunner;
class StartPage;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // File operations; errors are shown in a message box with the ProjectError text.
  bool openProject(const QString& path);
  bool saveProject();                          // to the current file (Save As when none)
  bool saveProjectAs(const QString& path);     // and make it the current file
  void newProject();                           // an empty, untitled circuit

  const Project& project() const;
  const QString& currentFile() const;
  bool isModified() const;
  Document* document() const { return doc_; }
  SchematicScene* scene() const { return scene_; }
  SchematicView* schematicView() const { return view_; }
  LibraryPanel* libraryPanel() const { return library_; }
  PropertyEditor* propertyEditor() const { return props_; }
  StartPage* startPage() const { return start_; }
  bool isShowingStartPage() const;
  QListWidget* messageList() const { return messages_; }
  QSlider* timeSlider() const { return timeSlider_; }
  // The shared selection (ids), the model tree, the mechanism commands and
  // the 3D view with its animation cursor (null without OpenGL).
  SelectionModel* selection() const { return selection_; }
  ModelTree* modelTree() const { return modelTree_; }
  MechanismActions* mechanismActions() const { return mechActions_; }
  class MechanismView* mechanismView() const { return view3d_; }
  class AnimationControls* animationControls() const { return anim3d_; }

  SimulationRunner* runner() const { return runner_; }
  QChart* chart() const { return chart_; }
  QTreeWidget* componentTree() const { return tree_; }
  QTableView* paramView() const;
  QListWidget* channelList() const { return channelList_; }
  QString statusText() const;
  const QString& lastError() const { return lastError_; }
  // Selects a component (schematic, tree, property editor).
  bool selectComponent(const QString& id);
  // Checks or unchecks a result channel in the plot list by name ("tank.p").
  bool setChannelChecked(const QString& name, bool on);
  // Runs the pre-run checks and lists them in the messages panel.
  std::vector<CheckMessage> runChecks();

 public slots:
  void runSimulation();
  void stopSimulation();

 signals:
  void simulationFinished(bool ok);

 private slots:
  void onOpen();
  void onSaveAs();
  void onNew();
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
  void updateRecentMenu();
  void addRecentFile(const QString& path);
  bool maybeSave();
  void showError(const QString& title, const QString& text);
  void onDocumentChanged();
  void onSceneSelectionChanged();
  void onTreeSelectionChanged();
  void onSharedSelection(const QString& id);
  void onMessageActivated(QListWidgetItem* item);
  void showFrame(int row);
  void clearResults();
  void setupChannels();
  void rebuildSeries();
  void refreshSeries();
  void updateAxes();

  Document* doc_ = nullptr;
  QString lastError_;

  QStackedWidget* stack_ = nullptr;
  StartPage* start_ = nullptr;
  SchematicScene* scene_ = nullptr;
  SchematicView* view_ = nullptr;
  LibraryPanel* library_ = nullptr;
  PropertyEditor* props_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  QListWidget* messages_ = nullptr;
  QDockWidget* messagesDock_ = nullptr;
  QDockWidget* plotDock_ = nullptr;
  // 3D view of the mechanism (only where OpenGL is available; not on the
  // offscreen platform), shown when the project has a mechanism.
  QDockWidget* dock3d_ = nullptr;
  class MechanismView* view3d_ = nullptr;
  class AnimationControls* anim3d_ = nullptr;
  void sync3d();
  void exportReportDialog();
  QSlider* timeSlider_ = nullptr;
  QLabel* timeLabel_ = nullptr;
  QListWidget* channelList_ = nullptr;
  QChartView* chartView_ = nullptr;
  QChart* chart_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  bool syncingSelection_ = false;
  SelectionModel* selection_ = nullptr;
  ModelTree* modelTree_ = nullptr;
  MechanismActions* mechActions_ = nullptr;

  QAction* actNew_ = nullptr;
  QAction* actOpen_ = nullptr;
  QAction* actSave_ = nullptr;
  QAction* actSaveAs_ = nullptr;
  QAction* actRun_ = nullptr;
  QAction* actStop_ = nullptr;
  QAction* actCheck_ = nullptr;

  SimulationRunner* runner_ = nullptr;
  std::unique_ptr<RunAnimation> anim_;
  QTimer* poll_ = nullptr;
  double tEnd_ = 0.0;  // of the run shown
  bool followRun_ = true;

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
