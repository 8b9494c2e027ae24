#include "study_dialog.h"

#include "document.h"
#include "study_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <limits>
#include <thread>

namespace pm::gui {

namespace {

enum ParamColumn { kPath = 0, kFrom, kTo, kCount };

// Every component parameter as --set names it, "cyl1.bore", in the project's order.
QStringList parameterPaths(const Project& pr) {
  QStringList out;
  for (const Component& c : pr.components)
    if (const ComponentType* t = Registry::instance().find(c.type))
      for (const ParamDecl& d : t->params) out << QString::fromStdString(c.id + "." + d.name);
  return out;
}

QStringList splitList(const QString& s, QChar sep) {
  QStringList out;
  for (const QString& p : s.split(sep, Qt::SkipEmptyParts))
    if (!p.trimmed().isEmpty()) out << p.trimmed();
  return out;
}

}  // namespace

StudyDialog::StudyDialog(const Document* doc, QWidget* parent) : QDialog(parent), doc_(doc) {
  setWindowTitle(tr("Parameter Study"));
  auto* top = new QVBoxLayout(this);

  params_ = new QTableWidget(0, 4, this);
  params_->setObjectName("studyParameters");
  params_->setHorizontalHeaderLabels({tr("Parameter (ID.PARAM, SI)"), tr("From"), tr("To"), tr("Points")});
  params_->horizontalHeader()->setSectionResizeMode(kPath, QHeaderView::Stretch);
  params_->setMinimumHeight(110);
  top->addWidget(params_);
  auto* paramButtons = new QHBoxLayout;
  auto* add = new QPushButton(tr("Add Parameter"), this);
  add->setObjectName("studyAddParameter");
  connect(add, &QPushButton::clicked, this, &StudyDialog::addParameterRow);
  auto* remove = new QPushButton(tr("Remove Parameter"), this);
  connect(remove, &QPushButton::clicked, this, [this] {
    if (params_->rowCount() > 0) params_->removeRow(params_->currentRow() >= 0 ? params_->currentRow() : params_->rowCount() - 1);
  });
  paramButtons->addWidget(add);
  paramButtons->addWidget(remove);
  paramButtons->addStretch();
  top->addLayout(paramButtons);

  auto* form = new QFormLayout;
  results_ = new QLineEdit("cycle_time, air_per_cycle", this);
  results_->setObjectName("studyResults");
  results_->setToolTip(tr("Key results, comma-separated: cycle_time, air_per_cycle, CYL.extend_time, max(CHANNEL), ..."));
  form->addRow(tr("Results:"), results_);
  constraints_ = new QLineEdit(this);
  constraints_->setObjectName("studyConstraints");
  constraints_->setPlaceholderText(tr("e.g. cyl1.extend_time <= 0.8; cyl1.impact_energy <= 0.4"));
  form->addRow(tr("Constraints:"), constraints_);
  jobs_ = new QSpinBox(this);
  jobs_->setObjectName("studyJobs");
  jobs_->setRange(1, 256);
  jobs_->setValue(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  form->addRow(tr("Threads:"), jobs_);
  auto* samplingRow = new QHBoxLayout;
  sampling_ = new QComboBox(this);
  sampling_->setObjectName("studySampling");
  sampling_->addItem(tr("Grid (every combination of the points)"), "grid");
  sampling_->addItem(tr("Latin hypercube"), "latin_hypercube");
  sampling_->addItem(tr("Random"), "random");
  sampling_->addItem(tr("Sobol sequence"), "sobol");
  sampling_->setToolTip(tr("Sampled studies take each parameter's From-To range; Points is not used"));
  samples_ = new QSpinBox(this);
  samples_->setObjectName("studySamples");
  samples_->setRange(1, 100000);
  samples_->setValue(20);
  samples_->setPrefix(tr("samples: "));
  seed_ = new QSpinBox(this);
  seed_->setObjectName("studySeed");
  seed_->setRange(0, 1000000000);
  seed_->setValue(1);
  seed_->setPrefix(tr("seed: "));
  seed_->setToolTip(tr("The same seed gives the same sample on every machine"));
  samplingRow->addWidget(sampling_, 1);
  samplingRow->addWidget(samples_);
  samplingRow->addWidget(seed_);
  form->addRow(tr("Sampling:"), samplingRow);
  connect(sampling_, &QComboBox::currentIndexChanged, this, &StudyDialog::updateSamplingFields);
  top->addLayout(form);

  auto* runRow = new QHBoxLayout;
  runButton_ = new QPushButton(tr("Run Study"), this);
  runButton_->setObjectName("studyRun");
  connect(runButton_, &QPushButton::clicked, this, &StudyDialog::run);
  stopButton_ = new QPushButton(tr("Stop"), this);
  stopButton_->setObjectName("studyStop");
  stopButton_->setEnabled(false);
  stopButton_->setToolTip(tr("Cancel the running variants and start no more; the finished rows stay"));
  connect(stopButton_, &QPushButton::clicked, this, &StudyDialog::stop);
  progress_ = new QProgressBar(this);
  status_ = new QLabel(this);
  status_->setObjectName("studyStatus");
  status_->setWordWrap(true);
  runRow->addWidget(runButton_);
  runRow->addWidget(stopButton_);
  runRow->addWidget(progress_, 1);
  top->addLayout(runRow);
  top->addWidget(status_);

  auto* split = new QSplitter(Qt::Horizontal, this);
  table_ = new QTableWidget(0, 0, split);
  table_->setObjectName("studyTable");
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* plotBox = new QWidget(split);
  auto* plotLayout = new QVBoxLayout(plotBox);
  plotLayout->setContentsMargins(0, 0, 0, 0);
  auto* axes = new QHBoxLayout;
  xAxis_ = new QComboBox(plotBox);
  xAxis_->setObjectName("studyPlotX");
  yAxis_ = new QComboBox(plotBox);
  yAxis_->setObjectName("studyPlotY");
  pareto_ = new QCheckBox(tr("Pareto front (minimise both)"), plotBox);
  pareto_->setObjectName("studyPareto");
  axes->addWidget(new QLabel(tr("x:"), plotBox));
  axes->addWidget(xAxis_, 1);
  axes->addWidget(new QLabel(tr("y:"), plotBox));
  axes->addWidget(yAxis_, 1);
  axes->addWidget(pareto_);
  plotLayout->addLayout(axes);
  auto* heat = new QHBoxLayout;
  heatMap_ = new QCheckBox(tr("Heat map of"), plotBox);
  heatMap_->setObjectName("studyHeatMap");
  heatMap_->setEnabled(false);  // until a grid of two parameters has run
  heatMap_->setToolTip(tr("A grid of two parameters: one cell per variant, coloured by the result"));
  heatValue_ = new QComboBox(plotBox);
  heatValue_->setObjectName("studyHeatValue");
  heat->addWidget(heatMap_);
  heat->addWidget(heatValue_, 1);
  plotLayout->addLayout(heat);
  plot_ = new StudyPlot(plotBox);
  plotLayout->addWidget(plot_, 1);
  split->addWidget(table_);
  split->addWidget(plotBox);
  split->setSizes({480, 480});
  top->addWidget(split, 1);
  connect(xAxis_, &QComboBox::currentIndexChanged, this, &StudyDialog::updatePlot);
  connect(yAxis_, &QComboBox::currentIndexChanged, this, &StudyDialog::updatePlot);
  connect(pareto_, &QCheckBox::toggled, this, [this](bool on) { plot_->setPareto(on); });
  connect(heatMap_, &QCheckBox::toggled, this, [this](bool on) {
    plot_->setHeatMapOn(on && heatMapPossible());
    updatePlot();
  });
  connect(heatValue_, &QComboBox::currentIndexChanged, this, &StudyDialog::updatePlot);
  addParameterRow();
  updateSamplingFields();
  resize(980, 640);
}

StudyDialog::~StudyDialog() {
  stop_ = true;  // closing the dialog cancels the running variants
  if (worker_.joinable()) worker_.join();  // the variants hold the setup; let them end
}

void StudyDialog::updateSamplingFields() {
  const QString s = sampling_->currentData().toString();
  samples_->setEnabled(s != "grid");
  seed_->setEnabled(s == "latin_hypercube" || s == "random");
}

bool StudyDialog::heatMapPossible() const {
  return setup_ && setup_->study.sampling == studies::Sampling::Grid && setup_->study.parameters.size() == 2;
}

void StudyDialog::stop() {
  if (!isRunning()) return;
  stop_ = true;
  stopButton_->setEnabled(false);
  status_->setText(tr("Stopping: the running variants are cancelled..."));
}

void StudyDialog::addParameterRow() {
  const int row = params_->rowCount();
  params_->insertRow(row);
  auto* path = new QComboBox(params_);
  path->setEditable(true);
  path->addItems(parameterPaths(doc_->project()));
  path->setCurrentIndex(-1);
  path->completer()->setCompletionMode(QCompleter::PopupCompletion);
  path->setObjectName(QString("studyPath%1").arg(row));
  params_->setCellWidget(row, kPath, path);
  for (int c : {kFrom, kTo, kCount}) {
    auto* e = new QLineEdit(params_);
    e->setObjectName(QString("studyCell%1_%2").arg(row).arg(c));
    if (c == kCount) e->setText("3");
    params_->setCellWidget(row, c, e);
  }
}

double StudyDialog::cellValue(int row, int column) const {
  const auto* e = qobject_cast<QLineEdit*>(params_->cellWidget(row, column));
  bool ok = false;
  const double v = e ? e->text().trimmed().toDouble(&ok) : 0.0;
  return ok ? v : std::nan("");
}

nlohmann::json StudyDialog::studyJson() const {
  nlohmann::json ps = nlohmann::json::array();
  for (int r = 0; r < params_->rowCount(); ++r) {
    const auto* path = qobject_cast<QComboBox*>(params_->cellWidget(r, kPath));
    const std::string p = path ? path->currentText().trimmed().toStdString() : std::string();
    if (p.empty()) continue;
    nlohmann::json j = {{"path", p}};
    // Numbers the form cannot read go in as text, so the study's own check names the field.
    auto put = [&](const char* key, int column) {
      const double v = cellValue(r, column);
      const auto* e = qobject_cast<QLineEdit*>(params_->cellWidget(r, column));
      if (std::isfinite(v)) j[key] = v;
      else j[key] = e ? e->text().toStdString() : std::string();
    };
    put("from", kFrom);
    put("to", kTo);
    if (sampling_->currentData().toString() != "grid") {  // a range sampled continuously: no points
      ps.push_back(j);
      continue;
    }
    const double count = cellValue(r, kCount);
    if (std::isfinite(count) && count == std::floor(count)) j["count"] = static_cast<long long>(count);
    else put("count", kCount);
    ps.push_back(j);
  }
  nlohmann::json st = {{"name", "studio"}, {"parameters", ps}};
  const std::string sampling = sampling_->currentData().toString().toStdString();
  if (sampling != "grid") {
    st["sampling"] = sampling;
    st["samples"] = samples_->value();
    if (sampling != "sobol") st["seed"] = seed_->value();
  }
  nlohmann::json rs = nlohmann::json::array();
  for (const QString& s : splitList(results_->text(), ',')) rs.push_back(s.toStdString());
  st["results"] = rs;
  nlohmann::json cs = nlohmann::json::array();
  for (const QString& s : splitList(constraints_->text(), ';')) cs.push_back(s.toStdString());
  if (!cs.empty()) st["constraints"] = cs;
  return st;
}

void StudyDialog::run() {
  if (isRunning()) return;
  if (worker_.joinable()) worker_.join();
  const std::string file = doc_->file().isEmpty() ? std::string("(unsaved project)") : doc_->file().toStdString();
  try {
    const studies::StudyDefinition def = studies::parseStudy(studyJson(), file, "study dialog");
    setup_ = std::make_shared<studies::StudySetup>(studies::prepareStudy(doc_->project(), file, def));
  } catch (const std::exception& e) {
    status_->setText(QString::fromStdString(e.what()));
    return;
  }
  stop_ = false;
  setup_->cancel = &stop_;
  points_ = studies::studyVariants(setup_->study);
  results_done_.assign(points_.size(), {});
  have_.assign(points_.size(), false);
  doneCount_ = 0;
  finished_ = false;

  const QStringList headers = studyTableHeader(*setup_);
  table_->clear();
  table_->setColumnCount(headers.size());
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(static_cast<int>(points_.size()));
  for (size_t i = 0; i < points_.size(); ++i) {
    const QStringList row = studyTableRow(*setup_, i, points_[i], nullptr, tr("running"));
    for (int c = 0; c < row.size(); ++c) table_->setItem(int(i), c, new QTableWidgetItem(row[c]));
  }
  table_->resizeColumnsToContents();  // the headers with their units read in full
  fillAxisChoices();
  progress_->setRange(0, static_cast<int>(points_.size()));
  progress_->setValue(0);
  status_->setText(tr("%1 variants on %2 threads").arg(points_.size()).arg(jobs_->value()));
  runButton_->setEnabled(false);
  stopButton_->setEnabled(true);
  heatMap_->setEnabled(heatMapPossible());
  plot_->setHeatMapOn(heatMap_->isChecked() && heatMapPossible());

  // The variants run on a worker thread (which starts the study's own
  // threads); each finished one is posted to the dialog's thread.
  auto setup = setup_;
  const auto points = points_;
  const int jobs = jobs_->value();
  worker_ = std::thread([this, setup, points, jobs] {
    studies::evaluateLocally(*setup, points, jobs, [this](size_t i, const studies::VariantResult& r) {
      QMetaObject::invokeMethod(this, [this, i, r] { variantDone(i, r); }, Qt::QueuedConnection);
    });
    QMetaObject::invokeMethod(this, [this] { finish(); }, Qt::QueuedConnection);
  });
}

void StudyDialog::variantDone(size_t i, const studies::VariantResult& r) {
  if (i >= results_done_.size()) return;
  results_done_[i] = r;
  have_[i] = true;
  ++doneCount_;
  const int base = static_cast<int>(setup_->study.parameters.size()) + 1;
  const bool cancelled = !r.ok && stop_ && r.message.rfind("simulation cancelled", 0) == 0;
  const QStringList row =
      studyTableRow(*setup_, i, points_[i], &r, r.ok ? tr("ok") : cancelled ? tr("stopped") : tr("failed"));
  for (int c = base; c < row.size(); ++c) table_->setItem(int(i), c, new QTableWidgetItem(row[c]));
  if (!r.ok) table_->item(int(i), row.size() - 1)->setToolTip(QString::fromStdString(r.message));
  progress_->setValue(static_cast<int>(doneCount_));
  updatePlot();
}

void StudyDialog::finish() {
  finished_ = true;
  if (worker_.joinable()) worker_.join();
  runButton_->setEnabled(true);
  stopButton_->setEnabled(false);
  size_t failed = 0, feasible = 0, run = 0;
  const int statusColumn = table_->columnCount() - 1;
  for (size_t i = 0; i < results_done_.size(); ++i) {
    const bool stopped = !have_[i] || table_->item(int(i), statusColumn)->text() == tr("stopped");
    if (!have_[i]) table_->setItem(int(i), statusColumn, new QTableWidgetItem(tr("stopped")));
    run += !stopped;
    failed += !stopped && !results_done_[i].ok;
    feasible += results_done_[i].feasible;
  }
  table_->resizeColumnsToContents();
  if (stop_)
    status_->setText(tr("Stopped: %1 of %2 variants run, %3 failed, %4 met the constraints")
                         .arg(run).arg(points_.size()).arg(failed).arg(feasible));
  else
    status_->setText(tr("%1 variants: %2 failed, %3 met the constraints").arg(points_.size()).arg(failed).arg(feasible));
  emit studyFinished();
}

void StudyDialog::fillAxisChoices() {
  const studies::StudyDefinition& st = setup_->study;
  QStringList names;
  for (const auto& p : st.parameters) names << QString::fromStdString(p.path);
  for (const auto& r : st.results) names << QString::fromStdString(r);
  for (QComboBox* c : {xAxis_, yAxis_}) {
    const QSignalBlocker block(c);
    c->clear();
    c->addItems(names);
  }
  {
    const QSignalBlocker block(heatValue_);
    heatValue_->clear();
    for (const auto& r : st.results) heatValue_->addItem(QString::fromStdString(r));
  }
  xAxis_->setCurrentIndex(0);
  yAxis_->setCurrentIndex(names.size() > int(st.parameters.size()) ? int(st.parameters.size()) : 0);
}

void StudyDialog::updatePlot() {
  if (!setup_) return;
  const StudyPlotData d =
      studyPlotData(*setup_, points_, results_done_, have_, xAxis_->currentText().toStdString(),
                    yAxis_->currentText().toStdString(), heatMapPossible(), heatValue_->currentText().toStdString());
  plot_->setData(d.x, d.y, d.feasible, d.xLabel, d.yLabel);
  if (d.heatMap) plot_->setHeatMap(d.gridX, d.gridY, d.z, d.cellFeasible, d.heatXLabel, d.heatYLabel, d.zLabel);
}

StudySummary StudyDialog::summary() const {
  StudySummary s;
  if (!setup_ || points_.empty()) return s;
  const studies::StudyDefinition& st = setup_->study;
  for (int c = 0; c < table_->columnCount(); ++c) s.header << table_->horizontalHeaderItem(c)->text();
  for (int r = 0; r < table_->rowCount(); ++r) {
    QStringList row;
    for (int c = 0; c < table_->columnCount(); ++c) row << (table_->item(r, c) ? table_->item(r, c)->text() : QString());
    s.rows.push_back(row);
  }
  s.description = tr("%1: %2").arg(studyKind(st), status_->text());
  for (const auto& c : st.constraints) s.constraints << QString::fromStdString(c.text);
  s.plot = plot_->data();
  // The chosen design: the row selected in the table, else the feasible
  // variant with the smallest first result.
  const QList<QTableWidgetItem*> selected = table_->selectedItems();
  if (!selected.isEmpty()) {
    s.chosenRow = selected.front()->row();
    s.chosen = tr("Chosen in the study table: ");
  } else if (!st.results.empty()) {
    s.chosenRow = bestFeasibleRow(results_done_, have_);
    s.chosen = tr("The smallest %1 among the variants that met the constraints: ").arg(QString::fromStdString(st.results[0]));
  }
  if (s.chosenRow < 0) {
    s.chosen = tr("No variant met the constraints.");
    return s;
  }
  s.chosen += variantText(*setup_, points_[size_t(s.chosenRow)], s.chosenRow);
  return s;
}

}  // namespace pm::gui
