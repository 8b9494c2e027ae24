// Pneumatic linear actuators: double-acting (optionally through-rod) and
// single-acting with spring return. The piston with rod and load is one lumped
// mass moving along the cylinder axis; its mechanical side (position x,
// velocity v, rod force) is published so the 3D coupling can take it over.
//
// Chambers: V_A = V0_A + A_A x, V_B = V0_B + A_B (L - x). Each chamber joins
// the net of its port, unless end cushioning is set on that side: then the
// chamber is its own volume behind the port passage (conductance C_port,
// with the port bore V_port a volume of its own in front of it),
// which the cushion spigot closes down to C_cushion over the last
// cushion_length of stroke; a check valve lets air back in freely.
// Friction: Coulomb + Stribeck + viscous, F = (Fc + (Fs - Fc) exp(-(v/vs)^2))
// tanh(v/v_eps) + c_v v: smooth (no events needed), so true sticking is
// approximated by a creep velocity ~ v_eps * F/Fs below breakaway.
// End stops: spring-damper contact, damping ramped in over 0.01 mm of
// penetration (as ADAMS IMPACT) so the contact force starts at zero.
//
// Attached to a mechanism (data.attach = {"barrel": "part.marker", "rod":
// "part.marker"}, or {"joint": id} to act along a translational joint's
// axis with x its travel), the cylinder acts along the line between the two markers
// (seed 002 sec. 3, spherical ends): x = |P_rod - P_barrel| - d0 with d0 set
// so that x = x0 at the assembled start, v its rate. x and v are then
// algebraic, the parts carry the masses (the piston and rod mass is lumped
// into the rod-end part; `mass`, `angle` are not used), and the pressure,
// friction, stop and F_load forces act on the two parts, equal and opposite.
// Co-simulated (simulation.coupling "cosimulation", element/backplane.h) the
// cylinder is split: its chambers in the pneumatic System moved by the
// backplane's x(t), v(t); its friction, stops, spring and load in the
// mechanical System with the backplane's interpolated pressure force. These
// modes are the actuators' common coupling (actuator_coupling.h).
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/actuator_coupling.h"
#include "pneumatics/cylinder_length.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pm {

class Cylinder : public Element {
 public:
  enum class Kind { Double, ThroughRod, SingleSpring };

  Cylinder(const Component& c, Kind k)
      : Element(c.id),
        kind_(k),
        coupling_(c, {"x", "m", "v", "m/s", false, 0.0, "cylinder",
                      "m dv/dt - (pA A_A - pB A_B - p_amb A_rod - F_load - m g sin(angle) - F_friction(v) + F_stop(x, v))"}) {
    Params P(c);
    const double D = P("bore"), d = P("rod");
    const double pi = std::numbers::pi;
    L_ = P("stroke");
    AA_ = pi * D * D / 4.0;
    AB_ = pi * (D * D - d * d) / 4.0;
    Arod_ = AA_ - AB_;
    if (kind_ == Kind::ThroughRod) {
      AA_ = AB_;
      Arod_ = 0.0;
    }
    V0A_ = P("V0_A");
    m_ = P("mass");
    Fload_ = P("F_load");
    gsin_ = 9.80665 * std::sin(P("angle"));
    Fc_ = P("F_coulomb"), Fs_ = P("F_static"), vs_ = P("v_stribeck"), cv_ = P("c_viscous"), veps_ = P("v_eps");
    kStop_ = P("k_stop"), cStop_ = P("c_stop");
    x0_ = P("x0");
    length_ = {D, L_, P("L_retracted"), x0_};
    // Attached between markers: they must be as far apart as the cylinder
    // can be long (pneumatics/cylinder_length.h).
    coupling_.setMarkerOffset([this](double distance, const std::string& barrel, const std::string& rod) {
      if (const auto why = length_.mismatch(distance, barrel, rod)) throw std::runtime_error("data.attach: " + *why);
      return length_.retracted(distance);
    });
    pA0_ = P("pA0");
    T0_ = P("T0");
    hA_A_ = P("hA_A"), Tw_ = P("T_wall");
    iso_ = P("isothermal") > 0.5;
    if (kind_ == Kind::SingleSpring) {
      kSpring_ = P("k_spring");
      F0Spring_ = P("F_spring0");
    } else {
      V0B_ = P("V0_B");
      pB0_ = P("pB0");
      hA_B_ = P("hA_B");
      LcA_ = P("cushion_length_A"), LcB_ = P("cushion_length_B");
      CcA_ = P("C_cushion_A"), CcB_ = P("C_cushion_B"), Cport_ = P("C_port");
      Vport_ = P("V_port");
    }
    if (x0_ > L_) throw std::runtime_error("params.x0: initial position " + std::to_string(x0_) +
                                           " m is beyond the stroke " + std::to_string(L_) + " m");
  }

  static std::vector<std::string> checkData(const Component& c) {
    std::vector<std::string> errors;
    if (c.data.is_null()) return errors;
    if (!c.data.is_object()) return {"expected an object"};
    for (auto it = c.data.begin(); it != c.data.end(); ++it)
      if (it.key() != "attach") errors.push_back(it.key() + ": unknown field");
    if (!c.data.contains("attach")) return errors;
    const auto& a = c.data["attach"];
    const char* form = "attach: expected {\"barrel\": \"part.marker\", \"rod\": \"part.marker\"} or {\"joint\": \"<id>\"}";
    if (!a.is_object()) return {form};
    if (a.contains("joint")) {
      if (!a["joint"].is_string() || a.size() != 1) errors.push_back(form);
      return errors;
    }
    for (const char* k : {"barrel", "rod"})
      if (!a.contains(k) || !a[k].is_string() || a[k].get<std::string>().find('.') == std::string::npos)
        errors.push_back(std::string("attach.") + k + ": expected a marker reference \"<part>.<marker>\"");
    for (auto it = a.begin(); it != a.end(); ++it)
      if (it.key() != "barrel" && it.key() != "rod") errors.push_back("attach." + it.key() + ": unknown field");
    return errors;
  }

  static ComponentType declare(Kind k) {
    ComponentType t;
    t.category = "Actuators";
    const bool dbl = k != Kind::SingleSpring;
    t.name = k == Kind::Double ? "cylinder_double" : k == Kind::ThroughRod ? "cylinder_through_rod" : "cylinder_single";
    t.symbol = t.name;
    t.description = k == Kind::Double       ? "Double-acting cylinder with adjustable end cushioning"
                    : k == Kind::ThroughRod ? "Double-acting through-rod cylinder (equal areas)"
                                            : "Single-acting cylinder, spring return (spring in the rod chamber, vented)";
    t.ports = {{"A", Domain::Pneumatic, "cap-end chamber (extends the rod)"}};
    if (dbl) t.ports.push_back({"B", Domain::Pneumatic, "rod-end chamber (retracts the rod)"});
    t.ports.push_back({"rod", Domain::Mechanical, "rod end (for coupling to a mechanism)"});
    t.params = {
        {"bore", "m", 0.032, 0.0, 10.0, true, false, "piston diameter"},
        {"rod", "m", 0.012, 0.0, 10.0, true, false, "rod diameter (must be smaller than the bore)"},
        {"stroke", "m", 0.1, 0.0, 100.0, true, false, "stroke length"},
        {"V0_A", "m3", 5e-6, 0.0, 1.0, true, false, "dead volume of chamber A at x = 0 (incl. port, cushion)"},
        {"mass", "kg", 1.0, 0.0, 1e6, true, false, "moving mass: piston, rod and load"},
        {"F_load", "N", 0.0, -1e9, 1e9, false, false, "constant external force opposing extension"},
        {"angle", "rad", 0.0, -1.5707963267948966, 1.5707963267948966, false, false,
         "axis elevation above horizontal (gravity m g sin(angle) opposes extension)"},
        {"F_coulomb", "N", 10.0, 0.0, 1e9, false, false, "Coulomb (sliding) friction"},
        {"F_static", "N", 15.0, 0.0, 1e9, false, false, "static (breakaway) friction, >= F_coulomb"},
        {"v_stribeck", "m/s", 0.01, 0.0, 10.0, true, false, "Stribeck velocity"},
        {"c_viscous", "N s/m", 20.0, 0.0, 1e9, false, false, "viscous friction coefficient"},
        {"v_eps", "m/s", 1e-3, 0.0, 1.0, true, false, "velocity scale of the smooth sign function (creep below breakaway)"},
        {"k_stop", "N/m", 1e7, 0.0, 1e12, true, false, "end-stop contact stiffness"},
        {"c_stop", "N s/m", 5e3, 0.0, 1e9, false, false, "end-stop contact damping"},
        {"x0", "m", 0.0, 0.0, 100.0, false, false, "initial position (0 = retracted)"},
        {"L_retracted", "m", 0.0, 0.0, 100.0, false, false,
         "attached: length between the mounting points retracted (0 = the markers' distance at the start - x0, "
         "at least stroke + 1.5 bore)"},
        {"pA0", "Pa", 101325.0, 0.0, 1e8, true, false, "initial absolute pressure in chamber A"},
        {"T0", "K", 293.15, 0.0, 2000.0, true, false, "initial gas temperature"},
        {"hA_A", "W/K", 0.0, 0.0, 1e6, false, false, "heat-transfer coefficient times wall area, chamber A"},
        {"T_wall", "K", 293.15, 0.0, 2000.0, true, false, "barrel wall temperature"},
        {"isothermal", "1", 0.0, 0.0, 1.0, false, false, "1: chambers stay at T_wall"},
        // Catalogue data only (no effect on the physics): key results compare
        // each arrival energy with it.
        {"E_cushion_max", "J", 0.0, 0.0, 1e9, false, false,
         "energy the end-position cushioning may absorb, from the catalogue (0: not given)"},
    };
    if (dbl) {
      t.params.insert(t.params.end(), {
          {"V0_B", "m3", 5e-6, 0.0, 1.0, true, false, "dead volume of chamber B at x = stroke"},
          {"pB0", "Pa", 101325.0, 0.0, 1e8, true, false, "initial absolute pressure in chamber B"},
          {"hA_B", "W/K", 0.0, 0.0, 1e6, false, false, "heat-transfer coefficient times wall area, chamber B"},
          {"cushion_length_A", "m", 0.0, 0.0, 1.0, false, false, "cushion length at the retracted end (0 = none)"},
          {"cushion_length_B", "m", 0.0, 0.0, 1.0, false, false, "cushion length at the extended end (0 = none)"},
          {"C_cushion_A", "m3/(s Pa)", 2e-10, 0.0, 1e-3, false, false, "cushion throttle conductance, A side"},
          {"C_cushion_B", "m3/(s Pa)", 2e-10, 0.0, 1e-3, false, false, "cushion throttle conductance, B side"},
          {"C_port", "m3/(s Pa)", 1e-7, 0.0, 1e-3, true, false, "port passage conductance (used with cushioning)"},
          {"V_port", "m3", 1e-6, 0.0, 1.0, true, false,
           "volume of the port bore in front of the cushion (used with cushioning)"},
      });
    } else {
      t.params.insert(t.params.end(), {
          {"k_spring", "N/m", 500.0, 0.0, 1e9, false, false, "return spring rate"},
          {"F_spring0", "N", 20.0, 0.0, 1e9, false, false, "spring preload at x = 0"},
      });
    }
    t.channels = {{"x", "m", "piston position"}, {"v", "m/s", "piston velocity"},
                  {"a", "m/s2", "piston acceleration"}, {"pA", "Pa", "chamber A pressure"},
                  {"TA", "K", "chamber A temperature"}};
    if (dbl) t.channels.insert(t.channels.end(), {{"pB", "Pa", "chamber B pressure"}, {"TB", "K", "chamber B temperature"}});
    t.channels.insert(t.channels.end(),
                      {{"F_pressure", "N", "net pneumatic force incl. ambient pressure on the rod"},
                       {"F_friction", "N", "friction force (opposes motion)"},
                       {"F_stop", "N", "end-stop contact force"},
                       {"W_gas", "J", "work done by the gas on the piston since t = 0"}});
    t.create = [k](const Component& c) { return std::make_unique<Cylinder>(c, k); };
    t.check_data = checkData;
    return t;
  }

  void setup(SystemBuilder& b) override {
    if (kind_ != Kind::SingleSpring && Arod_ < 0) throw std::runtime_error("params.rod: rod diameter must be smaller than the bore");
    if (AB_ <= 0) throw std::runtime_error("params.rod: rod diameter must be smaller than the bore");
    pAmb_ = b.ambientPressure();
    // Co-simulation: an attached cylinder is split between the two Systems
    // (element/backplane.h). The mechanical side has no chambers.
    coupling_.begin(b);
    if (coupling_.mechanicalSide()) {
      setupMechanicalSide(b);
      return;
    }
    portA_ = b.port("A");
    chA_ = LcA_ > 0 ? b.internalNode("A") : (portA_ >= 0 ? portA_ : b.internalNode("A"));
    // With cushioning the port bore is a volume of its own in front of the
    // cushion passage; without it the line there would be a volume-less
    // junction held by a large passage conductance, which stalls Newton.
    if (LcA_ > 0) b.capacity(portA_, id() + ".portA", Vport_, pA0_, T0_, iso_, Tw_);
    b.capacity(chA_, id() + ".A", V0A_ + AA_ * x0_, pA0_, T0_, iso_, Tw_);
    if (kind_ != Kind::SingleSpring) {
      portB_ = b.port("B");
      chB_ = LcB_ > 0 ? b.internalNode("B") : (portB_ >= 0 ? portB_ : b.internalNode("B"));
      if (LcB_ > 0) b.capacity(portB_, id() + ".portB", Vport_, pB0_, T0_, iso_, Tw_);
      b.capacity(chB_, id() + ".B", V0B_ + AB_ * (L_ - x0_), pB0_, T0_, iso_, Tw_);
    }
    // Contact onset at both stops: IDA restarts there instead of failing
    // steps (the co-simulation's pneumatic side has no stops).
    if (!coupling_.pneumaticSide()) b.roots(2);
    declareCoordinate(b);
    sW_ = b.state("W_gas", "J", StateKind::Differential, 0.0, 1e-6, "dW/dt - (pA dV_A/dt + pB dV_B/dt)");
    for (const auto& [q, u] : std::vector<std::pair<const char*, const char*>>{
             {"x", "m"}, {"v", "m/s"}, {"a", "m/s2"}, {"pA", "Pa"}, {"TA", "K"}})
      b.channel(q, u);
    if (kind_ != Kind::SingleSpring) {
      b.channel("pB", "Pa");
      b.channel("TB", "K");
    }
    for (const char* q : {"F_pressure", "F_friction", "F_stop"}) b.channel(q, "N");
    b.channel("W_gas", "J");
    b.publish("x", [this](const Eval& e) { return e.y[sx_]; }, true);
    b.publish("v", [this](const Eval& e) { return e.y[sv_]; }, true);
    b.publish("a", [this](const Eval& e) { return e.yp[sv_]; });
    b.publish("pA", [this](const Eval& e) { return e.p(chA_); });
    if (chB_ >= 0) b.publish("pB", [this](const Eval& e) { return e.p(chB_); });
    b.publish("F_pressure", [this](const Eval&) { return Fp_; });
    declareStructure(b);
  }

  // The Jacobian's structure row by row (see Footprint::blocks): a chamber
  // and its port bore read each other, x and v; the gas work reads v and
  // the chamber pressures; x, v read the mechanism (or themselves); the
  // axial force on the mechanism reads x, v, the chambers and the parts.
  // Declared whole, the two chambers no longer share every row, and the
  // difference quotients need fewer colours.
  void declareStructure(SystemBuilder& b) const {
    auto nodesOf = [](int ch, int port) {
      std::vector<int> v{ch};
      if (port >= 0 && port != ch) v.push_back(port);
      return v;
    };
    const std::vector<int> xv{sx_, sv_};
    std::vector<int> chambers{chA_};
    if (chB_ >= 0) chambers.push_back(chB_);
    for (const auto& nodes : {nodesOf(chA_, portA_), chB_ >= 0 ? nodesOf(chB_, portB_) : std::vector<int>{}})
      if (!nodes.empty()) b.block({{}, nodes, xv, nodes});
    b.block({{sW_}, {}, {sW_, sv_}, chambers});
    if (coupling_.pneumaticSide()) {
      b.block({xv, {}, xv, {}});
    } else if (coupling_.onMechanism()) {
      // The force's line (or the joint's axis) turns with the parts: the
      // rows it feeds read their states too.
      std::vector<int> cols = xv;
      cols.insert(cols.end(), coupling_.reads().begin(), coupling_.reads().end());
      b.block({xv, {}, cols, {}});
      b.block({coupling_.writes(), {}, cols, chambers});
    } else {
      b.block({xv, {}, xv, chambers});
    }
  }

  void evaluate(Eval& e) override {
    // Co-simulated: the volumes follow the backplane's motion directly (a
    // function of t alone), the states x, v only mirror it.
    double x, v;
    coupling_.motion(e, x, v);
    Ff_ = friction(v);
    Fstop_ = stopForce(-x, -v) - stopForce(x - L_, v);
    if (coupling_.mechanicalSide()) {
      coupling_.mechanismResiduals(e);
      return;
    }
    const double pA = e.p(chA_);
    e.volume(chA_, V0A_ + AA_ * x, AA_ * v);
    if (LcA_ > 0) e.volume(portA_, Vport_, 0.0);
    if (LcB_ > 0) e.volume(portB_, Vport_, 0.0);
    double work = pA * AA_ * v;
    Fp_ = pressureForce(e) - springForce(x);
    if (kind_ != Kind::SingleSpring) {
      const double pB = e.p(chB_);
      e.volume(chB_, V0B_ + AB_ * (L_ - x), -AB_ * v);
      work -= pB * AB_ * v;
      if (chA_ != portA_) e.flow(portA_, chA_, cushionFlow(e, portA_, chA_, x, LcA_, CcA_));
      if (chB_ != portB_) e.flow(portB_, chB_, cushionFlow(e, portB_, chB_, L_ - x, LcB_, CcB_));
      if (!iso_) e.heat(chB_, hA_B_ * (Tw_ - e.T(chB_)));
    }
    if (!iso_) e.heat(chA_, hA_A_ * (Tw_ - e.T(chA_)));
    coupling_.residuals(e, x, v, [&] { return (Fp_ - Fload_ - m_ * gsin_ - Ff_ + Fstop_) / m_; });
    e.res[sW_] = e.yp[sW_] - work;
  }

  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    if (coupling_.pneumaticSide()) return;  // none registered
    // A piston resting on a stop sits there to rounding: x is then the
    // Newton's noise (1e-21 m or less) and its sign flips at every solve,
    // each flip a root and a restart (the reduced formulation's tool changer
    // at rel_tol 1e-9 collapsed its step to 1e-19 s at t = 0 so). Such
    // noise is a root exactly at zero, which the integrator sets aside until
    // the piston leaves it.
    const double snap = 1e-15 * L_, x = e.y[sx_];
    g[0] = std::abs(x) <= snap ? 0.0 : x;
    g[1] = std::abs(L_ - x) <= snap ? 0.0 : L_ - x;
  }

  void output(const Eval& e, double* ch) override {
    int k = 0;
    ch[k++] = e.y[sx_];
    ch[k++] = e.y[sv_];
    ch[k++] = e.yp[sv_];
    if (coupling_.mechanicalSide()) {
      ch[k++] = Ff_;
      ch[k++] = Fstop_;
      return;
    }
    ch[k++] = e.p(chA_);
    ch[k++] = e.T(chA_);
    if (kind_ != Kind::SingleSpring) {
      ch[k++] = e.p(chB_);
      ch[k++] = e.T(chB_);
    }
    ch[k++] = Fp_;
    ch[k++] = Ff_;
    ch[k++] = Fstop_;
    ch[k++] = e.y[sW_];
  }

 private:
  // x, v for the coupling's mode (free, attached, or a co-simulation side).
  void declareCoordinate(SystemBuilder& b) {
    coupling_.declareStates(
        b, x0_, [this](const Eval& e) { return pressureForce(e); }, [this](const Eval& e) { return axialForce(e); });
    sx_ = coupling_.qState();
    sv_ = coupling_.wState();
  }

  // The co-simulation's mechanical side: the mechanism drives x, v; the
  // force on it is the backplane's interpolated pressure force plus the
  // friction, stop, spring and load forces evaluated here at every request.
  void setupMechanicalSide(SystemBuilder& b) {
    b.roots(2);
    declareCoordinate(b);
    for (const auto& [q, u] : std::vector<std::pair<const char*, const char*>>{
             {"x", "m"}, {"v", "m/s"}, {"a", "m/s2"}, {"F_friction", "N"}, {"F_stop", "N"}})
      b.channel(q, u);
    b.publish("x", [this](const Eval& e) { return e.y[sx_]; }, true);
    b.publish("v", [this](const Eval& e) { return e.y[sv_]; }, true);
  }

  // Pneumatic force along the axis (positive extends), incl. ambient
  // pressure on the rod.
  double pressureForce(const Eval& e) const {
    if (kind_ == Kind::SingleSpring)  // rod side vented: ambient on the annulus balances ambient on the piston
      return (e.p(chA_) - pAmb_) * AA_;
    return e.p(chA_) * AA_ - pAmb_ * Arod_ - e.p(chB_) * AB_;
  }
  double springForce(double x) const { return kind_ == Kind::SingleSpring ? kSpring_ * x + F0Spring_ : 0.0; }
  double friction(double v) const {
    return (Fc_ + (Fs_ - Fc_) * std::exp(-(v / vs_) * (v / vs_))) * std::tanh(v / veps_) + cv_ * v;
  }
  // Force along the axis on the rod end (positive extends), for the
  // mechanism: a pure function of the evaluation, like evaluate's forces.
  // On the co-simulation's mechanical side the pressure force is the
  // backplane's interpolation; friction and stops are always evaluated
  // from the current x, v (seed 000 sec. 6.4: stiff, never held).
  double axialForce(const Eval& e) const {
    const double x = e.y[sx_], v = e.y[sv_];
    const double Fp = coupling_.pressureForce(e);
    return Fp - springForce(x) - Fload_ - friction(v) + stopForce(-x, -v) - stopForce(x - L_, v);
  }
  // Contact force pushing back out of a stop; pen > 0 is penetration and
  // vpen its rate.
  double stopForce(double pen, double vpen) const {
    if (pen <= 0.0) return 0.0;
    constexpr double dmax = 1e-5;
    return std::max(0.0, kStop_ * pen + cStop_ * flow::smoothstep(pen / dmax) * vpen);
  }
  // Flow from the port net into a cushioned chamber; `dist` is the distance
  // of the piston from the end this chamber cushions.
  double cushionFlow(const Eval& e, int port, int ch, double dist, double Lc, double Cc) const {
    if (port < 0) return 0.0;
    constexpr double ramp = 1e-3;  // m over which the spigot enters the seal
    const double open = flow::smoothstep((dist - Lc + ramp) / ramp);
    const double dp = e.p(port) - e.p(ch);
    const double check = flow::smoothstep(dp / 2000.0);  // free inflow through the cushion check valve
    const double C = Cc + (Cport_ - Cc) * std::max(open, check);
    return flow::iso6358(C, 0.3, 0.5, e.p(port), e.T(port), e.p(ch), e.T(ch));
  }

  Kind kind_;
  ActuatorCoupling coupling_;
  double L_, AA_, AB_, Arod_, V0A_, V0B_ = 0, m_, Fload_, gsin_;
  double Fc_, Fs_, vs_, cv_, veps_, kStop_, cStop_, x0_, pA0_, pB0_ = 0, T0_, hA_A_, hA_B_ = 0, Tw_;
  bool iso_;
  double kSpring_ = 0, F0Spring_ = 0;
  double LcA_ = 0, LcB_ = 0, CcA_ = 0, CcB_ = 0, Cport_ = 0, Vport_ = 0;
  double pAmb_ = 101325.0;
  int portA_ = -1, portB_ = -1, chA_ = -1, chB_ = -1;
  int sx_ = -1, sv_ = -1, sW_ = -1;
  double Fp_ = 0, Ff_ = 0, Fstop_ = 0;
  CylinderLength length_;
};

struct CylinderDouble {
  static ComponentType declare() { return Cylinder::declare(Cylinder::Kind::Double); }
};
struct CylinderThroughRod {
  static ComponentType declare() { return Cylinder::declare(Cylinder::Kind::ThroughRod); }
};
struct CylinderSingle {
  static ComponentType declare() { return Cylinder::declare(Cylinder::Kind::SingleSpring); }
};
PM_REGISTER(CylinderDouble)
PM_REGISTER(CylinderThroughRod)
PM_REGISTER(CylinderSingle)

}  // namespace pm
