// Signal sources: functions of time with no input.
// - constant: out = value.
// - step:     out = initial before t_step, final from t_step on.
// - ramp:     out = offset until t_start, then rises with `slope` until
//             t_stop, then holds (t_stop = 1e9: never stops).
// - sine:     out = offset + amplitude sin(2 pi frequency t + phase).
// The switching instants of step and ramp are root functions with a discrete
// state, so IDA stops exactly there and the branch in use stays smooth while
// it integrates (signal_block.h).
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <cmath>
#include <numbers>

namespace pm {

namespace {

ComponentType sourceType(const char* name, const char* description) {
  ComponentType t;
  t.name = name;
  t.category = "Signal sources";
  t.symbol = name;
  t.description = description;
  t.channels = {{"out", "1", "source output"}};
  return t;
}

class ConstantSource : public Element {
 public:
  explicit ConstantSource(const Component& c) : Element(c.id), value_(Params(c)("value")) {}
  static ComponentType declare() {
    ComponentType t = sourceType("constant", "Constant signal: out = value");
    t.params = {{"value", "1", 1.0, -1e300, 1e300, false, false, "output value (in the unit of whatever reads it)"}};
    t.create = [](const Component& c) { return std::make_unique<ConstantSource>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return value_; }, true);
  }
  void evaluate(Eval&) override {}
  void output(const Eval&, double* ch) override { ch[0] = value_; }

 private:
  double value_;
};

class StepSource : public Element {
 public:
  explicit StepSource(const Component& c) : Element(c.id) {
    Params P(c);
    initial_ = P("initial");
    final_ = P("final");
    tStep_ = P("t_step");
  }
  static ComponentType declare() {
    ComponentType t = sourceType("step", "Step: out = initial before t_step, final from t_step on");
    t.params = {{"t_step", "s", 0.0, 0.0, 1e9, false, false, "time of the step"},
                {"initial", "1", 0.0, -1e300, 1e300, false, false, "value before the step"},
                {"final", "1", 1.0, -1e300, 1e300, false, false, "value from t_step on"}};
    t.create = [](const Component& c) { return std::make_unique<StepSource>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.roots(1);
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return value(); }, true);
  }
  void evaluate(Eval&) override {}
  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override { g[0] = e.t - tStep_; }
  bool update(const Eval& e) override {
    const bool after = e.t >= tStep_ - signal::timeEps(tStep_);
    if (after == after_) return false;
    after_ = after;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(after_);
    return true;
  }
  void output(const Eval&, double* ch) override { ch[0] = value(); }

 private:
  double value() const { return after_ ? final_ : initial_; }
  double initial_, final_, tStep_;
  bool after_ = false;
};

class RampSource : public Element {
 public:
  explicit RampSource(const Component& c) : Element(c.id) {
    Params P(c);
    offset_ = P("offset");
    slope_ = P("slope");
    tStart_ = P("t_start");
    tStop_ = P("t_stop");
    if (tStop_ < tStart_) throw std::runtime_error("params.t_stop: must not lie before t_start");
  }
  static ComponentType declare() {
    ComponentType t = sourceType("ramp", "Ramp: offset until t_start, rising with `slope` until t_stop, then held");
    t.params = {
        {"t_start", "s", 0.0, 0.0, 1e9, false, false, "start of the ramp"},
        {"slope", "1/s", 1.0, -1e300, 1e300, false, false, "rate of change while ramping"},
        {"offset", "1", 0.0, -1e300, 1e300, false, false, "value before t_start"},
        {"t_stop", "s", 1e9, 0.0, 1e9, false, false, "end of the ramp; the value is held after it (1e9: never)"}};
    t.create = [](const Component& c) { return std::make_unique<RampSource>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.roots(2);
    b.channel("out", "1");
    b.publish("out", [this](const Eval& e) { return value(e.t); }, true);
  }
  void evaluate(Eval&) override {}
  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    g[0] = e.t - tStart_;
    g[1] = e.t - tStop_;
  }
  bool update(const Eval& e) override {
    const int phase = e.t < tStart_ - signal::timeEps(tStart_) ? 0 : e.t < tStop_ - signal::timeEps(tStop_) ? 1 : 2;
    if (phase == phase_) return false;
    phase_ = phase;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(phase_);
    return true;
  }
  void output(const Eval& e, double* ch) override { ch[0] = value(e.t); }

 private:
  // Each phase is extended past its end until the event switches it.
  double value(double t) const {
    switch (phase_) {
      case 0:
        return offset_;
      case 1:
        return offset_ + slope_ * (t - tStart_);
      default:
        return offset_ + slope_ * (tStop_ - tStart_);
    }
  }
  double offset_, slope_, tStart_, tStop_;
  int phase_ = 0;
};

class SineSource : public Element {
 public:
  explicit SineSource(const Component& c) : Element(c.id) {
    Params P(c);
    amplitude_ = P("amplitude");
    omega_ = 2.0 * std::numbers::pi * P("frequency");
    phase_ = P("phase");
    offset_ = P("offset");
  }
  static ComponentType declare() {
    ComponentType t = sourceType("sine", "Sine wave: out = offset + amplitude sin(2 pi frequency t + phase)");
    t.params = {{"amplitude", "1", 1.0, -1e300, 1e300, false, false, "amplitude"},
                {"frequency", "Hz", 1.0, 0.0, 1e6, false, false, "frequency"},
                {"phase", "rad", 0.0, -1e3, 1e3, false, false, "phase at t = 0"},
                {"offset", "1", 0.0, -1e300, 1e300, false, false, "mean value"}};
    t.create = [](const Component& c) { return std::make_unique<SineSource>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.channel("out", "1");
    b.publish("out", [this](const Eval& e) { return value(e.t); }, true);
  }
  void evaluate(Eval&) override {}
  void output(const Eval& e, double* ch) override { ch[0] = value(e.t); }

 private:
  double value(double t) const { return offset_ + amplitude_ * std::sin(omega_ * t + phase_); }
  double amplitude_, omega_, phase_, offset_;
};

}  // namespace

PM_REGISTER(ConstantSource)
PM_REGISTER(StepSource)
PM_REGISTER(RampSource)
PM_REGISTER(SineSource)

}  // namespace pm
