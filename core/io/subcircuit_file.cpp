#include "io/subcircuit_file.h"

#include "element/element.h"
#include "io/project_file.h"
#include "model/project_error.h"
#include "user/user_component.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <stdexcept>

namespace pm {

using nlohmann::json;

bool isSubcircuitDefinition(const json& def) {
  return def.is_object() && def.contains("format") && def.at("format") == kSubcircuitFormat;
}

bool isSubcircuit(const ComponentType& t) { return !t.origin.empty() && isSubcircuitDefinition(t.definition); }

namespace {

const std::set<std::string> kKeys = {"format", "name",  "category", "description", "symbol", "symbol_svg",
                                     "ports",  "parameters", "inputs", "components", "connections"};

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

class SubcircuitReader {
 public:
  SubcircuitReader(const json& def, const std::string& file, const std::string& text)
      : def_(def), file_(file), text_(text) {}

  ComponentType read() {
    if (!def_.is_object()) fail("", "", "a sub-circuit is a JSON object");
    name_ = str(def_, "name", "name");
    if (!isIdentifier(name_)) fail("name", name_, "a type name is letters, digits and '_', not starting with a digit");
    start_ = text_.find(json(name_).dump());
    if (start_ == std::string::npos) start_ = 0;
    for (auto it = def_.begin(); it != def_.end(); ++it)
      if (!kKeys.count(it.key())) fail(it.key(), it.key(), "unknown field");
    if (str(def_, "format", "format") != kSubcircuitFormat)
      fail("format", str(def_, "format", "format"), std::string("expected \"") + kSubcircuitFormat + "\"");
    if (!def_.contains("components")) fail("components", "", "missing field (the components inside)");
    inside_ = inside(def_, file_, text_);
    t_.name = name_;
    t_.category = def_.contains("category") ? str(def_, "category", "category") : "Sub-circuits";
    t_.description = def_.contains("description") ? str(def_, "description", "description") : "";
    t_.symbol = def_.contains("symbol") ? str(def_, "symbol", "symbol") : "";
    ports();
    parameters();
    inputs();
    symbol();
    t_.origin = file_;
    t_.definition = def_;
    const std::string name = name_;
    t_.create = [name](const Component& c) -> std::unique_ptr<Element> {
      throw std::logic_error("sub-circuit '" + name + "' instance '" + c.id + "' was not expanded before compiling");
    };
    return std::move(t_);
  }

  // The inside as a project; an error in it names the sub-circuit too.
  static Project inside(const json& def, const std::string& file, const std::string& text) {
    try {
      return parseCircuitSection(def, file, text);
    } catch (const ProjectError& e) {
      const bool named = def.contains("name") && def.at("name").is_string();
      const std::string owner = named ? def.at("name").get<std::string>() : std::string("sub-circuit");
      throw ProjectError(e.file(), owner + (e.object().empty() ? "" : "/" + e.object()), e.field(), e.message());
    }
  }

 private:
  [[noreturn]] void fail(const std::string& field, const std::string& quoted, const std::string& why) const {
    const int line = quoted.empty() ? 0 : user::lineOf(text_, json(quoted).dump(), start_);
    throw ProjectError(file_, name_.empty() ? std::string("sub-circuit") : name_, field,
                       (line > 0 ? "line " + std::to_string(line) + ": " : std::string()) + why);
  }
  std::string str(const json& j, const char* key, const std::string& field) const {
    if (!j.contains(key)) fail(field, "", "missing field");
    if (!j.at(key).is_string()) fail(field, "", "expected a string");
    return j.at(key).get<std::string>();
  }
  template <class Body>
  void eachObject(const char* key, Body&& body) {
    if (!def_.contains(key)) return;
    if (!def_.at(key).is_array()) fail(key, "", "expected an array");
    int i = 0;
    std::set<std::string> names;
    for (const json& x : def_.at(key)) {
      const std::string f = std::string(key) + "[" + std::to_string(i++) + "]";
      if (!x.is_object()) fail(f, "", "expected an object");
      const std::string n = str(x, "name", f + ".name");
      if (n.empty() || n.find('.') != std::string::npos) fail(f + ".name", n, "a name is not empty and has no '.'");
      if (!names.insert(n).second) fail(f + ".name", n, "a second '" + n + "'");
      body(x, f, n);
    }
  }
  // "<inner id>.<name>" split at the last '.', its component found.
  std::pair<const Component*, std::string> inner(const std::string& field, const std::string& ref) const {
    const auto dot = ref.rfind('.');
    const Component* c = dot == std::string::npos ? nullptr : inside_.find(ref.substr(0, dot));
    if (!c) fail(field, ref, "'" + ref + "' names no component inside (expected '<inner id>.<name>')");
    return {c, ref.substr(dot + 1)};
  }
  std::vector<std::string> targets(const json& x, const std::string& f) const {
    if (!x.contains("targets") || !x.at("targets").is_array() || x.at("targets").empty())
      fail(f + ".targets", "", "expected a list of \"<inner id>.<name>\" (at least one)");
    std::vector<std::string> out;
    for (const json& t : x.at("targets")) {
      if (!t.is_string()) fail(f + ".targets", "", "expected strings \"<inner id>.<name>\"");
      out.push_back(t.get<std::string>());
    }
    return out;
  }

  // Each external port is one inner port; an external port connected to
  // nothing inside would be a port that does nothing, so it is refused.
  void ports() {
    std::set<std::string> used;
    eachObject("ports", [&](const json& x, const std::string& f, const std::string& n) {
      if (!x.contains("connect") || (x.at("connect").is_string() && x.at("connect").get<std::string>().empty()))
        fail(f + ".connect", n, "external port '" + n + "' is not connected to an inner port (give \"connect\": \"<inner id>.<port>\")");
      const std::string ref = str(x, "connect", f + ".connect");
      const auto [c, port] = inner(f + ".connect", ref);
      const ComponentType* t = Registry::instance().find(c->type);
      const PortDecl* d = t ? t->port(port) : nullptr;
      if (!d) fail(f + ".connect", ref, "external port '" + n + "': inner component '" + c->id + "' (" + c->type + ") has no port '" + port + "'");
      if (!used.insert(ref).second) fail(f + ".connect", ref, "inner port '" + ref + "' is already an external port");
      PortDecl p = *d;
      p.name = n;
      p.doc = x.contains("doc") ? str(x, "doc", f + ".doc") : d->doc;
      t_.ports.push_back(p);
    });
    if (t_.ports.empty()) fail("ports", "", "a sub-circuit needs at least one external port");
  }
  // An exposed parameter takes the declaration (unit, range) of its first
  // target, and as default the value the inside gives that target.
  void parameters() {
    eachObject("parameters", [&](const json& x, const std::string& f, const std::string& n) {
      ParamDecl decl;
      bool first = true;
      for (const std::string& ref : targets(x, f)) {
        const auto [c, param] = inner(f + ".targets", ref);
        const ComponentType* t = Registry::instance().find(c->type);
        const ParamDecl* d = t ? t->param(param) : nullptr;
        if (!d) fail(f + ".targets", ref, "inner component '" + c->id + "' (" + c->type + ") has no parameter '" + param + "'");
        if (first) {
          decl = *d;
          decl.def = c->params.count(param) ? c->params.at(param) : d->def;
        } else if (d->unit != decl.unit) {
          fail(f + ".targets", ref, "targets of one parameter have different units (" + decl.unit + ", " + d->unit + ")");
        }
        first = false;
      }
      decl.name = n;
      if (x.contains("doc")) decl.doc = str(x, "doc", f + ".doc");
      if (x.contains("default")) {
        if (!x.at("default").is_number()) fail(f + ".default", "", "expected a number (SI)");
        decl.def = x.at("default").get<double>();
      }
      if (!decl.accepts(decl.def)) fail(f + ".default", n, "default outside the range " + decl.rangeText());
      t_.params.push_back(decl);
    });
  }
  void inputs() {
    eachObject("inputs", [&](const json& x, const std::string& f, const std::string& n) {
      InputDecl in{n, x.contains("doc") ? str(x, "doc", f + ".doc") : std::string(), false};
      for (const std::string& ref : targets(x, f)) {
        const auto [c, input] = inner(f + ".targets", ref);
        const ComponentType* t = Registry::instance().find(c->type);
        const InputDecl* d = t ? t->input(input) : nullptr;
        if (!d) fail(f + ".targets", ref, "inner component '" + c->id + "' (" + c->type + ") has no input '" + input + "'");
        in.required = in.required || d->required;
        if (in.doc.empty()) in.doc = d->doc;
      }
      if (x.contains("required")) {
        if (!x.at("required").is_boolean()) fail(f + ".required", "", "expected true or false");
        in.required = x.at("required").get<bool>();
      }
      t_.inputs.push_back(in);
    });
  }

  // An SVG of the user's (user/user_component.h: readSymbol).
  void symbol() {
    try {
      user::readSymbol(def_, file_, t_);
    } catch (const std::invalid_argument& e) {
      fail(user::symbolField(def_), t_.symbol, e.what());
    }
  }

  const json& def_;
  const std::string& file_;
  const std::string& text_;
  std::string name_;
  size_t start_ = 0;
  Project inside_;
  ComponentType t_;
};

}  // namespace

ComponentType readSubcircuit(const json& def, const std::string& file, const std::string& text) {
  return SubcircuitReader(def, file, text).read();
}

std::string registerSubcircuit(const json& def, const std::string& file, const std::string& text) {
  return user::registerUserType(readSubcircuit(def, file, text), file);
}

Project subcircuitInside(const ComponentType& t) {
  return SubcircuitReader::inside(t.definition, t.origin, std::string());
}

std::vector<std::string> userTypesUsed(const std::vector<Component>& components) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  // Depth-first over the sub-circuits' insides; a type is listed once.
  const std::function<void(const std::string&)> visit = [&](const std::string& type) {
    const ComponentType* t = Registry::instance().find(type);
    if (!t || t->origin.empty() || !seen.insert(type).second) return;
    if (isSubcircuit(*t) && t->definition.contains("components") && t->definition.at("components").is_array())
      for (const json& c : t->definition.at("components"))
        if (c.is_object() && c.contains("type") && c.at("type").is_string()) visit(c.at("type").get<std::string>());
    out.push_back(type);
  };
  for (const Component& c : components) visit(c.type);
  return out;
}

}  // namespace pm
