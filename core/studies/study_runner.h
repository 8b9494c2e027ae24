// Runs the variants of a study: each a whole simulation of the project with
// the study's parameters set (as `--set` sets them), its key results read
// off (studies/result_columns.h) and its constraints checked. A variant
// that fails (a value the parameter refuses, a run the solver gives up on)
// is a row saying so; it never stops the study.
//
// Variants are independent: each has its own Project, System and result
// store, and the engine keeps no process-wide state a run changes (the
// component registry is read-only once the program runs). So they run on
// threads, and a row does not depend on the thread, the number of jobs or
// the MPI rank that computed it.
#pragma once

#include "model/project.h"
#include "studies/study_definition.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace pm::studies {

// What every variant needs, checked once before the first.
struct StudySetup {
  Project base;
  std::string file;  // the project's path, for messages and --set's blame
  StudyDefinition study;
  std::vector<std::string> parameterUnits;  // per study.parameters, SI ("" for catalogue parts)
  std::vector<std::string> resultUnits;  // per study.results
  double cyclesPerMinute = 0.0;          // the project's report setting (air per minute)
  std::string keepFolder;                // non-empty: each variant's channels as FOLDER/variant_ROW.csv
  // Set from another thread to stop the study: running variants end as
  // cancelled (their simulations poll it), the rest are not started.
  const std::atomic<bool>* cancel = nullptr;
};

// Checks the study against the project: every parameter path takes at
// least one of its values (none: the first error, a ProjectError), every
// result names something the run has. Throws ProjectError naming `file`.
StudySetup prepareStudy(const Project& base, const std::string& file, const StudyDefinition& study);

struct VariantResult {
  bool ok = false;
  bool feasible = false;       // ok and every constraint met
  std::string message;         // why it failed
  std::vector<double> results; // per study.results (NaN: not defined by this run)
};

// One variant: `values` per study parameter; `row` is its row in the table
// (the name of its kept result file). Safe to call from many threads.
VariantResult evaluateVariant(const StudySetup& setup, const std::vector<double>& values, size_t row = 0);

// The value of result or parameter `name` in a finished variant (NaN when absent).
double variantValue(const StudySetup& setup, const std::vector<double>& values, const VariantResult& r,
                    const std::string& name);

// Evaluates batches of variants, however it spreads them (threads, MPI ranks).
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Results in the order of `points`.
  virtual std::vector<VariantResult> evaluate(const std::vector<std::vector<double>>& points) = 0;
};

// Called as each variant finishes (from a worker thread, one call at a time):
// its index in the batch and its result.
using VariantDone = std::function<void(size_t index, const VariantResult& result)>;

inline constexpr const char* kNotRun = "not run: the study was stopped";

// Runs a batch on `jobs` threads of this process. `rows`: the points' rows
// in the table (empty: 0, 1, ...). After setup.cancel is set, the points not
// started are left failed with the message kNotRun and `done` is not called
// for them.
std::vector<VariantResult> evaluateLocally(const StudySetup& setup, const std::vector<std::vector<double>>& points,
                                           int jobs, const VariantDone& done = {}, const std::vector<size_t>& rows = {});

// Numbers the batches' points on from 0, as the table's rows follow them.
class LocalEvaluator : public Evaluator {
 public:
  LocalEvaluator(const StudySetup& setup, int jobs, VariantDone done = {})
      : setup_(setup), jobs_(jobs), done_(std::move(done)) {}
  std::vector<VariantResult> evaluate(const std::vector<std::vector<double>>& points) override {
    std::vector<size_t> rows(points.size());
    for (size_t& r : rows) r = next_++;
    return evaluateLocally(setup_, points, jobs_, done_, rows);
  }

 private:
  const StudySetup& setup_;
  int jobs_;
  VariantDone done_;
  size_t next_ = 0;
};

}  // namespace pm::studies
