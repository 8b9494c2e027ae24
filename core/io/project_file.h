// Project files: JSON with a format tag and a schema version (see
// docs/file-format.md). Reading reports what cannot be parsed (malformed
// JSON, unknown fields, wrong types) as a ProjectError naming the file,
// object and field; what the values mean is checked by the build layer
// (build/validation.h; build/project_input.h loads and checks). Saving is
// atomic.
#pragma once

#include "model/project.h"

#include <string>

namespace pm {

constexpr int kSchemaVersion = 1;

// Parsing only: see build/project_input.h for a project loaded and checked.
Project readProjectFile(const std::string& path);
// `name` is used in error messages in place of a file path.
Project parseProjectText(const std::string& text, const std::string& name);
void saveProject(const Project& project, const std::string& path);
std::string serializeProject(const Project& project);

// Whether `key` is a setting of the file's "simulation" section.
bool isSimulationKey(const std::string& key);

// The `components` and `connections` of `section` (a sub-circuit's inside,
// io/subcircuit_file.h), read as a project's; errors name `file`.
Project parseCircuitSection(const nlohmann::json& section, const std::string& file, const std::string& text);
// The `components` and `connections` of `project` as a project file writes
// them (an object with those two keys): what a sub-circuit's inside holds.
nlohmann::json circuitSection(const Project& project);

}  // namespace pm
