// The non-dynamic analyses of a mechanism (seed 004 sec. 3): static
// equilibrium, quasi-static stepping through time, and kinematic analysis of
// a fully driven mechanism. Dynamics run through Simulation like any project.
// Results use the same channels as a dynamic run.
#pragma once

#include "model/project_error.h"
#include "model/project.h"
#include "solver/result_store.h"

#include <string>
#include <vector>

namespace pm {

enum class MechanismAnalysis { Static, QuasiStatic, Kinematic };

struct AnalysisReport {
  int dof = 0;
  std::vector<std::string> messages;  // e.g. redundant constraints removed
};

// Throws ProjectError on bad input, std::runtime_error when the analysis
// fails (no equilibrium, lock-up).
AnalysisReport runMechanismAnalysis(const Project& project, const std::string& file, MechanismAnalysis kind,
                                    ResultStore& out);

}  // namespace pm
