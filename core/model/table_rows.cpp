#include "model/table_rows.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace pm {

std::vector<std::string> checkTableRows(const nlohmann::json& rows, const std::string& field,
                                        const std::vector<TableColumn>& columns) {
  std::string rowText = "[";
  for (size_t c = 0; c < columns.size(); ++c) rowText += (c ? ", " : "") + columns[c].name;
  rowText += "]";
  if (!rows.is_array() || rows.empty()) return {field + ": expected a non-empty array of " + rowText + " rows"};
  std::vector<std::string> err;
  double tPrev = -1e300;
  int i = 0;
  for (const nlohmann::json& row : rows) {
    const std::string f = field + "[" + std::to_string(i++) + "]";
    bool numbers = row.is_array() && row.size() == columns.size();
    for (size_t c = 0; numbers && c < columns.size(); ++c) numbers = row[c].is_number();
    if (!numbers) {
      err.push_back(f + ": expected " + rowText);
      continue;
    }
    bool finite = true;
    for (size_t c = 0; c < columns.size(); ++c) finite = finite && std::isfinite(row[c].get<double>());
    if (!finite) {
      err.push_back(f + ": expected finite numbers");
      continue;
    }
    const double t = row[0].get<double>();
    if (!(t > tPrev)) err.push_back(f + ": times must increase strictly");
    tPrev = t;
    for (size_t c = 0; c < columns.size(); ++c)
      if (columns[c].valid && !columns[c].valid(row[c].get<double>())) err.push_back(f + ": " + columns[c].requirement);
  }
  return err;
}

std::vector<std::vector<double>> tableColumns(const nlohmann::json& rows, size_t columns) {
  std::vector<std::vector<double>> out(columns);
  for (const nlohmann::json& row : rows)
    for (size_t c = 0; c < columns; ++c) out[c].push_back(row[c].get<double>());
  return out;
}

}  // namespace pm
