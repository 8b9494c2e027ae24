// A test helper of issue 24: a project with one component packed alone into
// a sub-circuit, to compare what reads the circuit (analyses, the report)
// on the packed project with the flat one. Header-only.
#pragma once

#include "build/project_input.h"
#include "io/project_file.h"
#include "model/component_type.h"
#include "model/project.h"

#include <nlohmann/json.hpp>

#include <string>

namespace pm::test {

// `flat` with component `id` alone packed into a sub-circuit type `type`
// (external ports named as its pneumatic ports), instance `instance` in
// its place; the lines to it end at the instance's ports.
inline Project packAlone(const Project& flat, const std::string& id, const std::string& type,
                         const std::string& instance) {
  using nlohmann::json;
  json root = json::parse(serializeProject(flat));
  json inside, comps = json::array();
  for (json& c : root["components"]) {
    if (c["id"] != id) {
      comps.push_back(c);
      continue;
    }
    inside = c;
    comps.push_back({{"id", instance}, {"type", type}, {"placement", c["placement"]}});
  }
  json ports = json::array();
  for (const PortDecl& p : Registry::instance().find(inside["type"].get<std::string>())->ports)
    if (p.domain == Domain::Pneumatic) ports.push_back({{"name", p.name}, {"connect", id + "." + p.name}});
  root["subcircuits"][type] = {{"format", "pneumech-subcircuit"}, {"name", type}, {"ports", ports},
                               {"components", json::array({inside})}, {"connections", json::array()}};
  root["components"] = comps;
  for (json& k : root["connections"])
    for (const char* end : {"from", "to"}) {
      const std::string ref = k[end].get<std::string>();
      if (ref.rfind(id + ".", 0) == 0) k[end] = instance + ref.substr(id.size());
    }
  return parseProject(root.dump(2), "packed.pneumech.json");
}

}  // namespace pm::test
