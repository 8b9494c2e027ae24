#include "simulation_settings_dialog.h"

#include "document.h"
#include "engine/engine.h"
#include "units.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace pm::gui {

SimulationSettingsDialog::SimulationSettingsDialog(const SimulationSettings& s, QWidget* parent)
    : QDialog(parent), base_(s), accepted_(s) {
  setWindowTitle(tr("Simulation Settings"));
  using S = SimulationSettings;
  fields_ = {
      {"t_end", tr("End time"), "s", 1.0, &S::t_end, nullptr},
      {"output_interval", tr("Output interval"), "ms", 1e3, &S::output_interval, nullptr},
      {"rel_tol", tr("Relative tolerance"), "", 1.0, &S::rel_tol, nullptr},
      {"abs_tol_pressure", tr("Absolute tolerance, pressure"), "Pa", 1.0, &S::abs_tol_pressure, nullptr},
      {"abs_tol_temperature", tr("Absolute tolerance, temperature"), "K", 1.0, &S::abs_tol_temperature, nullptr},
      {"abs_tol_position", tr("Absolute tolerance, position"), "mm", 1e3, &S::abs_tol_position, nullptr},
      {"max_step", tr("Maximum step (0: solver's choice)"), "ms", 1e3, &S::max_step, nullptr},
      {"wall_time_limit", tr("Wall-time limit of a run (0: none)"), "s", 1.0, &S::wall_time_limit, nullptr},
      {"exchange_interval", tr("Exchange interval"), "ms", 1e3, &S::exchange_interval, nullptr},
  };
  auto* top = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  auto addField = [&](Field& f) {
    f.edit = new QLineEdit(units::formatNumber(s.*(f.member) * f.scale));
    f.edit->setObjectName(f.name);
    auto* row = new QHBoxLayout;
    row->addWidget(f.edit, 1);
    row->addWidget(new QLabel(f.unit));
    form->addRow(f.label + ":", row);
  };
  for (Field& f : fields_)
    if (std::string(f.name) != "exchange_interval") addField(f);
  coupling_ = new QComboBox;
  coupling_->setObjectName("coupling");
  coupling_->addItem(tr("Monolithic (one DAE for circuit and mechanism)"), "monolithic");
  coupling_->addItem(tr("Co-simulation (two integrators exchanging stroke, velocity, force)"), "cosimulation");
  coupling_->setCurrentIndex(s.coupling == "cosimulation" ? 1 : 0);
  form->addRow(tr("Coupling:"), coupling_);
  addField(fields_.back());
  QLineEdit* exchange = fields_.back().edit;
  auto syncExchange = [this, exchange] {
    exchange->setEnabled(coupling_->currentData().toString() == "cosimulation");
  };
  connect(coupling_, &QComboBox::currentIndexChanged, this, syncExchange);
  syncExchange();
  top->addLayout(form);

  message_ = new QLabel;
  message_->setObjectName("message");
  message_->setWordWrap(true);
  message_->setStyleSheet("color: #b00000");
  top->addWidget(message_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    QString err;
    if (!read(&accepted_, &err)) {
      message_->setText(err);
      return;
    }
    message_->clear();
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  top->addWidget(buttons);
}

QLineEdit* SimulationSettingsDialog::field(const QString& name) const {
  for (const Field& f : fields_)
    if (name == f.name) return f.edit;
  return nullptr;
}

bool SimulationSettingsDialog::read(SimulationSettings* out, QString* error) const {
  SimulationSettings s = base_;
  for (const Field& f : fields_) {
    QString text = f.edit->text().trimmed();
    text.replace(',', '.');
    bool ok = false;
    const double v = QLocale::c().toDouble(text, &ok);
    if (!ok) {
      *error = tr("%1: \"%2\" is not a number (in %3).").arg(f.label, f.edit->text(), f.unit.isEmpty() ? "1" : f.unit);
      f.edit->setFocus();
      return false;
    }
    s.*(f.member) = v / f.scale;
  }
  s.coupling = coupling_->currentData().toString().toStdString();
  try {
    engine::checkSimulationSettings(s);
  } catch (const ProjectError& e) {
    QString label = QString::fromStdString(e.field());
    for (const Field& f : fields_)
      if (e.field() == f.name) {
        label = f.label;
        f.edit->setFocus();
      }
    // The core's message is about SI values; the field names t_end etc.
    // are the file's, so say both.
    *error = tr("%1 (%2): %3").arg(label, QString::fromStdString(e.field()), QString::fromStdString(e.message()));
    return false;
  }
  *out = s;
  return true;
}

SimulationSettings SimulationSettingsDialog::settings() const { return accepted_; }

SimulationSettingsDialog* openSimulationSettings(QWidget* parent, Document* doc) {
  auto* d = new SimulationSettingsDialog(doc->project().simulation, parent);
  d->setAttribute(Qt::WA_DeleteOnClose);
  QObject::connect(d, &QDialog::accepted, doc, [doc, d] {
    const SimulationSettings s = d->settings();
    doc->edit(QObject::tr("Simulation settings"), [&](Project& p) { p.simulation = s; });
  });
  d->open();
  return d;
}

}  // namespace pm::gui
