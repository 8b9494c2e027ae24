// The shipped catalogue's data checked entry by entry (issue 23): each entry
// must agree with itself and with the standards it names, so that a typo in a
// data file (a rod as thick as the bore, a flow in the wrong unit, a C that is
// not the Nl/min it claims) fails here with the entry and the field named.
//
// The checks are the test's own: the ISO tables below are transcribed from the
// standards, the flow relation is ISO 6358-1 written out again with its
// constants (not the loader's conversion), and the sane ranges are what the
// component families can be. A deliberately bad company file shows that each
// check can fail and what it says.
#include "engine/engine.h"
#include "pneumatics/flow.h"
#include "support/test_project.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>

using namespace pm;
using namespace pm::test;

namespace {

// ISO 6358-1 and ISO 8778: reference density and temperature of "normal" air.
constexpr double kRho0 = 1.185;  // kg/m3
constexpr double kT0 = 293.15;   // K

// Piston rod diameter (MM) per bore, mm: ISO 15552 (32-125) and ISO 6432 (8-25).
const std::map<int, int> kIso15552Rod = {{32, 12}, {40, 16}, {50, 20}, {63, 20}, {80, 25}, {100, 25}, {125, 32}};
const std::map<int, int> kIso6432Rod = {{8, 4}, {10, 4}, {12, 6}, {16, 6}, {20, 8}, {25, 10}};
// Port thread (EE) per bore.
const std::map<int, std::string> kIso15552Port = {{32, "G1/8"}, {40, "G1/4"}, {50, "G1/4"}, {63, "G3/8"},
                                                  {80, "G3/8"}, {100, "G1/2"}, {125, "G1/2"}};
// Metric push-in tube outer diameters (ISO 14743 fittings), mm.
const std::vector<int> kTubeOd = {3, 4, 6, 8, 10, 12, 14, 16};

struct Rating {
  double p1 = 701325.0, p2 = 601325.0, T1 = 293.15;
};

// The Nl/min a path of conductance C and critical ratio b passes at the
// rating: mass flow C p1 rho0 sqrt(T0/T1) phi (ISO 6358-1, m = 0.5, subsonic),
// over rho0, in litres per minute.
double nlPerMin(double C, double b, const Rating& r) {
  const double x = (r.p2 / r.p1 - b) / (1.0 - b);
  const double phi = r.p2 / r.p1 <= b ? 1.0 : std::sqrt(1.0 - x * x);
  const double massFlow = C * r.p1 * kRho0 * std::sqrt(kT0 / r.T1) * phi;
  return massFlow / kRho0 * 1000.0 * 60.0;
}

std::string text(double v) { return QString::number(v, 'g', 8).toStdString(); }

// Every problem of one entry, each "PART: FIELD: what is wrong".
std::vector<std::string> entryProblems(const catalogue::Entry& e, const Rating& rating) {
  std::vector<std::string> out;
  auto bad = [&](const std::string& field, const std::string& what) { out.push_back(e.part + ": " + field + ": " + what); };
  auto param = [&](const char* k) { return e.params.count(k) ? e.params.at(k) : std::nan(""); };
  if (e.price && !(*e.price > 0.0)) bad("price", "must be positive when given");
  if (e.type.rfind("cylinder", 0) == 0) {
    const double bore = param("bore"), rod = param("rod");
    if (!(bore >= 0.006 && bore <= 0.32)) bad("params.bore", text(bore) + " m is outside 6-320 mm");
    if (!(rod > 0.0 && rod < bore)) bad("params.rod", text(rod) + " m must be positive and thinner than the bore");
    // Areas from the diameters: the annulus keeps 75-94 % of the piston area in
    // the standard series (rod/bore 0.25-0.5).
    const double aA = std::numbers::pi / 4 * bore * bore, aB = std::numbers::pi / 4 * (bore * bore - rod * rod);
    if (!(aB / aA >= 0.75 - 1e-12 && aB / aA <= 0.94))  // 0.75 exactly: ISO 6432's 8 mm bore, 4 mm rod
      bad("params.rod", "annulus/piston area " + text(aB / aA) + " is outside 0.75-0.94 (rod " + text(rod) + " m, bore " +
                            text(bore) + " m)");
    const int boreMm = static_cast<int>(std::lround(bore * 1000.0));
    const std::map<int, int>* table = e.family == "cylinders_iso15552" ? &kIso15552Rod
                                      : e.family == "cylinders_iso6432" ? &kIso6432Rod
                                                                        : nullptr;
    if (table) {
      const std::string series = e.family == "cylinders_iso15552" ? "ISO15552-" : "ISO6432-";
      if (e.part != series + std::to_string(boreMm)) bad("part", "does not name the bore " + std::to_string(boreMm) + " mm");
      if (std::abs(bore * 1000.0 - boreMm) > 1e-9) bad("params.bore", text(bore) + " m is not a whole mm");
      const auto it = table->find(boreMm);
      if (it == table->end()) bad("params.bore", std::to_string(boreMm) + " mm is not a bore of the standard");
      else if (std::abs(rod * 1000.0 - it->second) > 1e-9)
        bad("params.rod", text(rod * 1000.0) + " mm, the standard's rod is " + std::to_string(it->second) + " mm");
      if (e.family == "cylinders_iso15552" && kIso15552Port.count(boreMm) &&
          e.source.value("port_thread", "") != kIso15552Port.at(boreMm))
        bad("port_thread", e.source.value("port_thread", "(none)") + ", the standard's is " + kIso15552Port.at(boreMm));
    }
    if (e.strokeMax > 0.0 && !(e.strokeMin >= 0.0 && e.strokeMax <= 3.0))
      bad("strokes", "outside 0-3 m");
  } else if (e.type.rfind("valve", 0) == 0) {
    for (const std::string side : {"supply", "exhaust"}) {
      const double C = param(("C_" + side).c_str()), b = param(("b_" + side).c_str());
      // A 2 mm orifice (about 1e-9) to a G1 valve (about 1e-6).
      if (!(C >= 1e-9 && C <= 1e-6)) bad("params.C_" + side, text(C) + " m3/(s Pa) is outside 1e-9 to 1e-6");
      if (!(b > 0.0 && b <= 0.6)) bad("params.b_" + side, text(b) + " is outside (0, 0.6]");
      const nlohmann::json flow = e.source.value("flow", nlohmann::json::object());
      const std::string qnKey = side == "exhaust" && flow.contains("qn_exhaust") ? "qn_exhaust" : "qn";
      if (flow.contains(qnKey)) {
        const double qn = flow[qnKey].get<double>();
        if (!(qn >= 50.0 && qn <= 10000.0)) bad("flow." + qnKey, text(qn) + " Nl/min is outside 50-10000");
        const double back = nlPerMin(C, b, rating);
        if (!(std::abs(back / qn - 1.0) < 1e-12))
          bad("params.C_" + side, "C = " + text(C) + " passes " + text(back) + " Nl/min at the rating, not " + text(qn));
        // And the engine's valve flow law agrees (kg/s at the rating, as Nl/min).
        const double engine = flow::iso6358(C, b, 0.5, rating.p1, rating.T1, rating.p2, rating.T1) / kRho0 * 60000.0;
        if (!(std::abs(engine / qn - 1.0) < 1e-12))
          bad("params.C_" + side, "the engine's flow law gives " + text(engine) + " Nl/min, not " + text(qn));
      }
    }
    const double ts = param("t_switch");
    if (e.params.count("t_switch") && !(ts >= 0.002 && ts <= 0.1)) bad("params.t_switch", text(ts) + " s is outside 2-100 ms");
  } else if (e.type == "tube") {
    const double od = e.source.value("od", 0.0), id = param("d");
    const int odMm = static_cast<int>(std::lround(od * 1000.0));
    if (std::abs(od * 1000.0 - odMm) > 1e-9 || std::find(kTubeOd.begin(), kTubeOd.end(), odMm) == kTubeOd.end())
      bad("od", text(od) + " m is not a metric push-in size");
    const double wall = (od - id) / 2.0;
    if (!(wall >= 0.0005 && wall <= 0.0025)) bad("id", "wall " + text(wall * 1000.0) + " mm is outside 0.5-2.5 mm");
  }
  return out;
}

std::vector<std::string> problems(const catalogue::Catalogue& cat) {
  std::map<std::string, Rating> ratings;  // per file: its flow_rating
  std::vector<std::string> out;
  std::map<std::string, double> lastQn;  // per family, in file order: valves grow with the port
  for (const catalogue::Entry& e : cat.entries()) {
    if (!ratings.count(e.file)) {
      std::ifstream in(e.file);
      const nlohmann::json d = nlohmann::json::parse(in);
      Rating r;
      if (d.contains("flow_rating"))
        r = {d["flow_rating"]["p1"].get<double>(), d["flow_rating"]["p2"].get<double>(),
             d["flow_rating"].value("T1", 293.15)};
      ratings[e.file] = r;
    }
    for (const std::string& p : entryProblems(e, ratings[e.file])) out.push_back(p);
    if (e.source.contains("flow")) {
      const double qn = e.source["flow"]["qn"].get<double>();
      if (lastQn.count(e.family) && !(qn > lastQn[e.family]))
        out.push_back(e.part + ": flow.qn: " + text(qn) + " Nl/min is not above the smaller size's " +
                      text(lastQn[e.family]));
      lastQn[e.family] = qn;
    }
  }
  return out;
}

bool mentions(const std::vector<std::string>& list, const std::string& what) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& s) { return s.find(what) != std::string::npos; });
}

}  // namespace

class TestCatalogueData : public QObject {
  Q_OBJECT
 private slots:
  void shippedEntriesAreConsistent() {
    catalogue::Catalogue cat;
    cat.addFolder(sourceDir() + "/catalogue");
    QVERIFY(cat.entries().size() >= 20);
    const std::vector<std::string> p = problems(cat);
    std::string all;
    for (const std::string& s : p) all += "\n  " + s;
    QVERIFY2(p.empty(), all.c_str());
  }

  // Theoretical piston forces at 6 bar as vendors' ISO 15552 data sheets list
  // them (advance / retract, N): the catalogue's diameters give them back.
  void iso15552ForcesFromDiameters() {
    const std::map<std::string, std::pair<double, double>> sheet = {
        {"ISO15552-32", {483, 415}},   {"ISO15552-40", {754, 633}},   {"ISO15552-50", {1178, 990}},
        {"ISO15552-63", {1870, 1682}}, {"ISO15552-80", {3016, 2721}}, {"ISO15552-100", {4712, 4418}},
        {"ISO15552-125", {7363, 6881}}};
    for (const auto& [part, f] : sheet) {
      const catalogue::Entry* e = catalogue::processCatalogue().find(part);
      QVERIFY2(e, part.c_str());
      const double d = e->params.at("bore"), r = e->params.at("rod");
      const double advance = 6e5 * std::numbers::pi / 4 * d * d, retract = 6e5 * std::numbers::pi / 4 * (d * d - r * r);
      QVERIFY2(std::abs(advance - f.first) <= 0.5 && std::abs(retract - f.second) <= 0.5,
               qPrintable(QString("%1: %2 / %3 N").arg(part.c_str()).arg(advance).arg(retract)));
    }
  }

  // A company file with one mistake per entry: each is named with its field.
  void badEntriesAreNamed() {
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/cylinders_iso15552.json";
    std::ofstream(path) << R"({"format": "pneumech-catalogue", "sources": ["test"],
      "flow_rating": {"p1": 701325, "p2": 601325},
      "entries": [
        {"part": "ISO15552-50", "price": null, "type": "cylinder_double", "params": {"bore": 0.05, "rod": 0.025}, "port_thread": "G1/4"},
        {"part": "ISO15552-63", "price": null, "type": "cylinder_double", "params": {"bore": 0.063, "rod": 0.045}, "port_thread": "G3/8"},
        {"part": "ISO15552-40", "price": null, "type": "cylinder_double", "params": {"bore": 0.04, "rod": 0.016}, "port_thread": "G1/8"},
        {"part": "VX-1", "price": null, "type": "valve_5_2", "flow": {"qn": 40, "b": 0.3}},
        {"part": "VX-2", "price": null, "type": "valve_5_2", "flow": {"qn": 15, "b": 0.3}, "params": {"t_switch": 0.5}},
        {"part": "PU-7", "price": 0, "type": "tube", "od": 0.007, "id": 0.0065}
      ]})";
    catalogue::Catalogue cat;
    cat.addFile(path);  // the loader takes all of it: these are data errors, not format errors
    const std::vector<std::string> p = problems(cat);
    std::string all;
    for (const std::string& s : p) all += "\n  " + s;
    QVERIFY2(mentions(p, "ISO15552-50: params.rod: 25 mm, the standard's rod is 20 mm"), all.c_str());
    QVERIFY2(mentions(p, "ISO15552-63: params.rod: annulus/piston area 0.4897"), all.c_str());
    QVERIFY2(mentions(p, "ISO15552-40: port_thread: G1/8, the standard's is G1/4"), all.c_str());
    QVERIFY2(mentions(p, "VX-1: flow.qn: 40 Nl/min is outside 50-10000"), all.c_str());
    QVERIFY2(mentions(p, "VX-2: flow.qn: 15 Nl/min is not above the smaller size's 40"), all.c_str());
    QVERIFY2(mentions(p, "VX-2: params.t_switch: 0.5 s is outside"), all.c_str());
    QVERIFY2(mentions(p, "PU-7: od: 0.007 m is not a metric push-in size"), all.c_str());
    QVERIFY2(mentions(p, "PU-7: id: wall 0.25 mm"), all.c_str());
    QVERIFY2(mentions(p, "PU-7: price: must be positive"), all.c_str());
    QVERIFY2(!mentions(p, "VX-1: params.C_supply"), all.c_str());  // the loader converted it right

    // A C that is not its Nl/min (a conductance typed in l/(s bar), say).
    catalogue::Entry v = *cat.find("VX-1");
    v.params["C_supply"] *= 1.0001;
    const std::vector<std::string> c = entryProblems(v, Rating{});
    QVERIFY2(mentions(c, "VX-1: params.C_supply: C = "), c.empty() ? "none" : c[0].c_str());
    QVERIFY(mentions(c, "Nl/min at the rating, not 40"));
  }
};

QTEST_GUILESS_MAIN(TestCatalogueData)
#include "test_catalogue_data.moc"
