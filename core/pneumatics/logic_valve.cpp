// The two pneumatic logic valves, one free shuttle between inlets 1a and 1b:
// - shuttle valve (OR): the shuttle seals the inlet with the LOWER pressure,
//   so the outlet 2 connects to the higher one (and exhausts back through it
//   when that inlet is vented);
// - two-pressure valve (AND): the higher pressure pushes the shuttle over and
//   seals its own inlet, so the outlet connects to the LOWER one and is
//   pressurised only when both inlets are.
// Shuttle position w (1: path 1a - 2 open, 0: path 1b - 2 open) moves
// smoothly over a small pressure band centred on p1a = p1b:
//   w = smoothstep(+-(p1a - p1b) / dp_band + 1/2)   (+ for OR, - for AND),
//   q_1a_2 = iso6358(w C, b),  q_1b_2 = iso6358((1 - w) C, b)   (both ways).
// At equal inlet pressures both paths are half open. A plugged inlet reads as
// 0 Pa: OR seals it off; AND connects the outlet to the plug and stays shut,
// as an AND with one input missing.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

namespace pm {

namespace {

class LogicValve : public Element {
 public:
  LogicValve(const Component& c, bool isOr) : Element(c.id), sign_(isOr ? 1.0 : -1.0) {
    Params P(c);
    C_ = P("C"), b_ = P("b"), m_ = P("m"), band_ = P("dp_band");
  }

  static ComponentType declare(bool isOr) {
    ComponentType t;
    t.name = isOr ? "shuttle_valve" : "two_pressure_valve";
    t.category = "Logic valves";
    t.symbol = t.name;
    t.description = isOr ? "Shuttle valve (OR): the outlet connects to the inlet with the higher pressure"
                         : "Two-pressure valve (AND): the outlet connects to the inlet with the lower pressure";
    t.ports = {{"1a", Domain::Pneumatic, "inlet a"},
               {"1b", Domain::Pneumatic, "inlet b"},
               {"2", Domain::Pneumatic,
                isOr ? "outlet (connected to the higher-pressure inlet)" : "outlet (connected to the lower-pressure inlet)"}};
    t.params = {
        {"C", "m3/(s Pa)", 1e-8, 0.0, 1e-3, true, false, "sonic conductance of each inlet-outlet path when open"},
        {"b", "1", 0.3, 0.0, 1.0, false, true, "critical pressure ratio"},
        {"m", "1", 0.5, 0.0, 1.0, true, false, "subsonic index (ISO 6358-1:2013; 0.5 classic)"},
        {"dp_band", "Pa", 2e3, 0.0, 1e6, true, false,
         "inlet pressure difference over which the shuttle changes over (centred on p1a = p1b)"},
    };
    t.channels = {{"q_1a_2", "kg/s", "mass flow 1a -> 2"},
                  {"q_1b_2", "kg/s", "mass flow 1b -> 2"},
                  {"q", "kg/s", "mass flow out of port 2 (q_1a_2 + q_1b_2)"},
                  {"w", "1", "shuttle position: 1 = 1a connected to 2, 0 = 1b connected to 2"}};
    t.create = [isOr](const Component& c) { return std::make_unique<LogicValve>(c, isOr); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    na_ = b.port("1a");
    nb_ = b.port("1b");
    n2_ = b.port("2");
    b.channel("q_1a_2", "kg/s");
    b.channel("q_1b_2", "kg/s");
    b.channel("q", "kg/s");
    b.channel("w", "1");
    b.publish("w", [this](const Eval&) { return w_; });
  }

  void evaluate(Eval& e) override {
    qa_ = qb_ = 0.0;
    const double p1a = e.p(na_), p1b = e.p(nb_);
    w_ = flow::smoothstep(sign_ * (p1a - p1b) / band_ + 0.5);
    if (n2_ < 0) return;
    const double p2 = e.p(n2_), T2 = e.T(n2_);
    if (na_ >= 0 && w_ > 0.0) qa_ = flow::iso6358(w_ * C_, b_, m_, p1a, e.T(na_), p2, T2);
    if (nb_ >= 0 && w_ < 1.0) qb_ = flow::iso6358((1.0 - w_) * C_, b_, m_, p1b, e.T(nb_), p2, T2);
    e.flow(na_, n2_, qa_);
    e.flow(nb_, n2_, qb_);
  }

  void output(const Eval&, double* ch) override {
    ch[0] = qa_;
    ch[1] = qb_;
    ch[2] = qa_ + qb_;
    ch[3] = w_;
  }

 private:
  double sign_, C_, b_, m_, band_;
  int na_ = -1, nb_ = -1, n2_ = -1;
  double qa_ = 0.0, qb_ = 0.0, w_ = 0.5;
};

struct ShuttleValve {
  static ComponentType declare() { return LogicValve::declare(true); }
};
struct TwoPressureValve {
  static ComponentType declare() { return LogicValve::declare(false); }
};

}  // namespace

PM_REGISTER(ShuttleValve)
PM_REGISTER(TwoPressureValve)

}  // namespace pm
