#include "report_settings_dialog.h"

#include "document.h"
#include "result_buffer.h"
#include "engine/engine.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace pm::gui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

ReportSettingsDialog::ReportSettingsDialog(const ReportSettings& settings, const std::string& title,
                                           const std::vector<std::string>& channels, const QString& projectDir,
                                           QWidget* parent)
    : QDialog(parent), plotsData_(settings.plots), projectDir_(projectDir), logo_(settings.logo), kept_(settings) {
  setWindowTitle(tr("Report Settings"));
  auto* top = new QVBoxLayout(this);

  auto* form = new QFormLayout;
  title_ = new QLineEdit(q(title));
  company_ = new QLineEdit(q(settings.company));
  company_->setPlaceholderText(tr("shown on the title page and in the page header"));
  cpm_ = new QDoubleSpinBox;
  cpm_->setRange(0.0, 10000.0);
  cpm_->setDecimals(1);
  cpm_->setSpecialValueText(tr("not stated"));
  cpm_->setSuffix(tr(" cycles/min"));
  cpm_->setValue(settings.cyclesPerMinute);
  form->addRow(tr("Report title:"), title_);
  form->addRow(tr("Company:"), company_);
  form->addRow(tr("Air consumption at:"), cpm_);
  // The modes section (issue #22): its operating point stays as the file has it.
  modes_ = new QCheckBox(tr("Table of the lowest modes of the machine"));
  modes_->setObjectName("reportModes");
  modes_->setChecked(settings.modes > 0);
  modeCount_ = new QSpinBox;
  modeCount_->setObjectName("reportModeCount");
  modeCount_->setRange(1, 100);
  modeCount_->setSuffix(tr(" modes"));
  modeCount_->setValue(settings.modes > 0 ? settings.modes : 6);
  modeCount_->setEnabled(modes_->isChecked());
  connect(modes_, &QCheckBox::toggled, modeCount_, &QWidget::setEnabled);
  auto* modesRow = new QHBoxLayout;
  modesRow->addWidget(modes_);
  modesRow->addWidget(modeCount_);
  modesRow->addStretch(1);
  form->addRow(tr("Modes:"), modesRow);
  top->addLayout(form);

  auto* box = new QGroupBox(tr("Plots"));
  auto* grid = new QGridLayout(box);
  plots_ = new QListWidget;
  plots_->setObjectName("plotList");
  auto mkButton = [this](const QString& text, const char* name, auto fn) {
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    b->setAutoDefault(false);
    connect(b, &QPushButton::clicked, this, fn);
    return b;
  };
  auto* plotButtons = new QHBoxLayout;
  plotButtons->addWidget(mkButton(tr("Add Plot"), "addPlot", [this] { addPlot(); }));
  plotButtons->addWidget(mkButton(tr("Remove Plot"), "removePlot", [this] { removePlot(); }));
  plotButtons->addWidget(mkButton(tr("Up"), "plotUp", [this] { movePlot(-1); }));
  plotButtons->addWidget(mkButton(tr("Down"), "plotDown", [this] { movePlot(1); }));
  grid->addWidget(new QLabel(tr("Plots in the report, in order:")), 0, 0);
  grid->addWidget(plots_, 1, 0, 3, 1);
  grid->addLayout(plotButtons, 4, 0);

  plotTitle_ = new QLineEdit;
  plotTitle_->setPlaceholderText(tr("named after its channels"));
  connect(plotTitle_, &QLineEdit::textEdited, this, [this](const QString& t) {
    const int row = plots_->currentRow();
    if (row < 0) return;
    plotsData_[size_t(row)].title = t.trimmed().toStdString();
    refreshPlotRow(row);
  });
  auto* titleRow = new QHBoxLayout;
  titleRow->addWidget(new QLabel(tr("Plot title:")));
  titleRow->addWidget(plotTitle_, 1);
  grid->addLayout(titleRow, 0, 1, 1, 3);

  filter_ = new QLineEdit;
  filter_->setPlaceholderText(tr("filter channels"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, this, &ReportSettingsDialog::filterChannels);
  available_ = new QListWidget;
  available_->setObjectName("availableChannels");
  available_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  for (const auto& c : channels) available_->addItem(q(c));
  connect(available_, &QListWidget::itemDoubleClicked, this, [this] { addChannels(); });
  chosen_ = new QListWidget;
  chosen_->setObjectName("plotChannels");
  chosen_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  connect(chosen_, &QListWidget::itemDoubleClicked, this, [this] { removeChannels(); });
  auto* left = new QVBoxLayout;
  left->addWidget(new QLabel(tr("Channels of the run:")));
  left->addWidget(filter_);
  left->addWidget(available_, 1);
  auto* mid = new QVBoxLayout;
  mid->addStretch();
  mid->addWidget(mkButton(tr("Add >"), "addChannel", [this] { addChannels(); }));
  mid->addWidget(mkButton(tr("< Remove"), "removeChannel", [this] { removeChannels(); }));
  mid->addWidget(mkButton(tr("Up"), "channelUp", [this] { moveChannel(-1); }));
  mid->addWidget(mkButton(tr("Down"), "channelDown", [this] { moveChannel(1); }));
  mid->addStretch();
  auto* right = new QVBoxLayout;
  right->addWidget(new QLabel(tr("Channels of this plot:")));
  right->addWidget(chosen_, 1);
  grid->addLayout(left, 1, 1, 4, 1);
  grid->addLayout(mid, 1, 2, 4, 1);
  grid->addLayout(right, 1, 3, 4, 1);
  top->addWidget(box, 1);

  note_ = new QLabel;
  note_->setObjectName("note");
  note_->setWordWrap(true);
  top->addWidget(note_);
  if (channels.empty())
    note_->setText(tr("No channel list: the project does not compile. Fix it (Simulation -> Check Circuit) to choose channels."));

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    for (size_t i = 0; i < plotsData_.size(); ++i)
      if (plotsData_[i].channels.empty()) {
        plots_->setCurrentRow(int(i));
        note_->setText(tr("<span style='color:#b00000'>Plot %1 has no channels: add some or remove the plot.</span>")
                           .arg(i + 1));
        return;
      }
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  top->addWidget(buttons);

  for (size_t i = 0; i < plotsData_.size(); ++i) plots_->addItem(plotText(plotsData_[i]));
  connect(plots_, &QListWidget::currentRowChanged, this, [this] { showPlot(); });
  connect(available_, &QListWidget::itemSelectionChanged, this, &ReportSettingsDialog::updateButtons);
  connect(chosen_, &QListWidget::itemSelectionChanged, this, &ReportSettingsDialog::updateButtons);
  if (!plotsData_.empty()) plots_->setCurrentRow(0);
  showPlot();
  if (plotsData_.empty() && !channels.empty())
    note_->setText(tr("No plots chosen: the report shows each cylinder's position and chamber pressures."));
  resize(900, 620);
}

QPushButton* ReportSettingsDialog::button(const QString& objectName) const {
  return findChild<QPushButton*>(objectName);
}

QString ReportSettingsDialog::plotText(const ReportPlot& p) const {
  QStringList chans;
  for (const auto& c : p.channels) chans << q(c);
  const QString list = chans.isEmpty() ? tr("(no channels)") : chans.join(", ");
  return p.title.empty() ? list : q(p.title) + " - " + list;
}

void ReportSettingsDialog::refreshPlotRow(int row) {
  if (QListWidgetItem* it = plots_->item(row)) it->setText(plotText(plotsData_[size_t(row)]));
}

ReportSettings ReportSettingsDialog::settings() const {
  ReportSettings s;
  s.plots = plotsData_;
  s.company = company_->text().trimmed().toStdString();
  s.logo = logo_;  // kept as read: the logo is a project property now (meta.logo)
  s.cyclesPerMinute = cpm_->value();
  // Kept as read: chosen in the property editor (parts) and in the file (the modes' operating point).
  s.parts = kept_.parts;
  s.modes = modes_->isChecked() ? modeCount_->value() : 0;
  s.modesAt = kept_.modesAt;
  s.modesStatic = kept_.modesStatic;
  return s;
}

std::string ReportSettingsDialog::title() const { return title_->text().trimmed().toStdString(); }

void ReportSettingsDialog::addPlot() {
  ReportPlot p;
  plotsData_.push_back(p);
  plots_->addItem(plotText(p));
  plots_->setCurrentRow(plots_->count() - 1);
  note_->clear();
  // Channels selected before the plot existed go straight into it.
  if (!available_->selectedItems().isEmpty()) addChannels();
}

void ReportSettingsDialog::removePlot() {
  const int row = plots_->currentRow();
  if (row < 0) return;
  plotsData_.erase(plotsData_.begin() + row);
  delete plots_->takeItem(row);
  showPlot();
}

void ReportSettingsDialog::movePlot(int by) {
  const int row = plots_->currentRow(), to = row + by;
  if (row < 0 || to < 0 || to >= plots_->count()) return;
  std::swap(plotsData_[size_t(row)], plotsData_[size_t(to)]);
  refreshPlotRow(row);
  refreshPlotRow(to);
  plots_->setCurrentRow(to);
}

void ReportSettingsDialog::addChannels() {
  if (plots_->currentRow() < 0) addPlot();  // adds the selection itself
  const int row = plots_->currentRow();
  if (row < 0) return;
  auto& chans = plotsData_[size_t(row)].channels;
  // In the list's order, not the order of clicking.
  for (int i = 0; i < available_->count(); ++i) {
    QListWidgetItem* it = available_->item(i);
    if (!it->isSelected()) continue;
    const std::string c = it->text().toStdString();
    if (std::find(chans.begin(), chans.end(), c) == chans.end()) chans.push_back(c);
  }
  refreshPlotRow(row);
  showPlot();
}

void ReportSettingsDialog::removeChannels() {
  const int row = plots_->currentRow();
  if (row < 0) return;
  auto& chans = plotsData_[size_t(row)].channels;
  for (QListWidgetItem* it : chosen_->selectedItems())
    chans.erase(std::remove(chans.begin(), chans.end(), it->text().toStdString()), chans.end());
  refreshPlotRow(row);
  showPlot();
}

void ReportSettingsDialog::moveChannel(int by) {
  const int row = plots_->currentRow(), c = chosen_->currentRow(), to = c + by;
  if (row < 0 || c < 0 || to < 0 || to >= chosen_->count()) return;
  auto& chans = plotsData_[size_t(row)].channels;
  std::swap(chans[size_t(c)], chans[size_t(to)]);
  refreshPlotRow(row);
  showPlot();
  chosen_->setCurrentRow(to);
}

void ReportSettingsDialog::showPlot() {
  const int row = plots_->currentRow();
  chosen_->clear();
  plotTitle_->setEnabled(row >= 0);
  plotTitle_->setText(row >= 0 ? q(plotsData_[size_t(row)].title) : QString());
  if (row >= 0)
    for (const auto& c : plotsData_[size_t(row)].channels) chosen_->addItem(q(c));
  updateButtons();
}

void ReportSettingsDialog::updateButtons() {
  const bool plot = plots_->currentRow() >= 0;
  button("removePlot")->setEnabled(plot);
  button("plotUp")->setEnabled(plot && plots_->currentRow() > 0);
  button("plotDown")->setEnabled(plot && plots_->currentRow() + 1 < plots_->count());
  button("addChannel")->setEnabled(!available_->selectedItems().isEmpty());
  button("removeChannel")->setEnabled(plot && !chosen_->selectedItems().isEmpty());
  button("channelUp")->setEnabled(plot && chosen_->currentRow() > 0);
  button("channelDown")->setEnabled(plot && chosen_->currentRow() >= 0 && chosen_->currentRow() + 1 < chosen_->count());
}

void ReportSettingsDialog::filterChannels(const QString& text) {
  for (int i = 0; i < available_->count(); ++i)
    available_->item(i)->setHidden(!text.isEmpty() && !available_->item(i)->text().contains(text, Qt::CaseInsensitive));
}

ReportSettingsDialog* openReportSettings(QWidget* parent, Document* doc, const ResultBuffer* results) {
  const Project& pr = doc->project();
  std::vector<std::string> channels;
  if (results)
    for (const auto& c : results->channels()) channels.push_back(c.name);
  if (channels.empty()) {
    try {
      channels = engine::CompiledProject(pr, doc->file().toStdString()).channelNames();
    } catch (const std::exception&) {
      // The dialog says there is no channel list.
    }
  }
  ReportSettings current;
  try {
    current = reportSettings(pr, doc->file().toStdString());
  } catch (const std::exception&) {
    // Unreadable settings in the file: start from the defaults (OK replaces them).
  }
  const QString dir = doc->file().isEmpty() ? QString() : QFileInfo(doc->file()).absolutePath();
  auto* d = new ReportSettingsDialog(current, pr.meta.title, channels, dir, parent);
  d->setAttribute(Qt::WA_DeleteOnClose);
  QObject::connect(d, &QDialog::accepted, doc, [doc, d] {
    const ReportSettings s = d->settings();
    const std::string title = d->title();
    doc->edit(QObject::tr("Report settings"), [&](Project& p) {
      setReportSettings(p, s);
      p.meta.title = title;
    });
  });
  d->open();
  return d;
}

}  // namespace pm::gui
