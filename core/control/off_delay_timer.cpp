// Off-delay timer (TOF, IEC 61131-3): the output goes on at once when the
// input turns on and goes off `delay` after the input turned off, unless the
// input comes back before (which cancels the delay). The input is on above
// 0.5. Roots: the input crossing 0.5 and the end of a running delay.
// (The on-delay counterpart is on_delay_timer.cpp.)
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

namespace pm {

namespace {

class OffDelayTimer : public Element {
 public:
  explicit OffDelayTimer(const Component& c) : Element(c.id), ref_(signal::inputRef(c, "in")) {
    delay_ = Params(c)("delay");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "off_delay_timer";
    t.category = "Signals";
    t.symbol = "off_delay_timer";
    t.description = "Off-delay timer: out turns on with `in` and off `delay` after `in` turned off";
    t.params = {{"delay", "s", 1.0, 0.0, 1e9, false, false, "switch-off delay"}};
    t.inputs = {{"in", "signal that drives the timer (on above 0.5)", true}};
    t.channels = {{"out", "1", "timer output"},
                  {"elapsed", "s", "time since the input turned off (0 when not timing)"}};
    t.create = [](const Component& c) { return std::make_unique<OffDelayTimer>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_.in, "inputs.in", ref_);
    b.roots(2);
    b.channel("out", "1");
    b.channel("elapsed", "s");
    b.publish("out", [this](const Eval&) { return out_ ? 1.0 : 0.0; }, true);
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override {
    g[0] = in_.root(e);
    g[1] = timing_ ? e.t - (tOff_ + delay_) : 1.0;
  }
  bool update(const Eval& e) override {
    bool changed = in_.update(e);
    if (in_.on) {
      timing_ = false;
      if (!out_) out_ = changed = true;
      return changed;
    }
    if (out_ && !timing_) {  // the input has just turned off: start the delay
      timing_ = true;
      tOff_ = e.t;
      changed = true;
    }
    if (timing_ && e.t >= tOff_ + delay_ - signal::timeEps(tOff_ + delay_)) {
      timing_ = false;
      out_ = false;
      changed = true;
    }
    return changed;
  }
  bool discrete(DiscreteState& s) override {
    s(in_, timing_, tOff_, out_);
    return true;
  }
  void output(const Eval& e, double* ch) override {
    ch[0] = out_ ? 1.0 : 0.0;
    ch[1] = timing_ ? e.t - tOff_ : 0.0;
  }

 private:
  std::string ref_;
  signal::LogicInput in_;
  double delay_;
  double tOff_ = 0.0;
  bool timing_ = false, out_ = false;
};

}  // namespace

PM_REGISTER(OffDelayTimer)

}  // namespace pm
