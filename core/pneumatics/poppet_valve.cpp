// Spring-loaded poppet valves opened by the pressure difference p1 - p2
// (flow::poppet): lift s = smoothstep((p1 - p2 - p_crack) / dp_open),
// q = iso6358(s C, b, m) from 1 to 2, never backwards.
// - check valve (non-return valve): a low cracking pressure; reverse flow is
//   blocked completely (bubble-tight seat);
// - pressure relief (safety) valve: a high cracking pressure; port 2 vents to
//   the atmosphere when left unconnected, so the valve caps port 1 at
//   p_amb + p_crack plus the part of dp_open its flow needs.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

namespace pm {

namespace {

class PoppetValve : public Element {
 public:
  explicit PoppetValve(const Component& c) : Element(c.id) {
    Params P(c);
    C_ = P("C"), b_ = P("b"), m_ = P("m"), pCrack_ = P("p_crack"), dpOpen_ = P("dp_open");
  }

  static ComponentType declare(bool relief) {
    ComponentType t;
    t.name = relief ? "pressure_relief_valve" : "check_valve";
    t.category = relief ? "Pressure valves" : "Check valves";
    t.symbol = t.name;
    t.description = relief ? "Pressure relief valve: opens 1 -> 2 above the cracking pressure difference p_crack"
                           : "Check valve: free flow 1 -> 2 above the cracking pressure, no reverse flow";
    t.ports = {{"1", Domain::Pneumatic, relief ? "inlet (protected side)" : "inlet"},
               {"2", Domain::Pneumatic, relief ? "outlet (vents when left open)" : "outlet", relief}};
    t.params = {
        {"C", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance fully open (1e-8 = 1 dm3/(s bar))"},
        {"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio"},
        {"m", "1", 0.5, 0.0, 1.0, true, false, "subsonic index (ISO 6358-1:2013; 0.5 classic)"},
        {"p_crack", "Pa", relief ? 6e5 : 2e4, 0.0, 1e8, false, false,
         "cracking pressure: opening pressure difference p1 - p2"},
        {"dp_open", "Pa", relief ? 5e4 : 2e4, 0.0, 1e7, true, false,
         "pressure rise above p_crack over which the poppet opens fully (smoothstep)"},
    };
    t.channels = {{"q", "kg/s", "mass flow from 1 to 2 (never negative)"},
                  {"qn", "Nl/min", "standard volume flow (ANR, ISO 8778)"},
                  {"opening", "1", "poppet lift, 0 closed .. 1 fully open"}};
    t.create = [](const Component& c) { return std::make_unique<PoppetValve>(c); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    b.channel("q", "kg/s");
    b.channel("qn", "Nl/min");
    b.channel("opening", "1");
    b.publish("q", [this](const Eval&) { return q_; });
    b.publish("opening", [this](const Eval&) { return s_; });
  }

  void evaluate(Eval& e) override {
    q_ = s_ = 0.0;
    if (n1_ < 0 || n2_ < 0) return;
    q_ = flow::poppet(C_, b_, m_, pCrack_, dpOpen_, e.p(n1_), e.T(n1_), e.p(n2_), e.T(n2_), s_);
    e.flow(n1_, n2_, q_);
  }

  void output(const Eval&, double* ch) override {
    ch[0] = q_;
    ch[1] = gas::kgPerSToNlPerMin(q_);
    ch[2] = s_;
  }

 private:
  double C_, b_, m_, pCrack_, dpOpen_;
  int n1_ = -1, n2_ = -1;
  double q_ = 0.0, s_ = 0.0;
};

struct CheckValve {
  static ComponentType declare() { return PoppetValve::declare(false); }
};
struct PressureReliefValve {
  static ComponentType declare() { return PoppetValve::declare(true); }
};

}  // namespace

PM_REGISTER(CheckValve)
PM_REGISTER(PressureReliefValve)

}  // namespace pm
