// One-way flow control valve: an adjustable throttle (needle, C = opening *
// C_max) in parallel with a check valve that opens 1 -> 2.
//   - Free direction 1 -> 2: throttle and check valve (once p1 - p2 exceeds
//     p_crack, fully open at p_crack + dp_open, the same poppet law as check_valve, flow::poppet).
//   - Throttled direction 2 -> 1: the throttle alone.
// Meter-out speed control (the usual way for cylinders): port 2 at the
// cylinder, port 1 at the directional valve. The air fills the cylinder
// freely through the check valve and is throttled on its way out of the
// cylinder. (Meter-in: port 1 at the cylinder, port 2 at the valve.)
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

namespace pm {

namespace {

class FlowControlOneWay : public Element {
 public:
  explicit FlowControlOneWay(const Component& c) : Element(c.id) {
    Params P(c);
    Ct_ = P("C_max") * P("opening"), b_ = P("b"), m_ = P("m");
    Cc_ = P("C_check"), bc_ = P("b_check"), pCrack_ = P("p_crack"), dpOpen_ = P("dp_open");
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "flow_control_one_way";
    t.category = "Flow valves";
    t.symbol = "flow_control_one_way";
    t.description =
        "One-way flow control: throttle with a parallel check valve; free flow 1 -> 2, throttled 2 -> 1 "
        "(meter-out: port 2 at the cylinder, port 1 at the valve)";
    t.ports = {{"1", Domain::Pneumatic, "valve side (meter-out): free-flow inlet"},
               {"2", Domain::Pneumatic, "cylinder side (meter-out): throttled flow leaves through 1"}};
    t.params = {
        {"C_max", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "throttle sonic conductance fully open"},
        {"opening", "1", 0.5, 0.0, 1.0, false, false, "needle opening, 0 closed .. 1 fully open"},
        {"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the throttle"},
        {"m", "1", 0.5, 0.0, 1.0, true, false, "subsonic index of both paths (ISO 6358-1:2013)"},
        {"C_check", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "check valve sonic conductance fully open"},
        {"b_check", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the check valve"},
        {"p_crack", "Pa", 1e4, 0.0, 1e7, false, false, "check valve cracking pressure (p1 - p2)"},
        {"dp_open", "Pa", 1e4, 0.0, 1e7, true, false, "pressure band above p_crack to open the check valve fully"},
    };
    t.channels = {{"q", "kg/s", "total mass flow from 1 to 2 (negative: throttled 2 -> 1)"},
                  {"qn", "Nl/min", "total standard volume flow 1 -> 2 (ANR)"},
                  {"q_throttle", "kg/s", "mass flow 1 -> 2 through the throttle"},
                  {"q_check", "kg/s", "mass flow 1 -> 2 through the check valve (>= 0)"},
                  {"check_opening", "1", "check valve opening, 0 .. 1"}};
    t.create = [](const Component& c) { return std::make_unique<FlowControlOneWay>(c); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    b.channel("q", "kg/s");
    b.channel("qn", "Nl/min");
    b.channel("q_throttle", "kg/s");
    b.channel("q_check", "kg/s");
    b.channel("check_opening", "1");
    b.publish("q", [this](const Eval&) { return qt_ + qc_; });
  }

  void evaluate(Eval& e) override {
    qt_ = qc_ = s_ = 0.0;
    if (n1_ < 0 || n2_ < 0) return;
    const double p1 = e.p(n1_), T1 = e.T(n1_), p2 = e.p(n2_), T2 = e.T(n2_);
    qt_ = flow::iso6358(Ct_, b_, m_, p1, T1, p2, T2);
    qc_ = flow::poppet(Cc_, bc_, m_, pCrack_, dpOpen_, p1, T1, p2, T2, s_);
    e.flow(n1_, n2_, qt_ + qc_);
  }

  void output(const Eval&, double* ch) override {
    ch[0] = qt_ + qc_;
    ch[1] = gas::kgPerSToNlPerMin(qt_ + qc_);
    ch[2] = qt_;
    ch[3] = qc_;
    ch[4] = s_;
  }

 private:
  double Ct_, b_, m_, Cc_, bc_, pCrack_, dpOpen_;
  int n1_ = -1, n2_ = -1;
  double qt_ = 0.0, qc_ = 0.0, s_ = 0.0;
};

}  // namespace

PM_REGISTER(FlowControlOneWay)

}  // namespace pm
