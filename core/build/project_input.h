// A project as the engine takes it in: read from its file (io/) and checked
// (build/validation.h), and changed from the command line and checked
// again. Every function throws ProjectError naming the file, object and
// field.
#pragma once

#include "io/project_file.h"
#include "model/component_type.h"
#include "model/project.h"

#include <optional>
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

// What `--set PATH=VALUE` sets in `project`: a component's or a mechanism
// object's declared parameter, a part's mass or a numeric simulation setting.
struct OverrideTarget {
  std::string type;  // whose declaration: the component or mechanism type, "part", "simulation"
  ParamDecl decl;    // name = the field; SI unit, range ("1": a pure number; a setting's range is unbounded here, its checks are validateSimulation's)
  double value = 0.0;  // SI, as the project has it now (a type default when not set)
};
// Nothing for a catalogue part ("ID.part": a part number, not a number) or a
// path naming nothing.
std::optional<OverrideTarget> overrideTarget(const Project& project, const std::string& path);

// The SI unit of what `--set PATH=VALUE` sets in `project` ("m", "Pa",
// "kg", "s"; "1" for a pure number); "" where overrideTarget has nothing.
std::string overrideUnit(const Project& project, const std::string& path);

// One numeric simulation setting from `source` (e.g. "--t-end"), checked
// like applyOverride's.
void setSimulationSetting(Project& project, const std::string& key, double value, const std::string& source,
                          const std::string& file = {});

}  // namespace pm
