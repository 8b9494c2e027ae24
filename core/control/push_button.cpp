// Manual push button (start button): the operator presses it at t_press and
// holds it for `duration`; out is 1 meanwhile. It stands for the hand-operated
// start signal of a sequence ("start.out") or of a push-button valve (sol14).
#include "model/component_type.h"
#include "model/project.h"
#include "solver/system.h"

#include <algorithm>

namespace pm {

class PushButton : public Element {
 public:
  explicit PushButton(const Component& c) : Element(c.id) {
    Params P(c);
    tPress_ = P("t_press");
    tRelease_ = tPress_ + P("duration");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "push_button";
    t.category = "Signals";
    t.symbol = "push_button";
    t.description = "Manual push button: pressed (out = 1) from t_press for `duration`";
    t.params = {{"t_press", "s", 0.1, 0.0, 1e9, false, false, "time the operator presses the button"},
                {"duration", "s", 0.2, 0.0, 1e9, true, false, "how long the button is held"}};
    t.channels = {{"out", "1", "button state (1 pressed)"}};
    t.create = [](const Component& c) { return std::make_unique<PushButton>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.roots(2);
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return on_ ? 1.0 : 0.0; });
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override {
    g[0] = e.t - tPress_;
    g[1] = e.t - tRelease_;
  }
  bool update(const Eval& e) override {
    const double eps = 1e-9 * std::max(1.0, e.t);  // roots land within solver tolerance
    const bool on = e.t >= tPress_ - eps && e.t < tRelease_ - eps;
    if (on == on_) return false;
    on_ = on;
    return true;
  }
  void output(const Eval&, double* ch) override { ch[0] = on_ ? 1.0 : 0.0; }

 private:
  double tPress_, tRelease_;
  bool on_ = false;
};
PM_REGISTER(PushButton)

}  // namespace pm
