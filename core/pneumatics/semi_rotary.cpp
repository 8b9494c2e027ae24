// Double-acting semi-rotary actuator (vane or rack-and-pinion): two chambers
// whose volumes change with the shaft angle through the displacement D
// (volume swept per radian), the shaft with its load lumped into one inertia.
//   V_A = V0_A + D theta,   V_B = V0_B + D (theta_max - theta)
//   torque = (pA - pB) D    (positive: turns towards theta_max)
//   J domega/dt = (pA - pB) D - T_load - T_friction(omega) + T_stop(theta, omega)
// Friction as in the cylinder: Coulomb + Stribeck + viscous, smooth in omega,
//   T_f = (T_c + (T_s - T_c) exp(-(omega/omega_s)^2)) tanh(omega/omega_eps) + c_v omega,
// so sticking is approximated by a creep speed ~ omega_eps * T/T_s below
// breakaway. End stops at 0 and theta_max: stiff rotational springs k_stop
// with damping c_stop ramped in over 1e-3 rad of penetration (the contact
// torque starts at zero).
//
// Attached to a revolute joint of the mechanism (data.attach = {"joint":
// id}), theta follows the joint angle (theta0 at the assembled start) and
// the pressure, friction, stop and load torques drive the joint's I part
// (reaction on J's part); the inertia J is then the mechanism's. Attached
// and co-simulated as the cylinder is (actuator_coupling.h).
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/actuator_coupling.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pm {

namespace {

class SemiRotaryActuator : public Element {
 public:
  explicit SemiRotaryActuator(const Component& c)
      : Element(c.id),
        coupling_(c, {"theta", "rad", "omega", "rad/s", true, 1e-8, "actuator",
                      "J domega/dt - ((pA - pB) D - T_load - T_friction(omega) + T_stop(theta, omega))"}) {
    Params P(c);
    D_ = P("D"), thMax_ = P("theta_max"), J_ = P("J");
    V0A_ = P("V0_A"), V0B_ = P("V0_B");
    Tload_ = P("T_load");
    Tc_ = P("T_coulomb"), Ts_ = P("T_static"), ws_ = P("omega_stribeck"), cv_ = P("c_viscous"), weps_ = P("omega_eps");
    kStop_ = P("k_stop"), cStop_ = P("c_stop");
    th0_ = P("theta0"), pA0_ = P("pA0"), pB0_ = P("pB0"), T0_ = P("T0");
    hA_A_ = P("hA_A"), hA_B_ = P("hA_B"), Tw_ = P("T_wall");
    iso_ = P("isothermal") > 0.5;
  }

  static std::vector<std::string> checkData(const Component& c) {
    if (c.data.is_null()) return {};
    if (!c.data.is_object()) return {"expected an object"};
    std::vector<std::string> errors;
    for (auto it = c.data.begin(); it != c.data.end(); ++it)
      if (it.key() != "attach") errors.push_back(it.key() + ": unknown field");
    if (c.data.contains("attach")) {
      const auto& a = c.data["attach"];
      if (!a.is_object() || !a.contains("joint") || !a["joint"].is_string() || a.size() != 1)
        errors.push_back("attach: expected {\"joint\": \"<revolute joint id>\"}");
    }
    return errors;
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "semi_rotary_actuator";
    t.category = "Actuators";
    t.symbol = "semi_rotary_actuator";
    t.description = "Double-acting semi-rotary actuator (swivel drive) with end stops";
    t.ports = {{"A", Domain::Pneumatic, "chamber A (turns towards theta_max)"},
               {"B", Domain::Pneumatic, "chamber B (turns back towards 0)"},
               {"shaft", Domain::Mechanical, "output shaft (for coupling to a mechanism)"}};
    t.params = {
        {"D", "m3/rad", 3e-6, 0.0, 1.0, true, false, "displacement: chamber volume swept per radian (torque / pressure)"},
        {"theta_max", "rad", 3.141592653589793, 0.0, 100.0, true, false, "swept angle between the end stops"},
        {"J", "kg m2", 1e-4, 0.0, 1e6, true, false, "moment of inertia of vane/pinion, shaft and load"},
        {"V0_A", "m3", 2e-6, 0.0, 1.0, true, false, "dead volume of chamber A at theta = 0"},
        {"V0_B", "m3", 2e-6, 0.0, 1.0, true, false, "dead volume of chamber B at theta = theta_max"},
        {"T_load", "N m", 0.0, -1e9, 1e9, false, false, "constant external torque opposing positive rotation"},
        {"T_coulomb", "N m", 0.05, 0.0, 1e9, false, false, "Coulomb (sliding) friction torque"},
        {"T_static", "N m", 0.08, 0.0, 1e9, false, false, "static (breakaway) friction torque, >= T_coulomb"},
        {"omega_stribeck", "rad/s", 0.05, 0.0, 1e3, true, false, "Stribeck angular velocity"},
        {"c_viscous", "N m s/rad", 1e-3, 0.0, 1e9, false, false, "viscous friction coefficient"},
        {"omega_eps", "rad/s", 1e-2, 0.0, 1e3, true, false,
         "angular velocity scale of the smooth sign function (creep below breakaway)"},
        {"k_stop", "N m/rad", 1e4, 0.0, 1e12, true, false, "end-stop contact stiffness (rotational spring)"},
        {"c_stop", "N m s/rad", 5.0, 0.0, 1e9, false, false, "end-stop contact damping"},
        {"theta0", "rad", 0.0, 0.0, 100.0, false, false, "initial angle (0 = at the A-side stop)"},
        {"pA0", "Pa", 101325.0, 0.0, 1e8, true, false, "initial absolute pressure in chamber A"},
        {"pB0", "Pa", 101325.0, 0.0, 1e8, true, false, "initial absolute pressure in chamber B"},
        {"T0", "K", 293.15, 0.0, 2000.0, true, false, "initial gas temperature"},
        {"hA_A", "W/K", 0.0, 0.0, 1e6, false, false, "heat-transfer coefficient times wall area, chamber A"},
        {"hA_B", "W/K", 0.0, 0.0, 1e6, false, false, "heat-transfer coefficient times wall area, chamber B"},
        {"T_wall", "K", 293.15, 0.0, 2000.0, true, false, "housing wall temperature"},
        {"isothermal", "1", 0.0, 0.0, 1.0, false, false, "1: chambers stay at T_wall"},
    };
    t.channels = {{"theta", "rad", "shaft angle"},
                  {"omega", "rad/s", "shaft angular velocity"},
                  {"alpha", "rad/s2", "shaft angular acceleration"},
                  {"pA", "Pa", "chamber A pressure"},
                  {"pB", "Pa", "chamber B pressure"},
                  {"TA", "K", "chamber A temperature"},
                  {"TB", "K", "chamber B temperature"},
                  {"torque", "N m", "pneumatic torque (pA - pB) D"},
                  {"T_friction", "N m", "friction torque (opposes motion)"},
                  {"T_stop", "N m", "end-stop contact torque (positive: pushes towards theta_max)"}};
    t.create = [](const Component& c) { return std::make_unique<SemiRotaryActuator>(c); };
    t.check_data = checkData;
    return t;
  }

  void setup(SystemBuilder& b) override {
    // Checked here, not in the constructor: the compiler turns exceptions
    // from setup() into a ProjectError naming this component.
    if (th0_ > thMax_)
      throw std::runtime_error("params.theta0: initial angle " + std::to_string(th0_) +
                               " rad is beyond the swept angle " + std::to_string(thMax_) + " rad");
    // Co-simulation (element/backplane.h): the mechanical side has no
    // chambers, the pneumatic side follows the backplane's angle.
    coupling_.begin(b);
    if (!coupling_.mechanicalSide()) {
      const int pa = b.port("A"), pb = b.port("B");
      chA_ = pa >= 0 ? pa : b.internalNode("A");
      chB_ = pb >= 0 ? pb : b.internalNode("B");
      b.capacity(chA_, id() + ".A", V0A_ + D_ * th0_, pA0_, T0_, iso_, Tw_);
      b.capacity(chB_, id() + ".B", V0B_ + D_ * (thMax_ - th0_), pB0_, T0_, iso_, Tw_);
    }
    coupling_.declareStates(
        b, th0_, [this](const Eval& e) { return (e.p(chA_) - e.p(chB_)) * D_; },
        [this](const Eval& e) { return shaftTorque(e); });
    sth_ = coupling_.qState();
    sw_ = coupling_.wState();
    if (coupling_.mechanicalSide()) {
      b.channel("theta", "rad");
      b.channel("omega", "rad/s");
      b.channel("alpha", "rad/s2");
      b.channel("T_friction", "N m");
      b.channel("T_stop", "N m");
      b.publish("theta", [this](const Eval& e) { return e.y[sth_]; });
      b.publish("omega", [this](const Eval& e) { return e.y[sw_]; });
      return;
    }
    b.channel("theta", "rad");
    b.channel("omega", "rad/s");
    b.channel("alpha", "rad/s2");
    b.channel("pA", "Pa");
    b.channel("pB", "Pa");
    b.channel("TA", "K");
    b.channel("TB", "K");
    b.channel("torque", "N m");
    b.channel("T_friction", "N m");
    b.channel("T_stop", "N m");
    b.publish("theta", [this](const Eval& e) { return e.y[sth_]; });
    b.publish("omega", [this](const Eval& e) { return e.y[sw_]; });
    b.publish("alpha", [this](const Eval& e) { return e.yp[sw_]; });
    b.publish("pA", [this](const Eval& e) { return e.p(chA_); });
    b.publish("pB", [this](const Eval& e) { return e.p(chB_); });
    b.publish("torque", [this](const Eval&) { return Tp_; });
  }

  void evaluate(Eval& e) override {
    // Co-simulated: the volumes follow the backplane's motion directly.
    double th, w;
    coupling_.motion(e, th, w);
    Tf_ = (Tc_ + (Ts_ - Tc_) * std::exp(-(w / ws_) * (w / ws_))) * std::tanh(w / weps_) + cv_ * w;
    Tstop_ = stopTorque(-th, -w) - stopTorque(th - thMax_, w);
    if (coupling_.mechanicalSide()) {
      coupling_.mechanismResiduals(e);
      return;
    }
    const double pA = e.p(chA_), pB = e.p(chB_);
    e.volume(chA_, V0A_ + D_ * th, D_ * w);
    e.volume(chB_, V0B_ + D_ * (thMax_ - th), -D_ * w);
    if (!iso_) {
      e.heat(chA_, hA_A_ * (Tw_ - e.T(chA_)));
      e.heat(chB_, hA_B_ * (Tw_ - e.T(chB_)));
    }
    Tp_ = (pA - pB) * D_;
    coupling_.residuals(e, th, w, [&] { return (Tp_ - Tload_ - Tf_ + Tstop_) / J_; });
  }

  void output(const Eval& e, double* ch) override {
    ch[0] = e.y[sth_];
    ch[1] = e.y[sw_];
    ch[2] = e.yp[sw_];
    if (coupling_.mechanicalSide()) {
      ch[3] = Tf_;
      ch[4] = Tstop_;
      return;
    }
    ch[3] = e.p(chA_);
    ch[4] = e.p(chB_);
    ch[5] = e.T(chA_);
    ch[6] = e.T(chB_);
    ch[7] = Tp_;
    ch[8] = Tf_;
    ch[9] = Tstop_;
  }

 private:
  // Torque on the shaft (positive towards theta_max), for the mechanism.
  // On the co-simulation's mechanical side the pressure torque is the
  // backplane's interpolation; friction and stops always come from the
  // current angle and rate (seed 000 sec. 6.4).
  double shaftTorque(const Eval& e) const {
    const double th = e.y[sth_], w = e.y[sw_];
    const double Tf = (Tc_ + (Ts_ - Tc_) * std::exp(-(w / ws_) * (w / ws_))) * std::tanh(w / weps_) + cv_ * w;
    const double Tp = coupling_.pressureForce(e);
    return Tp - Tload_ - Tf + stopTorque(-th, -w) - stopTorque(th - thMax_, w);
  }
  // Contact torque pushing back out of a stop; pen > 0 is the penetration
  // angle and vpen its rate.
  double stopTorque(double pen, double vpen) const {
    if (pen <= 0.0) return 0.0;
    constexpr double dmax = 1e-3;  // rad over which the damping ramps in
    return std::max(0.0, kStop_ * pen + cStop_ * flow::smoothstep(pen / dmax) * vpen);
  }

  double D_, thMax_, J_, V0A_, V0B_, Tload_;
  double Tc_, Ts_, ws_, cv_, weps_, kStop_, cStop_;
  double th0_, pA0_, pB0_, T0_, hA_A_, hA_B_, Tw_;
  bool iso_;
  int chA_ = -1, chB_ = -1, sth_ = -1, sw_ = -1;
  double Tp_ = 0.0, Tf_ = 0.0, Tstop_ = 0.0;
  ActuatorCoupling coupling_;
};

}  // namespace

PM_REGISTER(SemiRotaryActuator)

}  // namespace pm
