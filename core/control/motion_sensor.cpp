// Position and velocity sensors: read a mechanical quantity of another
// component by reference (OHC-Sim's copy-and-paste sensor, seed 003), e.g.
// "cyl1.x" or "sr1.omega", and publish it scaled as a signal for switches,
// sequences and controllers: out = gain * (value - offset).
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

namespace pm {

namespace {

class MotionSensor : public Element {
 public:
  MotionSensor(const Component& c, const char* input) : Element(c.id), comp_(c), inputName_(input) {
    Params P(c);
    gain_ = P("gain");
    offset_ = P("offset");
  }

  static ComponentType declare(bool position) {
    ComponentType t;
    t.name = position ? "position_sensor" : "velocity_sensor";
    t.category = "Sensors";
    t.symbol = t.name;
    const std::string q = position ? "position" : "velocity";
    const std::string unit = position ? "m" : "m/s";
    t.description = "Measures the " + q + " of an actuator (e.g. \"cyl1." + (position ? "x" : "v") +
                    "\"): out = gain (value - offset)";
    t.params = {{"gain", "1", 1.0, -1e12, 1e12, false, false, "output per unit of the measured quantity"},
                {"offset", unit, 0.0, -1e6, 1e6, false, false, "value that reads as zero"}};
    t.inputs = {{q, "the measured quantity, \"<component id>.<channel>\"", true}};
    t.channels = {{"out", "1", "sensor output gain (value - offset)"}};
    const char* input = position ? "position" : "velocity";
    t.create = [input](const Component& c) { return std::make_unique<MotionSensor>(c, input); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    b.input(in_, std::string("inputs.") + inputName_, comp_.inputs.at(inputName_));
    b.channel("out", "1");
    b.publish("out", [this](const Eval& e) { return value(e); });
  }
  void evaluate(Eval&) override {}
  void output(const Eval& e, double* ch) override { ch[0] = value(e); }

 private:
  double value(const Eval& e) const { return gain_ * (in_(e) - offset_); }
  Component comp_;
  const char* inputName_;
  SignalInput in_;
  double gain_ = 1.0, offset_ = 0.0;
};

struct PositionSensor {
  static ComponentType declare() { return MotionSensor::declare(true); }
};
struct VelocitySensor {
  static ComponentType declare() { return MotionSensor::declare(false); }
};

}  // namespace

PM_REGISTER(PositionSensor)
PM_REGISTER(VelocitySensor)

}  // namespace pm
