#include "main_window.h"

#include "analyses/geometry_checks.h"
#include "attachment_box.h"

#include "document.h"
#include "engine/engine.h"
#include "library_panel.h"
#include "mechanism_actions.h"
#include "mechanism_view.h"
#include "mechanism_view_controls.h"
#include "model/component_type.h"
#include "model/project_error.h"
#include "model_tree.h"
#include "param_model.h"
#include "mechanism_form.h"
#include "property_editor.h"
#include "plot_pane.h"
#include "report_export.h"
#include "report_settings_dialog.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "run_animation.h"
#include "run_operator.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "selection_model.h"
#include "simulation_runner.h"
#include "simulation_settings_dialog.h"
#include "start_page.h"
#include "symbol_library.h"
#include "time_bar.h"
#include "time_cursor.h"
#include "units.h"

#include <QAction>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <QUndoStack>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace pm::gui {

namespace {
constexpr int kMaxRecent = 8;
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), anim_(std::make_unique<RunAnimation>()) {
  doc_ = new Document(this);
  runner_ = new SimulationRunner(this);
  connect(runner_, &SimulationRunner::finished, this, &MainWindow::onRunFinished);
  poll_ = new QTimer(this);
  poll_->setInterval(33);  // ~30 Hz
  connect(poll_, &QTimer::timeout, this, &MainWindow::onPoll);
  buildUi();
  buildMenus();
  connect(doc_, &Document::changed, this, &MainWindow::onDocumentChanged);
  connect(doc_, &Document::modifiedChanged, this, &MainWindow::updateTitle);
  connect(doc_, &Document::fileChanged, this, &MainWindow::updateTitle);
  updateTitle();
  updateActions();
  updateRecentMenu();
  resize(1400, 900);
  resizeDocks({plotDock_}, {380}, Qt::Vertical);  // once the window has its size
}

MainWindow::~MainWindow() {
  poll_->stop();
  runner_->stop();
  // The scene empties itself when deleted, after some docks are gone: its
  // selection signals must not reach them.
  disconnect(scene_, nullptr, this, nullptr);
}

const Project& MainWindow::project() const { return doc_->project(); }
const QString& MainWindow::currentFile() const { return doc_->file(); }
bool MainWindow::isModified() const { return doc_->isModified(); }
QTableView* MainWindow::paramView() const { return props_->table(); }
bool MainWindow::isShowingStartPage() const { return stack_->currentWidget() == start_; }
QSlider* MainWindow::timeSlider() const { return timeBar_->slider(); }
QToolButton* MainWindow::timePlayButton() const { return timeBar_->playButton(); }
QString MainWindow::cursorStatusText() const { return cursorStatus_->text(); }

// ---------------------------------------------------------------- UI setup

void MainWindow::buildUi() {
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  // Centre: start page or the schematic with its time bar.
  buffer_ = new ResultBuffer(this);
  scene_ = new SchematicScene(doc_, this);
  view_ = new SchematicView(scene_);
  connect(view_, &SchematicView::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 4000); });
  // Push buttons are operated by clicking them while a run is in progress.
  connect(new RunOperator(view_, doc_, runner_, this), &RunOperator::operated, this,
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
    if (runner_->isRunning()) cursor_->setFollowLive(true);
  });

  auto* editorPage = new QWidget;
  auto* el = new QVBoxLayout(editorPage);
  el->setContentsMargins(0, 0, 0, 0);
  el->setSpacing(0);
  el->addWidget(view_, 1);
  el->addWidget(timeBar_);

  start_ = new StartPage;
  connect(start_, &StartPage::openRequested, this, [this](const QString& p) {
    if (maybeSave()) openProject(p);
  });
  connect(start_, &StartPage::newRequested, this, &MainWindow::onNew);
  connect(start_, &StartPage::openDialogRequested, this, &MainWindow::onOpen);
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
  statusBar()->addPermanentWidget(statusLabel_, 1);
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

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  actNew_ = file->addAction(tr("&New"), this, &MainWindow::onNew);
  actNew_->setShortcut(QKeySequence::New);
  actOpen_ = file->addAction(tr("&Open..."), this, &MainWindow::onOpen);
  actOpen_->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  actSave_ = file->addAction(tr("&Save"), this, [this] { saveProject(); });
  actSave_->setShortcut(QKeySequence::Save);
  actSaveAs_ = file->addAction(tr("Save &As..."), this, &MainWindow::onSaveAs);
  actSaveAs_->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  file->addAction(tr("Report Se&ttings..."), this, [this] { openReportSettings(this, doc_, buffer_); })
      ->setObjectName("actionReportSettings");
  file->addAction(tr("Export &Report (PDF)..."), this, &MainWindow::exportReportDialog);
  file->addSeparator();
  file->addAction(tr("Start &Page"), this, [this] { stack_->setCurrentWidget(start_); });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
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
  canvas(tr("&Copy"), QKeySequence::Copy, [this] { view_->copySelection(); });
  canvas(tr("&Paste"), QKeySequence::Paste, [this] { view_->paste(); });
  canvas(tr("D&uplicate"), QKeySequence(Qt::CTRL | Qt::Key_D), [this] { view_->duplicateSelection(); });
  canvas(tr("&Delete"), QKeySequence::Delete, [this] { view_->deleteSelection(); });
  edit->addSeparator();
  QAction* rot = canvas(tr("&Rotate 90°"), QKeySequence(Qt::Key_R), [this] { view_->rotateSelection(); });
  QAction* mir = canvas(tr("&Mirror"), QKeySequence(Qt::Key_M), [this] { view_->mirrorSelection(); });
  canvas(tr("Select &All"), QKeySequence::SelectAll, [this] {
    for (QGraphicsItem* i : scene_->items())
      if (i->flags() & QGraphicsItem::ItemIsSelectable) i->setSelected(true);
  });

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  QAction* fit = viewMenu->addAction(tr("Zoom to &Fit"), view_, &SchematicView::zoomToFit);
  fit->setShortcut(QKeySequence(Qt::Key_F));
  fit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  view_->addAction(fit);
  viewMenu->addAction(tr("Zoom &In"), view_, &SchematicView::zoomIn)->setShortcut(QKeySequence::ZoomIn);
  viewMenu->addAction(tr("Zoom &Out"), view_, &SchematicView::zoomOut)->setShortcut(QKeySequence::ZoomOut);

  QMenu* mech = menuBar()->addMenu(tr("&Mechanism"));
  mech->addActions(mechActions_->actions());

  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  actCheck_ = sim->addAction(tr("&Check Circuit"), this, [this] {
    runChecks();
    messagesDock_->raise();
  });
  sim->addAction(tr("&Settings..."), this, [this] { openSimulationSettings(this, doc_); })
      ->setObjectName("actionSimulationSettings");
  sim->addSeparator();
  actRun_ = sim->addAction(tr("&Run"), this, &MainWindow::runSimulation);
  actRun_->setShortcut(QKeySequence(Qt::Key_F5));
  actPause_ = sim->addAction(tr("&Pause"), this, [this] {
    if (runner_->isPaused()) resumeSimulation();
    else pauseSimulation();
  });
  actPause_->setObjectName("actionPause");
  actPause_->setShortcut(QKeySequence(Qt::Key_F6));
  actStop_ = sim->addAction(tr("S&top"), this, &MainWindow::stopSimulation);
  actStop_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  // Interactive demonstrations: simulated time keeps to the wall clock.
  QAction* realTime = sim->addAction(tr("Real-Time &Pacing"));
  realTime->setObjectName("actionRealTime");
  realTime->setCheckable(true);
  connect(realTime, &QAction::toggled, this, [this](bool on) { runner_->setPacing(on ? 1.0 : 0.0); });

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
}

void MainWindow::updateTitle() {
  const QString file = doc_->file();
  QString name = file.isEmpty() ? tr("untitled") : QFileInfo(file).fileName();
  QString title = QString::fromStdString(project().meta.title);
  if (title.size() > 60) title = title.left(57) + "...";
  setWindowTitle(QString("%1[*]%2 - PneuMech Studio").arg(name, title.isEmpty() ? QString() : " - " + title));
  setWindowModified(doc_->isModified());
}

void MainWindow::updateActions() {
  const bool running = runner_->isRunning();
  actOpen_->setEnabled(!running);
  actNew_->setEnabled(!running);
  // A mechanism alone (no circuit) runs as well as a circuit does.
  actRun_->setEnabled(!running && !(project().components.empty() && project().mechanism.empty()));
  actStop_->setEnabled(running);
  actPause_->setEnabled(running);
  actPause_->setText(runner_->isPaused() ? tr("&Resume") : tr("&Pause"));
}

void MainWindow::showError(const QString& title, const QString& text) {
  lastError_ = text;
  statusBar()->showMessage(text, 8000);
  QMessageBox::warning(this, title, text);
}

QString MainWindow::statusText() const { return statusLabel_->text(); }

// ---------------------------------------------------------------- files

bool MainWindow::maybeSave() {
  if (!doc_->isModified()) return true;
  const auto answer = QMessageBox::question(
      this, tr("Unsaved changes"), tr("The project has unsaved changes. Save them first?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return saveProject();
  return true;
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (!maybeSave()) {
    e->ignore();
    return;
  }
  runner_->stop();
  e->accept();
}

bool MainWindow::openProject(const QString& path) {
  if (runner_->isRunning()) {
    showError(tr("Open project"), tr("Stop the running simulation first."));
    return false;
  }
  Project p;
  try {
    p = engine::load(path.toStdString());
  } catch (const std::exception& e) {
    showError(tr("Cannot open project"), QString::fromStdString(e.what()));
    return false;
  }
  clearResults();
  doc_->reset(std::move(p), path);
  resetViews();
  stack_->setCurrentIndex(1);
  addRecentFile(path);
  // Fit once the view has its final size.
  view_->zoomToFit();
  QTimer::singleShot(0, view_, &SchematicView::zoomToFit);
  statusLabel_->setText(tr("Opened %1: %2 components, %3 connections")
                            .arg(QFileInfo(path).fileName())
                            .arg(project().components.size())
                            .arg(project().connections.size()));
  updateTitle();
  updateActions();
  return true;
}

void MainWindow::newProject() {
  clearResults();
  Project p;
  p.meta.title = "";
  doc_->reset(std::move(p), QString());
  resetViews();
  stack_->setCurrentIndex(1);
  statusLabel_->setText(tr("New circuit: drag components from the library onto the sheet"));
  updateTitle();
  updateActions();
}

void MainWindow::resetViews() {
  if (view3d_ && view3d_->isPickingMarker()) view3d_->cancelMarkerPick();
  selection_->clear();
  scene_->clearSelection();
  props_->showComponent({});
  results_->resetForProject(project());
  messages_->clear();
  messagesDock_->setWindowTitle(tr("Messages"));
  statusBar()->clearMessage();
  lastError_.clear();
}

bool MainWindow::saveProject() {
  if (doc_->file().isEmpty()) {
    onSaveAs();
    return !doc_->file().isEmpty() && !doc_->isModified();
  }
  return saveProjectAs(doc_->file());
}

bool MainWindow::saveProjectAs(const QString& path) {
  try {
    engine::save(project(), path.toStdString());  // atomic (write + rename)
  } catch (const std::exception& e) {
    showError(tr("Cannot save project"), QString::fromStdString(e.what()));
    return false;
  }
  doc_->markSaved(path);
  addRecentFile(path);
  updateTitle();
  statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  return true;
}

void MainWindow::onNew() {
  if (maybeSave()) newProject();
}

void MainWindow::onOpen() {
  if (!maybeSave()) return;
  QString dir = doc_->file().isEmpty() ? StartPage::examplesDirectory() : QFileInfo(doc_->file()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), dir,
                                                    tr("PneuMech projects (*.pneumech.json *.json);;All files (*)"));
  if (!path.isEmpty()) openProject(path);
}

void MainWindow::onSaveAs() {
  const QString file = doc_->file();
  QString path = QFileDialog::getSaveFileName(this, tr("Save project as"),
                                              file.isEmpty() ? QString("untitled.pneumech.json") : file,
                                              tr("PneuMech projects (*.pneumech.json);;All files (*)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".json")) path += ".pneumech.json";
  saveProjectAs(path);
}

void MainWindow::addRecentFile(const QString& path) {
  QSettings s;
  QStringList files = s.value("recentFiles").toStringList();
  const QString abs = QFileInfo(path).absoluteFilePath();
  files.removeAll(abs);
  files.prepend(abs);
  while (files.size() > kMaxRecent) files.removeLast();
  s.setValue("recentFiles", files);
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  const QStringList files = QSettings().value("recentFiles").toStringList();
  recentMenu_->clear();
  for (const QString& f : files)
    recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] {
      if (maybeSave()) openProject(f);
    })->setToolTip(f);
  recentMenu_->setEnabled(!files.isEmpty());
  start_->setRecentFiles(files);
}

// ---------------------------------------------------------------- model and selection

void MainWindow::sync3d() {
  if (!view3d_) return;
  const bool has = !project().mechanism.empty();
  const bool appears = has && dock3d_->isHidden();
  dock3d_->setVisible(has);
  if (appears) {  // room to pick markers, and still for the model tree and the properties
    auto* model = findChild<QDockWidget*>("modelDock");
    auto* props = findChild<QDockWidget*>("propertiesDock");
    if (model && props) resizeDocks({model, props, dock3d_}, {height() / 4, height() / 4, height() / 2}, Qt::Vertical);
  }
  if (has) view3d_->setProject(project(), QFileInfo(doc_->file()).absolutePath());
}

void MainWindow::exportReportDialog() {
  auto store = buffer_->store();  // the run shown (none after New or Open)
  if (runner_->isRunning() || !store || store->rows() == 0) {
    showError(tr("Export report"), tr("Run the simulation to the end first: the report shows its results."));
    return;
  }
  const QString base = doc_->file().isEmpty() ? QString("report") : QFileInfo(doc_->file()).completeBaseName();
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Report"), base.section('.', 0, 0) + ".pdf",
                                                    tr("PDF (*.pdf)"));
  if (path.isEmpty()) return;
  QString err;
  if (!exportReport(project(), *store, path, &err, doc_->file())) showError(tr("Export report"), err);
  else statusLabel_->setText(tr("Report written to %1").arg(path));
}

void MainWindow::onDocumentChanged() {
  scene_->sync();
  sync3d();
  results_->setProject(project());
  // Results of an earlier state no longer match the drawing.
  if (scene_->frame().active) {
    scene_->setFrame({});
    view_->setLegendVisible(false, 0);
  }
  updateTitle();
  updateActions();
}

bool MainWindow::selectComponent(const QString& id) {
  if (!project().find(id.toStdString())) return false;
  if (selection_->current() == id) onSharedSelection(id);  // shown again (schematic, properties)
  else selection_->select(id);
  return true;
}

void MainWindow::onSceneSelectionChanged() {
  if (syncingSelection_) return;
  const auto comps = scene_->selectedComponents();
  const auto conns = scene_->selectedConnections();
  const std::string id = comps.size() == 1 ? *comps.begin() : std::string();
  props_->showComponent(id, int(comps.size() + conns.size()));
  syncingSelection_ = true;
  selection_->select(QString::fromStdString(id));
  syncingSelection_ = false;
}

// The shared selection changed: the 3D view highlights it; when it came from
// the model tree or the 3D view, the schematic and the property editor
// follow too.
void MainWindow::onSharedSelection(const QString& id) {
  if (view3d_) {
    const QSignalBlocker block(view3d_);
    view3d_->select(id);
  }
  if (syncingSelection_) return;
  const std::string s = id.toStdString();
  syncingSelection_ = true;
  if (project().find(s)) scene_->selectObjects({s});
  else scene_->clearSelection();
  if (ComponentItem* item = scene_->componentItem(s)) view_->ensureVisible(item, 40, 40);
  syncingSelection_ = false;
  props_->showObject(s);
}

// ---------------------------------------------------------------- checks

std::vector<CheckMessage> MainWindow::runChecks() {
  const auto found = checkProject(project(), doc_->file().toStdString());
  messages_->clear();
  for (const CheckMessage& m : found) {
    const bool err = m.severity == CheckMessage::Severity::Error;
    auto* item = new QListWidgetItem((err ? tr("Error: ") : tr("Warning: ")) + m.text, messages_);
    item->setForeground(err ? QColor(170, 0, 0) : QColor(150, 100, 0));
    item->setData(Qt::UserRole, QString::fromStdString(m.component));
    item->setData(Qt::UserRole + 1, QString::fromStdString(m.connection));
    item->setToolTip(m.text);
  }
  if (found.empty()) new QListWidgetItem(tr("Check passed: no problems found"), messages_);
  messagesDock_->setWindowTitle(found.empty() ? tr("Messages") : tr("Messages (%1)").arg(found.size()));
  return found;
}

void MainWindow::onMessageActivated(QListWidgetItem* item) {
  const std::string comp = item->data(Qt::UserRole).toString().toStdString();
  const std::string conn = item->data(Qt::UserRole + 1).toString().toStdString();
  if (comp.empty() && conn.empty()) return;
  stack_->setCurrentIndex(1);
  if (!comp.empty()) scene_->selectObjects({comp});
  else scene_->selectObjects({}, {conn});
  if (ComponentItem* c = scene_->componentItem(comp)) view_->centerOn(c);
  if (WireItem* w = scene_->wireItem(conn)) view_->centerOn(w);
}

// ---------------------------------------------------------------- simulation

void MainWindow::clearResults() {
  if (view3d_) view3d_->setResults(nullptr);  // the old store goes with the old run
  buffer_->clear();
  scene_->setFrame({});
  view_->setLegendVisible(false, 0);
  cursor_->reset();
  timeBar_->updateRows();
}

void MainWindow::runSimulation() {
  if (runner_->isRunning() || (project().components.empty() && project().mechanism.empty())) return;
  const auto found = runChecks();
  if (hasErrors(found)) {
    messagesDock_->raise();
    statusLabel_->setText(tr("Not started: the check found errors (see Messages)"));
    return;
  }
  clearResults();  // the panes keep the user's choice of channels for the next run
  tEnd_ = project().simulation.t_end;
  results_->startRun(project());
  anim_->prepare(project());
  cursor_->setFollowLive(true);
  runner_->start(project(), doc_->file().toStdString());
  statusLabel_->setText(tr("Running..."));
  progress_->setValue(0);
  progress_->show();
  poll_->start();
  updateActions();
}

void MainWindow::pauseSimulation() {
  if (!runner_->isRunning() || runner_->isPaused()) return;
  runner_->pause();
  updateRunStatus();
  updateActions();
}

void MainWindow::resumeSimulation() {
  if (!runner_->isPaused()) return;
  runner_->resume();
  updateRunStatus();
  updateActions();
}

void MainWindow::stopSimulation() {
  if (!runner_->isRunning()) return;
  runner_->stop();
  statusLabel_->setText(tr("Stopping..."));
}

// Every view at the cursor's time t (a result row's time, or 0 without
// results): the schematic's colours and valves, the plots, the results tree
// and the step diagram, the status bar. The 3D view and the time bars listen
// to the cursor themselves.
void MainWindow::showTime(double t) {
  const size_t rows = buffer_->rows();
  if (rows > 0 && anim_->ready()) scene_->setFrame(anim_->frame(buffer_->columns(), buffer_->rowAt(t), t));
  results_->setTimeCursor(t);
  cursorStatus_->setText(rows > 0 ? tr("Cursor: t = %1 s").arg(QString::number(t, 'f', 3)) : QString());
}

void MainWindow::onPoll() {
  auto store = runner_->store();
  if (!store) return;
  const bool fresh = buffer_->channels().empty();
  const size_t added = buffer_->pull(store);
  if (fresh && !buffer_->channels().empty()) {
    std::vector<std::string> names;
    for (const auto& c : buffer_->channels()) names.push_back(c.name);
    if (view3d_ && !project().mechanism.empty()) view3d_->setResults(store.get());
    anim_->setChannels(names);
    view_->setLegendVisible(anim_->ready(), anim_->scaleMaxBarGauge());
  }
  if (added > 0) {
    results_->refresh();
    timeBar_->updateRows();
    // Live, the cursor moves to the newest row the buffer holds, the same
    // row the status bar reports.
    cursor_->setRange(buffer_->times().front(), buffer_->times().back());
  }
  if (runner_->isRunning()) updateRunStatus();
}

// Simulated time, progress and real-time factor (wall time without pauses).
void MainWindow::updateRunStatus() {
  const double tNow = buffer_->rows() ? buffer_->times().back() : 0.0;
  const double wall = runner_->wallSecondsSinceStart();
  const QString rtf = QString::number(wall > 0 ? tNow / wall : 0.0, 'g', 3);
  const int permille = tEnd_ > 0 ? static_cast<int>(std::lround(1000.0 * std::clamp(tNow / tEnd_, 0.0, 1.0))) : 0;
  progress_->setValue(permille);
  if (runner_->isPaused())
    statusLabel_->setText(tr("Paused at t = %1 s of %2 s (%3 %), real-time factor %4")
                              .arg(units::formatNumber(tNow), units::formatNumber(tEnd_), QString::number(permille / 10.0, 'f', 1), rtf));
  else
    statusLabel_->setText(tr("Running... t = %1 s of %2 s (%3 %), real-time factor %4")
                              .arg(units::formatNumber(tNow), units::formatNumber(tEnd_), QString::number(permille / 10.0, 'f', 1), rtf));
}

void MainWindow::onRunFinished(bool ok) {
  onPoll();  // the last rows
  poll_->stop();
  progress_->hide();
  results_->finishRun();
  cursor_->setFollowLive(false);  // stays at the last row
  const RunResult& r = runner_->lastResult();
  const RunStats& s = r.stats;
  QString head;
  switch (r.status) {
    case RunStatus::Completed: head = tr("Completed"); break;
    case RunStatus::Cancelled: head = tr("Cancelled"); break;
    case RunStatus::Failed: head = tr("Failed"); break;
  }
  QString text = tr("%1: t = %2 s in %3 s wall, real-time factor %4, %5 steps, %6 events")
                     .arg(head, units::formatNumber(s.tReached), QString::number(s.wallSeconds, 'g', 3),
                          QString::number(s.realTimeFactor(), 'g', 3))
                     .arg(s.steps)
                     .arg(s.events);
  if (!r.message.empty() && r.status != RunStatus::Completed) text += " - " + QString::fromStdString(r.message);
  // A run no machine could make (a cylinder over a dead point) says so.
  if (r.status == RunStatus::Completed && runner_->store()) {
    const auto crossings = deadPointCrossings(project(), *runner_->store());
    for (const GeometryFinding& f : crossings) {
      auto* item = new QListWidgetItem(tr("Warning: ") + QString::fromStdString(f.message), messages_);
      item->setForeground(QColor(150, 100, 0));
      item->setData(Qt::UserRole, QString::fromStdString(f.object));
      item->setToolTip(QString::fromStdString(f.message));
    }
    if (!crossings.empty()) {
      text += tr(" - warning: over a dead point (see Messages)");
      messagesDock_->setWindowTitle(tr("Messages (%1)").arg(messages_->count()));
      messagesDock_->raise();
    }
  }
  statusLabel_->setText(text);
  updateActions();
  if (r.status == RunStatus::Failed) {
    // The results up to the failure stay: the cursor goes to the last row,
    // the failing object is selected, and Messages keeps the report.
    if (buffer_->rows() > 0) cursor_->seek(cursor_->end());
    const QString what = tr("Simulation failed at t = %1 s%2: %3")
                             .arg(units::formatNumber(s.tReached),
                                  r.object.empty() ? QString() : tr(" in %1").arg(QString::fromStdString(r.object)),
                                  QString::fromStdString(r.message));
    auto* item = new QListWidgetItem(tr("Error: ") + what, messages_);
    item->setForeground(QColor(170, 0, 0));
    item->setData(Qt::UserRole, QString::fromStdString(r.object));
    if (project().find(r.object)) selectComponent(QString::fromStdString(r.object));
    else if (view3d_ && !r.object.empty()) view3d_->select(QString::fromStdString(r.object));
    showError(tr("Simulation failed"), what);
  }
  emit simulationFinished(ok);
}

// ---------------------------------------------------------------- plot

QChart* MainWindow::chart() const { return results_->currentPane()->chart(); }

bool MainWindow::setChannelChecked(const QString& name, bool on) {
  if (buffer_->find(name.toStdString()) < 0) return false;
  PlotPane* pane = results_->currentPane();
  if (on) pane->addChannel(name.toStdString());
  else pane->removeChannel(name.toStdString());
  return true;
}

}  // namespace pm::gui
