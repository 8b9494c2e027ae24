// The key results of a run (core/results/key_results.h) as tables of display
// text, and the studio's "Key Results" tab that shows them when a run has
// finished. The PDF report (gui/report/report_export.cpp) draws the same
// tables, so the studio and the report show the same figures, rounding and
// units (pressures in the studio's pressure scale, View > Pressure Units).
#pragma once

#include "model/project.h"
#include "engine/engine.h"
#include "units.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QScrollArea;
class QTableWidget;
class QToolButton;
class QVBoxLayout;

namespace pm::gui {

class ResultBuffer;

// "1A1 (cyl1)", or the id alone when there is no label.
QString labelledName(const std::string& label, const std::string& id);

struct KeyResultTable {
  QString key;  // "machine", "cylinder:<id>", "peaks", "joints", "contacts", "latches"
  QString caption;
  QStringList header;          // a column's quantity and "[unit]" on two lines
  std::vector<double> widths;  // relative widths for the report; empty: as wide as the cells
  std::vector<bool> rightAligned;
  std::vector<QStringList> rows;
  QString note;  // a remark under the table (empty: none)
};

// The unit absolute pressures [Pa] of `kr` are shown in: the studio's scale,
// gauge relative to the run's ambient pressure.
units::DisplayUnit keyResultPressureUnit(const KeyResults& kr);

struct KeyResultTableOptions {
  bool cyclesStated = false;    // the cycles per minute come from the report settings, not the run repeated
  bool initialFilling = false;  // a machine row with the air of the initial filling (not counted)
};

// The tables in the report's order: machine, one per cylinder, cylinder
// peaks, joint reactions, contacts, latches (the last four only when the
// run has such objects).
std::vector<KeyResultTable> keyResultTables(const KeyResults& kr, const KeyResultTableOptions& options);

// The definitions the tables use (stroke, time from signal, impact), and
// the pressures' reference.
QString keyResultDefinitions(const KeyResults& kr);

// The "Key Results" tab of the results dock: empty before a run, "running"
// during one, the tables once it has finished (computed from every row of
// the run's key channels, ResultBuffer::fullRows, when the tab is first
// shown), shown again in the new unit when the pressure scale changes.
class KeyResultsView : public QWidget {
  Q_OBJECT
 public:
  explicit KeyResultsView(ResultBuffer* data, QWidget* parent = nullptr);

  // Another project is shown (New, Open): no results.
  void clear();
  // A run of `project` starts: its results replace the shown ones when it ends.
  void startRun(const Project& project);
  // The run has ended: the key results are computed from its rows.
  void finishRun();

  // The shown key results (null: none yet, or the run gave none).
  const KeyResults* results() const { return kr_ ? &*kr_ : nullptr; }
  // The table shown for `key` (KeyResultTable::key), or null.
  QTableWidget* table(const QString& key) const;
  // What the view says above the tables: no run, running, the run's end, an error.
  QString status() const;
  // The key results as `pneumech results` prints them, to the clipboard.
  void copyText() const;

 protected:
  void showEvent(QShowEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void compute();
  void rebuild();
  void fitText();

  ResultBuffer* data_;
  Project project_;  // the run's (edits after it do not change its results)
  std::optional<KeyResults> kr_;
  bool pending_ = false;  // a run ended; computed when the tab is shown
  bool cyclesStated_ = false;  // the report settings give the cycles per minute
  QLabel* status_;
  QToolButton* copy_;
  QScrollArea* scroll_;
  QWidget* content_;
  QVBoxLayout* sections_;
};

}  // namespace pm::gui
