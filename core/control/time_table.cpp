// Time table: a signal given as points (t_i, v_i), e.g. a set-point profile.
//
// data: {"points": [[0, 0], [0.5, 0.1], [1.5, 0.1], [2, 0]],  (times strictly increasing)
//        "interpolation": "monotone_cubic"}  (or linear, step, natural_cubic;
// model/table.h; default linear, what time tables always were).
// Before the first point the first value is held, after the last the last.
// Every point is a root function and the segment in use a discrete state, so
// IDA restarts at each corner instead of stepping across it.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/table.h"
#include "model/table_rows.h"
#include "model/table_segments.h"

#include <cmath>
#include <stdexcept>

namespace pm {

namespace {

using nlohmann::json;

std::vector<std::string> checkData(const json& d) {
  if (!d.is_object()) return {"expected an object {\"points\": [[t, value], ...]}"};
  std::vector<std::string> err;
  for (auto it = d.begin(); it != d.end(); ++it)
    if (it.key() != "points" && it.key() != "interpolation") err.push_back(it.key() + ": unknown field");
  if (const std::string e = checkInterpolationField(d); !e.empty()) err.push_back(e);
  const json none;
  const std::vector<TableColumn> columns = {{"t", {}, ""}, {"value", {}, ""}};
  for (std::string& e : checkTableRows(d.contains("points") ? d["points"] : none, "points", columns))
    err.push_back(std::move(e));
  return err;
}

class TimeTable : public Element {
 public:
  explicit TimeTable(const Component& c) : Element(c.id) {
    const auto err = checkData(c.data);
    if (!err.empty()) throw std::runtime_error("data." + err.front());
    std::vector<std::vector<double>> cols = tableColumns(c.data["points"], 2);
    t_ = std::move(cols[0]);
    table_ = Table(t_, cols[1], interpolationField(c.data, Interpolation::Linear));
  }
  static ComponentType declare() {
    ComponentType t;
    t.name = "time_table";
    t.category = "Signal sources";
    t.symbol = "time_table";
    t.description =
        "Time table: out interpolated in data.points [[t, value], ...]; data.interpolation linear "
        "(default), monotone_cubic (C1, no overshoot), step (holds each value) or natural_cubic";
    t.channels = {{"out", "1", "interpolated value"}};
    t.create = [](const Component& c) { return std::make_unique<TimeTable>(c); };
    t.check_data = [](const Component& c) { return checkData(c.data); };
    t.initial_data = {{"points", {{0.0, 0.0}, {1.0, 1.0}}}};
    return t;
  }
  void setup(SystemBuilder& b) override {
    b.roots(1);
    b.channel("out", "1");
    b.publish("out", [this](const Eval& e) { return value(e.t); });
  }
  void evaluate(Eval&) override {}
  bool rootsReadStatesOnly() const override { return true; }
  void roots(const Eval& e, double* g) override {
    g[0] = table_segments::nextPoint(t_, seg_, e.t);
  }
  bool update(const Eval& e) override {
    const int seg = table_segments::at(t_, e.t);
    if (seg == seg_) return false;
    seg_ = seg;
    return true;
  }
  bool discrete(DiscreteState& s) override {
    s(seg_);
    return true;
  }
  void output(const Eval& e, double* ch) override { ch[0] = value(e.t); }

 private:
  // The active segment's formula, extended past its end until the event.
  double value(double t) const {
    const int n = static_cast<int>(t_.size());
    if (seg_ < 0) return table_.front();
    if (seg_ >= n - 1) return table_.back();
    return table_.segment(static_cast<size_t>(seg_), t);
  }
  std::vector<double> t_;
  Table table_;
  int seg_ = -1;
};

}  // namespace

PM_REGISTER(TimeTable)

}  // namespace pm
