#include "user/user_component.h"

#include "element/element.h"
#include "model/project_error.h"
#include "pneumatics/gas.h"
#include "user/condition.h"
#include "user/definition.h"
#include "user/user_element.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <numbers>
#include <set>
#include <sstream>

namespace pm::user {

using nlohmann::json;

int lineOf(const std::string& text, const std::string& needle, size_t from, int occurrence) {
  size_t at = text.find(needle, from);
  for (int k = 0; k < occurrence && at != std::string::npos; ++k) at = text.find(needle, at + 1);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

namespace {

const std::set<std::string> kKeys = {"format",    "name",      "category", "description", "symbol",
                                     "symbol_svg", "ports",    "parameters", "states",    "variables",
                                     "equations", "flows",     "volumes",  "outputs",     "discrete",
                                     "events",    "forces"};

class DefinitionReader {
 public:
  DefinitionReader(const json& def, const std::string& file, const std::string& text)
      : def_(def), file_(file), text_(text) {}

  ComponentType read() {
    if (!def_.is_object()) fail("", "", "a user component is a JSON object");
    d_ = std::make_shared<Definition>();
    d_->file = file_;
    d_->name = str(def_, "name", "name");
    name_ = d_->name;
    if (!isIdentifier(name_)) fail("name", name_, "a type name is letters, digits and '_', not starting with a digit");
    start_ = text_.find(json(name_).dump());
    if (start_ == std::string::npos) start_ = 0;
    for (auto it = def_.begin(); it != def_.end(); ++it)
      if (!kKeys.count(it.key())) fail(it.key(), it.key(), "unknown field");
    if (def_.contains("format") && str(def_, "format", "format") != "pneumech-user-component")
      fail("format", str(def_, "format", "format"), "expected \"pneumech-user-component\"");
    t_.name = name_;
    t_.category = def_.contains("category") ? str(def_, "category", "category") : "User components";
    t_.description = def_.contains("description") ? str(def_, "description", "description") : "";
    t_.symbol = def_.contains("symbol") ? str(def_, "symbol", "symbol") : "";
    constants();
    ports();
    parameters();
    states();
    discretes();
    variables();
    equations();
    flows();
    volumes();
    portsHaveFlows();
    outputs();
    events();
    forces();
    symbolFile();
    t_.origin = file_;
    t_.definition = def_;
    std::shared_ptr<const Definition> d = d_;
    t_.create = [d](const Component& c) { return makeElement(c, d); };
    return std::move(t_);
  }

 private:
  // ---------------------------------------------------------------- messages
  [[noreturn]] void fail(const std::string& field, const std::string& quoted, const std::string& why) {
    const int line = quoted.empty() ? 0 : lineOf(text_, json(quoted).dump(), start_, seen_[quoted]);
    throw ProjectError(file_, name_.empty() ? std::string("user component") : name_, field,
                       (line > 0 ? "line " + std::to_string(line) + ": " : std::string()) + why);
  }
  Where where(const std::string& field, const std::string& text) {
    const int line = lineOf(text_, json(text).dump(), start_, seen_[text]++);
    return {file_, line, field, 0, {}};
  }
  // Compiles `text`, turning an ExpressionError into a ProjectError.
  Program expr(const std::string& field, const std::string& text, Dim* dim, const Symbols& syms) {
    const Where w = where(field, text);
    try {
      return compileExpression(text, w, syms, dim);
    } catch (const ExpressionError& e) {
      throw ProjectError(file_, name_, field,
                         (w.line > 0 ? "line " + std::to_string(w.line) + ": " : std::string()) + "'" + e.text() +
                             "': " + e.why());
    }
  }
  // An expression given as a JSON string, or a number written as one.
  std::string exprText(const json& j, const char* key, const std::string& field, const char* def = nullptr) {
    if (!j.contains(key)) {
      if (def) return def;
      fail(field + "." + key, "", "missing field");
    }
    const json& v = j.at(key);
    if (v.is_number()) return v.dump();
    if (!v.is_string()) fail(field + "." + key, "", "expected an expression (a string) or a number");
    return v.get<std::string>();
  }
  Program checked(const std::string& field, const std::string& text, const Dim& want, const char* what,
                  bool constantOnly = false) {
    Dim d;
    Program p = expr(field, text, &d, syms_);
    if (!d.free && !d.same(want))
      throw ProjectError(file_, name_, field, lineText(p) + "'" + text + "': unit mismatch: " + what + " has the unit " +
                                                  dimText(want) + ", the expression " + dimText(d));
    if (constantOnly)
      for (int s : p.reads())
        if (!constant_.count(s))
          throw ProjectError(file_, name_, field, lineText(p) + "'" + text +
                                                      "': an initial value reads parameters and constants only");
    return p;
  }
  static std::string lineText(const Program& p) {
    return p.where().line > 0 ? "line " + std::to_string(p.where().line) + ": " : std::string();
  }
  std::string str(const json& j, const char* key, const std::string& field) {
    if (!j.contains(key)) fail(field, "", "missing field");
    if (!j.at(key).is_string()) fail(field, "", "expected a string");
    return j.at(key).get<std::string>();
  }
  double num(const json& j, const char* key, const std::string& field, double def) {
    if (!j.contains(key)) return def;
    if (!j.at(key).is_number()) fail(field + "." + key, "", "expected a number");
    return j.at(key).get<double>();
  }
  bool flag(const json& j, const char* key, const std::string& field, bool def) {
    if (!j.contains(key)) return def;
    if (!j.at(key).is_boolean()) fail(field + "." + key, "", "expected true or false");
    return j.at(key).get<bool>();
  }
  const json& array(const char* key) {
    static const json kEmpty = json::array();
    if (!def_.contains(key)) return kEmpty;
    if (!def_.at(key).is_array()) fail(key, "", "expected an array");
    return def_.at(key);
  }
  // Calls body(entry, "key[i]") for each entry of the array `key`, each an object.
  template <class Body>
  void eachObject(const char* key, Body&& body) {
    int i = 0;
    for (const json& x : array(key)) {
      const std::string f = std::string(key) + "[" + std::to_string(i++) + "]";
      if (!x.is_object()) fail(f, "", "expected an object");
      body(x, f);
    }
  }
  Dim unit(const std::string& field, const std::string& u) {
    try {
      return parseUnit(u);
    } catch (const std::invalid_argument& e) {
      fail(field, u, e.what());
    }
  }

  // ---------------------------------------------------------------- symbols
  int slot() { return d_->slots++; }
  int symbol(const std::string& name, const Dim& dim, bool constant, const std::string& field) {
    if (syms_.count(name)) fail(field, name, "the name '" + name + "' is already used (names must be unique)");
    const int s = slot();
    syms_[name] = {s, dim, constant};
    if (constant) constant_.insert(s);
    return s;
  }
  void constants() {
    const auto fixed = [&](const char* n, double v, const char* u) {
      d_->constants.push_back({symbol(n, parseUnit(u), true, ""), v});
    };
    fixed("pi", std::numbers::pi, "1");
    fixed("R_air", gas::R, "J/(kg K)");
    fixed("kappa", gas::kappa, "1");
    fixed("cp", gas::cp, "J/(kg K)");
    fixed("rho_ref", gas::rho0, "kg/m3");
    fixed("T_ref", gas::T0, "K");
    fixed("p_ref", gas::p_anr, "Pa");
    d_->pAmb = symbol("p_amb", parseUnit("Pa"), true, "");
    d_->TAmb = symbol("T_amb", parseUnit("K"), true, "");
    d_->time = symbol("time", parseUnit("s"), false, "");
  }
  void ports() {
    eachObject("ports", [&](const json& p, const std::string& f) {
      const std::string n = str(p, "name", f + ".name");
      const std::string domain = p.contains("domain") ? str(p, "domain", f + ".domain") : "pneumatic";
      const std::string doc = p.contains("doc") ? str(p, "doc", f + ".doc") : "";
      if (!isIdentifier("p_" + n)) fail(f + ".name", n, "a port name is letters, digits and '_'");
      if (domain == "pneumatic") {
        t_.ports.push_back({n, Domain::Pneumatic, doc});
        d_->ports.push_back({n, symbol("p_" + n, parseUnit("Pa"), false, f), symbol("T_" + n, parseUnit("K"), false, f)});
      } else if (domain == "signal") {
        const bool required = flag(p, "required", f, true);
        t_.inputs.push_back({n, doc, required});
        const Dim dim = unit(f + ".unit", p.contains("unit") ? str(p, "unit", f + ".unit") : "1");
        d_->inputs.push_back({n, symbol(n, dim, false, f)});
      } else if (domain == "mechanical") {
        Definition::Mechanical& m = d_->mech;
        if (m.present) fail(f + ".name", n, "a user component has at most one mechanical port");
        t_.ports.push_back({n, Domain::Mechanical, doc});
        m.present = true;
        m.name = n;
        m.q = "x_" + n;
        m.w = "v_" + n;
        m.x = symbol(m.q, parseUnit("m"), false, f);
        m.v = symbol(m.w, parseUnit("m/s"), false, f);
      } else {
        fail(f + ".domain", domain, "expected \"pneumatic\", \"signal\" or \"mechanical\"");
      }
    });
  }
  void parameters() {
    eachObject("parameters", [&](const json& p, const std::string& f) {
      ParamDecl pd;
      pd.name = str(p, "name", f + ".name");
      pd.unit = str(p, "unit", f + ".unit");
      // A standard (ANR) volume flow is given in Nl/min and read in the
      // expressions as the mass flow it stands for, in kg/s.
      const bool standardFlow = pd.unit == "Nl/min";
      const Dim dim = standardFlow ? parseUnit("kg/s") : unit(f + ".unit", pd.unit);
      d_->paramScale.push_back(standardFlow ? gas::rho0 * 1e-3 / 60.0 : 1.0);
      if (!p.contains("default")) fail(f + ".default", pd.name, "missing field");
      pd.def = num(p, "default", f, 0.0);
      pd.min = num(p, "min", f, -1e300);
      pd.max = num(p, "max", f, 1e300);
      pd.min_open = flag(p, "min_open", f, false);
      pd.max_open = flag(p, "max_open", f, false);
      pd.doc = p.contains("doc") ? str(p, "doc", f + ".doc") : "";
      if (!isIdentifier(pd.name)) fail(f + ".name", pd.name, "a parameter name is letters, digits and '_'");
      d_->params.push_back({pd.name, symbol(pd.name, dim, true, f + ".name")});
      t_.params.push_back(std::move(pd));
    });
  }
  void states() {
    eachObject("states", [&](const json& s, const std::string& f) {
      Definition::State st;
      st.name = str(s, "name", f + ".name");
      st.unit = str(s, "unit", f + ".unit");
      const Dim dim = unit(f + ".unit", st.unit);
      const std::string kind = s.contains("kind") ? str(s, "kind", f + ".kind") : "differential";
      if (kind != "differential" && kind != "algebraic") fail(f + ".kind", kind, "expected \"differential\" or \"algebraic\"");
      st.differential = kind == "differential";
      st.atol = num(s, "abs_tol", f, 1e-6);
      if (!(st.atol > 0.0)) fail(f + ".abs_tol", "", "must be > 0");
      if (!isIdentifier(st.name)) fail(f + ".name", st.name, "a state name is letters, digits and '_'");
      const std::string init = exprText(s, "initial", f, "0");
      st.initial = checked(f + ".initial", init, dim, "the state", true);
      st.slot = symbol(st.name, dim, false, f + ".name");
      st.der = slot();
      derDim_.push_back(dim.over(parseUnit("s")));
      d_->states.push_back(std::move(st));
    });
  }
  void variables() {
    eachObject("variables", [&](const json& v, const std::string& f) {
      Definition::Variable var;
      var.name = str(v, "name", f + ".name");
      if (!isIdentifier(var.name)) fail(f + ".name", var.name, "a variable name is letters, digits and '_'");
      Dim dim;
      const std::string text = exprText(v, "value", f);
      if (v.contains("unit")) {
        dim = unit(f + ".unit", str(v, "unit", f + ".unit"));
        var.value = checked(f + ".value", text, dim, "the variable");
      } else {
        var.value = expr(f + ".value", text, &dim, syms_);
      }
      var.constant = std::all_of(var.value.reads().begin(), var.value.reads().end(),
                                 [&](int s) { return constant_.count(s) > 0; });
      var.slot = symbol(var.name, dim, var.constant, f + ".name");
      d_->variables.push_back(std::move(var));
    });
  }
  void equations();
  void discretes();
  void events();
  void forces();
  void symbolFile();
  void flows();
  void volumes();
  void portsHaveFlows();
  void outputs();
  int portIndex(const std::string& field, const std::string& port) {
    for (size_t k = 0; k < d_->ports.size(); ++k)
      if (d_->ports[k].name == port) return static_cast<int>(k);
    fail(field, port, "no pneumatic port '" + port + "'");
  }

  const json& def_;
  const std::string& file_;
  const std::string& text_;
  std::string name_;
  size_t start_ = 0;
  std::map<std::string, int> seen_;  // occurrences of a text located so far
  std::shared_ptr<Definition> d_;
  ComponentType t_;
  Symbols syms_;
  std::set<int> constant_;
  std::vector<Dim> derDim_;
  std::vector<Dim> discreteDim_;
};

// Each differential state has one "der(x) = ..." and the algebraic states
// take the "0 = ..." equations in order.
void DefinitionReader::equations() {
  std::vector<bool> given(d_->states.size(), false);
  size_t nextAlgebraic = 0;
  int i = 0;
  for (const json& e : array("equations")) {
    const std::string f = "equations[" + std::to_string(i++) + "]";
    if (!e.is_string()) fail(f, "", "expected an equation (a string)");
    const std::string text = e.get<std::string>();
    size_t eq = std::string::npos;
    for (size_t k = 0; k < text.size(); ++k) {
      const bool partOfOp = (k > 0 && std::string("<>=!").find(text[k - 1]) != std::string::npos) ||
                            (k + 1 < text.size() && text[k + 1] == '=');
      if (text[k] == '=' && !partOfOp) {
        if (eq != std::string::npos) fail(f, text, "'" + text + "': syntax error: more than one '='");
        eq = k;
      }
    }
    if (eq == std::string::npos) fail(f, text, "'" + text + "': syntax error: an equation reads 'der(x) = ...' or '0 = ...'");
    std::string lhs = text.substr(0, eq);
    lhs.erase(std::remove_if(lhs.begin(), lhs.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
              lhs.end());
    int target = -1;
    for (size_t k = 0; k < d_->states.size(); ++k)
      if (d_->states[k].differential && lhs == "der(" + d_->states[k].name + ")") target = static_cast<int>(k);
    if (target < 0 && lhs == "0") {
      while (nextAlgebraic < d_->states.size() && d_->states[nextAlgebraic].differential) ++nextAlgebraic;
      if (nextAlgebraic == d_->states.size()) fail(f, text, "'" + text + "': more '0 = ...' equations than algebraic states");
      target = static_cast<int>(nextAlgebraic++);
    }
    if (target < 0) fail(f, text, "'" + text + "': the left side must be der(<differential state>) or 0");
    Definition::State& st = d_->states[static_cast<size_t>(target)];
    if (given[static_cast<size_t>(target)]) fail(f, text, "'" + text + "': a second equation for der(" + st.name + ")");
    given[static_cast<size_t>(target)] = true;
    Where w = where(f, text);
    w.whole = text;
    w.column0 = eq + 1;
    Dim d;
    try {
      st.rhs = compileExpression(text.substr(eq + 1), w, syms_, &d);
    } catch (const ExpressionError& x) {
      throw ProjectError(file_, name_, f, (w.line > 0 ? "line " + std::to_string(w.line) + ": " : std::string()) + "'" +
                                              x.text() + "': " + x.why());
    }
    const Dim want = st.differential ? derDim_[static_cast<size_t>(target)] : d;
    if (!d.free && !d.same(want))
      throw ProjectError(file_, name_, f, lineText(st.rhs) + "'" + text + "': unit mismatch: der(" + st.name +
                                              ") has the unit " + dimText(want) + ", the right side " + dimText(d));
  }
  for (size_t k = 0; k < d_->states.size(); ++k)
    if (!given[k])
      fail("equations", d_->states[k].name,
           "state '" + d_->states[k].name + "' has no equation (" +
               (d_->states[k].differential ? "der(" + d_->states[k].name + ") = ..." : std::string("0 = ...")) + ")");
}

// Discrete states: a name (its unit, default 1) and an initial value of
// parameters and constants.
void DefinitionReader::discretes() {
  eachObject("discrete", [&](const json& x, const std::string& f) {
    Definition::Discrete d;
    d.name = str(x, "name", f + ".name");
    if (!isIdentifier(d.name)) fail(f + ".name", d.name, "a discrete state's name is letters, digits and '_'");
    const Dim dim = x.contains("unit") ? unit(f + ".unit", str(x, "unit", f + ".unit")) : Dim();
    d.initial = checked(f + ".initial", exprText(x, "initial", f, "0"), dim, "the discrete state", true);
    d.slot = symbol(d.name, dim, false, f + ".name");
    discreteDim_.push_back(dim);
    d_->discretes.push_back(std::move(d));
  });
}

// {"when": "<a> > <b> and (<c> < <d> or ...)", "set": {"<discrete>": "<expression>"}}:
// each comparison's two sides give a root function a - b (user/condition.h).
void DefinitionReader::events() {
  eachObject("events", [&](const json& x, const std::string& f) {
    Definition::Event ev;
    const std::string when = exprText(x, "when", f);
    ParsedCondition cond;
    try {
      cond = parseCondition(when);
    } catch (const std::invalid_argument& e) {
      fail(f + ".when", when, "'" + when + "': " + e.what());
    }
    ev.condition = std::move(cond.nodes);
    for (const ParsedCondition::Comparison& c : cond.comparisons) {
      Definition::Comparison cmp;
      cmp.rising = c.rising;
      cmp.strict = c.strict;
      Dim a, b;
      cmp.lhs = expr(f + ".when", c.lhs, &a, syms_);
      cmp.rhs = expr(f + ".when", c.rhs, &b, syms_);
      if (!a.free && !b.free && !a.same(b))
        fail(f + ".when", when,
             "'" + when + "': unit mismatch: '" + c.lhs + "' against '" + c.rhs + "' compares " + dimText(a) + " and " +
                 dimText(b));
      ev.comparisons.push_back(std::move(cmp));
    }
    if (!x.contains("set") || !x.at("set").is_object() || x.at("set").empty())
      fail(f + ".set", "", "expected an object of discrete state: expression");
    for (auto it = x.at("set").begin(); it != x.at("set").end(); ++it) {
      int k = -1;
      for (size_t i = 0; i < d_->discretes.size(); ++i)
        if (d_->discretes[i].name == it.key()) k = static_cast<int>(i);
      if (k < 0) fail(f + ".set." + it.key(), it.key(), "'" + it.key() + "' is not a discrete state (declare it in \"discrete\")");
      const std::string text = it.value().is_number() ? it.value().dump() : exprText(x.at("set"), it.key().c_str(), f + ".set");
      ev.set.push_back({k, checked(f + ".set." + it.key(), text, discreteDim_[static_cast<size_t>(k)], "the discrete state")});
    }
    d_->events.push_back(std::move(ev));
  });
}

// A symbol of the user's own (an SVG beside the definition): each port is
// an element with id="port-<name>" in it, where lines meet the port.
// {"port": "<mechanical port>", "force": [N], "mass": [kg], "x0": [m]}:
// the force along the port's line; mass and x0 for a free (unattached) one.
void DefinitionReader::forces() {
  Definition::Mechanical& m = d_->mech;
  eachObject("forces", [&](const json& x, const std::string& f) {
    const std::string port = str(x, "port", f + ".port");
    if (!m.present || port != m.name) fail(f + ".port", port, "no mechanical port '" + port + "'");
    if (m.hasForce) fail(f + ".port", port, "a second force for port '" + port + "'");
    m.hasForce = true;
    m.force = checked(f + ".force", exprText(x, "force", f), parseUnit("N"), "a force");
    m.hasMass = x.contains("mass");
    if (m.hasMass) m.mass = checked(f + ".mass", exprText(x, "mass", f), parseUnit("kg"), "a mass", true);
    m.x0 = checked(f + ".x0", exprText(x, "x0", f, "0"), parseUnit("m"), "a position", true);
  });
  if (m.present && !m.hasForce)
    fail("ports", m.name, "mechanical port '" + m.name + "' has no force definition (give it one in \"forces\")");
}

void DefinitionReader::symbolFile() {
  try {
    readSymbol(def_, file_, t_);
  } catch (const std::invalid_argument& e) {
    fail(symbolField(def_), t_.symbol, e.what());
  }
}

void DefinitionReader::flows() {
  eachObject("flows", [&](const json& fl, const std::string& f) {
    Definition::Flow x;
    x.from = portIndex(f + ".from", str(fl, "from", f + ".from"));
    x.to = portIndex(f + ".to", str(fl, "to", f + ".to"));
    if (x.from == x.to) fail(f + ".to", str(fl, "to", f + ".to"), "a flow goes between two different ports");
    x.q = checked(f + ".mass_flow", exprText(fl, "mass_flow", f), parseUnit("kg/s"), "a mass flow");
    d_->flows.push_back(std::move(x));
  });
}

void DefinitionReader::volumes() {
  eachObject("volumes", [&](const json& v, const std::string& f) {
    Definition::Volume x;
    x.port = portIndex(f + ".port", str(v, "port", f + ".port"));
    x.V = checked(f + ".volume", exprText(v, "volume", f), parseUnit("m3"), "a volume");
    x.hasRate = v.contains("volume_rate");
    if (x.hasRate) x.dVdt = checked(f + ".volume_rate", exprText(v, "volume_rate", f), parseUnit("m3/s"), "a volume rate");
    x.hasHeat = v.contains("heat");
    if (x.hasHeat) x.heat = checked(f + ".heat", exprText(v, "heat", f), parseUnit("W"), "a heat flow");
    x.p0 = checked(f + ".p0", exprText(v, "p0", f, "p_amb"), parseUnit("Pa"), "a pressure", true);
    x.T0 = checked(f + ".T0", exprText(v, "T0", f, "T_amb"), parseUnit("K"), "a temperature", true);
    x.isothermal = checked(f + ".isothermal", exprText(v, "isothermal", f, "0"), Dim(), "the switch", true);
    x.Twall = checked(f + ".T_wall", exprText(v, "T_wall", f, "T_amb"), parseUnit("K"), "a temperature", true);
    d_->volumes.push_back(std::move(x));
  });
}

void DefinitionReader::portsHaveFlows() {
  for (size_t k = 0; k < d_->ports.size(); ++k) {
    const int p = static_cast<int>(k);
    const bool used = std::any_of(d_->flows.begin(), d_->flows.end(), [&](auto& x) { return x.from == p || x.to == p; }) ||
                      std::any_of(d_->volumes.begin(), d_->volumes.end(), [&](auto& x) { return x.port == p; });
    if (!used)
      fail("ports", d_->ports[k].name,
           "pneumatic port '" + d_->ports[k].name + "' has no flow definition (name it in a flow's from/to or a volume)");
  }
}

void DefinitionReader::outputs() {
  std::set<std::string> names;
  eachObject("outputs", [&](const json& o, const std::string& f) {
    Definition::Output x;
    x.name = str(o, "name", f + ".name");
    x.unit = str(o, "unit", f + ".unit");
    if (!isIdentifier(x.name) || !names.insert(x.name).second)
      fail(f + ".name", x.name, "an output name is letters, digits and '_', and unique");
    x.value = checked(f + ".value", exprText(o, "value", f), unit(f + ".unit", x.unit), "the output");
    t_.channels.push_back({x.name, x.unit, o.contains("doc") ? str(o, "doc", f + ".doc") : ""});
    d_->outputs.push_back(std::move(x));
  });
}

}  // namespace

std::string symbolField(const json& def) { return def.contains("symbol_svg") ? "symbol_svg" : "symbol"; }

void readSymbol(const json& def, const std::string& file, ComponentType& t) {
  namespace fs = std::filesystem;
  std::string svg, what;
  if (def.contains("symbol_svg")) {
    if (!def.at("symbol_svg").is_string()) throw std::invalid_argument("expected the SVG's text (a string)");
    svg = def.at("symbol_svg").get<std::string>();
    what = "the symbol carried in the definition";
  } else {
    const std::string& symbol = t.symbol;
    if (symbol.size() < 4 || symbol.substr(symbol.size() - 4) != ".svg") return;
    fs::path path(symbol);
    if (path.is_relative()) path = fs::path(file).parent_path() / path;
    std::ifstream in(path, std::ios::binary);
    // A project's copy saved before symbols travelled with it opens without
    // the drawing (the generated box stands in); a library file must have it.
    const bool inProject = file.size() > 14 && file.compare(file.size() - 14, 14, ".pneumech.json") == 0;
    if (!in && inProject) {
      t.symbol.clear();
      return;
    }
    if (!in) throw std::invalid_argument("symbol file '" + path.string() + "' cannot be read");
    std::stringstream ss;
    ss << in.rdbuf();
    svg = ss.str();
    what = "symbol '" + path.string() + "'";
    t.symbol = fs::absolute(path).lexically_normal().string();
  }
  if (svg.size() > kMaxSymbolBytes)
    throw std::invalid_argument(what + " is larger than " + std::to_string(kMaxSymbolBytes >> 20) + " MiB");
  if (svg.find("<svg") == std::string::npos) throw std::invalid_argument(what + " is not an SVG file");
  std::vector<std::string> names;
  for (const PortDecl& p : t.ports) names.push_back(p.name);
  for (const InputDecl& in : t.inputs) names.push_back(in.name);
  for (const std::string& n : names)
    if (svg.find("id=\"port-" + n + "\"") == std::string::npos)
      throw std::invalid_argument(what + " has no anchor for port '" + n + "' (an element with id=\"port-" + n +
                                  "\" where the port's lines meet)");
  t.symbol_svg = std::move(svg);
}

ComponentType compileComponent(const json& def, const std::string& file, const std::string& text) {
  return DefinitionReader(def, file, text).read();
}

std::string registerComponent(const json& def, const std::string& file, const std::string& text) {
  return registerUserType(compileComponent(def, file, text), file);
}

std::string registerUserType(ComponentType t, const std::string& file) {
  const std::string name = t.name;
  try {
    Registry::instance().addUser(std::move(t));
  } catch (const std::invalid_argument& e) {
    throw ProjectError(file, name, "", e.what());
  }
  return name;
}

std::vector<std::string> loadLibrary(const std::string& dir, const SubcircuitLoader& subcircuit) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ProjectError(dir, "", "", "user library folder not found");
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  if (ec) throw ProjectError(dir, "", "", "cannot read the folder: " + ec.message());
  std::sort(files.begin(), files.end());
  // Every good file is registered; the bad ones are reported together after.
  std::vector<std::string> names, errors;
  struct Pending {
    std::string file, text;
    json def;
    std::string error;
  };
  std::vector<Pending> subcircuits;
  for (const fs::path& p : files) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    try {
      json def;
      try {
        def = json::parse(text);
      } catch (const json::exception& e) {
        throw ProjectError(p.string(), "", "", std::string("malformed JSON: ") + e.what());
      }
      if (subcircuit && def.is_object() && def.value("format", json()) == "pneumech-subcircuit")
        subcircuits.push_back({p.string(), text, def, {}});
      else
        names.push_back(registerComponent(def, p.string(), text));
    } catch (const ProjectError& e) {
      errors.push_back(e.what());
    }
  }
  // Rounds until none registers: one may use another of the folder.
  for (bool progress = true; progress && !subcircuits.empty();) {
    progress = false;
    std::vector<Pending> left;
    for (Pending& s : subcircuits) {
      try {
        names.push_back(subcircuit(s.def, s.file, s.text));
        progress = true;
      } catch (const ProjectError& e) {
        s.error = e.what();
        left.push_back(std::move(s));
      }
    }
    subcircuits = std::move(left);
  }
  for (const Pending& s : subcircuits) errors.push_back(s.error);
  if (errors.size() == 1) throw ProjectError(dir, "", "", errors[0]);
  if (!errors.empty()) {
    std::string all = std::to_string(errors.size()) + " user components refused:";
    for (const std::string& e : errors) all += "\n  " + e;
    throw ProjectError(dir, "", "", all);
  }
  return names;
}

}  // namespace pm::user
