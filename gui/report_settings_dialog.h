// Report settings (File -> Report Settings): the report's title and company,
// the cycle rate for the air per minute, and its plots: added, removed, reordered, titled, each with
// channels picked from the run's channel list. The dialog edits a copy;
// the caller applies settings() and title() to the project through the
// undo stack (see MainWindow::reportSettingsDialog).
#pragma once

#include "engine/engine.h"

#include <QDialog>

#include <string>
#include <vector>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace pm::gui {

class Document;
class ResultBuffer;

class ReportSettingsDialog : public QDialog {
  Q_OBJECT
 public:
  // `channels`: the names a plot can show (the last run's, else the compiled
  // project's); `projectDir` resolves a relative logo for the preview check.
  ReportSettingsDialog(const ReportSettings& settings, const std::string& title,
                       const std::vector<std::string>& channels, const QString& projectDir,
                       QWidget* parent = nullptr);

  ReportSettings settings() const;
  std::string title() const;

  // For tests and keyboard users alike: the widgets by role.
  QListWidget* plotList() const { return plots_; }
  QListWidget* availableList() const { return available_; }
  QListWidget* plotChannelList() const { return chosen_; }
  QLineEdit* plotTitleEdit() const { return plotTitle_; }
  QLineEdit* titleEdit() const { return title_; }
  QLineEdit* companyEdit() const { return company_; }
  QPushButton* button(const QString& objectName) const;

 private:
  void addPlot();
  void removePlot();
  void movePlot(int by);
  void addChannels();
  void removeChannels();
  void moveChannel(int by);
  void showPlot();
  void refreshPlotRow(int row);
  void updateButtons();
  void filterChannels(const QString& text);
  QString plotText(const ReportPlot& p) const;

  std::vector<ReportPlot> plotsData_;
  QString projectDir_;
  QLineEdit* title_;
  QLineEdit* company_;
  std::string logo_;  // an older file's report.logo, kept (Project Properties edits meta.logo)
  QDoubleSpinBox* cpm_;
  ReportSettings kept_;  // what the dialog does not edit
  QCheckBox* modes_;
  QSpinBox* modeCount_;
  QListWidget* plots_;
  QLineEdit* plotTitle_;
  QLineEdit* filter_;
  QListWidget* available_;
  QListWidget* chosen_;
  QLabel* note_;
};

// Opens the dialog (window-modal, deleted on close) on the document's
// project; OK applies it as one undoable edit "Report settings". Channels
// come from `results` when it holds a run, else from compiling the project.
ReportSettingsDialog* openReportSettings(QWidget* parent, Document* doc, const ResultBuffer* results);

}  // namespace pm::gui
