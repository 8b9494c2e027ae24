#include "subcircuit_interface.h"

#include "engine/subcircuits.h"
#include "model/component_type.h"
#include "model/project_error.h"

#include <algorithm>
#include <functional>
#include <set>

namespace pm::gui {

namespace {

using nlohmann::json;

const json* definition(const Project& p, const std::string& type) {
  const auto it = p.userComponents.find(type);
  if (it == p.userComponents.end() || !it->second.is_object() || it->second.value("format", "") != "pneumech-subcircuit")
    return nullptr;
  return &it->second;
}

std::set<std::string> namesIn(const json& def, const char* key) {
  std::set<std::string> out;
  for (const json& x : def.value(key, json::array())) out.insert(x.value("name", ""));
  return out;
}

// What the entries of `key` name inside: ports' "connect", the others' "targets".
std::set<std::string> innerRefs(const json& def, const char* key) {
  std::set<std::string> out;
  for (const json& x : def.value(key, json::array())) {
    if (x.contains("connect")) out.insert(x.value("connect", ""));
    for (const json& t : x.value("targets", json::array()))
      if (t.is_string()) out.insert(t.get<std::string>());
  }
  return out;
}

// An instance's port, input and parameter names share the symbol and the
// property editor: a new one must be free among all three.
std::string checkName(const json& def, const std::string& name) {
  if (name.empty() || name.find_first_of(". ") != std::string::npos)
    return "the name '" + name + "' must not be empty nor hold '.' or spaces";
  for (const char* key : {"ports", "inputs", "parameters"})
    if (namesIn(def, key).count(name)) return "the type has a port, input or parameter named '" + name + "' already";
  return {};
}

// `name` if free in `def`, else "<inner id>_<name>".
std::string freeName(const json& def, const PortRef& inner) {
  for (const char* key : {"ports", "inputs", "parameters"})
    if (namesIn(def, key).count(inner.port)) return inner.component + "_" + inner.port;
  return inner.port;
}

// `list` without the entry named `name`.
json without(const json& list, const std::string& name) {
  json out = json::array();
  for (const json& x : list)
    if (x.value("name", "") != name) out.push_back(x);
  return out;
}

std::string registered(const json& def, const std::string& file) {
  try {
    engine::registerSubcircuit(def, file);
  } catch (const ProjectError& e) {
    return e.what();
  }
  return {};
}

// Applies `change` to the instances of `type`: the project's own circuit
// and the inside of every other type that uses it (then registered anew).
void eachCircuit(Project& p, const std::string& type, const std::string& file,
                 const std::function<void(std::vector<Component>&, std::vector<Connection>&)>& change) {
  change(p.components, p.connections);
  for (auto& [name, def] : p.userComponents) {
    if (name == type || !definition(p, name)) continue;
    Project inside = engine::subcircuitInside(def, file);
    if (std::none_of(inside.components.begin(), inside.components.end(),
                     [&](const Component& c) { return c.type == type; }))
      continue;
    change(inside.components, inside.connections);
    def = engine::withInside(def, inside);
  }
}

// The inner component `inner` names and its type, or why not.
std::string innerType(const Project& inside, const PortRef& inner, const ComponentType*& t) {
  const Component* c = inside.find(inner.component);
  t = c ? Registry::instance().find(c->type) : nullptr;
  return t ? std::string() : "no component '" + inner.component + "' inside";
}

}  // namespace

namespace {

// Inner ports (or parameters) of `type` not yet on its interface, each with a free outer name.
template <class Decl>
std::vector<InterfaceCandidate> candidates(const Project& p, const std::string& type, const char* section,
                                           std::vector<Decl> ComponentType::*decls) {
  std::vector<InterfaceCandidate> out;
  const json* def = definition(p, type);
  if (!def) return out;
  const std::set<std::string> used = innerRefs(*def, section);
  for (const Component& c : engine::subcircuitInside(*def, {}).components)
    if (const ComponentType* t = Registry::instance().find(c.type))
      for (const Decl& d : t->*decls)
        if (PortRef r{c.id, d.name}; !used.count(r.str())) out.push_back({r, freeName(*def, r)});
  return out;
}

// The checks exposing `name` for `inner` starts with: the type's definition and
// the inner component's type, or why not.
std::string exposable(const Project& p, const std::string& type, const std::string& name, const PortRef& inner,
                      const std::string& file, const json*& old, const ComponentType*& t) {
  old = definition(p, type);
  if (!old) return "no sub-circuit type '" + type + "' in the project";
  if (std::string why = checkName(*old, name); !why.empty()) return why;
  return innerType(engine::subcircuitInside(*old, file), inner, t);
}

// `def` becomes the type's definition if it registers; or why not.
std::string replaceDefinition(Project& p, const std::string& type, json def, const std::string& file) {
  if (std::string why = registered(def, file); !why.empty()) return why;
  p.userComponents[type] = std::move(def);
  return {};
}

}  // namespace

std::vector<InterfaceCandidate> portCandidates(const Project& p, const std::string& type) {
  return candidates(p, type, "ports", &ComponentType::ports);
}

std::vector<InterfaceCandidate> parameterCandidates(const Project& p, const std::string& type) {
  return candidates(p, type, "parameters", &ComponentType::params);
}

std::string exposePort(Project& p, const std::string& type, const std::string& name, const PortRef& inner,
                       const std::string& file) {
  const json* old = nullptr;
  const ComponentType* t = nullptr;
  if (std::string why = exposable(p, type, name, inner, file, old, t); !why.empty()) return why;
  if (!t->port(inner.port)) return "'" + inner.component + "' has no port '" + inner.port + "'";
  if (innerRefs(*old, "ports").count(inner.str())) return inner.str() + " is an external port already";
  json def = *old;
  def["ports"].push_back({{"name", name}, {"connect", inner.str()}});
  return replaceDefinition(p, type, std::move(def), file);
}

std::string removePort(Project& p, const std::string& type, const std::string& name, const std::string& file) {
  const json* old = definition(p, type);
  if (!old || !namesIn(*old, "ports").count(name)) return "type '" + type + "' has no external port '" + name + "'";
  if (old->at("ports").size() == 1) return "a sub-circuit needs at least one external port: '" + name + "' is its last";
  // Another type whose own external port is this port of an instance inside it would lose it.
  for (const auto& [other, odef] : p.userComponents) {
    if (other == type || !definition(p, other)) continue;
    const Project inside = engine::subcircuitInside(odef, file);
    for (const std::string& ref : innerRefs(odef, "ports")) {
      const auto dot = ref.rfind('.');
      const Component* c = inside.find(ref.substr(0, dot));
      if (c && c->type == type && ref.substr(dot + 1) == name)
        return "'" + name + "' is external port of type '" + other + "' through its block '" + c->id + "'";
    }
  }
  json def = *old;
  def["ports"] = without(def["ports"], name);
  if (std::string why = replaceDefinition(p, type, std::move(def), file); !why.empty()) return why;
  eachCircuit(p, type, file, [&](std::vector<Component>& comps, std::vector<Connection>& conns) {
    std::set<std::string> blocks;
    for (const Component& c : comps)
      if (c.type == type) blocks.insert(c.id);
    std::erase_if(conns, [&](const Connection& k) {
      return (blocks.count(k.from.component) && k.from.port == name) || (blocks.count(k.to.component) && k.to.port == name);
    });
  });
  return {};
}

std::string exposeParameter(Project& p, const std::string& type, const std::string& name, const PortRef& inner,
                            const std::string& file) {
  const json* old = nullptr;
  const ComponentType* t = nullptr;
  if (std::string why = exposable(p, type, name, inner, file, old, t); !why.empty()) return why;
  if (!t->param(inner.port)) return "'" + inner.component + "' has no parameter '" + inner.port + "'";
  if (innerRefs(*old, "parameters").count(inner.str())) return inner.str() + " is set by an exposed parameter already";
  json def = *old;
  // Its default is the inner value (subcircuit_file.h): the runs stay as they were.
  def["parameters"].push_back({{"name", name}, {"targets", json::array({inner.str()})}});
  return replaceDefinition(p, type, std::move(def), file);
}

std::string removeParameter(Project& p, const std::string& type, const std::string& name, const std::string& file) {
  const json* old = definition(p, type);
  if (!old || !namesIn(*old, "parameters").count(name)) return "type '" + type + "' has no parameter '" + name + "'";
  json def = *old;
  def["parameters"] = without(def["parameters"], name);
  if (def["parameters"].empty()) def.erase("parameters");
  if (std::string why = replaceDefinition(p, type, std::move(def), file); !why.empty()) return why;
  eachCircuit(p, type, file, [&](std::vector<Component>& comps, std::vector<Connection>&) {
    for (Component& c : comps)
      if (c.type == type) c.params.erase(name);
  });
  return {};
}

}  // namespace pm::gui
