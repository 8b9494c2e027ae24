// Quick exhaust valve: a diaphragm between inlet 1, cylinder port 2 and a
// large exhaust 3 mounted directly at the cylinder, so the cylinder exhausts
// on the spot instead of back through the line and the directional valve.
//   - p1 >= p2 (filling, or holding at supply pressure): the diaphragm seals
//     the exhaust; 1 -> 2 is fully open, 3 is closed.
//   - p2 - p1 >= dp_band (the line at 1 was exhausted): the diaphragm seals
//     the inlet; 2 -> 3 is fully open, 1 -> 2 is closed.
//   - in between the diaphragm position x = smoothstep((p2 - p1) / dp_band)
//     blends the two paths: C_12 (1 - x) and C_23 x (ISO 6358 each).
// The band lies entirely on the p2 > p1 side so the exhaust stays shut while
// the cylinder is held at supply pressure (no standing leak to atmosphere).
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

namespace pm {

namespace {

class QuickExhaustValve : public Element {
 public:
  explicit QuickExhaustValve(const Component& c) : Element(c.id) {
    Params P(c);
    C12_ = P("C_12"), b12_ = P("b_12"), C23_ = P("C_23"), b23_ = P("b_23"), band_ = P("dp_band");
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "quick_exhaust_valve";
    t.category = "Non-return valves";
    t.symbol = "quick_exhaust_valve";
    t.description = "Quick exhaust valve: fills 1 -> 2, exhausts 2 -> 3 directly when the inlet pressure drops";
    t.ports = {{"1", Domain::Pneumatic, "inlet (from the directional valve)"},
               {"2", Domain::Pneumatic, "outlet to the cylinder"},
               {"3", Domain::Pneumatic, "exhaust (vents when left open)", true}};
    t.params = {
        {"C_12", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance of the inlet path 1 -> 2"},
        {"b_12", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the inlet path"},
        {"C_23", "m3/(s Pa)", 2e-8, 0.0, 1e-3, true, false, "sonic conductance of the exhaust path 2 -> 3"},
        {"b_23", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the exhaust path"},
        {"dp_band", "Pa", 5e3, 0.0, 1e6, true, false,
         "excess p2 - p1 over which the diaphragm moves from inlet-open to exhaust-open"},
    };
    t.channels = {{"q_12", "kg/s", "mass flow 1 -> 2"},
                  {"q_23", "kg/s", "mass flow 2 -> 3 (exhaust)"},
                  {"x", "1", "diaphragm position: 0 inlet open / exhaust shut .. 1 exhaust open / inlet shut"}};
    t.create = [](const Component& c) { return std::make_unique<QuickExhaustValve>(c); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    n3_ = b.port("3");
    b.channel("q_12", "kg/s");
    b.channel("q_23", "kg/s");
    b.channel("x", "1");
    b.publish("x", [this](const Eval&) { return x_; });
  }

  void evaluate(Eval& e) override {
    q12_ = q23_ = x_ = 0.0;
    if (n2_ < 0) return;
    const double p2 = e.p(n2_), T2 = e.T(n2_);
    // A plugged inlet reads as 0 Pa: the diaphragm then keeps the exhaust open.
    const double p1 = n1_ < 0 ? 0.0 : e.p(n1_);
    x_ = flow::smoothstep((p2 - p1) / band_);
    if (n1_ >= 0 && x_ < 1.0) q12_ = flow::iso6358((1.0 - x_) * C12_, b12_, 0.5, p1, e.T(n1_), p2, T2);
    if (n3_ >= 0 && x_ > 0.0) q23_ = flow::iso6358(x_ * C23_, b23_, 0.5, p2, T2, e.p(n3_), e.T(n3_));
    e.flow(n1_, n2_, q12_);
    e.flow(n2_, n3_, q23_);
  }

  void output(const Eval&, double* ch) override {
    ch[0] = q12_;
    ch[1] = q23_;
    ch[2] = x_;
  }

 private:
  double C12_, b12_, C23_, b23_, band_;
  int n1_ = -1, n2_ = -1, n3_ = -1;
  double q12_ = 0.0, q23_ = 0.0, x_ = 0.0;
};

}  // namespace

PM_REGISTER(QuickExhaustValve)

}  // namespace pm
