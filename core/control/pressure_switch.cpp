// Pressure switch on a pneumatic net: switches on when the gauge pressure at
// port 1 rises to p_on and off again when it falls to p_on - hysteresis
// (p_on is gauge, relative to the simulation's ambient pressure, as pressure
// switches are set). The active threshold is a root function, so the switch
// changes at the exact crossing. No volume, no flow.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

namespace pm {

class PressureSwitch : public Element {
 public:
  explicit PressureSwitch(const Component& c) : Element(c.id) {
    Params P(c);
    pOn_ = P("p_on");
    pOff_ = pOn_ - P("hysteresis");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "pressure_switch";
    t.category = "Sensors";
    t.symbol = "pressure_switch";
    t.description = "Pressure switch: on at gauge pressure >= p_on, off below p_on - hysteresis";
    t.ports = {{"1", Domain::Pneumatic, "measuring port"}};
    t.params = {{"p_on", "Pa", 4e5, -1e8, 1e8, false, false, "switch-on pressure, gauge (4e5 Pa = 4 bar gauge)"},
                {"hysteresis", "Pa", 0.3e5, 0.0, 1e8, false, false, "switch-off point lies this far below p_on"}};
    t.channels = {{"out", "1", "switch state"}, {"p_gauge", "Pa", "gauge pressure at port 1"}};
    t.create = [](const Component& c) { return std::make_unique<PressureSwitch>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    node_ = b.port("1");
    pAmb_ = b.ambientPressure();
    b.roots(1);
    b.channel("out", "1");
    b.channel("p_gauge", "Pa");
    b.publish("out", [this](const Eval&) { return on_ ? 1.0 : 0.0; }, true);
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override { g[0] = gauge(e) - (on_ ? pOff_ : pOn_); }
  bool update(const Eval& e) override {
    const double pg = gauge(e);
    // update() runs repeatedly at one event: decide from the state before it.
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      before_ = on_;
    }
    // At a root the threshold function has changed sign or is exactly zero
    // (a tie is a crossing away from the state before the event).
    const bool on = before_ ? !(pg < pOff_ || (pg == pOff_ && !e.initializing)) : pg >= pOn_;
    if (on == on_) return false;
    on_ = on;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(on_, before_, tEvent_);
    return true;
  }
  void output(const Eval& e, double* ch) override {
    ch[0] = on_ ? 1.0 : 0.0;
    ch[1] = gauge(e);
  }

 private:
  double gauge(const Eval& e) const { return e.p(node_) - pAmb_; }
  double pOn_, pOff_;
  int node_ = -1;
  double pAmb_ = 101325.0;
  bool on_ = false, before_ = false;
  double tEvent_ = -1e300;
};
PM_REGISTER(PressureSwitch)

}  // namespace pm
