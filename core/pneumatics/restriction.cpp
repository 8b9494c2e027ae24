// Fixed and adjustable restrictions between two ports: ISO 6358 (C, b, m),
// orifice with an effective area (seed 003 eqs. 2-3), adjustable throttle, and
// the silencer (an ISO 6358 restriction to the atmosphere).
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <cmath>
#include <numbers>

namespace pm {

namespace {

const ParamDecl kC{"C", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false,
                   "sonic conductance (1e-8 m3/(s Pa) = 1 dm3/(s bar))"};
const ParamDecl kB{"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio"};
const ParamDecl kM{"m", "1", 0.5, 0.0, 1.0, true, false, "subsonic index (ISO 6358-1:2013; 0.5 classic)"};

// Shared runtime of every two-port restriction: a flow 1 -> 2 from a law.
class TwoPortFlow : public Element {
 public:
  using Element::Element;
  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    b.channel("q", "kg/s");
    b.channel("qn", "Nl/min");
    b.publish("q", [this](const Eval&) { return q_; });
    b.publish("qn", [this](const Eval&) { return gas::kgPerSToNlPerMin(q_); });
  }
  void evaluate(Eval& e) override {
    q_ = (n1_ < 0 || n2_ < 0) ? 0.0 : law(e.p(n1_), e.T(n1_), e.p(n2_), e.T(n2_));
    e.flow(n1_, n2_, q_);
  }
  void output(const Eval&, double* ch) override {
    ch[0] = q_;
    ch[1] = gas::kgPerSToNlPerMin(q_);
  }

 protected:
  virtual double law(double p1, double T1, double p2, double T2) const = 0;
  int n1_ = -1, n2_ = -1;
  double q_ = 0.0;
};

std::vector<PortDecl> twoPorts() {
  return {{"1", Domain::Pneumatic, "port 1"}, {"2", Domain::Pneumatic, "port 2"}};
}
std::vector<ChannelDecl> flowChannels() {
  return {{"q", "kg/s", "mass flow from 1 to 2"}, {"qn", "Nl/min", "standard volume flow (ANR, ISO 8778)"}};
}

}  // namespace

class Iso6358Restriction : public TwoPortFlow {
 public:
  explicit Iso6358Restriction(const Component& c) : TwoPortFlow(c.id) {
    Params P(c);
    C_ = P("C"), b_ = P("b"), m_ = P("m");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "restriction";
    t.category = "Restrictions";
    t.symbol = "restriction";
    t.description = "Fixed restriction characterised by ISO 6358 sonic conductance C and critical ratio b";
    t.ports = twoPorts();
    t.params = {kC, kB, kM};
    t.channels = flowChannels();
    t.create = [](const Component& c) { return std::make_unique<Iso6358Restriction>(c); };
    return t;
  }

 protected:
  double law(double p1, double T1, double p2, double T2) const override {
    return flow::iso6358(C_, b_, m_, p1, T1, p2, T2);
  }
  double C_, b_, m_;
};
PM_REGISTER(Iso6358Restriction)

// Flow sensor (flow meter) in line between ports 1 and 2. A real meter has a
// small pressure drop, so it is an ISO 6358 restriction with a large sonic
// conductance (default 1e-6 m3/(s Pa) = 100 dm3/(s bar), two orders above a
// typical valve): it barely loads the circuit while keeping both ports
// distinct nets. Publishes "<id>.q" (kg/s, 1 -> 2) and "<id>.qn" (Nl/min ANR).
struct FlowSensor {
  static ComponentType declare() {
    ComponentType t = Iso6358Restriction::declare();
    t.name = "flow_sensor";
    t.category = "Sensors";
    t.symbol = "flow_sensor";
    t.description = "In-line flow sensor: mass and standard volume flow 1 -> 2 through a low-loss ISO 6358 passage";
    t.ports[0].doc = "inlet (positive flow 1 -> 2)";
    t.ports[1].doc = "outlet";
    t.params[0].def = 1e-6;
    t.params[0].doc = "sonic conductance of the meter passage (large: low pressure drop)";
    return t;
  }
};
PM_REGISTER(FlowSensor)

class Throttle : public TwoPortFlow {
 public:
  explicit Throttle(const Component& c) : TwoPortFlow(c.id) {
    Params P(c);
    C_ = P("C_max") * P("opening"), b_ = P("b"), m_ = P("m");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "throttle";
    t.category = "Restrictions";
    t.symbol = "throttle";
    t.description = "Adjustable throttle (needle valve): C = opening * C_max";
    t.ports = twoPorts();
    ParamDecl cmax = kC;
    cmax.name = "C_max";
    cmax.doc = "sonic conductance fully open";
    t.params = {cmax, {"opening", "1", 0.5, 0.0, 1.0, false, false, "needle opening, 0 closed .. 1 fully open"}, kB, kM};
    t.channels = flowChannels();
    t.create = [](const Component& c) { return std::make_unique<Throttle>(c); };
    return t;
  }

 protected:
  double law(double p1, double T1, double p2, double T2) const override {
    return flow::iso6358(C_, b_, m_, p1, T1, p2, T2);
  }
  double C_, b_, m_;
};
PM_REGISTER(Throttle)

class Orifice : public TwoPortFlow {
 public:
  explicit Orifice(const Component& c) : TwoPortFlow(c.id) {
    Params P(c);
    Ae_ = P("Cd") * std::numbers::pi * P("d") * P("d") / 4.0;
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "orifice";
    t.category = "Restrictions";
    t.symbol = "orifice";
    t.description = "Sharp orifice, compressible flow through an effective area (Saint-Venant, seed 003 eqs. 2-3)";
    t.ports = twoPorts();
    t.params = {{"d", "m", 1e-3, 0.0, 1.0, true, false, "orifice diameter"},
                {"Cd", "1", 0.8, 0.0, 1.0, true, false, "discharge coefficient (Ae = Cd pi d^2/4)"}};
    t.channels = flowChannels();
    t.create = [](const Component& c) { return std::make_unique<Orifice>(c); };
    return t;
  }

 protected:
  double law(double p1, double T1, double p2, double T2) const override { return flow::orifice(Ae_, p1, T1, p2, T2); }
  double Ae_;
};
PM_REGISTER(Orifice)

// A silencer is a restriction whose outlet is the atmosphere.
class Silencer : public Element {
 public:
  explicit Silencer(const Component& c) : Element(c.id) {
    Params P(c);
    C_ = P("C"), b_ = P("b"), m_ = P("m");
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "silencer";
    t.category = "Restrictions";
    t.symbol = "silencer";
    t.description = "Exhaust silencer: an ISO 6358 restriction to the atmosphere";
    t.ports = {{"1", Domain::Pneumatic, "inlet"}};
    ParamDecl C = kC;
    C.def = 5e-8;
    t.params = {C, kB, kM};
    t.channels = {{"q", "kg/s", "mass flow vented"}, {"qn", "Nl/min", "standard volume flow vented"}};
    t.create = [](const Component& c) { return std::make_unique<Silencer>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    amb_ = b.internalNode("outlet");
    const double pa = b.ambientPressure(), Ta = b.ambientTemperature();
    b.boundary(amb_, [pa, Ta](double, double& p, double& T) { p = pa; T = Ta; });
    b.channel("q", "kg/s");
    b.channel("qn", "Nl/min");
  }
  void evaluate(Eval& e) override {
    q_ = n1_ < 0 ? 0.0 : flow::iso6358(C_, b_, m_, e.p(n1_), e.T(n1_), e.p(amb_), e.T(amb_));
    e.flow(n1_, amb_, q_);
  }
  void output(const Eval&, double* ch) override {
    ch[0] = q_;
    ch[1] = gas::kgPerSToNlPerMin(q_);
  }

 private:
  double C_, b_, m_;
  int n1_ = -1, amb_ = -1;
  double q_ = 0.0;
};
PM_REGISTER(Silencer)

}  // namespace pm
