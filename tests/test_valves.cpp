// Valves, tube and semi-rotary actuator (core/pneumatics/poppet_valve.cpp,
// flow_control.cpp, quick_exhaust_valve.cpp, logic_valve.cpp,
// pressure_regulator.cpp,
// tube.cpp, semi_rotary.cpp) in whole runs (pm::Simulation) against numbers
// derived by hand. Every tank is isothermal at T = T0 = 293.15 K (= the supply
// temperature), so ISO 6358 reads q = C p_up rho0 phi(p_down/p_up) and a tank
// obeys V dp/dt = R T sum(q); the hand formulas are written out in each test
// (phi of ISO 6358 is re-implemented here, not taken from flow.cpp).
#include "analyses/simulation.h"
#include "model/component_type.h"
#include "model/project.h"
#include "model/project_error.h"
#include "support/test_project.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <numbers>
#include <set>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kR = 287.05, kK = 1.4, kRho0 = 1.185, kT = 293.15, kPamb = 101325.0;
constexpr double kRT = kR * kT;

// ISO 6358-1 flow function for 0 <= pr <= 0.999 (b < pr: subsonic).
double isoPhi(double pr, double b, double m = 0.5) {
  if (pr <= b) return 1.0;
  const double s = (pr - b) / (1.0 - b);
  return std::pow(1.0 - s * s, m);
}

// Root of a monotone f on [a, b] by bisection.
double bisect(const std::function<double(double)>& f, double a, double b) {
  double fa = f(a);
  for (int i = 0; i < 200; ++i) {
    const double c = 0.5 * (a + b), fc = f(c);
    if ((fc > 0) == (fa > 0)) a = c, fa = fc;
    else b = c;
  }
  return 0.5 * (a + b);
}

// ---------------------------------------------------------------- project helpers
// Solver tolerances of every run here.
constexpr test::Tolerances kTol{.rel = 1e-8, .pressure = 1e-3, .temperature = 1e-6};

// Isothermal tank at T = 293.15 K.
Component tank(const std::string& id, double V, double p0) {
  return comp(id, "reservoir", {{"V", V}, {"p0", p0}, {"T0", kT}, {"T_wall", kT}, {"isothermal", 1.0}});
}

// True when `u` is written in SI: products (space-separated) and quotients
// of SI base or derived units with integer powers ("m3/(s Pa)", "N m s/rad",
// "kg m2"), or "1" for a dimensionless quantity. "bar", "mm", "l", "deg",
// "min" and "%" are not SI and fail.
bool isSiUnit(const std::string& u) {
  static const std::set<std::string> known = {"1", "m", "kg", "s", "K", "A", "mol", "rad",
                                               "Pa", "N", "J", "W", "Hz", "V"};
  if (u.empty()) return false;
  std::string token;
  auto ok = [&]() {
    if (token.empty()) return true;
    size_t end = token.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(token[end - 1]))) --end;
    const std::string base = token.substr(0, end);
    const bool good = base.empty() ? token == "1" : known.count(base) && (end == token.size() || base != "1");
    token.clear();
    return good;
  };
  for (char ch : u) {
    if (ch == ' ' || ch == '/' || ch == '(' || ch == ')') {
      if (!ok()) return false;
    } else {
      token += ch;
    }
  }
  return ok();
}

// Supply following a table of (t, p) rows at 293.15 K.
Component supplyTable(const std::string& id, std::vector<std::pair<double, double>> rows) {
  Component c = comp(id, "supply");
  nlohmann::json table = nlohmann::json::array();
  for (auto [t, p] : rows) table.push_back({t, p, kT});
  c.data = {{"table", table}};
  return c;
}

}  // namespace

class TestValves : public QObject {
  Q_OBJECT

 private slots:
  // Every registered type's declaration is complete and consistent: what the
  // loader, the editor, the CSV header and the file-format doc read from it.
  // (Each type's simulation is test_registry's; this is about declarations.)
  void registryDeclarations() {
    const auto all = Registry::instance().all();
    // core/ has 55 PM_REGISTER lines (and the script controller one more):
    // a registry the linker left half empty fails here.
    qInfo("%zu registered types", all.size());
    QVERIFY2(all.size() >= 55, qPrintable(QString("only %1 registered types").arg(all.size())));
    QStringList problems;  // all of them, not only the first
    for (const ComponentType* t : all) {
      auto need = [&](bool ok, const std::string& what) {
        if (!ok) problems << QString::fromStdString(t->name + ": " + what);
      };
      need(!t->name.empty() && Registry::instance().find(t->name) == t, "not found under its own name");
      need(!t->category.empty(), "no category");
      need(!t->symbol.empty(), "no symbol");
      need(!t->description.empty(), "no description");
      need(static_cast<bool>(t->create), "no create function");
      std::set<std::string> names;
      for (const PortDecl& port : t->ports) {
        const std::string n = "port '" + port.name + "'";
        need(!port.name.empty(), "a port without a name");
        need(names.insert(port.name).second, n + " declared twice");
        need(port.domain == Domain::Pneumatic || port.domain == Domain::Mechanical || port.domain == Domain::Signal,
             n + " has no domain");
        need(!port.vents_when_open || port.domain == Domain::Pneumatic, n + " vents but is not pneumatic");
      }
      names.clear();
      for (const ParamDecl& p : t->params) {
        const std::string n = "parameter '" + p.name + "'";
        need(!p.name.empty(), "a parameter without a name");
        need(names.insert(p.name).second, n + " declared twice");
        need(p.min <= p.max, n + " has min > max: " + p.rangeText());
        need(p.accepts(p.def), n + " default " + std::to_string(p.def) + " outside " + p.rangeText());
        // Bytes (a memory limit) are the one parameter unit outside SI: no SI unit measures memory.
        need(isSiUnit(p.unit) || p.unit == "B", n + " unit '" + p.unit + "' is not SI");
        need(!p.doc.empty(), n + " has no description");
      }
      names.clear();
      for (const InputDecl& in : t->inputs) {
        need(!in.name.empty(), "an input without a name");
        need(names.insert(in.name).second, "input '" + in.name + "' declared twice");
        need(!in.doc.empty(), "input '" + in.name + "' has no description");
      }
      names.clear();
      for (const ChannelDecl& c : t->channels) {
        const std::string n = "channel '" + c.quantity + "'";
        need(!c.quantity.empty(), "a channel without a name");
        need(names.insert(c.quantity).second, n + " declared twice");
        // The one non-SI result unit: standard volume flow in Nl/min (ANR,
        // ISO 8778), the catalogue unit, next to the mass flow q in kg/s.
        need(isSiUnit(c.unit) || (c.quantity == "qn" && c.unit == "Nl/min"), n + " unit '" + c.unit + "' is not SI");
        need(!c.doc.empty(), n + " has no description");
      }
    }
    QVERIFY2(problems.isEmpty(), qPrintable("\n  " + problems.join("\n  ")));
  }

  // The check of SI unit strings above can fail.
  void siUnitCheck() {
    for (const char* u : {"1", "Pa", "m3/(s Pa)", "N m s/rad", "kg m2", "m/s2", "1/Pa", "W/K", "Hz"})
      QVERIFY2(isSiUnit(u), u);
    for (const char* u : {"", "bar", "mm", "l", "deg", "min", "%", "bar(g)", "12", "m-1"})
      QVERIFY2(!isSiUnit(u), u);
  }

  // The valves' ISO 5599 ports and the exhausts that vent when left open.
  void declarations() {
    struct Expect {
      const char* type;
      std::vector<const char*> ports;
      std::vector<const char*> venting;
    };
    const std::vector<Expect> expect = {
        {"check_valve", {"1", "2"}, {}},
        {"flow_control_one_way", {"1", "2"}, {}},
        {"quick_exhaust_valve", {"1", "2", "3"}, {"3"}},
        {"shuttle_valve", {"1a", "1b", "2"}, {}},
        {"two_pressure_valve", {"1a", "1b", "2"}, {}},
        {"pressure_regulator", {"1", "2", "3"}, {"3"}},
        {"pressure_relief_valve", {"1", "2"}, {"2"}},
        {"tube", {"1", "2"}, {}},
        {"semi_rotary_actuator", {"A", "B", "shaft"}, {}},
    };
    for (const Expect& x : expect) {
      const ComponentType* t = Registry::instance().find(x.type);
      QVERIFY2(t, x.type);
      QCOMPARE(t->ports.size(), x.ports.size());
      for (size_t i = 0; i < x.ports.size(); ++i) {
        QCOMPARE(t->ports[i].name, std::string(x.ports[i]));
        const bool vents = std::any_of(x.venting.begin(), x.venting.end(), [&](const char* v) { return t->ports[i].name == v; });
        QVERIFY2(t->ports[i].vents_when_open == vents, x.type);
      }
      QVERIFY(!t->channels.empty());
    }
    QCOMPARE(Registry::instance().find("semi_rotary_actuator")->ports[2].domain, Domain::Mechanical);
  }

  // Check valve, reverse: tank of 7 bar on port 2, 2 bar on port 1: nothing
  // flows back; the tank keeps 700000 Pa exactly (tol 1e-3 Pa) and q == 0.
  void checkValveBlocksReverse() {
    Project p;
    p.components = {comp("sup", "supply", {{"p", 2e5}, {"T", kT}}), comp("cv", "check_valve"), tank("tank", 1e-3, 7e5)};
    wire(p, "sup.1", "cv.1");
    wire(p, "cv.2", "tank.1");
    settings(p, 1.0, 1e-2, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    CHECK_ABS(run->col("tank.p").back(), 7e5, 1e-3);
    CHECK_ABS(run->maxAbs("cv.q", 0.0, 1.0), 0.0, 0.0);
  }

  // Check valve, forward. (a) Below cracking: p1 - p2 = 0.5 p_crack, the tank
  // stays at 300000 Pa (tol 1e-3 Pa). (b) Above: 7 bar supply into a 0.1 l
  // tank; at t = 0 the valve is fully open and choked: q = C p_s rho0 (rel
  // 1e-9). At the end the pressure difference settles on p_crack from above:
  // with x = (dp - p_crack)/dp_open the smoothstep opening ~ 3x^2 gives
  // dx/dt = -3 k x^2, k = R T q_full / (V dp_open), so x ~ 1/(3 k t):
  // p_crack < dp < p_crack + 1 % of dp_open after 2 s.
  void checkValveCracking() {
    const double pc = 5e4, band = 2e4, C = 1e-8, ps = 7e5, V = 1e-4;
    {
      Project p;
      p.components = {comp("sup", "supply", {{"p", 3e5 + 0.5 * pc}, {"T", kT}}),
                      comp("cv", "check_valve", {{"p_crack", pc}, {"dp_open", band}}), tank("tank", 1e-3, 3e5)};
      wire(p, "sup.1", "cv.1");
      wire(p, "cv.2", "tank.1");
      settings(p, 1.0, 1e-2, kTol);
      auto run = simulate(p);
      REQUIRE_OK(run);
      CHECK_ABS(run->col("tank.p").back(), 3e5, 1e-3);
    }
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}),
                    comp("cv", "check_valve", {{"C", C}, {"b", 0.3}, {"p_crack", pc}, {"dp_open", band}}),
                    tank("tank", V, kPamb)};
    wire(p, "sup.1", "cv.1");
    wire(p, "cv.2", "tank.1");
    settings(p, 2.0, 1e-3, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    CHECK_REL(run->col("cv.q").front(), C * ps * kRho0, 1e-9);
    CHECK_ABS(run->col("cv.opening").front(), 1.0, 0.0);
    const double dp = ps - run->col("tank.p").back();
    const double phi = isoPhi((ps - pc) / ps, 0.3);
    const double k = kRT * C * ps * kRho0 * phi / (V * band);
    qInfo("final dp - p_crack = %.3f Pa, asymptote band/(3 k t) ~ %.3f Pa (k = %.1f 1/s)", dp - pc,
          band / (3.0 * k * 2.0), k);
    QVERIFY2(dp > pc, "the valve let the difference fall below the cracking pressure");
    CHECK_ABS(dp, pc + 0.005 * band, 0.005 * band);
    // The smoothstep shape itself: the excess follows the 1/(3 k t) asymptote
    // (rel 0.1; the start of the approach is not exactly t = 0). A linear
    // opening would decay exponentially and leave a far smaller excess.
    CHECK_REL(dp - pc, band / (3.0 * k * 2.0), 0.1);
    QVERIFY(run->col("cv.q").back() >= 0.0);
  }

  // One-way flow control, 7 bar into 1 l through C_max opening 0.25 (C_t =
  // 2.5e-9) and a parallel check valve C_check = 1e-8, all b = 0.3. Up to
  // 2 bar the flow is choked (2/7 < 0.3), so the time from p_amb to 2e5 Pa is
  // t = V (2e5 - p_amb) / (R T rho0 p_s C): throttled (supply on port 2) with
  // C = C_t: 0.5656 s, free (supply on 1) with C = C_t + C_check: 0.1131 s
  // (the check valve is fully open, dp >> p_crack + dp_open); tol rel 2e-3.
  void flowControlDirections() {
    const double ps = 7e5, V = 1e-3, Cmax = 1e-8, opening = 0.25, Cc = 1e-8, pT = 2e5;
    double times[2];
    for (int free = 0; free < 2; ++free) {
      Project p;
      p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}),
                      comp("fc", "flow_control_one_way",
                           {{"C_max", Cmax}, {"opening", opening}, {"b", 0.3}, {"C_check", Cc}, {"b_check", 0.3}}),
                      tank("tank", V, kPamb)};
      wire(p, free ? "fc.1" : "fc.2", "sup.1");
      wire(p, free ? "fc.2" : "fc.1", "tank.1");
      settings(p, free ? 0.2 : 0.7, 1e-4, kTol);
      auto run = simulate(p);
      REQUIRE_OK(run);
      const double C = Cmax * opening + (free ? Cc : 0.0);
      const double tHand = V * (pT - kPamb) / (kRT * kRho0 * ps * C);
      times[free] = run->crossing("tank.p", pT);
      qInfo("%s direction:", free ? "free" : "throttled");
      CHECK_REL(times[free], tHand, 2e-3);
      if (!free) CHECK_ABS(run->maxAbs("fc.q_check", 0.0, 0.7), 0.0, 0.0);  // check valve shut 2 -> 1
    }
    CHECK_REL(times[0] / times[1], (Cmax * opening + Cc) / (Cmax * opening), 2e-3);
  }

  // Quick exhaust valve: supply 7 bar on 1 until t = 3 s, then ramped to p_amb
  // over 10 ms; 1 l tank on 2; 3 open. Phase 1: exhaust shut (q_23 == 0), the
  // tank reaches 700000 Pa (tol 10 Pa). Phase 2: the diaphragm shuts the inlet
  // (q_12 == 0 once p2 - p1 > dp_band) and the tank blows down through C_23
  // alone, choked while p > p_amb/0.3: p = p0 exp(-t/tau), tau = V/(R T C_23
  // rho0) = 0.5014 s, so 6e5 -> 4e5 Pa takes tau ln 1.5 = 0.2033 s (rel 2e-3).
  // Any return flow through the inlet would make it faster.
  void quickExhaust() {
    const double ps = 7e5, V = 1e-3, C12 = 1e-8, C23 = 2e-8;
    Project p;
    p.components = {supplyTable("sup", {{0.0, ps}, {3.0, ps}, {3.01, kPamb}}),
                    comp("qev", "quick_exhaust_valve", {{"C_12", C12}, {"b_12", 0.3}, {"C_23", C23}, {"b_23", 0.3}}),
                    tank("tank", V, kPamb)};
    wire(p, "sup.1", "qev.1");
    wire(p, "qev.2", "tank.1");
    settings(p, 3.5, 1e-3, kTol, 1e-3);
    auto run = simulate(p);
    REQUIRE_OK(run);
    CHECK_ABS(run->at("tank.p", 3.0), ps, 10.0);
    CHECK_ABS(run->maxAbs("qev.q_23", 0.0, 3.0), 0.0, 0.0);
    CHECK_ABS(run->maxAbs("qev.q_12", 3.02, 3.5), 0.0, 0.0);
    CHECK_ABS(run->at("qev.x", 3.1), 1.0, 0.0);
    const double tau = V / (kRT * C23 * kRho0);
    const double t6 = run->crossing("tank.p", 6e5, 3.0), t4 = run->crossing("tank.p", 4e5, 3.0);
    QVERIFY(t6 > 3.0 && t4 > t6);
    CHECK_REL(t4 - t6, tau * std::log(1.5), 2e-3);
  }

  // Shuttle (OR) and two-pressure (AND) valves: inlet 1a 5 bar until 0.5 s,
  // then ramped to 2 bar by 0.51 s; inlet 1b 3 bar; 0.1 l tank on 2. The
  // outlet settles (tol 5 Pa) on OR: max = 5e5 then 3e5 (exhausting back into
  // 1b); AND: min = 3e5 then 2e5. The other path is shut (w = 1 / 0 exactly).
  void shuttleAndTwoPressure() {
    for (int andValve = 0; andValve < 2; ++andValve) {
      Project p;
      p.components = {supplyTable("sa", {{0.0, 5e5}, {0.5, 5e5}, {0.51, 2e5}}),
                      comp("sb", "supply", {{"p", 3e5}, {"T", kT}}),
                      comp("v", andValve ? "two_pressure_valve" : "shuttle_valve"), tank("tank", 1e-4, kPamb)};
      wire(p, "sa.1", "v.1a");
      wire(p, "sb.1", "v.1b");
      wire(p, "v.2", "tank.1");
      settings(p, 1.0, 1e-3, kTol, 2e-3);
      auto run = simulate(p);
      REQUIRE_OK(run);
      qInfo("%s", andValve ? "two_pressure_valve (AND)" : "shuttle_valve (OR)");
      CHECK_ABS(run->at("tank.p", 0.5), andValve ? 3e5 : 5e5, 5.0);
      CHECK_ABS(run->at("v.w", 0.5), andValve ? 0.0 : 1.0, 0.0);
      CHECK_ABS(run->col("tank.p").back(), andValve ? 2e5 : 3e5, 5.0);
      CHECK_ABS(run->col("v.w").back(), andValve ? 1.0 : 0.0, 0.0);
    }
  }

  // Relieving regulator, p_set = 5e5 Pa abs, band 2e4, deadband 5e3.
  // (a) 7 bar supply, 1 l tank, load restriction C_l = 1e-9 to atmosphere
  // (choked: q = C_l p2 rho0). Steady state: q_load = o C p1 rho0
  // phi(p2/p1) with o = (p_set - p2)/band; solved by bisection here, the run
  // must match within 5 Pa (droop ~1.7 kPa, inside the band), relief shut.
  // (b) tank starting at 6e5 Pa, no load: the relief vents to p_set +
  // deadband = 505000 Pa (tol 5 Pa); the supply path stays shut (q == 0).
  void regulator() {
    const double ps = 7e5, pset = 5e5, band = 2e4, dead = 5e3, C = 1e-8, Cl = 1e-9;
    const std::map<std::string, double> reg = {{"p_set", pset}, {"band", band}, {"deadband", dead},
                                               {"C", C}, {"b", 0.3}, {"C_relief", 2e-9}, {"b_relief", 0.3}};
    {
      Project p;
      p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}), comp("reg", "pressure_regulator", reg),
                      tank("tank", 1e-3, kPamb), comp("load", "restriction", {{"C", Cl}, {"b", 0.3}}),
                      comp("atm", "atmosphere")};
      wire(p, "sup.1", "reg.1");
      wire(p, "reg.2", "tank.1");
      wire(p, "tank.1", "load.1");
      wire(p, "load.2", "atm.1");
      settings(p, 2.0, 1e-2, kTol);
      auto run = simulate(p);
      REQUIRE_OK(run);
      const double p2 = bisect(
          [&](double x) { return ((pset - x) / band) * C * ps * kRho0 * isoPhi(x / ps, 0.3) - Cl * x * kRho0; },
          pset - band, pset);
      qInfo("hand droop p_set - p2 = %.2f Pa", pset - p2);
      CHECK_ABS(run->col("tank.p").back(), p2, 5.0);
      CHECK_REL(run->col("reg.q").back(), Cl * p2 * kRho0, 1e-4);
      CHECK_ABS(run->maxAbs("reg.q_relief", 1.0, 2.0), 0.0, 0.0);
    }
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}), comp("reg", "pressure_regulator", reg),
                    tank("tank", 2e-4, 6e5)};
    wire(p, "sup.1", "reg.1");
    wire(p, "reg.2", "tank.1");
    settings(p, 1.5, 1e-2, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    CHECK_ABS(run->col("tank.p").back(), pset + dead, 5.0);
    CHECK_ABS(run->maxAbs("reg.q", 0.0, 1.5), 0.0, 0.0);
    QVERIFY(run->col("reg.q_relief").front() > 0.0);
  }

  // Relief valve p_crack = 3e5, dp_open 5e4, C = 1e-8, port 2 left open (vents).
  // 7 bar supply -> restriction C_in = 2e-9 -> 0.2 l tank -> relief. Steady
  // state: q_in = C_in p_s rho0 phi(p/p_s) = o C p rho0 (relief choked), with
  // o = smoothstep((p - p_amb - p_crack)/band) (the poppet lift); bisection gives the run
  // must match within 5 Pa and p - p_amb must sit in [p_crack, p_crack + band].
  void reliefValveCaps() {
    const double ps = 7e5, Cin = 2e-9, pc = 3e5, band = 5e4, C = 1e-8;
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}),
                    comp("rin", "restriction", {{"C", Cin}, {"b", 0.3}}), tank("tank", 2e-4, kPamb),
                    comp("rv", "pressure_relief_valve", {{"p_crack", pc}, {"dp_open", band}, {"C", C}, {"b", 0.3}})};
    wire(p, "sup.1", "rin.1");
    wire(p, "rin.2", "tank.1");
    wire(p, "tank.1", "rv.1");
    settings(p, 1.5, 1e-2, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double pHand = bisect(
        [&](double x) {
          const double u = (x - kPamb - pc) / band, lift = u * u * (3.0 - 2.0 * u);  // smoothstep on [0, 1]
          return Cin * ps * kRho0 * isoPhi(x / ps, 0.3) - lift * C * x * kRho0;
        },
        kPamb + pc, kPamb + pc + band);
    const double pEnd = run->col("tank.p").back();
    CHECK_ABS(pEnd, pHand, 5.0);
    QVERIFY(pEnd - kPamb >= pc && pEnd - kPamb <= pc + band);
    CHECK_REL(run->col("rv.q").back(), Cin * ps * kRho0 * isoPhi(pHand / ps, 0.3), 1e-4);
  }

  // Tube L = 2 m, d = 4 mm, lambda = 0.03 between a 7 bar supply and the
  // atmosphere (both ends imposed): the flow is the choked orifice flow
  // through A_e = A / sqrt(1 + lambda L/d) = A/4:
  // q = A_e p_s / sqrt(R T) sqrt(k (2/(k+1))^((k+1)/(k-1))) = 5.19e-3 kg/s (rel 1e-9).
  void tubeFlow() {
    const double ps = 7e5, L = 2.0, d = 4e-3, lambda = 0.03;
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}),
                    comp("tb", "tube", {{"L", L}, {"d", d}, {"lambda", lambda}}), comp("atm", "atmosphere")};
    wire(p, "sup.1", "tb.1");
    wire(p, "tb.2", "atm.1");
    settings(p, 0.01, 1e-3, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double A = std::numbers::pi * d * d / 4.0, Ae = A / std::sqrt(1.0 + lambda * L / d);
    const double psiCrit = std::sqrt(kK * std::pow(2.0 / (kK + 1.0), (kK + 1.0) / (kK - 1.0)));
    CHECK_REL(run->col("tb.q").back(), Ae * ps / std::sqrt(kRT) * psiCrit, 1e-9);
    CHECK_REL(run->col("sup.m_delivered").back(), 0.01 * Ae * ps / std::sqrt(kRT) * psiCrit, 1e-6);
  }

  // Tube (L = 5 m, d = 6 mm: V_t = 1.4137e-4 m3, isothermal) between a
  // restriction and a 0.1 l tank, charged from p_amb to 7 bar: the supply
  // delivers (V_t + V_tank)(p_s - p_amb)/(R T) = 1.717e-3 kg (rel 1e-5), i.e.
  // both half-volumes of the tube count; the tank ends at p_s (tol 1 Pa).
  void tubeVolumeCounted() {
    const double ps = 7e5, L = 5.0, d = 6e-3, V = 1e-4;
    Project p;
    p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}), comp("r", "restriction", {{"C", 1e-8}, {"b", 0.3}}),
                    comp("tb", "tube", {{"L", L}, {"d", d}, {"isothermal", 1.0}}), tank("tank", V, kPamb)};
    wire(p, "sup.1", "r.1");
    wire(p, "r.2", "tb.1");
    wire(p, "tb.2", "tank.1");
    settings(p, 1.5, 1e-2, kTol);
    auto run = simulate(p);
    REQUIRE_OK(run);
    const double Vt = std::numbers::pi * d * d / 4.0 * L;
    CHECK_ABS(run->col("tank.p").back(), ps, 1.0);
    CHECK_REL(run->col("sup.m_delivered").back(), (Vt + V) * (ps - kPamb) / kRT, 1e-5);

    // End 2 plugged: that half-volume lives on the tube's own node "tb.end2";
    // the half on the supply net has its pressure imposed (not a state), so
    // the supply delivers (V_t / 2)(p_s - p_amb)/(R T) (rel 1e-5).
    Project q;
    q.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}),
                    comp("tb", "tube", {{"L", L}, {"d", d}, {"isothermal", 1.0}})};
    wire(q, "sup.1", "tb.1");
    settings(q, 0.5, 1e-2, kTol);
    auto run2 = simulate(q);
    REQUIRE_OK(run2);
    CHECK_ABS(run2->col("tb.end2.p").back(), ps, 1.0);
    CHECK_REL(run2->col("sup.m_delivered").back(), 0.5 * Vt * (ps - kPamb) / kRT, 1e-5);
  }

  // Semi-rotary actuator, D = 3e-6 m3/rad, theta_max = pi/2, k_stop = 1e4
  // N m/rad, isothermal. A fed from 6 bar through a restriction, B vented
  // through one. At rest: the stop takes (pA - pB) D - T_load; with T_load =
  // 0.2 N m the shaft sits on the theta_max stop at theta_max + ((pA - pB) D
  // - T_load)/k_stop; with T_load = 2 N m > (pA - pB) D = 1.496 N m it never
  // leaves 0 and sits at -(T_load - (pA - pB) D)/k_stop. Tolerances: pA
  // 6e5 Pa +- 1 Pa, pB p_amb +- 1 Pa, torque = (pA - pB) D rel 1e-12, stop
  // torque rel 1e-4, penetration rel 1e-3; chamber A volume V0_A + D theta
  // (rel 1e-12).
  void semiRotaryStaticBalance() {
    const double D = 3e-6, thMax = std::numbers::pi / 2.0, k = 1e4, ps = 6e5, V0A = 2e-6;
    for (double Tload : {0.2, 2.0}) {
      Project p;
      p.components = {comp("sup", "supply", {{"p", ps}, {"T", kT}}),
                      comp("ra", "restriction", {{"C", 1e-8}}),
                      comp("rb", "restriction", {{"C", 1e-8}}),
                      comp("sr", "semi_rotary_actuator",
                           {{"D", D}, {"theta_max", thMax}, {"k_stop", k}, {"T_load", Tload}, {"V0_A", V0A},
                            {"isothermal", 1.0}, {"J", 1e-4}}),
                      comp("atm", "atmosphere")};
      wire(p, "sup.1", "ra.1");
      wire(p, "ra.2", "sr.A");
      wire(p, "sr.B", "rb.1");
      wire(p, "rb.2", "atm.1");
      settings(p, 1.0, 1e-3, kTol);
      auto run = simulate(p);
      REQUIRE_OK(run);
      const double pA = run->col("sr.pA").back(), pB = run->col("sr.pB").back();
      const double th = run->col("sr.theta").back(), torque = run->col("sr.torque").back();
      qInfo("T_load = %.2f N m", Tload);
      CHECK_ABS(pA, ps, 1.0);
      CHECK_ABS(pB, kPamb, 1.0);
      CHECK_REL(torque, (pA - pB) * D, 1e-12);
      const double net = torque - Tload;
      CHECK_REL(run->col("sr.T_stop").back(), -net, 1e-4);
      if (net > 0) {
        CHECK_REL(th - thMax, net / k, 1e-3);
      } else {
        CHECK_REL(th, net / k, 1e-3);
        QVERIFY(run->maxAbs("sr.theta", 0.0, 1.0) < 1e-3);  // never left the stop
      }
      CHECK_REL(run->col("sr.A.V").back(), V0A + D * th, 1e-12);
    }
  }

  // An initial angle beyond the swept angle is reported as a ProjectError
  // naming the component and the field.
  void semiRotaryBadInitialAngle() {
    Project p;
    p.components = {comp("sr", "semi_rotary_actuator", {{"theta_max", 1.0}, {"theta0", 1.5}})};
    settings(p, 0.1, 1e-2, kTol);
    try {
      Simulation sim(p, "test");
      QFAIL("theta0 > theta_max was accepted");
    } catch (const ProjectError& e) {
      qInfo("%s", e.what());
      QCOMPARE(e.object(), std::string("sr"));
      QVERIFY(std::string(e.what()).find("theta0") != std::string::npos);
    }
  }
};

QTEST_APPLESS_MAIN(TestValves)
#include "test_valves.moc"
