// Pressure sensor (transducer) on a pneumatic net: reads the absolute pressure
// of the node its port joins; no volume and no flow of its own, so it does not
// change the circuit it measures. Publishes "<id>.p" (absolute) and
// "<id>.p_gauge" for switches, timers and sequences.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

namespace pm {

class PressureSensor : public Element {
 public:
  explicit PressureSensor(const Component& c) : Element(c.id) {}
  static ComponentType declare() {
    ComponentType t;
    t.name = "pressure_sensor";
    t.category = "Sensors";
    t.symbol = "pressure_sensor";
    t.description = "Pressure sensor: absolute and gauge pressure of the net at port 1 (no volume, no flow)";
    t.ports = {{"1", Domain::Pneumatic, "measuring port"}};
    t.channels = {{"p", "Pa", "absolute pressure at port 1"},
                  {"p_gauge", "Pa", "gauge pressure (p - ambient pressure)"}};
    t.create = [](const Component& c) { return std::make_unique<PressureSensor>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    node_ = b.port("1");
    pAmb_ = b.ambientPressure();
    b.channel("p", "Pa");
    b.channel("p_gauge", "Pa");
    b.publish("p", [this](const Eval& e) { return e.p(node_); });
    b.publish("p_gauge", [this](const Eval& e) { return e.p(node_) - pAmb_; });
  }
  void evaluate(Eval&) override {}
  void output(const Eval& e, double* ch) override {
    ch[0] = e.p(node_);
    ch[1] = e.p(node_) - pAmb_;
  }

 private:
  int node_ = -1;  // -1 (unconnected): reads 0 Pa absolute
  double pAmb_ = 101325.0;
};
PM_REGISTER(PressureSensor)

}  // namespace pm
