// Comparator with hysteresis (Schmitt trigger): with d = in - ref - threshold
// (ref unconnected: 0), the output switches to out_high when d rises to
// +hysteresis/2 and back to out_low when d falls to -hysteresis/2; in between
// it keeps its state. At the start it is high when d >= +hysteresis/2.
// The active switching point is the one root function (as in
// pressure_switch), so the output changes at the exact crossing.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <limits>

namespace pm {

namespace {

class Comparator : public Element {
 public:
  explicit Comparator(const Component& c)
      : Element(c.id), ref_(signal::inputRef(c, "in")), refRef_(signal::inputRef(c, "ref")) {
    Params P(c);
    threshold_ = P("threshold");
    half_ = 0.5 * P("hysteresis");
    high_ = P("out_high");
    low_ = P("out_low");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "comparator";
    t.category = "Logic";
    t.symbol = "comparator";
    t.description =
        "Comparator with hysteresis: high when in - ref rises to threshold + hysteresis/2, low when it "
        "falls to threshold - hysteresis/2";
    t.params = {{"threshold", "1", 0.0, -1e300, 1e300, false, false, "centre of the switching band (added to ref)"},
                {"hysteresis", "1", 0.0, 0.0, 1e300, false, false, "width of the switching band"},
                {"out_high", "1", 1.0, -1e300, 1e300, false, false, "output when switched on"},
                {"out_low", "1", 0.0, -1e300, 1e300, false, false, "output when switched off"}};
    t.inputs = {{"in", "compared signal", true}, {"ref", "reference signal (unconnected: 0)", false}};
    t.channels = {{"out", "1", "out_high or out_low"}, {"state", "1", "1 when switched on"}};
    t.create = [](const Component& c) { return std::make_unique<Comparator>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_, "inputs.in", ref_);
    b.input(refIn_, "inputs.ref", refRef_);
    b.roots(1);
    b.channel("out", "1");
    b.channel("state", "1");
    b.publish("out", [this](const Eval&) { return on_ ? high_ : low_; }, true);
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override { g[0] = d(e) - (on_ ? -half_ : half_); }
  bool update(const Eval& e) override {
    if (e.t != tEvent_) {
      tEvent_ = e.t;
      before_ = on_;
    }
    const double v = d(e);
    // A root can land exactly on the switching point: a crossing away from the state before.
    const bool on = before_ ? !(v < -half_ || (v == -half_ && !e.initializing)) : v >= half_;
    if (on == on_) return false;
    on_ = on;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(on_, before_, tEvent_);
    return true;
  }
  void output(const Eval&, double* ch) override {
    ch[0] = on_ ? high_ : low_;
    ch[1] = on_ ? 1.0 : 0.0;
  }

 private:
  double d(const Eval& e) const { return in_(e) - refIn_(e) - threshold_; }
  std::string ref_, refRef_;
  SignalInput in_, refIn_;
  double threshold_, half_, high_, low_;
  bool on_ = false, before_ = false;
  double tEvent_ = -std::numeric_limits<double>::infinity();
};

}  // namespace

PM_REGISTER(Comparator)

}  // namespace pm
