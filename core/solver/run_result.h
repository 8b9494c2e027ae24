// What a run returns (its status, the failing object, the solver's
// statistics), and where its result rows are computed.
#pragma once

#include <string>
#include <vector>

namespace pm {

struct RunStats {
  long steps = 0;
  long residualEvals = 0;
  long jacobianEvals = 0;
  long events = 0;
  double tReached = 0.0;
  double wallSeconds = 0.0;
  // "monolithic" (one DAE) or "cosimulation" (seed 000 backplane, see
  // solver/cosimulation.h): then the exchange interval, the number of
  // exchanges and each integrator's steps (steps is their sum).
  std::string coupling = "monolithic";
  double exchangeInterval = 0.0;
  long exchanges = 0;
  long stepsPneumatic = 0, stepsMechanical = 0;
  bool outputThread = false;  // the result rows were computed on a second thread
  bool outputCopy = false;    // ... by a copy of the System (on either thread)
  bool sparseJacobian = false;  // IDA factorised a sparse Jacobian (KLU), not a dense one
  double realTimeFactor() const { return wallSeconds > 0 ? tReached / wallSeconds : 0.0; }
};

enum class RunStatus { Completed, Failed, Cancelled };

struct RunResult {
  RunStatus status = RunStatus::Completed;
  std::string message;
  // Failed runs: the component, joint or part whose state had the largest
  // weighted local error when the solver gave up (empty when unknown).
  std::string object;
  RunStats stats;
  // Monolithic runs: the state (y, y') at stats.tReached, for an analysis
  // that continues from where the run stopped (the modal analysis's --at T).
  std::vector<double> yEnd, ypEnd;
  bool ok() const { return status == RunStatus::Completed; }
};

// Where the result rows are computed (solver/output_pipeline.h). Auto: by a
// copy of the System for projects with a mechanism, on a second thread
// where the machine has a second core; by the solver's own System for
// circuits (their rows are cheap, and the same either way). Thread: by a
// copy on a second thread, also for circuits. Solver: by a copy on the
// solver's thread (the same rows as Thread's, bit for bit). A copy needs
// every element to hand over its discrete state; where one cannot (a
// scripted controller), the solver's own System computes the rows.
enum class OutputRows { Auto, Thread, Solver };

}  // namespace pm
