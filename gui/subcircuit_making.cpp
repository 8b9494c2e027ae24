#include "subcircuit_making.h"

#include "edit_operations.h"
#include "engine/subcircuits.h"
#include "model/component_type.h"
#include "model/project_error.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace pm::gui {

namespace {

using nlohmann::json;

// The component a reference "<id>.<channel>" names (its first part: an
// outer id has no '.').
std::string refId(const std::string& ref) { return ref.substr(0, ref.find('.')); }

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// `name` of each entry, or "<inner id>_<name>" for those whose name another shares.
template <class Entry>
void uniqueNames(std::vector<Entry>& entries) {
  std::map<std::string, int> count;
  for (const Entry& e : entries) ++count[e.inner.port];
  for (Entry& e : entries) e.name = count[e.inner.port] > 1 ? e.inner.component + "_" + e.inner.port : e.inner.port;
}

bool usesType(const Project& p, const std::string& type) {
  return std::any_of(p.components.begin(), p.components.end(), [&](const Component& c) { return c.type == type; });
}

// Names given in the dialog: not empty, no '.', none twice.
template <class Entry>
std::string checkNames(const std::vector<Entry>& entries, const char* what) {
  std::set<std::string> seen;
  for (const Entry& e : entries) {
    if (e.name.empty() || e.name.find('.') != std::string::npos || e.name.find(' ') != std::string::npos)
      return std::string("the ") + what + " for " + e.inner.str() + " needs a name without '.' or spaces";
    if (!seen.insert(e.name).second) return std::string("the ") + what + " name '" + e.name + "' is given twice";
  }
  return {};
}

std::string checkNames(const Project& p, const std::set<std::string>& ids, const std::string& type,
                       const std::string& instance, const SubcircuitPlan& plan) {
  if (ids.empty()) return "select the components to make the sub-circuit of first";
  for (const std::string& id : ids)
    if (!p.find(id)) return "no component '" + id + "'";
  if (!isIdentifier(type)) return "the type name '" + type + "' is not letters, digits and '_' (not starting with a digit)";
  if (Registry::instance().find(type) &&
      (!engine::isSubcircuitType(type) || p.userComponents.count(type) || usesType(p, type)))
    return "a component type named '" + type + "' exists already";
  if (instance.empty() || instance.find('.') != std::string::npos || instance.find(' ') != std::string::npos)
    return "the instance id '" + instance + "' must not be empty nor hold '.' or spaces";
  if (p.find(instance) && !ids.count(instance)) return "'" + instance + "' is the id of another component";
  if (std::string e = checkNames(plan.ports, "external port"); !e.empty()) return e;
  if (std::string e = checkNames(plan.inputs, "input"); !e.empty()) return e;
  if (std::string e = checkNames(plan.params, "parameter"); !e.empty()) return e;
  if (plan.ports.empty()) return "no line crosses the selection's boundary: a sub-circuit needs an external port";
  return {};
}

// The definition: ports and inputs of `plan`, the selection inside (its
// inputs fed from outside left to the instance).
json definition(const Project& p, const std::set<std::string>& ids, const std::string& type, const SubcircuitPlan& plan) {
  Project inside;
  std::string names;
  for (const Component& c : p.components) {
    if (!ids.count(c.id)) continue;
    Component k = c;
    for (const BoundaryInput& in : plan.inputs)
      if (in.inner.component == c.id) k.inputs.erase(in.inner.port);
    inside.components.push_back(std::move(k));
    names += (names.empty() ? "" : ", ") + (c.label.empty() ? c.id : c.label);
  }
  for (const Connection& k : p.connections)
    if (ids.count(k.from.component) && ids.count(k.to.component)) inside.connections.push_back(k);
  json def = {{"format", "pneumech-subcircuit"}, {"name", type}, {"category", "Sub-circuits"},
              {"description", "Made from " + names}};
  json ports = json::array(), inputs = json::array();
  for (const BoundaryPort& b : plan.ports) ports.push_back({{"name", b.name}, {"connect", b.inner.str()}});
  for (const BoundaryInput& b : plan.inputs) inputs.push_back({{"name", b.name}, {"targets", json::array({b.inner.str()})}});
  def["ports"] = ports;
  if (!inputs.empty()) def["inputs"] = inputs;
  json params = json::array();
  for (const ExposedParam& b : plan.params) params.push_back({{"name", b.name}, {"targets", json::array({b.inner.str()})}});
  if (!params.empty()) def["parameters"] = params;
  return engine::withInside(def, inside);
}

}  // namespace

SubcircuitPlan planSubcircuit(const Project& p, const std::set<std::string>& ids) {
  SubcircuitPlan plan;
  std::set<std::string> seen;
  for (const Connection& k : p.connections) {
    const bool from = ids.count(k.from.component) > 0, to = ids.count(k.to.component) > 0;
    if (from == to) continue;
    const PortRef& inner = from ? k.from : k.to;
    if (seen.insert(inner.str()).second) plan.ports.push_back({{}, inner});
  }
  for (const Component& c : p.components) {
    if (!ids.count(c.id)) continue;
    for (const auto& [input, ref] : c.inputs)
      if (!ref.empty() && !ids.count(refId(ref))) plan.inputs.push_back({{}, {c.id, input}, ref});
  }
  uniqueNames(plan.ports);
  uniqueNames(plan.inputs);
  return plan;
}

std::vector<ExposedParam> exposableParams(const Project& p, const std::set<std::string>& ids) {
  std::vector<ExposedParam> out;
  for (const Component& c : p.components) {
    const ComponentType* t = ids.count(c.id) ? Registry::instance().find(c.type) : nullptr;
    if (t)
      for (const ParamDecl& d : t->params) out.push_back({{}, {c.id, d.name}});
  }
  uniqueNames(out);
  return out;
}

std::string freshSubcircuitType(const Project& p) {
  for (int n = 1;; ++n) {
    const std::string name = "block" + std::to_string(n);
    if (!Registry::instance().find(name) && !p.userComponents.count(name)) return name;
  }
}

std::string freshInstanceId(const Project& p, const std::set<std::string>& ids) {
  for (int n = 1;; ++n) {
    const std::string id = "blk" + std::to_string(n);
    if (!p.find(id) || ids.count(id)) return id;
  }
}

std::string makeSubcircuit(Project& p, const std::set<std::string>& ids, const std::string& type,
                           const std::string& instance, const SubcircuitPlan& plan, const std::string& file) {
  if (std::string why = checkNames(p, ids, type, instance, plan); !why.empty()) return why;
  std::map<std::string, std::string> external;  // inner port -> the instance's port
  for (const BoundaryPort& b : plan.ports) external[b.inner.str()] = b.name;
  for (const Connection& k : p.connections) {
    const bool from = ids.count(k.from.component) > 0, to = ids.count(k.to.component) > 0;
    if (from != to && !external.count((from ? k.from : k.to).str()))
      return "line " + k.id + " crosses the boundary at " + (from ? k.from : k.to).str() + ", which is no external port";
  }
  const json def = definition(p, ids, type, plan);
  try {
    engine::registerSubcircuit(def, file);
  } catch (const ProjectError& e) {
    return e.what();
  }

  Component inst;
  inst.id = instance;
  inst.type = type;
  for (const BoundaryInput& b : plan.inputs) inst.inputs[b.name] = b.source;
  double x = 0, y = 0;
  for (const std::string& id : ids) {
    x += p.find(id)->placement.x / double(ids.size());
    y += p.find(id)->placement.y / double(ids.size());
  }
  inst.placement.x = snapToGrid(x);
  inst.placement.y = snapToGrid(y);
  // The instance takes the place of the first component it replaces, so the
  // expansion lists the components in the flat circuit's order.
  std::vector<Component> comps;
  for (Component& c : p.components) {
    if (ids.count(c.id)) {
      if (!inst.id.empty()) comps.push_back(std::move(inst));
      inst.id.clear();
      continue;
    }
    comps.push_back(std::move(c));
  }
  p.components = std::move(comps);
  // What outside read from inside now reads the inner component under its expanded id.
  std::map<std::string, std::string> rename;
  for (const std::string& id : ids) rename[id] = instance + "." + id;
  const auto outerRef = [&](std::string& ref) {
    if (ids.count(refId(ref))) ref = instance + "." + ref;
  };
  for (Component& c : p.components) {
    if (c.id == instance) continue;
    for (auto& [input, ref] : c.inputs) outerRef(ref);
    if (!c.data.is_null()) renameDataReferences(c.data, rename);
  }
  // So do the mechanism's latches switched by an inner signal, and the
  // channels the report and the plots name.
  for (LatchDef& l : p.mechanism.latches) {
    outerRef(l.engage);
    outerRef(l.release);
  }
  renameDataReferences(p.extra, rename);
  std::vector<Connection> conns;
  for (Connection& k : p.connections) {
    const bool from = ids.count(k.from.component) > 0, to = ids.count(k.to.component) > 0;
    if (from && to) continue;  // inside now
    if (from || to) {
      PortRef& end = from ? k.from : k.to;
      end = PortRef{instance, external.at(end.str())};
      k.waypoints.clear();  // the port moved: routed afresh
    }
    conns.push_back(std::move(k));
  }
  p.connections = std::move(conns);
  p.userComponents[type] = def;
  return {};
}

}  // namespace pm::gui
