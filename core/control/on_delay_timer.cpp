// On-delay timer (TON, IEC 61131-3; pneumatic time-delay valve): the output
// goes on `delay` after the input turned on, provided the input stayed on;
// it goes off at once when the input goes off. The input is on above 0.5.
// Roots: the input crossing 0.5 (for continuous inputs; discrete inputs change
// at other elements' events anyway) and the end of the running delay.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

#include <algorithm>

namespace pm {

class OnDelayTimer : public Element {
 public:
  explicit OnDelayTimer(const Component& c) : Element(c.id) {
    Params P(c);
    delay_ = P("delay");
    auto it = c.inputs.find("in");
    if (it != c.inputs.end()) ref_ = it->second;
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "on_delay_timer";
    t.category = "Signals";
    t.symbol = "on_delay_timer";
    t.description = "On-delay timer: out turns on `delay` after `in` turned on, off as soon as `in` is off";
    t.params = {{"delay", "s", 1.0, 0.0, 1e9, false, false, "switch-on delay"}};
    t.inputs = {{"in", "signal that starts the timer (on above 0.5), e.g. \"s1.out\"", true}};
    t.channels = {{"out", "1", "timer output"}, {"elapsed", "s", "time since the input turned on (0 when off)"}};
    t.create = [](const Component& c) { return std::make_unique<OnDelayTimer>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_, "inputs.in", ref_);
    b.roots(2);
    b.channel("out", "1");
    b.channel("elapsed", "s");
    b.publish("out", [this](const Eval&) { return out_ ? 1.0 : 0.0; }, true);
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override {
    g[0] = in_(e) - 0.5;
    g[1] = running_ && !out_ ? e.t - (tStart_ + delay_) : 1.0;
  }
  bool update(const Eval& e) override {
    // update() runs repeatedly at one event: remember the input state before it.
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      before_ = running_;
    }
    // A root can land exactly on 0.5: that is a crossing away from the state before.
    const double v = in_(e);
    const bool in = v > 0.5 || (v == 0.5 && !e.initializing && !before_);
    bool changed = false;
    if (in && !running_) {
      running_ = true;
      tStart_ = e.t;
      changed = true;
    } else if (!in && running_) {
      running_ = false;
      changed = true;
    }
    // The delay root lands within solver tolerance of the end time.
    const double eps = 1e-9 * std::max(1.0, e.t);
    const bool out = running_ && e.t >= tStart_ + delay_ - eps;
    if (out != out_) {
      out_ = out;
      changed = true;
    }
    return changed;
  }
  bool discrete(DiscreteState& s) override {
    s(running_, tStart_, out_, before_, tEvent_);
    return true;
  }
  void output(const Eval& e, double* ch) override {
    ch[0] = out_ ? 1.0 : 0.0;
    ch[1] = running_ ? e.t - tStart_ : 0.0;
  }

 private:
  double delay_;
  std::string ref_;
  SignalInput in_;
  double tStart_ = 0.0;
  bool running_ = false, out_ = false, before_ = false;
  double tEvent_ = -1e300;
};
PM_REGISTER(OnDelayTimer)

}  // namespace pm
