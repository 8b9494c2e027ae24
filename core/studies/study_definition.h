// A parameter study as the project file states it (the "studies" section,
// kept in Project::extra, or a study file of its own): the parameters to
// vary, how to sample them, the key results to collect, the constraints a
// design must meet and, for an optimisation, the objective. The format is
// described in docs/file-format.md ("studies").
//
// Parameter paths are what `pneumech --set` accepts (ID.PARAM, e.g.
// "cyl1.bore", "simulation.t_end"); a variant is applied with the same
// applyOverride, so a study's row equals the single run with --set.
#pragma once

#include "model/project.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pm::studies {

struct StudyParameter {
  std::string path;            // "ID.PARAM" as --set takes it
  std::vector<double> values;  // a list ("values"), or a range resolved to its points
  double from = 0.0, to = 0.0; // the range's bounds (a list: its smallest and largest value)
  bool isRange = false;        // given by from/to: sampled continuously by LHS, Sobol, the optimiser
  std::vector<std::string> parts;  // "ID.part" over catalogue parts: values are indices into this
};

// What a variant sets the parameter to, as --set takes it: a part number
// for a parameter over parts, else the value (valueText).
std::string valueLabel(const StudyParameter& p, double value);

enum class Sampling { Grid, Zip, LatinHypercube, Sobol, Random };

// "cycle_time <= 0.8": a result (or parameter) and its bound.
struct Constraint {
  std::string result;
  bool upper = true;  // <=; false: >=
  double bound = 0.0;
  std::string text;   // as written, for messages and the table
};

struct Optimisation {
  std::string objective;        // a result or parameter name
  bool maximise = false;
  std::string algorithm = "cobyla";  // cobyla, sbplx, neldermead (NLopt); pattern (lists, parts)
  int maxEvaluations = 200;
  double xtolRelative = 1e-4;   // of each parameter's range
};

struct StudyDefinition {
  std::string name;
  std::vector<StudyParameter> parameters;
  Sampling sampling = Sampling::Grid;
  int samples = 0;              // LHS, Sobol, random
  std::uint64_t seed = 1;       // LHS, random
  std::vector<std::string> results;  // columns, constraints' results included
  std::vector<Constraint> constraints;
  bool hasOptimisation = false;
  Optimisation optimisation;
};

// The studies of project.extra["studies"] (a list of study objects); throws
// ProjectError naming `file`, "studies[i]" and the field on bad input.
std::vector<StudyDefinition> projectStudies(const Project& project, const std::string& file = {});

// One study object (the "studies" list's entry, or a study file's root
// without its "format" and "project").
StudyDefinition parseStudy(const nlohmann::json& study, const std::string& file, const std::string& object);

// The variants' parameter values in table order (one vector per variant,
// one value per parameter): the grid's points (the first parameter varying
// slowest), the lists side by side (zip), or the samples.
std::vector<std::vector<double>> studyVariants(const StudyDefinition& study);

// The --set text of a value: the shortest decimal that reads back to the
// same double, so that a row and its single run with --set agree bit for bit.
std::string valueText(double v);

}  // namespace pm::studies
