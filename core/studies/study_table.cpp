#include "studies/study_table.h"

#include <cmath>

namespace pm::studies {

namespace {

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string cell(double v) { return std::isnan(v) ? std::string() : valueText(v); }

nlohmann::json jsonNumber(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace

std::string tableCsv(const StudySetup& setup, const std::vector<std::vector<double>>& points,
                     const std::vector<VariantResult>& results) {
  const StudyDefinition& st = setup.study;
  // Appended piece by piece ("," + std::string(...) trips GCC 12's -Wrestrict).
  std::string s = "variant";
  auto add = [&s](const std::string& field) {
    s += ',';
    s += field;
  };
  for (const StudyParameter& p : st.parameters) add(csvField(p.path));
  for (size_t k = 0; k < st.results.size(); ++k) add(csvField(st.results[k] + " [" + setup.resultUnits[k] + "]"));
  s += ",feasible,status,message\n";
  for (size_t i = 0; i < points.size(); ++i) {
    const VariantResult& r = results[i];
    s += std::to_string(i);
    for (size_t k = 0; k < points[i].size(); ++k)
      add(st.parameters[k].parts.empty() ? cell(points[i][k]) : csvField(valueLabel(st.parameters[k], points[i][k])));
    for (size_t k = 0; k < st.results.size(); ++k) add(r.ok ? cell(r.results[k]) : std::string());
    add(r.feasible ? "1" : "0");
    add(r.ok ? "ok" : "failed");
    add(csvField(r.message));
    s += '\n';
  }
  return s;
}

nlohmann::json tableJson(const StudySetup& setup, const std::vector<std::vector<double>>& points,
                         const std::vector<VariantResult>& results) {
  const StudyDefinition& st = setup.study;
  nlohmann::json j;
  j["study"] = st.name;
  j["project"] = setup.file;
  j["parameters"] = nlohmann::json::array();
  for (const StudyParameter& p : st.parameters) j["parameters"].push_back(p.path);
  j["results"] = nlohmann::json::array();
  for (size_t k = 0; k < st.results.size(); ++k)
    j["results"].push_back({{"name", st.results[k]}, {"unit", setup.resultUnits[k]}});
  j["constraints"] = nlohmann::json::array();
  for (const Constraint& c : st.constraints) j["constraints"].push_back(c.text);
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < points.size(); ++i) {
    const VariantResult& r = results[i];
    nlohmann::json row;
    row["variant"] = i;
    nlohmann::json ps = nlohmann::json::object(), rs = nlohmann::json::object();
    for (size_t k = 0; k < st.parameters.size(); ++k)
      ps[st.parameters[k].path] = st.parameters[k].parts.empty() ? jsonNumber(points[i][k])
                                                                  : nlohmann::json(valueLabel(st.parameters[k], points[i][k]));
    for (size_t k = 0; k < st.results.size(); ++k) rs[st.results[k]] = r.ok ? jsonNumber(r.results[k]) : nlohmann::json(nullptr);
    row["parameters"] = ps;
    row["results"] = rs;
    row["feasible"] = r.feasible;
    row["status"] = r.ok ? "ok" : "failed";
    row["message"] = r.message;
    rows.push_back(row);
  }
  j["variants"] = rows;
  return j;
}

}  // namespace pm::studies
