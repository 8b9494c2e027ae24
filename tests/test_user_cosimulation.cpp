// A user component's mechanical port in the co-simulation coupling (issue
// 24, element/backplane.h): the force is evaluated on the mechanical side
// with the mechanics' own x, v and the circuit values it reads (pressures,
// temperatures, states) sent by the pneumatic side at both ends of each
// exchange interval and interpolated linearly between them. A force of x, v
// alone is then the monolithic run's at any interval; one that reads a
// chamber's pressure converges on it as the interval shrinks.
#include "support/guided_carriage.h"
#include "support/test_project.h"
#include "support/user_library.h"

#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::test;

namespace {

Project cosimulated(Project p, double H) {
  p.simulation.coupling = "cosimulation";
  p.simulation.exchange_interval = H;
  return p;
}

// The carriage's travel from its start (the guide's displacement less its
// first value): the port's x as the mechanics has it.
std::vector<double> stroke(const Run& r) {
  std::vector<double> s = r.col("guide.displacement");
  const double s0 = s.front();
  for (double& v : s) v -= s0;
  return s;
}

// Largest |a - b| of a channel (or the stroke) over two runs' common output times.
double deviation(const Run& a, const Run& b, const std::string& channel) {
  const auto x = channel.empty() ? stroke(a) : a.col(channel), y = channel.empty() ? stroke(b) : b.col(channel);
  if (a.t != b.t) return std::numeric_limits<double>::infinity();
  double d = 0.0;
  for (size_t i = 0; i < x.size(); ++i) d = std::max(d, std::abs(x[i] - y[i]));
  return d;
}

}  // namespace

class TestUserCosimulation : public QObject {
  Q_OBJECT
 private slots:
  // A spring-damper actuator written as a user component, F = F0 - k x - c v,
  // on a carriage of m = 2 kg: x(t) = F0/k (1 - e^(-z w t) (cos wd t +
  // z / sqrt(1 - z^2) sin wd t)), w = sqrt(k/m), z = c / (2 sqrt(k m)),
  // wd = w sqrt(1 - z^2). Its force reads x and v alone, which the
  // mechanics evaluates itself: co-simulated at a coarse and a fine
  // interval it is the monolithic run (and the hand curve) to the
  // integrators' tolerance.
  void springDamperIsTheMonolithicRun() {
    loadOneFileLibrary(R"json({
      "name": "cosim_spring",
      "ports": [{"name": "rod", "domain": "mechanical"}],
      "parameters": [{"name": "F0", "unit": "N", "default": 100.0},
                     {"name": "k", "unit": "N/m", "default": 2000.0},
                     {"name": "c", "unit": "N s/m", "default": 40.0}],
      "forces": [{"port": "rod", "force": "F0 - k * x_rod - c * v_rod"}]
    })json",
                       "cosim_spring.json");
    const double F0 = 100.0, k = 2000.0, c = 40.0, m = 2.0;
    const double w = std::sqrt(k / m), z = c / (2.0 * std::sqrt(k * m)), wd = w * std::sqrt(1.0 - z * z);
    auto hand = [&](double t) {
      return F0 / k * (1.0 - std::exp(-z * w * t) * (std::cos(wd * t) + z / std::sqrt(1.0 - z * z) * std::sin(wd * t)));
    };
    Project mono = guidedCarriage(m, comp("spr", "cosim_spring"));
    settings(mono, 0.5, 0.005, Tolerances{1e-9, std::nullopt, std::nullopt, 1e-10});
    auto ref = simulate(mono, "monolithic");
    REQUIRE_OK(ref);
    qInfo("guide.displacement starts at %g m (the markers' start distance)", ref->col("guide.displacement").front());
    const double handError = worst(*ref, stroke(*ref), hand);
    qInfo("monolithic against the hand curve: %.3e m", handError);
    CHECK_WORST(handError, 1e-6);
    for (double H : {1e-2, 1e-3}) {
      auto r = simulate(cosimulated(mono, H), "cosimulated");
      REQUIRE_OK(r);
      QCOMPARE(r->result.stats.coupling, std::string("cosimulation"));
      const double d = deviation(*r, *ref, "");
      qInfo("H = %g s: largest deviation from the monolithic run %.3e m", H, d);
      CHECK_WORST(d, 1e-6);
      CHECK_WORST(worst(*r, stroke(*r), hand), 1e-6);
    }
  }

  // A single-acting piston written as a user component: a chamber of
  // V0 + A x fed from 6 bar through an ISO 6358 restriction, its force
  // (p - p_amb) A - k x - c v moving a 2 kg carriage. Monolithic, it comes
  // to rest at the hand equilibrium (p_s - p_amb) A / k. Co-simulated, the
  // mechanics sees the chamber pressure as a line over each interval and
  // the chamber the motion extrapolated (x0 + v0 s + a0 s^2/2, a0 the
  // last interval's mean: x off by O(H^3), v by O(H^2) within an
  // interval), the mechanics the pressure as a line (off by O(H^2)); those
  // local errors add up over 1/H intervals to a stroke deviation from the
  // monolithic run of O(H^2), measured at H = 2, 1 and 0.5 ms.
  void pneumaticPistonConvergesOnTheMonolithicRun() {
    loadOneFileLibrary(R"json({
      "name": "cosim_piston",
      "ports": [{"name": "1"}, {"name": "rod", "domain": "mechanical"}],
      "parameters": [{"name": "A", "unit": "m2", "default": 8.0425e-4, "min": 0, "min_open": true},
                     {"name": "V0", "unit": "m3", "default": 1e-5, "min": 0, "min_open": true},
                     {"name": "k", "unit": "N/m", "default": 2000},
                     {"name": "c", "unit": "N s/m", "default": 50}],
      "volumes": [{"port": "1", "volume": "V0 + A * x_rod", "volume_rate": "A * v_rod"}],
      "forces": [{"port": "rod", "force": "(p_1 - p_amb) * A - k * x_rod - c * v_rod"}],
      "outputs": [{"name": "p", "unit": "Pa", "value": "p_1"}]
    })json",
                       "cosim_piston.json");
    const double A = 8.0425e-4, k = 2000.0, pSupply = 601325.0, pAmb = 101325.0;
    Project mono = guidedCarriage(2.0, comp("pst", "cosim_piston"));
    mono.components.insert(mono.components.begin(), comp("src", "supply", {{"p", pSupply}}));
    mono.components.insert(mono.components.begin() + 1, comp("r", "restriction", {{"C", 1e-8}}));
    wire(mono, "src.1", "r.1");
    wire(mono, "r.2", "pst.1");
    settings(mono, 1.5, 0.005, Tolerances{1e-9, 1e-3, 1e-6, 1e-10});
    auto ref = simulate(mono, "monolithic");
    REQUIRE_OK(ref);
    const double xEq = (pSupply - pAmb) * A / k;  // 0.2010625 m
    CHECK_ABS(stroke(*ref).back(), xEq, 1e-5);
    const double Hs[] = {2e-3, 1e-3, 5e-4};
    double dev[3];
    for (int i = 0; i < 3; ++i) {
      auto r = simulate(cosimulated(mono, Hs[i]), "cosimulated");
      REQUIRE_OK(r);
      dev[i] = deviation(*r, *ref, "");
      qInfo("H = %g s: largest stroke deviation from the monolithic run %.4e m (pressure %.4e Pa)", Hs[i], dev[i],
            deviation(*r, *ref, "pst.p"));
    }
    // Second order: each halving divides the deviation by about 4 (measured
    // 3.59 and 3.79; first order would give 2), and the deviation stays
    // within 30 H^2 m (measured 8.4e-5, 2.3e-5, 6.2e-6 m: 21-25 H^2).
    for (int i = 0; i < 3; ++i) CHECK_WORST(dev[i], 30.0 * Hs[i] * Hs[i]);
    for (int i = 0; i < 2; ++i) {
      const double ratio = dev[i] / dev[i + 1];
      qInfo("halving H = %g s divides the deviation by %.3f", Hs[i], ratio);
      QVERIFY2(ratio > 3.2 && ratio < 4.8, "not second order in H");
    }
  }
};

QTEST_APPLESS_MAIN(TestUserCosimulation)
#include "test_user_cosimulation.moc"
