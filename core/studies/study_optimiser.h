// Minimises (or maximises) a study's objective subject to its constraints,
// over the study's continuous parameters (ranges), with NLopt's
// gradient-free local methods: COBYLA (constraints natively), Subplex or
// Nelder-Mead (constraints as a penalty). Every evaluation is a variant run
// through an Evaluator, so it runs on the same threads or MPI ranks as a
// study.
//
// First the study's own variants (its grid or samples, when it has any)
// are evaluated in one parallel batch; the best feasible one (else the
// least infeasible) is the start. Without variants the start is the middle
// of the ranges. NLopt then refines it one evaluation at a time.
#pragma once

#include "studies/study_runner.h"

#include <string>
#include <vector>

namespace pm::studies {

struct OptimisationResult {
  bool found = false;                       // a feasible variant was evaluated
  size_t best = 0;                          // index into points / results
  std::vector<std::vector<double>> points;  // every evaluation, in order (the table's rows)
  std::vector<VariantResult> results;
  size_t startEvaluations = 0;              // of which the first batch
  std::string status;                       // why NLopt stopped
};

// Throws ProjectError (bad study) when the objective names nothing.
OptimisationResult optimise(const StudySetup& setup, Evaluator& evaluator);

}  // namespace pm::studies
