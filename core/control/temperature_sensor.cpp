// Temperature sensor on a pneumatic net: reads the gas temperature of the node
// its port joins (an ideal, instantaneous probe: no volume, no flow, no
// thermal lag). Publishes "<id>.T".
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

namespace pm {

class TemperatureSensor : public Element {
 public:
  explicit TemperatureSensor(const Component& c) : Element(c.id) {}
  static ComponentType declare() {
    ComponentType t;
    t.name = "temperature_sensor";
    t.category = "Sensors";
    t.symbol = "temperature_sensor";
    t.description = "Temperature sensor: gas temperature of the net at port 1 (ideal probe, no lag)";
    t.ports = {{"1", Domain::Pneumatic, "measuring port"}};
    t.channels = {{"T", "K", "gas temperature at port 1"}};
    t.create = [](const Component& c) { return std::make_unique<TemperatureSensor>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    node_ = b.port("1");
    b.channel("T", "K");
    b.publish("T", [this](const Eval& e) { return e.T(node_); });
  }
  void evaluate(Eval&) override {}
  void output(const Eval& e, double* ch) override { ch[0] = e.T(node_); }

 private:
  int node_ = -1;  // -1 (unconnected): reads 0 K
};
PM_REGISTER(TemperatureSensor)

}  // namespace pm
