// Parameter studies (core/studies/): the samplers' defining properties, the
// study section's checks, a study's rows against single runs with --set,
// failed variants, and the optimiser against a bisection.
#include "build/project_input.h"
#include "engine/engine.h"
#include "studies/sampling.h"
#include "support/test_project.h"

#include <QtTest>

#include <cmath>
#include <set>
#include <thread>

using namespace pm;
using namespace pm::test;

namespace {

const std::string kSeed003 = "seed003_meter_out.pneumech.json";

// The seed 003 circuit with a study section `study` (JSON).
Project seed003With(const nlohmann::json& study) {
  Project pr = engine::load(projectPath(kSeed003));
  pr.extra["studies"] = nlohmann::json::array({study});
  return pr;
}

// The message of the ProjectError `f` throws ("" when it throws none).
template <class F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const ProjectError& e) {
    return e.what();
  }
  return {};
}

// The single run of the seed 003 example with --set `sets`, as `pneumech results` makes it.
KeyResults singleRun(const std::vector<std::string>& sets, ResultStore& store) {
  engine::Overrides o;
  o.sets = sets;
  const std::string path = projectPath(kSeed003);
  const Project pr = engine::load(path, o);
  engine::CompiledProject sim(pr, path);
  const RunResult r = sim.run(store);
  if (!r.ok()) throw std::runtime_error("single run failed: " + r.message);
  KeyResultOptions opt;
  opt.cyclesPerMinute = reportSettings(pr, path).cyclesPerMinute;
  return engine::keyResults(pr, store, opt);
}

}  // namespace

class TestStudies : public QObject {
  Q_OBJECT
 private slots:
  // Sobol' dimensions 1 and 2 start 0, 1/2, then (3/4, 1/4), (1/4, 3/4), ...
  // (Gray-code order). Any 2^k consecutive-from-0 points put exactly one
  // point in each of the 2^k equal bins of every dimension (a (0, k, 1)-net
  // per coordinate), and dimensions 1 and 2 form a (0, k, 2)-net: every
  // elementary box of area 2^-k holds one point.
  void sobolPoints() {
    const auto p = studies::sobolPoints(8, 2);
    const double d1[8] = {0, 0.5, 0.75, 0.25, 0.375, 0.875, 0.625, 0.125};
    const double d2[8] = {0, 0.5, 0.25, 0.75, 0.375, 0.875, 0.125, 0.625};
    for (int i = 0; i < 8; ++i) {
      QCOMPARE(p[i][0], d1[i]);
      QCOMPARE(p[i][1], d2[i]);
    }
    const int n = 256;
    const auto q = studies::sobolPoints(n, studies::kSobolMaxDimensions);
    for (int j = 0; j < studies::kSobolMaxDimensions; ++j) {
      std::set<int> bins;
      for (const auto& x : q) bins.insert(static_cast<int>(x[j] * n));
      QVERIFY2(bins.size() == static_cast<size_t>(n), qPrintable(QString("dimension %1").arg(j + 1)));
    }
    for (int a = 1; a < 256; a *= 2) {  // boxes of a x (256 / a) bins
      std::set<std::pair<int, int>> boxes;
      for (const auto& x : q) boxes.insert({static_cast<int>(x[0] * a), static_cast<int>(x[1] * (n / a))});
      QCOMPARE(boxes.size(), static_cast<size_t>(n));
    }
  }

  // Every dimension's n strata hold one point each; the seed fixes the sample.
  void latinHypercube() {
    const int n = 37;
    const auto p = studies::latinHypercube(n, 4, 7);
    for (int j = 0; j < 4; ++j) {
      std::set<int> strata;
      for (const auto& x : p) {
        QVERIFY(x[j] >= 0.0 && x[j] < 1.0);
        strata.insert(static_cast<int>(x[j] * n));
      }
      QCOMPARE(strata.size(), static_cast<size_t>(n));
    }
    QVERIFY(studies::latinHypercube(n, 4, 7) == p);
    QVERIFY(studies::latinHypercube(n, 4, 8) != p);
  }

  // Random points: every coordinate in [0, 1), the same for the same seed,
  // another for another; 4000 points' mean is 1/2 and their variance 1/12
  // within 4 standard errors (sigma of the mean sqrt(1/12/4000) = 0.0046).
  void randomPoints() {
    const int n = 4000;
    const auto p = studies::randomPoints(n, 3, 11);
    QCOMPARE(p.size(), size_t(n));
    for (int j = 0; j < 3; ++j) {
      double sum = 0.0, sq = 0.0;
      for (const auto& x : p) {
        QVERIFY(x[j] >= 0.0 && x[j] < 1.0);
        sum += x[j];
        sq += x[j] * x[j];
      }
      const double mean = sum / n, var = sq / n - mean * mean;
      QVERIFY2(std::abs(mean - 0.5) < 4 * std::sqrt(1.0 / 12 / n), qPrintable(QString::number(mean)));
      QVERIFY2(std::abs(var - 1.0 / 12) < 4 * std::sqrt(1.0 / 180 / n), qPrintable(QString::number(var)));
    }
    QVERIFY(studies::randomPoints(n, 3, 11) == p);
    QVERIFY(studies::randomPoints(n, 3, 12) != p);
    // "sampling": "random" maps the points onto the ranges, a list's entries equally likely.
    const nlohmann::json st = {{"parameters", {{{"path", "cyl1.bore"}, {"from", 0.02}, {"to", 0.04}},
                                               {{"path", "src.p"}, {"values", {401325, 601325}}}}},
                               {"sampling", "random"}, {"samples", 50}, {"seed", 3}};
    const studies::StudyDefinition d = studies::parseStudy(st, "f", "studies[0]");  // a signed 3, as the studio builds it
    QVERIFY(d.sampling == studies::Sampling::Random);
    QCOMPARE(d.seed, std::uint64_t(3));
    nlohmann::json negative = st;
    negative["seed"] = -3;
    QVERIFY(errorOf([&] { studies::parseStudy(negative, "f", "studies[0]"); }).find("field 'seed'") != std::string::npos);
    const auto v = studies::studyVariants(d);
    const auto u = studies::randomPoints(50, 2, 3);
    QCOMPARE(v.size(), size_t(50));
    for (size_t i = 0; i < v.size(); ++i) {
      QCOMPARE(v[i][0], 0.02 + 0.02 * u[i][0]);
      QCOMPARE(v[i][1], u[i][1] < 0.5 ? 401325.0 : 601325.0);
    }
  }

  // Grid order (last parameter fastest), a range's points as written, a
  // step's count, and --set text that reads back to the same double.
  void variantsAndValues() {
    const nlohmann::json st = {{"name", "g"},
                               {"parameters", {{{"path", "cyl1.bore"}, {"values", {0.025, 0.032}}},
                                               {{"path", "src.p"}, {"from", 401325}, {"to", 601325}, {"count", 3}}}},
                               {"results", {"cycle_time"}}};
    const studies::StudyDefinition d = studies::parseStudy(st, "f", "studies[0]");
    const auto v = studies::studyVariants(d);
    QCOMPARE(v.size(), size_t(6));
    QCOMPARE(v[1], (std::vector<double>{0.025, 501325}));
    QCOMPARE(v[3], (std::vector<double>{0.032, 401325}));
    const nlohmann::json stepped = {{"parameters", {{{"path", "cyl1.bore"}, {"from", 0.025}, {"to", 0.05}, {"step", 0.001}}}}};
    const auto s = studies::studyVariants(studies::parseStudy(stepped, "f", ""));
    QCOMPARE(s.size(), size_t(26));
    QCOMPARE(studies::valueText(s[1][0]), std::string("0.026"));  // not 0.026000000000000002
    QCOMPARE(s.back()[0], 0.05);
    for (double x : {0.1, 1.0 / 3.0, 601325.0, 1e-300, -2.5e7})
      QCOMPARE(std::strtod(studies::valueText(x).c_str(), nullptr), x);
  }

  // What --set PATH sets, as the study dialog reads a row's parameter: the
  // declaration, its owner's type and the value now (the file's, else the
  // type default); a simulation setting, a part's mass, a motion's
  // parameter; nothing for a part number or a name of nothing.
  void overrideTargets() {
    const Project pr = engine::load(projectPath(kSeed003));
    const auto bore = overrideTarget(pr, "cyl1.bore");
    QVERIFY(bore);
    QCOMPARE(bore->type, std::string("cylinder_double"));
    QCOMPARE(bore->decl.unit, std::string("m"));
    QCOMPARE(bore->value, 0.032);  // the file's
    const auto vs = overrideTarget(pr, "cyl1.v_stribeck");
    QVERIFY(vs && !pr.find("cyl1")->params.count("v_stribeck"));
    QCOMPARE(vs->value, Registry::instance().find("cylinder_double")->param("v_stribeck")->def);
    const auto p = overrideTarget(pr, "src.p");
    QVERIFY(p && p->value == 601325.0 && !p->decl.accepts(0.0));
    const auto tEnd = overrideTarget(pr, "simulation.t_end");
    QVERIFY(tEnd && tEnd->type == "simulation" && tEnd->decl.unit == "s");
    QCOMPARE(tEnd->value, pr.simulation.t_end);
    for (const char* none : {"cyl1.part", "cyl1.nothing", "nobody.bore", "simulation.coupling", "bore"})
      QVERIFY2(!overrideTarget(pr, none), none);
    QCOMPARE(overrideUnit(pr, "src.p"), std::string("Pa"));
    const Project cardan = engine::load(projectPath("cardan_shafts.pneumech.json"));
    const auto mass = overrideTarget(cardan, "shaft1.mass");
    QVERIFY(mass && mass->type == "part" && mass->decl.unit == "kg" && !mass->decl.accepts(-1.0));
    QCOMPARE(mass->value, 1.0);
    const auto drive = overrideTarget(cardan, "drive.value");
    QVERIFY(drive && drive->type == "constant");
    QCOMPARE(drive->value, 6.283185307179586);
  }

  // Bad studies say the file, the study and the field.
  void badStudies() {
    auto parse = [](const nlohmann::json& j) { return errorOf([&] { studies::parseStudy(j, "p.json", "studies[0]"); }); };
    const nlohmann::json bore = {{"path", "cyl1.bore"}, {"values", {0.03}}};
    QVERIFY(parse({{"parameters", {bore}}, {"colour", 1}}).find("field 'colour': unknown field") != std::string::npos);
    QVERIFY(parse({{"parameters", nlohmann::json::array()}}).find("field 'parameters'") != std::string::npos);
    QVERIFY(parse({{"parameters", {bore}}, {"constraints", {"cycle_time < 1"}}}).find("field 'constraints[0]'") !=
            std::string::npos);
    QVERIFY(parse({{"parameters", {bore}}, {"sampling", "sobol"}}).find("field 'samples'") != std::string::npos);
    QVERIFY(parse({{"parameters", {{{"path", "cyl1.bore"}, {"from", 0.04}, {"to", 0.03}, {"count", 2}}}}})
                .find("field 'parameters[0].to': must be greater") != std::string::npos);
    // Against the project: an unknown result, an unknown parameter.
    const std::string path = projectPath(kSeed003);
    const Project pr = engine::load(path);
    auto prepare = [&](const nlohmann::json& j) {
      return errorOf([&] { studies::prepareStudy(pr, path, studies::parseStudy(j, path, "studies[0]")); });
    };
    const std::string r = prepare({{"parameters", {bore}}, {"results", {"cyl1.stroke_time"}}});
    QVERIFY2(r.find("field 'results[0]': cylinder 'cyl1' has no key result 'stroke_time'") != std::string::npos, r.c_str());
    QVERIFY(prepare({{"parameters", {bore}}, {"results", {"max(cyl9.pA)"}}}).find("no channel 'cyl9.pA'") != std::string::npos);
    const std::string p = prepare({{"parameters", {{{"path", "cyl1.diameter"}, {"values", {0.03}}}}}});
    QVERIFY2(p.find("has no parameter 'diameter'") != std::string::npos, p.c_str());
  }

  // The table's rows are the single runs with --set, value for value (==),
  // with 1 and 2 jobs alike; an out-of-range value fails its variant only.
  void rowsEqualSingleRuns() {
    const nlohmann::json st = {
        {"name", "bore_p"},
        {"parameters", {{{"path", "cyl1.bore"}, {"values", {0.025, -1.0, 0.04}}},
                        {{"path", "src.p"}, {"values", {451325, 701325}}}}},
        {"results", {"cyl1.extend_time", "cyl1.extend_time_from_signal", "cyl1.impact_speed", "cyl1.impact_energy",
                     "air_per_cycle", "air_per_minute", "cycle_time", "cyl1.pB_max", "max(cyl1.pA)", "min(cyl1.v)",
                     "final(cyl1.x)", "src.air"}},
        {"constraints", {"cyl1.extend_time <= 0.4"}}};
    const Project pr = seed003With(st);
    const std::string path = projectPath(kSeed003);
    const studies::StudySetup setup = studies::prepareStudy(pr, path, studies::projectStudies(pr, path).at(0));
    const auto points = studies::studyVariants(setup.study);
    const auto one = studies::evaluateLocally(setup, points, 1);
    const auto two = studies::evaluateLocally(setup, points, 2);
    QCOMPARE(studies::tableCsv(setup, points, two), studies::tableCsv(setup, points, one));
    int feasible = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      const auto& r = two[i];
      if (points[i][0] < 0) {  // variants 2 and 3
        QVERIFY(!r.ok && !r.feasible);
        QVERIFY2(r.message.find("field 'bore': value -1 m is outside") != std::string::npos, r.message.c_str());
        continue;
      }
      QVERIFY2(r.ok, r.message.c_str());
      ResultStore store;
      const KeyResults kr = singleRun({"cyl1.bore=" + studies::valueText(points[i][0]),
                                       "src.p=" + studies::valueText(points[i][1])}, store);
      const CylinderResult& c = kr.cylinders.at(0);
      const StrokeResult* e = c.firstStroke(true);
      QVERIFY(e);
      const std::vector<double> x = store.column("cyl1.x"), pA = store.column("cyl1.pA"), v = store.column("cyl1.v");
      const double expect[] = {e->duration(), e->fromSignal(), e->vArrival, e->eArrival, kr.airNormalLitres,
                               kr.airNormalLitres * 30.0 /* the project's cycles per minute */, kr.cycleTime(),
                               c.pBMax, *std::max_element(pA.begin(), pA.end()), *std::min_element(v.begin(), v.end()),
                               x.back(), kr.supplies.at(0).normalLitres};
      for (size_t k = 0; k < setup.study.results.size(); ++k)
        QVERIFY2(r.results[k] == expect[k], qPrintable(QString::fromStdString(setup.study.results[k]) +
                                                       QString(" variant %1: %2 != %3").arg(i).arg(r.results[k], 0, 'g', 17)
                                                           .arg(expect[k], 0, 'g', 17)));
      QCOMPARE(r.feasible, e->duration() <= 0.4);
      feasible += r.feasible ? 1 : 0;
    }
    QVERIFY(feasible > 0 && feasible < 4);  // the constraint separates the variants
  }

  // The smallest bore that lifts 300 N (plus breakaway friction) through the
  // 200 mm stroke within 0.2 s, over a 2 mm grid: COBYLA from the grid's best
  // against a bisection of the same runs. Statics bound it from below: the
  // piston moves at all only when 5 bar gauge on the bore beats
  // F_load + F_static = 315 N, d > sqrt(4 * 315 / (pi * 5e5)) = 28.3 mm.
  void optimiserFindsSmallestBore() {
    const double grid = 0.002, limit = 0.2;
    nlohmann::json st = {{"name", "smallest_bore"},
                         {"parameters", {{{"path", "cyl1.bore"}, {"from", 0.026}, {"to", 0.038}, {"step", grid}}}},
                         {"constraints", {"cyl1.extend_time <= " + studies::valueText(limit)}},
                         {"optimise", {{"minimise", "cyl1.bore"}, {"xtol_rel", 1e-3}}}};
    Project pr = seed003With(st);
    const std::string path = projectPath(kSeed003);
    // A free-flowing circuit, so that a larger bore is always faster here.
    for (const char* s : {"cyl1.F_load=300", "fc1.C_max=1e-7", "fc1.opening=1", "v1.C_supply=3e-8", "v1.C_exhaust=3e-8"})
      applyOverride(pr, s, path);
    const studies::StudySetup setup = studies::prepareStudy(pr, path, studies::projectStudies(pr, path).at(0));
    studies::LocalEvaluator ev(setup, 2);
    const studies::OptimisationResult r = studies::optimise(setup, ev);
    QVERIFY(r.found);
    QCOMPARE(r.startEvaluations, size_t(7));
    const double best = r.points[r.best][0];
    QVERIFY(r.results[r.best].feasible);

    auto fast = [&](double d) { return studies::evaluateVariant(setup, {d}).feasible; };
    double lo = 0.026, hi = 0.038;
    QVERIFY(!fast(lo) && fast(hi));
    while (hi - lo > 1e-6) {
      const double mid = 0.5 * (lo + hi);
      (fast(mid) ? hi : lo) = mid;
    }
    const double dStatic = std::sqrt(4.0 * 315.0 / (M_PI * 5e5));
    qInfo("optimiser: bore %.6f mm after %zu runs; bisection %.6f mm; static bound %.3f mm", best * 1e3, r.points.size(),
          hi * 1e3, dStatic * 1e3);
    QVERIFY(hi > dStatic);
    QVERIFY(best >= lo);                     // feasible, so not below the bisection's answer
    QVERIFY(best - hi < grid);               // within the grid step, as asked
    QVERIFY(best - hi < 0.05 * grid);        // and in fact much closer
  }

  // Stopping a study: with one job, the flag set as variant 0 finishes
  // leaves 0 done and the rest not run (no `done` call for them); a flag set
  // while a long variant runs cancels its simulation, which says so.
  void stopKeepsFinishedVariants() {
    const nlohmann::json st = {{"name", "stop"},
                               {"parameters", {{{"path", "src.p"}, {"values", {451325, 551325, 651325, 751325}}}}},
                               {"results", {"cyl1.extend_time"}}};
    const Project pr = seed003With(st);
    const std::string path = projectPath(kSeed003);
    studies::StudySetup setup = studies::prepareStudy(pr, path, studies::projectStudies(pr, path).at(0));
    std::atomic<bool> stop{false};
    setup.cancel = &stop;
    const auto points = studies::studyVariants(setup.study);
    std::vector<size_t> reported;
    const auto r = studies::evaluateLocally(setup, points, 1, [&](size_t i, const studies::VariantResult&) {
      reported.push_back(i);
      stop = true;
    });
    QCOMPARE(reported, std::vector<size_t>{0});
    QVERIFY2(r[0].ok, r[0].message.c_str());
    for (size_t i = 1; i < r.size(); ++i) {
      QVERIFY(!r[i].ok && !r[i].feasible);
      QCOMPARE(r[i].message, std::string(studies::kNotRun));
    }

    // A 10,000 s run (minutes) stopped after 0.3 s.
    Project slow = pr;
    slow.simulation.t_end = 1e4;
    studies::StudySetup longSetup = studies::prepareStudy(slow, path, studies::projectStudies(slow, path).at(0));
    std::atomic<bool> stop2{false};
    longSetup.cancel = &stop2;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      stop2 = true;
    });
    const auto t0 = std::chrono::steady_clock::now();
    const auto c = studies::evaluateLocally(longSetup, {points[0], points[1]}, 1);
    stopper.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY2(seconds < 30.0, qPrintable(QString::number(seconds)));
    QVERIFY(!c[0].ok);
    QVERIFY2(c[0].message.rfind("simulation cancelled", 0) == 0, c[0].message.c_str());
    QCOMPARE(c[1].message, std::string(studies::kNotRun));
  }
};

QTEST_GUILESS_MAIN(TestStudies)
#include "test_studies.moc"
