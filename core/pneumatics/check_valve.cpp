// Check valve (non-return valve): a spring-loaded poppet between port 1
// (inlet) and port 2 (outlet). It opens when the pressure difference p1 - p2
// exceeds the cracking pressure p_crack and is fully open at p_crack + dp_open;
// in between the poppet lift, and with it the ISO 6358 sonic conductance, follows
// flow::smoothstep (C1, so the Jacobian has no jump at the cracking point):
//   s = smoothstep((p1 - p2 - p_crack) / dp_open),  q = iso6358(s C, b, m; 1 -> 2).
// Reverse flow 2 -> 1 is blocked completely (bubble-tight poppet seat): s = 0
// whenever p1 - p2 <= p_crack, so q >= 0 always.
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"
#include "solver/system.h"

namespace pm {

namespace {

class CheckValve : public Element {
 public:
  explicit CheckValve(const Component& c) : Element(c.id) {
    Params P(c);
    C_ = P("C"), b_ = P("b"), m_ = P("m"), pCrack_ = P("p_crack"), dpOpen_ = P("dp_open");
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "check_valve";
    t.category = "Non-return valves";
    t.symbol = "check_valve";
    t.description = "Check valve: free flow 1 -> 2 above the cracking pressure, no reverse flow";
    t.ports = {{"1", Domain::Pneumatic, "inlet"}, {"2", Domain::Pneumatic, "outlet"}};
    t.params = {
        {"C", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance fully open (1e-8 = 1 dm3/(s bar))"},
        {"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio"},
        {"m", "1", 0.5, 0.0, 1.0, true, false, "subsonic index (ISO 6358-1:2013; 0.5 classic)"},
        {"p_crack", "Pa", 2e4, 0.0, 1e7, false, false, "cracking pressure: opening pressure difference p1 - p2"},
        {"dp_open", "Pa", 2e4, 0.0, 1e7, true, false,
         "pressure band above p_crack over which the poppet opens fully (smoothstep)"},
    };
    t.channels = {{"q", "kg/s", "mass flow from 1 to 2 (never negative)"},
                  {"qn", "Nl/min", "standard volume flow (ANR, ISO 8778)"},
                  {"opening", "1", "poppet opening, 0 closed .. 1 fully open"}};
    t.create = [](const Component& c) { return std::make_unique<CheckValve>(c); };
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
    const double p1 = e.p(n1_), p2 = e.p(n2_);
    s_ = flow::smoothstep((p1 - p2 - pCrack_) / dpOpen_);
    // s > 0 implies p1 > p2 + p_crack >= p2: the flow is forward.
    if (s_ > 0.0) q_ = flow::iso6358(s_ * C_, b_, m_, p1, e.T(n1_), p2, e.T(n2_));
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

}  // namespace

PM_REGISTER(CheckValve)

}  // namespace pm
