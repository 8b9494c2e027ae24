// Relieving pressure regulator (pressure reducing valve with secondary
// relief): keeps the outlet pressure p2 at the set pressure p_set.
// p_set is an ABSOLUTE pressure in Pa, like every pressure in the model
// (6 bar gauge at the standard atmosphere = 701325 Pa).
// Proportional model without valve dynamics (the diaphragm is taken as fast
// compared with the circuit):
//   supply path 1 -> 2: opening o  = clamp((p_set - p2) / band, 0, 1),
//                       q_12 = iso6358(o C, b)       (both directions)
//   relief path 2 -> 3: opening o3 = clamp((p2 - p_set - deadband) / band, 0, 1),
//                       q_23 = iso6358(o3 C_relief, b_relief)
// So under a load flow q the outlet droops by band * o with o the opening
// that passes q; with 0 < p2 - p_set < deadband both paths are shut.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <algorithm>

namespace pm {

namespace {

class PressureRegulator : public Element {
 public:
  explicit PressureRegulator(const Component& c) : Element(c.id) {
    Params P(c);
    pSet_ = P("p_set"), band_ = P("band"), dead_ = P("deadband");
    C_ = P("C"), b_ = P("b"), Cr_ = P("C_relief"), br_ = P("b_relief");
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "pressure_regulator";
    t.category = "Pressure valves";
    t.symbol = "pressure_regulator";
    t.description = "Relieving pressure regulator: holds the outlet 2 at p_set (absolute), vents excess through 3";
    t.ports = {{"1", Domain::Pneumatic, "inlet (primary pressure)"},
               {"2", Domain::Pneumatic, "outlet (regulated pressure)"},
               {"3", Domain::Pneumatic, "relief exhaust (vents when left open)", true}};
    t.params = {
        {"p_set", "Pa", 401325.0, 0.0, 1e8, true, false,
         "set outlet pressure, ABSOLUTE (3 bar gauge = 401325 Pa)"},
        {"band", "Pa", 2e4, 0.0, 1e7, true, false,
         "proportional band: pressure drop below p_set that opens the supply path fully"},
        {"deadband", "Pa", 5e3, 0.0, 1e7, false, false, "excess over p_set before the relief path starts to open"},
        {"C", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance of the supply path 1 -> 2 fully open"},
        {"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the supply path"},
        {"C_relief", "m3/(s Pa)", 2e-9, 0.0, 1e-3, true, false, "sonic conductance of the relief path 2 -> 3 fully open"},
        {"b_relief", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio of the relief path"},
    };
    t.channels = {{"q", "kg/s", "mass flow 1 -> 2"},
                  {"q_relief", "kg/s", "mass flow 2 -> 3 (relief)"},
                  {"opening", "1", "supply path opening, 0 .. 1"},
                  {"relief_opening", "1", "relief path opening, 0 .. 1"},
                  {"p2", "Pa", "outlet pressure (absolute)"}};
    t.create = [](const Component& c) { return std::make_unique<PressureRegulator>(c); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    n3_ = b.port("3");
    b.channel("q", "kg/s");
    b.channel("q_relief", "kg/s");
    b.channel("opening", "1");
    b.channel("relief_opening", "1");
    b.channel("p2", "Pa");
    b.publish("q", [this](const Eval&) { return q12_; });
    b.publish("p2", [this](const Eval& e) { return e.p(n2_); });
  }

  void evaluate(Eval& e) override {
    q12_ = q23_ = o_ = o3_ = 0.0;
    if (n2_ < 0) return;
    const double p2 = e.p(n2_), T2 = e.T(n2_);
    o_ = std::clamp((pSet_ - p2) / band_, 0.0, 1.0);
    o3_ = std::clamp((p2 - pSet_ - dead_) / band_, 0.0, 1.0);
    if (n1_ >= 0 && o_ > 0.0) q12_ = flow::iso6358(o_ * C_, b_, 0.5, e.p(n1_), e.T(n1_), p2, T2);
    if (n3_ >= 0 && o3_ > 0.0) q23_ = flow::iso6358(o3_ * Cr_, br_, 0.5, p2, T2, e.p(n3_), e.T(n3_));
    e.flow(n1_, n2_, q12_);
    e.flow(n2_, n3_, q23_);
  }

  void output(const Eval& e, double* ch) override {
    ch[0] = q12_;
    ch[1] = q23_;
    ch[2] = o_;
    ch[3] = o3_;
    ch[4] = e.p(n2_);
  }

 private:
  double pSet_, band_, dead_, C_, b_, Cr_, br_;
  int n1_ = -1, n2_ = -1, n3_ = -1;
  double q12_ = 0.0, q23_ = 0.0, o_ = 0.0, o3_ = 0.0;
};

}  // namespace

PM_REGISTER(PressureRegulator)

}  // namespace pm
