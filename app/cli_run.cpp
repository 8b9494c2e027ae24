#include "cli_run.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

namespace pm::cli {

double gTimeLimit = 0.0;

void startBackstop(double limit) {
  if (!(limit > 0.0)) return;
  const double grace = limit + std::max(5.0, limit);
  std::thread([grace, limit] {
    std::this_thread::sleep_for(std::chrono::duration<double>(grace));
    std::fprintf(stderr, "pneumech: stopped: still running %.6g s after the wall-time limit of %.6g s (--time-limit)\n",
                 grace - limit, limit);
    std::fflush(stderr);
    std::_Exit(3);
  }).detach();
}

Project loadWithOverrides(const std::string& path, const std::vector<std::string>& sets, std::optional<double> tEnd) {
  engine::Overrides o;
  o.sets = sets;
  o.tEnd = tEnd;
  o.wallTimeLimit = gTimeLimit;
  return engine::load(path, o);
}

int runForResults(const std::string& path, const std::vector<std::string>& sets, Project& pr, ResultStore& results,
                  ReportSettings& settings) {
  pr = loadWithOverrides(path, sets);
  settings = reportSettings(pr, path);
  engine::CompiledProject sim(pr, path);
  checkPlotChannels(settings, sim.channelNames(), path);  // before spending the run
  RunResult r = sim.run(results);
  if (!r.ok()) {
    std::cerr << "pneumech: " << path << ": simulation " << (r.status == RunStatus::Cancelled ? "cancelled" : "failed")
              << ": " << r.message << "\n";
    return 3;
  }
  return 0;
}

void addReportOptions(CLI::App& rep, ReportOptions& o) {
  rep.add_option("project", o.project, "project file")->required();
  rep.add_option("--pdf", o.pdf, "PDF file to write")->required();
  rep.add_option("--set", o.sets, "override a parameter in SI: ID.PARAM=VALUE (repeatable)")->take_all();
  rep.add_flag("--quiet,-q", o.quiet, "print nothing on success");
  o.study = rep.add_option("--study", o.studyName,
                           "run the project's study NAME (default: its only or first one; or a study file's) and "
                           "write the report of the study alone: its table, plot and chosen design")
                ->expected(0, 1);
  rep.add_option("--jobs,-j", o.jobs, "with --study: variants run at once (default: every core)")
      ->check(CLI::Range(1, 1024));
  addTimeLimitOption(rep);
}

void addTimeLimitOption(CLI::App& command) {
  command
      .add_option("--time-limit", gTimeLimit,
                  "wall-clock seconds the run may take; longer runs stop with a message and exit code 3 "
                  "(default: the project's simulation.wall_time_limit, 0 = none)")
      ->check(CLI::PositiveNumber);
}

}  // namespace pm::cli
