#include "report_modes.h"

#include <cmath>

namespace pm::gui {

using namespace report_colors;

namespace {

QString sharesText(const Mode& m) {
  QStringList parts;
  for (size_t i = 0; i < m.shares.size() && i < 4; ++i)
    parts << QStringLiteral("%1 %2 %").arg(QString::fromStdString(m.shares[i].object)).arg(std::lround(100 * m.shares[i].share));
  return parts.join(", ");
}

}  // namespace

ModalResult reportModes(const Project& project, const std::string& file, const ReportSettings& settings) {
  ModalOptions o;
  o.at = settings.modesAt;
  o.staticEquilibrium = settings.modesStatic;
  return engine::modal(project, file, o);
}

void modesSection(ReportPage& pg, const ModalResult* modes, const QString& error, int count) {
  pg.heading(QStringLiteral("Modes of the machine"));
  if (!modes) {
    pg.paragraph(QStringLiteral("The modal analysis failed: %1").arg(error), 9.5, QColor(160, 40, 40));
    return;
  }
  int oscillating = 0;
  for (const Mode& m : modes->modes) oscillating += m.oscillating ? 1 : 0;
  const QString at = modes->staticEquilibrium
                         ? QStringLiteral("at its static equilibrium (inputs as at t = %1 s)").arg(modes->t)
                         : QStringLiteral("at the state the run reaches at t = %1 s").arg(modes->t);
  pg.paragraph(QStringLiteral("The whole machine (mechanism, flexible beams, chambers and controllers) linearised %1: "
                              "%2 finite modes, %3 of them oscillating. The lowest %4 oscillating modes, with where "
                              "each mode's motion sits (its share of the scaled state amplitude):")
                   .arg(at)
                   .arg(modes->modes.size())
                   .arg(oscillating)
                   .arg(std::min(count, oscillating)));
  ReportTable t;
  t.caption = QStringLiteral("Lowest modes");
  t.header = QStringList{QStringLiteral("Mode"), QStringLiteral("Frequency [Hz]"), QStringLiteral("Damping ratio"),
                         QStringLiteral("Natural frequency [Hz]"), QStringLiteral("Taking part")};
  t.widths = {0.6, 1.1, 1.0, 1.3, 3.6};
  t.rightAligned = {true, true, true, true, false};
  int shown = 0;
  for (size_t i = 0; i < modes->modes.size() && shown < count; ++i) {
    const Mode& m = modes->modes[i];
    if (!m.oscillating) continue;
    t.rows.push_back(QStringList{QString::number(i + 1), QString::number(m.frequency, 'g', 5),
                                 QString::number(m.dampingRatio, 'g', 3), QString::number(m.naturalFrequency, 'g', 5),
                                 sharesText(m)});
    ++shown;
  }
  if (t.rows.empty()) {
    pg.paragraph(QStringLiteral("No oscillating mode: every mode decays without oscillating."), 9.5, kMuted);
    return;
  }
  pg.table(t, 8);
  pg.paragraph(QStringLiteral("Mode numbers count every finite mode by |lambda|, the non-oscillating ones included "
                              "(`pneumech modal` lists them all)."),
               8, kMuted);
}

}  // namespace pm::gui
