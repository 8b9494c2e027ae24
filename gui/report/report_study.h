// The report's section on a parameter study run in the studio (issue 23):
// what was varied and how, the constraints, the plot the user chose (scatter
// with the Pareto front, or heat map), the table, and the chosen design.
#pragma once

#include "report_page.h"
#include "study_summary.h"

namespace pm::gui {

// Rows beyond this many are left out of the report's table (it says so).
inline constexpr size_t kReportStudyRows = 120;

// The study's plot as the report draws it: the values in the report's
// display units (plotUnit: m -> mm, Pa -> the studio's pressure units,
// kg/s -> Nl/min, N, s as they are), gauge pressures relative to `ambient`
// [Pa]; each axis labelled "<name> [<unit>]" ("[-]": a pure number; a
// catalogue part's index, no unit, keeps its name alone).
StudyPlotData reportStudyPlot(const StudyPlotData& d, double ambient);

void studySection(ReportPage& pg, const StudySummary& study);

}  // namespace pm::gui
