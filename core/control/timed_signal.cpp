// Signals that are on during one time window:
// - time_switch: on from t_on to t_off, the simplest way to switch a solenoid
//   at a given time (seed 003 fig. 8 switches its valve at 0.1 s);
// - push_button: the operator presses it at t_press and holds it for
//   `duration`; the hand-operated start signal of a sequence ("start.out") or
//   of a push-button valve (sol14).
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

#include <algorithm>

namespace pm {

class TimedSignal : public Element {
 public:
  TimedSignal(const Component& c, bool button) : Element(c.id), button_(button) {
    Params P(c);
    tOn_ = P(button ? "t_press" : "t_on");
    tOff_ = button ? tOn_ + P("duration") : P("t_off");
  }
  static ComponentType declare(bool button) {
    ComponentType t;
    t.name = button ? "push_button" : "time_switch";
    t.category = "Signals";
    t.symbol = t.name;
    if (button) {
      t.description = "Manual push button: pressed (out = 1) from t_press for `duration`";
      t.params = {{"t_press", "s", 0.1, 0.0, 1e9, false, false, "time the operator presses the button"},
                  {"duration", "s", 0.2, 0.0, 1e9, true, false, "how long the button is held"}};
      t.channels = {{"out", "1", "button state (1 pressed)"}};
    } else {
      t.description = "Signal on (1) from t_on until t_off, else off (0)";
      t.params = {{"t_on", "s", 0.1, 0.0, 1e9, false, false, "switch-on time"},
                  {"t_off", "s", 1e9, 0.0, 1e9, false, false, "switch-off time (1e9: never)"}};
      t.channels = {{"out", "1", "switch state"}};
    }
    t.create = [button](const Component& c) { return std::make_unique<TimedSignal>(c, button); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.roots(2);
    b.channel("out", "1");
    // A push button starts sequences, whose roots may then skip the
    // evaluation. A time switch feeds valves, whose roots read only states
    // anyway; flagged, it would shrink the junction bisection's element set
    // (System::elementsAt), which leaves a mechanism's expansion anchor
    // behind and costs a mechanism more work (see docs/performance.md).
    b.publish("out", [this](const Eval&) { return on_ ? 1.0 : 0.0; }, button_);
  }
  void evaluate(Eval&) override {}
  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    g[0] = e.t - tOn_;
    g[1] = e.t - tOff_;
  }
  bool update(const Eval& e) override {
    // Roots land within solver tolerance of the switching time.
    const double eps = 1e-9 * std::max(1.0, e.t);
    const bool on = (e.t >= tOn_ - eps && e.t < tOff_ - eps) || held_;
    if (on == on_) return false;
    on_ = on;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(held_, on_);
    return true;
  }
  void output(const Eval&, double* ch) override { ch[0] = on_ ? 1.0 : 0.0; }
  // The push button pressed by hand (interactive mode), on top of its
  // timed press.
  bool operate(double value) override {
    if (!button_ || held_ == (value > 0.5)) return false;
    held_ = value > 0.5;
    return true;
  }

 private:
  double tOn_, tOff_;
  bool button_ = false;
  bool held_ = false;
  bool on_ = false;
};
struct TimeSwitch {
  static ComponentType declare() { return TimedSignal::declare(false); }
};
struct PushButton {
  static ComponentType declare() { return TimedSignal::declare(true); }
};
PM_REGISTER(TimeSwitch)
PM_REGISTER(PushButton)

}  // namespace pm
