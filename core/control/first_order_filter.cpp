// First-order filters, continuous or sampled:
// - first_order_lag:   out = K / (T s + 1) in, out(0) = y0;
// - derivative_filter: out = K s / (T s + 1) in (a derivative whose gain is
//   limited to K/T at high frequency); its lag state starts at the input's
//   initial value, so the output starts at 0.
// Continuous (sample_time = 0): one differential state x with
//   T dx/dt = u - x  (lag: u = K in, out = x; derivative: out = K (in - x)/T).
// Sampled (sample_time = Ts > 0): the lag state is discretised exactly for a
// held input (zero-order hold), x_k = a x_k-1 + (1 - a) u_k-1 with
// a = exp(-Ts/T), so at the instants k Ts it equals the continuous response to
// the sampled (held) input; the output is updated at k Ts and held between.
// The derivative filter's sampled output K (in_k - x_k)/T reads the input at
// the same instant (direct feedthrough).
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <cmath>

namespace pm {

namespace {

class FirstOrderFilter : public Element {
 public:
  FirstOrderFilter(const Component& c, bool derivative)
      : Element(c.id), derivative_(derivative), ref_(signal::inputRef(c, "in")) {
    Params P(c);
    K_ = P("gain");
    T_ = P("T");
    y0_ = derivative ? 0.0 : P("y0");
    clock_ = signal::SampleClock(P("sample_time"));
    a_ = clock_.sampled() ? std::exp(-clock_.period() / T_) : 0.0;
  }
  static ComponentType declare(bool derivative) {
    ComponentType t;
    t.name = derivative ? "derivative_filter" : "first_order_lag";
    t.category = "Signal dynamics";
    t.symbol = t.name;
    t.description = derivative ? "Filtered derivative: out = gain s / (T s + 1) in"
                               : "First-order lag (PT1): out = gain / (T s + 1) in";
    t.params = {{"gain", "1", 1.0, -1e300, 1e300, false, false, derivative ? "derivative gain K" : "static gain K"},
                {"T", "s", derivative ? 0.01 : 0.1, 0.0, 1e6, true, false,
                 derivative ? "filter time constant (the derivative acts below 1/T rad/s)" : "time constant"}};
    if (!derivative) t.params.push_back({"y0", "1", 0.0, -1e300, 1e300, false, false, "initial output"});
    t.params.push_back({"sample_time", "s", 0.0, 0.0, 1e6, false, false,
                        "0: continuous; > 0: updated at k sample_time (exact discretisation), held between"});
    t.inputs = {{"in", "input signal", true}};
    t.channels = {{"out", "1", "filter output"}};
    t.create = [derivative](const Component& c) { return std::make_unique<FirstOrderFilter>(c, derivative); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_, "inputs.in", ref_);
    if (clock_.sampled()) {
      b.roots(1);
    } else {
      slot_ = b.state("x", "1", StateKind::Differential, y0_, signal::kStateAtol,
                      derivative_ ? "dx/dt - (in - in(0) - x) / T   [derivative filter lag, out = K (in - in(0) - x)/T]"
                                  : "dx/dt - (K in - x) / T   [first-order lag, out = x]");
    }
    b.channel("out", "1");
    b.publish("out", [this](const Eval& e) { return value(e); });
  }
  void evaluate(Eval& e) override {
    if (slot_ < 0) return;
    const double x = e.y[slot_];
    const double u = derivative_ ? input(e) - u0_ : K_ * input(e);
    e.res[slot_] = e.yp[slot_] - (u - x) / T_;
  }
  double nextTimeEvent() const override { return clock_.next(); }
  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override { g[0] = clock_.root(e); }
  bool update(const Eval& e) override {
    if (!clock_.sampled()) {
      if (e.initializing && derivative_) u0_ = input(e);  // the continuous derivative starts at 0
      return false;
    }
    if (!clock_.tick(e)) return false;
    if (clock_.fresh()) before_ = now_;
    const double u = input(e);
    Held next;
    if (e.initializing) {
      next.x = derivative_ ? u : y0_;
    } else {
      next.x = a_ * before_.x + (1.0 - a_) * (derivative_ ? before_.u : K_ * before_.u);
    }
    next.u = u;
    next.out = derivative_ ? K_ * (u - next.x) / T_ : next.x;
    const bool changed = next.out != now_.out || next.x != now_.x;
    now_ = next;
    return changed;
  }
  bool discrete(DiscreteState& s) override {
    s(clock_, u0_, before_, now_);
    return true;
  }
  void output(const Eval& e, double* ch) override { ch[0] = value(e); }

 private:
  double input(const Eval& e) {
    signal::LoopGuard g(busy_, id());
    return in_(e);
  }
  double value(const Eval& e) {
    if (clock_.sampled()) return now_.out;
    const double x = e.y[slot_];
    return derivative_ ? K_ * (input(e) - u0_ - x) / T_ : x;
  }
  struct Held {
    double x = 0.0, u = 0.0, out = 0.0;
    void discrete(DiscreteState& s) { s(x, u, out); }
  };
  bool derivative_;
  std::string ref_;
  SignalInput in_;
  double K_, T_, y0_, a_;
  signal::SampleClock clock_;
  int slot_ = -1;
  double u0_ = 0.0;
  Held before_, now_;
  bool busy_ = false;
};

struct FirstOrderLag {
  static ComponentType declare() { return FirstOrderFilter::declare(false); }
};
struct DerivativeFilter {
  static ComponentType declare() { return FirstOrderFilter::declare(true); }
};

}  // namespace

PM_REGISTER(FirstOrderLag)
PM_REGISTER(DerivativeFilter)

}  // namespace pm
