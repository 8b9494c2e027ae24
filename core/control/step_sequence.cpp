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
// Start / stop / reset (optional logic inputs, on above 0.5, each with a root
// at its crossing):
// - start: with `start` connected the sequence waits (not running) until
//   start is on, then runs; without it, it runs from t = 0.
// - stop: while on, the sequence halts: no transition fires, the active step
//   and the outputs are kept. It runs again at the next start (or, without a
//   start input, as soon as stop is off).
// - reset: while on, the sequence is held in step 0 with the outputs as at
//   t = 0 (0, then step 0's "set"), not running; afterwards it waits for start
//   (or runs at once without a start input).
// Transitions fire only while running.
// Publishes "<id>.<output>" for every output, "<id>.step" (index of the
// active step) and "<id>.running" (1 while running).
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"
#include "model/project.h"

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
      if (n == "step" || n == "running") err.push_back(f + ": '" + n + "' is reserved (a channel of the sequence)");
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
  explicit StepSequence(const Component& c)
      : Element(c.id),
        startRef_(signal::inputRef(c, "start")),
        stopRef_(signal::inputRef(c, "stop")),
        resetRef_(signal::inputRef(c, "reset")) {
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
    restart();
    running_ = startRef_.empty();
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "step_sequence";
    t.category = "Signals";
    t.symbol = "step_sequence";
    t.description =
        "Step sequence (GRAFCET-like): each step sets outputs (kept until set again); the transition to the "
        "next step fires when all its 'when' signals are > 0.5";
    t.inputs = {{"start", "starts the sequence (on above 0.5); unconnected: runs from t = 0", false},
                {"stop", "halts the sequence while on (step and outputs kept) until the next start", false},
                {"reset", "while on: back to step 0 with the initial outputs, not running", false}};
    t.channels = {{"step", "1", "index of the active step (0 = first)"},
                  {"running", "1", "1 while the sequence runs (transitions can fire)"},
                  {"<output>", "1", "one channel per declared output (data.outputs)"}};
    t.create = [](const Component& c) { return std::make_unique<StepSequence>(c); };
    t.check_data = [](const Component& c) { return checkData(c.data); };
    t.data_refs = [](json& d, const ComponentType::RefVisitor& visit) {  // steps[].when[]
      const auto steps = d.is_object() ? d.find("steps") : d.end();
      if (steps == d.end() || !steps->is_array()) return;
      for (json& s : *steps) {
        const auto when = s.is_object() ? s.find("when") : s.end();
        if (when == s.end() || !when->is_array()) continue;
        for (json& w : *when)
          if (w.is_string()) visit(w.get_ref<std::string&>());
      }
    };
    t.initial_data = nlohmann::json::parse(
        R"({"outputs": ["Y1"], "cyclic": false, "steps": [{"name": "start", "set": {}, "when": []},
                                                          {"name": "Y1 on", "set": {"Y1": 1}, "when": []}]})");
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
    b.input(start_.in, "inputs.start", startRef_);
    b.input(stop_.in, "inputs.stop", stopRef_);
    b.input(reset_.in, "inputs.reset", resetRef_);
    b.roots(4);
    b.channel("step", "1");
    b.channel("running", "1");
    for (const std::string& o : outputs_) b.channel(o, "1");
    b.publish("step", [this](const Eval&) { return static_cast<double>(active_); }, true);
    b.publish("running", [this](const Eval&) { return running_ ? 1.0 : 0.0; }, true);
    for (size_t i = 0; i < outputs_.size(); ++i)
      b.publish(outputs_[i], [this, i](const Eval&) { return values_[i]; }, true);
  }

  void evaluate(Eval&) override {}

  bool rootsReadStatesOnly() const override {
    auto plain = [](const SignalInput& in) { return !in.connected() || in.readsStatesOnly; };
    return std::all_of(conds_.begin(), conds_.end(), plain) && plain(start_.in) && plain(stop_.in) && plain(reset_.in);
  }

  void roots(const Eval& e, double* g) override {
    g[1] = start_.root(e);
    g[2] = stop_.root(e);
    g[3] = reset_.root(e);
    if (!running_ || !canAdvance()) {
      g[0] = 1.0;
      return;
    }
    const Step& s = steps_[active_];
    double m = 1.0;  // an empty condition list fires at the next update
    for (size_t j = 0; j < s.refs.size(); ++j) m = std::min(m, conds_[s.first + j](e) - 0.5);
    g[0] = m;
  }

  bool update(const Eval& e) override {
    start_.update(e);
    stop_.update(e);
    reset_.update(e);
    bool changed = false;
    if (reset_.on && (active_ != 0 || values_ != initial_)) {
      restart();
      changed = true;
    }
    bool running = start_.in.connected() ? running_ || start_.on : true;
    if (stop_.on || reset_.on) running = false;
    if (running != running_) {
      running_ = running;
      changed = true;
    }
    if (!running_ || !canAdvance()) return changed;
    const Step& s = steps_[active_];
    // A root can land exactly on 0.5 (g = 0): reached from below, the condition holds.
    for (size_t j = 0; j < s.refs.size(); ++j) {
      const double v = conds_[s.first + j](e);
      if (!(v > 0.5 || (v == 0.5 && !e.initializing))) return changed;
    }
    activate(active_ + 1 < steps_.size() ? active_ + 1 : 0);
    return true;  // the System calls update again: the next transition may hold already
  }

  bool discrete(DiscreteState& s) override {
    s(start_, stop_, reset_, values_, active_, running_);
    return true;
  }

  void output(const Eval&, double* ch) override {
    ch[0] = static_cast<double>(active_);
    ch[1] = running_ ? 1.0 : 0.0;
    for (size_t i = 0; i < values_.size(); ++i) ch[2 + i] = values_[i];
  }

 private:
  struct Step {
    std::string name;
    std::vector<std::pair<int, double>> set;
    std::vector<std::string> refs;
    size_t first = 0;  // index of its first condition in conds_
  };
  bool canAdvance() const { return cyclic_ || active_ + 1 < steps_.size(); }
  // Step 0 with the outputs as at t = 0.
  void restart() {
    values_.assign(outputs_.size(), 0.0);
    activate(0);
    initial_ = values_;
  }
  void activate(size_t k) {
    active_ = k;
    for (auto [i, v] : steps_[k].set) values_[i] = v;
  }

  std::vector<std::string> outputs_;
  bool cyclic_ = false;
  std::vector<Step> steps_;
  std::vector<SignalInput> conds_;
  std::vector<double> values_, initial_;
  size_t active_ = 0;
  std::string startRef_, stopRef_, resetRef_;
  signal::LogicInput start_, stop_, reset_;
  bool running_ = true;
};
PM_REGISTER(StepSequence)

}  // namespace pm
