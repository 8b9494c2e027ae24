// Band nonlinearities on a signal, both piecewise linear with corners at
// `lower` and `upper`:
// - limiter (saturation): out = clamp(in, lower, upper);
// - dead_zone:            out = 0 inside [lower, upper], in - upper above it,
//                         in - lower below it (a valve's overlap, a
//                         controller's insensitivity band).
// The corners are root functions and the branch a discrete state (Band in
// signal_block.h): while IDA integrates, the branch in use is extended past
// its corner until the event switches it, so no residual has a kink.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <stdexcept>

namespace pm {

namespace {

class BandBlock : public Element {
 public:
  BandBlock(const Component& c, bool deadZone) : Element(c.id), deadZone_(deadZone), ref_(signal::inputRef(c, "in")) {
    Params P(c);
    lo_ = P("lower");
    hi_ = P("upper");
    if (!(lo_ <= hi_)) throw std::runtime_error("params.lower: must not exceed upper");
  }
  static ComponentType declare(bool deadZone) {
    ComponentType t;
    t.name = deadZone ? "dead_zone" : "limiter";
    t.category = "Signal math";
    t.symbol = t.name;
    if (deadZone) {
      t.description = "Dead zone: out = 0 within [lower, upper], else the distance beyond the band edge";
      t.params = {{"lower", "1", -0.1, -1e300, 1e300, false, false, "lower edge of the dead band"},
                  {"upper", "1", 0.1, -1e300, 1e300, false, false, "upper edge of the dead band"}};
      t.channels = {{"out", "1", "in - upper above the band, in - lower below it, else 0"}};
    } else {
      t.description = "Limiter (saturation): out = in clamped to [lower, upper]";
      t.params = {{"lower", "1", -1.0, -1e300, 1e300, false, false, "lower limit"},
                  {"upper", "1", 1.0, -1e300, 1e300, false, false, "upper limit"}};
      t.channels = {{"out", "1", "clamped input"},
                    {"region", "1", "-1 at the lower limit, 0 between, +1 at the upper"}};
    }
    t.inputs = {{"in", "input signal", true}};
    t.create = [deadZone](const Component& c) { return std::make_unique<BandBlock>(c, deadZone); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.input(in_, "inputs.in", ref_);
    b.roots(2);
    b.channel("out", "1");
    if (!deadZone_) b.channel("region", "1");
    b.publish("out", [this](const Eval& e) { return value(e); });
  }
  void evaluate(Eval&) override {}
  void roots(const Eval& e, double* g) override { signal::Band::roots(read(e), lo_, hi_, g); }
  bool update(const Eval& e) override { return band_.update(e, read(e), lo_, hi_); }
  bool discrete(DiscreteState& s) override {
    s(band_);
    return true;
  }
  void output(const Eval& e, double* ch) override {
    ch[0] = value(e);
    if (!deadZone_) ch[1] = band_.region;
  }

 private:
  double read(const Eval& e) {
    signal::LoopGuard g(busy_, id());
    return in_(e);
  }
  double value(const Eval& e) {
    const double u = read(e);
    if (deadZone_) return band_.region > 0 ? u - hi_ : band_.region < 0 ? u - lo_ : 0.0;
    return band_.region > 0 ? hi_ : band_.region < 0 ? lo_ : u;
  }
  bool deadZone_;
  std::string ref_;
  SignalInput in_;
  double lo_, hi_;
  signal::Band band_;
  bool busy_ = false;
};

struct Limiter {
  static ComponentType declare() { return BandBlock::declare(false); }
};
struct DeadZone {
  static ComponentType declare() { return BandBlock::declare(true); }
};

}  // namespace

PM_REGISTER(Limiter)
PM_REGISTER(DeadZone)

}  // namespace pm
