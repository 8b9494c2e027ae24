// Reservoir (air tank): a fixed volume whose gas has pressure and temperature
// states (mass and energy balance, seed 000), with wall heat transfer
// h*A*(T_wall - T) or an isothermal option.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/gas.h"

namespace pm {

class Reservoir : public Element {
 public:
  explicit Reservoir(const Component& c) : Element(c.id) {
    Params P(c);
    V_ = P("V"), p0_ = P("p0"), T0_ = P("T0"), hA_ = P("hA"), Tw_ = P("T_wall");
    iso_ = P("isothermal") > 0.5;
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "reservoir";
    t.category = "Volumes";
    t.symbol = "reservoir";
    t.description = "Air reservoir of fixed volume";
    t.ports = {{"1", Domain::Pneumatic, "port"}};
    t.params = {
        {"V", "m3", 1e-3, 0.0, 1e3, true, false, "volume"},
        {"p0", "Pa", 101325.0, 0.0, 1e8, true, false, "initial absolute pressure"},
        {"T0", "K", 293.15, 0.0, 2000.0, true, false, "initial temperature"},
        {"hA", "W/K", 0.0, 0.0, 1e6, false, false, "wall heat-transfer coefficient times area (0 = adiabatic)"},
        {"T_wall", "K", 293.15, 0.0, 2000.0, true, false, "wall temperature"},
        {"isothermal", "1", 0.0, 0.0, 1.0, false, false, "1: gas stays at T_wall (infinite heat transfer)"},
    };
    t.channels = {{"p", "Pa", "absolute pressure"}, {"T", "K", "gas temperature"}, {"m", "kg", "air mass"},
                  {"Q", "W", "heat flow from the wall into the gas"}};
    t.create = [](const Component& c) { return std::make_unique<Reservoir>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    node_ = b.port("1");
    if (node_ < 0) node_ = b.internalNode("gas");  // an unconnected tank still exists
    b.capacity(node_, id(), V_, p0_, T0_, iso_, Tw_);
    b.channel("p", "Pa");
    b.channel("T", "K");
    b.channel("m", "kg");
    b.channel("Q", "W");
    b.publish("p", [this](const Eval& e) { return e.p(node_); });
    b.publish("T", [this](const Eval& e) { return e.T(node_); });
  }
  void evaluate(Eval& e) override {
    e.volume(node_, V_, 0.0);
    Q_ = iso_ ? 0.0 : hA_ * (Tw_ - e.T(node_));
    e.heat(node_, Q_);
  }
  void output(const Eval& e, double* ch) override {
    ch[0] = e.p(node_);
    ch[1] = e.T(node_);
    ch[2] = e.p(node_) * V_ / (gas::R * e.T(node_));
    ch[3] = Q_;
  }

 private:
  double V_, p0_, T0_, hA_, Tw_;
  bool iso_;
  int node_ = -1;
  double Q_ = 0.0;
};
PM_REGISTER(Reservoir)

}  // namespace pm
