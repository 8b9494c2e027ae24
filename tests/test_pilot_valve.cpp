// Pilot actuation of directional valves (core/pneumatics/directional_valve.cpp):
// a valve piloted from a tank whose pressure passes the pilot threshold
// smoothly switches at the instant the hand formula gives. IDA locates the
// pilot's root where the gauge pressure sits exactly on the threshold, so
// the valve must read a tie there as the crossing (it once stayed put).
//
// Rig: isothermal tank (T = 293.15 K) filled or vented through a restriction
// that stays choked, so ISO 6358 reads q = C p_up rho0 and V dp/dt = R T q:
//  - filled from p_s (p_tank <= b p_s throughout): p = p0 + R T C p_s rho0 t / V;
//  - vented to ambient (p_amb <= b p_tank throughout): p = p0 exp(-R T C rho0 t / V).
#include "analyses/simulation.h"
#include "model/project.h"
#include "support/test_project.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kR = 287.05, kRho0 = 1.185, kT = 293.15, kPamb = 101325.0;
constexpr double kC = 5e-9, kB = 0.5, kV = 1e-3, kPilot = 2e5, kSwitch = 0.01;
constexpr test::Tolerances kTol{.rel = 1e-8, .pressure = 1e-3, .temperature = 1e-6};

Component tank(const std::string& id, double p0) {
  return comp(id, "reservoir", {{"V", kV}, {"p0", p0}, {"T0", kT}, {"T_wall", kT}, {"isothermal", 1.0}});
}

// Supply -> 3/2 NC valve -> consumer tank; the valve's pilot 14 on `pilotTank`.
Project rig(Component pilotTank) {
  Project p;
  p.components = {comp("sup", "supply", {{"p", 8e5}, {"T", kT}}), std::move(pilotTank),
                  comp("v", "valve_3_2_nc", {{"pilot_pressure", kPilot}, {"t_switch", kSwitch}}),
                  tank("consumer", kPamb)};
  wire(p, "sup.1", "v.1");
  wire(p, "v.2", "consumer.1");
  wire(p, "pilot.1", "v.14");
  return p;
}

}  // namespace

class TestPilotValve : public QObject {
  Q_OBJECT

 private slots:
  // Pilot pressure rising through the threshold: the spool leaves rest at
  // t* = (p_pilot_abs - p0) V / (R T C p_s rho0) and is half way t_switch/2 later.
  void risingPilotSwitchesAtThreshold() {
    const double ps = 8e5;
    Project p = rig(tank("pilot", kPamb));
    p.components.push_back(comp("r", "restriction", {{"C", kC}, {"b", kB}}));
    wire(p, "sup.1", "r.1");
    wire(p, "r.2", "pilot.1");
    settings(p, 1.0, 1e-3, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    QVERIFY(kPamb + kPilot <= kB * ps);  // choked until the switch
    const double tStar = kPilot * kV / (kR * kT * kC * ps * kRho0);
    // Linear rise: sampled at 1 ms, the pressure meets the formula closely.
    CHECK_REL(run->at("pilot.p", 0.5 * tStar), kPamb + 0.5 * kPilot, 1e-6);
    // The spool's ramp is linear, so interpolating the 1 ms samples is exact
    // up to the root's location (IDA: ~1e-8 s here).
    CHECK_ABS(run->crossing("v.s", 0.5), tStar + 0.5 * kSwitch, 1e-6);
    QVERIFY(run->col("consumer.p").back() > 2 * kPamb);  // the opened path 1 -> 2 fills it
  }

  // Pilot pressure falling through the threshold: the valve, actuated from
  // the start, springs back at t* = V / (R T C rho0) ln(p0 / p_pilot_abs).
  void fallingPilotReleasesAtThreshold() {
    const double p0 = 4.5e5;
    Project p = rig(tank("pilot", p0));
    p.components.push_back(comp("muffler", "silencer", {{"C", kC}, {"b", kB}}));
    wire(p, "pilot.1", "muffler.1");
    settings(p, 1.0, 1e-3, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    QVERIFY(kPamb <= kB * (kPamb + kPilot));  // choked until the release
    CHECK_ABS(run->col("v.s").front(), 1.0, 0.0);  // actuated at the start
    const double k = kR * kT * kC * kRho0 / kV;
    const double tStar = std::log(p0 / (kPamb + kPilot)) / k;
    CHECK_REL(run->at("pilot.p", 0.5 * tStar), p0 * std::exp(-k * 0.5 * tStar), 1e-6);
    CHECK_ABS(run->crossing("v.s", 0.5), tStar + 0.5 * kSwitch, 1e-6);
  }
};

QTEST_APPLESS_MAIN(TestPilotValve)
#include "test_pilot_valve.moc"
