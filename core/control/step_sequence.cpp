// Step sequence (GRAFCET / SFC-like, one active step, stored actions): the
// sequencer of an electro-pneumatic control, e.g. A+ B+ A- B-.
//
// data: {"outputs": ["Y1", "Y2"], "cyclic": false,
//        "steps": [{"name": "start", "set": {}, "when": ["start.out", "a0.out"]},
//                  {"name": "A+", "set": {"Y1": 1}, "when": ["a1.out"]}, ...]}
// - Step 0 is active at t = 0. When a step becomes active its "set" values are
//   written to the outputs; an output keeps its value until a later step sets
//   it again (stored action, like S/R of a latched solenoid circuit).
// - The transition after step k fires when every "when" signal is > 0.5 (an
//   empty or missing list fires at once). After the last step the sequence
//   returns to step 0 when "cyclic" is true, else it stays in the last step.
// - Several transitions whose conditions already hold fire within one event:
//   update() advances one step and reports the change, and the System calls it
//   again until nothing changes.
// - One root function: min over the active step's conditions of (signal - 0.5),
//   so a condition on a continuous signal is also found exactly.
// Publishes "<id>.<output>" for every output and "<id>.step" (index of the
// active step).
#include "model/component_type.h"
#include "model/project.h"
#include "solver/system.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

namespace pm {

namespace {

using nlohmann::json;

bool validName(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool validRef(const std::string& r) {
  const auto dot = r.find('.');
  return dot != std::string::npos && dot > 0 && dot + 1 < r.size();
}

// Returns "field: message" errors (the compiler prefixes "data.").
std::vector<std::string> checkData(const json& d) {
  std::vector<std::string> err;
  if (!d.is_object()) return {"expected an object with \"outputs\", \"cyclic\" and \"steps\""};
  for (auto it = d.begin(); it != d.end(); ++it)
    if (it.key() != "outputs" && it.key() != "cyclic" && it.key() != "steps") err.push_back(it.key() + ": unknown field");
  std::set<std::string> outputs;
  if (!d.contains("outputs") || !d["outputs"].is_array()) {
    err.push_back("outputs: expected an array of output names, e.g. [\"Y1\", \"Y2\"]");
  } else {
    int i = 0;
    for (const json& o : d["outputs"]) {
      const std::string f = "outputs[" + std::to_string(i++) + "]";
      if (!o.is_string() || !validName(o.get<std::string>())) {
        err.push_back(f + ": expected a name of letters, digits and '_' starting with a letter");
        continue;
      }
      const std::string n = o.get<std::string>();
      if (n == "step") err.push_back(f + ": 'step' is reserved for the active step index");
      else if (!outputs.insert(n).second) err.push_back(f + ": duplicate output '" + n + "'");
    }
  }
  if (d.contains("cyclic") && !d["cyclic"].is_boolean()) err.push_back("cyclic: expected true or false");
  if (!d.contains("steps") || !d["steps"].is_array() || d["steps"].empty()) {
    err.push_back("steps: expected a non-empty array of steps {\"name\", \"set\", \"when\"}");
    return err;
  }
  int k = 0;
  for (const json& s : d["steps"]) {
    const std::string f = "steps[" + std::to_string(k++) + "]";
    if (!s.is_object()) {
      err.push_back(f + ": expected an object {\"name\", \"set\", \"when\"}");
      continue;
    }
    for (auto it = s.begin(); it != s.end(); ++it)
      if (it.key() != "name" && it.key() != "set" && it.key() != "when") err.push_back(f + "." + it.key() + ": unknown field");
    if (s.contains("name") && !s["name"].is_string()) err.push_back(f + ".name: expected a string");
    if (s.contains("set")) {
      if (!s["set"].is_object()) {
        err.push_back(f + ".set: expected an object {\"<output>\": value}");
      } else {
        for (auto it = s["set"].begin(); it != s["set"].end(); ++it) {
          if (!outputs.count(it.key())) err.push_back(f + ".set." + it.key() + ": not one of the declared outputs");
          if (!it.value().is_number()) err.push_back(f + ".set." + it.key() + ": expected a number");
        }
      }
    }
    if (s.contains("when")) {
      if (!s["when"].is_array()) {
        err.push_back(f + ".when: expected an array of signal references \"<component id>.<signal>\"");
      } else {
        int j = 0;
        for (const json& w : s["when"]) {
          const std::string fw = f + ".when[" + std::to_string(j++) + "]";
          if (!w.is_string()) err.push_back(fw + ": expected a signal reference \"<component id>.<signal>\"");
          else if (!validRef(w.get<std::string>()))
            err.push_back(fw + ": signal reference '" + w.get<std::string>() + "' must read '<component id>.<signal>'");
        }
      }
    }
  }
  return err;
}

}  // namespace

class StepSequence : public Element {
 public:
  explicit StepSequence(const Component& c) : Element(c.id) {
    const auto err = checkData(c.data);
    if (!err.empty()) throw std::runtime_error("data: " + err.front());
    const json& d = c.data;
    for (const json& o : d["outputs"]) outputs_.push_back(o.get<std::string>());
    cyclic_ = d.value("cyclic", false);
    for (const json& s : d["steps"]) {
      Step st;
      st.name = s.value("name", std::string());
      if (s.contains("set"))
        for (auto it = s["set"].begin(); it != s["set"].end(); ++it) {
          const auto pos = std::find(outputs_.begin(), outputs_.end(), it.key()) - outputs_.begin();
          st.set.emplace_back(static_cast<int>(pos), it.value().get<double>());
        }
      if (s.contains("when"))
        for (const json& w : s["when"]) st.refs.push_back(w.get<std::string>());
      steps_.push_back(std::move(st));
    }
    values_.assign(outputs_.size(), 0.0);
    activate(0);
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "step_sequence";
    t.category = "Signals";
    t.symbol = "step_sequence";
    t.description =
        "Step sequence (GRAFCET-like): each step sets outputs (kept until set again); the transition to the "
        "next step fires when all its 'when' signals are > 0.5";
    t.channels = {{"step", "1", "index of the active step (0 = first)"},
                  {"<output>", "1", "one channel per declared output (data.outputs)"}};
    t.create = [](const Component& c) { return std::make_unique<StepSequence>(c); };
    t.check_data = [](const Component& c) { return checkData(c.data); };
    return t;
  }

  void setup(SystemBuilder& b) override {
    size_t n = 0;
    for (const Step& s : steps_) n += s.refs.size();
    // The compiler keeps pointers to these until it resolves them: no reallocation.
    conds_.reserve(n);
    for (size_t k = 0; k < steps_.size(); ++k) {
      steps_[k].first = conds_.size();
      for (size_t j = 0; j < steps_[k].refs.size(); ++j) {
        conds_.emplace_back();
        b.input(conds_.back(), "data.steps[" + std::to_string(k) + "].when[" + std::to_string(j) + "]",
                steps_[k].refs[j]);
      }
    }
    b.roots(1);
    b.channel("step", "1");
    for (const std::string& o : outputs_) b.channel(o, "1");
    b.publish("step", [this](const Eval&) { return static_cast<double>(active_); });
    for (size_t i = 0; i < outputs_.size(); ++i)
      b.publish(outputs_[i], [this, i](const Eval&) { return values_[i]; });
  }

  void evaluate(Eval&) override {}

  void roots(const Eval& e, double* g) override {
    if (!canAdvance()) {
      g[0] = 1.0;
      return;
    }
    const Step& s = steps_[active_];
    double m = 1.0;  // an empty condition list fires at the next update
    for (size_t j = 0; j < s.refs.size(); ++j) m = std::min(m, conds_[s.first + j](e) - 0.5);
    g[0] = m;
  }

  bool update(const Eval& e) override {
    if (!canAdvance()) return false;
    const Step& s = steps_[active_];
    // A root can land exactly on 0.5 (g = 0): reached from below, the condition holds.
    for (size_t j = 0; j < s.refs.size(); ++j) {
      const double v = conds_[s.first + j](e);
      if (!(v > 0.5 || (v == 0.5 && !e.initializing))) return false;
    }
    activate(active_ + 1 < steps_.size() ? active_ + 1 : 0);
    return true;  // the System calls update again: the next transition may hold already
  }

  void output(const Eval&, double* ch) override {
    ch[0] = static_cast<double>(active_);
    for (size_t i = 0; i < values_.size(); ++i) ch[1 + i] = values_[i];
  }

 private:
  struct Step {
    std::string name;
    std::vector<std::pair<int, double>> set;
    std::vector<std::string> refs;
    size_t first = 0;  // index of its first condition in conds_
  };
  bool canAdvance() const { return cyclic_ || active_ + 1 < steps_.size(); }
  void activate(size_t k) {
    active_ = k;
    for (auto [i, v] : steps_[k].set) values_[i] = v;
  }

  std::vector<std::string> outputs_;
  bool cyclic_ = false;
  std::vector<Step> steps_;
  std::vector<SignalInput> conds_;
  std::vector<double> values_;
  size_t active_ = 0;
};
PM_REGISTER(StepSequence)

}  // namespace pm
