#include "studies/study_input.h"

#include "build/project_input.h"
#include "io/confined_file.h"
#include "io/json_limits.h"
#include "model/project_error.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace pm::studies {

StudyInput loadStudy(const std::string& path, const std::string& name, const std::vector<std::string>& sets) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ProjectError(path, "", "", "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  checkJsonLimits(text.str(), path);
  nlohmann::json root = nlohmann::json::parse(text.str(), nullptr, false);
  StudyInput s;
  if (root.is_object() && root.contains("format") && root.at("format") == "pneumech-study") {
    if (!root.contains("project") || !root["project"].is_string())
      throw ProjectError(path, "", "project", "missing: the project file, relative to this study file");
    const std::string folder = std::filesystem::path(path).parent_path().string();
    try {
      s.projectFile = confinedPath(folder, root["project"].get<std::string>()).path.string();
    } catch (const std::runtime_error& e) {
      throw ProjectError(path, "", "project", e.what());
    }
    root.erase("format");
    root.erase("project");
    s.study = parseStudy(root, path, "");
    if (!name.empty() && s.study.name != name)
      throw ProjectError(path, "", "name", "this study file holds study '" + s.study.name + "', not '" + name + "'");
    s.project = loadProject(s.projectFile);
  } else {
    s.projectFile = path;
    s.project = loadProject(path);  // says what is wrong with a file that is no project
    const std::vector<StudyDefinition> all = projectStudies(s.project, path);
    if (all.empty()) throw ProjectError(path, "studies", "", "the project has no study (a \"studies\" section)");
    bool found = name.empty();
    s.study = all.front();
    for (const StudyDefinition& d : all)
      if (d.name == name) s.study = d, found = true;
    if (!found) {
      std::string names;
      for (const StudyDefinition& d : all) names += (names.empty() ? "" : ", ") + d.name;
      throw ProjectError(path, "studies", "", "no study named '" + name + "' (the project has: " + names + ")");
    }
  }
  for (const std::string& a : sets) applyOverride(s.project, a, s.projectFile);
  return s;
}

}  // namespace pm::studies
