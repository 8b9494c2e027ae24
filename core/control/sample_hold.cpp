// Sample-and-hold: out holds the input's value taken at the last sample
// instant: every k sample_time (sample_time > 0) and/or at each rising edge
// of `trigger` (above 0.5). The input is also taken at t = 0. Between
// samples the output is constant. Sample instants are root functions, so the
// value is taken exactly at k sample_time (to IDA's root tolerance).
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <stdexcept>

namespace pm {

namespace {

class SampleHold : public Element {
 public:
  explicit SampleHold(const Component& c)
      : Element(c.id), ref_(signal::inputRef(c, "in")), triggerRef_(signal::inputRef(c, "trigger")) {
    clock_ = signal::SampleClock(Params(c)("sample_time"));
    if (!clock_.sampled() && triggerRef_.empty())
      throw std::runtime_error("params.sample_time: set a sample time > 0 or connect the trigger input");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "sample_hold";
    t.category = "Signal dynamics";
    t.symbol = "sample_hold";
    t.description = "Sample-and-hold: out = in taken every sample_time and/or at rising edges of trigger";
    t.params = {{"sample_time", "s", 0.01, 0.0, 1e6, false, false, "sampling period (0: only on trigger edges)"}};
    t.inputs = {{"in", "sampled signal", true}, {"trigger", "a rising edge (above 0.5) takes a sample", false}};
    t.channels = {{"out", "1", "held value"}};
    t.create = [](const Component& c) { return std::make_unique<SampleHold>(c); };
    t.held_outputs = [](const Component&) { return std::vector<std::string>{"out"}; };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_, "inputs.in", ref_);
    b.input(trigger_.in, "inputs.trigger", triggerRef_);
    b.roots(2);
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return held_; }, true);
  }
  void evaluate(Eval&) override {}
  double nextTimeEvent() const override { return clock_.next(); }
  void roots(const Eval& e, double* g) override {
    g[0] = clock_.root(e);
    g[1] = trigger_.root(e);
  }
  bool update(const Eval& e) override {
    bool changed = trigger_.update(e);
    const bool tick = clock_.tick(e);
    if (!(tick || e.initializing || (trigger_.rose() && trigger_.in.connected()))) return changed;
    const double v = in_(e);  // every pass of the event: the input's settled value wins
    if (v == held_) return changed;
    held_ = v;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(trigger_, clock_, held_);
    return true;
  }
  void output(const Eval&, double* ch) override { ch[0] = held_; }

 private:
  std::string ref_, triggerRef_;
  SignalInput in_;
  signal::LogicInput trigger_;
  signal::SampleClock clock_;
  double held_ = 0.0;
};

}  // namespace

PM_REGISTER(SampleHold)

}  // namespace pm
