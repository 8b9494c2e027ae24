// What reads a circuit beside its run sees sub-circuits expanded, as the
// compiler does (issue 24): key results, the bill of materials, the geometry
// checks and the dead-point warnings. Issue 28's lever (seed 003's circuit
// turning a 0.5 m, 2 kg lever) with its cylinder packed alone into a
// sub-circuit `act`: the inner cylinder is `act.cyl1` everywhere, with the
// flat circuit's numbers.
#include "analyses/geometry_checks.h"
#include "build/project_input.h"
#include "io/project_file.h"
#include "model/component_type.h"
#include "model/mass_properties.h"
#include "results/bill_of_materials.h"
#include "results/key_results.h"
#include "support/lever_project.h"
#include "support/pack_subcircuit.h"
#include "support/test_project.h"

#include <QtTest>

using namespace pm;
using namespace pm::test;
using nlohmann::json;

namespace {

// The lever with its mass properties from its box (the run goes over the dead point).
Project lever() {
  Project p = leverProject({0.15, -0.3, 0});
  p.mechanism.parts[1].mass_properties = "from_geometry";
  if (applyMassProperties(p.mechanism.parts[1])) qFatal("the lever's mass properties");
  return p;
}

bool contains(const std::vector<GeometryFinding>& v, const std::string& s) {
  return std::any_of(v.begin(), v.end(), [&](const GeometryFinding& f) { return f.message.find(s) != std::string::npos; });
}

std::string joined(const std::vector<GeometryFinding>& v) {
  std::string s;
  for (const GeometryFinding& f : v) s += f.message + "\n";
  return s.empty() ? "no findings" : s;
}

}  // namespace

class TestSubcircuitAnalyses : public QObject {
  Q_OBJECT
 private slots:
  // The sweep of test_geometry_checks::sweepReportsOverCentre, on the inner
  // cylinder: |B| = sqrt(0.15^2 + 0.3^2) = 335.410 mm from the pivot, the
  // length peaks at 335.410 + 150 = 485.410 mm (x = 185.41 mm of 200) with
  // the pivot at 180 - atan(0.3 / 0.15) = 116.565 deg.
  void geometryCheckSeesTheInnerCylinder() {
    const Project packed = packAlone(lever(), "cyl1", "lever_cylinder", "act");
    QVERIFY(packed.find("cyl1") == nullptr);
    const auto f = checkMechanismGeometry(packed);
    QVERIFY2(contains(f, "cylinder 'act.cyl1' goes over centre: driving joint 'pivot' from 0 deg, its length peaks at "
                         "485.41 mm (x = 185.41 mm of its 200 mm stroke) with 'pivot' at 116.565 deg, a dead point"),
             joined(f).c_str());
  }

  // The packed run equals the flat one (the cylinder keeps its place in the
  // order), so its key results are the flat ones under the inner name, and
  // its dead-point warning names the inner cylinder.
  void keyResultsAndDeadPointsSeeTheInnerCylinder() {
    const Project flat = lever();
    const Project packed = packAlone(flat, "cyl1", "lever_cylinder", "act");
    auto a = simulate(packed, "packed");
    auto b = simulate(flat, "flat");
    REQUIRE_OK(a);
    REQUIRE_OK(b);
    const auto channels = keyResultChannels(packed);
    QVERIFY(std::find(channels.begin(), channels.end(), "act.cyl1.x") != channels.end());
    const KeyResults kp = computeKeyResults(packed, a->out), kf = computeKeyResults(flat, b->out);
    QCOMPARE(kp.cylinders.size(), size_t(1));
    QCOMPARE(kp.cylinders[0].id, std::string("act.cyl1"));
    QCOMPARE(kp.cylinders[0].stroke, 0.2);
    QVERIFY(!kf.cylinders[0].strokes.empty());  // the lever does stroke
    QCOMPARE(kp.cylinders[0].strokes.size(), kf.cylinders[0].strokes.size());
    for (size_t k = 0; k < kf.cylinders[0].strokes.size(); ++k) {
      const StrokeResult &sp = kp.cylinders[0].strokes[k], &sf = kf.cylinders[0].strokes[k];
      QCOMPARE(sp.tStart, sf.tStart);  // the same run, bit for bit
      QCOMPARE(sp.tEnd, sf.tEnd);
      QCOMPARE(sp.vMax, sf.vMax);
      QCOMPARE(sp.valve, sf.valve);
      QCOMPARE(sp.tSignal, sf.tSignal);
    }
    // The valve outside commands the inner cylinder. (The lever drags the
    // piston back after its dead point: that stroke back has no command.)
    QCOMPARE(kp.cylinders[0].strokes[0].valve, std::string("v1"));
    QVERIFY(kp.cylinders[0].strokes[0].tStart > kp.cylinders[0].strokes[0].tSignal);  // moves after its signal

    const auto dc = deadPointChannels(packed);
    QVERIFY(std::find(dc.begin(), dc.end(), "act.cyl1.v") != dc.end());
    const auto w = deadPointCrossings(packed, a->out), wf = deadPointCrossings(flat, b->out);
    QCOMPARE(w.size(), size_t(1));
    QCOMPARE(wf.size(), size_t(1));
    std::string expected = wf[0].message;
    expected.replace(expected.find("'cyl1'"), 6, "'act.cyl1'");
    QCOMPARE(QString::fromStdString(w[0].message), QString::fromStdString(expected));
    QCOMPARE(w[0].object, std::string("act.cyl1"));
  }

  // The bill of materials lists the parts inside each: the seed 003 valve
  // block's 5/2 valve and flow control, as the flat circuit lists them
  // (their ids under the instance's), and their open exhausts.
  void billOfMaterialsListsTheParts() {
    const Project flat = loadProject(projectPath("seed003_meter_out.pneumech.json"));
    const Project packed = loadProject(projectPath("user_components/seed003_subcircuit.pneumech.json"));
    const auto bf = billOfMaterials(flat, ReportSettings{});
    const auto bp = billOfMaterials(packed, ReportSettings{});
    QCOMPARE(bp.size(), bf.size());
    for (size_t k = 0; k < bp.size(); ++k) {  // the inside in the block's place, in its order
      BomItem b = bp[k];
      if (b.id.rfind("vfc.", 0) == 0) b.id.erase(0, 4);
      QVERIFY2(bf[k] == b, (b.id + ": " + b.function + " / " + b.size + " against " + bf[k].id).c_str());
    }
    QVERIFY(std::any_of(bp.begin(), bp.end(), [](const BomItem& b) { return b.id == "vfc.v1" && b.code == "1V1"; }));
    std::map<std::string, BomItem> byId;
    for (const BomItem& b : bf) byId[b.id] = b;
    // The lever's cylinder inside its block: one cylinder item, Ø32 x 200 as flat.
    const Project lp = packAlone(lever(), "cyl1", "lever_cylinder", "act");
    const auto bl = billOfMaterials(lp, ReportSettings{});
    const auto cyl = std::find_if(bl.begin(), bl.end(), [](const BomItem& b) { return b.id == "act.cyl1"; });
    QVERIFY(cyl != bl.end());
    QCOMPARE(cyl->function, byId["cyl1"].function);
    QCOMPARE(cyl->size, byId["cyl1"].size);
  }
};

QTEST_APPLESS_MAIN(TestSubcircuitAnalyses)
#include "test_subcircuit_analyses.moc"
