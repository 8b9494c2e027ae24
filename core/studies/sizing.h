// The sizing assistant (`pneumech size`, docs/sizing.md): which catalogue
// cylinder and valve make a project's move in the required time? A study
// underneath: every combination of a cylinder family's parts and a valve
// family's parts (the grid), each a whole simulation of the project with
// the task's mass, load, stroke and pressure set. Candidates that extend
// within the time (from the valve signal) and, where the part states a
// cushioning limit, arrive below it, are ranked by price when every one
// has a price, else by air per cycle (the proposal then the smallest parts
// within 2 % of the least air). Every other candidate says why it was not
// chosen.
#pragma once

#include "studies/study_runner.h"

#include <optional>
#include <string>
#include <vector>

namespace pm::studies {

struct SizingTask {
  std::string cylinder;                          // the project's cylinder id
  std::string valve;                             // the valve feeding it
  std::string cylinderFamily = "cylinders_iso15552";
  std::string valveFamily = "valves_5_2";
  double requiredTime = 0.0;                     // s, extension from the valve signal
  std::vector<std::string> sets;                 // the task as --set: mass, F_load, stroke, angle, supply p
};

struct SizingCandidate {
  std::string cylinderPart, valvePart;
  double time = 0.0;      // extend_time_from_signal (NaN: the stroke did not complete)
  double air = 0.0;       // air_per_cycle, Nl
  double impactEnergy = 0.0;
  std::optional<double> price;  // cylinder + valve, when both are priced
  bool meets = false;
  double margin = 0.0;    // (required - time) / required
  int rank = -1;          // among those that meet (0: the proposal)
  std::string why;        // why it was rejected, or "meets"
};

struct SizingResult {
  StudySetup setup;                        // the study underneath
  std::vector<std::vector<double>> points; // its table
  std::vector<VariantResult> results;
  std::vector<SizingCandidate> candidates; // in table order
  int proposal = -1;                       // index into candidates (-1: none meets the task)
  std::string rankedBy;                    // "price" or "air per cycle"
};

// The study of the task on `base` (already loaded; `file` names it in
// messages). Throws ProjectError for a bad task (unknown ids, families,
// a --set the project refuses).
StudySetup sizingStudy(const Project& base, const std::string& file, const SizingTask& task);

// Runs it on `jobs` threads (done: per finished variant, as evaluateLocally) and ranks.
SizingResult size(const Project& base, const std::string& file, const SizingTask& task, int jobs,
                  const VariantDone& done = {});

}  // namespace pm::studies
