#include "modes_panel.h"

#include "document.h"
#include "mechanism_view.h"
#include "scene3d_scene.h"

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace pm::gui {

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

QTableWidgetItem* cell(const QString& text, bool number) {
  auto* it = new QTableWidgetItem(text);
  it->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return it;
}

}  // namespace

ModesPanel::ModesPanel(Document* doc, MechanismView* view3d, QWidget* parent)
    : QWidget(parent), doc_(doc), view3d_(view3d) {
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
    if (!result_) return;
    stopAnimation();
    setStatus(tr("The project changed since the modes were computed: Compute again."));
  });
}

ModesPanel::~ModesPanel() {
  // The view must not keep reading rows this panel owns.
  if (animating_ >= 0 && view3d_) view3d_->setResults(nullptr);
}

void ModesPanel::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #a02020;") : QString());
}

bool ModesPanel::compute() {
  stopAnimation();
  ModalOptions o;
  o.at = at_->value();
  o.staticEquilibrium = static_->isChecked();
  QApplication::setOverrideCursor(Qt::WaitCursor);
  try {
    result_ = engine::modal(doc_->project(), doc_->file().toStdString(), o);
  } catch (const std::exception& e) {
    QApplication::restoreOverrideCursor();
    result_.reset();
    table_->setRowCount(0);
    setStatus(tr("The modal analysis failed: %1").arg(QString::fromStdString(e.what())), true);
    return false;
  }
  QApplication::restoreOverrideCursor();
  fillTable();
  return true;
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
  QString text = tr("%1 modes at %2, %3 oscillating. Select a mode to animate it in the 3D view.")
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
  rebuildRows();
  stop_->setEnabled(true);
  timer_->start();
}

void ModesPanel::rebuildRows() {
  const double length = view3d_ ? view3d_->scene().characteristicLength() : 1.0;
  const size_t k = static_cast<size_t>(animating_);
  const double scale = modeScale(*result_, k, 0.01 * amplitude_->value() * length, length);
  const Mode& m = result_->modes[k];
  auto rows = std::make_unique<ResultStore>();
  modeAnimation(*result_, k, scale, kFrames, *rows);
  if (view3d_) {
    view3d_->setTimeCaption(tr("Mode %1: %2 Hz (slowed down)").arg(k + 1).arg(m.frequency, 0, 'g', 6));
    view3d_->setResults(rows.get());
    view3d_->setPose(phase_);
  }
  rows_ = std::move(rows);  // the old rows go after the view let go of them
  setStatus(scale > 0 ? tr("Mode %1: %2 Hz, damping ratio %3 (%4), shown slowed to one period in %5 s.")
                            .arg(k + 1)
                            .arg(m.frequency, 0, 'g', 6)
                            .arg(m.dampingRatio, 0, 'g', 4)
                            .arg(sharesText(m))
                            .arg(kPeriodOnScreen)
                      : tr("Mode %1 (%2 Hz) moves no part: it lives in %3.")
                            .arg(k + 1)
                            .arg(m.frequency, 0, 'g', 6)
                            .arg(sharesText(m)));
}

void ModesPanel::showPhase(double fraction) {
  phase_ = fraction - std::floor(fraction);
  if (view3d_ && rows_) view3d_->setPose(phase_);
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
  emit animationStopped();  // the window hands the view its run back
  const QSignalBlocker block(table_);
  table_->clearSelection();
}

}  // namespace pm::gui
