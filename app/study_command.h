// `pneumech study`: runs a parameter study (or its optimisation) on the
// cores of this machine, or over MPI ranks under mpirun, and writes its
// table as CSV and JSON.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace pm::cli {

struct StudyOptions {
  std::string project;  // a project with a "studies" section, or a study file
  std::string name;     // which study (empty: the only or first one)
  std::string out;      // the CSV; the JSON goes beside it (.json)
  std::vector<std::string> sets;
  std::string keepResults;  // a folder for every variant's result CSV (empty: none kept)
  int jobs = 0;         // 0: every core (1 per rank under MPI)
  bool quiet = false;
  bool benchmark = false;
};

void addStudyOptions(CLI::App& command, StudyOptions& options);

// Exit codes as the other commands: 0 ok (also with failed variants), 2 a
// bad study or project, 3 when every variant failed.
int runStudy(const StudyOptions& options, int& argc, char**& argv);

}  // namespace pm::cli
