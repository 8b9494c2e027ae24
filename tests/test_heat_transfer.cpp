// Wall heat transfer h*A*(T_wall - T): a sealed rigid volume relaxes
// exponentially to the wall temperature with tau = m cv / (h A), its mass
// fixed and its pressure following p = m R T / V.
#include "support/test_project.h"

#include <QtTest>

#include <cmath>

using namespace pm;
using namespace pm::test;

namespace {
constexpr double kR = 287.05, kCv = kR / 0.4;
}

class TestHeatTransfer : public QObject {
  Q_OBJECT
 private slots:
  void sealedReservoirCools() {
    const double V = 2e-3, p0 = 5e5, T0 = 373.15, Tw = 293.15, hA = 0.8;
    Project p;
    p.components.push_back(comp("tank", "reservoir", {{"V", V}, {"p0", p0}, {"T0", T0}, {"hA", hA}, {"T_wall", Tw}}));
    settings(p, 20.0, 0.01, Tolerances{1e-9});
    auto r = simulate(p);
    REQUIRE_OK(r);
    const double m = p0 * V / (kR * T0), tau = m * kCv / hA;  // 11.7 s
    for (double t : {1.0, 5.0, 10.0, 20.0}) {
      const double T = Tw + (T0 - Tw) * std::exp(-t / tau);
      CHECK_REL(r->at("tank.T", t), T, 1e-6);
      CHECK_REL(r->at("tank.p", t), m * kR * T / V, 1e-6);
      CHECK_REL(r->at("tank.m", t), m, 1e-8);
      CHECK_REL(r->at("tank.Q", t), hA * (Tw - T), 1e-5);
    }
  }

  void tubeWallHeatsBothEnds() {
    // A plugged tube holds cold air; its two halves warm with the same tau.
    const double L = 2.0, d = 6e-3, p0 = 3e5, T0 = 250.0, Tw = 300.0, hA = 0.05;
    Project p;
    p.components.push_back(comp("tb", "tube", {{"L", L}, {"d", d}, {"p0", p0}, {"T0", T0}, {"hA", hA}, {"T_wall", Tw}}));
    settings(p, 10.0, 0.01, Tolerances{1e-9});
    auto r = simulate(p);
    REQUIRE_OK(r);
    const double Vh = M_PI * d * d / 4 * L / 2, m = p0 * Vh / (kR * T0), tau = m * kCv / (hA / 2);
    for (double t : {2.0, 10.0}) {
      const double T = Tw + (T0 - Tw) * std::exp(-t / tau);
      CHECK_REL(r->at("tb.end1.T", t), T, 1e-6);
      CHECK_REL(r->at("tb.end2.T", t), T, 1e-6);
    }
  }
};

QTEST_APPLESS_MAIN(TestHeatTransfer)
#include "test_heat_transfer.moc"
