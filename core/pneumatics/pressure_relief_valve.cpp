// Pressure relief (safety) valve: opens 1 -> 2 when the pressure difference
// p1 - p2 exceeds the cracking pressure p_crack and is fully open at
// p_crack + band; the opening grows linearly in between (proportional
// spring-loaded poppet, no poppet dynamics):
//   o = clamp((p1 - p2 - p_crack) / band, 0, 1),  q = iso6358(o C, b; 1 -> 2).
// No reverse flow (o = 0 for p1 - p2 <= p_crack). Port 2 vents to the
// atmosphere when left unconnected, so an unconnected relief valve caps port 1
// at p_amb + p_crack (+ the part of the band its flow needs).
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"
#include "solver/system.h"

#include <algorithm>

namespace pm {

namespace {

class PressureReliefValve : public Element {
 public:
  explicit PressureReliefValve(const Component& c) : Element(c.id) {
    Params P(c);
    pCrack_ = P("p_crack"), band_ = P("band"), C_ = P("C"), b_ = P("b");
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "pressure_relief_valve";
    t.category = "Pressure valves";
    t.symbol = "pressure_relief_valve";
    t.description = "Pressure relief valve: opens 1 -> 2 above the cracking pressure difference p_crack";
    t.ports = {{"1", Domain::Pneumatic, "inlet (protected side)"},
               {"2", Domain::Pneumatic, "outlet (vents when left open)", true}};
    t.params = {
        {"p_crack", "Pa", 6e5, 0.0, 1e8, false, false, "cracking pressure difference p1 - p2 (6e5 Pa = 6 bar)"},
        {"band", "Pa", 5e4, 0.0, 1e7, true, false, "pressure rise above p_crack that opens the valve fully"},
        {"C", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance fully open"},
        {"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio"},
    };
    t.channels = {{"q", "kg/s", "mass flow 1 -> 2 (>= 0)"},
                  {"qn", "Nl/min", "standard volume flow (ANR)"},
                  {"opening", "1", "opening, 0 closed .. 1 fully open"}};
    t.create = [](const Component& c) { return std::make_unique<PressureReliefValve>(c); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    b.channel("q", "kg/s");
    b.channel("qn", "Nl/min");
    b.channel("opening", "1");
    b.publish("q", [this](const Eval&) { return q_; });
  }

  void evaluate(Eval& e) override {
    q_ = o_ = 0.0;
    if (n1_ < 0 || n2_ < 0) return;
    const double p1 = e.p(n1_), p2 = e.p(n2_);
    o_ = std::clamp((p1 - p2 - pCrack_) / band_, 0.0, 1.0);
    if (o_ > 0.0) q_ = flow::iso6358(o_ * C_, b_, 0.5, p1, e.T(n1_), p2, e.T(n2_));
    e.flow(n1_, n2_, q_);
  }

  void output(const Eval&, double* ch) override {
    ch[0] = q_;
    ch[1] = gas::kgPerSToNlPerMin(q_);
    ch[2] = o_;
  }

 private:
  double pCrack_, band_, C_, b_;
  int n1_ = -1, n2_ = -1;
  double q_ = 0.0, o_ = 0.0;
};

}  // namespace

PM_REGISTER(PressureReliefValve)

}  // namespace pm
