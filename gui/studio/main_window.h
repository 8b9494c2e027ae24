// The studio's main window: start page or schematic editor in the centre,
// component library (left), project tree and property editor (right),
// messages and results (bottom: results tree, plot panes, displacement-step
// diagram), a time bar under the schematic. One TimeCursor is the instant
// every view shows; the time bar, the 3D toolbar and plot clicks move it. The Document holds the project and its undo stack;
// every view re-reads it when it changes.
//
// Three parts: the layout (main_window_layout.cpp: docks, menus, status
// bar), the file session (FileSession: New, Open, Save, recent files) and
// run control (RunController: checks, run, pause, stop, streaming rows into
// the views). This class wires them and keeps the selection in step.
#pragma once

#include "model/project.h"
#include "project_checks.h"

#include <QMainWindow>
#include <QPointer>
#include <QString>

#include <memory>
#include <string>
#include <vector>

class QAction;
class QChart;
class QCloseEvent;
class QDockWidget;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QProgressBar;
class QSlider;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace pm {
class ResultStore;
}

namespace pm::gui {

class Document;
class StudyDialog;
struct StudySummary;
class FileSession;
class Recovery;
class LibraryPanel;
class BuildTools3d;
class MechanismActions;
class ModesPanel;
class ModelTree;
class SelectionModel;
class SessionMemory;
class WindowLayouts;
class PreferencesDialog;
class PropertyEditor;
class ResultBuffer;
class ResultsPanel;
class RunController;
class SchematicScene;
class SchematicView;
class SimulationRunner;
class StartPage;
class SubcircuitEditor;
class TimeBar;
class TimeCursor;

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
  // Edit > Preferences (window-modal, not blocking): the library folder;
  // OK lists the folder's types in the library panel at once.
  PreferencesDialog* openPreferences();

  const Project& project() const;
  const QString& currentFile() const;
  bool isModified() const;
  Document* document() const { return doc_; }
  SchematicScene* scene() const { return scene_; }
  SchematicView* schematicView() const { return view_; }
  // The inside of a sub-circuit, shown in the schematic's place while open.
  SubcircuitEditor* subcircuitEditor() const { return subEditor_; }
  LibraryPanel* libraryPanel() const { return library_; }
  PropertyEditor* propertyEditor() const { return props_; }
  StartPage* startPage() const { return start_; }
  bool isShowingStartPage() const;
  QListWidget* messageList() const { return messages_; }
  // The document's one time cursor, which every view shows, and the time
  // bar under the schematic (slider, play button), one of its controls.
  TimeCursor* timeCursor() const { return cursor_; }
  TimeBar* timeBar() const { return timeBar_; }
  QSlider* timeSlider() const;
  QToolButton* timePlayButton() const;
  // The status bar's "Cursor: t = ..." text.
  QString cursorStatusText() const;
  // The shared selection (ids), the model tree, the mechanism commands and
  // the 3D view with its animation cursor (null without OpenGL).
  SelectionModel* selection() const { return selection_; }
  ModelTree* modelTree() const { return modelTree_; }
  MechanismActions* mechanismActions() const { return mechActions_; }
  // Null without a 3D view.
  BuildTools3d* buildTools() const { return buildTools_; }
  class MechanismView* mechanismView() const { return view3d_; }
  class AnimationControls* animationControls() const { return anim3d_; }
  // Analysis > Modes: the modes table (its dock hidden until asked for).
  ModesPanel* modesPanel() const { return modes_; }
  QDockWidget* modesDock() const { return modesDock_; }

  SimulationRunner* runner() const;
  FileSession* fileSession() const { return session_; }
  // Autosave, crash recovery and the open-elsewhere lock.
  Recovery* recovery() const { return recovery_; }
  // At start: offers to restore what a crashed studio left unsaved.
  void offerRecovery();
  // The studio's own window remembers its sessions (SessionMemory): the
  // last session's playback speed and arrangement come back now, and from
  // now on they are kept at close, with each project's plots when another
  // project replaces it. True when a last session was found.
  bool rememberSessions();
  SessionMemory* sessionMemory() const { return memory_; }
  RunController* runController() const { return run_; }
  // The current plot pane's chart.
  QChart* chart() const;
  QTableView* paramView() const;
  ResultsPanel* resultsPanel() const { return results_; }
  ResultBuffer* resultBuffer() const { return buffer_; }
  // The results dock (plots and the results tree).
  QDockWidget* resultsDock() const { return plotDock_; }
  QString statusText() const;
  // Every row of the shown run's channels that key results read (from the
  // run's results file, not the plotting copy); null before a run.
  std::shared_ptr<const ResultStore> keyResultRows() const;
  const QString& lastError() const { return lastError_; }
  const QString& lastWarning() const { return lastWarning_; }
  // Selects a component everywhere (schematic, model tree, property editor).
  bool selectComponent(const QString& id);
  // Shows or hides a result channel ("tank.p") in the current plot pane.
  bool setChannelChecked(const QString& name, bool on);
  // Runs the pre-run checks and lists them in the messages panel.
  std::vector<CheckMessage> runChecks();

 public slots:
  void runSimulation();
  void stopSimulation();
  void pauseSimulation();
  void resumeSimulation();

 signals:
  void simulationFinished(bool ok);

 private slots:
  void onRunFinished(bool ok);

 protected:
  void closeEvent(QCloseEvent* e) override;  // offers to save unsaved edits
  void showEvent(QShowEvent* e) override;    // the first time: the plots get their room

 private:
  void buildUi();
  void buildMenus();
  void addPressureUnitsMenu(QMenu* viewMenu);
  void addAnalysisMenu();
  void updateTitle();
  void updateActions();
  void updateRecentMenu();
  void onProjectReplaced(const QString& path);
  void showError(const QString& title, const QString& text);
  void showWarning(const QString& title, const QString& text);
  void onDocumentChanged();
  void onSceneSelectionChanged();
  void onSharedSelection(const QString& id);
  void onMessageActivated(QListWidgetItem* item);
  void showTime(double t);
  // A project replaces the one shown (New, Open): no view keeps anything of it.
  void resetViews();

  Document* doc_ = nullptr;
  QString lastError_, lastWarning_;

  QStackedWidget* stack_ = nullptr;
  StartPage* start_ = nullptr;
  SchematicScene* scene_ = nullptr;
  SchematicView* view_ = nullptr;
  QStackedWidget* canvas_ = nullptr;  // the schematic, or the inside of a sub-circuit
  SubcircuitEditor* subEditor_ = nullptr;
  void addSubcircuitActions(QMenu* edit);
  void storeTypeInLibrary();  // Edit > Store Sub-circuit in Library
  SchematicView* shownView() const;
  LibraryPanel* library_ = nullptr;
  PropertyEditor* props_ = nullptr;
  QListWidget* messages_ = nullptr;
  QDockWidget* messagesDock_ = nullptr;
  QDockWidget* plotDock_ = nullptr;
  bool shownOnce_ = false;
  // 3D view of the mechanism (only where OpenGL is available; not on the
  // offscreen platform), shown when the project has a mechanism.
  QDockWidget* dock3d_ = nullptr;
  class MechanismView* view3d_ = nullptr;
  class AnimationControls* anim3d_ = nullptr;
  void sync3d();
  void exportReportDialog();
  // The last parameter study run in the studio, for the report: its dialog
  // while open (the row chosen there), else what it held when closed.
  QPointer<StudyDialog> studyDialog_;
  std::shared_ptr<StudySummary> lastStudy_;
  TimeCursor* cursor_ = nullptr;
  TimeBar* timeBar_ = nullptr;
  QLabel* cursorStatus_ = nullptr;
  ResultBuffer* buffer_ = nullptr;
  ResultsPanel* results_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  bool syncingSelection_ = false;
  SelectionModel* selection_ = nullptr;
  ModelTree* modelTree_ = nullptr;
  MechanismActions* mechActions_ = nullptr;
  BuildTools3d* buildTools_ = nullptr;
  ModesPanel* modes_ = nullptr;
  QDockWidget* modesDock_ = nullptr;

  QAction* actNew_ = nullptr;
  QAction* actOpen_ = nullptr;
  QAction* actSave_ = nullptr;
  QAction* actSaveAs_ = nullptr;
  QAction* actRun_ = nullptr;
  QAction* actStop_ = nullptr;
  QAction* actPause_ = nullptr;
  QAction* actCheck_ = nullptr;

  FileSession* session_ = nullptr;
  Recovery* recovery_ = nullptr;
  RunController* run_ = nullptr;
  WindowLayouts* layouts_ = nullptr;
  SessionMemory* memory_ = nullptr;
  bool remember_ = false;
  bool restoredLayout_ = false;  // the first show keeps the remembered dock sizes
};

}  // namespace pm::gui
