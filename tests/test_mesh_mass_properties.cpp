// CAD meshes as parts (issue #28, point 5): STL (ASCII, binary) and OBJ
// files generated here are read back, and the mass properties of the solid
// they bound (divergence theorem) are checked against closed forms: a box
// and a regular prism exactly (1e-12 relative; 1e-7 for float32 binary STL),
// a cylinder and a sphere through fine facets (the facets' own shortfall,
// stated per case). A mesh with a hole, a malformed line or a missing file
// is refused naming the file, the part and the field.
#include "io/mechanism_file.h"
#include "io/mesh_file.h"
#include "model/mass_properties.h"
#include "model/project_error.h"
#include "support/test_meshes.h"
#include "support/test_project.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;
using nlohmann::json;

namespace {

constexpr double kPi = std::numbers::pi;

void checkInertia(const std::array<double, 6>& got, const std::array<double, 6>& want, double rel) {
  const double scale = std::max({std::abs(want[0]), std::abs(want[1]), std::abs(want[2])});
  for (int k = 0; k < 6; ++k) {
    qInfo("inertia[%d] measured %.12g expected %.12g", k, got[k], want[k]);
    QVERIFY2(std::abs(got[k] - want[k]) <= rel * scale, "inertia entry above tolerance");
  }
}

// A project folder holding mesh files; parts parsed as if from its project file.
struct Folder {
  QTemporaryDir dir;
  std::string path(const std::string& name) const { return dir.filePath(QString::fromStdString(name)).toStdString(); }
  std::string projectFile() const { return path("p.pneumech.json"); }
  PartDef part(const json& arm) const {
    json m = {{"parts", json::array({{{"id", "ground"}, {"ground", true}}})}};
    m["parts"].push_back(arm);
    return parseMechanism(m, projectFile()).parts.at(1);
  }
};

json meshPart(const std::string& file, const json& basis, double scale = 1.0) {
  json arm = {{"id", "arm"},
              {"mass_properties", "from_geometry"},
              {"geometry", {{{"shape", "mesh"}, {"file", file}, {"size", {{"scale", scale}}}}}}};
  arm.update(basis);
  return arm;
}

// Regular n-gon of circumradius r: area and polar second moment about its
// centre, J = A (6 r^2 - a^2) / 12 with side a = 2 r sin(pi/n).
double polygonArea(int n, double r) { return 0.5 * n * r * r * std::sin(2 * kPi / n); }
double polygonPolar(int n, double r) {
  const double a = 2 * r * std::sin(kPi / n);
  return polygonArea(n, r) * (6 * r * r - a * a) / 12;
}

}  // namespace

class TestMeshMassProperties : public QObject {
  Q_OBJECT
 private slots:
  // The integrals alone, on a box off the origin: volume abc, cm at its
  // centre, (b^2 + c^2) V / 12 ... about it, no products of inertia.
  void boxIntegrals() {
    const double a = 0.3, b = 0.2, c = 0.1;
    const MeshIntegrals in = meshIntegrals(boxMesh(a, b, c, {0.5, -0.25, 2.0}));
    CHECK_REL(in.volume, a * b * c, 1e-12);
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(in.cm[k] - Vec3{0.5, -0.25, 2.0}[k]) < 1e-12);
    const double V = a * b * c;
    checkInertia(in.inertia, {V * (b * b + c * c) / 12, V * (a * a + c * c) / 12, V * (a * a + b * b) / 12, 0, 0, 0}, 1e-12);
    // Inside out (every triangle reversed): the same solid.
    TriangleMesh flipped = boxMesh(a, b, c);
    for (auto& t : flipped.triangles) std::swap(t[1], t[2]);
    QVERIFY(closedMeshProblem(flipped).empty());
    CHECK_REL(meshIntegrals(flipped).volume, V, 1e-12);
  }

  // ASCII STL of a steel box: m = 7850 abc, m (b^2 + c^2)/12, ...
  void asciiStlBox() {
    Folder f;
    const double a = 0.3, b = 0.05, c = 0.02;
    writeFile(f.path("bar.stl"), asciiStl(boxMesh(a, b, c)));
    const PartDef p = f.part(meshPart("bar.stl", {{"material", "steel"}}));
    const double m = 7850.0 * a * b * c;
    CHECK_REL(p.mass, m, 1e-12);
    for (double x : p.cm) QVERIFY(std::abs(x) < 1e-15);
    checkInertia(p.inertia, {m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12, 0, 0, 0}, 1e-12);
  }

  // Binary STL (float32): a box of exactly representable sides in mm,
  // scaled to metres by 0.001, placed on a marker at (0.1, 0, 0) turned
  // 90 deg about z, so the part's x extent is the file's y.
  void binaryStlBoxScaledAndPlaced() {
    Folder f;
    const double a = 250, b = 40, c = 20;  // mm
    writeFile(f.path("Bar.STL"), binaryStl(boxMesh(a, b, c)));
    json arm = meshPart("Bar.STL", {{"density", 1000.0}}, 0.001);
    arm["markers"] = {{{"id", "m"}, {"position", {0.1, 0, 0}}, {"orientation", {0, 0, kPi / 2}}}};
    arm["geometry"][0]["marker"] = "m";
    const PartDef p = f.part(arm);
    const double A = a / 1000, B = b / 1000, C = c / 1000, m = 1000.0 * A * B * C;
    CHECK_REL(p.mass, m, 1e-7);
    QVERIFY(std::abs(p.cm[0] - 0.1) < 1e-9 && std::abs(p.cm[1]) < 1e-9 && std::abs(p.cm[2]) < 1e-9);
    checkInertia(p.inertia, {m * (A * A + C * C) / 12, m * (B * B + C * C) / 12, m * (A * A + B * B) / 12, 0, 0, 0}, 1e-7);
  }

  // OBJ of a 64-sided prism of a given mass, exact against the prism's
  // closed form: cm at h/2, Izz = m J/A, Ixx = Iyy = m (J/(2A) + h^2/12).
  void objPrismExact() {
    Folder f;
    const int n = 64;
    const double r = 0.04, h = 0.25, m = 3.0;
    writeFile(f.path("pin.obj"), objText(prismMesh(n, r, h)));
    const PartDef p = f.part(meshPart("pin.obj", {{"mass", m}}));
    QCOMPARE(p.mass, m);
    QVERIFY(std::abs(p.cm[2] - h / 2) < 1e-15 && std::abs(p.cm[0]) < 1e-15 && std::abs(p.cm[1]) < 1e-15);
    const double A = polygonArea(n, r), J = polygonPolar(n, r);
    const double t = m * (J / (2 * A) + h * h / 12);
    checkInertia(p.inertia, {t, t, m * J / A, 0, 0, 0}, 1e-12);
  }

  // A cylinder exported with 8192 facets against the true cylinder: the
  // facets fall short of the circle by (2 pi/n)^2/6 = 1e-7 in area, so 1e-6.
  void stlCylinderAgainstCylinder() {
    Folder f;
    const double r = 0.016, h = 0.1, rho = 7850;
    writeFile(f.path("rod.stl"), asciiStl(prismMesh(8192, r, h)));
    const PartDef p = f.part(meshPart("rod.stl", {{"density", rho}}));
    const double m = rho * kPi * r * r * h;
    CHECK_REL(p.mass, m, 1e-6);
    QVERIFY(std::abs(p.cm[2] - h / 2) < 1e-12);
    const double t = m * (3 * r * r + h * h) / 12;
    checkInertia(p.inertia, {t, t, m * r * r / 2, 0, 0, 0}, 1e-6);
    // The same as the built-in cylinder shape.
    const PartDef q = f.part({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"density", rho},
                              {"geometry", {{{"shape", "cylinder"}, {"size", {{"radius", r}, {"length", h}}}}}}});
    CHECK_REL(p.mass, q.mass, 1e-6);
    CHECK_REL(p.inertia[2], q.inertia[2], 1e-6);
  }

  // A UV sphere of 400 x 800 facets: inscribed, its volume falls short by
  // about (pi/400)^2/... < 1e-4; 2/5 m r^2 with the mesh's own mass.
  void stlSphere() {
    const double r = 0.05;
    const MeshIntegrals in = meshIntegrals(sphereMesh(400, 800, r));
    const double V = 4.0 / 3.0 * kPi * r * r * r;
    CHECK_REL(in.volume, V, 1e-4);
    QVERIFY(in.volume < V);  // inscribed
    const double i = 0.4 * V * r * r;
    checkInertia(in.inertia, {i, i, i, 0, 0, 0}, 2e-4);
  }

  // Not a closed surface: the part, the field and the file are named.
  void openMeshRefused() {
    Folder f;
    TriangleMesh m = boxMesh(0.1, 0.1, 0.1);
    m.triangles.pop_back();
    writeFile(f.path("open.stl"), asciiStl(m));
    try {
      f.part(meshPart("open.stl", {{"density", 1000.0}}));
      QFAIL("an open mesh was accepted");
    } catch (const ProjectError& e) {
      qInfo("%s", e.what());
      QCOMPARE(QString::fromStdString(e.object()), QString("arm"));
      QCOMPARE(QString::fromStdString(e.field()), QString("geometry[0].file"));
      QVERIFY(std::string(e.what()).find("open.stl is not a closed surface") != std::string::npos);
      QVERIFY(std::string(e.what()).find("hole") != std::string::npos);
    }
  }

  // Malformed files and a missing one: the message names the file (and line).
  void badFilesNamed() {
    Folder f;
    writeFile(f.path("bad.stl"), "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0\n");
    writeFile(f.path("bad.obj"), "v 0 0 0\nv 1 0 0\nf 1 2 7\n");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"bad.stl", "bad.stl: line 4: expected 'vertex x y z'"},
        {"bad.obj", "bad.obj: line 3: face corner 7 names no vertex"},
        {"missing.stl", "missing.stl: "},
        {"../outside.stl", "../outside.stl: "},
        {"part.step", "part.step: unknown mesh format '.step'"}};
    writeFile(f.path("part.step"), "ISO-10303-21;");
    for (const auto& [file, expected] : cases) {
      try {
        f.part(meshPart(file, {{"density", 1000.0}}));
        QFAIL(qPrintable(QString::fromStdString(file + " was accepted")));
      } catch (const ProjectError& e) {
        qInfo("%s", e.what());
        QCOMPARE(QString::fromStdString(e.field()), QString("geometry[0].file"));
        QVERIFY2(std::string(e.what()).find(expected) != std::string::npos, e.what());
      }
    }
  }

  // A mesh that is only drawn (no "from_geometry") is not read at all.
  void displayMeshNotRead() {
    Folder f;
    json arm = {{"id", "arm"}, {"mass", 2.0}, {"geometry", {{{"shape", "mesh"}, {"file", "absent.stl"}}}}};
    QCOMPARE(f.part(arm).mass, 2.0);
  }
};

QTEST_GUILESS_MAIN(TestMeshMassProperties)
#include "test_mesh_mass_properties.moc"
