// The PDF report of the seed-003 example, generated headless: a PDF with the
// expected pages, whose text holds the title and the key results as computed,
// and whose pages render to non-blank images (pdftoppm / pdftotext when
// installed; those parts are skipped otherwise). Bad report settings give a
// clear error and no file.
#include "report_export.h"
#include "report_page.h"
#include "report_study.h"
#include "study_summary.h"
#include "engine/engine.h"
#include "support/pack_subcircuit.h"
#include "support/test_project.h"
#include "units.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace pm;
using namespace pm::test;

namespace {

QString seed003() { return QString::fromStdString(projectPath("seed003_meter_out.pneumech.json")); }

// Fraction of pixels that are not (nearly) white, and of red ones (only the
// second curve of a plot is red: the layout itself is blue and grey).
void inkOf(const QImage& img, double* ink, double* red) {
  long n = 0, dark = 0, col = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      ++n;
      if (c.lightness() < 235) ++dark;
      const int h = c.hsvHue();
      if (c.hsvSaturation() > 100 && c.value() > 80 && h >= 0 && (h < 20 || h > 340)) ++col;
    }
  *ink = double(dark) / double(n);
  *red = double(col) / double(n);
}

// Without any white space (pdftotext breaks the wrapped title into lines) and
// with ligatures ("ﬁ") spelled out.
QString normalised(QString s) {
  return s.normalized(QString::NormalizationForm_KC).remove(QRegularExpression("\\s"));
}

}  // namespace

class TestGuiReport : public QObject {
  Q_OBJECT
  Project project_;
  std::unique_ptr<Run> run_;
  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    project_ = engine::load(seed003().toStdString());
    run_ = simulate(project_, "seed003");
    REQUIRE_OK(run_);
  }

  void seed003Report() {
    const QString pdf = dir_.path() + "/seed003.pdf";
    QString error;
    int pages = 0;
    QVERIFY2(gui::exportReport(project_, run_->out, pdf, &error, seed003(), &pages), qPrintable(error));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    // Title, circuit, conclusion and key results with the first of the
    // example's four plots, the other three, the bill of materials and the
    // assumptions (the sections follow on: no forced page breaks).
    QCOMPARE(pages, 5);
    QCOMPARE(bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") + bytes.count("/Type /Page "), qsizetype(pages));

    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    const QString pdftoppm = QStandardPaths::findExecutable("pdftoppm");
    if (pdftotext.isEmpty() || pdftoppm.isEmpty()) QSKIP("pdftotext/pdftoppm not installed: PDF content not checked");

    QProcess p;
    p.start(pdftotext, {"-layout", pdf, "-"});
    QVERIFY(p.waitForFinished(60000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(normalised(text).contains(normalised(QString::fromStdString(project_.meta.title))), "title missing");
    KeyResultOptions o;
    o.cyclesPerMinute = reportSettings(project_).cyclesPerMinute;
    QCOMPARE(o.cyclesPerMinute, 30.0);
    const KeyResults kr = engine::keyResults(project_, run_->out, o);
    const QString cycle = QString::number(kr.cycleTime(), 'f', 3) + " s";
    const QString air = QString::number(kr.airNormalLitres, 'f', 3) + " Nl";
    const QString airMin = QString::number(kr.airNormalLitresPerMinute(), 'f', 1) + " Nl/min";
    qInfo("cycle %s, air %s, %s", qPrintable(cycle), qPrintable(air), qPrintable(airMin));
    QVERIFY2(text.contains(cycle), qPrintable("no cycle time " + cycle));
    QVERIFY2(text.contains(air), qPrintable("no air consumption " + air));
    QVERIFY2(text.contains(airMin), qPrintable("no air per minute " + airMin));
    QVERIFY(text.contains("Page 1 of 5") && text.contains("Page 5 of 5"));
    QVERIFY(text.contains("Bill of materials") && text.contains("Assumptions") && text.contains("1A1"));
    // The bill of materials in catalogue terms, not model parameters; the
    // conclusion; the air counted from the valve command.
    QVERIFY(text.contains("bore 32 mm, rod 12 mm, stroke 200 mm") && text.contains("255 Nl/min"));
    QVERIFY(!text.contains("C_max") && !text.contains("b_supply"));
    QVERIFY(text.contains("Conclusion") && text.contains("open cycle"));
    QVERIFY2(normalised(text).contains(normalised("The initial filling of the circuit before it (" +
                                                  QString::number(normalLitres(kr.airMassBeforeCycle), 'f', 3) + " Nl)")),
             "no initial filling in the assumptions");
    // Both stroke times: movement and from the valve signal, with the signal instant.
    const StrokeResult* e = kr.cylinders.at(0).firstStroke(true);
    QVERIFY(e && e->hasSignal());
    const QString row = QString::number(e->tSignal, 'f', 3) + " +" + QString::number(e->tStart, 'f', 3) + " +" +
                        QString::number(e->tEnd, 'f', 3) + " +" + QString::number(e->duration(), 'f', 3) + " +" +
                        QString::number(e->fromSignal(), 'f', 3);
    QVERIFY2(text.contains(QRegularExpression(row)), qPrintable("no stroke row " + row));
    QVERIFY(text.contains("Movement") && text.contains("Signal: the command of valve v1"));

    // Every page renders to a non-blank image; the plots page has coloured curves.
    p.start(pdftoppm, {"-png", "-r", "40", pdf, dir_.path() + "/page"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    for (int k = 1; k <= pages; ++k) {
      const QImage img(dir_.path() + QStringLiteral("/page-%1.png").arg(k));
      QVERIFY2(!img.isNull(), qPrintable(QStringLiteral("page %1 not rendered").arg(k)));
      double ink = 0, red = 0;
      inkOf(img, &ink, &red);
      qInfo("page %d: %.1f %% ink, %.3f %% red", k, 100 * ink, 100 * red);
      QVERIFY2(ink > 0.01, qPrintable(QStringLiteral("page %1 is blank").arg(k)));
      // Page 4 holds the pressure plot whose chamber-B curve is red.
      if (k == 4) QVERIFY2(red > 0.0005, "the plots page has no red pressure curve");
      else QVERIFY2(red < 0.0001, qPrintable(QStringLiteral("red on page %1").arg(k)));
    }
  }

  // The layout of the two-cylinder sequence's report, by the page model:
  // no page but the title page and the last is left mostly empty (the
  // sections follow on, a figure that nearly fits is shrunk to end its page),
  // and every figure is on the page of its caption, at 70 % of its height or more.
  // (The old layout started the conclusion, the plots and the
  // displacement-step diagram on new pages: its page 2 was 53 % full, its page 5 held one plot, 27 % full.)
  void sequenceReportLeavesNoPageMostlyEmpty() {
    const QString file = QString::fromStdString(projectPath("sequence_a_b.pneumech.json"));
    const Project pr = engine::load(file.toStdString());
    const std::unique_ptr<Run> run = simulate(pr, "sequence_a_b");
    REQUIRE_OK(run);
    QString error;
    int pages = 0;
    gui::ReportLayout layout;
    QVERIFY2(gui::exportReport(pr, run->out, dir_.path() + "/sequence.pdf", &error, file, &pages, nullptr, nullptr, &layout),
             qPrintable(error));
    QCOMPARE(int(layout.fill.size()), pages);
    for (int k = 1; k <= pages; ++k) qInfo("page %d: %.0f %% full", k, 100 * layout.fill[size_t(k - 1)]);
    // Page 1 is the title page (drawn by itself); the last page ends the report.
    for (int k = 2; k < pages; ++k)
      QVERIFY2(layout.fill[size_t(k - 1)] >= 0.8, qPrintable(QStringLiteral("page %1 is only %2 % full")
                                                                 .arg(k)
                                                                 .arg(100 * layout.fill[size_t(k - 1)], 0, 'f', 0)));
    QVERIFY(layout.fill.back() > 0.05 && layout.fill.back() <= 1.0);
    // The circuit, four plots and the displacement-step diagram.
    QCOMPARE(layout.figures.size(), size_t(6));
    for (const auto& f : layout.figures) {
      qInfo("figure on page %d, caption on page %d, scale %.2f: %s", f.page, f.captionPage, f.scale,
            qPrintable(f.caption.left(40)));
      QVERIFY(!f.caption.isEmpty());
      QCOMPARE(f.captionPage, f.page);
      QVERIFY(f.scale >= 0.7 - 1e-9 && f.scale <= 1.0 + 1e-9);
    }
    QCOMPARE(pages, 6);
  }

  // The report of seed 004's study (pneumech report --study approach_speed):
  // every column header of the study table (variant, fc1.opening, six results
  // with units as "max(dock.normal_force) [N]", feasible, status) is read in
  // full: as the table's painter lays it out in its cell, it is no wider and
  // no higher than the cell, on at most three lines. (Before, columns were
  // sized by character counts and headers wrapped at spaces only: ten
  // columns on 172 mm cut "max(dock.normal_force)" to "ck.normal_force)",
  // "variant" to "iant", "status" to "stat".)
  void studyTableHeadersFitTheirCells() {
    const std::string file = projectPath("seed004_boom_docking.pneumech.json");
    const studies::StudyInput in = studies::loadStudy(file, "approach_speed");
    const studies::StudySetup setup = studies::prepareStudy(in.project, in.projectFile, in.study);
    studies::LocalEvaluator evaluator(setup, 1);
    const auto points = studies::studyVariants(setup.study);
    const auto results = evaluator.evaluate(points);
    const gui::StudySummary summary = gui::summarizeStudy(setup, points, results);
    QCOMPARE(summary.header.size(), qsizetype(10));
    QString error;
    gui::ReportLayout layout;
    QVERIFY2(gui::exportStudyReport(in.project, summary, dir_.path() + "/study.pdf", &error,
                                    QString::fromStdString(in.projectFile), nullptr, &layout),
             qPrintable(error));
    QCOMPARE(layout.headers.size(), size_t(10));  // the study table only; two rows, one page
    for (int c = 0; c < 10; ++c) {
      const auto& h = layout.headers[size_t(c)];
      QCOMPARE(h.text, summary.header[c]);
      qInfo("%-28s cell %5.1f mm, text %5.1f mm wide, %d line(s)", qPrintable(h.text), h.cellWidth * 25.4 / 600,
            h.textWidth * 25.4 / 600, h.lines);
      QVERIFY2(h.textWidth <= h.cellWidth + 1e-6 && h.textHeight <= h.cellHeight + 1e-6,
               qPrintable(QStringLiteral("%1: text %2 x %3 px in a %4 x %5 px cell")
                              .arg(h.text)
                              .arg(h.textWidth)
                              .arg(h.textHeight)
                              .arg(h.cellWidth)
                              .arg(h.cellHeight)));
      QVERIFY2(h.lines <= 3, qPrintable(h.text));
    }
  }

  // The study section's plot labels both axes with the quantity and its
  // display unit, as the report's other plots: a 2 x 2 grid on seed 003
  // over the supply pressure (bar (g)) and the bore (mm), its heat map of
  // the largest rod position (mm), the values converted (4 and 5 bar (g),
  // 25 and 32 mm); the labels read back from the PDF's text. The table's
  // headers carry the same units, its cells the converted values.
  void studyPlotAxesCarryTheirUnits() {
    auto& unitSettings = gui::units::UnitSettings::instance();
    const gui::units::PressureScale was = unitSettings.pressureScale();
    unitSettings.setPressureScale(gui::units::PressureScale::Gauge);
    studies::StudyDefinition st;
    st.name = "units";
    st.parameters = {{"src.p", {501325.0, 601325.0}, 501325.0, 601325.0},
                     {"cyl1.bore", {0.025, 0.032}, 0.025, 0.032}};
    st.results = {"max(cyl1.x)"};
    const studies::StudySetup setup = studies::prepareStudy(project_, seed003().toStdString(), st);
    QVERIFY(setup.parameterUnits == (std::vector<std::string>{"Pa", "m"}));
    studies::LocalEvaluator evaluator(setup, 1);
    const auto points = studies::studyVariants(setup.study);
    const auto results = evaluator.evaluate(points);
    const gui::StudySummary summary = gui::summarizeStudy(setup, points, results);
    QVERIFY(summary.plot.heatMap);
    const gui::StudyPlotData& shown = summary.plot;
    QCOMPARE(shown.xLabel, QString("src.p [bar (g)]"));
    QCOMPARE(shown.yLabel, QString("max(cyl1.x) [mm]"));
    QCOMPARE(shown.heatXLabel, QString("src.p [bar (g)]"));
    QCOMPARE(shown.heatYLabel, QString("cyl1.bore [mm]"));
    QCOMPARE(shown.zLabel, QString("max(cyl1.x) [mm]"));
    QCOMPARE(shown.gridX, (std::vector<double>{4.0, 5.0}));
    QCOMPARE(shown.gridY, (std::vector<double>{25.0, 32.0}));
    QCOMPARE(shown.z.size(), size_t(4));
    for (size_t i = 0; i < 4; ++i) {
      QVERIFY(results[i].ok && results[i].results[0] > 0.0);
      QCOMPARE(shown.z[i], 1e3 * results[i].results[0]);
      QCOMPARE(shown.x[i], (points[i][0] - 101325.0) * 1e-5);
    }
    // The table as the plot: each column's display unit in its header, the values converted.
    QCOMPARE(summary.header.mid(1, 3), (QStringList{"src.p [bar (g)]", "cyl1.bore [mm]", "max(cyl1.x) [mm]"}));
    QCOMPARE(summary.rows.size(), size_t(4));
    QCOMPARE(summary.rows[3].mid(1, 2), (QStringList{"5", "32"}));  // 601325 Pa, 0.032 m
    QCOMPARE(summary.rows[3][3], QString::number(1e3 * results[3].results[0], 'g', 6));
    const QString pdf = dir_.path() + "/study_units.pdf";
    QString error;
    const bool written = gui::exportStudyReport(project_, summary, pdf, &error, seed003());
    unitSettings.setPressureScale(was);
    QVERIFY2(written, qPrintable(error));
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: the PDF's labels not read back");
    QProcess p;
    p.start(pdftotext, {"-layout", pdf, "-"});
    p.waitForFinished(60000);
    const QString text = normalised(QString::fromUtf8(p.readAllStandardOutput()));
    for (const char* label : {"src.p[bar(g)]", "cyl1.bore[mm]", "max(cyl1.x)[mm]"})
      QVERIFY2(text.contains(label), qPrintable(QString("%1 not in the PDF's text").arg(label)));
    if (const QByteArray shots = qgetenv("PM_REPORT_SNAPSHOTS"); !shots.isEmpty())
      QProcess::execute(QStandardPaths::findExecutable("pdftoppm"),
                        {"-png", "-r", "80", pdf, QString::fromLocal8Bit(shots) + "/study_units"});
  }

  void logoIsReadRelativeToTheProject() {
    QImage logo(200, 80, QImage::Format_RGB32);
    logo.fill(QColor(200, 40, 40));
    QVERIFY(logo.save(dir_.path() + "/logo.png"));
    Project pr = project_;
    pr.extra["report"]["logo"] = "logo.png";
    QString error;
    const QString pdf = dir_.path() + "/logo.pdf";
    QVERIFY2(gui::exportReport(pr, run_->out, pdf, &error, dir_.path() + "/x.pneumech.json"), qPrintable(error));
    pr.extra["report"]["logo"] = "missing.png";
    QVERIFY(!gui::exportReport(pr, run_->out, dir_.path() + "/nologo.pdf", &error, dir_.path() + "/x.pneumech.json"));
    QVERIFY2(error.contains("logo") && error.contains("missing.png"), qPrintable(error));
    QVERIFY(!QFile::exists(dir_.path() + "/nologo.pdf"));
  }

  // Every pressure level in the report (tables, bill of materials,
  // conclusion, assumptions, notes) follows the one setting, View > Pressure
  // Units: "bar (g)" or "bar (abs)"; only the ambient pressure, the reference
  // of gauge values, is absolute in both. The report written both ways.
  void pressuresFollowTheUnitSetting() {
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: PDF text not checked");
    auto& unitSettings = gui::units::UnitSettings::instance();
    const gui::units::PressureScale was = unitSettings.pressureScale();
    // Seed 003 with a load that pulls the rod out (400 N): the meter-out
    // chamber B is compressed above the supply, and the conclusion says so.
    Project pulled = project_;
    pulled.find("cyl1")->params["F_load"] = -400.0;
    const std::unique_ptr<Run> run = simulate(pulled, "pulled");
    REQUIRE_OK(run);
    const KeyResults kr = engine::keyResults(pulled, run->out, {});
    const double amb = kr.ambientPressure, pSupply = 601325.0;
    const CylinderResult& c = kr.cylinders.at(0);
    QVERIFY(c.pBMax > pSupply * 1.005);
    auto reportText = [&](gui::units::PressureScale scale, const QString& stem) {
      unitSettings.setPressureScale(scale);
      const QString pdf = dir_.path() + "/" + stem + ".pdf";
      QString error;
      if (!gui::exportReport(pulled, run->out, pdf, &error, seed003())) return "failed: " + error;
      QProcess p;
      p.start(pdftotext, {"-layout", pdf, "-"});
      p.waitForFinished(60000);
      QProcess::execute(QStandardPaths::findExecutable("pdftoppm"),
                        {"-png", "-r", "60", pdf, QDir::current().filePath("report_pressure_" + stem)});
      return normalised(QString::fromUtf8(p.readAllStandardOutput()));
    };
    const QString gauge = reportText(gui::units::PressureScale::Gauge, "gauge");
    const QString abs = reportText(gui::units::PressureScale::Absolute, "absolute");
    unitSettings.setPressureScale(was);
    const QString ambient = normalised(QString::number(amb / 1e5) + " bar (abs)");
    auto bar = [](double v, const char* unit) { return normalised(QString::number(v, 'f', 2) + " bar (" + unit + ")"); };

    // Gauge: "bar (abs)" only where the ambient is stated (the note under the
    // cylinder tables and the assumptions); no "bar gauge" prose.
    QVERIFY2(gauge.count("bar(g)") >= 6, qPrintable(QString::number(gauge.count("bar(g)"))));
    QCOMPARE(gauge.count("bar(abs)"), gauge.count(ambient));
    QCOMPARE(gauge.count(ambient), 2);
    QVERIFY(!gauge.contains("bargauge"));
    // Absolute: no gauge value anywhere.
    QCOMPARE(abs.count("bar(g)"), 0);
    QVERIFY(!abs.contains("gauge"));
    QVERIFY(abs.count("bar(abs)") >= 6);
    // The same quantities in each: the conclusion's chamber-B peak and supply,
    // the peaks table's unit, the bill of materials' supply, the assumptions' supply.
    QVERIFY2(gauge.contains("reaches" + bar((c.pBMax - amb) / 1e5, "g")), qPrintable(bar((c.pBMax - amb) / 1e5, "g")));
    QVERIFY(abs.contains("reaches" + bar(c.pBMax / 1e5, "abs")));
    QVERIFY(gauge.contains("abovethesupply's" + bar((pSupply - amb) / 1e5, "g")));
    QVERIFY(abs.contains("abovethesupply's" + bar(pSupply / 1e5, "abs")));
    // (the peaks table's two-line header comes out of pdftotext interleaved)
    QVERIFY(gauge.contains("PeakchamberB") && gauge.contains("[bar(g)]") && abs.contains("[bar(abs)]"));
    // (the bill of materials' "service unit" may wrap after its size cell's text)
    QVERIFY(gauge.contains(QRegularExpression("supply\\(service(unit\\))?5bar\\(g\\)")));
    QVERIFY(abs.contains(QRegularExpression("supply\\(service(unit\\))?6\\.01bar\\(abs\\)")));
    QVERIFY(gauge.contains("0Z1(src):5bar(g),") && abs.contains("0Z1(src):6.01325bar(abs),"));
    QVERIFY(gauge.contains("from6to5bar(g)innormal") && abs.contains("from7.013"));
    QVERIFY(abs.contains(QRegularExpression("to6\\.013\\d?bar\\(abs\\)innormal")));
    QVERIFY(gauge.contains("Pressuresaregauge,bar(g)") && abs.contains("Pressuresareabsolute,bar(abs)"));
  }

  // The assumptions list the circuit as the compiler expands it: seed 003's
  // cylinder, given its own friction and packed alone into a sub-circuit
  // `act`, is listed as `act.cyl1` with that friction.
  void assumptionsListAnInnerCylinder() {
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: PDF text not checked");
    Project flat = project_;
    Component* cyl = flat.find("cyl1");
    cyl->params["F_coulomb"] = 37.5;
    cyl->params["F_static"] = 52.5;
    cyl->params["c_viscous"] = 12.5;
    flat.extra["report"]["plots"] = nlohmann::json::array({nlohmann::json::array({"act.cyl1.x"})});
    const Project packed = packAlone(flat, "cyl1", "seed003_actuator", "act");
    QVERIFY(!packed.find("cyl1") && packed.find("act"));
    const std::unique_ptr<Run> run = simulate(packed, "packed");
    REQUIRE_OK(run);
    const QString pdf = dir_.path() + "/packed.pdf";
    QString error;
    QVERIFY2(gui::exportReport(packed, run->out, pdf, &error, seed003()), qPrintable(error));
    QProcess p;
    p.start(pdftotext, {"-layout", pdf, "-"});
    QVERIFY(p.waitForFinished(60000));
    const QString text = normalised(QString::fromUtf8(p.readAllStandardOutput()));
    const QString assumed = text.mid(text.lastIndexOf("Assumptions"));
    qInfo("%s", qPrintable(assumed.left(600)));
    QVERIFY2(assumed.contains("Cylinder1A1(act.cyl1):friction37.5NCoulomb,52.5Nstatic(breakaway)"),
             "the inner cylinder's friction is not in the assumptions");
    QVERIFY(assumed.contains("viscous12.5Ns/m"));
  }

  // Seed 004's boom docking (issue 27): the report lists the contact pairs
  // (touches, peaks) and the latch's engagement with its velocity jump and
  // energy loss, the figures of the key results.
  void contactsAndLatchesInTheReport() {
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext not installed: PDF text not checked");
    const QString file = QString::fromStdString(projectPath("seed004_boom_docking.pneumech.json"));
    const Project boom = engine::load(file.toStdString());
    const std::unique_ptr<Run> run = simulate(boom, "boom");
    REQUIRE_OK(run);
    const QString pdf = dir_.path() + "/boom.pdf";
    QString error;
    QVERIFY2(gui::exportReport(boom, run->out, pdf, &error, file), qPrintable(error));
    QProcess p;
    p.start(pdftotext, {"-layout", pdf, "-"});
    QVERIFY(p.waitForFinished(60000));
    // Ligatures ("ﬁxed") spelled out.
    const QString text = QString::fromUtf8(p.readAllStandardOutput()).normalized(QString::NormalizationForm_KC);
    const KeyResults kr = engine::keyResults(boom, run->out, {});
    QVERIFY(!kr.contacts.empty() && kr.latches.size() == 1 && kr.latches[0].engagements.size() == 1);
    const LatchEngagement& e = kr.latches[0].engagements[0];
    const QString latchRow = "catch +" + QString::fromStdString(kr.latches[0].type) + " +" + QString::number(e.t, 'f', 3) +
                             " +— +" + QString::number(e.velocityJump, 'f', 3) + " +" +
                             QString::number(e.energyLost, 'f', 3);
    qInfo("%s", qPrintable(latchRow));
    QVERIFY2(text.contains("Latch engagements"), "no latch table");
    QVERIFY2(text.contains(QRegularExpression(latchRow)), qPrintable("no latch row " + latchRow));
    QVERIFY2(text.contains("Contacts (largest values"), "no contacts table");
    for (const ContactPairResult& c : kr.contacts) {
      const QString row = QString::fromStdString(c.id) + " +" + QString::fromStdString(c.shapes) + " +" +
                          QString::number(c.touches.size());
      QVERIFY2(text.contains(QRegularExpression(row)), qPrintable("no contact row " + row));
    }
  }

  void badPlotChannelIsAClearError() {
    Project pr = project_;
    pr.extra["report"]["plots"] = nlohmann::json::array({nlohmann::json::array({"cyl1.x", "cyl9.x"})});
    QString error;
    const QString pdf = dir_.path() + "/bad.pdf";
    QVERIFY(!gui::exportReport(pr, run_->out, pdf, &error, "p.json"));
    qInfo("%s", qPrintable(error));
    QVERIFY(error.contains("report") && error.contains("plots[0]") && error.contains("cyl9.x"));
    QVERIFY(!QFile::exists(pdf));
  }
};

QTEST_MAIN(TestGuiReport)
#include "test_gui_report.moc"
