#include "report_export.h"

#include "displacement_step_view.h"
#include "key_results_view.h"
#include "mechanism_snapshot.h"
#include "engine/engine.h"
#include "engine/expanded_view.h"
#include "report_circuit.h"
#include "report_page.h"
#include "report_modes.h"
#include "report_plot.h"
#include "report_study.h"
#include "units.h"

#include <QBuffer>
#include <QDate>
#include <QDir>
#include <QLocale>
#include <QFileInfo>
#include <QImage>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <optional>

namespace pm::gui {

using namespace report_colors;

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
QString num(double v, int decimals) { return QString::number(v, 'f', decimals); }
double mm(double v) { return ReportPage::mm(v); }

struct Inputs {
  const Project& project;
  const ResultStore& results;
  const KeyResults& kr;
  const ReportSettings& settings;
  QImage logo;
  QString date;
  QImage snapshot;       // the mechanism at the end of the run (null when not rendered)
  QString snapshotNote;  // why there is none
  double snapshotTime = 0.0;
  std::vector<Verdict> verdicts;  // the conclusion, cycle time first
  const StudySummary* study = nullptr;
  bool studyOnly = false;  // the report of a study alone (exportStudyReport)
  std::optional<ModalResult> modes;  // when the settings ask for them and they were found
  QString modesError;                // why they were not
};

// An absolute pressure [Pa] in the studio's pressure units, gauge relative to `ambient`.
units::DisplayUnit pressureUnit(double ambient) {
  return units::pressureUnit(units::PressureKind::Absolute, units::UnitSettings::instance().pressureScale(), ambient);
}

// The same setting for the core-written prose (bill of materials, conclusion).
PressureReference pressureReference() {
  return units::UnitSettings::instance().pressureScale() == units::PressureScale::Absolute ? PressureReference::Absolute
                                                                                           : PressureReference::Gauge;
}

double param(const Component& c, const std::string& n) {
  const ComponentType* t = Registry::instance().find(c.type);
  return t && t->param(n) ? paramValue(c, *t, n) : 0.0;
}

// "1A1 piston position" for "cyl1.x": the object's code and the channel's
// description from the registry (the channel name when unknown).
QString channelLabel(const Project& pr, const std::string& channel) {
  const auto dot = channel.rfind('.');
  if (dot == std::string::npos) return q(channel);
  const std::string id = channel.substr(0, dot), quantity = channel.substr(dot + 1);
  const Component* c = pr.find(id);
  if (!c) return q(channel);
  const ComponentType* t = Registry::instance().find(c->type);
  QString what = q(quantity);
  if (t)
    for (const auto& d : t->channels)
      if (d.quantity == quantity) what = q(d.doc);
  return (c->label.empty() ? q(id) : q(c->label)) + " " + what;
}

// ------------------------------------------------------------------ title page

// The run's key figures for the title page.
std::vector<std::pair<QString, QString>> runGlance(const Inputs& in) {
  std::vector<std::pair<QString, QString>> glance;
  const KeyResults& kr = in.kr;
  if (kr.hasCycle)
    glance.push_back({kr.cycleClosed ? "Cycle time" : "Motion time", num(kr.cycleTime(), 3) + " s"});
  if (const double req = in.project.meta.requiredCycleTime; req > 0) {
    const Verdict& v = in.verdicts.front();  // the cycle time's (conclusions() lists it first)
    glance.push_back({"Required cycle time", num(req, 3) + " s" +
                                                 (v.status == VerdictStatus::Met      ? QStringLiteral(", met")
                                                  : v.status == VerdictStatus::NotMet ? QStringLiteral(", not met")
                                                                                      : QStringLiteral(", not checked"))});
  }
  if (!kr.supplies.empty()) {
    glance.push_back({"Air per cycle", num(kr.airNormalLitres, 3) + " Nl"});
    glance.push_back({"Air at " + units::formatNumber(kr.cyclesPerMinute) + " cycles/min",
                      num(kr.airNormalLitresPerMinute(), 1) + " Nl/min"});
  }
  double eMax = 0, vMax = 0;
  for (const auto& cy : kr.cylinders)
    for (const auto& s : cy.strokes) eMax = std::max(eMax, s.eArrival), vMax = std::max(vMax, s.vArrival);
  if (!kr.cylinders.empty()) {
    glance.push_back({"Highest impact speed", num(vMax, 3) + " m/s"});
    glance.push_back({"Highest impact energy", num(eMax, 3) + " J"});
  }
  return glance;
}

// A study's counts and its chosen variant for the title page.
std::vector<std::pair<QString, QString>> studyGlance(const StudySummary& s) {
  size_t failed = 0, feasible = 0;
  const int feasibleColumn = int(s.header.size()) - 2, statusColumn = int(s.header.size()) - 1;
  for (const QStringList& row : s.rows) {
    if (row.size() <= statusColumn) continue;
    failed += row[statusColumn] != QStringLiteral("ok");
    feasible += row[feasibleColumn] == QStringLiteral("1");
  }
  std::vector<std::pair<QString, QString>> glance = {{"Variants run", QString::number(s.rows.size())},
                                                     {"Failed", QString::number(failed)}};
  if (!s.constraints.isEmpty()) glance.push_back({"Met the constraints", QString::number(feasible)});
  glance.push_back({"Chosen design", s.chosenRow < 0 ? QStringLiteral("none") : "variant " + QString::number(s.chosenRow)});
  return glance;
}

void titlePage(ReportPage& pg, const Inputs& in) {
  QPainter& p = pg.painter();
  const QRectF c = pg.content();
  pg.setHeaderOnThisPage(false);
  const double top = mm(18);
  // Company and logo.
  if (!in.logo.isNull()) {
    const QSizeF box(mm(45), mm(22));
    QSizeF s = in.logo.size();
    s.scale(box, Qt::KeepAspectRatio);
    p.drawImage(QRectF(QPointF(c.right() - s.width(), top), s), in.logo);
  }
  p.setFont(pg.font(13, true));
  p.setPen(kAccent);
  p.drawText(QRectF(c.left(), top, c.width() * 0.6, mm(10)), Qt::AlignLeft | Qt::AlignVCenter,
             in.settings.company.empty() ? QStringLiteral("PneuMech Studio") : q(in.settings.company));
  p.setPen(QPen(kAccent, mm(0.8)));
  p.drawLine(QPointF(c.left(), top + mm(26)), QPointF(c.right(), top + mm(26)));

  double y = mm(68);
  p.setFont(pg.font(10, true));
  p.setPen(kMuted);
  p.drawText(QPointF(c.left(), y), in.studyOnly ? QStringLiteral("PARAMETER STUDY REPORT") : QStringLiteral("SIMULATION REPORT"));
  y += mm(5);
  const QString title = in.project.meta.title.empty() ? QStringLiteral("Untitled project") : q(in.project.meta.title);
  const QFont tf = pg.font(20, true);
  const double th = pg.textHeight(title, tf, c.width());
  p.setFont(tf);
  p.setPen(kInk);
  p.drawText(QRectF(c.left(), y, c.width(), th), Qt::TextWordWrap, title);
  y += th + mm(10);

  // Project data.
  const auto& m = in.project.meta;
  const std::vector<std::pair<QString, QString>> rows = {
      {"Customer", m.customer.empty() ? QStringLiteral("—") : q(m.customer)},
      {"Prepared by", m.author.empty() ? QStringLiteral("—") : q(m.author)},
      {"Date", in.date},
      {"Software", QStringLiteral("PneuMech Studio ") + PM_VERSION},
  };
  p.setFont(pg.font(10));
  for (const auto& [k, v] : rows) {
    p.setPen(kMuted);
    p.drawText(QRectF(c.left(), y, mm(35), mm(6)), Qt::AlignLeft | Qt::AlignVCenter, k);
    p.setPen(kInk);
    p.drawText(QRectF(c.left() + mm(35), y, c.width() - mm(35), mm(6)), Qt::AlignLeft | Qt::AlignVCenter, v);
    y += mm(7);
  }
  y += mm(8);

  const std::vector<std::pair<QString, QString>> glance = in.studyOnly ? studyGlance(*in.study) : runGlance(in);
  const double boxH = mm(12) + mm(7) * double(glance.size());
  const QRectF box(c.left(), y, c.width(), boxH);
  p.fillRect(box, kHeaderFill);
  p.fillRect(QRectF(box.left(), box.top(), mm(1.5), box.height()), kAccent);
  p.setFont(pg.font(10.5, true));
  p.setPen(kAccent);
  p.drawText(QRectF(box.left() + mm(6), y + mm(3), box.width(), mm(6)), Qt::AlignLeft | Qt::AlignVCenter,
             in.studyOnly ? QStringLiteral("The study at a glance") : QStringLiteral("Results at a glance"));
  double gy = y + mm(10);
  for (const auto& [k, v] : glance) {
    p.setFont(pg.font(10));
    p.setPen(kInk);
    p.drawText(QRectF(box.left() + mm(6), gy, mm(80), mm(6)), Qt::AlignLeft | Qt::AlignVCenter, k);
    p.setFont(pg.font(10, true));
    p.drawText(QRectF(box.left() + mm(80), gy, mm(50), mm(6)), Qt::AlignRight | Qt::AlignVCenter, v);
    gy += mm(7);
  }
  y += boxH + mm(10);

  if (!m.description.empty()) {
    p.setFont(pg.font(10, true));
    p.setPen(kInk);
    p.drawText(QPointF(c.left(), y), QStringLiteral("The machine"));
    y += mm(3);
    const QFont df = pg.font(8.5);
    const QString d = q(m.description);
    const double dh = std::min(pg.textHeight(d, df, c.width()), c.bottom() - y);
    p.setFont(df);
    p.setPen(QColor(60, 60, 60));
    p.drawText(QRectF(c.left(), y, c.width(), dh), Qt::TextWordWrap, d);
  }
}

// ------------------------------------------------------------------ sections

void circuitSection(ReportPage& pg, const Inputs& in) {
  pg.newPage();
  pg.heading(QStringLiteral("Circuit diagram"));
  const QRectF b = circuitBounds(in.project);
  if (b.isEmpty()) {
    pg.paragraph(QStringLiteral("The project has no components."));
    return;
  }
  const QString caption = QStringLiteral("Figure 1: pneumatic circuit to ISO 1219-1, components identified to "
                                         "ISO 1219-2; valves in their rest position, cylinders retracted.");
  const double w = pg.content().width();
  const double h = std::min({pg.remaining() - pg.captionHeight(caption), w * b.height() / b.width(), mm(185)});
  pg.figure(
      h, h,
      [&](QPainter& p, const QRectF& r) {
        p.setPen(QPen(kRule, mm(0.25)));
        p.drawRect(r);
        paintCircuit(p, in.project, r.adjusted(mm(6), mm(6), -mm(6), -mm(6)));
      },
      caption);
}

void mechanismSection(ReportPage& pg, const Inputs& in) {
  if (in.project.mechanism.empty()) return;
  const QSizeF s = in.snapshot.size();
  const double w = pg.content().width();
  // The picture at full width, or down to 70 % of it to end the page.
  const double h = in.snapshot.isNull() ? 0.0 : w * s.height() / s.width(), minH = 0.7 * h;
  const QString caption = QStringLiteral("The mechanism (%1 parts, %2 joints) at t = %3 s, the end of the run.")
                              .arg(in.project.mechanism.parts.size())
                              .arg(in.project.mechanism.joints.size())
                              .arg(num(in.snapshotTime, 3));
  pg.heading(QStringLiteral("Mechanism"), in.snapshot.isNull() ? 0.0 : minH + pg.captionHeight(caption));
  if (in.snapshot.isNull()) {
    pg.paragraph(QStringLiteral("No 3D view in this report: ") + in.snapshotNote +
                     QStringLiteral(". Export the report from the studio, or run `pneumech report` with a display "
                                    "(xvfb-run is enough), to include it."),
                 9, kMuted);
    return;
  }
  pg.figure(
      h, minH,
      [&](QPainter& p, const QRectF& r) {
        QSizeF fit = s;
        fit.scale(r.size(), Qt::KeepAspectRatio);
        const QRectF img(QPointF(r.center().x() - fit.width() / 2, r.top()), fit);
        p.drawImage(img, in.snapshot);
        p.setPen(QPen(kRule, mm(0.25)));
        p.drawRect(img);
      },
      caption);
}

// Does the machine do what the customer asked: cycle time, cushioning, and
// why a chamber's pressure exceeds the supply's (core/results/conclusion.h).
void conclusionSection(ReportPage& pg, const Inputs& in) {
  pg.heading(QStringLiteral("Conclusion"));
  QStringList items, notes;
  for (const Verdict& v : in.verdicts)
    (v.status == VerdictStatus::Note ? notes : items) << (v.status == VerdictStatus::Note ? q(v.text)
                                                                                            : q(v.topic) + ": " + q(v.text));
  pg.bullets(items);
  if (!notes.isEmpty()) {
    pg.subheading(QStringLiteral("Pressures above the supply pressure"));
    pg.bullets(notes);
  }
}

void keyResultsSection(ReportPage& pg, const Inputs& in) {
  pg.skip(mm(4));
  pg.heading(QStringLiteral("Key results"));
  for (const KeyResultTable& t : keyResultTables(in.kr, {.cyclesStated = in.settings.cyclesPerMinute > 0})) {
    pg.table(ReportTable{t.header, t.widths, t.rows, t.rightAligned, t.caption});
    if (!t.note.isEmpty()) pg.paragraph(t.note, 8, kMuted);
  }
  pg.paragraph(keyResultDefinitions(in.kr), 8, kMuted);
}

void plotsSection(ReportPage& pg, const Inputs& in) {
  const auto plots = reportPlots(in.project, in.settings);
  if (plots.empty()) return;
  // Plots are 66 mm high, down to 50 mm to end a page.
  constexpr double kPlotH = 66, kPlotMinH = 50;
  pg.heading(QStringLiteral("Time histories"), mm(kPlotMinH));
  int n = 0;
  for (const ReportPlot& plot : plots) {
    auto series = plotSeries(in.results, plot.channels, in.kr.ambientPressure);
    if (series.empty()) continue;
    QString title;
    for (auto& s : series) {
      s.name = channelLabel(in.project, s.name.toStdString());
      title += (title.isEmpty() ? "" : ", ") + s.name;
    }
    if (!plot.title.empty()) title = q(plot.title);
    title = QStringLiteral("Figure %1: %2").arg(2 + n++).arg(title);
    pg.figure(
        mm(kPlotH), mm(kPlotMinH), [&](QPainter& p, const QRectF& r) { paintPlot(p, r, mm(1), title, series); }, title,
        true);
    pg.skip(mm(3));
  }
}

// For sequence-controlled circuits: the displacement-step diagram of the run.
void displacementStepSection(ReportPage& pg, const Inputs& in) {
  const std::string seq = firstSequence(in.project);
  if (seq.empty()) return;
  DisplacementStepDiagram d;
  QString error;
  try {
    d = displacementStepDiagram(in.project, in.results, seq);
  } catch (const std::exception& e) {
    error = q(e.what());
  }
  const QString caption =
      QStringLiteral("Displacement-step diagram to VDI 3260 of the sequence %1: the steps in the order the sequence "
                     "entered them (with the time each was entered), each actuator's position between retracted (0) "
                     "and extended (1), taken at the first output sample of each step.")
          .arg(labelledName(in.project.find(seq) ? in.project.find(seq)->label : std::string(), seq));
  // 30 mm per actuator (at most a page), down to 75 % of it to end a page.
  const double h = std::min(pg.content().height() - mm(40) - pg.captionHeight(caption),
                            mm(14) + mm(30) * double(std::max<size_t>(1, d.actuators.size())));
  pg.heading(QStringLiteral("Displacement-step diagram"), error.isEmpty() ? 0.75 * h + pg.captionHeight(caption) : 0.0);
  if (!error.isEmpty()) {
    pg.paragraph(QStringLiteral("Not available: ") + error);
    return;
  }
  pg.figure(h, 0.75 * h, [&](QPainter& p, const QRectF& r) { paintDisplacementStep(p, r, mm(1), d, in.project); },
            caption);
}

void billOfMaterialsSection(ReportPage& pg, const Inputs& in) {
  pg.heading(QStringLiteral("Bill of materials"));
  ReportTable t;
  t.header = {"Item", "Code", "Component", "Size (catalogue terms)", "Part number"};
  t.widths = {0.65, 0.75, 3.1, 3.9, 1.6};
  int item = 0;
  for (const BomItem& b : billOfMaterials(in.project, in.settings, pressureReference()))
    t.rows.push_back({QString::number(++item), q(b.code), q(b.function), q(b.size),
                      b.part.empty() ? QStringLiteral("—") : q(b.part)});
  pg.table(t);
  // ISO 6358's conditions: 6 to 5 bar gauge over the standard 1.01325 bar ambient.
  const PressureText iso{pressureReference(), units::kStandardAmbient};
  pg.paragraph(QStringLiteral("Nominal flow: ISO 6358 flow from %1 to %2 %3 in normal litres per minute "
                              "(ISO 8778: 20 °C, 1 bar, ρ = 1.185 kg/m³), as valve catalogues quote it. Part numbers "
                              "where a catalogue entry was chosen.")
                   .arg(QString::number(iso.bar(units::kStandardAmbient + 6e5), 'g', 5))
                   .arg(QString::number(iso.bar(units::kStandardAmbient + 5e5), 'g', 5))
                   .arg(q(iso.unit())),
               8, kMuted);
}

void assumptions(ReportPage& pg, const Inputs& in) {
  pg.heading(QStringLiteral("Assumptions"));
  // As the compiler sees it: a sub-circuit's supplies and cylinders
  // (`<instance>.<inner id>`) are listed with their own parameters.
  std::optional<Project> flat;
  const Project& pr = engine::expandedView(in.project, flat);
  const auto& s = pr.simulation;
  QStringList items;
  for (const Component& c : pr.components)
    if (c.type == "supply")
      items << "Supply " + labelledName(c.label, c.id) + ": " + units::formatNumber(pressureUnit(s.ambient_pressure).toDisplay(param(c, "p"))) +
                   " " + pressureUnit(s.ambient_pressure).unit + ", " + units::formatNumber(param(c, "T") - 273.15) +
                   " °C, constant.";
  // The ambient is the reference of gauge values: absolute in either setting.
  items << "Ambient: " + units::formatNumber(s.ambient_pressure / 1e5) + " bar (abs), " +
               units::formatNumber(s.ambient_temperature - 273.15) + " °C.";
  items << QStringLiteral("Gas model: air as an ideal gas, R = %1 J/(kg K), κ = %2; every chamber and line volume has a "
                          "mass and an energy balance (pressure and temperature states).")
               .arg(engine::airConstants().R)
               .arg(engine::airConstants().kappa);
  items << QStringLiteral("Flow through valves, flow controls and restrictions: ISO 6358 (sonic conductance C, critical "
                          "pressure ratio b); valve switching times as listed in the bill of materials.");
  for (const Component& c : pr.components) {
    if (!isCylinderType(c.type)) continue;
    const bool iso = param(c, "isothermal") > 0.5;
    const bool heat = param(c, "hA_A") > 0 || param(c, "hA_B") > 0;
    items << "Cylinder " + labelledName(c.label, c.id) + ": friction " + units::formatNumber(param(c, "F_coulomb")) +
                 " N Coulomb, " + units::formatNumber(param(c, "F_static")) + " N static (breakaway), Stribeck velocity " +
                 units::formatNumber(param(c, "v_stribeck") * 1e3) + " mm/s, viscous " +
                 units::formatNumber(param(c, "c_viscous")) + " N s/m; external load " +
                 units::formatNumber(param(c, "F_load")) + " N opposing extension; end stops " +
                 units::formatNumber(param(c, "k_stop")) + " N/m, " + units::formatNumber(param(c, "c_stop")) +
                 " N s/m; chambers " + (iso ? "isothermal" : heat ? "with wall heat transfer" : "adiabatic") + ".";
  }
  if (!pr.mechanism.empty()) {
    const auto& g = pr.mechanism.gravity;
    items << QStringLiteral("Mechanism: %1 rigid parts, %2 joints (ideal, without friction), gravity (%3, %4, %5) m/s²; "
                            "cylinders coupled to it act through their rods.")
                 .arg(pr.mechanism.parts.size())
                 .arg(pr.mechanism.joints.size())
                 .arg(units::formatNumber(g[0]), units::formatNumber(g[1]), units::formatNumber(g[2]));
  }
  items << QStringLiteral("Air consumption in normal litres to ISO 8778 (20 °C, 100 kPa, 65 % relative humidity, "
                          "ρ = %1 kg/m³): the mass the supplies deliver from the start of the cycle (%2 s, the first "
                          "valve command) to the end of the run. The initial filling of the circuit before it (%3 Nl), "
                          "which a machine in production does not repeat, is not counted.")
               .arg(engine::airConstants().rho0)
               .arg(num(in.kr.airFrom, 3))
               .arg(num(normalLitres(in.kr.airMassBeforeCycle), 3));
  items << QStringLiteral("Solver: one DAE of the whole system, SUNDIALS IDA (variable-order BDF), relative tolerance "
                          "%1, run 0 to %2 s, results every %3 ms.")
               .arg(s.rel_tol)
               .arg(units::formatNumber(s.t_end))
               .arg(units::formatNumber(s.output_interval * 1e3));
  pg.bullets(items);
}

void compose(ReportPage& pg, const Inputs& in) {
  titlePage(pg, in);
  circuitSection(pg, in);
  mechanismSection(pg, in);
  conclusionSection(pg, in);
  keyResultsSection(pg, in);
  plotsSection(pg, in);
  displacementStepSection(pg, in);
  if (in.study) studySection(pg, *in.study);
  if (in.settings.modes > 0) modesSection(pg, in.modes ? &*in.modes : nullptr, in.modesError, in.settings.modes);
  billOfMaterialsSection(pg, in);
  assumptions(pg, in);
}

// The project's logo (meta.logo), else that of older files' report section;
// a relative path is the project file's folder's. Null when there is none.
QImage reportLogo(const Project& project, const ReportSettings& settings, const QString& projectFile) {
  QImage img;
  const bool metaLogo = !project.meta.logo.empty();
  if (!metaLogo && settings.logo.empty()) return img;
  QString path = q(metaLogo ? project.meta.logo : settings.logo);
  if (QFileInfo(path).isRelative() && !projectFile.isEmpty()) path = QFileInfo(projectFile).dir().filePath(path);
  if (!img.load(path))
    throw ProjectError(projectFile.toStdString(), metaLogo ? "meta" : "report", "logo",
                       "cannot read the image " + path.toStdString());
  return img;
}

// Paints `in` with `composer` into `pdfPath` (atomically): a first pass
// counts the pages for "page n of N".
bool writePdf(const Inputs& in, const ReportSettings& settings, void (*composer)(ReportPage&, const Inputs&),
              const QString& pdfPath, QString* error, int* pages, ReportLayout* layout = nullptr) {
  auto fail = [&](const QString& m) {
    if (error) *error = m;
    return false;
  };
  const QString title = q(in.project.meta.title);
  const QString right = settings.company.empty() ? QString() : q(settings.company);
  const QString foot = QStringLiteral("PneuMech Studio %1 · %2").arg(PM_VERSION, in.date);
  QBuffer scratch;
  scratch.open(QIODevice::WriteOnly);
  int total = 0;
  {
    ReportPage pg(&scratch, title, right, foot, 0);
    if (!pg.ok()) return fail(QStringLiteral("cannot start the PDF painter"));
    composer(pg, in);
    total = pg.pageNumber();
  }
  QSaveFile out(pdfPath);
  if (!out.open(QIODevice::WriteOnly)) return fail("cannot write " + pdfPath + ": " + out.errorString());
  {
    ReportPage pg(&out, title, right, foot, total);
    composer(pg, in);
    if (layout) *layout = pg.layout();
  }
  if (!out.commit()) return fail("cannot write " + pdfPath + ": " + out.errorString());
  if (pages) *pages = total;
  return true;
}

// How each variant of a study was computed.
void studyMethod(ReportPage& pg, const Inputs& in) {
  pg.heading(QStringLiteral("Method"));
  const auto& s = in.project.simulation;
  pg.bullets({QStringLiteral("Each variant is a whole simulation of the project above with the study's parameter values "
                             "set, as `pneumech simulate --set` sets them; its key results are read off its run."),
              QStringLiteral("Solver: one DAE of the whole system, SUNDIALS IDA (variable-order BDF), relative tolerance "
                             "%1, run 0 to %2 s.")
                  .arg(s.rel_tol)
                  .arg(units::formatNumber(s.t_end)),
              QStringLiteral("Air consumption in normal litres to ISO 8778 (ρ = %1 kg/m³); flow through valves and "
                             "restrictions to ISO 6358.")
                  .arg(engine::airConstants().rho0)});
}

void composeStudy(ReportPage& pg, const Inputs& in) {
  titlePage(pg, in);
  circuitSection(pg, in);
  studySection(pg, *in.study);
  studyMethod(pg, in);
}

}  // namespace

bool exportReport(const Project& project, const ResultStore& results, const QString& pdfPath, QString* error,
                  const QString& projectFile, int* pages, const StudySummary* study, const ResultStore* keyRows,
                  ReportLayout* layout) {
  try {
    const std::string file = projectFile.toStdString();
    const ReportSettings settings = reportSettings(project, file);
    // Gauge pressures are relative to this project's ambient pressure.
    units::UnitSettings::instance().setAmbient(project.simulation.ambient_pressure);
    std::vector<std::string> names;
    for (const auto& c : results.channels()) names.push_back(c.name);
    checkPlotChannels(settings, names, file);
    KeyResultOptions opt;
    opt.cyclesPerMinute = settings.cyclesPerMinute;
    const ResultStore& full = keyRows ? *keyRows : results;
    const KeyResults kr = engine::keyResults(project, full, opt);
    Inputs in{project, results, kr, settings, QImage(), QLocale::c().toString(QDate::currentDate(), "d MMMM yyyy"),
              QImage(), QString(), 0.0, conclusions(project, full, kr, pressureReference()), study, false,
              std::nullopt, QString()};
    in.logo = reportLogo(project, settings, projectFile);
    if (!project.mechanism.empty()) {
      const QString dir = projectFile.isEmpty() ? QString() : QFileInfo(projectFile).absolutePath();
      in.snapshotTime = results.rows() ? results.times().back() : 0.0;
      in.snapshot = renderMechanismSnapshot(project, &results, in.snapshotTime, 1600, 1000, dir, &in.snapshotNote);
    }
    if (settings.modes > 0) {
      try {
        in.modes = reportModes(project, file, settings);
      } catch (const ProjectError&) {
        throw;
      } catch (const std::exception& e) {
        in.modesError = QString::fromStdString(e.what());  // the section says so; the rest of the report stands
      }
    }
    return writePdf(in, settings, compose, pdfPath, error, pages, layout);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

bool exportStudyReport(const Project& project, const StudySummary& study, const QString& pdfPath, QString* error,
                       const QString& projectFile, int* pages, ReportLayout* layout) {
  try {
    const std::string file = projectFile.toStdString();
    const ReportSettings settings = reportSettings(project, file);
    units::UnitSettings::instance().setAmbient(project.simulation.ambient_pressure);
    const ResultStore none;
    const KeyResults kr;
    Inputs in{project, none, kr, settings, QImage(), QLocale::c().toString(QDate::currentDate(), "d MMMM yyyy"),
              QImage(), QString(), 0.0, {}, &study, true, std::nullopt, QString()};
    in.logo = reportLogo(project, settings, projectFile);
    return writePdf(in, settings, composeStudy, pdfPath, error, pages, layout);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

}  // namespace pm::gui
