// Simulation -> Parameter Study: define a study on the open project (the
// parameters from the components' fields as the property editor shows
// them, each a range with a number of points typed in the parameter's
// display unit, the property editor's, and converted to SI once, when the
// study is built; the key results; optional
// constraints), run its variants on threads with a progress bar and a
// table that fills as they finish, and plot a result against a parameter
// or, with Pareto, two results as objectives with the front marked; a grid
// of two parameters also as a heat map of a result. Besides the grid, the
// variants can be a Latin hypercube, random or Sobol sample of the ranges
// (with a seed). Stop ends a running study: the variants running are
// cancelled, those not started are left out, the finished ones stay.
// The study runs as `pneumech study` would (engine/engine.h: studies::).
#pragma once

#include "engine/engine.h"
#include "study_summary.h"
#include "units.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>

class QComboBox;
class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace pm::gui {

class Document;
class StudyPlot;

class StudyDialog : public QDialog {
  Q_OBJECT
 public:
  explicit StudyDialog(const Document* doc, QWidget* parent = nullptr);
  ~StudyDialog() override;

  bool isRunning() const { return worker_.joinable() && !finished_; }
  bool wasStopped() const { return finished_ && stop_; }
  bool isFinished() const { return finished_; }
  QTableWidget* table() const { return table_; }
  StudyPlot* plot() const { return plot_; }
  // The study as the form defines it (the "studies" entry's JSON, in SI);
  // nothing on bad input, with `error` naming the row and the field.
  std::optional<nlohmann::json> studyJson(QString* error = nullptr) const;
  // The study last built by run() (nullptr: none yet).
  const studies::StudySetup* setup() const { return setup_.get(); }
  // The finished study for the report (empty rows: none run yet).
  StudySummary summary() const;

 public slots:
  void addParameterRow();
  void run();
  void stop();

 signals:
  void studyFinished();

 private:
  void variantDone(size_t index, const studies::VariantResult& result);
  void finish();
  void updatePlot();
  void fillAxisChoices();
  void updateSamplingFields();
  bool heatMapPossible() const;
  void fillTable();
  // The parameter rows: what each names, the unit its From and To are in.
  int rowOf(const QWidget* cellWidget) const;
  QLineEdit* cell(int row, int column) const;
  QComboBox* unitBox(int row) const;
  std::optional<OverrideTarget> target(int row) const;
  units::DisplayUnit rowUnit(int row) const;
  void showUnit(int row, const OverrideTarget& target, const units::DisplayUnit& du);
  std::optional<double> cellSi(int row, int column, const units::DisplayUnit& du, QString* error) const;
  void pathChanged(int row);
  void unitChosen(int row);
  void unitsChanged();

  const Document* doc_;
  QTableWidget* params_ = nullptr;
  QLineEdit* results_ = nullptr;
  QLineEdit* constraints_ = nullptr;
  QSpinBox* jobs_ = nullptr;
  QComboBox* sampling_ = nullptr;
  QSpinBox* samples_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* stopButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QTableWidget* table_ = nullptr;
  QComboBox* xAxis_ = nullptr;
  QComboBox* yAxis_ = nullptr;
  QCheckBox* pareto_ = nullptr;
  QCheckBox* heatMap_ = nullptr;
  QComboBox* heatValue_ = nullptr;
  StudyPlot* plot_ = nullptr;

  std::shared_ptr<studies::StudySetup> setup_;
  std::vector<std::vector<double>> points_;
  std::vector<studies::VariantResult> results_done_;
  std::vector<bool> have_;
  std::thread worker_;
  std::atomic<bool> finished_{false};
  std::atomic<bool> stop_{false};
  size_t doneCount_ = 0;
};

}  // namespace pm::gui
