// Project -> System: builds elements from the registry, joins connected ports
// into nets, lets every element set itself up, decides node kinds and
// resolves signal references. Throws ProjectError on inconsistent input.
#pragma once

#include "model/project.h"
#include "solver/system.h"

#include <memory>
#include <string>

namespace pm {

class Compiler {
 public:
  // `file` only names the source in error messages; `options`: see BuildOptions.
  static std::unique_ptr<System> compile(const Project& project, const std::string& file = {},
                                         const BuildOptions& options = {});
  // One side of a co-simulation (core/solver/cosimulation.h): Pneumatic
  // leaves the mechanism out, Mechanical keeps only the mechanism and the
  // components attached to it; `backplane` joins the two.
  static std::unique_ptr<System> compile(const Project& project, const std::string& file, CouplingRole role,
                                         Backplane* backplane, const BuildOptions& options = {});
};

// Checks everything about a project that does not need equations: known types,
// ports, parameter ranges, connections, ids, signal references syntax.
// `forRun` adds what only a run needs (required signal inputs connected), so
// that an unfinished circuit can still be saved and opened again.
void validateProject(const Project& project, const std::string& file, bool forRun = true);
// The "simulation" part of it (times, tolerances, coupling), for editors.
void validateSimulation(const SimulationSettings& settings, const std::string& file);

// The file of the project Compiler::compile is building on this thread ("" when
// none): element types whose data names other files (a controller's .js)
// resolve them against its folder.
const std::string& compilingFile();

}  // namespace pm
