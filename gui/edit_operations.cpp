#include "edit_operations.h"

#include "model/component_type.h"
#include "symbol_library.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace pm::gui {

namespace {

std::string idPrefix(const std::string& type) {
  static const std::map<std::string, std::string> prefix = {
      {"cylinder", "cyl"}, {"semi", "rot"},     {"valve", "v"},     {"supply", "src"},   {"atmosphere", "atm"},
      {"reservoir", "tank"}, {"tube", "tube"}, {"flow", "fc"},     {"check", "cv"},     {"restriction", "r"},
      {"orifice", "or"},   {"throttle", "th"},  {"silencer", "sil"}, {"pressure", "pr"}, {"shuttle", "sv"},
      {"two", "and"},      {"quick", "qe"},     {"limit", "ls"},    {"position", "xs"},  {"velocity", "vs"},
      {"temperature", "ts"}, {"on", "tim"},     {"push", "pb"},     {"step", "seq"},     {"time", "sw"},
      {"prescribed", "pv"}};
  const std::string head = type.substr(0, type.find('_'));
  if (type == "flow_sensor") return "fs";
  if (type == "pressure_switch") return "ps";
  if (type == "pressure_sensor") return "pt";
  auto it = prefix.find(head);
  return it != prefix.end() ? it->second : head;
}

// ISO 1219-2 letter and circuit number of a type.
std::pair<char, int> codeOf(const std::string& type) {
  const ComponentType* t = Registry::instance().find(type);
  const std::string cat = t ? t->category : std::string();
  if (cat == "Actuators") return {'A', 1};
  if (cat == "Supply" || cat == "Volumes") return {'Z', 0};
  if (cat == "Sensors") return {'B', 1};
  if (cat == "Signals") return {'S', 1};
  return {'V', 1};
}

bool labelUsed(const Project& p, const std::string& label) {
  return std::any_of(p.components.begin(), p.components.end(),
                     [&](const Component& c) { return c.label == label; });
}

}  // namespace

double snapToGrid(double v) { return std::round(v / kGrid) * kGrid; }

std::string freshComponentId(const Project& p, const std::string& type) {
  const std::string base = idPrefix(type);
  for (int n = 1;; ++n) {
    const std::string id = base + std::to_string(n);
    if (!p.find(id)) return id;
  }
}

std::string freshConnectionId(const Project& p) {
  for (int n = static_cast<int>(p.connections.size()) + 1;; ++n) {
    std::string id = "l";  // appended, not "l" + ...: GCC 12 reports a false -Wrestrict there
    id += std::to_string(n);
    if (std::none_of(p.connections.begin(), p.connections.end(), [&](const Connection& c) { return c.id == id; }))
      return id;
  }
}

std::string freshLabel(const Project& p, const std::string& type) {
  const auto [letter, circuit] = codeOf(type);
  for (int n = 1;; ++n) {
    const std::string code = std::to_string(circuit) + letter + std::to_string(n);
    if (!labelUsed(p, code)) return code;
  }
}

Component newComponent(const Project& p, const std::string& type, double x, double y) {
  Component c;
  c.type = type;
  c.id = freshComponentId(p, type);
  c.label = freshLabel(p, type);
  c.placement.x = snapToGrid(x);
  c.placement.y = snapToGrid(y);
  return c;
}

bool insertIntoConnection(Project& p, const Component& c, const std::string& connection, const std::string& toFrom,
                          const std::string& toTo) {
  const auto it = std::find_if(p.connections.begin(), p.connections.end(),
                               [&](const Connection& k) { return k.id == connection; });
  if (it == p.connections.end()) return false;
  const Connection old = *it;
  p.connections.erase(it);
  p.components.push_back(c);
  // The old line's id goes on its first half; its waypoints go (the new
  // ends are elsewhere): both halves are routed afresh.
  p.connections.push_back({old.id, old.from, PortRef{c.id, toFrom}, {}});
  p.connections.push_back({freshConnectionId(p), PortRef{c.id, toTo}, old.to, {}});
  return true;
}

const std::vector<std::string>& solenoidSourceTypes() {
  static const std::vector<std::string> types = {"push_button", "time_switch", "step_sequence"};
  return types;
}

namespace {

// A free "Y<n>" output of a sequence's data.
std::string freshOutput(const nlohmann::json& data) {
  std::set<std::string> used;
  if (data.contains("outputs") && data["outputs"].is_array())
    for (const auto& o : data["outputs"])
      if (o.is_string()) used.insert(o.get<std::string>());
  for (int n = 1;; ++n)
    if (!used.count("Y" + std::to_string(n))) return "Y" + std::to_string(n);
}

// A grid point near `want` no other component's placement is close to.
Point freeSpot(const Project& p, Point want) {
  auto taken = [&](const Point& q) {
    return std::any_of(p.components.begin(), p.components.end(), [&](const Component& c) {
      return std::abs(c.placement.x - q.x) < 60 && std::abs(c.placement.y - q.y) < 50;
    });
  };
  for (int i = 0; i < 20 && taken(want); ++i) want.y += 60;
  return want;
}

}  // namespace

std::string addSignalSourceFor(Project& p, const std::string& reader, const std::string& input,
                               const std::string& type) {
  const Component* r = p.find(reader);
  const auto& types = solenoidSourceTypes();
  if (!r || std::find(types.begin(), types.end(), type) == types.end()) return {};
  const std::string readerLabel = r->label.empty() ? r->id : r->label;
  std::string ref;
  if (type == "step_sequence") {
    auto seq = std::find_if(p.components.begin(), p.components.end(),
                            [](const Component& c) { return c.type == "step_sequence"; });
    if (seq != p.components.end() && seq->data.is_object() && seq->data.contains("steps") &&
        seq->data["steps"].is_array()) {
      const std::string out = freshOutput(seq->data);
      seq->data["outputs"].push_back(out);
      seq->data["steps"].push_back({{"name", readerLabel + " on"}, {"set", {{out, 1}}}, {"when", nlohmann::json::array()}});
      ref = seq->id + "." + out;
      p.find(reader)->inputs[input] = ref;
      return ref;
    }
  }
  // Left of the valve for side 14 (its solenoid), right of it for side 12.
  const bool right = input.size() >= 2 && input.compare(input.size() - 2, 2, "12") == 0;
  const Point at = freeSpot(p, {r->placement.x + (right ? 130.0 : -130.0), r->placement.y});
  Component c = newComponent(p, type, at.x, at.y);
  if (type == "step_sequence") {  // a start step, then one that switches the valve
    c.data = nlohmann::json::parse(R"({"outputs": ["Y1"], "cyclic": false,
        "steps": [{"name": "start", "set": {}, "when": []}]})");
    c.data["steps"].push_back({{"name", readerLabel + " on"}, {"set", {{"Y1", 1}}}, {"when", nlohmann::json::array()}});
  }
  ref = c.id + (type == "step_sequence" ? ".Y1" : ".out");
  p.components.push_back(std::move(c));
  p.find(reader)->inputs[input] = ref;
  return ref;
}

void removeObjects(Project& p, const std::set<std::string>& comps, const std::set<std::string>& conns) {
  std::erase_if(p.components, [&](const Component& c) { return comps.count(c.id) > 0; });
  std::erase_if(p.connections, [&](const Connection& k) {
    return conns.count(k.id) || comps.count(k.from.component) || comps.count(k.to.component);
  });
  for (Component& c : p.components)
    std::erase_if(c.inputs, [&](const auto& kv) { return comps.count(kv.second.substr(0, kv.second.find('.'))) > 0; });
}

Project copySelection(const Project& p, const std::set<std::string>& ids) {
  Project f;
  for (const Component& c : p.components)
    if (ids.count(c.id)) f.components.push_back(c);
  for (const Connection& k : p.connections)
    if (ids.count(k.from.component) && ids.count(k.to.component)) f.connections.push_back(k);
  return f;
}

void renameDataReferences(nlohmann::json& data, const std::map<std::string, std::string>& rename) {
  if (data.is_string()) {
    const std::string ref = data.get<std::string>();
    const auto dot = ref.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == ref.size()) return;
    // Only a whole "<id>.<channel>" string is a reference; text with spaces or
    // several dots (a script line, a file name) is not.
    const std::string rest = ref.substr(dot + 1);
    const bool channel = std::all_of(rest.begin(), rest.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
    });
    auto it = rename.find(ref.substr(0, dot));
    if (channel && it != rename.end()) data = it->second + "." + rest;
  } else if (data.is_array()) {
    for (auto& v : data) renameDataReferences(v, rename);
  } else if (data.is_object()) {
    for (auto it = data.begin(); it != data.end(); ++it)
      if (it.key() != "script" && it.key() != "file") renameDataReferences(it.value(), rename);
  }
}

std::vector<std::string> pasteFragment(Project& p, const Project& fragment, double dx, double dy) {
  std::map<std::string, std::string> rename;
  std::vector<std::string> added;
  for (Component c : fragment.components) {
    const std::string old = c.id;
    c.id = freshComponentId(p, c.type);
    c.label = freshLabel(p, c.type);
    c.placement.x = snapToGrid(c.placement.x + dx);
    c.placement.y = snapToGrid(c.placement.y + dy);
    rename[old] = c.id;
    added.push_back(c.id);
    p.components.push_back(std::move(c));
  }
  auto renamed = [&](const std::string& ref) {
    const std::string comp = ref.substr(0, ref.find('.'));
    auto it = rename.find(comp);
    return it == rename.end() ? ref : it->second + ref.substr(comp.size());
  };
  for (const std::string& id : added) {
    Component* c = p.find(id);
    for (auto& [name, ref] : c->inputs) ref = renamed(ref);
    renameDataReferences(c->data, rename);
  }
  for (Connection k : fragment.connections) {
    if (!rename.count(k.from.component) || !rename.count(k.to.component)) continue;
    k.id = freshConnectionId(p);
    k.from.component = rename[k.from.component];
    k.to.component = rename[k.to.component];
    for (Point& w : k.waypoints) w.x += dx, w.y += dy;
    p.connections.push_back(std::move(k));
  }
  return added;
}

namespace {
// Lines at a turned or mirrored symbol are routed afresh.
void rerouteAttached(Project& p, const std::set<std::string>& ids) {
  for (Connection& k : p.connections)
    if (ids.count(k.from.component) || ids.count(k.to.component)) k.waypoints.clear();
}
}  // namespace

void rotateComponents(Project& p, const std::set<std::string>& ids) {
  for (Component& c : p.components)
    if (ids.count(c.id)) c.placement.rotation = (c.placement.rotation + 90) % 360;
  rerouteAttached(p, ids);
}

void mirrorComponents(Project& p, const std::set<std::string>& ids) {
  for (Component& c : p.components)
    if (ids.count(c.id)) c.placement.mirror = !c.placement.mirror;
  rerouteAttached(p, ids);
}

}  // namespace pm::gui
