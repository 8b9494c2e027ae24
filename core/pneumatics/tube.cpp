// Pneumatic tube (hose, pipe) as one lumped segment: a capacity at each end
// and a flow resistance between them.
//   - Volume V = pi d^2 / 4 * L; half of it is added to the net of each end
//     (builder.capacity), so a tube between a valve and a cylinder adds its
//     air to the valve-side and cylinder-side volumes. A plugged end gets a
//     volume node of its own. An end on a boundary net (supply, atmosphere)
//     has its pressure imposed, so that half-volume is not a state there.
//   - Flow: compressible flow through an effective area (seed 003 eqs. 2-3,
//     flow::orifice) with the wall friction lumped into it,
//         A_e = A / sqrt(1 + lambda L / d),   A = pi d^2 / 4.
//     This is the incompressible pipe loss dp = (1 + lambda L/d) rho u^2 / 2
//     (one dynamic head at the inlet plus Darcy-Weisbach friction) written as
//     one orifice. APPROXIMATION: it ignores the Fanno compressibility along
//     the tube, the Reynolds dependence of lambda (default 0.03 is a typical
//     turbulent value for smooth plastic tubing; laminar flow would need
//     lambda = 64/Re), and wave propagation (valid while the tube is short
//     compared with the pressure wave length: L << c * time scale).
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <cmath>
#include <numbers>

namespace pm {

namespace {

class Tube : public Element {
 public:
  explicit Tube(const Component& c) : Element(c.id) {
    Params P(c);
    L_ = P("L"), d_ = P("d");
    const double A = std::numbers::pi * d_ * d_ / 4.0;
    V_ = A * L_;
    Ae_ = A / std::sqrt(1.0 + P("lambda") * L_ / d_);
    p0_ = P("p0"), T0_ = P("T0"), hA_ = P("hA"), Tw_ = P("T_wall");
    iso_ = P("isothermal") > 0.5;
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "tube";
    t.category = "Volumes";
    t.symbol = "tube";
    t.description = "Tube: half its volume at each end, friction as an effective orifice area";
    t.ports = {{"1", Domain::Pneumatic, "end 1"}, {"2", Domain::Pneumatic, "end 2"}};
    t.params = {
        {"L", "m", 1.0, 0.0, 1e4, true, false, "length"},
        {"d", "m", 4e-3, 0.0, 1.0, true, false, "inner diameter"},
        {"lambda", "1", 0.03, 0.0, 10.0, false, false,
         "Darcy friction factor (0.03: approximate turbulent value for smooth tubing)"},
        {"p0", "Pa", 101325.0, 0.0, 1e8, true, false, "initial absolute pressure of the air in the tube"},
        {"T0", "K", 293.15, 0.0, 2000.0, true, false, "initial temperature of the air in the tube"},
        {"hA", "W/K", 0.0, 0.0, 1e6, false, false, "wall heat-transfer coefficient times inner area, whole tube"},
        {"T_wall", "K", 293.15, 0.0, 2000.0, true, false, "tube wall temperature"},
        {"isothermal", "1", 0.0, 0.0, 1.0, false, false,
         "1: the end nets stay at T_wall (makes the whole net isothermal)"},
    };
    t.channels = {{"q", "kg/s", "mass flow from 1 to 2"}, {"qn", "Nl/min", "standard volume flow 1 -> 2 (ANR)"}};
    t.create = [](const Component& c) { return std::make_unique<Tube>(c); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    n1_ = b.port("1");
    n2_ = b.port("2");
    if (n1_ < 0) n1_ = b.internalNode("end1");
    if (n2_ < 0) n2_ = b.internalNode("end2");
    b.capacity(n1_, id() + ".1", V_ / 2.0, p0_, T0_, iso_, Tw_);
    b.capacity(n2_, id() + ".2", V_ / 2.0, p0_, T0_, iso_, Tw_);
    b.channel("q", "kg/s");
    b.channel("qn", "Nl/min");
    b.publish("q", [this](const Eval&) { return q_; });
  }

  void evaluate(Eval& e) override {
    e.volume(n1_, V_ / 2.0, 0.0);
    e.volume(n2_, V_ / 2.0, 0.0);
    q_ = flow::orifice(Ae_, e.p(n1_), e.T(n1_), e.p(n2_), e.T(n2_));
    e.flow(n1_, n2_, q_);
    if (!iso_) {  // each half of the wall serves its end's volume
      e.heat(n1_, 0.5 * hA_ * (Tw_ - e.T(n1_)));
      e.heat(n2_, 0.5 * hA_ * (Tw_ - e.T(n2_)));
    }
  }

  void output(const Eval&, double* ch) override {
    ch[0] = q_;
    ch[1] = gas::kgPerSToNlPerMin(q_);
  }

 private:
  double L_, d_, V_, Ae_, p0_, T0_, hA_, Tw_;
  bool iso_;
  int n1_ = -1, n2_ = -1;
  double q_ = 0.0;
};

}  // namespace

PM_REGISTER(Tube)

}  // namespace pm
