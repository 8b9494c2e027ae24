#include "csv_export_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace pm::gui {

CsvExportDialog::CsvExportDialog(int plotted, int selected, int all, const QString& displayUnits, const QString& path,
                                 QWidget* parent)
    : QDialog(parent), counts_{plotted, selected, all}, unitsText_(displayUnits) {
  setWindowTitle(tr("Export Channels as CSV"));
  setObjectName("csvExportDialog");
  auto* which = new QGroupBox(tr("Channels"));
  auto* wl = new QVBoxLayout(which);
  const QString texts[3] = {tr("The channels plotted (%1)").arg(plotted),
                            tr("The channels selected in the results tree (%1)").arg(selected),
                            tr("All channels of the run (%1)").arg(all)};
  const char* names[3] = {"csvPlotted", "csvSelected", "csvAll"};
  for (int i = 0; i < 3; ++i) {
    choice_[i] = new QRadioButton(texts[i]);
    choice_[i]->setObjectName(names[i]);
    choice_[i]->setEnabled(counts_[i] > 0);
    wl->addWidget(choice_[i]);
    connect(choice_[i], &QRadioButton::toggled, this, &CsvExportDialog::update);
  }
  // The plotted ones unless nothing is plotted.
  (plotted > 0 ? choice_[0] : selected > 0 ? choice_[1] : choice_[2])->setChecked(true);

  auto* unitsBox = new QGroupBox(tr("Units"));
  auto* ul = new QVBoxLayout(unitsBox);
  display_ = new QRadioButton(tr("As the studio shows them (%1)").arg(displayUnits));
  display_->setObjectName("csvDisplayUnits");
  si_ = new QRadioButton(tr("SI, as the command line writes them (Pa absolute, m, K)"));
  si_->setObjectName("csvSiUnits");
  display_->setChecked(true);
  ul->addWidget(display_);
  ul->addWidget(si_);
  connect(display_, &QRadioButton::toggled, this, &CsvExportDialog::update);

  path_ = new QLineEdit(path);
  path_->setObjectName("csvPath");
  auto* browse = new QPushButton(tr("Browse..."));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export channels"), path_->text(), tr("CSV (*.csv)"));
    if (!f.isEmpty()) path_->setText(f);
  });
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browse);

  summary_ = new QLabel;
  summary_->setObjectName("csvSummary");
  summary_->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(path_, &QLineEdit::textChanged, this, &CsvExportDialog::update);

  auto* lay = new QVBoxLayout(this);
  lay->addWidget(which);
  lay->addWidget(unitsBox);
  auto* form = new QFormLayout;
  form->addRow(tr("File:"), fileRow);
  lay->addLayout(form);
  lay->addWidget(summary_);
  lay->addWidget(buttons);
  update();
}

CsvExportDialog::Channels CsvExportDialog::channels() const {
  if (choice_[1]->isChecked()) return Channels::Selected;
  if (choice_[2]->isChecked()) return Channels::All;
  return Channels::Plotted;
}

bool CsvExportDialog::inDisplayUnits() const { return display_->isChecked(); }

QString CsvExportDialog::path() const { return path_->text().trimmed(); }

QRadioButton* CsvExportDialog::button(Channels c) const { return choice_[static_cast<int>(c)]; }

QString CsvExportDialog::summary() const {
  const int i = static_cast<int>(channels());
  const QString what[3] = {tr("plotted channels"), tr("channels selected in the results tree"),
                           tr("channels (all of the run)")};
  const QString units = inDisplayUnits() ? tr("display units (%1)").arg(unitsText_)
                                         : tr("SI units (Pa absolute, m, K)");
  return tr("%1 %2 and the time, in %3").arg(counts_[i]).arg(what[i], units);
}

void CsvExportDialog::update() {
  if (!summary_) return;  // still being built
  summary_->setText(tr("Writes %1.").arg(summary()));
  if (auto* box = findChild<QDialogButtonBox*>())
    box->button(QDialogButtonBox::Ok)->setEnabled(!path().isEmpty() && counts_[static_cast<int>(channels())] > 0);
}

}  // namespace pm::gui
