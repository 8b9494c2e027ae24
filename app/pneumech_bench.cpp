// pneumech-bench: real-time performance of the engine on the shipped example
// projects. Loads every <source>/projects/*.pneumech.json (or the files given
// on the command line), runs each N times on this one thread and prints per
// project: simulated seconds, wall seconds (best of N), real-time factor,
// integrator steps and residual evaluations.
//
//   pneumech-bench [-n N] [file.pneumech.json ...]
#include "io/project_file.h"
#include "model/project_error.h"
#include "solver/simulation.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef PM_SOURCE_DIR
#define PM_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;

namespace {

int usage() {
  std::fprintf(stderr, "usage: pneumech-bench [-n N] [file.pneumech.json ...]\n"
                       "  default files: %s/projects/*.pneumech.json, N = 5\n", PM_SOURCE_DIR);
  return 2;
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 5;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
      if (repeats < 1) return usage();
    } else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      return usage();
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) {
    const fs::path dir = fs::path(PM_SOURCE_DIR) / "projects";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.is_regular_file() && endsWith(entry.path().filename().string(), ".pneumech.json"))
        files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      std::fprintf(stderr, "pneumech-bench: no *.pneumech.json in %s\n", dir.string().c_str());
      return 1;
    }
  }

  std::printf("%-36s %10s %12s %12s %10s %12s %8s\n", "project", "sim [s]", "wall [s]", "RT factor", "steps",
              "res. evals", "events");
  int failures = 0;
  double totalSim = 0.0, totalWall = 0.0;
  for (const std::string& path : files) {
    const std::string name = fs::path(path).filename().string();
    try {
      const pm::Project project = pm::loadProject(path);
      double best = std::numeric_limits<double>::infinity();
      pm::RunStats stats;
      for (int k = 0; k < repeats; ++k) {
        // Compile inside the loop: a run consumes the element's discrete state.
        pm::Simulation sim(project, path);
        pm::ResultStore out;
        const pm::RunResult r = sim.run(out);
        if (!r.ok()) throw std::runtime_error("simulation failed: " + r.message);
        if (r.stats.wallSeconds < best) {
          best = r.stats.wallSeconds;
          stats = r.stats;
        }
      }
      totalSim += stats.tReached;
      totalWall += best;
      std::printf("%-36s %10.4g %12.6f %12.4g %10ld %12ld %8ld\n", name.c_str(), stats.tReached, best,
                  best > 0 ? stats.tReached / best : 0.0, stats.steps, stats.residualEvals, stats.events);
    } catch (const std::exception& e) {
      ++failures;
      std::printf("%-36s FAILED: %s\n", name.c_str(), e.what());
    }
    std::fflush(stdout);
  }
  std::printf("%-36s %10.4g %12.6f %12.4g   (best of %d runs each, single thread)\n", "total", totalSim, totalWall,
              totalWall > 0 ? totalSim / totalWall : 0.0, repeats);
  return failures == 0 ? 0 : 1;
}
