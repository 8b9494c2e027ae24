// Limit switch (reed switch on a cylinder barrel, or a roller lever): its
// output is 1 while the position it watches lies within a window of width
// `width` centred on x_switch, |x - x_switch| <= width/2, else 0. A reed
// switch responds over a few millimetres of piston travel (the magnet's
// response zone); the window models that zone. Both window edges are root
// functions, so the switch changes exactly when the position crosses an edge
// (to IDA's root tolerance), not at the next output sample.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

namespace pm {

class LimitSwitch : public Element {
 public:
  explicit LimitSwitch(const Component& c) : Element(c.id) {
    Params P(c);
    lo_ = P("x_switch") - 0.5 * P("width");
    hi_ = P("x_switch") + 0.5 * P("width");
    auto it = c.inputs.find("position");
    if (it != c.inputs.end()) ref_ = it->second;
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "limit_switch";
    t.category = "Sensors";
    t.symbol = "limit_switch";
    t.description = "Limit / reed switch: out = 1 while |position - x_switch| <= width/2";
    t.params = {{"x_switch", "m", 0.0, -100.0, 100.0, false, false, "centre of the switching window (position read)"},
                {"width", "m", 0.004, 0.0, 100.0, true, false,
                 "width of the switching window (reed switch response zone, typically 2-6 mm)"}};
    t.inputs = {{"position", "position signal the switch watches, e.g. \"cyl1.x\"", true}};
    t.channels = {{"out", "1", "switch state (1 inside the window)"}};
    t.create = [](const Component& c) { return std::make_unique<LimitSwitch>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(pos_, "inputs.position", ref_);
    b.roots(2);
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return on_ ? 1.0 : 0.0; }, true);
  }
  void evaluate(Eval&) override {}
  bool rootsReadStatesOnly() const override { return !pos_.connected() || pos_.readsStatesOnly; }
  void roots(const Eval& e, double* g) override {
    const double x = pos_(e);
    g[0] = x - lo_;
    g[1] = x - hi_;
  }
  bool update(const Eval& e) override {
    // The System calls update() repeatedly at one event: remember the region
    // known before the event, so an edge tie is decided the same way each time.
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      before_ = region_;
    }
    region_ = region(pos_(e), e.initializing);
    const bool on = region_ == 1;
    if (on == on_) return false;
    on_ = on;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(region_, before_, tEvent_, on_);
    return true;
  }
  void output(const Eval&, double* ch) override { ch[0] = on_ ? 1.0 : 0.0; }

 private:
  // 0 below the window, 1 inside, 2 above. At a root IDA returns the first
  // point where the edge function has changed sign or is exactly zero (this
  // happens: the root finder can land on the edge exactly); an exact zero is
  // a crossing away from the region known before the event.
  int region(double x, bool initializing) const {
    if (x < lo_) return 0;
    if (x > hi_) return 2;
    if (!initializing) {
      if (x == lo_ && before_ == 1) return 0;
      if (x == hi_ && before_ == 1) return 2;
    }
    return 1;
  }
  double lo_, hi_;
  std::string ref_;
  SignalInput pos_;
  int region_ = 1, before_ = 1;
  double tEvent_ = -1e300;
  bool on_ = false;
};
PM_REGISTER(LimitSwitch)

}  // namespace pm
