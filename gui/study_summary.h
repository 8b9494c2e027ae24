// A finished (or stopped) study as the PDF report shows it: the table as the
// dialog shows it, the plot the user chose, and the chosen design. The study
// dialog makes it from what the user picked; `pneumech report --study` from
// the study alone (summarizeStudy); the main window keeps the last one for
// File -> Export Report (gui/report/report_study.*). The table's cells are
// written here once, for the dialog and the report alike.
#pragma once

#include "engine/engine.h"
#include "study_plot.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace pm::gui {

struct StudySummary {
  QString description;            // "3 x 3 grid of cyl1.bore, src.p: 9 variants, 0 failed, 4 met the constraints"
  QStringList constraints;        // as written
  QStringList header;             // the table's columns
  std::vector<QStringList> rows;  // one per variant, as the dialog shows them
  StudyPlotData plot;
  int chosenRow = -1;             // the row the user selected, else the best feasible; -1: none
  QString chosen;                 // why and what: "variant 4, cyl1.bore = 40 mm, ..."
};

// The table, the plot and the chosen design show every value in its display
// unit: a parameter in the unit the study dialog's row shows it in (the
// property editor's, units::forTarget), a result as the report's plots
// (gui/plot_unit.h: m -> mm, Pa -> the studio's pressure units gauge
// relative to its ambient, kg/s -> Nl/min); "[-]": a pure number; a
// catalogue part's index shows as the part's name.

// The table's columns: variant, each parameter and each result with its
// display unit ("cyl1.bore [mm]"), feasible, status.
QStringList studyTableHeader(const studies::StudySetup& setup);

// Row `i`'s cells: `point`'s parameter values, then (when `result`) its
// results, feasible and `status`; without a result the result cells are
// empty and the status is `status` ("running", "stopped").
QStringList studyTableRow(const studies::StudySetup& setup, size_t i, const std::vector<double>& point,
                          const studies::VariantResult* result, const QString& status);

// "Grid of cyl1.bore, src.p" (the sampling or the optimiser, and what varies).
QString studyKind(const studies::StudyDefinition& study);

// The feasible variant with the smallest first result (-1: none).
int bestFeasibleRow(const std::vector<studies::VariantResult>& results, const std::vector<bool>& finished = {});

// "variant 4, cyl1.bore = 40 mm, src.p = 5 bar (g)".
QString variantText(const studies::StudySetup& setup, const std::vector<double>& point, int row);

// The plot of `yName` against `xName` (parameters or results) over the
// finished variants; with `heatMap` on a two-parameter grid, `zName` per cell.
StudyPlotData studyPlotData(const studies::StudySetup& setup, const std::vector<std::vector<double>>& points,
                            const std::vector<studies::VariantResult>& results, const std::vector<bool>& finished,
                            const std::string& xName, const std::string& yName, bool heatMap = false,
                            const std::string& zName = {});

// A whole study run without the dialog (`pneumech report --study`): every
// variant finished; the chosen design is `chosenRow` (an optimiser's best)
// or, when -1, the feasible variant with the smallest first result. The plot
// is the first result against the first parameter, or the heat map of the
// first result on a two-parameter grid.
StudySummary summarizeStudy(const studies::StudySetup& setup, const std::vector<std::vector<double>>& points,
                            const std::vector<studies::VariantResult>& results, int chosenRow = -1,
                            const QString& chosenWhy = {});

}  // namespace pm::gui
