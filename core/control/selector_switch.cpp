// A hand-operated selector switch with detent (interactive mode): each press
// on its symbol moves it to the next of its `positions` positions (after the
// last, back to 0); out is the position. With two positions it is an on/off
// toggle switch. Outside interactive runs it stays in its initial position.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

#include <cmath>
#include <stdexcept>

namespace pm {

class SelectorSwitch : public Element {
 public:
  explicit SelectorSwitch(const Component& c) : Element(c.id) {
    Params P(c);
    const double n = P("positions"), p0 = P("initial");
    if (n != std::round(n)) throw std::runtime_error("params.positions: must be a whole number of positions");
    if (p0 != std::round(p0) || p0 > n - 1)
      throw std::runtime_error("params.initial: must be a whole position from 0 to positions - 1");
    positions_ = int(n);
    pos_ = int(p0);
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "selector_switch";
    t.category = "Signals";
    t.symbol = t.name;
    t.description = "Selector switch with detent, operated by hand in interactive runs: out = position (0, 1, ...)";
    t.params = {{"positions", "1", 2.0, 2.0, 12.0, false, false, "number of positions (2: on/off toggle switch)"},
                {"initial", "1", 0.0, 0.0, 11.0, false, false, "position at the start"}};
    t.channels = {{"out", "1", "switch position"}};
    t.create = [](const Component& c) { return std::make_unique<SelectorSwitch>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.channel("out", "1");
    b.publish("out", [this](const Eval&) { return double(pos_); }, true);
  }
  void evaluate(Eval&) override {}
  void output(const Eval&, double* ch) override { ch[0] = pos_; }
  // A press moves it on; the release does nothing (detent).
  bool operate(double value) override {
    if (value <= 0.5) return false;
    pos_ = (pos_ + 1) % positions_;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(pos_);
    return true;
  }

 private:
  int positions_ = 2;
  int pos_ = 0;
};
PM_REGISTER(SelectorSwitch)

}  // namespace pm
