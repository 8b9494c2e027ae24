// Prescribed volume: a gas chamber whose volume is a given function of time
// or of a signal, for compressor and test-rig models without a mechanism. A crank-driven
// piston's swept volume to first order:
//   V(t) = V0 + V_swept (1 - cos(2 pi f t + phase)) / 2
// (phase 0: at the top of the stroke, V = V0, at t = 0; phase pi: at the
// bottom, V = V0 + V_swept), or a table data.points [[t, V], ...], linear
// between the points and held outside (a test rig's volume programme); each
// point is a root and the segment in use a discrete state, so IDA restarts
// at each corner of V(t) instead of stepping across the jump of dV/dt.
// Driven by a signal instead, inputs.drive: the volume itself (an algebraic
// state V = signal whose derivative the integrator forms, as it does for any
// state), or with drive_is_rate = 1 its rate, integrated from V0 (an own
// state, so dV/dt is exactly the signal).
// The chamber joins the net of its port like a cylinder chamber (or is a
// volume of its own when the port is plugged), so its p and T are the
// node's, from the mass and energy balance with p dV/dt work (seed 000);
// wall heat h*A*(T_wall - T) or isothermal.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "model/table_rows.h"
#include "model/table_segments.h"
#include "pneumatics/gas.h"

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace pm {

class PrescribedVolume : public Element {
 public:
  explicit PrescribedVolume(const Component& c) : Element(c.id) {
    Params P(c);
    V0_ = P("V0"), Vs_ = P("V_swept"), w_ = 2.0 * std::numbers::pi * P("frequency"), phase_ = P("phase");
    p0_ = P("p0"), T0_ = P("T0"), hA_ = P("hA"), Tw_ = P("T_wall");
    iso_ = P("isothermal") > 0.5;
    const auto err = checkData(c.data);
    if (!err.empty()) throw std::runtime_error("data." + err.front());
    const auto in = c.inputs.find("drive");
    if (in != c.inputs.end()) {
      if (c.data.is_object()) throw std::runtime_error("inputs.drive: a signal-driven volume takes no data.points table");
      ref_ = in->second;
      mode_ = P("drive_is_rate") > 0.5 ? Mode::Rate : Mode::Signal;
    } else {
      mode_ = c.data.is_object() ? Mode::Table : Mode::Crank;
    }
    if (c.data.is_object()) {
      std::vector<std::vector<double>> cols = tableColumns(c.data["points"], 2);
      tt_ = std::move(cols[0]);
      tv_ = std::move(cols[1]);
    }
  }

  // data: null (the crank's cosine) or {"points": [[t, V], ...]}.
  static std::vector<std::string> checkData(const nlohmann::json& d) {
    if (d.is_null()) return {};
    if (!d.is_object()) return {"expected an object {\"points\": [[t, V], ...]}"};
    std::vector<std::string> err;
    for (auto it = d.begin(); it != d.end(); ++it)
      if (it.key() != "points") err.push_back(it.key() + ": unknown field");
    const nlohmann::json none;
    const auto positive = [](double V) { return V > 0.0; };
    for (std::string& e : checkTableRows(d.contains("points") ? d["points"] : none, "points",
                                         {{"t s", {}, ""}, {"V m3", positive, "the volume must be > 0 m3"}}))
      err.push_back(std::move(e));
    return err;
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "prescribed_volume";
    t.category = "Volumes";
    t.symbol = "prescribed_volume";
    t.description =
        "Chamber of prescribed volume: V0 + V_swept (1 - cos(2 pi f t + phase))/2 (compressor), or a table "
        "data.points [[t, V], ...], linear (test rig); or driven by a signal inputs.drive: the volume, or "
        "its rate integrated from V0 (drive_is_rate = 1)";
    t.ports = {{"1", Domain::Pneumatic, "port"}};
    t.inputs = {{"drive", "the volume [m3], or its rate [m3/s] with drive_is_rate = 1 (replaces the crank and "
                          "the table)"}};
    t.params = {
        {"V0", "m3", 1e-5, 0.0, 1e3, true, false,
         "smallest volume (top of the stroke: clearance volume); with a rate drive the volume at t = 0; unused "
         "with a table or a volume drive"},
        {"V_swept", "m3", 1e-4, 0.0, 1e3, false, false, "swept volume (bottom minus top of the stroke)"},
        {"frequency", "Hz", 1.0, 0.0, 1e6, false, false, "strokes per second (crank speed; 0 = the volume stands)"},
        {"phase", "rad", 0.0, -1e3, 1e3, false, false, "crank angle at t = 0 (0: top of the stroke, pi: bottom)"},
        {"p0", "Pa", 101325.0, 0.0, 1e8, true, false, "initial absolute pressure"},
        {"T0", "K", 293.15, 0.0, 2000.0, true, false, "initial temperature"},
        {"hA", "W/K", 0.0, 0.0, 1e6, false, false, "wall heat-transfer coefficient times area (0 = adiabatic)"},
        {"T_wall", "K", 293.15, 0.0, 2000.0, true, false, "wall temperature"},
        {"isothermal", "1", 0.0, 0.0, 1.0, false, false, "1: gas stays at T_wall (infinite heat transfer)"},
        {"drive_is_rate", "1", 0.0, 0.0, 1.0, false, false,
         "1: inputs.drive is the rate of change of the volume [m3/s], integrated from V0; 0: the volume [m3]"},
    };
    t.channels = {{"V", "m3", "chamber volume"},
                  {"dVdt", "m3/s", "rate of change of the volume"},
                  {"p", "Pa", "absolute pressure"},
                  {"T", "K", "gas temperature"},
                  {"m", "kg", "air mass in the chamber"},
                  {"Q", "W", "heat flow from the wall into the gas"},
                  {"W_gas", "J", "work done by the gas on the piston since t = 0 (integral of p dV)"}};
    t.create = [](const Component& c) { return std::make_unique<PrescribedVolume>(c); };
    t.check_data = [](const Component& c) { return checkData(c.data); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    node_ = b.port("1");
    if (node_ < 0) node_ = b.internalNode("gas");  // plugged: a sealed chamber of its own
    if (!tt_.empty()) b.roots(1);
    seg_ = segmentAt(0.0);
    // Driven by a volume signal, its start value is not known yet: V0 weighs the
    // start p and T of a net shared with other volumes.
    b.capacity(node_, id(), mode_ == Mode::Rate || mode_ == Mode::Signal ? V0_ : V(0.0), p0_, T0_, iso_, Tw_);
    if (mode_ == Mode::Rate) {
      b.input(in_, "inputs.drive", ref_);
      sV_ = b.state("V", "m3", StateKind::Differential, V0_, 1e-6 * V0_, "dV/dt - inputs.drive");
    } else if (mode_ == Mode::Signal) {
      b.input(in_, "inputs.drive", ref_);
      sV_ = b.state("V", "m3", StateKind::Algebraic, V0_, 1e-6 * V0_, "V - inputs.drive");
    }
    sW_ = b.state("W_gas", "J", StateKind::Differential, 0.0, 1e-6, "dW/dt - p dV/dt");
    for (const auto& [q, u] : {std::pair{"V", "m3"}, {"dVdt", "m3/s"}, {"p", "Pa"}, {"T", "K"}, {"m", "kg"},
                               {"Q", "W"}, {"W_gas", "J"}})
      b.channel(q, u);
    b.publish("V", [this](const Eval& e) { return volume(e); }, true);
    b.publish("p", [this](const Eval& e) { return e.p(node_); });
    b.publish("T", [this](const Eval& e) { return e.T(node_); });
  }
  void evaluate(Eval& e) override {
    if (mode_ == Mode::Rate) e.res[sV_] = e.yp[sV_] - in_(e);
    if (mode_ == Mode::Signal) e.res[sV_] = e.y[sV_] - in_(e);
    const double dV = rate(e);
    e.volume(node_, volume(e), dV);
    Q_ = iso_ ? 0.0 : hA_ * (Tw_ - e.T(node_));
    e.heat(node_, Q_);
    e.res[sW_] = e.yp[sW_] - e.p(node_) * dV;
  }
  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    g[0] = table_segments::nextPoint(tt_, seg_, e.t);
  }
  bool update(const Eval& e) override {
    if (tt_.empty()) return false;
    const int seg = segmentAt(e.t);
    if (seg == seg_) return false;
    seg_ = seg;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(seg_);
    return true;
  }
  // A consistent start for a volume drive: the signal's value (IDA's own
  // initialisation would find it too, but a fallback start would not).
  void makeConsistent(Evaluator& sys, double t, double* y, double* yp) override {
    (void)yp;
    if (mode_ == Mode::Signal) sys.withEval(t, y, yp, [&](Eval& e) { y[sV_] = in_(e); });
  }
  void output(const Eval& e, double* ch) override {
    const double Vt = volume(e);
    ch[0] = Vt;
    ch[1] = rate(e);
    ch[2] = e.p(node_);
    ch[3] = e.T(node_);
    ch[4] = e.p(node_) * Vt / (gas::R * e.T(node_));  // this chamber's share of its node's gas
    ch[5] = Q_;
    ch[6] = e.y[sW_];
  }

 private:
  // Segment i covers [t_i, t_i+1); -1 lies before the first point, n-1 after the last.
  int segmentAt(double t) const { return table_segments::at(tt_, t); }
  double volume(const Eval& e) const { return sV_ >= 0 ? e.y[sV_] : V(e.t); }
  double rate(const Eval& e) const { return sV_ >= 0 ? e.yp[sV_] : dVdt(e.t); }
  // A table's active segment is extended past its end until the event.
  double V(double t) const {
    if (tt_.empty()) return V0_ + 0.5 * Vs_ * (1.0 - std::cos(w_ * t + phase_));
    if (seg_ < 0 || seg_ + 1 >= static_cast<int>(tt_.size())) return seg_ < 0 ? tv_.front() : tv_.back();
    return tv_[seg_] + slope() * (t - tt_[seg_]);
  }
  double dVdt(double t) const {
    if (tt_.empty()) return 0.5 * Vs_ * w_ * std::sin(w_ * t + phase_);
    return seg_ < 0 || seg_ + 1 >= static_cast<int>(tt_.size()) ? 0.0 : slope();
  }
  double slope() const { return (tv_[seg_ + 1] - tv_[seg_]) / (tt_[seg_ + 1] - tt_[seg_]); }

  enum class Mode { Crank, Table, Rate, Signal };
  Mode mode_;
  SignalInput in_;
  std::string ref_;
  int sV_ = -1;  // the volume's state when a signal drives it
  double V0_, Vs_, w_, phase_, p0_, T0_, hA_, Tw_;
  bool iso_;
  std::vector<double> tt_, tv_;  // the table, if given
  int seg_ = -1;
  int node_ = -1, sW_ = -1;
  double Q_ = 0.0;
};
PM_REGISTER(PrescribedVolume)

}  // namespace pm
