// The 3D picture of a mechanism for the PDF report, rendered without a
// window (QOffscreenSurface + framebuffer object): the four-bar linkage at
// the end of its run is drawn (its parts' colours on the background), the
// picture differs from the initial pose, and the report carries it as an
// image. Runs under Xvfb (OpenGL).
#include "mechanism_snapshot.h"
#include "report_export.h"

#include "engine/engine.h"
#include "support/test_meshes.h"
#include "support/test_project.h"

#include <QGuiApplication>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace pm;
using namespace pm::gui;

namespace {

// Distinct colours (quantised to 16 levels) of an image.
size_t colourCount(const QImage& img) {
  std::set<int> c;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) {
      const QRgb p = img.pixel(x, y);
      c.insert((qRed(p) >> 4) << 8 | (qGreen(p) >> 4) << 4 | (qBlue(p) >> 4));
    }
  return c.size();
}

}  // namespace

class TestGui3dReportSnapshot : public QObject {
  Q_OBJECT
 private slots:
  void snapshotOfFourBar() {
    const std::string file = test::projectPath("four_bar.pneumech.json");
    const Project p = engine::load(file);
    auto run = test::simulate(p);
    QVERIFY2(run->ok(), run->message().c_str());
    QString why;
    const double tEnd = run->out.times().back();
    const QImage end = renderMechanismSnapshot(p, &run->out, tEnd, 640, 400, QString(), &why);
    QVERIFY2(!end.isNull(), qPrintable(why));
    QCOMPARE(end.size(), QSize(640, 400));
    // More than a cleared background: shaded parts, grid, axes.
    QVERIFY2(colourCount(end) > 30, qPrintable(QString::number(colourCount(end))));
    // Another time, another picture (the parts moved; a quarter of the run,
    // as the crank may be back where it started at the end).
    const QImage start = renderMechanismSnapshot(p, &run->out, tEnd / 4, 640, 400, QString(), &why);
    QVERIFY(!start.isNull());
    int differ = 0;
    for (int y = 0; y < 400; y += 2)
      for (int x = 0; x < 640; x += 2) differ += start.pixel(x, y) != end.pixel(x, y);
    QVERIFY2(differ > 500, qPrintable(QString::number(differ)));
    end.save(QDir::current().filePath("gui3d_report_snapshot.png"));

    // A project without a mechanism has no picture, and says why.
    const Project seed = engine::load(test::projectPath("seed003_meter_out.pneumech.json"));
    QVERIFY(renderMechanismSnapshot(seed, nullptr, 0.0, 100, 100, QString(), &why).isNull());
    QVERIFY(why.contains("no mechanism"));

    // The report carries the picture: pdfimages lists an image on page 2.
    QTemporaryDir dir;
    const QString pdf = dir.filePath("four_bar.pdf");
    QString err;
    QVERIFY2(exportReport(p, run->out, pdf, &err, QString::fromStdString(file)), qPrintable(err));
    QProcess pi;
    pi.start("pdfimages", {"-list", pdf});
    QVERIFY(pi.waitForFinished(30000));
    const QStringList lines = QString::fromUtf8(pi.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    bool found = false;
    for (const QString& l : lines.mid(2)) {
      const QStringList f = l.simplified().split(' ');
      found = found || (f.size() > 4 && f[2] == "image" && f[3] == "1600" && f[4] == "1000");
    }
    QVERIFY2(found, qPrintable(lines.join('\n')));
    QProcess pt;
    pt.start("pdftotext", {pdf, "-"});
    QVERIFY(pt.waitForFinished(30000));
    QVERIFY(QString::fromUtf8(pt.readAllStandardOutput()).contains("The mechanism (4 parts, 4 joints) at t = "));
  }

  // A part drawn from a CAD mesh (issue 28, point 5: the geometry in the
  // report's snapshot): a magenta 200 x 100 x 50 mm box read from an OBJ
  // file in the project's folder fills the picture's middle with magenta
  // (no other drawing has that colour); from another folder the file is not
  // read and no magenta is drawn.
  void snapshotDrawsAMeshPart() {
    QTemporaryDir dir, elsewhere;
    test::writeFile(dir.filePath("block.obj").toStdString(), test::objText(test::boxMesh(0.2, 0.1, 0.05)));
    Project p;
    PartDef ground;
    ground.id = "ground";
    ground.ground = true;
    PartDef block;
    block.id = "block";
    block.markers = {MarkerDef{"c", {0, 0, 0}, {0, 0, 0}}};
    Geometry mesh;
    mesh.shape = "mesh";
    mesh.file = "block.obj";
    mesh.color = "#ff00ff";
    block.geometry = {mesh};
    p.mechanism.parts = {ground, block};
    auto magenta = [](const QImage& img) {
      int n = 0;
      for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
          const QRgb c = img.pixel(x, y);
          n += qRed(c) > 120 && qBlue(c) > 120 && qGreen(c) < 90;
        }
      return n;
    };
    QString why;
    const QImage drawn = renderMechanismSnapshot(p, nullptr, 0.0, 320, 200, dir.path(), &why);
    QVERIFY2(!drawn.isNull(), qPrintable(why));
    const QImage missing = renderMechanismSnapshot(p, nullptr, 0.0, 320, 200, elsewhere.path(), &why);
    QVERIFY(!missing.isNull());
    qInfo("magenta pixels: %d with the mesh read, %d without", magenta(drawn), magenta(missing));
    QVERIFY2(magenta(drawn) > 320 * 200 / 20, "the mesh drawn");
    QCOMPARE(magenta(missing), 0);
  }
};

QTEST_MAIN(TestGui3dReportSnapshot)
#include "test_gui3d_report_snapshot.moc"
