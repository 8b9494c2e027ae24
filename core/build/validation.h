// All model validation, in one layer: everything about a project that does
// not need equations. Errors are ProjectErrors naming the file, the object
// and the field. The loader (io/project_file.h) only parses; loading with
// these checks is build/project_input.h.
#pragma once

#include "model/mechanism.h"
#include "model/project.h"

#include <string>
#include <vector>

namespace pm {

// Known types, ports, parameter ranges, connections, ids, signal references
// syntax, the mechanism and the simulation settings. `forRun` adds what only
// a run needs (required signal inputs connected), so that an unfinished
// circuit can still be saved and opened again. `expanded`: sub-circuits
// expanded (build/subcircuit_expansion.h), inner ids read "<instance>.<id>".
void validateProject(const Project& project, const std::string& file, bool forRun = true, bool expanded = false);
// The "simulation" part of it (times, tolerances, coupling), for editors.
void validateSimulation(const SimulationSettings& settings, const std::string& file);
// What a run would hold in memory: the rows (t_end / output_interval) times
// the channels kept (`storedChannels`, plus the time column), refused
// beyond kMaxStoredValues, naming simulation.output_interval. Checked once the
// channels are known (after compiling, with --channels applied), before the run.
inline constexpr double kMaxStoredValues = 2e8;
// `where` ends the message's "values ..." ("in memory", "in the results file").
void validateOutputSize(const SimulationSettings& settings, size_t storedChannels, const std::string& file,
                        const std::string& where = "in memory");
// The mechanism: references, ids, types, parameter ranges; `componentIds`
// share the id space.
void validateMechanism(const Mechanism& m, const std::string& file, const std::vector<std::string>& componentIds = {});

// Whether a signal reference names a part, joint, motion or force (the
// mechanism publishes "<object>.<quantity>").
bool namesMechanismObject(const Mechanism& m, const std::string& ref);

}  // namespace pm
