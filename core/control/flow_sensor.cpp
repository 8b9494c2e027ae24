// Flow sensor (flow meter) in line between ports 1 and 2. A real meter has a
// small pressure drop; it is modelled as an ISO 6358 restriction with a large
// sonic conductance (default 1e-6 m3/(s Pa) = 100 dm3/(s bar), two orders
// above a typical valve), so it barely loads the circuit while keeping both
// ports distinct nets. Publishes "<id>.q" (kg/s, positive 1 -> 2) and
// "<id>.qn" (Nl/min, ANR per ISO 8778).
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"
#include "solver/system.h"

namespace pm {

class FlowSensor : public Element {
 public:
  explicit FlowSensor(const Component& c) : Element(c.id) {
    Params P(c);
    C_ = P("C"), b_ = P("b"), m_ = P("m");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "flow_sensor";
    t.category = "Sensors";
    t.symbol = "flow_sensor";
    t.description = "In-line flow sensor: mass and standard volume flow 1 -> 2 through a low-loss ISO 6358 passage";
    t.ports = {{"1", Domain::Pneumatic, "inlet (positive flow 1 -> 2)"}, {"2", Domain::Pneumatic, "outlet"}};
    t.params = {{"C", "m3/(s Pa)", 1e-6, 0.0, 1e-3, true, false,
                 "sonic conductance of the meter passage (large: low pressure drop)"},
                {"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio"},
                {"m", "1", 0.5, 0.0, 1.0, true, false, "subsonic index (ISO 6358-1:2013; 0.5 classic)"}};
    t.channels = {{"q", "kg/s", "mass flow from 1 to 2"}, {"qn", "Nl/min", "standard volume flow (ANR, ISO 8778)"}};
    t.create = [](const Component& c) { return std::make_unique<FlowSensor>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    b.channel("q", "kg/s");
    b.channel("qn", "Nl/min");
    b.publish("q", [this](const Eval&) { return q_; });
    b.publish("qn", [this](const Eval&) { return gas::kgPerSToNlPerMin(q_); });
  }
  void evaluate(Eval& e) override {
    q_ = (n1_ < 0 || n2_ < 0) ? 0.0 : flow::iso6358(C_, b_, m_, e.p(n1_), e.T(n1_), e.p(n2_), e.T(n2_));
    e.flow(n1_, n2_, q_);
  }
  void output(const Eval&, double* ch) override {
    ch[0] = q_;
    ch[1] = gas::kgPerSToNlPerMin(q_);
  }

 private:
  double C_, b_, m_;
  int n1_ = -1, n2_ = -1;
  double q_ = 0.0;
};
PM_REGISTER(FlowSensor)

}  // namespace pm
