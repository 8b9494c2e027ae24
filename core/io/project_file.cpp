#include "io/project_file.h"

#include "io/atomic_file.h"
#include "io/json_limits.h"
#include "io/mechanism_file.h"
#include "io/subcircuit_file.h"
#include "model/component_type.h"
#include "model/message_text.h"
#include "model/project_error.h"
#include "user/user_component.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>

namespace pm {

using nlohmann::json;

namespace {

const std::array<std::string, 13> kSimulationKeys = {
    "t_end",       "output_interval",  "rel_tol",           "abs_tol_pressure",    "abs_tol_temperature", "abs_tol_position",
    "max_step",    "ambient_pressure", "ambient_temperature", "coupling",          "exchange_interval",
    "mechanism_formulation", "wall_time_limit"};

// Sections of later subsystems; kept verbatim until they are interpreted.
const std::set<std::string> kFutureSections = {"controls", "report", "plots", "analyses", "studies"};

class Reader {
 public:
  Reader(std::string file, const std::string& text) : file_(std::move(file)), text_(text) {}

  [[noreturn]] void fail(const std::string& obj, const std::string& field, const std::string& msg) const {
    throw ProjectError(file_, obj, field, msg);
  }

  static const char* typeName(const json& j) { return j.type_name(); }

  void onlyKeys(const json& j, const std::set<std::string>& allowed, const std::string& obj, const std::string& prefix) const {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!allowed.count(it.key())) fail(obj, prefix + it.key(), "unknown field");
  }

  const json& need(const json& j, const char* key, const std::string& obj, const std::string& prefix = {}) const {
    if (!j.contains(key)) fail(obj, prefix + key, "missing field");
    return j.at(key);
  }

  std::string str(const json& j, const char* key, const std::string& obj, const std::string& prefix = {},
                  bool required = true) const {
    if (!j.contains(key)) {
      if (required) fail(obj, prefix + key, "missing field");
      return {};
    }
    if (!j.at(key).is_string()) fail(obj, prefix + key, std::string("expected a string, found ") + typeName(j.at(key)));
    return j.at(key).get<std::string>();
  }

  double num(const json& j, const char* key, const std::string& obj, const std::string& prefix, double def,
             bool required = false) const {
    if (!j.contains(key)) {
      if (required) fail(obj, prefix + key, "missing field");
      return def;
    }
    const json& v = j.at(key);
    if (!v.is_number()) fail(obj, prefix + key, std::string("expected a number, found ") + typeName(v));
    const double d = v.get<double>();
    if (!std::isfinite(d)) fail(obj, prefix + key, "not a finite number");
    return d;
  }

  PortRef port(const json& j, const char* key, const std::string& obj) const {
    const std::string s = str(j, key, obj);
    const auto dot = s.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == s.size())
      fail(obj, key, "port reference '" + s + "' must read '<component id>.<port>'");
    return {s.substr(0, dot), s.substr(dot + 1)};
  }

  Placement placement(const json& j, const std::string& obj) const {
    Placement p;
    if (!j.contains("placement")) return p;
    const json& pl = j.at("placement");
    if (!pl.is_object()) fail(obj, "placement", "expected an object");
    onlyKeys(pl, {"x", "y", "rotation", "mirror"}, obj, "placement.");
    p.x = num(pl, "x", obj, "placement.", 0.0);
    p.y = num(pl, "y", obj, "placement.", 0.0);
    const double r = num(pl, "rotation", obj, "placement.", 0.0);
    if (r != 0 && r != 90 && r != 180 && r != 270) fail(obj, "placement.rotation", "must be 0, 90, 180 or 270");
    p.rotation = static_cast<int>(r);
    if (pl.contains("mirror")) {
      if (!pl.at("mirror").is_boolean()) fail(obj, "placement.mirror", "expected true or false");
      p.mirror = pl.at("mirror").get<bool>();
    }
    return p;
  }

  // A time table's params.smooth (0: linear, 1: monotone cubic) became
  // data.interpolation; files that still carry it keep their meaning.
  void legacySmooth(Component& k, double smooth, const std::string& obj) const {
    if (!k.data.is_null() && !k.data.is_object()) return;  // the type's own check reports it
    if (k.data.is_object() && k.data.contains("interpolation"))
      fail(obj, "params.smooth", "replaced by data.interpolation, which is also given: remove params.smooth");
    k.data["interpolation"] = smooth > 0.5 ? "monotone_cubic" : "linear";
  }

  Project project(const json& root) const {
    if (!root.is_object()) fail("", "", "the file is not a JSON object");
    if (str(root, "format", "", {}) != "pneumech-project")
      fail("", "format", "expected \"pneumech-project\" (is this a PneuMech Studio project?)");
    const json& ver = need(root, "schema_version", "");
    // Whole numbers only, compared as read: get<int>() would wrap 4294967297 to 1.
    if (!ver.is_number_integer()) fail("", "schema_version", "expected an integer, found " + ver.dump());
    const bool positive = ver.is_number_unsigned() ? ver.get<std::uint64_t>() >= 1 : ver.get<std::int64_t>() >= 1;
    const std::string v = ver.dump();
    if (!positive) fail("", "schema_version", "version " + v + " does not exist (versions start at 1)");
    if (ver.get<std::uint64_t>() > static_cast<std::uint64_t>(kSchemaVersion))
      fail("", "schema_version",
           "version " + v + (ver.get<std::uint64_t>() <= 1000 ? " was written by a newer PneuMech Studio" : " is not a known version") +
               " (this one reads versions 1 to " + std::to_string(kSchemaVersion) + ")");
    // Upgrade steps from older schema versions go here, one per version.

    Project pr;
    for (auto it = root.begin(); it != root.end(); ++it) {
      const std::string& k = it.key();
      if (k == "format" || k == "schema_version" || k == "meta" || k == "simulation" || k == "components" ||
          k == "connections" || k == "mechanism" || k == "user_components" || k == "subcircuits")
        continue;
      if (!kFutureSections.count(k)) fail("", k, "unknown top-level section");
      pr.extra[k] = it.value();
    }
    if (root.contains("meta")) {
      const json& m = root.at("meta");
      if (!m.is_object()) fail("meta", "", "expected an object");
      onlyKeys(m, {"title", "customer", "author", "description", "notes", "logo", "required_cycle_time"}, "meta", "");
      pr.meta.title = str(m, "title", "meta", {}, false);
      pr.meta.customer = str(m, "customer", "meta", {}, false);
      pr.meta.author = str(m, "author", "meta", {}, false);
      pr.meta.description = str(m, "description", "meta", {}, false);
      pr.meta.notes = str(m, "notes", "meta", {}, false);
      pr.meta.logo = str(m, "logo", "meta", {}, false);
      pr.meta.requiredCycleTime = num(m, "required_cycle_time", "meta", "", 0.0);
      if (m.contains("required_cycle_time") && !(pr.meta.requiredCycleTime > 0))
        fail("meta", "required_cycle_time", "expected a positive time in seconds (omit it when there is none)");
    }
    if (root.contains("simulation")) {
      const json& s = root.at("simulation");
      if (!s.is_object()) fail("simulation", "", "expected an object");
      onlyKeys(s, {kSimulationKeys.begin(), kSimulationKeys.end()}, "simulation", "");
      SimulationSettings& d = pr.simulation;
      d.t_end = num(s, "t_end", "simulation", "", d.t_end);
      d.output_interval = num(s, "output_interval", "simulation", "", d.output_interval);
      d.rel_tol = num(s, "rel_tol", "simulation", "", d.rel_tol);
      d.abs_tol_pressure = num(s, "abs_tol_pressure", "simulation", "", d.abs_tol_pressure);
      d.abs_tol_temperature = num(s, "abs_tol_temperature", "simulation", "", d.abs_tol_temperature);
      d.abs_tol_position = num(s, "abs_tol_position", "simulation", "", d.abs_tol_position);
      d.max_step = num(s, "max_step", "simulation", "", d.max_step);
      d.ambient_pressure = num(s, "ambient_pressure", "simulation", "", d.ambient_pressure);
      d.ambient_temperature = num(s, "ambient_temperature", "simulation", "", d.ambient_temperature);
      if (s.contains("coupling")) d.coupling = str(s, "coupling", "simulation");
      d.exchange_interval = num(s, "exchange_interval", "simulation", "", d.exchange_interval);
      if (s.contains("mechanism_formulation"))
        d.mechanism_formulation = str(s, "mechanism_formulation", "simulation");
      d.wall_time_limit = num(s, "wall_time_limit", "simulation", "", d.wall_time_limit);
    }
    // Before the components: their types may be among these.
    if (root.contains("user_components")) {
      const json& u = root.at("user_components");
      if (!u.is_object()) fail("user_components", "", "expected an object of type name: definition");
      for (auto it = u.begin(); it != u.end(); ++it) {
        json def = it.value();
        if (def.is_object() && !def.contains("name")) def["name"] = it.key();
        if (def.is_object() && def.at("name") != it.key())
          fail("user_components", it.key(), "the definition's name differs from its key");
        user::registerComponent(def, file_, text_);
        pr.userComponents[it.key()] = it.value();
      }
    }
    if (root.contains("subcircuits")) subcircuits(root.at("subcircuits"), pr);
    circuit(root, pr);
    if (root.contains("mechanism")) pr.mechanism = parseMechanism(root.at("mechanism"), file_);
    return pr;
  }

  // The components and connections of `root` (a project, or a sub-circuit's inside).
  void circuit(const json& root, Project& pr) const {
    const json& comps = need(root, "components", "");
    if (!comps.is_array()) fail("", "components", "expected an array");
    int i = 0;
    for (const json& c : comps) {
      const std::string where = "components[" + std::to_string(i++) + "]";
      if (!c.is_object()) fail(where, "", "expected an object");
      Component k;
      k.id = str(c, "id", where);
      const std::string obj = k.id.empty() ? where : k.id;
      onlyKeys(c, {"id", "type", "label", "part", "params", "inputs", "data", "placement"}, obj, "");
      k.type = str(c, "type", obj);
      k.label = str(c, "label", obj, {}, false);
      k.part = str(c, "part", obj, {}, false);
      const ComponentType* t = Registry::instance().find(k.type);
      if (!t) fail(obj, "type", "unknown component type '" + k.type + "'");
      if (c.contains("data")) k.data = c.at("data");
      if (c.contains("params")) {
        const json& ps = c.at("params");
        if (!ps.is_object()) fail(obj, "params", "expected an object of name: value (SI)");
        for (auto it = ps.begin(); it != ps.end(); ++it) {
          if (k.type == "time_table" && it.key() == "smooth") {
            legacySmooth(k, num(ps, "smooth", obj, "params.", 0.0, true), obj);
            continue;
          }
          if (!t->param(it.key())) fail(obj, "params." + it.key(), "type '" + k.type + "' has no parameter '" + it.key() + "'");
          k.params[it.key()] = num(ps, it.key().c_str(), obj, "params.", 0.0, true);
        }
      }
      if (c.contains("inputs")) {
        const json& in = c.at("inputs");
        if (!in.is_object()) fail(obj, "inputs", "expected an object of name: \"<id>.<channel>\"");
        for (auto it = in.begin(); it != in.end(); ++it) k.inputs[it.key()] = str(in, it.key().c_str(), obj, "inputs.");
      }
      k.placement = placement(c, obj);
      pr.components.push_back(std::move(k));
    }
    if (root.contains("connections")) {
      const json& conns = root.at("connections");
      if (!conns.is_array()) fail("", "connections", "expected an array");
      i = 0;
      for (const json& c : conns) {
        const std::string where = "connections[" + std::to_string(i++) + "]";
        if (!c.is_object()) fail(where, "", "expected an object");
        Connection k;
        k.id = str(c, "id", where);
        const std::string obj = k.id.empty() ? where : k.id;
        onlyKeys(c, {"id", "from", "to", "waypoints"}, obj, "");
        k.from = port(c, "from", obj);
        k.to = port(c, "to", obj);
        if (c.contains("waypoints")) {
          const json& w = c.at("waypoints");
          if (!w.is_array()) fail(obj, "waypoints", "expected an array of [x, y]");
          for (const json& p : w) {
            if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
              fail(obj, "waypoints", "expected [x, y] pairs of numbers");
            k.waypoints.push_back({p[0].get<double>(), p[1].get<double>()});
          }
        }
        pr.connections.push_back(std::move(k));
      }
    }
  }

  // Sub-circuit types (io/subcircuit_file.h), type name -> definition. One
  // may use another, so each is registered once the types it uses are.
  void subcircuits(const json& s, Project& pr) const {
    if (!s.is_object()) fail("subcircuits", "", "expected an object of type name: definition");
    std::vector<std::string> left;
    for (auto it = s.begin(); it != s.end(); ++it) left.push_back(it.key());
    while (!left.empty()) {
      std::vector<std::string> later;
      for (const std::string& name : left) {
        json def = s.at(name);
        if (!def.is_object()) fail("subcircuits", name, "expected an object (a sub-circuit definition)");
        if (!def.contains("name")) def["name"] = name;
        if (!def.at("name").is_string() || def.at("name").get<std::string>() != name)
          fail("subcircuits", name, "the definition's name differs from its key");
        def["format"] = kSubcircuitFormat;
        // Waits for a sub-circuit of this section it uses; the last round reports it.
        const bool waits = std::any_of(left.begin(), left.end(), [&](const std::string& other) {
          return other != name && usesType(def, other) && !Registry::instance().find(other);
        });
        if (waits) {
          later.push_back(name);
          continue;
        }
        registerSubcircuit(def, file_, text_);
        pr.userComponents[name] = def;
      }
      if (later.size() == left.size()) {  // they use each other: report the first
        json def = s.at(later.front());
        def["name"] = later.front();
        registerSubcircuit(def, file_, text_);
        fail("subcircuits", later.front(), "sub-circuits that contain each other");
      }
      left = std::move(later);
    }
  }

  static bool usesType(const json& def, const std::string& type) {
    if (!def.contains("components") || !def.at("components").is_array()) return false;
    for (const json& c : def.at("components"))
      if (c.is_object() && c.contains("type") && c.at("type") == type) return true;
    return false;
  }

 private:
  std::string file_;
  const std::string& text_;
};

}  // namespace

Project parseCircuitSection(const json& section, const std::string& file, const std::string& text) {
  Project pr;
  Reader(file, text).circuit(section, pr);
  return pr;
}

bool isSimulationKey(const std::string& key) {
  return std::find(kSimulationKeys.begin(), kSimulationKeys.end(), key) != kSimulationKeys.end();
}

Project parseProjectText(const std::string& text, const std::string& name) {
  checkJsonLimits(text, name);  // before a tree is built: depth, number range
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's byte is 1-based, the last byte it read.
    const size_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    // nlohmann quotes everything it read of the token ("last read: '...'"),
    // a whole paragraph for a cut-off string: the short excerpt says where.
    if (const auto lastRead = what.find("; last read:"); lastRead != std::string::npos) what.erase(lastRead);
    const auto pos = what.find("syntax error");
    throw ProjectError(name, "", "", "malformed JSON at " + jsonPosition(text, at) + ": " +
                                         (pos == std::string::npos ? what : what.substr(pos)) + "; near: " +
                                         jsonExcerpt(text, at));
  } catch (const json::exception& e) {
    // checkJsonLimits catches what it knows of; anything else still names the file.
    throw ProjectError(name, "", "", std::string("malformed JSON: ") + e.what());
  }
  return Reader(name, text).project(root);
}

Project readProjectFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ProjectError(path, "", "", "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseProjectText(ss.str(), path);
}

json circuitSection(const Project& pr) {
  json comps = json::array();
  for (const Component& c : pr.components) {
    json j = {{"id", c.id}, {"type", c.type}};
    if (!c.label.empty()) j["label"] = c.label;
    if (!c.part.empty()) j["part"] = c.part;
    if (!c.params.empty()) j["params"] = c.params;
    if (!c.inputs.empty()) j["inputs"] = c.inputs;
    if (!c.data.is_null()) j["data"] = c.data;
    j["placement"] = {{"x", c.placement.x}, {"y", c.placement.y}, {"rotation", c.placement.rotation},
                      {"mirror", c.placement.mirror}};
    comps.push_back(std::move(j));
  }
  json conns = json::array();
  for (const Connection& k : pr.connections) {
    json j = {{"id", k.id}, {"from", k.from.str()}, {"to", k.to.str()}};
    if (!k.waypoints.empty()) {
      json w = json::array();
      for (const Point& p : k.waypoints) w.push_back({p.x, p.y});
      j["waypoints"] = std::move(w);
    }
    conns.push_back(std::move(j));
  }
  return {{"components", std::move(comps)}, {"connections", std::move(conns)}};
}

std::string serializeProject(const Project& pr) {
  json root = json::object();
  root["format"] = "pneumech-project";
  root["schema_version"] = kSchemaVersion;
  root["meta"] = {{"title", pr.meta.title}, {"customer", pr.meta.customer}, {"author", pr.meta.author},
                  {"description", pr.meta.description}};
  // notes, logo, required_cycle_time: written only when set, so files without them stay as they were.
  if (!pr.meta.notes.empty()) root["meta"]["notes"] = pr.meta.notes;
  if (!pr.meta.logo.empty()) root["meta"]["logo"] = pr.meta.logo;
  if (pr.meta.requiredCycleTime > 0) root["meta"]["required_cycle_time"] = pr.meta.requiredCycleTime;
  const SimulationSettings& s = pr.simulation;
  root["simulation"] = {{"t_end", s.t_end},
                        {"output_interval", s.output_interval},
                        {"rel_tol", s.rel_tol},
                        {"abs_tol_pressure", s.abs_tol_pressure},
                        {"abs_tol_temperature", s.abs_tol_temperature},
                        {"abs_tol_position", s.abs_tol_position},
                        {"max_step", s.max_step},
                        {"ambient_pressure", s.ambient_pressure},
                        {"ambient_temperature", s.ambient_temperature}};
  // Written only when not the default, so files of circuits stay as they were.
  if (s.coupling != SimulationSettings{}.coupling || s.exchange_interval != SimulationSettings{}.exchange_interval) {
    root["simulation"]["coupling"] = s.coupling;
    root["simulation"]["exchange_interval"] = s.exchange_interval;
  }
  if (s.mechanism_formulation != SimulationSettings{}.mechanism_formulation)
    root["simulation"]["mechanism_formulation"] = s.mechanism_formulation;
  if (s.wall_time_limit != SimulationSettings{}.wall_time_limit) root["simulation"]["wall_time_limit"] = s.wall_time_limit;
  const json circuit = circuitSection(pr);
  root["components"] = circuit.at("components");
  root["connections"] = circuit.at("connections");
  if (!pr.mechanism.empty()) root["mechanism"] = serializeMechanism(pr.mechanism);
  // The user types the project uses travel with it (a project sent to a
  // customer still opens), beside those its file already carried; so does
  // the SVG of a symbol drawn for one (`symbol_svg`, the file's text).
  json user = json::object(), sub = json::object();
  const auto carry = [&](const std::string& name, json def) {
    const ComponentType* t = Registry::instance().find(name);
    if (t && !t->symbol_svg.empty() && def.contains("symbol") && !def.contains("symbol_svg") &&
        t->definition.value("symbol", json()) == def.at("symbol"))
      def["symbol_svg"] = t->symbol_svg;
    json& section = isSubcircuitDefinition(def) ? sub : user;
    section[name] = std::move(def);
  };
  for (const auto& [name, def] : pr.userComponents) carry(name, def);
  for (const std::string& type : userTypesUsed(pr.components))
    if (!user.contains(type) && !sub.contains(type)) carry(type, Registry::instance().find(type)->definition);
  if (!user.empty()) root["user_components"] = std::move(user);
  if (!sub.empty()) root["subcircuits"] = std::move(sub);
  for (auto it = pr.extra.begin(); it != pr.extra.end(); ++it) root[it.key()] = it.value();
  return root.dump(2) + "\n";
}

void saveProject(const Project& pr, const std::string& path) {
  const std::string text = serializeProject(pr);
  writeFileAtomically(path, [&](std::ostream& o) { o << text; });
}

}  // namespace pm
