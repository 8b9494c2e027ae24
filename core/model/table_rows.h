// A table written in a component's data as rows of numbers whose first is a
// time: [[t, v1, ...], ...] (a time table's and a prescribed volume's
// "points", a supply's "table"). Checked and read here once; the segment
// in use at run time is model/table_segments.h's.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <vector>

namespace pm {

// One column: its name with unit for messages ("t s", "V m3") and, beyond
// being a finite number, what its values must satisfy (none when empty).
struct TableColumn {
  std::string name;
  std::function<bool(double)> valid;
  std::string requirement;  // said when !valid(value): "the volume must be > 0 m3"
};

// What is wrong with `rows`, the data field `field` ("points"): it must be a
// non-empty array of rows of finite numbers, one per column, the times (the
// first column) strictly increasing. Each message starts with the field or
// the row: "points[2]: times must increase strictly".
std::vector<std::string> checkTableRows(const nlohmann::json& rows, const std::string& field,
                                        const std::vector<TableColumn>& columns);

// The columns of rows that checkTableRows accepted: result[c][i] is row i's
// value in column c.
std::vector<std::vector<double>> tableColumns(const nlohmann::json& rows, size_t columns);

}  // namespace pm
