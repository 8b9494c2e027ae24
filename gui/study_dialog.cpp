#include "study_dialog.h"

#include "engine/engine.h"
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
#include <utility>

namespace pm::gui {

namespace {

enum ParamColumn { kPath = 0, kFrom, kTo, kUnit, kCount, kColumns };

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

// A From (sign -1) or To (+1) to start with: a fifth of the current value
// below or above it in the unit shown (one unit about a zero), or halfway to
// the parameter's bound where that would leave its range.
double defaultBound(const OverrideTarget& t, const units::DisplayUnit& du, int sign) {
  const double shown = du.toDisplay(t.value);
  const double span = shown == 0.0 ? 1.0 : 0.2 * std::abs(shown);
  const double si = du.toSi(shown + sign * span);
  if (t.decl.accepts(si)) return si;
  return 0.5 * ((sign < 0 ? t.decl.min : t.decl.max) + t.value);
}

bool sameUnit(const units::DisplayUnit& a, const units::DisplayUnit& b) {
  return a.unit == b.unit && a.scale == b.scale && a.offset == b.offset;
}

}  // namespace

StudyDialog::StudyDialog(const Document* doc, QWidget* parent) : QDialog(parent), doc_(doc) {
  setWindowTitle(tr("Parameter Study"));
  auto* top = new QVBoxLayout(this);

  params_ = new QTableWidget(0, kColumns, this);
  params_->setObjectName("studyParameters");
  params_->setHorizontalHeaderLabels({tr("Parameter (ID.PARAM)"), tr("From"), tr("To"), tr("Unit"), tr("Points")});
  params_->horizontalHeader()->setSectionResizeMode(kPath, QHeaderView::Stretch);
  // Wide enough for the widest unit in its box ("bar (abs)", "dm3/(s bar)"): cell widgets do not size a column.
  params_->setColumnWidth(kUnit, fontMetrics().horizontalAdvance("dm3/(s bar)") + 48);
  params_->setToolTip(tr("From and To in the unit of the row (the property editor's); a value may name its own "
                         "unit: \"6 bar\", \"40 mm\""));
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
  // View > Pressure Units, another ambient or a unit chosen for a parameter:
  // the typed values at once in the new unit, so they mean what the row says.
  connect(&units::UnitSettings::instance(), &units::UnitSettings::changed, this, &StudyDialog::unitsChanged);
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
  auto* unit = new QComboBox(params_);
  unit->setObjectName(QString("studyUnit%1").arg(row));
  unit->setEnabled(false);  // until the row names a parameter
  unit->setToolTip(tr("The unit of From and To; the property editor shows the parameter in it too"));
  params_->setCellWidget(row, kUnit, unit);
  connect(path, &QComboBox::editTextChanged, this, [this, path] {
    if (const int r = rowOf(path); r >= 0) pathChanged(r);
  });
  connect(unit, &QComboBox::activated, this, [this, unit] {
    if (const int r = rowOf(unit); r >= 0) unitChosen(r);
  });
}

int StudyDialog::rowOf(const QWidget* w) const {
  for (int r = 0; r < params_->rowCount(); ++r)
    for (int c = 0; c < kColumns; ++c)
      if (params_->cellWidget(r, c) == w) return r;
  return -1;
}

QLineEdit* StudyDialog::cell(int row, int column) const {
  return qobject_cast<QLineEdit*>(params_->cellWidget(row, column));
}

QComboBox* StudyDialog::unitBox(int row) const { return qobject_cast<QComboBox*>(params_->cellWidget(row, kUnit)); }

std::optional<OverrideTarget> StudyDialog::target(int row) const {
  const auto* path = qobject_cast<QComboBox*>(params_->cellWidget(row, kPath));
  if (!path) return std::nullopt;
  return overrideTarget(doc_->project(), path->currentText().trimmed().toStdString());
}

// The unit the row's From and To are in: the one last shown in its unit box.
units::DisplayUnit StudyDialog::rowUnit(int row) const {
  const QComboBox* box = unitBox(row);
  return {box->property("unit").toString(), box->property("scale").toDouble(), box->property("offset").toDouble()};
}

void StudyDialog::showUnit(int row, const OverrideTarget& t, const units::DisplayUnit& du) {
  QComboBox* box = unitBox(row);
  const QSignalBlocker block(box);
  box->clear();
  for (const units::DisplayUnit& u : units::choices(t.decl)) box->addItem(u.unit);
  if (box->findText(du.unit) < 0) box->addItem(du.unit);
  box->setCurrentText(du.unit);
  box->setEnabled(true);
  box->setProperty("unit", du.unit);
  box->setProperty("scale", du.scale);
  box->setProperty("offset", du.offset);
}

// A cell's SI value: the value it was converted from when its text is still
// that conversion's (no digits lost to the display), else the text parsed
// in `du` or in the unit it names.
std::optional<double> StudyDialog::cellSi(int row, int column, const units::DisplayUnit& du, QString* error) const {
  const QLineEdit* e = cell(row, column);
  const QString text = e->text().trimmed();
  const QString converted = e->property("siText").toString();
  if (!converted.isEmpty() && text == converted) return e->property("si").toDouble();
  const std::optional<OverrideTarget> t = target(row);
  if (!t) return std::nullopt;
  return units::parseToSi(text, t->decl, du, error);
}

void StudyDialog::pathChanged(int row) {
  const std::optional<OverrideTarget> t = target(row);
  if (!t) {
    unitBox(row)->setEnabled(false);
    return;
  }
  const units::DisplayUnit du = units::forTarget(*t);
  showUnit(row, *t, du);
  // Another parameter: the numbers typed now mean the new one's unit. Empty
  // cells, or cells holding the defaults of the one before, get defaults.
  for (const auto& [column, sign] : {std::pair{kFrom, -1}, std::pair{kTo, 1}}) {
    QLineEdit* e = cell(row, column);
    e->setProperty("siText", QString());
    if (!e->text().trimmed().isEmpty() && e->text() != e->property("defaultText").toString()) continue;
    const QString text = units::formatNumber(du.toDisplay(defaultBound(*t, du, sign)));
    e->setText(text);
    e->setProperty("defaultText", text);
  }
}

void StudyDialog::unitChosen(int row) {
  if (const std::optional<OverrideTarget> t = target(row))
    units::UnitSettings::instance().setParameterUnit(t->type, t->decl.name, unitBox(row)->currentText());
  // UnitSettings::changed() converts the rows (unitsChanged)
}

void StudyDialog::unitsChanged() {
  for (int r = 0; r < params_->rowCount(); ++r) {
    const std::optional<OverrideTarget> t = target(r);
    if (!t) continue;
    const units::DisplayUnit was = rowUnit(r), now = units::forTarget(*t);
    if (!sameUnit(was, now))
      for (int column : {kFrom, kTo}) {
        QLineEdit* e = cell(r, column);
        const std::optional<double> si = cellSi(r, column, was, nullptr);
        if (!si) continue;  // not a value: left as typed, for the check to name
        const bool wasDefault = e->text() == e->property("defaultText").toString();
        const QString text = units::formatNumber(now.toDisplay(*si));
        e->setText(text);
        e->setProperty("siText", text);
        e->setProperty("si", *si);
        if (wasDefault) e->setProperty("defaultText", text);
      }
    showUnit(r, *t, now);  // the choices' order follows the pressure scale
  }
  if (setup_ && !points_.empty()) {  // the table and plot of the last study in the new units
    fillTable();
    updatePlot();
  }
}

std::optional<nlohmann::json> StudyDialog::studyJson(QString* error) const {
  const bool grid = sampling_->currentData().toString() == "grid";
  nlohmann::json ps = nlohmann::json::array();
  for (int r = 0; r < params_->rowCount(); ++r) {
    const auto* pathBox = qobject_cast<QComboBox*>(params_->cellWidget(r, kPath));
    const QString path = pathBox ? pathBox->currentText().trimmed() : QString();
    if (path.isEmpty()) continue;
    auto fail = [&](const QString& field, const QString& why) -> std::optional<nlohmann::json> {
      if (error) *error = tr("Parameter row %1 (%2), %3: %4").arg(r + 1).arg(path, field, why);
      return std::nullopt;
    };
    const std::optional<OverrideTarget> t = target(r);
    if (!t) return fail(tr("Parameter"), tr("not a numeric parameter of this project (ID.PARAM, e.g. cyl1.bore)"));
    const units::DisplayUnit du = rowUnit(r);
    double si[2] = {0.0, 0.0};
    const std::pair<int, QString> fields[] = {{kFrom, tr("From")}, {kTo, tr("To")}};
    for (int k = 0; k < 2; ++k) {
      const auto& [column, name] = fields[k];
      if (cell(r, column)->text().trimmed().isEmpty()) return fail(name, tr("no value"));
      QString why;
      const std::optional<double> v = cellSi(r, column, du, &why);
      if (!v) return fail(name, why);
      if (!t->decl.accepts(*v))
        return fail(name, tr("%1 %2 is outside the parameter's range %3 %2")
                              .arg(units::formatNumber(du.toDisplay(*v)), du.unit, units::rangeText(t->decl, du)));
      si[k] = *v;
    }
    if (!(si[1] > si[0]))
      return fail(tr("To"), tr("%1 %3 must be greater than From (%2 %3)")
                                .arg(units::formatNumber(du.toDisplay(si[1])), units::formatNumber(du.toDisplay(si[0])),
                                     du.unit));
    // The values in SI, converted here once.
    nlohmann::json j = {{"path", path.toStdString()}, {"from", si[0]}, {"to", si[1]}};
    if (grid) {  // a range sampled continuously has no points
      bool ok = false;
      const int count = cell(r, kCount)->text().trimmed().toInt(&ok);
      if (!ok || count < 2) return fail(tr("Points"), tr("expected a whole number of points, 2 or more"));
      j["count"] = count;
    }
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
  QString error;
  const std::optional<nlohmann::json> json = studyJson(&error);
  if (!json) {  // bad input: said, and nothing runs
    status_->setText(error);
    return;
  }
  try {
    const studies::StudyDefinition def = studies::parseStudy(*json, file, "study dialog");
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

  table_->clear();
  table_->setRowCount(0);
  fillTable();
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

// The table's headers and its rows' values in the display units now; a
// row's status (with its tooltip) stays, a new row is "running".
void StudyDialog::fillTable() {
  const QStringList headers = studyTableHeader(*setup_);
  table_->setColumnCount(headers.size());
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(static_cast<int>(points_.size()));
  const int status = headers.size() - 1;
  for (size_t i = 0; i < points_.size(); ++i) {
    const bool done = i < have_.size() && have_[i];
    const QStringList row = studyTableRow(*setup_, i, points_[i], done ? &results_done_[i] : nullptr, tr("running"));
    for (int c = 0; c < status; ++c) table_->setItem(int(i), c, new QTableWidgetItem(row[c]));
    if (!table_->item(int(i), status)) table_->setItem(int(i), status, new QTableWidgetItem(row[status]));
  }
  table_->resizeColumnsToContents();  // the headers with their units read in full
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
