// Servo-pneumatic position controller (seed 002 §4): a cascade of an outer
// position loop and an inner velocity loop, a feedforward from the valve's
// steady-state speed curve, and three gain sets switched by the motion state.
// Output `u` drives a proportional valve (valve_5_3_proportional, -1..1).
//
// Inputs: setpoint r, position x, velocity v (e.g. "cyl.x", "cyl.v"),
// optional commanded acceleration a_cmd (e.g. the second derivative of a
// smooth set-point trajectory). With the gain set g of the motion state:
//   outer:  e_x = r - x,  v_cmd = clamp(Kp_x,g e_x + I_x + Kd_x,g (e_x - z_x)/Tf, -v_max, v_max)
//           dI_x/dt = Ki_x,g e_x,  dz_x/dt = (e_x - z_x)/Tf  (filtered derivative as in pid)
//   feedforward: u_ff = w * S^-1(v_cmd),  w = min(1, |a_cmd| / a_ff)
//           S^-1 is the inverse of the table of steady-state piston speed
//           versus valve opening (data.opening, data.speed): opening over
//           speed, read as data.interpolation says (model/table.h; default
//           linear, as it always was: the inverse stays monotone), clamped at the
//           table ends. w = 1 when a_cmd is not connected.
//           So the feedforward acts while the commanded speed changes and
//           fades to 0 when it is constant (seed 002 §4).
//   inner:  e_v = v_cmd - v
//           u_c = Kp_v,g e_v + I_v + Kd_v,g (e_v - z_v)/Tf + u_ff + u_fr - u_dp
//           (Kd_v feeds back the acceleration: it damps the air-spring mode)
//   friction feed-forward: u_fr = (u_friction + [m = 0] u_static) clamp(v_cmd / v_friction_band, -1, 1):
//           the opening the cylinder's friction costs, added in the direction
//           of the commanded motion (a ramp over the band: no jump at v_cmd = 0);
//           u_static on top while the motion state is standstill (static
//           friction exceeds Coulomb's until the piston breaks away).
//           In a steady ramp it removes u_fr / (Kp_x (Kp_v + dS^-1/dv)) of lag.
//   pressure-difference feedback: dp = pA - area_ratio pB (the piston force
//           over A_A, seed 002 eq. 1 with alpha = A_B/A_A), through a washout
//           (high-pass) of time constant T_dp: u_dp = K_dp (dp - z_p),
//           dz_p/dt = (dp - z_p)/T_dp (T_dp = 0: u_dp = K_dp dp). The force
//           is m a plus friction and load, so K_dp adds damping to the air
//           spring from a measured pressure instead of a differentiated
//           velocity; the washout drops the static force (load, friction,
//           pressure level), which would otherwise shift where the axis stops.
//   overlap compensation (SPC-style dead-band inverse):
//           u_o = u_c + u_overlap clamp(u_c / u_overlap_band, -1, 1)
//           so any loop output beyond the band moves the spool past the
//           valve's overlap; continuous through 0 (no chatter).
//   u = clamp(u_o, -1, 1), or 0 while holding (below).
// Position band (hold): at standstill (motion state 0) with |e_x| <= x_hold
// the valve is centred (u = 0, closed by its overlap) and the integrators
// hold; released when |e_x| >= x_release. Against static friction a loop
// that keeps correcting a sub-band error only breaks away and overshoots
// (hunting); centred, the axis rests where it stopped.
// Anti-windup: conditional integration: I_x frozen while v_cmd is limited
// and Ki_x e_x pushes further into the limit; I_v likewise for u.
// Sampled (sample_time = Ts > 0): the law at k Ts, output held; the lags
// discretised exactly for held inputs, the integrals by forward Euler:
//   z_k = a z_k-1 + (1-a) e_k-1, a = exp(-Ts/Tf); I_k = I_k-1 + Ts Ki e_k-1,
// limits, freezing and the band decided at the sample; initial I = 0, z = e
// at the first sample (no derivative kick).
// Continuous (sample_time = 0): I_x, z_x, I_v, z_v, q_p = K_dp (z_p - dp(0)) are differential states
// of the DAE (those with a non-zero gain in some set; z = e(0) + state), and
// every switch (v_cmd and u limits, the overlap and friction ramps' edges, the sign of the
// integrand while limited, the band edges) is a root function with the
// branch as a discrete state, as in pid.
// Motion state m (gain set): +1 extending (set "ext"), -1 retracting ("ret"),
// 0 at standstill ("stop"); hysteresis on the measured velocity:
//   m = 0 -> +1 when v >= v_on,  0 -> -1 when v <= -v_on,
//   m = +1 -> 0 when v <= v_off, m = -1 -> 0 when v >= -v_off (0 <= v_off < v_on),
// crossings of +-v_on, +-v_off are root functions and m a discrete state
// changed in update(): the switch happens at the crossing instant; sampled,
// the new gains apply from the next sample on.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace pm {

namespace {

using nlohmann::json;

std::vector<std::string> checkTable(const json& d) {
  if (d.is_null()) return {};
  if (!d.is_object()) return {"expected an object {\"opening\": [...], \"speed\": [...]}"};
  std::vector<std::string> err;
  for (auto it = d.begin(); it != d.end(); ++it)
    if (it.key() != "opening" && it.key() != "speed" && it.key() != "interpolation")
      err.push_back(it.key() + ": unknown field");
  if (const std::string e = checkInterpolationField(d); !e.empty()) err.push_back(e);
  for (const char* k : {"opening", "speed"})
    if (!d.contains(k) || !d[k].is_array() || d[k].size() < 2) {
      err.push_back(std::string(k) + ": expected an array of at least 2 numbers");
      return err;
    }
  if (d["opening"].size() != d["speed"].size()) err.push_back("speed: expected as many values as opening");
  for (const char* k : {"opening", "speed"})
    for (size_t i = 0; i < d[k].size(); ++i) {
      if (!d[k][i].is_number()) {
        err.push_back(std::string(k) + "[" + std::to_string(i) + "]: expected a number");
      } else if (i > 0 && d[k][i - 1].is_number() && !(d[k][i].get<double>() > d[k][i - 1].get<double>())) {
        err.push_back(std::string(k) + "[" + std::to_string(i) + "]: values must increase strictly");
      }
    }
  return err;
}

struct Gains {
  double Kp_x, Ki_x, Kd_x, Kp_v, Ki_v, Kd_v;
};

int sgn(double v) { return v > 0.0 ? 1 : v < 0.0 ? -1 : 0; }

class ServoPositionController : public Element {
 public:
  explicit ServoPositionController(const Component& c)
      : Element(c.id),
        rRef_(signal::inputRef(c, "setpoint")),
        xRef_(signal::inputRef(c, "position")),
        vRef_(signal::inputRef(c, "velocity")),
        aRef_(signal::inputRef(c, "acceleration")),
        pARef_(signal::inputRef(c, "pA")),
        pBRef_(signal::inputRef(c, "pB")) {
    if (xRef_.empty()) throw std::runtime_error("inputs.position: required (e.g. \"cyl.x\")");
    if (vRef_.empty()) throw std::runtime_error("inputs.velocity: required (e.g. \"cyl.v\")");
    Params P(c);
    const char* sets[3] = {"ret", "stop", "ext"};
    for (int s = 0; s < 3; ++s) {
      const std::string n = sets[s];
      gains_[s] = {P("Kp_x_" + n), P("Ki_x_" + n), P("Kd_x_" + n), P("Kp_v_" + n), P("Ki_v_" + n), P("Kd_v_" + n)};
    }
    vMax_ = P("v_max");
    aFf_ = P("a_ff");
    vOn_ = P("v_on");
    vOff_ = P("v_off");
    if (!(vOff_ < vOn_)) throw std::runtime_error("params.v_off: must be smaller than v_on");
    Tf_ = P("Tf");
    uOv_ = P("u_overlap");
    ovBand_ = P("u_overlap_band");
    xHold_ = P("x_hold");
    xRelease_ = P("x_release");
    if (xHold_ > 0.0 && !(xRelease_ > xHold_))
      throw std::runtime_error("params.x_release: must be larger than x_hold (" + std::to_string(xHold_) +
                               " m), or the valve would be centred and released at the same error");
    uFr_ = P("u_friction");
    uSt_ = P("u_static");
    frBand_ = P("v_friction_band");
    Kdp_ = P("K_dp");
    Tdp_ = P("T_dp");
    alpha_ = P("area_ratio");
    if (Kdp_ != 0.0 && pARef_.empty())
      throw std::runtime_error("params.K_dp: pressure-difference feedback needs inputs.pA (e.g. \"cyl.pA\") "
                               "and, for a double-acting cylinder, inputs.pB");
    clock_ = signal::SampleClock(P("sample_time"));
    a_ = clock_.sampled() ? std::exp(-clock_.period() / Tf_) : 0.0;
    ap_ = clock_.sampled() && Tdp_ > 0.0 ? std::exp(-clock_.period() / Tdp_) : 0.0;
    const auto err = checkTable(c.data);
    if (!err.empty()) throw std::runtime_error("data." + err.front());
    if (c.data.is_object())
      inverse_ = Table(c.data["speed"].get<std::vector<double>>(), c.data["opening"].get<std::vector<double>>(),
                       interpolationField(c.data, Interpolation::Linear));
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "servo_position_controller";
    t.category = "Controllers";
    t.symbol = "servo_position_controller";
    t.description =
        "Servo-pneumatic position controller (seed 002): outer position PID -> velocity command, inner "
        "velocity PID -> valve command u, feedforward from the inverted speed/opening table faded by the "
        "commanded acceleration, gain sets for extending, retracting and standstill, valve overlap "
        "compensation, friction feed-forward, pressure-difference feedback and a position band in which the valve "
        "is centred";
    t.params = {
        {"sample_time", "s", 0.001, 0.0, 1e6, false, false,
         "controller sample time (> 0: sampled, output held; 0: continuous)"},
        {"v_max", "m/s", 0.5, 0.0, 1e6, true, false, "limit of the velocity command of the outer loop"},
        {"a_ff", "m/s2", 1.0, 0.0, 1e9, true, false,
         "commanded acceleration at which the feedforward is fully on (w = min(1, |a_cmd|/a_ff))"},
        {"v_on", "m/s", 0.01, 0.0, 1e6, true, false, "speed above which the motion state leaves standstill"},
        {"v_off", "m/s", 0.005, 0.0, 1e6, false, false, "speed below which the motion state returns to standstill"},
        {"Tf", "s", 0.005, 0.0, 1e6, true, false, "time constant of the derivative filters"},
        {"u_overlap", "1", 0.0, 0.0, 1.0, false, false,
         "overlap compensation: command added in the direction of the loop output so the spool jumps "
         "across the valve's overlap (set it to the valve's overlap; 0: off)"},
        {"u_overlap_band", "1", 0.01, 0.0, 1.0, true, false,
         "loop output over which the overlap compensation ramps from 0 to u_overlap (gain 1 + "
         "u_overlap/u_overlap_band near 0, no jump at 0)"},
        {"x_hold", "m", 0.0, 0.0, 1e6, false, false,
         "position band: at standstill with |e_x| <= x_hold the valve is centred (u = 0) and the "
         "integrators hold, so the axis rests on its friction instead of hunting (0: off)"},
        {"x_release", "m", 0.0, 0.0, 1e6, false, false,
         "the centred valve is released when |e_x| >= x_release (> x_hold: hysteresis)"},
        {"u_friction", "1", 0.0, 0.0, 1.0, false, false,
         "friction feed-forward: valve opening added in the direction of the commanded motion to overcome "
         "the cylinder's Coulomb friction (0: off)"},
        {"u_static", "1", 0.0, 0.0, 1.0, false, false,
         "friction feed-forward added on top of u_friction while the motion state is standstill, against "
         "the static (breakaway) friction beyond the Coulomb friction (0: off)"},
        {"v_friction_band", "m/s", 0.005, 0.0, 1e6, true, false,
         "velocity command over which the friction feed-forward ramps from 0 to u_friction (no jump at 0)"},
        {"K_dp", "1/Pa", 0.0, 0.0, 1.0, false, false,
         "pressure-difference feedback gain: u -= K_dp (pA - area_ratio pB), high-passed by T_dp; damps the "
         "air spring (needs inputs.pA, inputs.pB; 0: off)"},
        {"T_dp", "s", 0.05, 0.0, 1e6, false, false,
         "washout time constant of the pressure-difference feedback (the static force fades with it; 0: "
         "no washout)"},
        {"area_ratio", "1", 1.0, 0.0, 100.0, true, false,
         "A_B / A_A of the cylinder (annulus over piston area): weights pB in the pressure difference"}};
    const char* sets[3] = {"ext", "ret", "stop"};
    const char* what[3] = {"extending", "retracting", "at standstill"};
    const double dflt[6] = {10.0, 0.0, 0.0, 2.0, 0.0, 0.0};
    const char* names[6] = {"Kp_x", "Ki_x", "Kd_x", "Kp_v", "Ki_v", "Kd_v"};
    const char* units[6] = {"1/s", "1/s2", "1", "s/m", "1/m", "s2/m"};
    const char* docs[6] = {"position loop proportional gain", "position loop integral gain",
                           "position loop derivative gain", "velocity loop proportional gain",
                           "velocity loop integral gain", "velocity loop derivative gain"};
    for (int s = 0; s < 3; ++s)
      for (int k = 0; k < 6; ++k)
        t.params.push_back({std::string(names[k]) + "_" + sets[s], units[k], dflt[k], -1e300, 1e300, false, false,
                            std::string(docs[k]) + ", " + what[s]});
    t.inputs = {{"setpoint", "position set-point (m; unconnected: 0)", false},
                {"position", "measured position (m), e.g. cyl.x", true},
                {"velocity", "measured velocity (m/s), e.g. cyl.v", true},
                {"acceleration", "commanded acceleration (m/s2) fading the feedforward (unconnected: w = 1)",
                 false},
                {"pA", "chamber A pressure (Pa) for the pressure-difference feedback, e.g. cyl.pA", false},
                {"pB", "chamber B pressure (Pa) for the pressure-difference feedback, e.g. cyl.pB "
                       "(unconnected: 0)", false}};
    t.channels = {{"u", "1", "valve command -1..1"},
                  {"v_cmd", "m/s", "velocity command of the outer loop"},
                  {"u_ff", "1", "feedforward part of u"},
                  {"w", "1", "feedforward weight min(1, |a_cmd|/a_ff)"},
                  {"e_x", "m", "position error"},
                  {"e_v", "m/s", "velocity error"},
                  {"gain_set", "1", "motion state: +1 extending, -1 retracting, 0 standstill"},
                  {"hold", "1", "1 while the valve is centred in the position band"},
                  {"u_fr", "1", "friction feed-forward part of u"},
                  {"u_dp", "1", "pressure-difference feedback (subtracted from u)"}};
    t.check_data = [](const Component& c) { return checkTable(c.data); };
    t.create = [](const Component& c) { return std::make_unique<ServoPositionController>(c); };
    t.held_outputs = [](const Component& c) {
      return Params(c)("sample_time") > 0.0 ? std::vector<std::string>{"u"} : std::vector<std::string>{};
    };
    return t;
  }

  void setup(SystemBuilder& b) override {
    b.input(r_, "inputs.setpoint", rRef_);
    b.input(x_, "inputs.position", xRef_);
    b.input(v_, "inputs.velocity", vRef_);
    b.input(acc_, "inputs.acceleration", aRef_);
    b.input(pA_, "inputs.pA", pARef_);
    b.input(pB_, "inputs.pB", pBRef_);
    if (!clock_.sampled()) {
      auto any = [&](double Gains::*k) {
        return std::any_of(gains_.begin(), gains_.end(), [&](const Gains& g) { return g.*k != 0.0; });
      };
      if (any(&Gains::Ki_x))
        ixSlot_ = b.state("I_x", "m/s", StateKind::Differential, 0.0, signal::kStateAtol,
                          "dI_x/dt - Ki_x e_x (0 while frozen or holding)   [servo position integral]");
      if (any(&Gains::Kd_x))
        zxSlot_ = b.state("z_x", "m", StateKind::Differential, 0.0, signal::kStateAtol,
                          "dz_x/dt - (e_x - e_x(0) - z_x)/Tf   [servo position derivative filter]");
      if (any(&Gains::Ki_v))
        ivSlot_ = b.state("I_v", "1", StateKind::Differential, 0.0, signal::kStateAtol,
                          "dI_v/dt - Ki_v e_v (0 while frozen or holding)   [servo velocity integral]");
      if (any(&Gains::Kd_v))
        zvSlot_ = b.state("z_v", "m/s", StateKind::Differential, 0.0, signal::kStateAtol,
                          "dz_v/dt - (e_v - e_v(0) - z_v)/Tf   [servo velocity derivative filter]");
      if (Kdp_ != 0.0 && Tdp_ > 0.0)
        // In valve units (K_dp (z_p - dp(0))), so the signal tolerance bounds the error of u_dp.
        zpSlot_ = b.state("q_p", "1", StateKind::Differential, 0.0, signal::kStateAtol,
                          "dq_p/dt - (K_dp (dp - dp(0)) - q_p)/T_dp   [servo pressure-difference washout]");
    }
    b.roots(kRoots);
    for (const char* ch : {"u", "v_cmd", "u_ff", "w", "e_x", "e_v", "gain_set", "hold", "u_fr", "u_dp"})
      b.channel(ch, "1");
    b.publish("u", [this](const Eval& e) { return clock_.sampled() ? held_.u : value(e).u; });
  }

  void evaluate(Eval& e) override {
    if (clock_.sampled() || (ixSlot_ < 0 && zxSlot_ < 0 && ivSlot_ < 0 && zvSlot_ < 0 && zpSlot_ < 0)) return;
    const Loop s = value(e);
    const Gains& G = gains_[motion_ + 1];
    if (ixSlot_ >= 0) e.res[ixSlot_] = e.yp[ixSlot_] - (hold_ || frozenX_ ? 0.0 : G.Ki_x * s.ex);
    if (ivSlot_ >= 0) e.res[ivSlot_] = e.yp[ivSlot_] - (hold_ || frozenV_ ? 0.0 : G.Ki_v * s.ev);
    if (zxSlot_ >= 0) e.res[zxSlot_] = e.yp[zxSlot_] - (s.ex - s.zx) / Tf_;
    if (zvSlot_ >= 0) e.res[zvSlot_] = e.yp[zvSlot_] - (s.ev - s.zv) / Tf_;
    if (zpSlot_ >= 0) e.res[zpSlot_] = e.yp[zpSlot_] - s.udp / Tdp_;
  }

  double nextTimeEvent() const override { return clock_.next(); }
  // Sampled, the roots read the speed alone (below).
  bool rootsReadStatesOnly() const override { return clock_.sampled() && (!v_.connected() || v_.readsStatesOnly); }
  void roots(const Eval& e, double* g) override {
    const double v = speed(e);
    g[0] = v - vOn_;
    g[1] = v + vOn_;
    g[2] = v - vOff_;
    g[3] = v + vOff_;
    g[4] = clock_.root(e);
    if (clock_.sampled()) {
      std::fill(g + 5, g + kRoots, 1.0);
      return;
    }
    const Loop s = value(e);
    const Gains& G = gains_[motion_ + 1];
    signal::Band::roots(s.vc, -vMax_, vMax_, g + 5);
    signal::Band::roots(s.uc, -ovBand_, ovBand_, g + 7);
    signal::Band::roots(s.uo, -1.0, 1.0, g + 9);
    g[11] = vBand_.region != 0 ? G.Ki_x * s.ex : 1.0;
    g[12] = uBand_.region != 0 ? G.Ki_v * s.ev : 1.0;
    const double edge = hold_ ? xRelease_ : xHold_;
    g[13] = xHold_ > 0.0 ? s.ex - edge : 1.0;
    g[14] = xHold_ > 0.0 ? s.ex + edge : 1.0;
    if (uFr_ > 0.0 || uSt_ > 0.0) signal::Band::roots(s.vCmd, -frBand_, frBand_, g + 15);
    else g[15] = g[16] = 1.0;
  }

  bool update(const Eval& e) override {
    bool changed = updateMotion(e);
    if (!clock_.sampled()) return updateContinuous(e) || changed;
    // Sampled, the motion state is read by the law at the next sample only:
    // between samples its switch changes no equation and no other element
    // (reported as a change, the solver would restart IDA there).
    if (!clock_.tick(e)) return false;
    if (clock_.fresh()) before_ = held_;
    Loop s;
    const Gains& G = gains_[motion_ + 1];
    const double Ts = clock_.period();
    read(e, s);
    // The state after the previous sample, advanced over one period: the
    // derivative lags exactly for held inputs, the integrals by forward Euler.
    if (e.initializing) {
      s.zx = s.ex;
    } else {
      s.zx = a_ * before_.zx + (1.0 - a_) * before_.ex;
      const bool frozen = before_.hold || (before_.vLim > 0 && G.Ki_x * before_.ex > 0) ||
                          (before_.vLim < 0 && G.Ki_x * before_.ex < 0);
      s.Ix = before_.Ix + (frozen ? 0.0 : Ts * G.Ki_x * before_.ex);
    }
    s.hold = nextHold(before_.hold && !e.initializing, s.ex);
    s.vc = G.Kp_x * s.ex + s.Ix + G.Kd_x * (s.ex - s.zx) / Tf_;
    s.vLim = sgn(s.vc) * (std::abs(s.vc) > vMax_);
    s.vCmd = std::clamp(s.vc, -vMax_, vMax_);
    s.ev = s.vCmd - s.v;
    if (e.initializing) {
      s.zv = s.ev;
    } else {
      s.zv = a_ * before_.zv + (1.0 - a_) * before_.ev;
      const bool frozen = before_.hold || (before_.uLim > 0 && G.Ki_v * before_.ev > 0) ||
                          (before_.uLim < 0 && G.Ki_v * before_.ev < 0);
      s.Iv = before_.Iv + (frozen ? 0.0 : Ts * G.Ki_v * before_.ev);
    }
    s.uff = s.w * opening(s.vCmd);
    s.ufr = friction(s.vCmd, sgn(s.vCmd) * (std::abs(s.vCmd) > frBand_));
    if (Tdp_ > 0.0) s.zp = e.initializing ? s.dp : ap_ * before_.zp + (1.0 - ap_) * before_.dp;
    s.udp = Kdp_ * (s.dp - s.zp);
    s.uc = G.Kp_v * s.ev + s.Iv + G.Kd_v * (s.ev - s.zv) / Tf_ + s.uff + s.ufr - s.udp;
    s.uo = compensated(s.uc, sgn(s.uc) * (std::abs(s.uc) > ovBand_));
    s.uLim = sgn(s.uo) * (std::abs(s.uo) > 1.0);
    s.u = s.hold ? 0.0 : std::clamp(s.uo, -1.0, 1.0);
    changed = changed || s.u != held_.u || s.Ix != held_.Ix || s.Iv != held_.Iv || s.hold != held_.hold;
    held_ = s;
    return changed;
  }

  bool discrete(DiscreteState& s) override {
    // before_: the sample's starting state, kept over the update passes at one instant;
    // ex0_, ev0_, dp0_: continuous mode's filter offsets, set at the start.
    s(clock_, motion_, held_, before_, ex0_, ev0_, dp0_, vBand_, ovRegion_, uBand_, frRegion_, frozenX_, frozenV_,
      hold_);
    return true;
  }

  void output(const Eval& e, double* ch) override {
    const Loop s = clock_.sampled() ? held_ : value(e);
    ch[0] = s.u;
    ch[1] = s.vCmd;
    ch[2] = s.uff;
    ch[3] = s.w;
    ch[4] = s.ex;
    ch[5] = s.ev;
    ch[6] = motion_;
    ch[7] = s.hold ? 1.0 : 0.0;
    ch[8] = s.ufr;
    ch[9] = s.udp;
  }

 private:
  // Roots: 0-3 motion state, 4 sample clock; continuous only: 5-6 v_cmd
  // limit, 7-8 overlap ramp, 9-10 u limit, 11-12 sign of the integrands while
  // limited (clamping anti-windup), 13-14 the position band edges, 15-16 the
  // friction feed-forward ramp's edges.
  static constexpr int kRoots = 17;

  struct Loop {
    double ex = 0, zx = 0, Ix = 0, vc = 0, vCmd = 0, v = 0, ev = 0, zv = 0, Iv = 0, w = 0, uff = 0, uc = 0, uo = 0,
           u = 0, ufr = 0, dp = 0, zp = 0, udp = 0;
    int vLim = 0, uLim = 0;
    bool hold = false;
    void discrete(DiscreteState& s) {
      s(ex, zx, Ix, vc, vCmd, v, ev, zv, Iv, w, uff, uc, uo, u, ufr, dp, zp, udp, vLim, uLim, hold);
    }
  };

  void read(const Eval& e, Loop& s) {
    signal::LoopGuard guard(busy_, id());
    s.ex = r_(e) - x_(e);
    s.v = v_(e);
    s.w = acc_.connected() ? std::min(1.0, std::abs(acc_(e)) / aFf_) : 1.0;
    if (Kdp_ != 0.0) s.dp = pA_(e) - (pB_.connected() ? alpha_ * pB_(e) : 0.0);
  }

  double speed(const Eval& e) {
    signal::LoopGuard guard(busy_, id());
    return v_(e);
  }

  // Loop output with the overlap compensation: uc + u_overlap * clamp(uc /
  // band, -1, 1); `region` picks the branch (-1, 0, +1), extended past its
  // edge until the event in continuous mode.
  double compensated(double uc, int region) const {
    if (uOv_ == 0.0) return uc;
    return uc + uOv_ * (region == 0 ? uc / ovBand_ : region);
  }

  // Friction feed-forward: (u_friction + u_static at standstill) clamp(v_cmd
  // / band, -1, 1); `region` picks the branch as in compensated().
  double friction(double vCmd, int region) const {
    const double u = uFr_ + (motion_ == 0 ? uSt_ : 0.0);
    if (u == 0.0) return 0.0;
    return u * (region == 0 ? vCmd / frBand_ : region);
  }

  // Centred-valve band with hysteresis: entered at standstill when |e_x| <=
  // x_hold, left when |e_x| >= x_release.
  bool nextHold(bool hold, double ex) const {
    if (xHold_ <= 0.0) return false;
    if (hold) return std::abs(ex) < xRelease_;
    return motion_ == 0 && std::abs(ex) <= xHold_;
  }

  // Continuous law at this evaluation, with the discrete branches (limits,
  // overlap ramp, hold) as they stand.
  Loop value(const Eval& e) {
    Loop s;
    const Gains& G = gains_[motion_ + 1];
    read(e, s);
    s.Ix = ixSlot_ >= 0 ? e.y[ixSlot_] : 0.0;
    s.Iv = ivSlot_ >= 0 ? e.y[ivSlot_] : 0.0;
    s.zx = (zxSlot_ >= 0 ? e.y[zxSlot_] : 0.0) + ex0_;
    s.vc = G.Kp_x * s.ex + s.Ix + G.Kd_x * (s.ex - s.zx) / Tf_;
    s.vLim = vBand_.region;
    s.vCmd = s.vLim > 0 ? vMax_ : s.vLim < 0 ? -vMax_ : s.vc;
    s.ev = s.vCmd - s.v;
    s.zv = (zvSlot_ >= 0 ? e.y[zvSlot_] : 0.0) + ev0_;
    s.uff = s.w * opening(s.vCmd);
    s.ufr = friction(s.vCmd, frRegion_.region);
    s.zp = zpSlot_ >= 0 ? dp0_ + e.y[zpSlot_] / Kdp_ : 0.0;
    s.udp = Kdp_ * (s.dp - s.zp);
    s.uc = G.Kp_v * s.ev + s.Iv + G.Kd_v * (s.ev - s.zv) / Tf_ + s.uff + s.ufr - s.udp;
    s.uo = compensated(s.uc, ovRegion_.region);
    s.uLim = uBand_.region;
    s.hold = hold_;
    s.u = s.hold ? 0.0 : s.uLim != 0 ? s.uLim : s.uo;
    return s;
  }

  bool updateContinuous(const Eval& e) {
    if (e.initializing) {
      // Derivative filters start at the error (no kick): z = e(0) + state.
      ex0_ = 0.0, ev0_ = 0.0;
      Loop s = value(e);
      ex0_ = s.ex;
      s = value(e);
      ev0_ = s.ev;
      dp0_ = s.dp;
    }
    bool changed = false;
    Loop s = value(e);
    changed |= vBand_.update(e, s.vc, -vMax_, vMax_);
    s = value(e);
    if (uFr_ > 0.0 || uSt_ > 0.0) changed |= frRegion_.update(e, s.vCmd, -frBand_, frBand_);
    s = value(e);
    changed |= ovRegion_.update(e, s.uc, -ovBand_, ovBand_);
    s = value(e);
    changed |= uBand_.update(e, s.uo, -1.0, 1.0);
    const Gains& G = gains_[motion_ + 1];
    const bool fx = (vBand_.region > 0 && G.Ki_x * s.ex > 0) || (vBand_.region < 0 && G.Ki_x * s.ex < 0);
    const bool fv = (uBand_.region > 0 && G.Ki_v * s.ev > 0) || (uBand_.region < 0 && G.Ki_v * s.ev < 0);
    const bool h = nextHold(hold_ && !e.initializing, s.ex);
    changed |= fx != frozenX_ || fv != frozenV_ || h != hold_;
    frozenX_ = fx, frozenV_ = fv, hold_ = h;
    return changed;
  }

  bool updateMotion(const Eval& e) {
    const double v = speed(e);
    int m = motion_;
    if (m == 0) {
      if (v >= vOn_) m = 1;
      else if (v <= -vOn_) m = -1;
    } else if (m == 1 && v <= vOff_) {
      m = v <= -vOn_ ? -1 : 0;
    } else if (m == -1 && v >= -vOff_) {
      m = v >= vOn_ ? 1 : 0;
    }
    if (e.initializing) m = v >= vOn_ ? 1 : v <= -vOn_ ? -1 : 0;
    if (m == motion_) return false;
    motion_ = m;
    return true;
  }

  // Valve opening giving the steady-state speed s: the table inverted
  // (clamped at its ends); no table: 0.
  double opening(double s) const { return inverse_.empty() ? 0.0 : inverse_(s); }

  std::string rRef_, xRef_, vRef_, aRef_, pARef_, pBRef_;
  SignalInput r_, x_, v_, acc_, pA_, pB_;
  std::array<Gains, 3> gains_{};  // [m + 1]: retracting, standstill, extending
  double vMax_, aFf_, vOn_, vOff_, Tf_, a_, uOv_, ovBand_, xHold_, xRelease_;
  double uFr_, uSt_, frBand_, Kdp_, Tdp_, alpha_, ap_;
  Table inverse_;  // opening over speed
  signal::SampleClock clock_;
  int motion_ = 0;
  Loop held_, before_;
  // Continuous mode: state slots, branch regions, flags.
  int ixSlot_ = -1, zxSlot_ = -1, ivSlot_ = -1, zvSlot_ = -1, zpSlot_ = -1;
  double ex0_ = 0.0, ev0_ = 0.0, dp0_ = 0.0;
  signal::Band vBand_, ovRegion_, uBand_, frRegion_;
  bool frozenX_ = false, frozenV_ = false, hold_ = false;
  bool busy_ = false;
};

}  // namespace

PM_REGISTER(ServoPositionController)

}  // namespace pm
