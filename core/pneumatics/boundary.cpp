// Pressure supply (seed 000: 0 = p - p(t), 0 = T - T(t)): constant, or a time
// table of absolute pressure and temperature, linearly interpolated and held
// constant outside the table.
#include "model/component_type.h"
#include "model/project.h"
#include "solver/system.h"

#include <algorithm>

namespace pm {

class Supply : public Element {
 public:
  explicit Supply(const Component& c) : Element(c.id) {
    Params P(c);
    p_ = P("p");
    T_ = P("T");
    if (c.data.is_object() && c.data.contains("table"))
      for (const auto& row : c.data["table"]) table_.push_back({row[0].get<double>(), row[1].get<double>(), row[2].get<double>()});
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "supply";
    t.category = "Supply";
    t.symbol = "supply";
    t.description = "Compressed-air source with imposed absolute pressure and temperature";
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
      if (c.data.is_null() || (c.data.is_object() && !c.data.contains("table"))) return err;
      if (!c.data.is_object() || !c.data["table"].is_array()) return std::vector<std::string>{"table: must be an array of [t s, p Pa, T K] rows"};
      double tPrev = -1e300;
      int i = 0;
      for (const auto& row : c.data["table"]) {
        const std::string f = "table[" + std::to_string(i++) + "]";
        if (!row.is_array() || row.size() != 3 || !row[0].is_number() || !row[1].is_number() || !row[2].is_number()) {
          err.push_back(f + ": expected [t s, p Pa, T K]");
          continue;
        }
        if (row[0].get<double>() <= tPrev) err.push_back(f + ": times must increase");
        if (row[1].get<double>() <= 0) err.push_back(f + ": absolute pressure must be > 0 Pa");
        if (row[2].get<double>() <= 0) err.push_back(f + ": temperature must be > 0 K");
        tPrev = row[0].get<double>();
      }
      if (i == 0) err.push_back("table: is empty");
      return err;
    };
    return t;
  }

  void setup(SystemBuilder& b) override {
    b.boundary(b.port("1"), [this](double t, double& p, double& T) { at(t, p, T); });
  }
  void evaluate(Eval&) override {}
  void output(const Eval&, double*) override {}

 private:
  struct Row { double t, p, T; };
  void at(double t, double& p, double& T) const {
    if (table_.empty()) { p = p_; T = T_; return; }
    if (t <= table_.front().t) { p = table_.front().p; T = table_.front().T; return; }
    if (t >= table_.back().t) { p = table_.back().p; T = table_.back().T; return; }
    auto it = std::upper_bound(table_.begin(), table_.end(), t, [](double v, const Row& r) { return v < r.t; });
    const Row& a = *(it - 1);
    const Row& b = *it;
    const double s = (t - a.t) / (b.t - a.t);
    p = a.p + s * (b.p - a.p);
    T = a.T + s * (b.T - a.T);
  }
  double p_, T_;
  std::vector<Row> table_;
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
