// PID controller with derivative filter, output limits and anti-windup.
//
//   e   = setpoint - measurement            (an unconnected input reads 0)
//   u   = Kp e + I + D + feedforward         (unlimited output)
//   out = clamp(u, lower, upper)
//   D   = Kd s / (Tf s + 1) e                (derivative of e through a lag Tf;
//                                             D = 0 at t = 0)
//   dI/dt = Ki e + AW
// Anti-windup (parameter anti_windup):
//   0 none:              AW = 0; I keeps growing while the output is limited.
//   1 back-calculation:  AW = (out - u) / Tt (Astrom & Hagglund): while
//                        limited, I settles where u - out = Ki Tt e, i.e.
//                        I = limit + (Ki Tt - Kp) e - D - feedforward; Tt =
//                        T_track, or Ti = Kp/Ki when T_track = 0 (1 s when
//                        Kp or Ki is 0).
//   2 clamping:          conditional integration: I is frozen while the output
//                        is limited and Ki e pushes further into the limit.
// Continuous (sample_time = 0): differential states I (if Ki != 0) and the
// derivative lag z (if Kd != 0). The output limits are root functions with the
// region as a discrete state (the unlimited branch extended past a limit until
// the event), and so is the sign of Ki e while clamped.
// Sampled (sample_time = Ts > 0): at k Ts, with the lag discretised exactly
// for a held input and forward Euler for I:
//   z_k = a z_k-1 + (1 - a) e_k-1,  a = exp(-Ts/Tf),   D_k = Kd (e_k - z_k)/Tf
//   I_k = I_k-1 + Ts (Ki e_k-1 + AW_k-1)                 (clamping: + 0 if frozen)
//   u_k = Kp e_k + I_k + D_k + ff_k,  out_k = clamp(u_k), held until (k+1) Ts.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pm {

namespace {

class PidController : public Element {
 public:
  explicit PidController(const Component& c)
      : Element(c.id),
        spRef_(signal::inputRef(c, "setpoint")),
        pvRef_(signal::inputRef(c, "measurement")),
        ffRef_(signal::inputRef(c, "feedforward")) {
    if (spRef_.empty() && pvRef_.empty())
      throw std::runtime_error("inputs.measurement: connect the measurement or the setpoint (or both)");
    Params P(c);
    Kp_ = P("Kp");
    Ki_ = P("Ki");
    Kd_ = P("Kd");
    Tf_ = P("Tf");
    lo_ = P("lower");
    hi_ = P("upper");
    if (!(lo_ <= hi_)) throw std::runtime_error("params.lower: must not exceed upper");
    aw_ = static_cast<int>(std::lround(P("anti_windup")));
    Tt_ = P("T_track");
    if (Tt_ == 0.0) Tt_ = (Kp_ != 0.0 && Ki_ != 0.0) ? std::abs(Kp_ / Ki_) : 1.0;
    I0_ = P("I0");
    clock_ = signal::SampleClock(P("sample_time"));
    a_ = std::exp(-clock_.period() / Tf_);
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "pid";
    t.category = "Controllers";
    t.symbol = "pid";
    t.description =
        "PID controller: out = clamp(Kp e + I + Kd s/(Tf s + 1) e + feedforward), e = setpoint - "
        "measurement, anti-windup by back-calculation or clamping";
    t.params = {
        {"Kp", "1", 1.0, -1e300, 1e300, false, false, "proportional gain"},
        {"Ki", "1/s", 0.0, -1e300, 1e300, false, false, "integral gain (Kp/Ti)"},
        {"Kd", "s", 0.0, -1e300, 1e300, false, false, "derivative gain (Kp Td)"},
        {"Tf", "s", 0.01, 0.0, 1e6, true, false, "derivative filter time constant"},
        {"lower", "1", -1e300, -1e300, 1e300, false, false, "lower output limit (-1e300: none)"},
        {"upper", "1", 1e300, -1e300, 1e300, false, false, "upper output limit (1e300: none)"},
        {"anti_windup", "1", 1.0, 0.0, 2.0, false, false,
         "0: none; 1: back-calculation with T_track; 2: clamping (conditional integration)"},
        {"T_track", "s", 0.0, 0.0, 1e6, false, false, "back-calculation tracking time constant (0: Ti = Kp/Ki)"},
        {"I0", "1", 0.0, -1e300, 1e300, false, false, "initial value of the integral part"},
        {"sample_time", "s", 0.0, 0.0, 1e6, false, false,
         "0: continuous; > 0: discrete PID updated at k sample_time, output held between"}};
    t.inputs = {{"setpoint", "set-point signal (unconnected: 0)", false},
                {"measurement", "measured (controlled) signal (unconnected: 0)", false},
                {"feedforward", "added to the output before the limits", false}};
    t.channels = {{"out", "1", "limited controller output"},
                  {"u", "1", "output before the limits"},
                  {"e", "1", "control error setpoint - measurement"},
                  {"p", "1", "proportional part"},
                  {"i", "1", "integral part"},
                  {"d", "1", "derivative part"},
                  {"region", "1", "-1 at the lower limit, 0 between, +1 at the upper"}};
    t.create = [](const Component& c) { return std::make_unique<PidController>(c); };
    t.held_outputs = [](const Component& c) {
      return Params(c)("sample_time") > 0.0 ? std::vector<std::string>{"out"} : std::vector<std::string>{};
    };
    return t;
  }

  void setup(SystemBuilder& b) override {
    b.input(sp_, "inputs.setpoint", spRef_);
    b.input(pv_, "inputs.measurement", pvRef_);
    b.input(ff_, "inputs.feedforward", ffRef_);
    if (!clock_.sampled()) {
      if (Ki_ != 0.0)
        iSlot_ = b.state("I", "1", StateKind::Differential, I0_, signal::kStateAtol,
                         "dI/dt - (Ki e + anti-windup term)   [PID integral part]");
      if (Kd_ != 0.0)
        zSlot_ = b.state("z", "1", StateKind::Differential, 0.0, signal::kStateAtol,
                         "dz/dt - (e - e(0) - z) / Tf   [PID derivative filter, D = Kd (e - e(0) - z)/Tf]");
    }
    b.roots(4);
    for (const char* ch : {"out", "u", "e", "p", "i", "d", "region"}) b.channel(ch, "1");
    b.publish("out", [this](const Eval& e) { return value(e).out; });
  }

  void evaluate(Eval& e) override {
    if (clock_.sampled() || (iSlot_ < 0 && zSlot_ < 0)) return;
    const Parts v = value(e);
    if (iSlot_ >= 0) e.res[iSlot_] = e.yp[iSlot_] - (frozen_ ? 0.0 : Ki_ * v.e) - antiWindup(v);
    if (zSlot_ >= 0) e.res[zSlot_] = e.yp[zSlot_] - (v.e - e0_ - e.y[zSlot_]) / Tf_;
  }

  double nextTimeEvent() const override { return clock_.next(); }
  void roots(const Eval& e, double* g) override {
    g[3] = clock_.root(e);
    if (clock_.sampled()) {
      g[0] = g[1] = g[2] = 1.0;
      return;
    }
    const Parts v = value(e);
    signal::Band::roots(v.u, lo_, hi_, g);
    g[2] = aw_ == 2 && band_.region != 0 ? Ki_ * v.e : 1.0;
  }

  bool update(const Eval& e) override {
    if (clock_.sampled()) return updateSampled(e);
    if (e.initializing) e0_ = error(e);
    const Parts v = value(e);
    bool changed = band_.update(e, v.u, lo_, hi_);
    const bool frozen = aw_ == 2 && ((band_.region > 0 && Ki_ * v.e > 0.0) || (band_.region < 0 && Ki_ * v.e < 0.0));
    if (frozen != frozen_) {
      frozen_ = frozen;
      changed = true;
    }
    return changed;
  }

  bool discrete(DiscreteState& s) override {
    s(clock_, e0_, band_, frozen_, held_, before_, z_, zBefore_);
    return true;
  }

  void output(const Eval& e, double* ch) override {
    const Parts v = value(e);
    ch[0] = v.out;
    ch[1] = v.u;
    ch[2] = v.e;
    ch[3] = v.p;
    ch[4] = v.i;
    ch[5] = v.d;
    ch[6] = clock_.sampled() ? held_.region : band_.region;
  }

 private:
  struct Parts {
    double e = 0, p = 0, i = 0, d = 0, u = 0, out = 0;
    int region = 0;
    void discrete(DiscreteState& s) { s(e, p, i, d, u, out, region); }
  };
  double error(const Eval& e) {
    signal::LoopGuard g(busy_, id());
    return sp_(e) - pv_(e);
  }
  double feedforward(const Eval& e) {
    signal::LoopGuard g(busy_, id());
    return ff_(e);
  }
  double limited(double u, int region) const { return region > 0 ? hi_ : region < 0 ? lo_ : u; }
  double antiWindup(const Parts& v) const { return aw_ == 1 ? (v.out - v.u) / Tt_ : 0.0; }

  Parts value(const Eval& e) {
    if (clock_.sampled()) return held_;
    Parts v;
    v.e = error(e);
    v.p = Kp_ * v.e;
    v.i = iSlot_ >= 0 ? e.y[iSlot_] : I0_;
    v.d = zSlot_ >= 0 ? Kd_ * (v.e - e0_ - e.y[zSlot_]) / Tf_ : 0.0;
    v.u = v.p + v.i + v.d + feedforward(e);
    v.region = band_.region;
    v.out = limited(v.u, band_.region);
    return v;
  }

  bool updateSampled(const Eval& e) {
    if (!clock_.tick(e)) return false;
    if (clock_.fresh()) {
      before_ = held_;
      zBefore_ = z_;
    }
    Parts v;
    v.e = error(e);
    if (e.initializing) {
      z_ = v.e;
      v.i = I0_;
    } else {
      z_ = a_ * zBefore_ + (1.0 - a_) * before_.e;
      const bool frozen =
          aw_ == 2 && ((before_.region > 0 && Ki_ * before_.e > 0.0) || (before_.region < 0 && Ki_ * before_.e < 0.0));
      v.i = before_.i + clock_.period() * ((frozen ? 0.0 : Ki_ * before_.e) + antiWindup(before_));
    }
    v.p = Kp_ * v.e;
    v.d = Kd_ * (v.e - z_) / Tf_;
    v.u = v.p + v.i + v.d + feedforward(e);
    v.region = v.u > hi_ ? 1 : v.u < lo_ ? -1 : 0;
    v.out = limited(v.u, v.region);
    const bool changed = v.out != held_.out || v.u != held_.u || v.i != held_.i;
    held_ = v;
    return changed;
  }

  std::string spRef_, pvRef_, ffRef_;
  SignalInput sp_, pv_, ff_;
  double Kp_, Ki_, Kd_, Tf_, lo_, hi_, Tt_, I0_, a_;
  int aw_ = 1;
  signal::SampleClock clock_;
  int iSlot_ = -1, zSlot_ = -1;
  double e0_ = 0.0;
  signal::Band band_;
  bool frozen_ = false;
  Parts held_, before_;
  double z_ = 0.0, zBefore_ = 0.0;
  bool busy_ = false;
};

}  // namespace

PM_REGISTER(PidController)

}  // namespace pm
