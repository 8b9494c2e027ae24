// The non-dynamic analyses of a mechanism (seed 004 sec. 3): static
// equilibrium, quasi-static stepping through time, and kinematic analysis of
// a fully driven mechanism, on the MultibodySystem's equations and
// projections. Dynamics run through Simulation like any project. Results use
// the same channels as a dynamic run.
#pragma once

#include "model/project_error.h"
#include "model/project.h"
#include "solver/result_store.h"

#include <string>
#include <vector>

namespace pm::mb {

class MultibodySystem;

// Each returns the local state (y, yp) at t; the channels from outputs().
// Static equilibrium from the current positions (velocities set to zero);
// throws on no convergence.
void staticEquilibrium(MultibodySystem& sys, double t, std::vector<double>& y, std::vector<double>& yp);
// Kinematic analysis of a 0-DOF mechanism at t, starting from y; throws
// when degrees of freedom remain or the constraints cannot be met.
void kinematicAnalysis(MultibodySystem& sys, double t, std::vector<double>& y, std::vector<double>& yp);

}  // namespace pm::mb

namespace pm {

struct BuildOptions;

enum class MechanismAnalysis { Static, QuasiStatic, Kinematic };

struct AnalysisReport {
  int dof = 0;
  std::vector<std::string> messages;  // e.g. redundant constraints removed
  double seconds = 0.0;               // wall time of the analysis alone (its system built before)
};

// Throws ProjectError on bad input, std::runtime_error when the analysis
// fails (no equilibrium, lock-up). `options`: the switches of BuildOptions
// (element/element.h) that tests turn (lumping, dense decompositions).
AnalysisReport runMechanismAnalysis(const Project& project, const std::string& file, MechanismAnalysis kind,
                                    ResultStore& out);
AnalysisReport runMechanismAnalysis(const Project& project, const std::string& file, MechanismAnalysis kind,
                                    ResultStore& out, const BuildOptions& options);

}  // namespace pm
