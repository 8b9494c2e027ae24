#include "report_study.h"

#include "report_plot.h"

namespace pm::gui {

using namespace report_colors;

void studySection(ReportPage& pg, const StudySummary& s) {
  if (s.rows.empty()) return;
  pg.heading(QStringLiteral("Parameter study"));
  pg.paragraph(s.description.isEmpty() ? QStringLiteral("A parameter study of this project.") : s.description + ".");
  if (!s.constraints.isEmpty()) pg.bullets(QStringList{QStringLiteral("Constraints: ") + s.constraints.join("; ")});
  pg.paragraph(QStringLiteral("Chosen design. ") + s.chosen, 9.5, kAccent);
  const double mm1 = ReportPage::mm(1.0);
  // One screen pixel of the dialog's plot is 1/96 inch here.
  const double px = ReportPage::kDpi / 96.0;
  const StudyPlotData& plot = s.plot;  // in display units, as the dialog shows it
  const QString caption =
      plot.heatMap ? QStringLiteral("Heat map: one cell per variant of the grid, coloured by %1; crossed cells did not "
                                      "meet the constraints, grey ones failed or were not run.")
                           .arg(plot.zLabel)
                     : QStringLiteral("Each finished variant: %1 against %2; filled points met the constraints.%3")
                           .arg(plot.yLabel, plot.xLabel,
                                plot.pareto ? QStringLiteral(" The red line joins the Pareto front (both minimised).")
                                              : QString());
  // 80 mm high, down to 60 mm to end a page.
  pg.figure(
      ReportPage::mm(80), ReportPage::mm(60),
      [&](QPainter& p, const QRectF& r) {
        p.save();
        p.setFont(pg.font(8));
        p.setPen(QPen(kInk, 0.25 * mm1));
        drawStudyPlot(p, r.adjusted(0, mm1, 0, -mm1), plot, px);
        p.restore();
      },
      caption);
  ReportTable t;
  t.caption = QStringLiteral("Study table");
  t.header = s.header;
  // (no widths: columns as wide as their cells and headers measure, headers wrapped)
  t.rightAligned.assign(size_t(s.header.size()), true);
  if (!t.rightAligned.empty()) t.rightAligned.back() = false;
  for (size_t i = 0; i < s.rows.size() && i < kReportStudyRows; ++i) {
    QStringList row = s.rows[i];
    if (int(i) == s.chosenRow && !row.isEmpty()) row[0] += QStringLiteral(" (chosen)");
    t.rows.push_back(row);
  }
  pg.table(t, 7.5);
  if (s.rows.size() > kReportStudyRows)
    pg.paragraph(QStringLiteral("The first %1 of %2 variants; the study dialog and `pneumech study` give the whole table.")
                     .arg(kReportStudyRows)
                     .arg(s.rows.size()),
                 8, kMuted);
}

}  // namespace pm::gui
