#include "main_window.h"

#include "io/project_file.h"
#include "model/component_type.h"
#include "model/project_error.h"
#include "param_model.h"
#include "simulation_runner.h"
#include "units.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QTreeWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace pm::gui {

namespace {
QString channelLabel(const std::string& name, const std::string& unit) {
  if (unit.empty() || unit == "1") return QString::fromStdString(name);  // dimensionless
  return QString("%1 [%2]").arg(QString::fromStdString(name), units::forChannel(unit).unit);
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  runner_ = new SimulationRunner(this);
  connect(runner_, &SimulationRunner::finished, this, &MainWindow::onRunFinished);
  poll_ = new QTimer(this);
  poll_->setInterval(33);  // ~30 Hz
  connect(poll_, &QTimer::timeout, this, &MainWindow::onPoll);
  buildUi();
  buildMenus();
  updateTitle();
  updateActions();
  resize(1400, 900);
}

MainWindow::~MainWindow() {
  poll_->stop();
  runner_->stop();
}

// ---------------------------------------------------------------- UI setup

void MainWindow::buildUi() {
  tree_ = new QTreeWidget;
  tree_->setObjectName("componentTree");
  tree_->setColumnCount(3);
  tree_->setHeaderLabels({tr("Id"), tr("Type"), tr("Label")});
  tree_->setRootIsDecorated(false);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  tree_->setAlternatingRowColors(true);
  connect(tree_, &QTreeWidget::itemSelectionChanged, this, &MainWindow::onComponentSelected);

  paramModel_ = new ParamModel(this);
  paramView_ = new QTableView;
  paramView_->setObjectName("paramView");
  paramView_->setModel(paramModel_);
  paramView_->setSelectionBehavior(QAbstractItemView::SelectItems);
  paramView_->setSelectionMode(QAbstractItemView::SingleSelection);
  paramView_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                              QAbstractItemView::AnyKeyPressed);
  paramView_->setAlternatingRowColors(true);
  paramView_->verticalHeader()->hide();
  paramView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  paramView_->horizontalHeader()->setStretchLastSection(true);
  paramView_->setWordWrap(false);
  paramView_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  paramView_->verticalHeader()->setDefaultSectionSize(paramView_->fontMetrics().height() + 8);
  connect(paramModel_, &ParamModel::editRejected, this,
          [this](const QString& msg) { showError(tr("Value not accepted"), msg); });
  connect(paramModel_, &ParamModel::parameterChanged, this, [this](const QString& c, const QString& p, double si) {
    modified_ = true;
    updateTitle();
    statusBar()->showMessage(tr("%1.%2 = %3 (SI)").arg(c, p, units::formatNumber(si)), 4000);
  });

  auto* top = new QSplitter(Qt::Horizontal);
  top->addWidget(tree_);
  top->addWidget(paramView_);
  top->setStretchFactor(0, 1);
  top->setStretchFactor(1, 3);
  top->setSizes({420, 980});

  channelList_ = new QListWidget;
  channelList_->setObjectName("channelList");
  channelList_->setToolTip(tr("Result channels: check to plot"));
  connect(channelList_, &QListWidget::itemChanged, this, &MainWindow::onChannelItemChanged);

  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("time [s]"));
  axisX_->setLabelFormat("%g");
  axisX_->setRange(0, 1);
  axisY_ = new QValueAxis;
  axisY_->setLabelFormat("%g");
  axisY_->setRange(0, 1);
  chart_->addAxis(axisX_, Qt::AlignBottom);
  chart_->addAxis(axisY_, Qt::AlignLeft);
  chartView_ = new QChartView(chart_);
  chartView_->setObjectName("chartView");
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumHeight(260);

  auto* bottom = new QSplitter(Qt::Horizontal);
  bottom->addWidget(channelList_);
  bottom->addWidget(chartView_);
  bottom->setStretchFactor(0, 1);
  bottom->setStretchFactor(1, 4);
  bottom->setSizes({280, 1120});

  auto* main = new QSplitter(Qt::Vertical);
  main->addWidget(top);
  main->addWidget(bottom);
  main->setSizes({380, 480});
  setCentralWidget(main);

  statusLabel_ = new QLabel(tr("No simulation run yet"));
  statusLabel_->setObjectName("statusLabel");
  statusBar()->addPermanentWidget(statusLabel_, 1);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  actOpen_ = file->addAction(tr("&Open..."), this, &MainWindow::onOpen);
  actOpen_->setShortcut(QKeySequence::Open);
  actSave_ = file->addAction(tr("&Save"), this, [this] { saveProject(); });
  actSave_->setShortcut(QKeySequence::Save);
  actSaveAs_ = file->addAction(tr("Save &As..."), this, &MainWindow::onSaveAs);
  actSaveAs_->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  actRun_ = sim->addAction(tr("&Run"), this, &MainWindow::runSimulation);
  actRun_->setShortcut(QKeySequence(Qt::Key_F5));
  actStop_ = sim->addAction(tr("S&top"), this, &MainWindow::stopSimulation);
  actStop_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));

  QToolBar* tb = addToolBar(tr("Main"));
  tb->setObjectName("mainToolBar");
  tb->setMovable(false);
  tb->addAction(actOpen_);
  tb->addAction(actSave_);
  tb->addSeparator();
  tb->addAction(actRun_);
  tb->addAction(actStop_);
}

void MainWindow::updateTitle() {
  QString name = file_.isEmpty() ? tr("untitled") : QFileInfo(file_).fileName();
  QString title = QString::fromStdString(project_.meta.title);
  setWindowTitle(QString("%1%2[*] - PneuMech Studio").arg(title.isEmpty() ? QString() : title + " - ", name));
  setWindowModified(modified_);
}

void MainWindow::updateActions() {
  const bool running = runner_->isRunning();
  actOpen_->setEnabled(!running);
  actRun_->setEnabled(!running && !project_.components.empty());
  actStop_->setEnabled(running);
}

void MainWindow::showError(const QString& title, const QString& text) {
  lastError_ = text;
  statusBar()->showMessage(text, 8000);
  QMessageBox::warning(this, title, text);
}

QString MainWindow::statusText() const { return statusLabel_->text(); }

// ---------------------------------------------------------------- files

void MainWindow::closeEvent(QCloseEvent* e) {
  if (modified_) {
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("The project has unsaved changes. Save them before closing?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !saveProject())) {
      e->ignore();
      return;
    }
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
    p = loadProject(path.toStdString());
  } catch (const std::exception& e) {
    showError(tr("Cannot open project"), QString::fromStdString(e.what()));
    return false;
  }
  project_ = std::move(p);
  file_ = path;
  modified_ = false;
  paramModel_->setComponent(nullptr, {});
  populateTree();
  // Results of another project no longer apply.
  for (auto& s : shown_) chart_->removeSeries(s.series), delete s.series;
  shown_.clear();
  channels_.clear();
  t_.clear();
  cols_.clear();
  channelList_->clear();
  statusLabel_->setText(tr("Opened %1: %2 components, %3 connections")
                            .arg(QFileInfo(path).fileName())
                            .arg(project_.components.size())
                            .arg(project_.connections.size()));
  updateTitle();
  updateActions();
  return true;
}

bool MainWindow::saveProject() {
  if (file_.isEmpty()) {
    onSaveAs();
    return !file_.isEmpty() && !modified_;
  }
  return saveProjectAs(file_);
}

bool MainWindow::saveProjectAs(const QString& path) {
  try {
    pm::saveProject(project_, path.toStdString());  // atomic (write + rename)
  } catch (const std::exception& e) {
    showError(tr("Cannot save project"), QString::fromStdString(e.what()));
    return false;
  }
  file_ = path;
  modified_ = false;
  updateTitle();
  statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
  return true;
}

void MainWindow::onOpen() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), QFileInfo(file_).absolutePath(),
                                                    tr("PneuMech projects (*.pneumech.json *.json);;All files (*)"));
  if (!path.isEmpty()) openProject(path);
}

void MainWindow::onSaveAs() {
  QString path = QFileDialog::getSaveFileName(this, tr("Save project as"),
                                              file_.isEmpty() ? QString("untitled.pneumech.json") : file_,
                                              tr("PneuMech projects (*.pneumech.json);;All files (*)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".json")) path += ".pneumech.json";
  saveProjectAs(path);
}

// ---------------------------------------------------------------- components

void MainWindow::populateTree() {
  tree_->clear();
  for (const Component& c : project_.components) {
    auto* item = new QTreeWidgetItem(tree_, {QString::fromStdString(c.id), QString::fromStdString(c.type),
                                             QString::fromStdString(c.label)});
    item->setData(0, Qt::UserRole, QString::fromStdString(c.id));
    if (const ComponentType* t = Registry::instance().find(c.type))
      for (int col = 0; col < 3; ++col) item->setToolTip(col, QString::fromStdString(t->description));
  }
  for (int col = 0; col < 3; ++col) tree_->resizeColumnToContents(col);
  if (tree_->topLevelItemCount() > 0) tree_->setCurrentItem(tree_->topLevelItem(0));
}

bool MainWindow::selectComponent(const QString& id) {
  for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = tree_->topLevelItem(i);
    if (item->data(0, Qt::UserRole).toString() == id) {
      tree_->setCurrentItem(item);
      return true;
    }
  }
  return false;
}

void MainWindow::onComponentSelected() {
  const auto items = tree_->selectedItems();
  if (items.isEmpty()) {
    paramModel_->setComponent(nullptr, {});
    return;
  }
  paramModel_->setComponent(&project_, items.front()->data(0, Qt::UserRole).toString().toStdString());
}

// ---------------------------------------------------------------- simulation

void MainWindow::runSimulation() {
  if (runner_->isRunning() || project_.components.empty()) return;
  // Keep the user's choice of channels for the next run.
  wantedChannels_.clear();
  for (const auto& s : shown_) wantedChannels_.push_back(channels_[s.channel].name);
  for (auto& s : shown_) chart_->removeSeries(s.series), delete s.series;
  shown_.clear();
  channels_.clear();
  t_.clear();
  cols_.clear();
  channelList_->clear();
  tEnd_ = project_.simulation.t_end;
  axisX_->setRange(0, tEnd_ > 0 ? tEnd_ : 1);

  runner_->start(project_, file_.toStdString());
  statusLabel_->setText(tr("Running..."));
  poll_->start();
  updateActions();
}

void MainWindow::stopSimulation() {
  if (!runner_->isRunning()) return;
  runner_->stop();
  statusLabel_->setText(tr("Stopping..."));
}

void MainWindow::onPoll() {
  auto store = runner_->store();
  if (!store) return;
  if (channels_.empty()) {
    const auto ch = store->channels();
    if (ch.empty()) return;  // still compiling
    // Labels in display units; a name given twice by the engine (an element
    // channel and a node channel of the same id) gets " (2)" so both stay
    // distinguishable.
    std::map<std::string, int> seen;
    for (const auto& c : ch) {
      QString label = channelLabel(c.name, c.unit);
      if (const int k = ++seen[c.name]; k > 1)
        label = QString("%1 (%2)%3").arg(QString::fromStdString(c.name)).arg(k).arg(label.mid(int(c.name.size())));
      channels_.push_back({c.name, c.unit, label});
    }
    cols_.assign(channels_.size(), {});
    setupChannels();
  }
  std::vector<double> t;
  std::vector<std::vector<double>> cols;
  const size_t from = t_.size();
  store->copyRows(from, t, cols);
  if (!t.empty() && cols.size() == cols_.size()) {
    t_.insert(t_.end(), t.begin(), t.end());
    for (size_t i = 0; i < cols.size(); ++i) cols_[i].insert(cols_[i].end(), cols[i].begin(), cols[i].end());
    refreshSeries();
    updateAxes();
  }
  if (runner_->isRunning()) {
    const double tNow = t_.empty() ? 0.0 : t_.back();
    const double wall = runner_->wallSecondsSinceStart();
    statusLabel_->setText(tr("Running... t = %1 s of %2 s, real-time factor %3")
                              .arg(units::formatNumber(tNow), units::formatNumber(tEnd_),
                                   QString::number(wall > 0 ? tNow / wall : 0.0, 'g', 3)));
  }
}

void MainWindow::onRunFinished(bool ok) {
  onPoll();  // the last rows
  poll_->stop();
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
  statusLabel_->setText(text);
  updateActions();
  if (r.status == RunStatus::Failed) showError(tr("Simulation failed"), QString::fromStdString(r.message));
  emit simulationFinished(ok);
}

// ---------------------------------------------------------------- plot

void MainWindow::setupChannels() {
  std::vector<std::string> wanted = wantedChannels_;
  if (std::none_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
        return std::any_of(channels_.begin(), channels_.end(), [&](const Channel& c) { return c.name == w; });
      })) {
    // Default: the pressures of the circuit (up to four), components' own
    // channels ("cyl1.pA") before the nets' copies ("cyl1.A.p", "n:v1.2.p").
    wanted.clear();
    auto ownChannel = [](const std::string& n) { return n.rfind("n:", 0) != 0 && std::count(n.begin(), n.end(), '.') == 1; };
    for (int pass = 0; pass < 2; ++pass)
      for (const Channel& c : channels_)
        if (c.unit == "Pa" && (pass == 1 || ownChannel(c.name)) && wanted.size() < 4 &&
            std::find(wanted.begin(), wanted.end(), c.name) == wanted.end())
          wanted.push_back(c.name);
  }
  QSignalBlocker block(channelList_);
  channelList_->clear();
  for (size_t i = 0; i < channels_.size(); ++i) {
    auto* item = new QListWidgetItem(channels_[i].label, channelList_);
    item->setToolTip(QString("%1 (SI unit %2)").arg(QString::fromStdString(channels_[i].name),
                                                    QString::fromStdString(channels_[i].unit)));
    item->setData(Qt::UserRole, static_cast<int>(i));
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    // only the first channel of a duplicated name is checked by name
    const bool first = std::none_of(channels_.begin(), channels_.begin() + static_cast<long>(i),
                                    [&](const Channel& c) { return c.name == channels_[i].name; });
    const bool on = first && std::find(wanted.begin(), wanted.end(), channels_[i].name) != wanted.end();
    item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
  }
  rebuildSeries();
}

bool MainWindow::setChannelChecked(const QString& name, bool on) {
  for (int i = 0; i < channelList_->count(); ++i) {
    QListWidgetItem* item = channelList_->item(i);
    if (QString::fromStdString(channels_[item->data(Qt::UserRole).toInt()].name) == name) {
      item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
      return true;
    }
  }
  return false;
}

void MainWindow::onChannelItemChanged(QListWidgetItem*) { rebuildSeries(); }

void MainWindow::rebuildSeries() {
  for (auto& s : shown_) chart_->removeSeries(s.series), delete s.series;
  shown_.clear();
  for (int i = 0; i < channelList_->count(); ++i) {
    QListWidgetItem* item = channelList_->item(i);
    if (item->checkState() != Qt::Checked) continue;
    const int ch = item->data(Qt::UserRole).toInt();
    auto* series = new QLineSeries;
    series->setName(channels_[ch].label);
    chart_->addSeries(series);
    series->attachAxis(axisX_);
    series->attachAxis(axisY_);
    shown_.push_back({ch, series});
  }
  refreshSeries();
  updateAxes();
}

// Series are rebuilt from the SI columns on every update with replace() (one
// signal, one geometry update; QLineSeries::append re-strokes the whole path
// per point) and decimated to min/max pairs of at most kMaxBuckets buckets, so
// long runs stay responsive.
void MainWindow::refreshSeries() {
  constexpr size_t kMaxBuckets = 2000;
  for (auto& s : shown_) {
    const units::DisplayUnit du = units::forChannel(channels_[s.channel].unit);
    const auto& col = cols_[s.channel];
    const size_t n = std::min(t_.size(), col.size());
    QList<QPointF> pts;
    if (n <= 2 * kMaxBuckets) {
      pts.reserve(static_cast<qsizetype>(n));
      for (size_t r = 0; r < n; ++r) pts.append(QPointF(t_[r], du.toDisplay(col[r])));
    } else {
      const size_t b = (n + kMaxBuckets - 1) / kMaxBuckets;
      pts.reserve(static_cast<qsizetype>(2 * kMaxBuckets + 2));
      for (size_t i0 = 0; i0 < n; i0 += b) {
        const size_t i1 = std::min(n, i0 + b);
        size_t lo = i0, hi = i0;
        for (size_t r = i0; r < i1; ++r) {
          if (col[r] < col[lo]) lo = r;
          if (col[r] > col[hi]) hi = r;
        }
        const size_t a = std::min(lo, hi), c = std::max(lo, hi);
        pts.append(QPointF(t_[a], du.toDisplay(col[a])));
        if (c != a) pts.append(QPointF(t_[c], du.toDisplay(col[c])));
      }
      if (pts.last().x() != t_[n - 1]) pts.append(QPointF(t_[n - 1], du.toDisplay(col[n - 1])));
    }
    s.series->replace(pts);
  }
}

void MainWindow::updateAxes() {
  double lo = INFINITY, hi = -INFINITY;
  QString unit;
  bool sameUnit = true;
  for (const auto& s : shown_) {
    const units::DisplayUnit du = units::forChannel(channels_[s.channel].unit);
    if (unit.isEmpty()) unit = du.unit;
    else if (unit != du.unit) sameUnit = false;
    for (double v : cols_[s.channel]) {
      const double d = du.toDisplay(v);
      if (std::isfinite(d)) lo = std::min(lo, d), hi = std::max(hi, d);
    }
  }
  axisY_->setTitleText(shown_.empty() ? QString() : sameUnit ? QString("[%1]").arg(unit) : tr("value (see legend)"));
  if (!(lo <= hi)) {
    axisY_->setRange(0, 1);
    return;
  }
  double pad = 0.05 * (hi - lo);
  if (pad <= 0) pad = std::max(1e-9, 0.05 * std::abs(hi));
  axisY_->setRange(lo - pad, hi + pad);
  axisY_->applyNiceNumbers();
}

}  // namespace pm::gui
