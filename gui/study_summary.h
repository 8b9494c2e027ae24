// A finished (or stopped) study as the PDF report shows it: the table as the
// dialog shows it, the plot the user chose, and the chosen design. The study
// dialog makes it; the main window keeps the last one for File -> Export
// Report (gui/report/report_study.*).
#pragma once

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
  QString chosen;                 // why and what: "variant 4: cyl1.bore = 0.04, ..."
};

}  // namespace pm::gui
