// Volume physics of whole runs (pm::Simulation) against numbers derived by hand.
//
//  a) a tank charged through a choked restriction: dp/dt = k R T_s q / V
//     (adiabatic, seed 000 volume equation with dV = Q = 0) or R T q / V
//     (isothermal), q = C p_s rho0 sqrt(T0/T_s) constant while p/p_s < b;
//  b) a sealed prescribed_volume chamber: p V^k, T V^(k-1) constant
//     (adiabatic), p V constant (isothermal), the gas work by hand; its
//     volume from a crank, a table, or a signal (the volume or its rate);
//  c) mass and energy balance of a valve/cylinder circuit (boundaries'
//     delivered mass and enthalpy vs gas content, W_gas);
//  d) static force balance of a cylinder at rest mid-stroke (gas spring of a
//     sealed chamber), against its end stop, and of a single-acting
//     cylinder on its return spring.
// Tolerances are stated at each check; the runs use tight solver tolerances so
// that each check is limited by the physics, not by integration error.
#include "analyses/simulation.h"
#include "model/project.h"
#include "pneumatics/gas.h"
#include "solver/system.h"
#include "support/test_project.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kR = 287.05, kK = 1.4, kRho0 = 1.185, kT0 = 293.15, kPamb = 101325.0;
constexpr double kCp = kK * kR / (kK - 1.0);

// ---------------------------------------------------------------- project helpers
// Tight solver tolerances: each check is limited by the physics, not by integration error.
constexpr test::Tolerances kTight{.rel = 1e-9, .pressure = 1e-4, .temperature = 1e-7, .position = 1e-11};

}  // namespace

class TestVolumePhysics : public QObject {
  Q_OBJECT

 private:
  void chokedCharging(bool iso) {
    const double ps = 1e6, Ts = 320.0, C = 1e-8, V = 1e-3, Tw = 293.15;
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", Ts}}),
                    comp("r", "restriction", {{"C", C}, {"b", 0.3}, {"m", 0.5}}),
                    comp("tank", "reservoir", {{"V", V}, {"p0", kPamb}, {"T0", 293.15}, {"T_wall", Tw},
                                               {"isothermal", iso ? 1.0 : 0.0}})};
    wire(p, "sup.1", "r.1");
    wire(p, "r.2", "tank.1");
    const double q = C * ps * kRho0 * std::sqrt(kT0 / Ts);
    const double slope = iso ? kR * Tw * q / V : kK * kR * Ts * q / V;
    const double tChokeEnd = (0.3 * ps - kPamb) / slope;  // 0.136 s adiabatic, 0.207 s isothermal
    qInfo("q = %.9g kg/s, hand dp/dt = %.9g Pa/s, choked until t = %.4f s", q, slope, tChokeEnd);
    settings(p, 0.12, 1e-3, kTight);
    QVERIFY(tChokeEnd > 0.12);  // the whole run is choked
    auto run = simulate(p);
    REQUIRE_OK(run);
    const auto t = run->out.times();
    const auto pt = run->col("tank.p"), Tt = run->col("tank.T"), m = run->col("tank.m");
    const auto mDel = run->col("sup.m_delivered"), HDel = run->col("sup.H_delivered");
    const size_t n = t.size() - 1;
    QVERIFY(std::abs(t[n] - 0.12) < 1e-12);
    QVERIFY(pt[n] / ps < 0.3);
    // Slope over the choked interval [0.01, 0.12] s: rel 1e-6 (BDF integrates a
    // straight line exactly; only Newton/tolerance error remains, ~1e-8).
    const size_t i1 = 10;
    const double measured = (pt[n] - pt[i1]) / (t[n] - t[i1]);
    CHECK_REL(measured, slope, 1e-6);
    // Straightness: every sample on p0 + slope t to 1e-6 of the rise.
    double worst = 0.0;
    for (size_t i = 0; i <= n; ++i) worst = std::max(worst, std::abs(pt[i] - (kPamb + slope * t[i])));
    CHECK_ABS(worst / (pt[n] - kPamb), 0.0, 1e-6);
    // Mass delivered = q t; the tank holds m0 + q t (rel 1e-7).
    const double m0 = kPamb * V / (kR * 293.15);
    CHECK_REL(mDel[n], q * t[n], 1e-7);
    CHECK_REL(m[n], m0 + q * t[n], 1e-7);
    // Enthalpy delivered = cp T_s q t (rel 1e-7).
    CHECK_REL(HDel[n], kCp * Ts * q * t[n], 1e-7);
    // Temperature: T = p V / (R m) with the hand p and m (rel 1e-7); isothermal: T_wall.
    const double pHand = kPamb + slope * t[n];
    CHECK_REL(Tt[n], iso ? Tw : pHand * V / (kR * (m0 + q * t[n])), 1e-7);
    if (!iso) QVERIFY(Tt[n] > 340.0);  // adiabatic charging heats the tank well above T_s
  }

  void prescribed(bool iso) {
    // V = V0 + V_swept (1 - cos(w t - pi/2))/2 = 1e-4 (1 - 0.5 sin(w t)) m3.
    const double Vmid = 1e-4, p0 = 2e5, T0 = 300.0;
    Project p;
    p.components = {comp("pv", "prescribed_volume",
                         {{"V0", 0.5 * Vmid}, {"V_swept", Vmid}, {"frequency", 5.0}, {"phase", -std::numbers::pi / 2},
                          {"p0", p0}, {"T0", T0}, {"T_wall", T0}, {"isothermal", iso ? 1.0 : 0.0}})};
    settings(p, 0.3, 1e-3, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const auto pt = run->col("pv.gas.p"), Tt = run->col("pv.gas.T"), Vt = run->col("pv.gas.V"),
               Vel = run->col("pv.V"), m = run->col("pv.gas.m"), W = run->col("pv.W_gas"), pel = run->col("pv.p");
    double worstP = 0, worstT = 0, worstM = 0, worstV = 0, worstW = 0, Vmin = 1e9, Vmax = 0;
    for (size_t i = 0; i < pt.size(); ++i) {
      const double invP = iso ? pt[i] * Vt[i] : pt[i] * std::pow(Vt[i], kK);
      const double invP0 = iso ? p0 * Vmid : p0 * std::pow(Vmid, kK);
      worstP = std::max(worstP, std::abs(invP / invP0 - 1.0));
      const double invT = iso ? Tt[i] : Tt[i] * std::pow(Vt[i], kK - 1.0);
      const double invT0 = iso ? T0 : T0 * std::pow(Vmid, kK - 1.0);
      worstT = std::max(worstT, std::abs(invT / invT0 - 1.0));
      worstM = std::max(worstM, std::abs(m[i] / (p0 * Vmid / (kR * T0)) - 1.0));
      worstV = std::max(worstV, std::abs(Vt[i] / Vel[i] - 1.0) + std::abs(pel[i] / pt[i] - 1.0));
      // Work of the gas: isothermal p0 V0 ln(V/V0); adiabatic -dU = (p0 V0 - p V)/(k - 1).
      const double Whand = iso ? p0 * Vmid * std::log(Vt[i] / Vmid) : (p0 * Vmid - pt[i] * Vt[i]) / (kK - 1.0);
      worstW = std::max(worstW, std::abs(W[i] - Whand) / (p0 * Vmid));
      Vmin = std::min(Vmin, Vt[i]), Vmax = std::max(Vmax, Vt[i]);
    }
    QVERIFY(Vmin < 0.51 * Vmid && Vmax > 1.49 * Vmid);  // the full swing was sampled
    // The node sees exactly the volume the element prescribes, and its pressure.
    CHECK_ABS(worstV, 0.0, 1e-15);
    // Invariants over all 301 samples: rel 1e-6 (measured ~1e-8 at rel_tol 1e-9).
    CHECK_ABS(worstP, 0.0, 1e-6);
    CHECK_ABS(worstT, 0.0, 1e-6);
    // Mass stays constant (sealed): rel 1e-6.
    CHECK_ABS(worstM, 0.0, 1e-6);
    // Gas work: 1e-6 of p0 V0 (20 J).
    CHECK_ABS(worstW, 0.0, 1e-6);
    // One number by hand at the max compression (w t = pi/2, t = 0.05 s): V = V0/2,
    // p = p0 2^1.4 = 5.27803e5 Pa adiabatic, 4e5 Pa isothermal; T = 300 * 2^0.4 = 395.85 K.
    const size_t i = 50;
    CHECK_REL(pt[i], iso ? 2.0 * p0 : p0 * std::pow(2.0, kK), 1e-6);
    CHECK_REL(Tt[i], iso ? T0 : T0 * std::pow(2.0, kK - 1.0), 1e-6);
  }

 private slots:
  // a) Choked charging of a tank. Supply 10 bar abs at T_s = 320 K (not T0, so
  // both the sqrt(T0/T_s) of the conductance and the k R T_s of the inflow
  // enthalpy are exercised), C = 1e-8 m3/(s Pa), b = 0.3, tank 1 l at ambient.
  // q = 1e-8 * 1e6 * 1.185 * sqrt(293.15/320) = 1.13421e-2 kg/s while
  // p_tank < 0.3 * 1e6, i.e. up to t = (3e5 - 101325)/(dp/dt).
  void chokedChargingAdiabatic() { chokedCharging(false); }
  void chokedChargingIsothermal() { chokedCharging(true); }

  // b) Prescribed compression V(t) = V0 (1 - 0.5 sin(w t)), w = 2 pi 5 rad/s,
  // 1.5 periods: V swings between 0.5 V0 and 1.5 V0. Sealed (port plugged),
  // no heat: isentropic.
  void prescribedCompressionAdiabatic() { prescribed(false); }
  void prescribedCompressionIsothermal() { prescribed(true); }

  // b2) The same chamber driven by a table: V from 1e-4 down to 0.5e-4 m3 in
  // 0.1 s, held 0.1 s, back up in 0.1 s (linear, corners as events).
  // Isentropic at every sample; at the hold p = p0 2^1.4.
  void prescribedTableAdiabatic() {
    const double p0 = 2e5, T0 = 300.0, V1 = 1e-4;
    Project p;
    p.components = {comp("pv", "prescribed_volume", {{"p0", p0}, {"T0", T0}}, {},
                         nlohmann::json::parse(R"({"points": [[0, 1e-4], [0.1, 0.5e-4], [0.2, 0.5e-4], [0.3, 1e-4]]})"))};
    settings(p, 0.35, 1e-3, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const auto pt = run->col("pv.gas.p"), Vt = run->col("pv.gas.V"), dV = run->col("pv.dVdt");
    double worstP = 0;
    for (size_t i = 0; i < pt.size(); ++i)
      worstP = std::max(worstP, std::abs(pt[i] * std::pow(Vt[i], kK) / (p0 * std::pow(V1, kK)) - 1.0));
    // Invariant over all 351 samples: rel 1e-6.
    CHECK_ABS(worstP, 0.0, 1e-6);
    // The table by hand: V(0.05) = 0.75e-4 m3 falling at 5e-4 m3/s, held at
    // 0.15 s, back to V1 and resting after 0.3 s (rel 1e-12).
    CHECK_REL(run->at("pv.V", 0.05), 0.75e-4, 1e-12);
    CHECK_REL(dV[50], -5e-4, 1e-12);
    CHECK_REL(run->at("pv.V", 0.15), 0.5e-4, 1e-12);
    CHECK_ABS(dV[150], 0.0, 1e-15);
    CHECK_REL(dV[250], 5e-4, 1e-12);
    CHECK_REL(run->at("pv.V", 0.34), V1, 1e-12);
    CHECK_REL(run->at("pv.gas.p", 0.15), p0 * std::pow(2.0, kK), 1e-6);
    CHECK_REL(run->out.last("pv.gas.p"), p0, 1e-6);
  }

  // b3) The same compression driven by a signal (issue #20 point 5).
  // inputs.drive as a rate (drive_is_rate = 1) from a step source: -5e-4 m3/s until 0.1 s, then 0, so V
  // falls from V0 = 1e-4 to 0.5e-4 m3 and is held; adiabatic: p V^1.4 stays
  // p0 V0^1.4 at every sample (rel 1e-6), p = p0 2^1.4 at the hold.
  void prescribedByRateSignalAdiabatic() {
    const double p0 = 2e5, T0 = 300.0, V1 = 1e-4;
    Project p;
    p.components = {comp("rate", "step", {{"t_step", 0.1}, {"initial", -5e-4}, {"final", 0.0}}),
                    comp("pv", "prescribed_volume", {{"V0", V1}, {"p0", p0}, {"T0", T0}, {"drive_is_rate", 1.0}},
                         {{"drive", "rate.out"}})};
    settings(p, 0.2, 1e-3, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const auto pt = run->col("pv.gas.p"), Vt = run->col("pv.gas.V");
    double worstP = 0;
    for (size_t i = 0; i < pt.size(); ++i)
      worstP = std::max(worstP, std::abs(pt[i] * std::pow(Vt[i], kK) / (p0 * std::pow(V1, kK)) - 1.0));
    CHECK_ABS(worstP, 0.0, 1e-6);
    // V by hand: 0.75e-4 at 0.05 s falling at 5e-4 m3/s, 0.5e-4 held after 0.1 s (rel 1e-9).
    CHECK_REL(run->at("pv.V", 0.05), 0.75e-4, 1e-9);
    CHECK_REL(run->at("pv.dVdt", 0.05), -5e-4, 1e-9);
    CHECK_REL(run->out.last("pv.V"), 0.5e-4, 1e-9);
    CHECK_ABS(run->out.last("pv.dVdt"), 0.0, 1e-12);
    CHECK_REL(run->out.last("pv.gas.p"), p0 * std::pow(2.0, kK), 1e-6);
    CHECK_REL(run->out.last("pv.gas.T"), T0 * std::pow(2.0, kK - 1.0), 1e-6);
  }

  // b4) inputs.drive as the volume, from a sine source, V = 1e-4 - 0.5e-4 sin(2 pi 5 t) m3,
  // isothermal: p V = p0 V(0) at every sample (rel 1e-6); at t = 0.05 s,
  // V = 0.5e-4 and p = 2 p0; the gas work p0 V0 ln(V/V0) (1e-6 of p0 V0).
  void prescribedByVolumeSignalIsothermal() {
    const double p0 = 2e5, T0 = 300.0, V1 = 1e-4;
    Project p;
    p.components = {comp("vol", "sine", {{"offset", V1}, {"amplitude", -0.5 * V1}, {"frequency", 5.0}}),
                    comp("pv", "prescribed_volume", {{"p0", p0}, {"T0", T0}, {"T_wall", T0}, {"isothermal", 1.0}},
                         {{"drive", "vol.out"}})};
    settings(p, 0.3, 1e-3, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const auto pt = run->col("pv.gas.p"), Vt = run->col("pv.gas.V"), W = run->col("pv.W_gas");
    double worstP = 0, worstV = 0, worstW = 0;
    for (size_t i = 0; i < pt.size(); ++i) {
      worstP = std::max(worstP, std::abs(pt[i] * Vt[i] / (p0 * V1) - 1.0));
      worstV = std::max(worstV, std::abs(Vt[i] / (V1 - 0.5 * V1 * std::sin(10.0 * std::numbers::pi * run->t[i])) - 1.0));
      worstW = std::max(worstW, std::abs(W[i] - p0 * V1 * std::log(Vt[i] / V1)) / (p0 * V1));
    }
    CHECK_ABS(worstV, 0.0, 1e-8);  // V = signal is solved by Newton, to its tolerance
    CHECK_ABS(worstP, 0.0, 1e-6);
    CHECK_ABS(worstW, 0.0, 1e-6);
    CHECK_REL(run->at("pv.gas.p", 0.05), 2.0 * p0, 1e-6);
    // The rate channel is the volume's derivative, -0.5e-4 * 10 pi cos(10 pi t): at t = 0.1 s, +5 pi e-4 (rel 1e-4).
    CHECK_REL(run->at("pv.dVdt", 0.1), 0.5 * V1 * 10.0 * std::numbers::pi, 1e-4);
  }

  // A drive and a table at once is a bad project, named in the user's terms.
  void prescribedBySignalRefusesATable() {
    Project p;
    p.components = {comp("s", "constant", {{"value", 1e-4}}),
                    comp("pv", "prescribed_volume", {}, {{"drive", "s.out"}},
                         nlohmann::json::parse(R"({"points": [[0, 1e-4], [0.1, 0.5e-4]]})"))};
    settings(p, 0.1, 1e-2);
    auto run = simulate(p);
    QVERIFY(!run->ok());
    QVERIFY2(run->error.find("inputs.drive") != std::string::npos, run->error.c_str());
  }

  // c) supply -> restriction -> 5/2 valve -> double-acting cylinder (A on 4, B on
  // 2), exhausts 3 and 5 open. time_switch drives sol14 at 0.05 s (extend to the
  // stop), off at 0.6 s (retract to the stop). Adiabatic everywhere (no wall heat).
  // Mass:   sum over volumes (m - m(0)) = sum over boundaries m_delivered
  // Energy: sum over volumes (U - U(0)) = sum H_delivered - W_gas, U = p V/(k-1)
  // both checked at every sample, relative to the supply's final delivery.
  void networkMassAndEnergyBalance() {
    Project p;
    p.components = {
        comp("sup", "supply", {{"p", 701325.0}, {"T", 293.15}}),
        comp("r", "restriction", {{"C", 2e-8}, {"b", 0.3}, {"m", 0.5}}),
        comp("ts", "time_switch", {{"t_on", 0.05}, {"t_off", 0.6}}),
        comp("v", "valve_5_2", {}, {{"sol14", "ts.out"}}),
        comp("cyl", "cylinder_double", {{"F_load", 50.0}, {"isothermal", 0.0}, {"hA_A", 0.0}, {"hA_B", 0.0}}),
    };
    wire(p, "sup.1", "r.1");
    wire(p, "r.2", "v.1");
    wire(p, "v.4", "cyl.A");
    wire(p, "v.2", "cyl.B");
    settings(p, 1.2, 1e-3, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const System& sys = run->sim->system();
    std::vector<std::string> caps, bounds;
    for (const Node& n : sys.nodes()) {
      if (n.kind == NodeKind::Capacity) caps.push_back(n.name);
      if (n.kind == NodeKind::Boundary) bounds.push_back(n.name);
    }
    QCOMPARE(caps.size(), size_t(2));     // cyl.A, cyl.B
    QCOMPARE(bounds.size(), size_t(2));   // sup, ambient (open exhausts)
    const auto x = run->col("cyl.x");
    const auto W = run->col("cyl.W_gas");
    const size_t N = x.size();
    // The cylinder did a full cycle: reached the far stop and came back.
    QVERIFY(*std::max_element(x.begin(), x.end()) > 0.0999);
    QVERIFY(x.back() < 1e-4);
    std::vector<double> dm(N, 0.0), dU(N, 0.0), mIn(N, 0.0), HIn(N, 0.0);
    for (const auto& c : caps) {
      const auto m = run->col(c + ".m"), pc = run->col(c + ".p"), V = run->col(c + ".V");
      for (size_t i = 0; i < N; ++i) {
        dm[i] += m[i] - m[0];
        dU[i] += (pc[i] * V[i] - pc[0] * V[0]) / (kK - 1.0);
      }
    }
    for (const auto& b : bounds) {
      const auto m = run->col(b + ".m_delivered"), H = run->col(b + ".H_delivered");
      for (size_t i = 0; i < N; ++i) mIn[i] += m[i], HIn[i] += H[i];
    }
    const double mScale = run->col("sup.m_delivered").back();
    const double HScale = run->col("sup.H_delivered").back();
    QVERIFY(mScale > 1e-4);  // ~ grams of air consumed
    double worstM = 0, worstE = 0;
    for (size_t i = 0; i < N; ++i) {
      worstM = std::max(worstM, std::abs(dm[i] - mIn[i]) / mScale);
      worstE = std::max(worstE, std::abs(dU[i] - (HIn[i] - W[i])) / HScale);
    }
    qInfo("supply delivered %.6g kg, %.6g J; W_gas end %.6g J; vented %.6g kg", mScale, HScale, W.back(),
          run->col("ambient.m_delivered").back());
    // Tolerance 1e-6 of the supply's total delivery (mass, enthalpy).
    CHECK_ABS(worstM, 0.0, 1e-6);
    CHECK_ABS(worstE, 0.0, 1e-6);
    // Consistency of the channels used: m = p V / (R T) for each chamber (rel 1e-12).
    for (const auto& c : caps) {
      const auto m = run->col(c + ".m"), pc = run->col(c + ".p"), V = run->col(c + ".V"), T = run->col(c + ".T");
      CHECK_REL(m[N / 2], pc[N / 2] * V[N / 2] / (kR * T[N / 2]), 1e-12);
    }
  }

  // d1) Gas spring at rest mid-stroke. Chamber A fed from p_s = 3e5 Pa through a
  // restriction, port B plugged (sealed, pB0 = 101325 Pa at x0 = 0), isothermal,
  // pure viscous friction (c = 200 N s/m, no Coulomb/Stribeck), F_load = 50 N.
  // At rest pA = p_s and
  //   p_s A_A - p_B A_B - p_amb A_rod - F_load = 0
  //   p_B = pB0 V_B0 / V_B(x),  V_B(x) = V0_B + A_B (L - x)
  // => x = L - (pB0 V_B0 / p_B - V0_B) / A_B   (closed form).
  void staticBalanceMidStroke() {
    const double ps = 3e5, D = 0.032, d = 0.012, L = 0.1, V0B = 5e-6, pB0 = kPamb, F = 50.0;
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", 293.15}}),
                    comp("r", "restriction", {{"C", 1e-8}}),
                    comp("cyl", "cylinder_double", {{"bore", D}, {"rod", d}, {"stroke", L}, {"V0_B", V0B},
                                                    {"pB0", pB0}, {"F_load", F}, {"isothermal", 1.0},
                                                    {"F_coulomb", 0.0}, {"F_static", 0.0}, {"c_viscous", 200.0}})};
    wire(p, "sup.1", "r.1");
    wire(p, "r.2", "cyl.A");
    settings(p, 3.0, 1e-2, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double pi = std::numbers::pi;
    const double AA = pi * D * D / 4, AB = pi * (D * D - d * d) / 4, Arod = AA - AB;
    const double pB = (ps * AA - kPamb * Arod - F) / AB;
    const double VB0 = V0B + AB * L;
    const double x = L - (pB0 * VB0 / pB - V0B) / AB;
    qInfo("hand: p_B = %.9g Pa, x = %.9g m", pB, x);
    QVERIFY(x > 0.01 && x < 0.09);  // really mid-stroke
    // Position: 1e-6 m (the transient decays as exp(-20 t); at 3 s it is gone).
    CHECK_ABS(run->out.last("cyl.x"), x, 1e-6);
    CHECK_ABS(run->out.last("cyl.v"), 0.0, 1e-7);
    CHECK_REL(run->out.last("cyl.pA"), ps, 1e-8);
    CHECK_REL(run->out.last("cyl.pB"), pB, 1e-6);
    CHECK_ABS(run->out.last("cyl.F_stop"), 0.0, 1e-9);
    // Isothermal sealed chamber: p V constant = pB0 V_B0 (rel 1e-7).
    CHECK_REL(run->out.last("cyl.pB") * run->out.last("cyl.B.V"), pB0 * VB0, 1e-7);
  }

  // d2) Against the end stop: chamber A at p_s = 4e5 Pa, B vented through an
  // atmosphere element, default friction. At rest at x = L + delta:
  //   F_stop = -(p_s A_A - p_amb A_B - p_amb A_rod - F_load) = -((p_s - p_amb) A_A - F_load)
  //   delta = -F_stop / k_stop.
  void staticBalanceAtStop() {
    const double ps = 4e5, D = 0.032, L = 0.1, F = 20.0, kStop = 1e7;
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", 293.15}}), comp("r", "restriction", {{"C", 1e-8}}),
                    comp("atm", "atmosphere"),
                    comp("cyl", "cylinder_double", {{"bore", D}, {"stroke", L}, {"F_load", F}, {"isothermal", 1.0},
                                                    {"k_stop", kStop}})};
    wire(p, "sup.1", "r.1");
    wire(p, "r.2", "cyl.A");
    wire(p, "cyl.B", "atm.1");
    settings(p, 1.5, 1e-2, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double AA = std::numbers::pi * D * D / 4;
    const double Fstop = -((ps - kPamb) * AA - F);  // -220.0 N
    qInfo("hand: F_stop = %.9g N, penetration %.6g m", Fstop, -Fstop / kStop);
    CHECK_REL(run->out.last("cyl.F_stop"), Fstop, 1e-6);
    CHECK_ABS(run->out.last("cyl.x"), L - Fstop / kStop, 1e-9);
    CHECK_REL(run->out.last("cyl.F_pressure"), (ps - kPamb) * AA, 1e-6);
    CHECK_ABS(run->out.last("cyl.v"), 0.0, 1e-8);
  }

  // d3) Single-acting cylinder on its return spring (chamber B vented, the
  // spring in it). Chamber A fed from p_s through a restriction; no Coulomb
  // or Stribeck friction (their creep band would hold the piston short of the
  // balance), viscous c = 60 N s/m (nearly critical with m = 1 kg, k = 1000 N/m).
  // At rest pA = p_s and
  //   (p_s - p_amb) A_A = F_spring0 + k x + F_load
  // => x = ((p_s - p_amb) A_A - F_spring0 - F_load) / k = 0.050425 m.
  void singleActingSpringBalance() {
    const double ps = kPamb + 1e5, D = 0.032, k = 1000.0, F0 = 20.0, F = 10.0;
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", 293.15}}), comp("r", "restriction", {{"C", 1e-8}}),
                    comp("cyl", "cylinder_single", {{"bore", D}, {"stroke", 0.1}, {"k_spring", k}, {"F_spring0", F0},
                                                    {"F_load", F}, {"isothermal", 1.0}, {"F_coulomb", 0.0},
                                                    {"F_static", 0.0}, {"c_viscous", 60.0}})};
    wire(p, "sup.1", "r.1");
    wire(p, "r.2", "cyl.A");
    settings(p, 1.5, 1e-2, kTight);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double AA = std::numbers::pi * D * D / 4;
    const double x = ((ps - kPamb) * AA - F0 - F) / k;
    qInfo("hand: x = %.9g m", x);
    QVERIFY(x > 0.01 && x < 0.09);  // mid-stroke, clear of both stops
    // Position 1e-9 m (the transient decays as exp(-30 t): 3e-20 m left at 1.5 s).
    CHECK_ABS(run->out.last("cyl.x"), x, 1e-9);
    CHECK_ABS(run->out.last("cyl.v"), 0.0, 1e-7);
    CHECK_REL(run->out.last("cyl.pA"), ps, 1e-8);
    // The net of pressure and spring holds the load (rel 1e-8).
    CHECK_REL(run->out.last("cyl.F_pressure"), F, 1e-8);
    CHECK_ABS(run->out.last("cyl.F_stop"), 0.0, 1e-9);
    // It started retracted (x0 = 0): the balance was reached by moving there.
    QVERIFY(run->col("cyl.x").front() < 1e-9);
  }
};

QTEST_APPLESS_MAIN(TestVolumePhysics)
#include "test_volume_physics.moc"
