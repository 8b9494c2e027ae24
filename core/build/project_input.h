// A project as the engine takes it in: read from its file (io/) and checked
// (build/validation.h), and changed from the command line and checked
// again. Every function throws ProjectError naming the file, object and
// field.
#pragma once

#include "io/project_file.h"
#include "model/project.h"

#include <string>

namespace pm {

// Reads and validates (not yet what only a run needs: an unfinished circuit
// opens again).
Project loadProject(const std::string& path);
// `name` is used in error messages in place of a file path.
Project parseProject(const std::string& text, const std::string& name);

// `--set ID.PARAM=VALUE`: sets a component parameter (SI) or a simulation
// setting (`simulation.t_end=2`); throws ProjectError on an unknown target or
// a value outside the parameter's range. `file` is the project's path: a
// setting of the file that the override makes invalid is blamed on it.
void applyOverride(Project& project, const std::string& assignment, const std::string& file = {});

// The SI unit of what `--set PATH=VALUE` sets in `project` ("m", "Pa",
// "kg", "s"; "1" for a pure number): a component's or a mechanism object's
// declared parameter, a part's mass, a simulation setting. "" for a
// catalogue part ("ID.part": a part number) or a path naming nothing.
std::string overrideUnit(const Project& project, const std::string& path);

// One numeric simulation setting from `source` (e.g. "--t-end"), checked
// like applyOverride's.
void setSimulationSetting(Project& project, const std::string& key, double value, const std::string& source,
                          const std::string& file = {});

}  // namespace pm
