#include "build/subcircuit_expansion.h"

#include "io/subcircuit_file.h"
#include "model/component_type.h"
#include "model/project_error.h"

#include <map>
#include <set>

namespace pm {

namespace {

constexpr int kMaxDepth = 16;

// An input fed from outside an instance is marked while the instance's
// inside is expanded, so that it is not renamed as an inner reference.
// Appended, not an operator+ chain: GCC 12 warns (-Wrestrict) on that.
std::string marker(int depth) {
  std::string m(1, '\x01');
  m += std::to_string(depth);
  m += '\x02';
  return m;
}

// Whether `ref` ("<id>.<channel>", the id itself possibly dotted) names one of `ids`.
bool namesOneOf(const std::string& ref, const std::set<std::string>& ids) {
  for (size_t dot = ref.find('.'); dot != std::string::npos; dot = ref.find('.', dot + 1))
    if (ids.count(ref.substr(0, dot))) return true;
  return false;
}

class Expansion {
 public:
  explicit Expansion(const std::string& file) : file_(file) {}

  // One level: instances replaced, the lines to their external ports
  // redirected (`redirect`: "<instance>.<port>" -> the inner port).
  Project level(const Project& pr, int depth, std::map<std::string, PortRef>& redirect) {
    Project out = pr;
    out.components.clear();
    out.connections.clear();
    std::vector<Connection> inner;
    for (const Component& c : pr.components) {
      const ComponentType* t = Registry::instance().find(c.type);
      if (t && isSubcircuit(*t))
        instance(c, *t, depth, out.components, inner, redirect);
      else
        out.components.push_back(c);
    }
    for (Connection k : pr.connections) {
      for (PortRef* r : {&k.from, &k.to})
        if (auto it = redirect.find(r->str()); it != redirect.end()) *r = it->second;
      out.connections.push_back(std::move(k));
    }
    out.connections.insert(out.connections.end(), inner.begin(), inner.end());
    return out;
  }

 private:
  void instance(const Component& inst, const ComponentType& t, int depth, std::vector<Component>& comps,
                std::vector<Connection>& conns, std::map<std::string, PortRef>& redirect) {
    if (depth >= kMaxDepth)
      throw ProjectError(file_, inst.id, "type",
                         "sub-circuits nested deeper than " + std::to_string(kMaxDepth) + " (does '" + t.name +
                             "' contain itself?)");
    if (!inst.data.is_null()) throw ProjectError(file_, inst.id, "data", "a sub-circuit instance has no data");
    Project inside = subcircuitInside(t);
    const auto target = [&](const std::string& ref) {
      const auto dot = ref.rfind('.');
      return std::pair{inside.find(ref.substr(0, dot)), ref.substr(dot + 1)};
    };
    for (const auto& x : t.definition.value("parameters", nlohmann::json::array())) {
      const std::string name = x.at("name");
      const double v = paramValue(inst, t, name);
      for (const std::string ref : x.at("targets")) target(ref).first->params[target(ref).second] = v;
    }
    for (const auto& x : t.definition.value("inputs", nlohmann::json::array())) {
      auto it = inst.inputs.find(x.at("name").get<std::string>());
      if (it == inst.inputs.end() || it->second.empty()) continue;
      for (const std::string ref : x.at("targets"))
        target(ref).first->inputs[target(ref).second] = marker(depth) + it->second;
    }
    std::map<std::string, PortRef> innerRedirect;
    Project flat = level(inside, depth + 1, innerRedirect);
    std::set<std::string> ids;
    for (const Component& c : flat.components) ids.insert(c.id);
    const std::string prefix = inst.id + ".";
    for (Component c : flat.components) {
      c.id = prefix + c.id;
      for (auto& [name, ref] : c.inputs) {
        if (ref.rfind(marker(depth), 0) == 0)
          ref.erase(0, marker(depth).size());  // fed from outside: already the outer name
        else if (namesOneOf(ref, ids))
          ref = prefix + ref;
      }
      // References inside its data (a sequence's conditions, a script's
      // inputs) name inner ids the same way; none is fed from outside.
      if (const ComponentType* ct = Registry::instance().find(c.type); ct && ct->data_refs && !c.data.is_null())
        ct->data_refs(c.data, [&](std::string& ref) {
          if (namesOneOf(ref, ids)) ref = prefix + ref;
        });
      comps.push_back(std::move(c));
    }
    for (Connection k : flat.connections) {
      k.id = prefix + k.id;
      k.from.component = prefix + k.from.component;
      k.to.component = prefix + k.to.component;
      conns.push_back(std::move(k));
    }
    for (const auto& x : t.definition.at("ports")) {
      const std::string connect = x.at("connect");
      const auto dot = connect.rfind('.');
      PortRef r{connect.substr(0, dot), connect.substr(dot + 1)};
      if (auto it = innerRedirect.find(connect); it != innerRedirect.end()) r = it->second;
      redirect[prefix + x.at("name").get<std::string>()] = PortRef{prefix + r.component, r.port};
    }
  }

  const std::string& file_;
};

}  // namespace

bool hasSubcircuits(const Project& pr) {
  for (const Component& c : pr.components)
    if (const ComponentType* t = Registry::instance().find(c.type); t && isSubcircuit(*t)) return true;
  return false;
}

Project expandSubcircuits(const Project& pr, const std::string& file) {
  std::map<std::string, PortRef> redirect;
  return Expansion(file).level(pr, 0, redirect);
}

const Project& expandedView(const Project& pr, std::optional<Project>& storage) {
  if (!hasSubcircuits(pr)) return pr;
  try {
    return storage.emplace(expandSubcircuits(pr, {}));
  } catch (const ProjectError&) {
    return pr;
  }
}

}  // namespace pm
