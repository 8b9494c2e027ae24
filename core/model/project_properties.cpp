#include "model/project_properties.h"

namespace pm {

ProjectProperties projectProperties(const Project& project) {
  ProjectProperties p;
  if (!project.extra.is_object() || !project.extra.contains("meta")) return p;
  const nlohmann::json& m = project.extra.at("meta");
  if (!m.is_object()) return p;
  // The loader checked the types; a project built in code may not have.
  if (m.contains("notes") && m["notes"].is_string()) p.notes = m["notes"].get<std::string>();
  if (m.contains("logo") && m["logo"].is_string()) p.logo = m["logo"].get<std::string>();
  if (m.contains("required_cycle_time") && m["required_cycle_time"].is_number())
    p.requiredCycleTime = m["required_cycle_time"].get<double>();
  return p;
}

void setProjectProperties(Project& project, const ProjectProperties& p) {
  if (!project.extra.is_object()) project.extra = nlohmann::json::object();
  nlohmann::json m = nlohmann::json::object();
  if (!p.notes.empty()) m["notes"] = p.notes;
  if (!p.logo.empty()) m["logo"] = p.logo;
  if (p.requiredCycleTime > 0) m["required_cycle_time"] = p.requiredCycleTime;
  if (m.empty()) project.extra.erase("meta");
  else project.extra["meta"] = m;
}

}  // namespace pm
