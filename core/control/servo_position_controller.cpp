// Servo-pneumatic position controller (seed 002 §4): a cascade of an outer
// position loop and an inner velocity loop, a feedforward from the valve's
// steady-state speed curve, and three gain sets switched by the motion state.
// Output `u` drives a proportional valve (valve_5_3_proportional, -1..1).
//
// Inputs: setpoint r, position x, velocity v (e.g. "cyl.x", "cyl.v"),
// optional commanded acceleration a_cmd (e.g. the second derivative of a
// smooth set-point trajectory). Sampled at k Ts (sample_time > 0), output
// held between samples, like the other sampled blocks. At sample k, with the
// gain set g of the motion state at that instant:
//   outer:  e_x = r - x
//           I_x,k = I_x,k-1 + Ts Ki_x,g e_x,k-1        (frozen, see below)
//           D_x,k = Kd_x,g (e_x,k - z_x,k)/Tf,  z_x,k = a z_x,k-1 + (1-a) e_x,k-1,
//                   a = exp(-Ts/Tf)                   (filtered derivative as in pid)
//           v_cmd = clamp(Kp_x,g e_x + I_x + D_x, -v_max, v_max)
//   feedforward: u_ff = w * S^-1(v_cmd),  w = min(1, |a_cmd| / a_ff)
//           S^-1 is the inverse of the table of steady-state piston speed
//           versus valve opening (data.opening, data.speed; piecewise linear,
//           clamped at the table ends). w = 1 when a_cmd is not connected.
//           So the feedforward acts while the commanded speed changes and
//           fades to 0 when it is constant (seed 002 §4).
//   inner:  e_v = v_cmd - v
//           I_v, D_v as above with Ki_v,g, Kd_v,g
//           u = clamp(Kp_v,g e_v + I_v + D_v + u_ff, -1, 1)
// Anti-windup: conditional integration. I_x is frozen when v_cmd was limited
// at k-1 and Ki_x e_x,k-1 pushes further into the limit; I_v likewise for u.
// Initial values: I = 0, z = e at the first sample (no derivative kick).
// Motion state m (gain set): +1 extending (set "ext"), -1 retracting ("ret"),
// 0 at standstill ("stop"); hysteresis on the measured velocity:
//   m = 0 -> +1 when v >= v_on,  0 -> -1 when v <= -v_on,
//   m = +1 -> 0 when v <= v_off, m = -1 -> 0 when v >= -v_off (0 <= v_off < v_on),
// crossings of +-v_on, +-v_off are root functions and m a discrete state
// changed in update(): the switch happens at the crossing instant; the new
// gains apply from the next sample on.
#include "control/signal_block.h"
#include "model/component_type.h"
#include "solver/system.h"

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
    if (it.key() != "opening" && it.key() != "speed") err.push_back(it.key() + ": unknown field");
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

class ServoPositionController : public Element {
 public:
  explicit ServoPositionController(const Component& c)
      : Element(c.id),
        rRef_(signal::inputRef(c, "setpoint")),
        xRef_(signal::inputRef(c, "position")),
        vRef_(signal::inputRef(c, "velocity")),
        aRef_(signal::inputRef(c, "acceleration")) {
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
    clock_ = signal::SampleClock(P("sample_time"));
    a_ = std::exp(-clock_.period() / Tf_);
    const auto err = checkTable(c.data);
    if (!err.empty()) throw std::runtime_error("data." + err.front());
    if (c.data.is_object()) {
      opening_ = c.data["opening"].get<std::vector<double>>();
      speed_ = c.data["speed"].get<std::vector<double>>();
    }
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "servo_position_controller";
    t.category = "Controllers";
    t.symbol = "servo_position_controller";
    t.description =
        "Servo-pneumatic position controller (seed 002): outer position PID -> velocity command, inner "
        "velocity PID -> valve command u, feedforward from the inverted speed/opening table faded by the "
        "commanded acceleration, gain sets for extending, retracting and standstill";
    t.params = {
        {"sample_time", "s", 0.001, 0.0, 1e6, true, false, "controller sample time (sampled controller)"},
        {"v_max", "m/s", 0.5, 0.0, 1e6, true, false, "limit of the velocity command of the outer loop"},
        {"a_ff", "m/s2", 1.0, 0.0, 1e9, true, false,
         "commanded acceleration at which the feedforward is fully on (w = min(1, |a_cmd|/a_ff))"},
        {"v_on", "m/s", 0.01, 0.0, 1e6, true, false, "speed above which the motion state leaves standstill"},
        {"v_off", "m/s", 0.005, 0.0, 1e6, false, false, "speed below which the motion state returns to standstill"},
        {"Tf", "s", 0.005, 0.0, 1e6, true, false, "time constant of the derivative filters"}};
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
                 false}};
    t.channels = {{"u", "1", "valve command -1..1"},
                  {"v_cmd", "m/s", "velocity command of the outer loop"},
                  {"u_ff", "1", "feedforward part of u"},
                  {"w", "1", "feedforward weight min(1, |a_cmd|/a_ff)"},
                  {"e_x", "m", "position error"},
                  {"e_v", "m/s", "velocity error"},
                  {"gain_set", "1", "motion state: +1 extending, -1 retracting, 0 standstill"}};
    t.check_data = [](const Component& c) { return checkTable(c.data); };
    t.create = [](const Component& c) { return std::make_unique<ServoPositionController>(c); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    b.input(r_, "inputs.setpoint", rRef_);
    b.input(x_, "inputs.position", xRef_);
    b.input(v_, "inputs.velocity", vRef_);
    b.input(acc_, "inputs.acceleration", aRef_);
    b.roots(5);
    for (const char* ch : {"u", "v_cmd", "u_ff", "w", "e_x", "e_v", "gain_set"}) b.channel(ch, "1");
    b.publish("u", [this](const Eval&) { return held_.u; });
  }

  void evaluate(Eval&) override {}

  double nextTimeEvent() const override { return clock_.next(); }
  void roots(const Eval& e, double* g) override {
    const double v = speed(e);
    g[0] = v - vOn_;
    g[1] = v + vOn_;
    g[2] = v - vOff_;
    g[3] = v + vOff_;
    g[4] = clock_.root(e.t);
  }

  bool update(const Eval& e) override {
    bool changed = updateMotion(e);
    if (!clock_.tick(e)) return changed;
    if (clock_.fresh()) before_ = held_;
    Loop s;
    const Gains& G = gains_[motion_ + 1];
    const double Ts = clock_.period();
    {
      signal::LoopGuard guard(busy_, id());
      s.ex = r_(e) - x_(e);
      s.v = v_(e);
      s.w = acc_.connected() ? std::min(1.0, std::abs(acc_(e)) / aFf_) : 1.0;
    }
    if (e.initializing) {
      s.zx = s.ex;
    } else {
      s.zx = a_ * before_.zx + (1.0 - a_) * before_.ex;
      const bool frozen = (before_.vLim > 0 && G.Ki_x * before_.ex > 0) || (before_.vLim < 0 && G.Ki_x * before_.ex < 0);
      s.Ix = before_.Ix + (frozen ? 0.0 : Ts * G.Ki_x * before_.ex);
    }
    const double vc = G.Kp_x * s.ex + s.Ix + G.Kd_x * (s.ex - s.zx) / Tf_;
    s.vLim = vc > vMax_ ? 1 : vc < -vMax_ ? -1 : 0;
    s.vCmd = std::clamp(vc, -vMax_, vMax_);
    s.ev = s.vCmd - s.v;
    if (e.initializing) {
      s.zv = s.ev;
    } else {
      s.zv = a_ * before_.zv + (1.0 - a_) * before_.ev;
      const bool frozen = (before_.uLim > 0 && G.Ki_v * before_.ev > 0) || (before_.uLim < 0 && G.Ki_v * before_.ev < 0);
      s.Iv = before_.Iv + (frozen ? 0.0 : Ts * G.Ki_v * before_.ev);
    }
    s.uff = s.w * opening(s.vCmd);
    const double u = G.Kp_v * s.ev + s.Iv + G.Kd_v * (s.ev - s.zv) / Tf_ + s.uff;
    s.uLim = u > 1.0 ? 1 : u < -1.0 ? -1 : 0;
    s.u = std::clamp(u, -1.0, 1.0);
    changed = changed || s.u != held_.u || s.Ix != held_.Ix || s.Iv != held_.Iv;
    held_ = s;
    return changed;
  }

  void output(const Eval&, double* ch) override {
    ch[0] = held_.u;
    ch[1] = held_.vCmd;
    ch[2] = held_.uff;
    ch[3] = held_.w;
    ch[4] = held_.ex;
    ch[5] = held_.ev;
    ch[6] = motion_;
  }

 private:
  struct Loop {
    double ex = 0, zx = 0, Ix = 0, vCmd = 0, v = 0, ev = 0, zv = 0, Iv = 0, w = 0, uff = 0, u = 0;
    int vLim = 0, uLim = 0;
  };

  double speed(const Eval& e) {
    signal::LoopGuard guard(busy_, id());
    return v_(e);
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
  // (piecewise linear, clamped at its ends); no table: 0.
  double opening(double s) const {
    if (speed_.empty()) return 0.0;
    if (s <= speed_.front()) return opening_.front();
    if (s >= speed_.back()) return opening_.back();
    const size_t i = static_cast<size_t>(std::upper_bound(speed_.begin(), speed_.end(), s) - speed_.begin());
    const double f = (s - speed_[i - 1]) / (speed_[i] - speed_[i - 1]);
    return opening_[i - 1] + f * (opening_[i] - opening_[i - 1]);
  }

  std::string rRef_, xRef_, vRef_, aRef_;
  SignalInput r_, x_, v_, acc_;
  std::array<Gains, 3> gains_{};  // [m + 1]: retracting, standstill, extending
  double vMax_, aFf_, vOn_, vOff_, Tf_, a_;
  std::vector<double> opening_, speed_;
  signal::SampleClock clock_;
  int motion_ = 0;
  Loop held_, before_;
  bool busy_ = false;
};

}  // namespace

PM_REGISTER(ServoPositionController)

}  // namespace pm
