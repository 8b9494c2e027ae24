// A study's table: one row per variant with its parameters, key results,
// whether it met the constraints, and ok or failed with the message. Numbers
// are written as the shortest decimal that reads back to the same double,
// so a table compares bit for bit (a local run against an MPI run) and a
// row's parameters are exactly what `--set` would be given.
#pragma once

#include "studies/study_runner.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pm::studies {

// CSV: variant, the parameters, "RESULT [unit]" columns, feasible, status,
// message. A result a run does not define is empty.
std::string tableCsv(const StudySetup& setup, const std::vector<std::vector<double>>& points,
                     const std::vector<VariantResult>& results);

// The same as JSON: {"study", "project", "parameters", "results", "constraints",
// "variants": [{"variant", "parameters": {..}, "results": {..} (null: not
// defined), "feasible", "status", "message"}]}.
nlohmann::json tableJson(const StudySetup& setup, const std::vector<std::vector<double>>& points,
                         const std::vector<VariantResult>& results);

}  // namespace pm::studies
