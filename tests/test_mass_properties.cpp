// Mass properties from geometry (issue #20, point 5) against closed forms,
// to 1e-12 relative: solid box, cylinder, tube and sphere of a density,
// a material or a mass; solids placed off the part origin (parallel-axis
// theorem) and rotated (R J R^T); the file's errors naming part and field;
// explicit mass properties as before.
#include "build/project_input.h"
#include "io/mechanism_file.h"
#include "model/mass_properties.h"
#include "model/project_error.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using nlohmann::json;

namespace {

constexpr double kPi = std::numbers::pi;

// Compares a part's inertia (Ixx Iyy Izz Ixy Ixz Iyz) entry by entry, each
// to `rel` times the largest principal moment expected.
void checkInertia(const std::array<double, 6>& got, const std::array<double, 6>& want, double rel = 1e-12) {
  const double scale = std::max({std::abs(want[0]), std::abs(want[1]), std::abs(want[2])});
  for (int k = 0; k < 6; ++k)
    QVERIFY2(std::abs(got[k] - want[k]) <= rel * scale,
             qPrintable(QString("inertia[%1] = %2, expected %3").arg(k).arg(got[k], 0, 'g', 17).arg(want[k], 0, 'g', 17)));
}

void checkVec(const Vec3& got, const Vec3& want, double tol) {
  for (int k = 0; k < 3; ++k)
    QVERIFY2(std::abs(got[k] - want[k]) <= tol,
             qPrintable(QString("[%1] = %2, expected %3").arg(k).arg(got[k], 0, 'g', 17).arg(want[k], 0, 'g', 17)));
}

// A mechanism with ground and one part "arm" written as JSON.
json mechanismWith(const json& arm) {
  json m = {{"parts", json::array({{{"id", "ground"}, {"ground", true}}})}};
  m["parts"].push_back(arm);
  return m;
}

PartDef parsed(const json& arm) { return parseMechanism(mechanismWith(arm), "m.json").parts.at(1); }

// The error the arm's JSON gives: object and field.
std::pair<std::string, std::string> refused(const json& arm) {
  try {
    parseMechanism(mechanismWith(arm), "m.json");
  } catch (const ProjectError& e) {
    qInfo("%s", e.what());
    if (e.file() != "m.json") return {"", "(file not named)"};
    return {e.object(), e.field()};
  }
  return {"", "(accepted)"};
}

}  // namespace

class TestMassProperties : public QObject {
  Q_OBJECT
 private slots:
  void solidBox() {
    const double a = 0.3, b = 0.05, c = 0.02;
    const PartDef p = parsed({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "steel"},
                              {"geometry", {{{"shape", "box"}, {"size", {{"lx", a}, {"ly", b}, {"lz", c}}}}}}});
    const double m = 7850.0 * a * b * c;
    CHECK_REL(p.mass, m, 1e-12);
    checkVec(p.cm, {0, 0, 0}, 1e-15);
    checkInertia(p.inertia, {m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12, 0, 0, 0});
  }

  void solidCylinder() {
    // Runs from its marker along +z: cm at h/2; m r^2/2 about the axis,
    // m (3 r^2 + h^2)/12 transverse, about the cm.
    const double r = 0.04, h = 0.25, rho = 2700.0;
    const PartDef p = parsed({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"density", rho},
                              {"geometry", {{{"shape", "cylinder"}, {"size", {{"radius", r}, {"length", h}}}}}}});
    const double m = rho * kPi * r * r * h;
    CHECK_REL(p.mass, m, 1e-12);
    checkVec(p.cm, {0, 0, h / 2}, 1e-15);
    const double t = m * (3 * r * r + h * h) / 12;
    checkInertia(p.inertia, {t, t, m * r * r / 2, 0, 0, 0});
  }

  void tubeOfGivenMass() {
    // A mass given: the density follows from the volume, the mass stays exact.
    const double r1 = 0.015, r2 = 0.02, h = 0.4, m = 2.0;
    const PartDef p =
        parsed({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"mass", m},
                {"geometry", {{{"shape", "tube"}, {"size", {{"radius", r2}, {"inner_radius", r1}, {"length", h}}}}}}});
    QCOMPARE(p.mass, m);
    checkVec(p.cm, {0, 0, h / 2}, 1e-15);
    const double t = m * (3 * (r1 * r1 + r2 * r2) + h * h) / 12;
    checkInertia(p.inertia, {t, t, m * (r1 * r1 + r2 * r2) / 2, 0, 0, 0});
    // The same tube in aluminium: m = rho pi (r2^2 - r1^2) h.
    const PartDef q =
        parsed({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "aluminium"},
                {"geometry", {{{"shape", "tube"}, {"size", {{"radius", r2}, {"inner_radius", r1}, {"length", h}}}}}}});
    CHECK_REL(q.mass, 2700.0 * kPi * (r2 * r2 - r1 * r1) * h, 1e-12);
  }

  void sphereAndMaterials() {
    const double r = 0.05;
    for (const auto& [name, rho] : std::vector<std::pair<std::string, double>>{
             {"steel", 7850}, {"aluminium", 2700}, {"stainless_steel", 8000}, {"brass", 8500},
             {"cast_iron", 7200}, {"pom", 1410}, {"pa6", 1140}, {"abs", 1050}}) {
      const PartDef p = parsed({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", name},
                                {"geometry", {{{"shape", "sphere"}, {"size", {{"radius", r}}}}}}});
      const double m = rho * 4.0 / 3.0 * kPi * r * r * r;
      CHECK_REL(p.mass, m, 1e-12);
      const double i = 0.4 * m * r * r;
      checkInertia(p.inertia, {i, i, i, 0, 0, 0});
    }
  }

  // Two spheres on a marker at (a, b, c) and on the part origin: the common
  // cm on the line between them, each moment its own 2/5 m r^2 plus m times
  // its squared distance from the common cm perpendicular to the axis.
  void offsetSolidsParallelAxis() {
    const double r = 0.02, a = 0.3, b = -0.1, c = 0.05, rho = 1000.0;
    const json arm = {{"id", "arm"},
                      {"mass_properties", "from_geometry"},
                      {"density", rho},
                      {"markers", {{{"id", "tip"}, {"position", {a, b, c}}, {"orientation", {0.3, -0.2, 1.1}}}}},
                      {"geometry",
                       {{{"shape", "sphere"}, {"size", {{"radius", r}}}},
                        {{"shape", "sphere"}, {"size", {{"radius", r}}}, {"marker", "tip"}}}}};
    const PartDef p = parsed(arm);
    const double m1 = rho * 4.0 / 3.0 * kPi * r * r * r, M = 2 * m1;
    CHECK_REL(p.mass, M, 1e-12);
    checkVec(p.cm, {a / 2, b / 2, c / 2}, 1e-15);
    // Each sphere sits at +-d/2 from the common cm, d = (a, b, c): the pair
    // adds M (|d/2|^2 E - (d/2)(d/2)^T).
    const double i0 = 2 * 0.4 * m1 * r * r, hx = a / 2, hy = b / 2, hz = c / 2;
    checkInertia(p.inertia, {i0 + M * (hy * hy + hz * hz), i0 + M * (hx * hx + hz * hz), i0 + M * (hx * hx + hy * hy),
                             -M * hx * hy, -M * hx * hz, -M * hy * hz});
    // One sphere on the offset marker alone: its cm there, its own inertia.
    json one = arm;
    one["geometry"].erase(0);
    const PartDef q = parsed(one);
    checkVec(q.cm, {a, b, c}, 1e-15);
    checkInertia(q.inertia, {0.4 * m1 * r * r, 0.4 * m1 * r * r, 0.4 * m1 * r * r, 0, 0, 0});
  }

  // A box on a marker turned by yaw psi about z: J = R diag(Ixx, Iyy, Izz) R^T,
  // Ixx' = Ixx cos^2 + Iyy sin^2, Ixy' = (Ixx - Iyy) sin cos. A cylinder on a
  // marker rolled by 90 deg about x runs along -y: its cm at -h/2 y, the
  // axial moment about y.
  void rotatedSolids() {
    const double lx = 0.2, ly = 0.04, lz = 0.01, psi = 0.5, rho = 7850.0;
    const PartDef p = parsed({{"id", "arm"},
                              {"mass_properties", "from_geometry"},
                              {"material", "steel"},
                              {"markers", {{{"id", "k"}, {"position", {0.1, 0.2, 0.3}}, {"orientation", {0, 0, psi}}}}},
                              {"geometry", {{{"shape", "box"}, {"size", {{"lx", lx}, {"ly", ly}, {"lz", lz}}}, {"marker", "k"}}}}});
    const double m = rho * lx * ly * lz;
    const double Ixx = m * (ly * ly + lz * lz) / 12, Iyy = m * (lx * lx + lz * lz) / 12, Izz = m * (lx * lx + ly * ly) / 12;
    const double cs = std::cos(psi), sn = std::sin(psi);
    checkVec(p.cm, {0.1, 0.2, 0.3}, 1e-15);
    checkInertia(p.inertia, {Ixx * cs * cs + Iyy * sn * sn, Ixx * sn * sn + Iyy * cs * cs, Izz, (Ixx - Iyy) * sn * cs, 0, 0});

    const double r = 0.01, h = 0.3;
    const PartDef q = parsed({{"id", "arm"},
                              {"mass_properties", "from_geometry"},
                              {"mass", 1.5},
                              {"markers", {{{"id", "k"}, {"position", {0, 0, 0}}, {"orientation", {kPi / 2, 0, 0}}}}},
                              {"geometry", {{{"shape", "cylinder"}, {"size", {{"radius", r}, {"length", h}}}, {"marker", "k"}}}}});
    checkVec(q.cm, {0, -h / 2, 0}, 1e-15);
    const double t = 1.5 * (3 * r * r + h * h) / 12;
    checkInertia(q.inertia, {t, 1.5 * r * r / 2, t, 0, 0, 0});
  }

  // Saved with its basis only, read back to the same part; explicit mass
  // properties stay exactly as written.
  void roundTripAndExplicit() {
    const json arm = {{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "brass"},
                      {"geometry", {{{"shape", "sphere"}, {"size", {{"radius", 0.03}}}}}}};
    Mechanism m = parseMechanism(mechanismWith(arm), "m.json");
    const json saved = serializeMechanism(m);
    const json& part = saved["parts"][1];
    QCOMPARE(part["material"].get<std::string>(), std::string("brass"));
    QVERIFY(!part.contains("inertia") && !part.contains("cm") && !part.contains("mass"));
    QVERIFY(parseMechanism(saved, "m.json") == m);

    const json plain = {{"id", "arm"}, {"mass", 0.7}, {"cm", {0.1, 0, 0}}, {"inertia", {1e-3, 2e-3, 2.5e-3, 1e-5, 0, 0}},
                        {"geometry", {{{"shape", "sphere"}, {"size", {{"radius", 0.03}}}}}}};
    const PartDef p = parsed(plain);
    QCOMPARE(p.mass, 0.7);
    QVERIFY((p.cm == Vec3{0.1, 0, 0}));
    QVERIFY((p.inertia == std::array<double, 6>{1e-3, 2e-3, 2.5e-3, 1e-5, 0, 0}));
    QVERIFY(p.mass_properties.empty());
    QVERIFY(serializeMechanism(parseMechanism(mechanismWith(plain), "m.json"))["parts"][1]["inertia"] == plain["inertia"]);
  }

  // --set arm.mass on a part from its geometry: that mass, the same shape.
  void massOverrideKeepsTheDistribution() {
    Project pr;
    pr.mechanism = parseMechanism(
        mechanismWith({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "steel"},
                       {"geometry", {{{"shape", "cylinder"}, {"size", {{"radius", 0.02}, {"length", 0.5}}}}}}}),
        "m.json");
    applyOverride(pr, "arm.mass=3");
    const PartDef& p = pr.mechanism.parts[1];
    QCOMPARE(p.mass, 3.0);
    CHECK_REL(p.inertia[0], 3.0 * (3 * 0.02 * 0.02 + 0.5 * 0.5) / 12, 1e-12);
    CHECK_REL(p.inertia[2], 3.0 * 0.02 * 0.02 / 2, 1e-12);
  }

  void errorsNamePartAndField() {
    const json sphere = {{{"shape", "sphere"}, {"size", {{"radius", 0.03}}}}};
    using E = std::pair<std::string, std::string>;
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "unobtainium"}, {"geometry", sphere}}),
             E("arm", "material"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"geometry", sphere}}), E("arm", "mass_properties"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "steel"}, {"mass", 1}, {"geometry", sphere}}),
             E("arm", "mass"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "steel"},
                      {"inertia", {1, 1, 1, 0, 0, 0}}, {"geometry", sphere}}),
             E("arm", "inertia"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"density", -5}, {"geometry", sphere}}),
             E("arm", "density"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from geometry"}, {"density", 5}, {"geometry", sphere}}),
             E("arm", "mass_properties"));
    QCOMPARE(refused({{"id", "arm"}, {"material", "steel"}, {"geometry", sphere}}), E("arm", "material"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "steel"},
                      {"geometry", {{{"shape", "box"}, {"size", {{"lx", 0.1}, {"ly", 0.1}}}}}}}),
             E("arm", "geometry[0].size.lz"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "steel"},
                      {"geometry", {{{"shape", "link"}, {"size", {{"width", 0.1}}}}}}}),
             E("arm", "geometry"));
    QCOMPARE(refused({{"id", "arm"}, {"mass_properties", "from_geometry"}, {"material", "steel"},
                      {"geometry", {{{"shape", "sphere"}, {"size", {{"radius", 0.1}}}, {"marker", "nowhere"}}}}}),
             E("arm", "geometry[0].marker"));
    QCOMPARE(refused({{"id", "arm"},
                      {"geometry", {{{"shape", "tube"}, {"size", {{"radius", 0.01}, {"inner_radius", 0.01}, {"length", 1}}}}}}}),
             E("arm", "geometry.size.inner_radius"));
  }
};

QTEST_APPLESS_MAIN(TestMassProperties)
#include "test_mass_properties.moc"
