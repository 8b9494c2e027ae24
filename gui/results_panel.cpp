#include "results_panel.h"

#include "csv_export_dialog.h"
#include "displacement_step_view.h"
#include "key_results_view.h"
#include "plot_pane.h"
#include "result_buffer.h"
#include "results_tree.h"
#include "units.h"

#include <QDataStream>
#include <QDateTime>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace pm::gui {

ResultsPanel::ResultsPanel(ResultBuffer* data, QWidget* parent) : QWidget(parent), data_(data) {
  setObjectName("resultsPanel");
  tree_ = new ResultsTree(data_);
  filter_ = new QLineEdit;
  filter_->setObjectName("channelFilter");
  filter_->setPlaceholderText(tr("Filter channels"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, tree_, &ResultsTree::setFilter);
  connect(tree_, &ResultsTree::channelActivated, this, [this](const QString& n) {
    if (current_) current_->addChannel(n.toStdString());
  });
  connect(tree_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    std::unique_ptr<QMenu> menu(treeMenu(tree_->itemAt(at)));
    if (menu) menu->exec(tree_->viewport()->mapToGlobal(at));
  });
  auto* left = new QWidget;
  auto* ll = new QVBoxLayout(left);
  ll->setContentsMargins(0, 0, 0, 0);
  ll->setSpacing(2);
  ll->addWidget(filter_);
  ll->addWidget(tree_, 1);

  auto* bar = new QToolBar;
  bar->setObjectName("plotToolBar");
  bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  bar->addAction(tr("Add Plot"), this, [this] { setCurrentPane(addPane()); })->setObjectName("actionAddPlot");
  bar->addAction(tr("Remove Plot"), this, [this] {
    if (panes_.size() > 1) removePane(current_);
  });
  bar->addAction(tr("Auto Range"), this, [this] {
    for (PlotPane* p : panes_) p->setAutoRange(true);
  });
  bar->addSeparator();
  bar->addAction(tr("Export PNG..."), this, [this] { exportPaneDialog(false); })->setObjectName("actionExportPng");
  bar->addAction(tr("Export SVG..."), this, [this] { exportPaneDialog(true); })->setObjectName("actionExportSvg");
  bar->addAction(tr("Export CSV..."), this, [this] { exportCsvDialog(); })->setObjectName("actionExportCsv");
  bar->addSeparator();
  // The plots alone, as large as the screen allows; again: back in the dock.
  maximise_ = bar->addAction(tr("Maximise"));
  maximise_->setObjectName("actionMaximisePlots");
  maximise_->setCheckable(true);
  maximise_->setToolTip(tr("Show the plots alone on the whole screen (again: back in the window)"));
  connect(maximise_, &QAction::toggled, this, &ResultsPanel::maximiseToggled);

  paneSplitter_ = new QSplitter(Qt::Vertical);
  paneSplitter_->setChildrenCollapsible(false);
  // Panes keep a readable height; more of them than fit scroll.
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(paneSplitter_);
  auto* plots = new QWidget;
  auto* pl = new QVBoxLayout(plots);
  pl->setContentsMargins(0, 0, 0, 0);
  pl->setSpacing(0);
  pl->addWidget(bar);
  pl->addWidget(scroll, 1);

  stepView_ = new DisplacementStepView(data_);
  tabs_ = new QTabWidget;
  tabs_->setObjectName("resultsTabs");
  tabs_->addTab(plots, tr("Plots"));
  tabs_->addTab(stepView_, tr("Displacement-Step Diagram"));
  keyView_ = new KeyResultsView(data_);
  keyView_->setObjectName("keyResultsView");
  tabs_->addTab(keyView_, tr("Key Results"));

  split_ = new QSplitter(Qt::Horizontal);
  split_->setObjectName("resultsSplitter");
  split_->addWidget(left);
  split_->addWidget(tabs_);
  split_->setStretchFactor(0, 1);
  split_->setStretchFactor(1, 4);
  split_->setSizes({260, 940});
  auto* lay = new QVBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->addWidget(split_);

  setCurrentPane(addPane());
  connect(data_, &ResultBuffer::reset, this, &ResultsPanel::onReset);
  plotTimer_ = new QTimer(this);
  plotTimer_->setSingleShot(true);
  connect(plotTimer_, &QTimer::timeout, this, &ResultsPanel::refreshPlots);
}

PlotPane* ResultsPanel::addPane() {
  auto* pane = new PlotPane(data_);
  pane->setObjectName(QString("plotPane%1").arg(panes_.size() + 1));
  pane->setTimeEnd(tEnd_);
  pane->setCursorTime(cursor_);
  connect(pane, &PlotPane::timeClicked, this, &ResultsPanel::timeRequested);
  connect(pane, &PlotPane::activated, this, [this, pane] { setCurrentPane(pane); });
  connect(pane, &PlotPane::message, this, &ResultsPanel::message);
  connect(pane, &PlotPane::plotAreaMoved, this, &ResultsPanel::scheduleAlign);
  paneSplitter_->addWidget(pane);
  panes_.push_back(pane);
  if (data_->rows() > 0) pane->rebuild();
  return pane;
}

void ResultsPanel::removePane(PlotPane* pane) {
  const auto it = std::find(panes_.begin(), panes_.end(), pane);
  if (it == panes_.end() || panes_.size() <= 1) return;
  panes_.erase(it);
  pane->hide();
  pane->setParent(nullptr);  // out of the splitter now: its sizes are the panes left
  pane->deleteLater();
  setCurrentPane(panes_.front());
  scheduleAlign();
}

void ResultsPanel::setCurrentPane(PlotPane* pane) {
  current_ = pane;
  // The current pane (target of a double click in the tree) is framed.
  for (PlotPane* p : panes_) p->setFrameStyle(p == pane ? QFrame::Box | QFrame::Plain : QFrame::NoFrame);
  scheduleAlign();  // the frame moves the plot by its width
}

// Once per burst of layout changes (each pane's new layout reports itself).
void ResultsPanel::scheduleAlign() {
  if (alignPending_) return;
  alignPending_ = true;
  QTimer::singleShot(0, this, [this] {
    alignPending_ = false;
    alignTimeAxes();
  });
}

// Each pane's plot area without its inset is where its own labels put it;
// the insets move every one to the rightmost left edge and the leftmost
// right edge. A pane's natural edges do not depend on its insets, so one
// pass settles it.
void ResultsPanel::alignTimeAxes() {
  if (panes_.size() < 2) {
    for (PlotPane* p : panes_) p->setTimeAxisInsets(0, 0);
    return;
  }
  double left = -1e9, right = 1e9;
  std::vector<std::pair<double, double>> natural;
  for (PlotPane* p : panes_) {
    const QRectF r = p->plotAreaIn(this);
    if (r.width() <= 0) return;  // not laid out yet: its layout will call again
    natural.emplace_back(r.left() - p->leftInset(), r.right() + p->rightInset());
    left = std::max(left, natural.back().first);
    right = std::min(right, natural.back().second);
  }
  for (size_t i = 0; i < panes_.size(); ++i)
    panes_[i]->setTimeAxisInsets(left - natural[i].first, natural[i].second - right);
}

void ResultsPanel::setProject(const Project& project) {
  plotModel_ = defaultPlotModel(project);
  stepView_->setProject(project);
}

void ResultsPanel::resetForProject(const Project& project) {
  while (panes_.size() > 1) removePane(panes_.back());
  tEnd_ = project.simulation.t_end > 0 ? project.simulation.t_end : 1.0;
  for (PlotPane* p : panes_) {
    p->clearChannels();
    p->setTimeEnd(tEnd_);
    p->setAutoRange(true);
  }
  filter_->clear();
  setTimeCursor(0.0);
  defaults_.clear();
  plotModel_ = defaultPlotModel(project);
  stepView_->setProject(project);
  keyView_->clear();
}

ResultsPanel::PlotSelection ResultsPanel::plotSelection() const {
  PlotSelection s;
  for (const PlotPane* p : panes_) s.channels.push_back(p->channelNames());
  s.heights = paneSplitter_->sizes();
  return s;
}

void ResultsPanel::setPlotSelection(const PlotSelection& s) {
  if (s.channels.empty()) return;
  while (panes_.size() > s.channels.size()) removePane(panes_.back());
  while (panes_.size() < s.channels.size()) addPane();
  for (size_t i = 0; i < panes_.size(); ++i) panes_[i]->setChannelNames(s.channels[i]);
  const bool laidOut = std::any_of(s.heights.begin(), s.heights.end(), [](int h) { return h > 0; });
  if (laidOut && s.heights.size() == static_cast<qsizetype>(panes_.size())) paneSplitter_->setSizes(s.heights);
  setCurrentPane(panes_.front());
}

QByteArray ResultsPanel::saveLayout() const {
  QByteArray out;
  QDataStream d(&out, QIODevice::WriteOnly);
  d << split_->saveState() << qint32(tabs_->currentIndex());
  return out;
}

bool ResultsPanel::restoreLayout(const QByteArray& state) {
  QDataStream d(state);
  QByteArray split;
  qint32 tab = 0;
  d >> split >> tab;
  if (d.status() != QDataStream::Ok || !split_->restoreState(split)) return false;
  if (tab >= 0 && tab < tabs_->count()) tabs_->setCurrentIndex(tab);
  return true;
}

void ResultsPanel::startRun(const Project& project) {
  tEnd_ = project.simulation.t_end > 0 ? project.simulation.t_end : 1.0;
  for (PlotPane* p : panes_) {
    p->setTimeEnd(tEnd_);
    p->setAutoRange(true);
  }
  plotModel_ = defaultPlotModel(project);
  stepView_->setProject(project);
  keyView_->startRun(project);
}

void ResultsPanel::onReset() {
  for (PlotPane* p : panes_) p->rebuild();
  if (data_->channels().empty()) return;
  chooseDefaultChannels();
}

// The first run's panes show what moves (default_plots.h); every pane shown
// gets channels. While the panes hold that choice untouched, it follows the
// rows: an axis that turns out not to move leaves, one that starts moving
// comes. Once the user changed them, later runs keep the user's choice.
void ResultsPanel::chooseDefaultChannels() {
  const std::vector<std::vector<std::string>> now = plotSelection().channels;
  bool shown = false;
  for (const auto& pane : now)
    for (const std::string& n : pane) shown = shown || data_->find(n) >= 0;
  if (shown && now != defaults_) return;
  const auto groups = defaultPlotGroups(*data_, plotModel_);
  if (groups.empty() || groups == now) return;
  while (panes_.size() < groups.size()) addPane();
  if (shown) {  // the panes are the last choice's: made to match the new one
    while (panes_.size() > groups.size()) removePane(panes_.back());
    for (size_t i = 0; i < groups.size(); ++i) panes_[i]->setChannelNames(groups[i]);
  } else {
    for (size_t i = 0; i < groups.size(); ++i)
      for (const auto& n : groups[i]) panes_[i]->addChannel(n);
  }
  defaults_ = plotSelection().channels;
}

void ResultsPanel::refresh() {
  // Each pane's refresh decimates its channels again and Qt Charts lays
  // out and strokes every series anew: during a run that is done at most
  // every kLivePlotMs (the rows in between wait for the next one; the cursor
  // line and the other views keep their own pace). Redrawn by the first
  // call once that is over, so with the caller's frame (one repaint of the
  // window); the timer takes the last rows when no further call comes.
  const qint64 since = QDateTime::currentMSecsSinceEpoch() - lastPlotMs_;
  if (since >= kLivePlotMs) refreshPlots();
  else if (!plotTimer_->isActive()) plotTimer_->start(static_cast<int>(kLivePlotMs - since + kLivePlotGraceMs));
  // The step diagram during a run: twice a second is plenty.
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  if (stepView_->hasSequence() && stepView_->isVisible() && now - lastStepUpdateMs_ > 500) {
    lastStepUpdateMs_ = now;
    stepView_->recompute();
  }
}

void ResultsPanel::refreshPlots() {
  plotTimer_->stop();
  lastPlotMs_ = QDateTime::currentMSecsSinceEpoch();
  if (data_->rows() > 0) chooseDefaultChannels();
  for (PlotPane* p : panes_) p->refresh();
}

void ResultsPanel::finishRun() {
  refreshPlots();
  stepView_->recompute();
  keyView_->finishRun();
}

void ResultsPanel::setTimeCursor(double t) {
  cursor_ = t;
  for (PlotPane* p : panes_) p->setCursorTime(t);
  tree_->setTime(t);
  stepView_->setCursorTime(t);
}

QMenu* ResultsPanel::treeMenu(QTreeWidgetItem* item) {
  // The channels selected, or the one right-clicked when it is not among them.
  std::vector<std::string> names = tree_->selectedChannels();
  const std::string under = ResultsTree::channelOf(item);
  if (!under.empty() && std::find(names.begin(), names.end(), under) == names.end()) names = {under};
  if (names.empty()) return nullptr;
  auto* menu = new QMenu(this);
  menu->setObjectName("resultsTreeMenu");
  QMenu* in = menu->addMenu(names.size() == 1 ? tr("Plot in") : tr("Plot %1 Channels in").arg(names.size()));
  in->setObjectName("plotInMenu");
  auto plot = [this, names](PlotPane* pane) {
    for (const std::string& n : names) pane->addChannel(n);
    setCurrentPane(pane);
  };
  for (size_t i = 0; i < panes_.size(); ++i) {
    PlotPane* pane = panes_[i];
    in->addAction(tr("Plot %1").arg(i + 1), this, [plot, pane] { plot(pane); });
  }
  in->addAction(tr("New Plot"), this, [this, plot] { plot(addPane()); });
  return menu;
}

std::vector<std::string> ResultsPanel::channelsFor(CsvExportDialog::Channels which) const {
  std::vector<std::string> names;
  auto add = [&](const std::string& n) {
    if (data_->find(n) >= 0 && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  switch (which) {
    case CsvExportDialog::Channels::Plotted:
      for (PlotPane* p : panes_)
        for (const std::string& n : p->channelNames()) add(n);
      break;
    case CsvExportDialog::Channels::Selected:
      for (const std::string& n : tree_->selectedChannels()) add(n);
      break;
    case CsvExportDialog::Channels::All:
      for (const auto& c : data_->channels()) add(c.name);
      break;
  }
  return names;
}

QString ResultsPanel::displayUnitsText() {
  return QString("%1, %2, %3")
      .arg(units::pressureUnit().unit, units::forUnit("m").unit, units::forUnit("K").unit);
}

bool ResultsPanel::exportCsv(const QString& path, const std::vector<std::string>& channels, bool displayUnits,
                             QString* error) const {
  auto store = data_->store();
  if (!store || store->rows() == 0 || data_->rows() == 0) {
    if (error) *error = tr("There are no results to export: run the simulation first.");
    return false;
  }
  if (channels.empty()) {
    if (error) *error = tr("Select channels in the results tree (or plot some) to export.");
    return false;
  }
  if (!displayUnits) {
    // SI: every row, copied from the run's results file (the bytes of
    // `pneumech simulate -o`).
    try {
      data_->writeCsv(path.toStdString(), channels);
    } catch (const std::exception& e) {
      if (error) *error = QString::fromStdString(e.what());
      return false;
    }
    return true;
  }
  std::vector<int> cols;
  std::vector<units::DisplayUnit> du;
  QStringList header{QStringLiteral("time [s]")};
  for (const std::string& n : channels) {
    const int k = data_->find(n);
    if (k < 0) {
      if (error) *error = tr("unknown channel '%1'").arg(QString::fromStdString(n));
      return false;
    }
    const ResultBuffer::Channel& c = data_->channels()[size_t(k)];
    cols.push_back(k);
    du.push_back(units::forChannel(c.name, c.unit));
    header << (c.unit.empty() || c.unit == "1" ? QString::fromStdString(c.name)
                                                : QString("%1 [%2]").arg(QString::fromStdString(c.name), du.back().unit));
  }
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  // Display units: every row of the finished run (from its results file),
  // written in pieces so that a long run's text is never held whole.
  QByteArray out = header.join(',').toUtf8() + '\n';
  bool ok = true;
  try {
    data_->forEachRow(cols, [&](double t, const double* v) {
    out += QByteArray::number(t, 'g', 10);
    for (size_t i = 0; i < cols.size(); ++i) {
      out += ',';
      out += QByteArray::number(du[i].toDisplay(v[i]), 'g', 10);
    }
    out += '\n';
    if (out.size() > (1 << 20)) {
      ok = ok && f.write(out) == out.size();
      out.clear();
    }
    });
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  if (!ok || f.write(out) != out.size() || !f.commit()) {
    if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

void ResultsPanel::exportPaneDialog(bool svg) {
  if (current_) current_->exportDialog(svg);
}

void ResultsPanel::exportCsvDialog() {
  using C = CsvExportDialog::Channels;
  CsvExportDialog d(int(channelsFor(C::Plotted).size()), int(channelsFor(C::Selected).size()),
                    int(channelsFor(C::All).size()), displayUnitsText(), csvPath_, this);
  if (d.exec() != QDialog::Accepted) return;
  csvPath_ = d.path();
  QString err;
  if (!exportCsv(d.path(), channelsFor(d.channels()), d.inDisplayUnits(), &err)) emit message(err);
  else emit message(tr("Wrote %1 to %2").arg(d.summary(), d.path()));
}

}  // namespace pm::gui
