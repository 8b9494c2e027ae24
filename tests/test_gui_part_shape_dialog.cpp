// Add Part from a shape (issue #28, point 5): the dialog's fields give a
// part whose mass properties come from core, shown while typing: a steel
// cylinder against m = rho pi r^2 h and m r^2 / 2; an STL mesh in the
// project's folder the same; an open mesh refused naming the file; a point
// mass as typed.
#include "part_shape_dialog.h"
#include "support/test_meshes.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::gui;

namespace {

void set(PartShapeDialog& d, const char* key, const QString& text) {
  auto* e = d.findChild<QLineEdit*>(QString("dlg_") + key);
  QVERIFY2(e, key);
  e->setText(text);
}

void choose(PartShapeDialog& d, const char* key, const QString& item) {
  auto* c = d.findChild<QComboBox*>(QString("dlg_") + key);
  QVERIFY2(c && c->findText(item) >= 0, key);
  c->setCurrentText(item);
}

}  // namespace

class TestGuiPartShapeDialog : public QObject {
  Q_OBJECT
 private slots:
  void cylinderOfSteel() {
    Project p;
    p.mechanism.parts.push_back(PartDef{.id = "ground", .ground = true});
    PartShapeDialog d(nullptr, p, {}, [](const PartDef&) { return QString(); });
    choose(d, "shape", "cylinder");
    set(d, "radius", "16");
    set(d, "length", "100");
    const PartDef part = [&] {
      QString err;
      PartDef q = partFromShape(d.input(), "", &err);
      if (!err.isEmpty()) qWarning("%s", qPrintable(err));
      return q;
    }();
    const double r = 0.016, h = 0.1, m = 7850 * std::numbers::pi * r * r * h;
    QVERIFY(std::abs(part.mass - m) < 1e-12 * m);
    QVERIFY(std::abs(part.inertia[2] - m * r * r / 2) < 1e-12 * m * r * r);
    QVERIFY(std::abs(part.cm[2] - h / 2) < 1e-15);
    QCOMPARE(part.mass_properties, std::string("from_geometry"));
    QCOMPARE(part.material, std::string("steel"));
    const QString shown = d.findChild<QLabel*>("dlg_massProperties")->text();
    QVERIFY2(shown.contains(QString("Mass %1 kg").arg(m, 0, 'g', 5)), qPrintable(shown));
    QVERIFY2(shown.contains("(0, 0, 50) mm"), qPrintable(shown));
  }

  void stlMeshInTheProjectFolder() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p.pneumech.json");
    test::writeFile(dir.filePath("rod.stl").toStdString(), test::asciiStl(test::boxMesh(200, 20, 10)));
    TriangleMesh open = test::boxMesh(200, 20, 10);
    open.triangles.pop_back();
    test::writeFile(dir.filePath("open.stl").toStdString(), test::asciiStl(open));
    Project p;
    PartShapeDialog d(nullptr, p, project, [](const PartDef&) { return QString(); });
    d.findChild<QWidget*>("dlg_ground")->setProperty("checked", false);  // offered: no ground yet
    choose(d, "shape", "mesh");
    set(d, "scale", "0.001");
    set(d, "file", "rod.stl");
    choose(d, "basis", "aluminium");
    QString err;
    const PartDef part = partFromShape(d.input(), project.toStdString(), &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    const double m = 2700 * 0.2 * 0.02 * 0.01;
    QVERIFY(std::abs(part.mass - m) < 1e-12 * m);
    QVERIFY(std::abs(part.inertia[0] - m * (0.02 * 0.02 + 0.01 * 0.01) / 12) < 1e-12 * part.inertia[0]);
    QVERIFY(d.findChild<QLabel*>("dlg_massProperties")->text().contains(QString("Mass %1 kg").arg(m, 0, 'g', 5)));
    set(d, "file", "open.stl");
    const QString shown = d.findChild<QLabel*>("dlg_massProperties")->text();
    QVERIFY2(shown.contains("open.stl is not a closed surface"), qPrintable(shown));
    partFromShape(d.input(), project.toStdString(), &err);
    QVERIFY(err.contains("geometry[0].file"));
  }

  void pointMassAsTyped() {
    Project p;
    PartShapeDialog d(nullptr, p, {}, [](const PartDef&) { return QString(); });
    d.findChild<QWidget*>("dlg_ground")->setProperty("checked", false);
    choose(d, "shape", "none");
    set(d, "mass", "2.5");
    QString err;
    const PartDef part = partFromShape(d.input(), "", &err);
    QVERIFY(err.isEmpty());
    QCOMPARE(part.mass, 2.5);
    QVERIFY(part.geometry.empty() && part.mass_properties.empty());
  }
};

QTEST_MAIN(TestGuiPartShapeDialog)
#include "test_gui_part_shape_dialog.moc"
