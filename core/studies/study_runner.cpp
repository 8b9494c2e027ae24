#include "studies/study_runner.h"

#include "build/project_input.h"
#include "model/project_error.h"
#include "results/key_results.h"
#include "results/report_settings.h"
#include "analyses/simulation.h"
#include "studies/result_columns.h"

#include <atomic>
#include <cmath>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

namespace pm::studies {

namespace {

std::string assignment(const StudyParameter& p, double v) { return p.path + "=" + valueLabel(p, v); }

// The values a parameter's check tries: a list's entries, a range's ends.
std::vector<double> probeValues(const StudyParameter& p) {
  if (!p.isRange) return p.values;
  return {p.from, p.to};
}

}  // namespace

StudySetup prepareStudy(const Project& base, const std::string& file, const StudyDefinition& study) {
  StudySetup s;
  s.base = base;
  s.file = file;
  s.study = study;
  for (const StudyParameter& p : study.parameters) {
    std::optional<ProjectError> first;
    bool anyTaken = false;
    for (double v : probeValues(p)) {
      Project copy = base;
      try {
        applyOverride(copy, assignment(p, v), file);
        anyTaken = true;
        break;
      } catch (const ProjectError& e) {
        if (!first) first = e;
      }
    }
    if (!anyTaken) throw ProjectError(file, "study '" + study.name + "'", p.path, first->what());
    s.parameterUnits.push_back(overrideUnit(base, p.path));
  }
  // The run's channels, for the results that name one.
  const Simulation sim(base, file);
  const std::vector<ChannelInfo> channels = sim.channels();
  for (size_t i = 0; i < study.results.size(); ++i)
    s.resultUnits.push_back(resultUnit(study.results[i], base, channels, file, "study '" + study.name + "'",
                                       "results[" + std::to_string(i) + "]"));
  s.cyclesPerMinute = reportSettings(base, file).cyclesPerMinute;
  return s;
}

double variantValue(const StudySetup& setup, const std::vector<double>& values, const VariantResult& r,
                    const std::string& name) {
  const auto& ps = setup.study.parameters;
  for (size_t k = 0; k < ps.size(); ++k)
    if (ps[k].path == name) return values[k];
  const auto& rs = setup.study.results;
  for (size_t k = 0; k < rs.size() && k < r.results.size(); ++k)
    if (rs[k] == name) return r.results[k];
  return std::numeric_limits<double>::quiet_NaN();
}

VariantResult evaluateVariant(const StudySetup& setup, const std::vector<double>& values, size_t row) {
  VariantResult r;
  try {
    Project pr = setup.base;
    for (size_t k = 0; k < setup.study.parameters.size(); ++k)
      applyOverride(pr, assignment(setup.study.parameters[k], values[k]), setup.file);
    Simulation sim(pr, setup.file);
    sim.setOutputRows(OutputRows::Solver);  // the jobs are the parallelism; same rows either way
    ResultStore store;
    const RunResult run = sim.run(store, setup.cancel);
    if (!setup.keepFolder.empty())  // also a failed run's rows: they show where it gave up
      store.writeCsv((std::filesystem::path(setup.keepFolder) / ("variant_" + std::to_string(row) + ".csv")).string());
    if (!run.ok()) {
      r.message = std::string(run.status == RunStatus::Cancelled ? "simulation cancelled: " : "simulation failed: ") +
                  run.message;
      return r;
    }
    KeyResultOptions options;
    options.cyclesPerMinute = setup.cyclesPerMinute;
    const KeyResults kr = computeKeyResults(pr, store, options);
    for (const std::string& name : setup.study.results) r.results.push_back(resultValue(name, kr, store));
    r.ok = true;
  } catch (const std::exception& e) {
    r.message = e.what();
    return r;
  }
  r.feasible = true;
  for (const Constraint& c : setup.study.constraints) {
    const double v = variantValue(setup, values, r, c.result);
    if (!(c.upper ? v <= c.bound : v >= c.bound)) r.feasible = false;  // NaN: not met
  }
  return r;
}

std::vector<VariantResult> evaluateLocally(const StudySetup& setup, const std::vector<std::vector<double>>& points,
                                           int jobs, const VariantDone& done, const std::vector<size_t>& rows) {
  std::vector<VariantResult> out(points.size());
  std::atomic<size_t> next{0};
  std::mutex report;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < points.size();) {
      if (setup.cancel && setup.cancel->load()) {
        out[i].message = kNotRun;
        continue;
      }
      out[i] = evaluateVariant(setup, points[i], rows.empty() ? i : rows[i]);
      if (done) {
        std::lock_guard<std::mutex> lock(report);
        done(i, out[i]);
      }
    }
  };
  const size_t n = std::min<size_t>(static_cast<size_t>(std::max(1, jobs)), points.size());
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  return out;
}

}  // namespace pm::studies
