#include "modes_panel.h"

#include "document.h"
#include "mechanism_view.h"
#include "run_animation.h"
#include "scene3d_scene.h"
#include "schematic_scene.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

namespace pm::gui {

// One computation: the worker's thread, its cancel flag, and what it found
// (written by the worker before it posts finish(), read after on the GUI thread).
struct ModesPanel::Job {
  std::thread thread;
  std::atomic<bool> cancel{false};
  std::optional<ModalResult> result;
  QString error;
};

namespace {

constexpr int kFrames = 60;            // rows per period (the view interpolates between them)
constexpr int kTickMs = 33;            // about 30 frames a second
constexpr double kPeriodOnScreen = 2.0;  // seconds one period takes on screen

QString sharesText(const Mode& m) {
  QStringList parts;
  for (size_t i = 0; i < m.shares.size() && i < 4; ++i)
    parts << QStringLiteral("%1 %2 %").arg(QString::fromStdString(m.shares[i].object)).arg(std::lround(100 * m.shares[i].share));
  return parts.join(", ");
}

QString stageText(ModalStage s) {
  switch (s) {
    case ModalStage::Run: return ModesPanel::tr("running to the operating point");
    case ModalStage::StaticEquilibrium: return ModesPanel::tr("finding the static equilibrium");
    case ModalStage::Linearise: return ModesPanel::tr("linearising");
    case ModalStage::Eigensolve: return ModesPanel::tr("solving the eigenproblem");
    case ModalStage::Modes: return ModesPanel::tr("sorting the modes");
  }
  return {};
}

QTableWidgetItem* cell(const QString& text, bool number) {
  auto* it = new QTableWidgetItem(text);
  it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return it;
}

}  // namespace

ModesPanel::ModesPanel(Document* doc, MechanismView* view3d, SchematicScene* schematic, QWidget* parent)
    : QWidget(parent), doc_(doc), view3d_(view3d), schematic_(schematic), colours_(std::make_unique<RunAnimation>()) {
  auto* top = new QVBoxLayout(this);
  auto* point = new QHBoxLayout;
  point->addWidget(new QLabel(tr("Operating point: the run's state at")));
  at_ = new QDoubleSpinBox;
  at_->setObjectName("modesAt");
  at_->setRange(0.0, 1e6);
  at_->setDecimals(4);
  at_->setSuffix(tr(" s"));
  at_->setToolTip(tr("The machine is linearised about the state a run reaches at this time (0: the start)"));
  point->addWidget(at_);
  static_ = new QCheckBox(tr("Static equilibrium from there"));
  static_->setObjectName("modesStatic");
  static_->setToolTip(tr("Linearise about the static equilibrium found from that state (gravity, pressures, springs)"));
  point->addWidget(static_);
  compute_ = new QPushButton(tr("Compute"));
  compute_->setObjectName("computeModes");
  connect(compute_, &QPushButton::clicked, this, [this] { compute(); });
  point->addWidget(compute_);
  busy_ = new QProgressBar;
  busy_->setObjectName("modesBusy");
  busy_->setRange(0, 0);  // no measure of progress: a busy bar
  busy_->setMaximumWidth(120);
  busy_->hide();
  point->addWidget(busy_);
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setObjectName("cancelModes");
  cancel_->setToolTip(tr("Give the computation up"));
  cancel_->setEnabled(false);
  connect(cancel_, &QPushButton::clicked, this, [this] {
    cancel();
    setStatus(tr("Cancelled: no modes computed."));
  });
  point->addWidget(cancel_);
  all_ = new QCheckBox(tr("Non-oscillating modes too"));
  all_->setObjectName("modesShowAll");
  connect(all_, &QCheckBox::toggled, this, [this] { fillTable(); });
  point->addWidget(all_);
  point->addStretch(1);
  top->addLayout(point);

  status_ = new QLabel(tr("Compute lists the modes of the whole machine: mechanism, flexible bodies, chambers and "
                          "controllers."));
  status_->setObjectName("modesStatus");
  status_->setWordWrap(true);
  top->addWidget(status_);

  table_ = new QTableWidget(0, 5);
  table_->setObjectName("modesTable");
  table_->setHorizontalHeaderLabels({tr("Mode"), tr("Frequency [Hz]"), tr("Damping ratio"), tr("Natural frequency [Hz]"),
                                     tr("Taking part")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    animate(table_->item(rows.front().row(), 0)->data(Qt::UserRole).toInt());
  });
  top->addWidget(table_, 1);

  auto* anim = new QHBoxLayout;
  anim->addWidget(new QLabel(tr("Amplitude:")));
  amplitude_ = new QSlider(Qt::Horizontal);
  amplitude_->setObjectName("modeAmplitude");
  amplitude_->setRange(1, 50);
  amplitude_->setValue(10);
  amplitude_->setToolTip(tr("The largest motion of a part in the animation, in % of the mechanism's size"));
  anim->addWidget(amplitude_, 1);
  amplitudeLabel_ = new QLabel;
  amplitudeLabel_->setObjectName("modeAmplitudeLabel");
  anim->addWidget(amplitudeLabel_);
  stop_ = new QPushButton(tr("Stop"));
  stop_->setObjectName("stopModeAnimation");
  stop_->setToolTip(tr("End the animation: the 3D view shows the run at the time cursor again"));
  stop_->setEnabled(false);
  connect(stop_, &QPushButton::clicked, this, [this] { stopAnimation(); });
  anim->addWidget(stop_);
  top->addLayout(anim);
  auto showAmplitude = [this] { amplitudeLabel_->setText(tr("%1 % of the mechanism's size").arg(amplitude_->value())); };
  showAmplitude();
  connect(amplitude_, &QSlider::valueChanged, this, [this, showAmplitude] {
    showAmplitude();
    if (animating_ >= 0) rebuildRows();
  });

  timer_ = new QTimer(this);
  timer_->setInterval(kTickMs);
  connect(timer_, &QTimer::timeout, this, &ModesPanel::tick);
  // The modes belong to the project as it was: an edit ends the animation.
  connect(doc_, &Document::changed, this, [this] {
    if (isComputing()) {
      cancel();
      setStatus(tr("The project changed while the modes were computed: Compute again."));
      return;
    }
    if (!result_) return;
    stopAnimation();
    setStatus(tr("The project changed since the modes were computed: Compute again."));
  });
}

ModesPanel::~ModesPanel() {
  // The view must not keep reading rows this panel owns.
  if (animating_ >= 0 && view3d_) view3d_->setResults(nullptr);
  // No worker may outlive the panel it posts to: give every one up and wait
  // (it stops at its next look at the flag, analyses/modal_analysis.h).
  for (const auto& j : jobs_) j->cancel = true;
  for (const auto& j : jobs_) j->thread.join();
}

void ModesPanel::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #a02020;") : QString());
}

void ModesPanel::compute() {
  cancel();  // an older computation is given up
  stopAnimation();
  result_.reset();
  table_->setRowCount(0);
  ModalOptions o;
  o.at = at_->value();
  o.staticEquilibrium = static_->isChecked();
  auto job = std::make_shared<Job>();
  o.cancel = &job->cancel;
  const QString where =
      o.staticEquilibrium ? tr("the static equilibrium from t = %1 s").arg(o.at) : tr("t = %1 s").arg(o.at);
  // The worker says where it is; a computation given up says nothing more.
  o.onStage = [this, job, where](ModalStage s) {
    QMetaObject::invokeMethod(
        this, [this, job, where, s] {
          if (job == job_) setStatus(tr("Computing the modes at %1: %2...").arg(where, stageText(s)));
        },
        Qt::QueuedConnection);
  };
  job_ = job;
  jobs_.push_back(job);
  setComputing(true);
  setStatus(tr("Computing the modes at %1...").arg(where));
  // The worker reads its own copy of the project; it posts finish() to this
  // panel, which joins it before it goes (~ModesPanel).
  job->thread = std::thread([this, job, o, project = doc_->project(), file = doc_->file().toStdString()] {
    try {
      job->result = engine::modal(project, file, o);
    } catch (const std::exception& e) {
      job->error = QString::fromStdString(e.what());
    }
    QMetaObject::invokeMethod(this, [this, job] { finish(job); }, Qt::QueuedConnection);
  });
}

void ModesPanel::cancel() {
  if (!job_) return;
  job_->cancel = true;
  job_.reset();  // its result, when it comes, is dropped
  setComputing(false);
}

void ModesPanel::setComputing(bool on) {
  compute_->setEnabled(!on);
  compute_->setText(on ? tr("Computing...") : tr("Compute"));
  cancel_->setEnabled(on);
  busy_->setVisible(on);
}

void ModesPanel::finish(const std::shared_ptr<Job>& job) {
  job->thread.join();  // it has posted this: it is ending
  jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), job), jobs_.end());
  if (job != job_) return;  // given up
  job_.reset();
  setComputing(false);
  if (!job->result) {
    setStatus(tr("The modal analysis failed: %1").arg(job->error), true);
    emit computed(false);
    return;
  }
  result_ = std::move(job->result);
  fillTable();
  emit computed(true);
}

void ModesPanel::fillTable() {
  const QSignalBlocker block(table_);
  table_->setRowCount(0);
  if (!result_) return;
  int oscillating = 0;
  for (size_t i = 0; i < result_->modes.size(); ++i) {
    const Mode& m = result_->modes[i];
    oscillating += m.oscillating ? 1 : 0;
    if (!m.oscillating && !all_->isChecked()) continue;
    const int r = table_->rowCount();
    table_->insertRow(r);
    QTableWidgetItem* number = cell(QString::number(i + 1), true);
    number->setData(Qt::UserRole, static_cast<int>(i));
    table_->setItem(r, 0, number);
    table_->setItem(r, 1, cell(m.oscillating ? QString::number(m.frequency, 'g', 6) : tr("(real)"), true));
    table_->setItem(r, 2, cell(QString::number(m.dampingRatio, 'g', 4), true));
    table_->setItem(r, 3, cell(QString::number(m.naturalFrequency, 'g', 6), true));
    table_->setItem(r, 4, cell(sharesText(m), false));
  }
  table_->resizeColumnsToContents();
  const QString at = result_->staticEquilibrium ? tr("the static equilibrium (inputs at t = %1 s)").arg(result_->t)
                                                : tr("t = %1 s").arg(result_->t);
  QString text = tr("%1 modes at %2, %3 oscillating. Select a mode to animate it in the 3D view and on the schematic.")
                     .arg(result_->modes.size())
                     .arg(at)
                     .arg(oscillating);
  for (const std::string& n : result_->notes) text += "\n" + QString::fromStdString(n);
  setStatus(text);
}

void ModesPanel::animate(int mode) {
  if (!result_ || mode < 0 || static_cast<size_t>(mode) >= result_->modes.size()) return;
  if (!result_->modes[size_t(mode)].oscillating) {
    stopAnimation();
    setStatus(tr("Mode %1 does not oscillate (it decays at %2 1/s): nothing to animate.")
                  .arg(mode + 1)
                  .arg(-result_->modes[size_t(mode)].lambda.real(), 0, 'g', 4));
    return;
  }
  animating_ = mode;
  phase_ = 0.0;
  if (schematic_) colours_->prepare(doc_->project());
  rebuildRows();
  stop_->setEnabled(true);
  timer_->start();
}

void ModesPanel::rebuildRows() {
  const double length = view3d_ ? view3d_->scene().characteristicLength() : 1.0;
  const size_t k = static_cast<size_t>(animating_);
  const double moving = modeScale(*result_, k, 0.01 * amplitude_->value() * length, length);
  const double scale = moving > 0 ? moving : pressureScale(k);
  const Mode& m = result_->modes[k];
  auto rows = std::make_unique<ResultStore>();
  modeAnimation(*result_, k, scale, kFrames, *rows);
  if (view3d_) {
    view3d_->setTimeCaption(tr("Mode %1: %2 Hz (slowed down)").arg(k + 1).arg(m.frequency, 0, 'g', 6));
    view3d_->setResults(rows.get());
    view3d_->setPose(phase_);
  }
  rows_ = std::move(rows);  // the old rows go after the view let go of them
  columns_.clear();
  if (schematic_ && colours_->ready()) {
    std::vector<std::string> names;
    for (const ChannelInfo& c : rows_->channels()) names.push_back(c.name);
    colours_->setChannels(names);
    std::vector<double> t;
    rows_->copyRows(0, t, columns_);
    showSchematic();
    emit schematicColoured(colours_->scaleLow(), colours_->scaleHigh());
  }
  if (moving > 0)
    setStatus(tr("Mode %1: %2 Hz, damping ratio %3 (%4), shown slowed to one period in %5 s.")
                  .arg(k + 1)
                  .arg(m.frequency, 0, 'g', 6)
                  .arg(m.dampingRatio, 0, 'g', 4)
                  .arg(sharesText(m))
                  .arg(kPeriodOnScreen));
  else
    setStatus(scale > 0 ? tr("Mode %1 (%2 Hz) moves no part: it lives in %3. The schematic shows its pressures "
                             "swinging by %4 % of the colour scale.")
                              .arg(k + 1)
                              .arg(m.frequency, 0, 'g', 6)
                              .arg(sharesText(m))
                              .arg(amplitude_->value())
                        : tr("Mode %1 (%2 Hz) moves no part: it lives in %3.")
                              .arg(k + 1)
                              .arg(m.frequency, 0, 'g', 6)
                              .arg(sharesText(m)));
}

// For a mode that moves no part: the factor that swings its largest net
// pressure by the slider's % of the schematic's colour scale (0: none).
double ModesPanel::pressureScale(size_t k) const {
  if (!schematic_ || !colours_->ready()) return 0.0;
  double largest = 0.0;
  for (const ChannelAmplitude& c : result_->modes[k].channels)
    if (c.unit == "Pa" && c.channel.size() > 2 && c.channel.compare(c.channel.size() - 2, 2, ".p") == 0)
      largest = std::max(largest, c.amplitude);
  const double range = colours_->scaleHigh() - colours_->scaleLow();
  return largest > 0 ? 0.01 * amplitude_->value() * range / largest : 0.0;
}

// The schematic at the phase shown: the row nearest it (rows 1 / kFrames apart).
void ModesPanel::showSchematic() {
  if (!schematic_ || columns_.empty()) return;
  const auto row = static_cast<size_t>(std::lround(phase_ * kFrames));
  schematic_->setFrame(colours_->frame(columns_, row, phase_));
}

void ModesPanel::showPhase(double fraction) {
  phase_ = fraction - std::floor(fraction);
  if (view3d_ && rows_) view3d_->setPose(phase_);
  showSchematic();
}

void ModesPanel::tick() { showPhase(phase_ + kTickMs * 1e-3 / kPeriodOnScreen); }

void ModesPanel::stopAnimation() {
  timer_->stop();
  stop_->setEnabled(false);
  if (animating_ < 0) return;
  animating_ = -1;
  if (view3d_) {
    view3d_->setResults(nullptr);  // the view lets go of the rows before they go
    view3d_->setTimeCaption({});
  }
  rows_.reset();
  columns_.clear();
  if (schematic_) schematic_->setFrame({});  // the window gives it the run's picture back
  emit animationStopped();  // the window hands the view its run back
  const QSignalBlocker block(table_);
  table_->clearSelection();
}

}  // namespace pm::gui
