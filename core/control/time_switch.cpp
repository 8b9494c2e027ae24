// A signal that is on between t_on and t_off: the simplest way to switch a
// solenoid at a given time (seed 003 fig. 8 switches its valve at 0.1 s).
#include "model/component_type.h"
#include "model/project.h"
#include "solver/system.h"

#include <algorithm>

namespace pm {

class TimeSwitch : public Element {
 public:
  explicit TimeSwitch(const Component& c) : Element(c.id) {
    Params P(c);
    tOn_ = P("t_on");
    tOff_ = P("t_off");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "time_switch";
    t.category = "Signals";
    t.symbol = "time_switch";
    t.description = "Signal on (1) from t_on until t_off, else off (0)";
    t.params = {{"t_on", "s", 0.1, 0.0, 1e9, false, false, "switch-on time"},
                {"t_off", "s", 1e9, 0.0, 1e9, false, false, "switch-off time (1e9: never)"}};
    t.channels = {{"out", "1", "switch state"}};
    t.create = [](const Component& c) { return std::make_unique<TimeSwitch>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.roots(2);
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return on_ ? 1.0 : 0.0; });
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override {
    g[0] = e.t - tOn_;
    g[1] = e.t - tOff_;
  }
  bool update(const Eval& e) override {
    // Roots land within solver tolerance of the switching time.
    const double eps = 1e-9 * std::max(1.0, e.t);
    const bool on = e.t >= tOn_ - eps && e.t < tOff_ - eps;
    if (on == on_) return false;
    on_ = on;
    return true;
  }
  void output(const Eval&, double* ch) override { ch[0] = on_ ? 1.0 : 0.0; }

 private:
  double tOn_, tOff_;
  bool on_ = false;
};
PM_REGISTER(TimeSwitch)

}  // namespace pm
