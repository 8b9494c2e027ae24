// `pneumech size`: the sizing assistant (docs/sizing.md). Proposes a
// catalogue cylinder and valve for a project's move, shows every
// candidate with why it was or was not chosen and the proposal's margin,
// and simulates the proposal once more, as `pneumech results --set` would.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pm::cli {

struct SizeOptions {
  std::string project;
  std::string cylinder = "cyl1", valve = "v1", supply;
  std::string cylinders = "cylinders_iso15552", valves = "valves_5_2";
  double time = 0.0;
  std::optional<double> mass, load, stroke, angleDeg, pressure;
  std::vector<std::string> sets;
  std::string out;  // the candidates' study table (CSV + JSON), optional
  int jobs = 0;
};

void addSizeOptions(CLI::App& command, SizeOptions& options);

// 0: a proposal (verified), 3: no candidate meets the task, 2: bad task.
int runSize(const SizeOptions& options);

}  // namespace pm::cli
