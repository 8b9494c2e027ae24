// Integrator: out = y0 + gain * integral of in, optionally limited to
// [lower, upper] and reset by a logic input.
// - Limits: a limited integrator (not a clamp of the output): at a limit the
//   output stays there while gain * in pushes outward and leaves it as soon
//   as gain * in turns back, with no wind-up.
// - reset: while the `reset` input is on (> 0.5) the output is held at y0; it
//   integrates from y0 again when reset goes off.
// Continuous (sample_time = 0): one differential state x with dx/dt = gain in
// while integrating and dx/dt = 0 while at a limit or in reset. The output is
// base + (x - x_ref), where base and x_ref are discrete values re-anchored at
// events (a reset sets base = y0, leaving a limit sets base = the limit): an
// element cannot change a differential state at an event, and needs not.
// Limits, the sign of gain * in at a limit and the reset level are root
// functions.
// Sampled (sample_time = Ts > 0): forward Euler with the held input,
// y_k = clamp(y_k-1 + Ts gain in_k-1), so the output never depends on the
// input of the same instant (no algebraic loop through a sampled integrator).
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <algorithm>
#include <stdexcept>

namespace pm {

namespace {

class Integrator : public Element {
 public:
  explicit Integrator(const Component& c)
      : Element(c.id), ref_(signal::inputRef(c, "in")), resetRef_(signal::inputRef(c, "reset")) {
    Params P(c);
    k_ = P("gain");
    lo_ = P("lower");
    hi_ = P("upper");
    if (!(lo_ <= hi_)) throw std::runtime_error("params.lower: must not exceed upper");
    y0_ = std::clamp(P("y0"), lo_, hi_);
    clock_ = signal::SampleClock(P("sample_time"));
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "integrator";
    t.category = "Signal dynamics";
    t.symbol = "integrator";
    t.description =
        "Integrator: out = y0 + gain * integral(in), limited to [lower, upper], held at y0 while reset is on";
    t.params = {{"gain", "1/s", 1.0, -1e300, 1e300, false, false, "integration gain"},
                {"y0", "1", 0.0, -1e300, 1e300, false, false, "initial output and value after a reset"},
                {"lower", "1", -1e300, -1e300, 1e300, false, false, "lower limit of the output (-1e300: none)"},
                {"upper", "1", 1e300, -1e300, 1e300, false, false, "upper limit of the output (1e300: none)"},
                {"sample_time", "s", 0.0, 0.0, 1e6, false, false,
                 "0: continuous; > 0: forward Euler at k sample_time, held between"}};
    t.inputs = {{"in", "signal to integrate", true},
                {"reset", "logic signal: while on (> 0.5) the output is held at y0", false}};
    t.channels = {{"out", "1", "integral"}, {"mode", "1", "0 integrating, +1 at upper, -1 at lower limit, 2 reset"}};
    t.create = [](const Component& c) { return std::make_unique<Integrator>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_, "inputs.in", ref_);
    b.input(reset_.in, "inputs.reset", resetRef_);
    if (!clock_.sampled())
      slot_ = b.state("x", "1", StateKind::Differential, 0.0, signal::kStateAtol,
                      "dx/dt - gain in (0 at a limit or in reset)   [integrator, out = base + x - x_ref]");
    b.roots(4);
    b.channel("out", "1");
    b.channel("mode", "1");
    b.publish("out", [this](const Eval& e) { return value(e); });
  }
  void evaluate(Eval& e) override {
    if (slot_ >= 0) e.res[slot_] = e.yp[slot_] - (mode_ == Mode::Free ? k_ * in_(e) : 0.0);
  }
  double nextTimeEvent() const override { return clock_.next(); }
  void roots(const Eval& e, double* g) override {
    g[0] = reset_.root(e);
    g[1] = clock_.root(e);
    if (slot_ < 0) {
      g[2] = g[3] = 1.0;
      return;
    }
    switch (mode_) {
      case Mode::Free:
        g[2] = value(e) - lo_;
        g[3] = value(e) - hi_;
        break;
      case Mode::Upper:
      case Mode::Lower:
        g[2] = k_ * in_(e);
        g[3] = 1.0;
        break;
      case Mode::Reset:
        g[2] = g[3] = 1.0;
        break;
    }
  }
  bool update(const Eval& e) override {
    bool changed = reset_.update(e);
    if (slot_ < 0) return updateSampled(e, changed);
    const double x = e.y[slot_];
    auto anchor = [&](Mode m, double base) {
      mode_ = m;
      base_ = base;
      xRef_ = x;
      changed = true;
    };
    if (e.initializing) {
      xRef_ = x;
      base_ = y0_;
    }
    if (reset_.on) {
      if (mode_ != Mode::Reset) anchor(Mode::Reset, y0_);
      return changed;
    }
    if (mode_ == Mode::Reset) anchor(Mode::Free, y0_);
    const double ku = k_ * in_(e), out = value(e);
    if (mode_ == Mode::Free) {
      if (out > hi_ || (out == hi_ && ku > 0.0))
        anchor(Mode::Upper, hi_);
      else if (out < lo_ || (out == lo_ && ku < 0.0))
        anchor(Mode::Lower, lo_);
    } else if ((mode_ == Mode::Upper && ku < 0.0) || (mode_ == Mode::Lower && ku > 0.0)) {
      anchor(Mode::Free, base_);
    }
    return changed;
  }
  bool discrete(DiscreteState& s) override {
    s(reset_, clock_, mode_, base_, xRef_, held_, uHeld_, yBefore_, uBefore_);
    return true;
  }
  void output(const Eval& e, double* ch) override {
    ch[0] = value(e);
    ch[1] = mode_ == Mode::Free ? 0.0 : mode_ == Mode::Upper ? 1.0 : mode_ == Mode::Lower ? -1.0 : 2.0;
  }

 private:
  enum class Mode { Free, Upper, Lower, Reset };
  double value(const Eval& e) const {
    if (slot_ < 0) return held_;
    return mode_ == Mode::Free ? base_ + (e.y[slot_] - xRef_) : base_;
  }
  bool updateSampled(const Eval& e, bool changed) {
    double y = held_;
    if (clock_.tick(e)) {
      if (clock_.fresh()) {
        yBefore_ = held_;
        uBefore_ = uHeld_;
      }
      uHeld_ = in_(e);
      y = e.initializing ? y0_ : std::clamp(yBefore_ + clock_.period() * k_ * uBefore_, lo_, hi_);
    }
    if (reset_.on) y = y0_;
    mode_ = reset_.on ? Mode::Reset : y >= hi_ ? Mode::Upper : y <= lo_ ? Mode::Lower : Mode::Free;
    if (y == held_) return changed;
    held_ = y;
    return true;
  }

  std::string ref_, resetRef_;
  SignalInput in_;
  signal::LogicInput reset_;
  double k_, lo_, hi_, y0_;
  signal::SampleClock clock_;
  int slot_ = -1;
  Mode mode_ = Mode::Free;
  double base_ = 0.0, xRef_ = 0.0;
  double held_ = 0.0, uHeld_ = 0.0, yBefore_ = 0.0, uBefore_ = 0.0;
};

}  // namespace

PM_REGISTER(Integrator)

}  // namespace pm
