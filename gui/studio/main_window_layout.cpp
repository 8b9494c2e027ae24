// MainWindow's layout: the centre (start page, schematic and time bar),
// the docks (library, model tree, properties, results, messages, 3D view),
// the status bar, the menus and the toolbar.
#include "main_window.h"

#include "attachment_box.h"
#include "build_tools_3d.h"
#include "document.h"
#include "file_session.h"
#include "help_menu.h"
#include "library_panel.h"
#include "mechanism_actions.h"
#include "mechanism_form.h"
#include "mechanism_view.h"
#include "mechanism_view_controls.h"
#include "mechanism_view_toolbar.h"
#include "model_tree.h"
#include "modes_panel.h"
#include "param_model.h"
#include "project_properties_dialog.h"
#include "property_editor.h"
#include "recovery.h"
#include "report_settings_dialog.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "run_controller.h"
#include "run_operator.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "selection_model.h"
#include "simulation_settings_dialog.h"
#include "study_dialog.h"
#include "library_folder.h"
#include "make_subcircuit_dialog.h"
#include "subcircuit_editor.h"
#include "start_page.h"
#include "time_bar.h"
#include "time_cursor.h"
#include "units.h"
#include "window_layouts.h"

#include "engine/user_folder.h"
#include "model/project_error.h"

#include <QAction>
#include <QActionGroup>
#include <QDir>
#include <QDockWidget>
#include <QGraphicsItem>
#include <QLabel>
#include <QListWidget>
#include <QInputDialog>
#include <QMenuBar>
#include <QProgressBar>
#include <QScreen>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace pm::gui {

void MainWindow::buildUi() {
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  // Centre: start page or the schematic with its time bar.
  buffer_ = new ResultBuffer(this);
  scene_ = new SchematicScene(doc_, this);
  view_ = new SchematicView(scene_);
  connect(view_, &SchematicView::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 4000); });
  // In interactive mode push buttons are operated by clicking them while a
  // run is in progress.
  auto* op = new RunOperator(view_, doc_, run_->runner(), this);
  run_->setOperator(op);
  connect(op, &RunOperator::operated, this,
          [this](const QString& id, bool on) { statusBar()->showMessage(id + (on ? tr(" pressed") : tr(" released")), 2000); });
  connect(scene_, &QGraphicsScene::selectionChanged, this, &MainWindow::onSceneSelectionChanged);

  // The document's one time cursor: its instants are the result rows, so
  // every view shows the same row whichever control moved it.
  cursor_ = new TimeCursor(this);
  cursor_->setSnap([this](double t) { return buffer_->rows() ? buffer_->times()[buffer_->nearestRow(t)] : t; });
  connect(cursor_, &TimeCursor::timeChanged, this, &MainWindow::showTime);
  timeBar_ = new TimeBar(cursor_, buffer_);
  // Back at the end of a running simulation's results: follow it again.
  connect(timeBar_, &TimeBar::scrubbedToEnd, this, [this] {
    if (run_->isRunning()) cursor_->setFollowLive(true);
  });

  auto* editorPage = new QWidget;
  auto* el = new QVBoxLayout(editorPage);
  el->setContentsMargins(0, 0, 0, 0);
  el->setSpacing(0);
  connect(doc_, &Document::rejected, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  subEditor_ = new SubcircuitEditor(doc_);
  connect(subEditor_, &SubcircuitEditor::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 6000); });
  canvas_ = new QStackedWidget;
  canvas_->addWidget(view_);
  canvas_->addWidget(subEditor_);
  connect(subEditor_, &SubcircuitEditor::opened, this, [this] { canvas_->setCurrentWidget(subEditor_); });
  connect(subEditor_, &SubcircuitEditor::closed, this, [this] { canvas_->setCurrentWidget(view_); });
  connect(view_, &SchematicView::subcircuitOpenRequested, this,
          [this](const QString& id) { subEditor_->open(id.toStdString()); });
  el->addWidget(canvas_, 1);
  el->addWidget(timeBar_);

  start_ = new StartPage;
  connect(start_, &StartPage::openRequested, this, [this](const QString& p) { session_->openCommand(p); });
  connect(start_, &StartPage::newRequested, session_, &FileSession::newCommand);
  connect(start_, &StartPage::openDialogRequested, session_, qOverload<>(&FileSession::openCommand));
  stack_ = new QStackedWidget;
  stack_->addWidget(start_);
  stack_->addWidget(editorPage);
  setCentralWidget(stack_);

  // Left: the component library.
  library_ = new LibraryPanel;
  connect(library_, &LibraryPanel::activated, this, [this](const QString& type) {
    stack_->setCurrentIndex(1);
    view_->addComponent(type.toStdString(), view_->mapToScene(view_->viewport()->rect().center()));
  });
  auto* libDock = new QDockWidget(tr("Library"), this);
  libDock->setObjectName("libraryDock");
  libDock->setWidget(library_);
  addDockWidget(Qt::LeftDockWidgetArea, libDock);

  // Right: the model tree (mechanism and circuit, one selection shared by
  // every view) and the property editor.
  selection_ = new SelectionModel(this);
  connect(selection_, &SelectionModel::changed, this, &MainWindow::onSharedSelection);
  modelTree_ = new ModelTree(doc_, selection_);
  auto* modelBox = new QWidget;
  auto* ml = new QVBoxLayout(modelBox);
  ml->setContentsMargins(0, 0, 0, 0);
  ml->setSpacing(0);
  ml->addWidget(modelTree_, 1);  // the mechanism toolbar goes on top once the 3D view exists
  auto* modelDock = new QDockWidget(tr("Model"), this);
  modelDock->setObjectName("modelDock");
  modelDock->setWidget(modelBox);
  addDockWidget(Qt::RightDockWidgetArea, modelDock);

  props_ = new PropertyEditor(doc_);
  connect(props_, &PropertyEditor::rejected, this, [this](const QString& msg) {
    lastError_ = msg;
    statusBar()->showMessage(msg, 8000);
  });
  connect(props_->model(), &ParamModel::parameterChanged, this, [this](const QString& c, const QString& p, double si) {
    statusBar()->showMessage(tr("%1.%2 = %3 (SI)").arg(c, p, units::formatNumber(si)), 4000);
  });
  auto* propDock = new QDockWidget(tr("Properties"), this);
  propDock->setObjectName("propertiesDock");
  propDock->setWidget(props_);
  addDockWidget(Qt::RightDockWidgetArea, propDock);
  splitDockWidget(modelDock, propDock, Qt::Vertical);
  resizeDocks({libDock, modelDock}, {260, 420}, Qt::Horizontal);
  resizeDocks({modelDock, propDock}, {220, 520}, Qt::Vertical);

  // Bottom: messages and the result plot.
  messages_ = new QListWidget;
  messages_->setObjectName("messageList");
  connect(messages_, &QListWidget::itemActivated, this, &MainWindow::onMessageActivated);
  connect(messages_, &QListWidget::itemClicked, this, &MainWindow::onMessageActivated);
  messagesDock_ = new QDockWidget(tr("Messages"), this);
  messagesDock_->setObjectName("messagesDock");
  messagesDock_->setWidget(messages_);

  results_ = new ResultsPanel(buffer_);
  // A click on a plot moves the document's time cursor.
  connect(results_, &ResultsPanel::timeRequested, cursor_, &TimeCursor::seek);
  connect(results_, &ResultsPanel::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  plotDock_ = new QDockWidget(tr("Results"), this);
  plotDock_->setObjectName("resultsDock");
  plotDock_->setWidget(results_);
  // Resizable (the splitter above it), undocked by its title bar's button or
  // a double click, and maximised by the plot toolbar's Maximise.
  plotDock_->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                         QDockWidget::DockWidgetFloatable);
  connect(results_, &ResultsPanel::maximiseToggled, this, [this](bool on) {
    if (on) {
      plotDock_->setFloating(true);
      if (const QScreen* s = plotDock_->screen()) plotDock_->setGeometry(s->availableGeometry());
      plotDock_->showMaximized();
    } else {
      plotDock_->setFloating(false);
    }
    plotDock_->raise();
  });
  // Docked again by its title bar: Maximise is off.
  connect(plotDock_, &QDockWidget::topLevelChanged, this, [this](bool floating) {
    if (!floating) results_->maximiseAction()->setChecked(false);
  });
  // The right column (model, properties, 3D view) runs the full height.
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  addDockWidget(Qt::BottomDockWidgetArea, plotDock_);
  addDockWidget(Qt::BottomDockWidgetArea, messagesDock_);
  tabifyDockWidget(plotDock_, messagesDock_);
  plotDock_->raise();

  if (MechanismView::isSupported()) {
    auto* box = new QWidget;
    auto* lay = new QVBoxLayout(box);
    lay->setContentsMargins(0, 0, 0, 0);
    view3d_ = new MechanismView;
    view3d_->setObjectName("mechanismView");
    // The 3D toolbar is a control of the document's cursor; the view shows its time.
    anim3d_ = new AnimationControls(cursor_);
    connect(cursor_, &TimeCursor::timeChanged, view3d_, &MechanismView::setPose);
    lay->addWidget(new MechanismViewToolBar(view3d_));
    lay->addWidget(view3d_, 1);
    lay->addWidget(anim3d_);
    dock3d_ = new QDockWidget(tr("3D Mechanism"), this);
    dock3d_->setObjectName("mechanismDock");
    dock3d_->setWidget(box);
    addDockWidget(Qt::RightDockWidgetArea, dock3d_);
    dock3d_->hide();
  }

  if (view3d_) connect(view3d_, &MechanismView::objectSelected, selection_, &SelectionModel::select);
  connect(props_->mechanismForm(), &MechanismForm::renamed, selection_, &SelectionModel::select);
  mechActions_ = new MechanismActions(doc_, selection_, view3d_, this);
  ml->insertWidget(0, mechActions_->toolBar());
  if (view3d_) {
    // The building tools sit over the 3D view, under its camera toolbar.
    buildTools_ = new BuildTools3d(doc_, selection_, view3d_, mechActions_->addPart(), this);
    static_cast<QVBoxLayout*>(dock3d_->widget()->layout())->insertWidget(1, buildTools_->toolBar());
    connect(buildTools_, &BuildTools3d::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 6000); });
  }
  connect(mechActions_, &MechanismActions::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 6000); });
  modelTree_->setContextMenuPolicy(Qt::ActionsContextMenu);
  modelTree_->addActions(mechActions_->actions());
  // The property editor's Re-pick: the Attach command on that cylinder.
  connect(props_->attachmentBox(), &AttachmentBox::repickRequested, this, [this](const QString& id) {
    selection_->select(id);
    if (mechActions_->attachCylinder()->isEnabled()) mechActions_->attachCylinder()->trigger();
  });

  statusLabel_ = new QLabel(tr("No simulation run yet"));
  statusLabel_->setObjectName("statusLabel");
  statusBar()->addPermanentWidget(statusLabel_);  // no stretch: showMessage() needs the room on the left
  cursorStatus_ = new QLabel;
  cursorStatus_->setObjectName("cursorStatus");
  cursorStatus_->setToolTip(tr("The time every view shows"));
  cursorStatus_->setMinimumWidth(cursorStatus_->fontMetrics().horizontalAdvance(tr("Cursor: t = 0000.000 s")) + 8);
  statusBar()->addPermanentWidget(cursorStatus_);
  progress_ = new QProgressBar;
  progress_->setObjectName("runProgress");
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(true);
  progress_->setFormat("%p %");
  progress_->hide();
  statusBar()->addPermanentWidget(progress_);
}

// View > Pressure Units: the studio's one pressure scale (gauge by default),
// remembered for the next start.
void MainWindow::addPressureUnitsMenu(QMenu* viewMenu) {
  QMenu* menu = viewMenu->addMenu(tr("&Pressure Units"));
  menu->setObjectName("pressureUnitsMenu");
  auto* group = new QActionGroup(this);
  auto add = [&](const QString& text, const char* name, units::PressureScale scale) {
    QAction* a = menu->addAction(text);
    a->setObjectName(name);
    a->setCheckable(true);
    a->setChecked(units::UnitSettings::instance().pressureScale() == scale);
    group->addAction(a);
    connect(a, &QAction::triggered, this, [scale] { units::UnitSettings::instance().setPressureScale(scale); });
    connect(&units::UnitSettings::instance(), &units::UnitSettings::changed, a,
            [a, scale] { a->setChecked(units::UnitSettings::instance().pressureScale() == scale); });
  };
  add(tr("&Gauge, bar (g): relative to the ambient pressure"), "actionPressureGauge", units::PressureScale::Gauge);
  add(tr("&Absolute, bar (abs)"), "actionPressureAbsolute", units::PressureScale::Absolute);
}

// Analysis > Modes: the modes table in a dock under the schematic, its
// animation in the 3D view and the schematic's colours; a run, or the end of the animation, gives the
// view the run back.
void MainWindow::addAnalysisMenu() {
  modes_ = new ModesPanel(doc_, view3d_, scene_);
  modes_->setObjectName("modesPanel");
  modesDock_ = new QDockWidget(tr("Modes"), this);
  modesDock_->setObjectName("modesDock");
  modesDock_->setWidget(modes_);
  addDockWidget(Qt::BottomDockWidgetArea, modesDock_);
  tabifyDockWidget(plotDock_, modesDock_);
  modesDock_->hide();
  plotDock_->raise();
  connect(modes_, &ModesPanel::schematicColoured, this,
          [this](double pLow, double pHigh) { view_->setLegendVisible(true, pLow, pHigh); });
  connect(modes_, &ModesPanel::animationStopped, this, [this] {
    run_->showFrame(cursor_->time());  // the schematic's colours of the run, if any
    run_->showLegend();
    if (!view3d_) return;
    view3d_->setResults(run_->shown3d(), !run_->isRunning());
    view3d_->setPose(cursor_->time());
  });
  connect(run_, &RunController::stateChanged, modes_, [this] {
    if (run_->isRunning()) modes_->stopAnimation();
  });
  QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
  analysis->setObjectName("analysisMenu");
  QAction* modes = analysis->addAction(tr("&Modes..."), this, [this] {
    modesDock_->show();
    modesDock_->raise();
  });
  modes->setObjectName("actionModes");
  modes->setStatusTip(tr("Modes of the whole machine (mechanism, flexible bodies, chambers, controllers): "
                         "frequencies, damping, and each mode animated in the 3D view"));
}

// The schematic shown: the project's, or the inside of a sub-circuit (the
// Edit menu's commands act on it; their keys are the view's own).
SchematicView* MainWindow::shownView() const {
  return subEditor_ && subEditor_->isOpen() ? subEditor_->view() : view_;
}

// Edit > Make Sub-circuit... and Open Sub-circuit (issue 24), also on the
// schematic's context menu.
void MainWindow::addSubcircuitActions(QMenu* edit) {
  edit->addSeparator();
  QAction* make = edit->addAction(tr("Make Sub-&circuit..."), this, [this] {
    if (subEditor_->isOpen()) {  // a type's definition lives in the project, not in another's inside
      statusBar()->showMessage(tr("Make Sub-circuit works on the project's circuit: go Back first"), 6000);
      return;
    }
    const auto ids = scene_->selectedComponents();
    if (ids.empty()) {
      statusBar()->showMessage(tr("Select the components the sub-circuit is to hold first"), 6000);
      return;
    }
    auto* dlg = new MakeSubcircuitDialog(doc_, ids, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &MakeSubcircuitDialog::made, this, [this](const QString& id) {
      scene_->selectObjects({id.toStdString()});
      statusBar()->showMessage(tr("Sub-circuit %1 made: double-click it to edit its inside").arg(id), 6000);
    });
    dlg->open();
  });
  make->setObjectName("actionMakeSubcircuit");
  make->setStatusTip(tr("Pack the selected components into one block of a new sub-circuit type"));
  QAction* open = edit->addAction(tr("&Open Sub-circuit"), this, [this] {
    const auto ids = scene_->selectedComponents();
    if (ids.size() != 1 || !subEditor_->open(*ids.begin()))
      statusBar()->showMessage(tr("Select one sub-circuit block to open its inside"), 6000);
  });
  open->setObjectName("actionOpenSubcircuit");
  open->setStatusTip(tr("Edit the inside of the selected sub-circuit block (every block of its type follows)"));
  QAction* store = edit->addAction(tr("Store Sub-circuit in &Library"), this, [this] { storeTypeInLibrary(); });
  store->setObjectName("actionStoreInLibrary");
  store->setStatusTip(tr("Write the type of the selected block (or of the inside shown) into the user library "
                         "folder (Edit > Preferences), so every project can use it"));
  view_->setContextMenuPolicy(Qt::ActionsContextMenu);
  view_->addAction(make);
  view_->addAction(open);
  view_->addAction(store);
}

// The selected block's type, or the type whose inside is shown, written to
// the library folder: the library lists it from there at every start.
void MainWindow::storeTypeInLibrary() {
  std::string type;
  if (subEditor_->isOpen()) {
    type = subEditor_->document()->subcircuitType();
  } else if (const auto ids = scene_->selectedComponents(); ids.size() == 1) {
    if (const Component* c = project().find(*ids.begin())) type = c->type;
  }
  const auto it = project().userComponents.find(type);
  if (it == project().userComponents.end()) {
    statusBar()->showMessage(tr("Select one sub-circuit block (or open one) to store its type in the library"), 6000);
    return;
  }
  const QString folder = library_folder::current();
  if (folder.isEmpty() || !QDir().mkpath(folder)) {
    showWarning(tr("Store in Library"), tr("The library folder '%1' cannot be made: choose one in Edit > Preferences")
                                            .arg(folder));
    return;
  }
  try {
    const std::string path = engine::storeInFolder(it->second, folder.toStdString());
    library_->refresh();
    statusBar()->showMessage(tr("Stored %1 in the library: %2").arg(QString::fromStdString(type),
                                                                  QString::fromStdString(path)), 8000);
  } catch (const ProjectError& e) {
    showWarning(tr("Store in Library"), QString::fromStdString(e.what()));
  }
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  actNew_ = file->addAction(tr("&New"), session_, &FileSession::newCommand);
  actNew_->setShortcut(QKeySequence::New);
  actOpen_ = file->addAction(tr("&Open..."), session_, qOverload<>(&FileSession::openCommand));
  actOpen_->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  actSave_ = file->addAction(tr("&Save"), this, [this] { saveProject(); });
  actSave_->setShortcut(QKeySequence::Save);
  actSaveAs_ = file->addAction(tr("Save &As..."), session_, &FileSession::saveAsCommand);
  actSaveAs_->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  QAction* props = file->addAction(tr("Project &Properties..."), this, [this] { openProjectProperties(this, doc_); });
  props->setObjectName("actionProjectProperties");
  props->setStatusTip(tr("Title, customer, author, description, logo and required cycle time of the report"));
  file->addAction(tr("Report Se&ttings..."), this, [this] { openReportSettings(this, doc_, buffer_); })
      ->setObjectName("actionReportSettings");
  file->addAction(tr("Export &Report (PDF)..."), this, &MainWindow::exportReportDialog);
  file->addSeparator();
  file->addAction(tr("Start &Page"), this, [this] { stack_->setCurrentWidget(start_); });
  file->addAction(tr("A&utosave Interval..."), this, [this] {
    bool ok = false;
    const int minutes = QInputDialog::getInt(
        this, tr("Autosave"), tr("Save a recovery copy of unsaved changes every (minutes, 0 = never):"),
        (Recovery::autosaveSeconds() + 59) / 60, 0, 120, 1, &ok);
    if (ok) recovery_->setAutosaveSeconds(minutes * 60);
  })->setObjectName("actionAutosaveInterval");
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
  // Ctrl+Y as well as the platform's Redo (Ctrl+Shift+Z here): users of
  // both conventions reach for theirs.
  QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
  if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y))) redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
  redo->setShortcuts(redoKeys);
  // The menu says what is undone ("Undo Move lever"); the toolbar's buttons
  // keep their short names so the buttons after them do not shift.
  undo->setIconText(tr("Undo"));
  redo->setIconText(tr("Redo"));
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  // Canvas commands act while the schematic has the focus, so the same keys
  // keep working as usual in text fields.
  auto canvas = [&](const QString& text, const QKeySequence& key, auto fn) {
    QAction* a = edit->addAction(text, this, fn);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    view_->addAction(a);
    return a;
  };
  canvas(tr("&Copy"), QKeySequence::Copy, [this] { shownView()->copySelection(); });
  canvas(tr("&Paste"), QKeySequence::Paste, [this] { shownView()->paste(); });
  canvas(tr("D&uplicate"), QKeySequence(Qt::CTRL | Qt::Key_D), [this] { shownView()->duplicateSelection(); });
  canvas(tr("&Delete"), QKeySequence::Delete, [this] { shownView()->deleteSelection(); });
  edit->addSeparator();
  QAction* rot = canvas(tr("&Rotate 90°"), QKeySequence(Qt::Key_R), [this] { shownView()->rotateSelection(); });
  QAction* mir = canvas(tr("&Mirror"), QKeySequence(Qt::Key_M), [this] { shownView()->mirrorSelection(); });
  canvas(tr("Select &All"), QKeySequence::SelectAll, [this] {
    for (QGraphicsItem* i : shownView()->scene()->items())
      if (i->flags() & QGraphicsItem::ItemIsSelectable) i->setSelected(true);
  });
  addSubcircuitActions(edit);
  edit->addSeparator();
  QAction* prefs = edit->addAction(tr("Pre&ferences..."), this, &MainWindow::openPreferences);
  prefs->setObjectName("actionPreferences");
  prefs->setShortcut(QKeySequence::Preferences);
  prefs->setStatusTip(tr("The studio's own settings: the user component library folder"));

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  QAction* fit = viewMenu->addAction(tr("Zoom to &Fit"), view_, &SchematicView::zoomToFit);
  fit->setShortcut(QKeySequence(Qt::Key_F));
  fit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  view_->addAction(fit);
  viewMenu->addAction(tr("Zoom &In"), view_, &SchematicView::zoomIn)->setShortcut(QKeySequence::ZoomIn);
  viewMenu->addAction(tr("Zoom &Out"), view_, &SchematicView::zoomOut)->setShortcut(QKeySequence::ZoomOut);
  viewMenu->addSeparator();
  addPressureUnitsMenu(viewMenu);
  viewMenu->addSeparator();
  viewMenu->addAction(plotDock_->toggleViewAction());
  viewMenu->addAction(messagesDock_->toggleViewAction());

  QMenu* mech = menuBar()->addMenu(tr("&Mechanism"));
  mech->addActions(mechActions_->actions());

  addAnalysisMenu();

  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  actCheck_ = sim->addAction(tr("&Check Circuit"), this, [this] {
    runChecks();
    messagesDock_->raise();
  });
  sim->addAction(tr("&Settings..."), this, [this] { openSimulationSettings(this, doc_); })
      ->setObjectName("actionSimulationSettings");
  sim->addAction(tr("Parameter &Study..."), this, [this] {
    auto* dlg = new StudyDialog(doc_, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    studyDialog_ = dlg;
    auto keep = [this, dlg] {
      if (!dlg->summary().rows.empty()) lastStudy_ = std::make_shared<StudySummary>(dlg->summary());
    };
    connect(dlg, &StudyDialog::studyFinished, this, keep);
    connect(dlg, &QDialog::finished, this, keep);
    dlg->show();
  })->setObjectName("actionStudy");
  sim->addSeparator();
  actRun_ = sim->addAction(tr("&Run"), this, &MainWindow::runSimulation);
  actRun_->setShortcut(QKeySequence(Qt::Key_F5));
  actPause_ = sim->addAction(tr("&Pause"), this, [this] {
    if (run_->isPaused()) resumeSimulation();
    else pauseSimulation();
  });
  actPause_->setObjectName("actionPause");
  actPause_->setShortcut(QKeySequence(Qt::Key_F6));
  actStop_ = sim->addAction(tr("S&top"), this, &MainWindow::stopSimulation);
  actStop_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  // Interactive demonstrations: simulated time keeps to the wall clock and
  // hand-operated components answer clicks during the run.
  QAction* interactive = sim->addAction(tr("&Interactive"));
  interactive->setObjectName("actionInteractive");
  interactive->setCheckable(true);
  interactive->setShortcut(QKeySequence(Qt::Key_F7));
  interactive->setStatusTip(tr("Interactive mode: the run keeps to the wall clock at the playback speed, and push "
                               "buttons, switches and manual valves can be clicked in the schematic while it runs"));
  connect(interactive, &QAction::toggled, run_, &RunController::setInteractive);

  QToolBar* tb = addToolBar(tr("Main"));
  tb->setObjectName("mainToolBar");
  tb->setMovable(false);
  tb->setToolButtonStyle(Qt::ToolButtonTextOnly);
  tb->addAction(actNew_);
  tb->addAction(actOpen_);
  tb->addAction(actSave_);
  tb->addSeparator();
  tb->addAction(undo);
  tb->addAction(redo);
  tb->addSeparator();
  tb->addAction(rot);
  tb->addAction(mir);
  tb->addAction(fit);
  tb->addSeparator();
  tb->addAction(actCheck_);
  tb->addAction(actRun_);
  tb->addAction(actPause_);
  tb->addAction(actStop_);
  tb->addAction(interactive);
  tb->addSeparator();
  layouts_ = new WindowLayouts(this, [this] { sync3d(); });
  layouts_->setObjectName("windowLayouts");
  layouts_->addTo(viewMenu, tb);
  actNew_->setStatusTip(tr("Start an empty circuit"));
  actOpen_->setStatusTip(tr("Open a project file"));
  actSave_->setStatusTip(tr("Save the project"));
  undo->setStatusTip(tr("Undo the last edit"));
  redo->setStatusTip(tr("Redo the edit undone"));
  rot->setStatusTip(tr("Rotate the selected symbols by 90 degrees"));
  mir->setStatusTip(tr("Mirror the selected symbols"));
  fit->setStatusTip(tr("Show the whole circuit"));
  actCheck_->setStatusTip(tr("List what keeps the circuit from running, before a run"));
  actRun_->setStatusTip(tr("Simulate the project and show the results live"));
  actPause_->setStatusTip(tr("Pause or resume the running simulation"));
  actStop_->setStatusTip(tr("Stop the simulation, keeping the results so far"));
  describeToolBar(tb);

  addHelpMenu(this, [this] {
    session_->openCommand(StartPage::examplesDirectory() + "/seed003_meter_out.pneumech.json");
  });
}

}  // namespace pm::gui
