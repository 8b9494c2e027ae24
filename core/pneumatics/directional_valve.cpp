// Directional control valves 2/2, 3/2, 5/2 and 5/3 (ISO 5599 port numbers:
// 1 supply, 2/4 working, 3/5 exhaust, 12/14 pilots). One class; each type is a
// table of switching positions and their flow paths.
//
// Actuation: side 14 is active when the signal `sol14` is on (solenoid or a
// push-button signal) or the pilot port 14 carries more than pilot_pressure
// (gauge); side 12 likewise. Two-position valves with spring return sit in
// the rest position unless 14 is active; without spring (bistable / detent)
// they keep the last position until the other side is active alone. 5/3
// valves are spring-centred.
// Hand operation (manual = 1; interactive runs, Element::operate): a press
// on the symbol actuates side 14 while held when the valve has a spring
// (push-button or lever valve; 5/3: held in position a); without a spring
// (detent) each press toggles the valve between its two positions. A signal
// on sol14/sol12 that stays on wins over a detent toggle at its next change.
// Switching: the spool travels linearly between positions in t_switch (full
// stroke); path conductances blend linearly with spool position. A closed
// path keeps a leakage C_leak = leak_fraction * C, as real spool valves do;
// this also keeps a volume-less line between two closed valves well posed.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace pm {

namespace {

struct Path {
  const char* from;
  const char* to;
};

struct ValveDef {
  const char* name;
  const char* description;
  std::vector<const char*> ports;
  // Positions: for two-position valves {rest, actuated by 14}; for three
  // positions {a (14), centre, b (12)}.
  std::vector<std::vector<Path>> positions;
  bool spring_default;
};

const std::vector<ValveDef>& valveDefs() {
  static const std::vector<ValveDef> defs = {
      {"valve_2_2_nc", "2/2-way valve, normally closed", {"1", "2"}, {{}, {{"1", "2"}}}, true},
      {"valve_2_2_no", "2/2-way valve, normally open", {"1", "2"}, {{{"1", "2"}}, {}}, true},
      {"valve_3_2_nc", "3/2-way valve, normally closed", {"1", "2", "3"}, {{{"2", "3"}}, {{"1", "2"}}}, true},
      {"valve_3_2_no", "3/2-way valve, normally open", {"1", "2", "3"}, {{{"1", "2"}}, {{"2", "3"}}}, true},
      {"valve_5_2", "5/2-way valve", {"1", "2", "3", "4", "5"},
       {{{"1", "2"}, {"4", "5"}}, {{"1", "4"}, {"2", "3"}}}, true},
      {"valve_5_3_closed", "5/3-way valve, closed centre", {"1", "2", "3", "4", "5"},
       {{{"1", "4"}, {"2", "3"}}, {}, {{"1", "2"}, {"4", "5"}}}, true},
      {"valve_5_3_exhausted", "5/3-way valve, exhausted centre", {"1", "2", "3", "4", "5"},
       {{{"1", "4"}, {"2", "3"}}, {{"2", "3"}, {"4", "5"}}, {{"1", "2"}, {"4", "5"}}}, true},
      {"valve_5_3_pressurised", "5/3-way valve, pressurised centre", {"1", "2", "3", "4", "5"},
       {{{"1", "4"}, {"2", "3"}}, {{"1", "2"}, {"1", "4"}}, {{"1", "2"}, {"4", "5"}}}, true},
  };
  return defs;
}

bool isExhaust(const std::string& p) { return p == "3" || p == "5"; }

}  // namespace

class DirectionalValve : public Element {
 public:
  DirectionalValve(const Component& c, const ValveDef& def) : Element(c.id), comp_(c) {
    Params P(c);
    C_[0] = P("C_supply"), b_[0] = P("b_supply");
    C_[1] = P("C_exhaust"), b_[1] = P("b_exhaust");
    leak_ = P("leak_fraction");
    tSwitch_ = P("t_switch");
    pilot_ = P("pilot_pressure");
    spring_ = P("spring_return") > 0.5;
    manual_ = P("manual") > 0.5;
    threePos_ = def.positions.size() == 3;
    // Every port pair that is a path in some position.
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& pos : def.positions)
      for (const Path& p : pos)
        if (seen.insert({p.from, p.to}).second) pairs_.push_back({p.from, p.to, -1, -1, isExhaust(p.to) ? 1 : 0, {}, 0.0});
    nPos_ = def.positions.size();
    for (auto& pr : pairs_) {
      for (size_t k = 0; k < def.positions.size(); ++k)
        for (const Path& p : def.positions[k])
          if (pr.from == p.from && pr.to == p.to) pr.inPos[k] = true;
    }
  }

  static ComponentType declare(const ValveDef& def) {
    ComponentType t;
    t.name = def.name;
    t.category = "Directional valves";
    t.symbol = def.name;
    t.description = def.description;
    for (const char* p : def.ports)
      t.ports.push_back({p, Domain::Pneumatic,
                         std::string(p) == "1" ? "supply" : isExhaust(p) ? "exhaust (vents when left open)" : "working port",
                         isExhaust(p)});
    t.ports.push_back({"14", Domain::Pneumatic, "pilot port 14 (optional)"});
    if (def.positions.size() == 3 || std::string(def.name) == "valve_5_2")
      t.ports.push_back({"12", Domain::Pneumatic, "pilot port 12 (optional)"});
    t.params = {
        {"C_supply", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance of the paths from port 1"},
        {"b_supply", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the paths from port 1"},
        {"C_exhaust", "m3/(s Pa)", 1.2e-8, 0.0, 1e-3, true, false, "sonic conductance of the paths to exhaust"},
        {"b_exhaust", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the paths to exhaust"},
        {"t_switch", "s", 0.01, 0.0, 10.0, true, false, "switching time (full spool travel)"},
        {"leak_fraction", "1", 1e-5, 0.0, 1.0, false, true, "leakage of a closed path as a fraction of its C"},
        {"pilot_pressure", "Pa", 2e5, 0.0, 1e8, true, false, "pilot switching pressure (gauge) on ports 12/14"},
        {"spring_return", "1", def.spring_default ? 1.0 : 0.0, 0.0, 1.0, false, false,
         "1: spring return (monostable); 0: keeps its position (bistable, two solenoids)"},
        {"manual", "1", 0.0, 0.0, 1.0, false, false,
         "1: hand-operated (button or lever on side 14): a click in an interactive run actuates it while held "
         "(spring return) or toggles it (detent, spring_return 0)"},
    };
    t.inputs = {{"sol14", "solenoid / push-button signal that switches 1->4 (1->2 on 3/2 and 2/2 valves)", false}};
    if (def.positions.size() == 3 || std::string(def.name) == "valve_5_2")
      t.inputs.push_back({"sol12", "solenoid signal of side 12 (bistable 5/2, 5/3)", false});
    t.channels = {{"s", "1", "spool position (0 rest, 1 actuated; 5/3: -1 b, 0 centre, +1 a)"}};
    for (const auto& pos : def.positions)
      for (const Path& p : pos) {
        ChannelDecl ch{std::string("q_") + p.from + "_" + p.to, "kg/s", "mass flow on the path"};
        if (std::none_of(t.channels.begin(), t.channels.end(), [&](auto& c) { return c.quantity == ch.quantity; }))
          t.channels.push_back(ch);
      }
    t.create = [&def](const Component& c) { return std::make_unique<DirectionalValve>(c, def); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    for (auto& pr : pairs_) {
      pr.a = b.port(pr.from);
      pr.b = b.port(pr.to);
    }
    pilot14_ = b.port("14");
    const ComponentType& t = Params(comp_).type();
    if (t.port("12")) pilot12_ = b.port("12");
    pAmb_ = b.ambientPressure();
    auto ref = [&](const char* n) {
      auto it = comp_.inputs.find(n);
      return it == comp_.inputs.end() ? std::string() : it->second;
    };
    b.input(sol14_, "inputs.sol14", ref("sol14"));
    if (t.input("sol12")) b.input(sol12_, "inputs.sol12", ref("sol12"));
    // The spool's arrival, and the pilots' thresholds where pilot ports are connected.
    b.roots(1 + (pilot14_ >= 0) + (pilot12_ >= 0));
    b.channel("s", "1");
    for (const auto& pr : pairs_) b.channel("q_" + pr.from + "_" + pr.to, "kg/s");
    b.publish("s", [this](const Eval& e) { return spool(e.t); });
  }

  void evaluate(Eval& e) override {
    const double s = spool(e.t);
    double w[3];
    if (threePos_) {
      w[0] = std::max(s, 0.0), w[1] = 1.0 - std::abs(s), w[2] = std::max(-s, 0.0);
    } else {
      w[0] = 1.0 - s, w[1] = s;
    }
    for (auto& pr : pairs_) {
      double open = 0.0;
      for (size_t k = 0; k < nPos_; ++k)
        if (pr.inPos[k]) open += w[k];
      const double C = C_[pr.cls] * (leak_ + (1.0 - leak_) * open);
      pr.q = (pr.a < 0 || pr.b < 0) ? 0.0 : flow::iso6358(C, b_[pr.cls], 0.5, e.p(pr.a), e.T(pr.a), e.p(pr.b), e.T(pr.b));
      e.flow(pr.a, pr.b, pr.q);
    }
  }

  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    int k = 0;
    g[k++] = ramping_ ? e.t - (tCmd_ + duration()) : 1.0;
    if (pilot14_ >= 0) g[k++] = e.p(pilot14_) - pAmb_ - pilot_;
    if (pilot12_ >= 0) g[k++] = e.p(pilot12_) - pAmb_ - pilot_;
  }

  bool update(const Eval& e) override {
    if (ramping_ && e.t >= tCmd_ + duration() - 1e-12) {
      s0_ = target_;
      ramping_ = false;
    }
    // update() runs repeatedly at one event: the pilots decide from their state before it.
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      before14_ = pilot14On_;
      before12_ = pilot12On_;
    }
    pilot14On_ = pilotOn(e, pilot14_, before14_);
    pilot12On_ = pilotOn(e, pilot12_, before12_);
    const bool a14 = hand_ || sol14_(e) > 0.5 || pilot14On_;
    const bool a12 = sol12_(e) > 0.5 || pilot12On_;
    double target = target_;
    if (toggle_) {
      toggle_ = false;
      target = target_ > 0.5 ? 0.0 : 1.0;
    } else if (threePos_) {
      target = a14 && !a12 ? 1.0 : a12 && !a14 ? -1.0 : 0.0;
    } else if (spring_) {
      target = a14 ? 1.0 : 0.0;
    } else if (a14 != a12) {
      target = a14 ? 1.0 : 0.0;
    }
    if (target == target_) return false;
    if (e.initializing) {
      s0_ = target_ = target;
      ramping_ = false;
      return true;
    }
    s0_ = spool(e.t);
    target_ = target;
    tCmd_ = e.t;
    ramping_ = true;
    return true;
  }

  bool operate(double value) override {
    if (!manual_) return false;
    const bool press = value > 0.5;
    if (spring_ || threePos_) {
      if (hand_ == press) return false;
      hand_ = press;
      return true;
    }
    if (!press) return false;  // detent: the press toggles, the release does nothing
    toggle_ = true;
    return true;
  }

  bool discrete(DiscreteState& s) override {
    // tEvent_ and before*_: the pilots' state before the current event.
    s(hand_, toggle_, pilot14On_, pilot12On_, before14_, before12_, tEvent_, s0_, target_, tCmd_, ramping_);
    return true;
  }

  void output(const Eval& e, double* ch) override {
    ch[0] = spool(e.t);
    for (size_t i = 0; i < pairs_.size(); ++i) ch[1 + i] = pairs_[i].q;
  }

 private:
  // Pilot side active: gauge pressure above pilot_. IDA returns a pilot's
  // root where the threshold function has changed sign or is exactly zero,
  // so a tie is a crossing away from the state before the event (with a
  // strict '>' a rising pilot never switched the valve).
  bool pilotOn(const Eval& e, int node, bool before) const {
    if (node < 0) return false;
    const double g = e.p(node) - pAmb_ - pilot_;
    return before ? !(g < 0.0 || (g == 0.0 && !e.initializing)) : g >= 0.0 && !(g == 0.0 && e.initializing);
  }
  double duration() const { return tSwitch_ * std::abs(target_ - s0_); }
  double spool(double t) const {
    if (!ramping_) return target_;
    const double travel = std::min(std::abs(target_ - s0_), (t - tCmd_) / tSwitch_);
    return s0_ + std::copysign(std::max(0.0, travel), target_ - s0_);
  }

  struct Pair {
    std::string from, to;
    int a, b;
    int cls;  // 0 supply path, 1 exhaust path
    std::array<bool, 3> inPos;  // a path in position k (at most 3 positions)
    double q;
  };
  Component comp_;
  std::vector<Pair> pairs_;
  size_t nPos_ = 2;
  double C_[2], b_[2], leak_, tSwitch_, pilot_;
  bool spring_, threePos_, manual_;
  bool hand_ = false;    // held by hand (spring-return manual valve)
  bool toggle_ = false;  // a detent toggle waiting for update()
  int pilot14_ = -1, pilot12_ = -1;
  bool pilot14On_ = false, pilot12On_ = false, before14_ = false, before12_ = false;
  double tEvent_ = -1e300;
  double pAmb_ = 101325.0;
  SignalInput sol14_, sol12_;
  double s0_ = 0.0, target_ = 0.0, tCmd_ = 0.0;
  bool ramping_ = false;
};

namespace {
const bool registeredValves = [] {
  for (const ValveDef& d : valveDefs()) Registry::instance().add(DirectionalValve::declare(d));
  return true;
}();
}  // namespace

}  // namespace pm
