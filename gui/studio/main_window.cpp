#include "main_window.h"
#include "subcircuit_editor.h"
#include "study_dialog.h"

#include "document.h"
#include "file_session.h"
#include "recovery.h"
#include "run_controller.h"
#include "session_memory.h"
#include "engine/engine.h"
#include "library_panel.h"
#include "mechanism_actions.h"
#include "mechanism_view.h"
#include "preferences_dialog.h"
#include "model/component_type.h"
#include "model/project_error.h"
#include "model_tree.h"
#include "property_editor.h"
#include "plot_pane.h"
#include "report_export.h"
#include "result_buffer.h"
#include "results_panel.h"
#include "schematic_items.h"
#include "schematic_scene.h"
#include "schematic_view.h"
#include "selection_model.h"
#include "simulation_runner.h"
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
#include <exception>
#include <map>

namespace pm::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  doc_ = new Document(this);
  run_ = new RunController(doc_, this);
  connect(run_, &RunController::finished, this, &MainWindow::onRunFinished);
  connect(run_, &RunController::stateChanged, this, &MainWindow::updateActions);
  connect(run_, &RunController::checksFailed, this, [this] { messagesDock_->raise(); });
  run_->setChecks([this] { return runChecks(); });
  session_ = new FileSession(doc_, this);
  session_->setBusy([this] { return run_->isRunning(); });
  connect(session_, &FileSession::failed, this, &MainWindow::showError);
  connect(session_, &FileSession::warning, this, &MainWindow::showWarning);
  // The plots of the project leaving are kept for its next opening (first:
  // clearing the results must not be what is kept).
  connect(session_, &FileSession::aboutToReplace, this, [this] {
    if (remember_) memory_->savePlots(doc_->file());
  });
  connect(session_, &FileSession::aboutToReplace, run_, &RunController::clearResults);
  connect(session_, &FileSession::replaced, this, &MainWindow::onProjectReplaced);
  connect(session_, &FileSession::recentFilesChanged, this, &MainWindow::updateRecentMenu);
  recovery_ = new Recovery(doc_, this);
  connect(recovery_, &Recovery::failed, this, &MainWindow::showError);
  connect(session_, &FileSession::replaced, recovery_, &Recovery::holdProject);
  connect(session_, &FileSession::saved, recovery_, &Recovery::holdProject);
  connect(session_, &FileSession::saved, this, [this](const QString& path) {
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  });
  buildUi();
  buildMenus();
  memory_ = new SessionMemory(this, cursor_, results_, layouts_);
  run_->setViews({buffer_, scene_, view_, results_, cursor_, timeBar_, statusLabel_, progress_, view3d_});
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
  runner()->stop();
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
SimulationRunner* MainWindow::runner() const { return run_->runner(); }

void MainWindow::updateTitle() {
  const QString file = doc_->file();
  QString name = file.isEmpty() ? tr("untitled") : QFileInfo(file).fileName();
  QString title = QString::fromStdString(project().meta.title);
  if (title.size() > 60) title = title.left(57) + "...";
  setWindowTitle(QString("%1[*]%2 - PneuMech Studio").arg(name, title.isEmpty() ? QString() : " - " + title));
  setWindowModified(doc_->isModified());
}

void MainWindow::updateActions() {
  const bool running = run_->isRunning();
  actOpen_->setEnabled(!running);
  actNew_->setEnabled(!running);
  // A mechanism alone (no circuit) runs as well as a circuit does.
  actRun_->setEnabled(!running && !(project().components.empty() && project().mechanism.empty()));
  actStop_->setEnabled(running);
  actPause_->setEnabled(running);
  actPause_->setText(run_->isPaused() ? tr("&Resume") : tr("&Pause"));
}

void MainWindow::showError(const QString& title, const QString& text) {
  lastError_ = text;
  statusBar()->showMessage(text, 8000);
  QMessageBox::warning(this, title, text);
}

// Non-blocking: the command that warned goes on.
void MainWindow::showWarning(const QString& title, const QString& text) {
  lastWarning_ = text;
  statusBar()->showMessage(text, 8000);
  auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setObjectName("studioWarning");
  box->open();
}

QString MainWindow::statusText() const { return statusLabel_->text(); }

// ---------------------------------------------------------------- files

void MainWindow::closeEvent(QCloseEvent* e) {
  if (!session_->maybeSave()) {
    e->ignore();
    return;
  }
  runner()->stop();
  if (remember_) {
    memory_->saveWindow();
    memory_->savePlots(doc_->file());
  }
  e->accept();
}

bool MainWindow::rememberSessions() {
  remember_ = true;
  restoredLayout_ = memory_->restoreWindow();
  sync3d();  // the 3D dock as the project needs it, whatever the last one had
  if (!doc_->file().isEmpty()) memory_->restorePlots(doc_->file());
  return restoredLayout_;
}

bool MainWindow::openProject(const QString& path) { return session_->open(path); }

PreferencesDialog* MainWindow::openPreferences() {
  auto* d = new PreferencesDialog(this);
  d->setAttribute(Qt::WA_DeleteOnClose);
  connect(d, &PreferencesDialog::libraryChanged, this, [this](const QString& folder, const QString& problem) {
    library_->rebuild();  // its types beside the built-in ones, at once
    statusBar()->showMessage(tr("User component library: %1").arg(folder), 8000);
    if (!problem.isEmpty()) showWarning(tr("User component library"), problem);
  });
  d->open();
  return d;
}

void MainWindow::offerRecovery() {
  if (run_->isRunning()) return;  // at start only; never under a run
  run_->clearResults();
  if (recovery_->offerRestore() > 0) {
    onProjectReplaced(doc_->file());
    statusBar()->showMessage(tr("Restored unsaved changes: Undo shows the file as saved"), 8000);
  }
}

void MainWindow::newProject() { session_->newProject(); }
bool MainWindow::saveProject() { return session_->save(); }
bool MainWindow::saveProjectAs(const QString& path) { return session_->saveAs(path); }

// New or Open put another project in the document: no view keeps anything
// of the old one.
void MainWindow::onProjectReplaced(const QString& path) {
  library_->rebuild();  // the project may carry user components
  resetViews();
  if (remember_) memory_->restorePlots(path);  // as this project's plots were left
  stack_->setCurrentIndex(1);
  if (path.isEmpty()) {
    // Room for a first circuit; again once the view has its final size,
    // unless the zoom was set in between.
    view_->zoomToFit();
    QTimer::singleShot(0, view_, [v = view_, fitted = view_->transform()] {
      if (v->transform() == fitted) v->zoomToFit();
    });
    statusLabel_->setText(tr("New circuit: drag components from the library onto the sheet"));
  } else {
    // Fit once the view has its final size.
    view_->zoomToFit();
    QTimer::singleShot(0, view_, &SchematicView::zoomToFit);
    statusLabel_->setText(tr("Opened %1: %2 components, %3 connections")
                              .arg(QFileInfo(path).fileName())
                              .arg(project().components.size())
                              .arg(project().connections.size()));
  }
  updateTitle();
  updateActions();
}

void MainWindow::resetViews() {
  subEditor_->backTo(0);
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

void MainWindow::updateRecentMenu() {
  const QStringList files = session_->recentFiles();
  recentMenu_->clear();
  for (const QString& f : files)
    recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { session_->openCommand(f); })->setToolTip(f);
  recentMenu_->setEnabled(!files.isEmpty());
  start_->setRecentFiles(files);
}

// ---------------------------------------------------------------- model and selection

void MainWindow::sync3d() {
  if (!view3d_) return;
  const bool has = !project().mechanism.empty();
  const bool appears = has && dock3d_->isHidden();
  dock3d_->setVisible(has);
  if (appears && memory_ && !memory_->dockSized()) {
    // Building in 3D needs room (issue #28): the right column, which runs
    // the window's full height, takes half its width, and the view most of
    // that column; the model tree and the properties keep enough to read.
    // Once: after that (or in a remembered arrangement) the dock comes
    // back at the size the user left it.
    memory_->setDockSized(true);
    auto* model = findChild<QDockWidget*>("modelDock");
    auto* props = findChild<QDockWidget*>("propertiesDock");
    resizeDocks({dock3d_}, {width() / 2}, Qt::Horizontal);
    if (model && props)
      resizeDocks({model, props, dock3d_}, {height() * 2 / 10, height() * 2 / 10, height() * 6 / 10}, Qt::Vertical);
  }
  if (has) view3d_->setProject(project(), QFileInfo(doc_->file()).absolutePath());
}

std::shared_ptr<const ResultStore> MainWindow::keyResultRows() const {
  return buffer_->fullRows(engine::keyResultChannels(project()));
}

void MainWindow::exportReportDialog() {
  auto store = buffer_->store();  // the run shown (none after New or Open)
  if (run_->isRunning() || !store || store->rows() == 0) {
    showError(tr("Export report"), tr("Run the simulation to the end first: the report shows its results."));
    return;
  }
  const QString base = doc_->file().isEmpty() ? QString("report") : QFileInfo(doc_->file()).completeBaseName();
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Report"), base.section('.', 0, 0) + ".pdf",
                                                    tr("PDF (*.pdf)"));
  if (path.isEmpty()) return;
  QString err;
  // The study shown in its dialog (the row chosen there), else the last one closed.
  std::shared_ptr<StudySummary> study = lastStudy_;
  if (studyDialog_ && studyDialog_->isFinished()) study = std::make_shared<StudySummary>(studyDialog_->summary());
  // Read back from the run's results file, which can fail (or run out of
  // memory on a long run): said here, not thrown out of the slot.
  std::shared_ptr<const ResultStore> keyRows;
  try {
    keyRows = keyResultRows();
  } catch (const std::exception& e) {
    showError(tr("Export report"), QString::fromStdString(e.what()));
    return;
  }
  if (!exportReport(project(), *store, path, &err, doc_->file(), nullptr, study.get(), keyRows.get()))
    showError(tr("Export report"), err);
  else statusLabel_->setText(tr("Report written to %1").arg(path));
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (shownOnce_) return;
  shownOnce_ = true;
  if (restoredLayout_) {  // the docks as the last session left them
    QTimer::singleShot(0, memory_, &SessionMemory::restoreLaidOut);
    return;
  }
  // Plots a user can read (issue #25): the results take half the window's
  // height (two plots of the default layout in full), the schematic the rest.
  resizeDocks({plotDock_}, {height() / 2}, Qt::Vertical);
}

void MainWindow::onDocumentChanged() {
  // Gauge pressures are relative to this project's ambient pressure.
  units::UnitSettings::instance().setAmbient(project().simulation.ambient_pressure);
  scene_->sync();
  sync3d();
  library_->refresh();  // a sub-circuit type made, undone or edited
  results_->setProject(project());
  // Results of an earlier state no longer match the drawing.
  if (scene_->frame().active) {
    scene_->setFrame({});
    view_->setLegendVisible(false);
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

void MainWindow::runSimulation() { run_->run(); }
void MainWindow::pauseSimulation() { run_->pause(); }
void MainWindow::resumeSimulation() { run_->resume(); }
void MainWindow::stopSimulation() { run_->stop(); }

// Every view at the cursor's time t (a result row's time, or 0 without
// results): the schematic's colours and valves, the plots, the results tree
// and the step diagram, the status bar. The 3D view and the time bars listen
// to the cursor themselves.
void MainWindow::showTime(double t) {
  run_->showFrame(t);
  results_->setTimeCursor(t);
  cursorStatus_->setText(buffer_->rows() > 0 ? tr("Cursor: t = %1 s").arg(QString::number(t, 'f', 3)) : QString());
}

// The run ended (RunController has shown the end): a run no machine could
// make (a cylinder over a dead point) and a failure are reported.
void MainWindow::onRunFinished(bool ok) {
  const RunResult& r = runner()->lastResult();
  const RunStats& s = r.stats;
  if (r.status == RunStatus::Completed && runner()->checkedRows()) {
    const auto crossings = engine::deadPointWarnings(project(), *runner()->checkedRows());
    for (const GeometryFinding& f : crossings) {
      auto* item = new QListWidgetItem(tr("Warning: ") + QString::fromStdString(f.message), messages_);
      item->setForeground(QColor(150, 100, 0));
      item->setData(Qt::UserRole, QString::fromStdString(f.object));
      item->setToolTip(QString::fromStdString(f.message));
    }
    if (!crossings.empty()) {
      statusLabel_->setText(statusLabel_->text() + tr(" - warning: over a dead point (see Messages)"));
      messagesDock_->setWindowTitle(tr("Messages (%1)").arg(messages_->count()));
      messagesDock_->raise();
    }
  }
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
