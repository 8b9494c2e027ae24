// The PDF report of the seed-003 example, generated headless: a PDF with the
// expected pages, whose text holds the title and the key results as computed,
// and whose pages render to non-blank images (pdftoppm / pdftotext when
// installed; those parts are skipped otherwise). Bad report settings give a
// clear error and no file.
#include "report_export.h"
#include "engine/engine.h"
#include "support/test_project.h"

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
    // Title, circuit, conclusion and key results, plots (3 + 1 with the
    // example's four plots, then the bill of materials), the assumptions.
    QCOMPARE(pages, 6);
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
    QVERIFY(text.contains("Page 1 of 6") && text.contains("Page 6 of 6"));
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
