// Pressure supply (seed 000: 0 = p - p(t), 0 = T - T(t)): constant, or a time
// table of absolute pressure and temperature, read as data.interpolation
// says (model/table.h; default linear, as it always was) and held constant outside the
// table. As in the time table, every point is a root function and the
// segment in use a discrete state, so IDA restarts at each corner or jump
// instead of stepping across it.
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"
#include "model/table.h"
#include "model/table_rows.h"
#include "model/table_segments.h"

#include <algorithm>
#include <cmath>

namespace pm {

class Supply : public Element {
 public:
  explicit Supply(const Component& c) : Element(c.id) {
    Params P(c);
    p_ = P("p");
    T_ = P("T");
    if (c.data.is_object() && c.data.contains("table")) {
      std::vector<std::vector<double>> cols = tableColumns(c.data["table"], 3);
      t_ = std::move(cols[0]);
      const Interpolation mode = interpolationField(c.data, Interpolation::Linear);
      pTable_ = Table(t_, cols[1], mode);
      TTable_ = Table(t_, cols[2], mode);
    }
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "supply";
    t.category = "Supply";
    t.symbol = "supply";
    t.description = "Compressed-air source at a constant pressure and temperature";
    t.ports = {{"1", Domain::Pneumatic, "outlet"}};
    t.params = {
        {"p", "Pa", 701325.0, 0.0, 1e8, true, false, "absolute supply pressure (6 bar gauge = 701325 Pa)"},
        {"T", "K", 293.15, 0.0, 2000.0, true, false, "supply air temperature"},
    };
    t.channels = {{"q", "kg/s", "mass flow delivered"}, {"m_delivered", "kg", "air consumed since t = 0"},
                  {"H_delivered", "J", "enthalpy delivered since t = 0"}};
    t.create = [](const Component& c) { return std::make_unique<Supply>(c); };
    t.check_data = [](const Component& c) {
      std::vector<std::string> err;
      if (c.data.is_object())
        for (auto it = c.data.begin(); it != c.data.end(); ++it)
          if (it.key() != "table" && it.key() != "interpolation") err.push_back(it.key() + ": unknown field");
      if (const std::string e = checkInterpolationField(c.data); !e.empty()) err.push_back(e);
      if (c.data.is_null() || (c.data.is_object() && !c.data.contains("table"))) return err;
      if (!c.data.is_object()) {
        err.push_back("expected an object {\"table\": [[t s, p Pa, T K], ...]}");
        return err;
      }
      const auto positive = [](double v) { return v > 0.0; };
      for (std::string& e : checkTableRows(c.data["table"], "table",
                                           {{"t s", {}, ""},
                                            {"p Pa", positive, "absolute pressure must be > 0 Pa"},
                                            {"T K", positive, "temperature must be > 0 K"}}))
        err.push_back(std::move(e));
      return err;
    };
    return t;
  }

  void setup(SystemBuilder& b) override {
    if (t_.empty()) {  // constant: the boundary holds the values, no lookup per evaluation
      const double p0 = p_, T0 = T_;
      b.boundary(b.port("1"), [p0, T0](double, double& p, double& T) { p = p0; T = T0; });
      return;
    }
    b.boundary(b.port("1"), [this](double t, double& p, double& T) { at(t, p, T); });
    b.roots(1);
  }
  void evaluate(Eval&) override {}
  void output(const Eval&, double*) override {}
  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    g[0] = table_segments::nextPoint(t_, seg_, e.t);
  }
  bool update(const Eval& e) override {
    if (t_.empty()) return false;
    const int seg = table_segments::at(t_, e.t);
    if (seg == seg_) return false;
    seg_ = seg;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(seg_);
    return true;
  }

 private:
  // The active segment's formula, extended past its end until the event.
  void at(double t, double& p, double& T) const {
    const int n = static_cast<int>(t_.size());
    if (n == 0) { p = p_; T = T_; return; }
    if (seg_ < 0) { p = pTable_.front(); T = TTable_.front(); return; }
    if (seg_ >= n - 1) { p = pTable_.back(); T = TTable_.back(); return; }
    p = pTable_.segment(static_cast<size_t>(seg_), t);
    T = TTable_.segment(static_cast<size_t>(seg_), t);
  }
  double p_, T_;
  std::vector<double> t_;
  Table pTable_, TTable_;
  int seg_ = -1;
};

PM_REGISTER(Supply)

// Atmosphere: an exhaust port open to ambient pressure and temperature.
class Atmosphere : public Element {
 public:
  explicit Atmosphere(const Component& c) : Element(c.id) {}
  static ComponentType declare() {
    ComponentType t;
    t.name = "atmosphere";
    t.category = "Supply";
    t.symbol = "exhaust";
    t.description = "Exhaust to the atmosphere (ambient pressure and temperature of the simulation settings)";
    t.ports = {{"1", Domain::Pneumatic, "exhaust"}};
    t.channels = {{"q", "kg/s", "mass flow from the atmosphere into the circuit (negative when venting)"},
                  {"m_delivered", "kg", "net mass taken from the atmosphere"},
                  {"H_delivered", "J", "net enthalpy taken from the atmosphere"}};
    t.create = [](const Component& c) { return std::make_unique<Atmosphere>(c); };
    return t;
  }
  void setup(SystemBuilder& b) override {
    const double pa = b.ambientPressure(), Ta = b.ambientTemperature();
    b.boundary(b.port("1"), [pa, Ta](double, double& p, double& T) { p = pa; T = Ta; });
  }
  void evaluate(Eval&) override {}
  void output(const Eval&, double*) override {}
};

PM_REGISTER(Atmosphere)

}  // namespace pm
