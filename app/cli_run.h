// What the two command-line programs share: `pneumech` and the
// pneumech-report program that its `report` command starts (the one that
// paints PDFs, so the only one that loads Qt Gui and OpenSceneGraph).
#pragma once

#include "engine/engine.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pm::cli {

// Wall seconds a run may take (--time-limit; 0: the project's own setting).
extern double gTimeLimit;

// A last resort behind the run's own limit: whatever does not return (a
// compile or an analysis that never reaches a check) ends the process a
// while after the limit, with the same exit code as a failed run.
void startBackstop(double limit);

// The project with the command line's --set overrides and --time-limit.
Project loadWithOverrides(const std::string& path, const std::vector<std::string>& sets,
                          std::optional<double> tEnd = std::nullopt);

// Runs the project for `results` and its report settings (the plotted
// channels checked before the run); returns 0 or the exit code of a failed run.
int runForResults(const std::string& path, const std::vector<std::string>& sets, Project& pr, ResultStore& results,
                  ReportSettings& settings);

// The `report` command's options, declared once for both programs.
struct ReportOptions {
  std::string project, pdf;
  std::vector<std::string> sets;
  bool quiet = false;
  // --study [NAME]: the report of a study alone (the project's only or
  // first study without NAME), run on `jobs` threads (0: every core).
  CLI::Option* study = nullptr;
  std::string studyName;
  int jobs = 0;
  bool wantsStudy() const { return study && study->count() > 0; }
};
void addReportOptions(CLI::App& command, ReportOptions& options);
void addTimeLimitOption(CLI::App& command);

}  // namespace pm::cli
