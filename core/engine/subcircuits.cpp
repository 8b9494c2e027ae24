#include "engine/subcircuits.h"

#include "build/subcircuit_expansion.h"
#include "io/project_file.h"
#include "io/subcircuit_file.h"
#include "model/component_type.h"
#include "model/project_error.h"

#include <optional>
#include <vector>

namespace pm::engine {

// A registered sub-circuit's origin must not be empty (isSubcircuit reads it).
std::string projectOrigin(const std::string& file) { return file.empty() ? std::string("untitled project") : file; }

namespace {
std::string origin(const std::string& file) { return projectOrigin(file); }
}  // namespace

bool isSubcircuitType(const std::string& type) {
  const ComponentType* t = Registry::instance().find(type);
  return t && isSubcircuit(*t);
}

std::string registerSubcircuit(const nlohmann::json& def, const std::string& file) {
  // No text: the definition is the studio's, so errors name fields, not lines.
  return pm::registerSubcircuit(def, origin(file), std::string());
}

void registerSubcircuits(const Project& project, const std::string& file) {
  std::vector<const nlohmann::json*> left;
  for (const auto& [name, def] : project.userComponents) {
    if (!isSubcircuitDefinition(def)) continue;
    const ComponentType* t = Registry::instance().find(name);
    if (!t || t->definition != def) left.push_back(&def);
  }
  // One that uses another of the list fails until that one is registered:
  // rounds until none is left, or none succeeds (then its error is thrown).
  while (!left.empty()) {
    std::vector<const nlohmann::json*> later;
    std::optional<ProjectError> first;
    for (const nlohmann::json* def : left) {
      try {
        registerSubcircuit(*def, file);
      } catch (const ProjectError& e) {
        if (!first) first = e;
        later.push_back(def);
      }
    }
    if (later.size() == left.size()) throw *first;
    left = std::move(later);
  }
}

Project subcircuitInside(const nlohmann::json& def, const std::string& file) {
  ComponentType t;
  t.origin = origin(file);
  t.definition = def;
  return pm::subcircuitInside(t);
}

nlohmann::json withInside(nlohmann::json def, const Project& inside) {
  const nlohmann::json circuit = circuitSection(inside);
  def["components"] = circuit.at("components");
  def["connections"] = circuit.at("connections");
  return def;
}

Project expandSubcircuits(const Project& project, const std::string& file) {
  return pm::expandSubcircuits(project, file);
}

}  // namespace pm::engine
