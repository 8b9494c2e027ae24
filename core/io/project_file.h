// Project files: JSON with a format tag and a schema version (see
// docs/file-format.md). Loading checks everything a user can get wrong and
// throws ProjectError naming the file, object and field; saving is atomic.
#pragma once

#include "model/project.h"

#include <string>

namespace pm {

constexpr int kSchemaVersion = 1;

Project loadProject(const std::string& path);
// `name` is used in error messages in place of a file path.
Project parseProject(const std::string& text, const std::string& name);
void saveProject(const Project& project, const std::string& path);
std::string serializeProject(const Project& project);

// `--set ID.PARAM=VALUE`: sets a component parameter (SI) or a simulation
// setting (`simulation.t_end=2`); throws ProjectError on an unknown target or
// a value outside the parameter's range. `file` is the project's path: a
// setting of the file that the override makes invalid is blamed on it.
void applyOverride(Project& project, const std::string& assignment, const std::string& file = {});

// One numeric simulation setting from `source` (e.g. "--t-end"), checked
// like applyOverride's.
void setSimulationSetting(Project& project, const std::string& key, double value, const std::string& source,
                          const std::string& file = {});

}  // namespace pm
