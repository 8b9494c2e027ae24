// The mechanism's geometry checked, not run silently (issue 28, point 1):
// an attached cylinder's markers against its length range, the kinematic
// sweep's dead points, joints that cannot move the part, default inertia
// against drawn geometry, and a run over a dead point. The scenario is the
// issue's: the seed 003 circuit driving a 0.5 m, 2 kg lever on a pivot.
#include "analyses/geometry_checks.h"
#include "build/compiler.h"
#include "build/project_input.h"
#include "model/mass_properties.h"
#include "model/project_error.h"
#include "io/mesh_file.h"
#include "support/test_meshes.h"
#include "support/lever_project.h"
#include "support/test_project.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

// The compile's refusal of the project, or "" when it compiles.
std::string compileError(const Project& p) {
  try {
    Compiler::compile(p, "lever.pneumech.json");
  } catch (const ProjectError& e) {
    return e.what();
  }
  return {};
}

std::vector<std::string> findings(const Project& p) {
  std::vector<std::string> v;
  for (const GeometryFinding& f : checkMechanismGeometry(p)) v.push_back(f.message);
  return v;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& m : v) s += m + "\n";
  return s.empty() ? "no findings" : s;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& m) { return m.find(s) != std::string::npos; });
}

}  // namespace

class TestGeometryChecks : public QObject {
  Q_OBJECT

 private slots:
  // Mounting points 50 mm apart for a Ø32 x 100 cylinder: it is at least
  // stroke + 1.5 bore = 100 + 48 = 148 mm long retracted, 248 extended.
  void refusesMarkersCloserThanTheCylinder() {
    Project p = leverProject({0.15, -0.05, 0});
    p.find("cyl1")->params["stroke"] = 0.1;
    QCOMPARE(QString::fromStdString(compileError(p)),
             QString("lever.pneumech.json: object 'cyl1', field 'data.attach': markers 'ground.clevis' (barrel) and "
                     "'lever.P' (rod) are 50 mm apart at the assembled start; a bore 32 mm x stroke 100 mm cylinder "
                     "measures at least 148 mm between its mounting points retracted (stroke + 1.5 bore) and 248 mm "
                     "extended, so with x0 = 0 mm they must be at least 148 mm apart: move the parts "
                     "(params.L_retracted gives the catalogue length)"));
  }

  // At 0 mm the error names the markers too.
  void zeroDistanceNamesTheMarkers() {
    const std::string e = compileError(leverProject({0.15, 0, 0}));
    QVERIFY2(e.find("markers 'ground.clevis' (barrel) and 'lever.P' (rod) are 0 mm apart") != std::string::npos,
             e.c_str());
    QVERIFY2(e.find("at least 248 mm apart") != std::string::npos, e.c_str());  // 200 + 48
  }

  // With the catalogue's retracted length the markers must sit inside
  // [L, L + stroke], and at L + x0.
  void catalogueLengthGivesTheRange() {
    Project p = leverProject({0.15, -0.3, 0});  // 300 mm apart
    Component* c = p.find("cyl1");
    c->params["L_retracted"] = 0.35;
    std::string e = compileError(p);
    QVERIFY2(e.find("are 300 mm apart at the assembled start; a bore 32 mm x stroke 200 mm cylinder with L_retracted "
                    "350 mm spans 350 .. 550 mm between its mounting points") != std::string::npos,
             e.c_str());
    c->params["L_retracted"] = 0.25;  // in range (x = 50 mm) but x0 = 0
    e = compileError(p);
    QVERIFY2(e.find("which is x = 50 mm of a bore 32 mm x stroke 200 mm cylinder (range 250 .. 450 mm), but x0 is 0 mm: "
                    "set x0 to 50 mm") != std::string::npos,
             e.c_str());
    c->params["x0"] = 0.05;
    QCOMPARE(QString::fromStdString(compileError(p)), QString());
  }

  // The CLI refuses it with exit code 2, naming markers and range.
  void cliRefusesWithExitCode2() {
    Project p = leverProject({0.15, -0.05, 0});
    p.find("cyl1")->params["stroke"] = 0.1;
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/lever.pneumech.json";
    saveProject(p, path);
    QProcess cli;
    cli.start(PM_CLI, {"check", QString::fromStdString(path)});
    QVERIFY(cli.waitForFinished(60000));
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    QCOMPARE(cli.exitCode(), 2);
    QVERIFY2(err.contains("markers 'ground.clevis' (barrel) and 'lever.P' (rod) are 50 mm apart"), qPrintable(err));
    QVERIFY2(err.contains("at least 148 mm apart"), qPrintable(err));
  }

  // The run: the rod end 150 mm from the pivot, the clevis 300 mm
  // below it (|B| = sqrt(0.15^2 + 0.3^2) = 335.410 mm from the pivot). The
  // distance peaks when the rod end is opposite the clevis: 335.410 + 150 =
  // 485.410 mm, x = 185.410 mm of the 200 mm stroke, at 180 - atan(0.3 /
  // 0.15) = 116.565 deg.
  void sweepReportsOverCentre() {
    const Project p = leverProject({0.15, -0.3, 0});
    QCOMPARE(QString::fromStdString(compileError(p)), QString());
    const auto f = findings(p);
    QVERIFY2(contains(f, "cylinder 'cyl1' goes over centre: driving joint 'pivot' from 0 deg, its length peaks at "
                         "485.41 mm (x = 185.41 mm of its 200 mm stroke) with 'pivot' at 116.565 deg, a dead point"),
             joined(f).c_str());
  }

  // A clevis 300 mm from the pivot along the lever's normal at 100 mm
  // stroke reaches its end before any dead point: no finding but inertia.
  void sweepPassesAUsableStroke() {
    Project p = leverProject({0.15, -0.3, 0});
    Component* c = p.find("cyl1");
    c->params["stroke"] = 0.1;
    auto f = findings(p);
    QVERIFY2(!contains(f, "over centre"), joined(f).c_str());
  }

  // The pivot's axis along y, parallel to the cylinder's line: the cylinder
  // cannot turn the lever.
  void jointAxisParallelToTheCylinderCannotMove() {
    const Project p = leverProject({0.15, -0.3, 0}, {-std::numbers::pi / 2, 0, 0});
    const auto f = findings(p);
    QVERIFY2(contains(f, "cylinder 'cyl1' cannot move the linkage: at the start no joint changes its length (joint "
                         "'pivot' turns about an axis parallel to the cylinder's line (z of marker 'ground.pivot'))"),
             joined(f).c_str());
  }

  // The lever on a slide along z instead, the cylinder's line along y: the
  // slide moves across the line and cannot change its length.
  void slideAcrossTheCylinderCannotMove() {
    Project p = leverProject({0.15, -0.3, 0});
    p.mechanism.joints[0].id = "slide";
    p.mechanism.joints[0].type = "translational";
    const auto f = findings(p);
    QVERIFY2(contains(f, "cylinder 'cyl1' cannot move the linkage: at the start no joint changes its length (joint "
                         "'slide' slides across the cylinder's line (z of marker 'ground.pivot'))"),
             joined(f).c_str());
  }

  // A 2 kg, 500 x 30 x 10 mm bar left at the default 0.001 kg m2: the box
  // gives Izz = 2 (0.5^2 + 0.03^2) / 12 = 0.0418167 kg m2 about (0.25, 0, 0).
  void defaultInertiaAgainstDrawnGeometry() {
    const Project p = leverProject({0.15, -0.3, 0});
    const auto f = findings(p);
    QVERIFY2(contains(f, "part 'lever' has the default inertia (0.001 kg m2 about each axis), but its drawn geometry "
                         "(box) with its mass 2 kg gives Ixx, Iyy, Izz = 0.000166667, 0.0416833, 0.0418167 kg m2 about "
                         "a centre of mass at (0.25, 0, 0) m"),
             joined(f).c_str());
    // With the geometry's own mass properties nothing is said.
    Project q = p;
    q.mechanism.parts[1].mass_properties = "from_geometry";
    q.mechanism.parts[1].density = 0.0;
    QVERIFY(applyMassProperties(q.mechanism.parts[1]) == std::nullopt);
    QVERIFY(!contains(findings(q), "default inertia"));
  }

  // The same bar drawn as a closed STL mesh (500 x 30 x 10 mm about the
  // mid marker): the mesh is weighed as the box was, and the warning names
  // the file. Without a mesh reader the mesh says nothing.
  void defaultInertiaAgainstAMesh() {
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString();
    writeFile(folder + "/bar.stl", asciiStl(boxMesh(0.5, 0.03, 0.01)));
    Project p = leverProject({0.15, -0.3, 0});
    Geometry mesh;
    mesh.shape = "mesh";
    mesh.file = "bar.stl";
    mesh.marker = "mid";
    p.mechanism.parts[1].geometry = {mesh};
    const std::string file = folder + "/lever.pneumech.json";
    std::vector<std::string> f;
    for (const GeometryFinding& g : checkMechanismGeometry(p, meshReaderFor(file))) f.push_back(g.message);
    QVERIFY2(contains(f, "part 'lever' has the default inertia (0.001 kg m2 about each axis), but its drawn geometry "
                         "(mesh bar.stl) with its mass 2 kg gives Ixx, Iyy, Izz = 0.000166667, 0.0416833, 0.0418167 "
                         "kg m2 about a centre of mass at (0.25, 0, 0) m"),
             joined(f).c_str());
    QVERIFY2(!contains(findings(p), "default inertia"), "no reader: the mesh is not weighed");
  }

  // The run over the dead point says so, at the dead point's angle.
  void runOverADeadPointWarns() {
    Project p = leverProject({0.15, -0.3, 0});
    p.mechanism.parts[1].mass_properties = "from_geometry";
    QVERIFY(applyMassProperties(p.mechanism.parts[1]) == std::nullopt);
    const auto run = simulate(p, "lever");
    QVERIFY2(run->ok(), run->message().c_str());
    const auto w = deadPointCrossings(p, run->out);
    QCOMPARE(w.size(), size_t(1));
    const std::string& m = w.front().message;
    QVERIFY2(m.find("cylinder 'cyl1' drove the linkage over a dead point at t = ") == 0, m.c_str());
    QVERIFY2(m.find("joint 'pivot' kept turning") != std::string::npos, m.c_str());
    // Reversal between two output rows: the angle there within 1 deg of 116.565 deg.
    const auto at = m.find(" at ", m.find("rad/s"));
    const double deg = std::stod(m.substr(at + 4));
    QVERIFY2(std::abs(deg - 116.565) < 1.0, m.c_str());
  }
};

QTEST_GUILESS_MAIN(TestGeometryChecks)
#include "test_geometry_checks.moc"
