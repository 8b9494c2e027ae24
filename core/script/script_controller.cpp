// Scripted controller (seed 002 sec. 3): a sampled block whose behaviour is
// an ECMAScript program written by the user.
//
//   data.inputs   {"x": "cyl1.x", "start": "b1.out"}   names the script reads
//   data.outputs  ["sol14", "u"] or {"u": 0.5}          published "<id>.<name>",
//                                                      initial values (default 0)
//   data.script   program text (a string or an array of lines), or
//   data.file     a .js file, relative to the project file and inside its
//                 folder (io/confined_file.h): a project cannot make the
//                 program read a file elsewhere, nor quote one in an error
//
// At t = 0 the program's init() (optional) and step(0, inputs) run; then
// step(k Ts, inputs) at every sample instant k Ts, as a root of t - k Ts like
// the other sampled blocks. step returns {output: value, ...} (booleans count
// as 1/0); outputs it leaves out, and all outputs between samples, hold
// their value (zero-order hold).
//
// step() runs once per sample instant on accepted time: only update() calls
// it, and IDA calls update() only at located events. When update() runs
// again at the same instant (the event settles in several passes), step()
// is called again only if an input changed since its last call, and then
// from the script state saved before the instant (ScriptProgram::save), so
// the result does not depend on the order of the elements.
#include "control/signal_block.h"
#include "element/system_builder.h"
#include "model/component_type.h"
#include "script/script_program.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <set>
#include <stdexcept>

namespace pm {

namespace {

bool identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
  return true;
}

// "field: message" errors of the data section (everything but the program text),
// field relative to data.
std::vector<std::string> checkData(const Component& c) {
  std::vector<std::string> err;
  const nlohmann::json& d = c.data;
  if (!d.is_object()) return {"outputs: missing (data needs inputs, outputs and script or file)"};
  for (const auto& [key, v] : d.items()) {
    (void)v;
    if (key != "inputs" && key != "outputs" && key != "script" && key != "file")
      err.push_back(key + ": unknown field (expected inputs, outputs, script, file)");
  }
  if (d.contains("inputs")) {
    if (!d["inputs"].is_object()) {
      err.push_back("inputs: must be an object {name: \"<id>.<channel>\"}");
    } else {
      for (const auto& [name, ref] : d["inputs"].items()) {
        const std::string f = "inputs." + name;
        if (!identifier(name)) err.push_back(f + ": input names are identifiers (letters, digits, '_')");
        if (!ref.is_string()) {
          err.push_back(f + ": must be a signal reference \"<id>.<channel>\" (a string)");
          continue;
        }
        const std::string r = ref.get<std::string>();
        const auto dot = r.find('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == r.size())
          err.push_back(f + ": signal reference '" + r + "' must read '<component id>.<channel>'");
      }
    }
  }
  if (!d.contains("outputs")) {
    err.push_back("outputs: missing (the names the script writes, e.g. [\"sol14\"])");
  } else {
    const nlohmann::json& o = d["outputs"];
    std::vector<std::string> names;
    if (o.is_array()) {
      for (const auto& n : o)
        if (n.is_string())
          names.push_back(n.get<std::string>());
        else
          err.push_back("outputs: names must be strings");
    } else if (o.is_object()) {
      for (const auto& [n, v] : o.items()) {
        names.push_back(n);
        if (!v.is_number()) err.push_back("outputs." + n + ": initial value must be a number");
      }
    } else {
      err.push_back("outputs: must be a list of names or an object {name: initial value}");
    }
    if (names.empty() && (o.is_array() || o.is_object())) err.push_back("outputs: declare at least one output");
    std::set<std::string> seen;
    for (const auto& n : names) {
      if (!identifier(n)) err.push_back("outputs." + n + ": output names are identifiers (letters, digits, '_')");
      if (!seen.insert(n).second) err.push_back("outputs." + n + ": declared twice");
    }
  }
  const bool hasScript = d.contains("script"), hasFile = d.contains("file");
  if (hasScript == hasFile) err.push_back("script: give the program either as data.script or as data.file");
  if (hasScript) {
    const nlohmann::json& s = d["script"];
    bool ok = s.is_string() || s.is_array();
    if (s.is_array())
      for (const auto& l : s) ok = ok && l.is_string();
    if (!ok) err.push_back("script: must be the program text, a string or an array of lines");
  }
  if (hasFile && (!d["file"].is_string() || d["file"].get<std::string>().empty()))
    err.push_back("file: must be the path of a .js file (relative to the project file)");
  return err;
}

class ScriptController : public Element {
 public:
  explicit ScriptController(const Component& c)
      : Element(c.id),
        clock_(Params(c)("sample_time")),
        timeLimit_(Params(c)("time_limit")),
        memoryLimit_(Params(c)("memory_limit")) {
    // Checked here, at compile time, not by check_data at load: a controller
    // just placed (no program yet) saves and opens again.
    const std::vector<std::string> err = checkData(c);
    if (!err.empty()) throw std::runtime_error("data." + err.front());
    const nlohmann::json& d = c.data;
    if (d.contains("inputs"))
      for (const auto& [name, ref] : d["inputs"].items()) inputs_.push_back({name, ref.get<std::string>(), {}});
    std::vector<std::string> outNames;
    if (d["outputs"].is_array()) {
      for (const auto& n : d["outputs"]) outNames.push_back(n.get<std::string>());
      held_.assign(outNames.size(), 0.0);
    } else {
      for (const auto& [n, v] : d["outputs"].items()) {
        outNames.push_back(n);
        held_.push_back(v.get<double>());
      }
    }
    outNames_ = outNames;
    start_ = held_;
    if (d.contains("script")) {
      std::string source;
      if (d["script"].is_string()) {
        source = d["script"].get<std::string>();
      } else {
        for (const auto& l : d["script"]) source += l.get<std::string>() + "\n";
      }
      makeProgram(source, "script", "data.script");
    } else {
      file_ = d["file"].get<std::string>();  // read in setup(), beside the project file
    }
  }

  static ComponentType declare() {
    ComponentType t;
    t.name = "script_controller";
    t.category = "Controllers";
    t.symbol = "script_controller";
    t.description =
        "Scripted controller: an ECMAScript program (data.script or data.file) whose step(t, inputs) runs at every "
        "sample instant, reads the signals named in data.inputs and writes the outputs named in data.outputs "
        "(held between samples)";
    t.params = {{"sample_time", "s", 0.01, 0.0, 1e6, true, false,
                 "period of step(t, inputs); the outputs are held between samples"},
                {"time_limit", "s", 10.0, 0.0, 1e6, true, false,
                 "wall time after which one call into the script is stopped as an endless loop"},
                {"memory_limit", "B", 256e6, 1e6, 1e12, false, false,
                 "growth of the program's memory (over all its calls) at which the script is stopped as a runaway "
                 "allocation"}};
    t.create = [](const Component& c) { return std::make_unique<ScriptController>(c); };
    t.initial_data = nlohmann::json::parse(
        R"({"inputs": {}, "outputs": ["Y1"], "script": ["function step(t, s) { return { Y1: t >= 0.5 }; }"]})");
    t.data_refs = [](nlohmann::json& d, const ComponentType::RefVisitor& visit) {  // inputs' values
      const auto in = d.is_object() ? d.find("inputs") : d.end();
      if (in == d.end() || !in->is_object()) return;
      for (auto& ref : *in)
        if (ref.is_string()) visit(ref.get_ref<std::string&>());
    };
    t.held_outputs = [](const Component& c) {  // all outputs (bad data is reported by create)
      std::vector<std::string> names;
      const nlohmann::json* o = c.data.is_object() && c.data.contains("outputs") ? &c.data["outputs"] : nullptr;
      if (o && o->is_array()) {
        for (const auto& n : *o)
          if (n.is_string()) names.push_back(n.get<std::string>());
      } else if (o && o->is_object()) {
        for (auto it = o->begin(); it != o->end(); ++it) names.push_back(it.key());
      }
      return names;
    };
    return t;
  }

  void setup(SystemBuilder& b) override {
    if (!program_) {
      std::string source;
      try {
        source = b.readProjectFile(file_);
      } catch (const std::exception& e) {
        throw std::runtime_error("data.file: cannot read script file '" + file_ + "': " + e.what());
      }
      makeProgram(source, file_, "data.file");
    }
    for (auto& i : inputs_) b.input(i.in, "data.inputs." + i.name, i.ref);
    b.roots(1);
    for (size_t k = 0; k < outNames_.size(); ++k) {
      b.channel(outNames_[k], "1");
      b.publish(outNames_[k], [this, k](const Eval&) { return held_[k]; });
    }
  }
  void evaluate(Eval&) override {}
  double nextTimeEvent() const override { return clock_.next(); }
  void roots(const Eval& e, double* g) override { g[0] = clock_.root(e); }

  bool update(const Eval& e) override {
    if (!clock_.tick(e)) return false;
    std::vector<double> u(inputs_.size());
    for (size_t k = 0; k < inputs_.size(); ++k) u[k] = inputs_[k].in(e);
    const bool fresh = clock_.fresh();
    if (fresh) {
      before_ = held_;
      withInit_ = e.initializing;
    } else if (u == used_) {
      return false;
    }
    used_ = u;
    std::vector<double> out = withInit_ ? start_ : before_;
    try {
      program_->sample(e.t, u, out, fresh, withInit_);
    } catch (const std::exception& ex) {
      throw std::runtime_error(id() + ": script error at t = " + std::to_string(e.t) + " s: " + ex.what());
    }
    if (out == held_) return false;
    held_ = out;
    return true;
  }

  void output(const Eval&, double* ch) override {
    for (size_t k = 0; k < held_.size(); ++k) ch[k] = held_[k];
  }

 private:
  struct Input {
    std::string name, ref;
    SignalInput in;
  };
  void makeProgram(const std::string& source, const std::string& origin, const std::string& field) {
    std::vector<std::string> inNames;
    for (const auto& i : inputs_) inNames.push_back(i.name);
    try {
      program_ = std::make_unique<script::ScriptProgram>(source, origin, inNames, outNames_, clock_.period(),
                                                         timeLimit_, memoryLimit_);
    } catch (const std::exception& e) {
      throw std::runtime_error(field + ": " + e.what());
    }
  }

  std::vector<Input> inputs_;
  std::string file_;  // data.file, when the program is given as a file
  std::vector<std::string> outNames_;
  std::vector<double> held_, before_, start_, used_;
  bool withInit_ = false;
  signal::SampleClock clock_;
  double timeLimit_, memoryLimit_;
  std::unique_ptr<script::ScriptProgram> program_;
};

}  // namespace

PM_REGISTER(ScriptController)

}  // namespace pm
