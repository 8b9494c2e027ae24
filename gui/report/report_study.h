// The report's section on a parameter study run in the studio (issue 23):
// what was varied and how, the constraints, the plot the user chose (scatter
// with the Pareto front, or heat map), the table, and the chosen design.
#pragma once

#include "report_page.h"
#include "study_summary.h"

namespace pm::gui {

// Rows beyond this many are left out of the report's table (it says so).
inline constexpr size_t kReportStudyRows = 120;

void studySection(ReportPage& pg, const StudySummary& study);

}  // namespace pm::gui
