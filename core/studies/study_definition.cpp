#include "studies/study_definition.h"

#include "io/catalogue_file.h"
#include "model/project_error.h"
#include "studies/sampling.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace pm::studies {

namespace {

using nlohmann::json;

struct Reader {
  const std::string& file;
  std::string object;
  [[noreturn]] void fail(const std::string& field, const std::string& msg) const {
    throw ProjectError(file, object, field, msg);
  }
  double number(const json& v, const std::string& field) const {
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(field, "expected a finite number");
    return v.get<double>();
  }
  std::string text(const json& v, const std::string& field) const {
    if (!v.is_string() || v.get<std::string>().empty()) fail(field, "expected a non-empty string");
    return v.get<std::string>();
  }
  void onlyKeys(const json& o, const std::set<std::string>& known, const std::string& prefix) const {
    for (auto it = o.begin(); it != o.end(); ++it)
      if (!known.count(it.key())) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        fail(prefix + it.key(), "unknown field (known: " + list + ")");
      }
  }
};

// A range's point to 15 significant digits: 0.026, not 0.026000000000000002
// (what from + i step gives), so the table and --set show what was meant.
double snap(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return std::strtod(buf, nullptr);
}

// "ID.part" over catalogue parts: a list ("parts") or a whole family
// ("family": a catalogue file's name, e.g. "cylinders_iso15552"), in order.
StudyParameter parseParts(const Reader& r, const json& p, const std::string& f, StudyParameter sp) {
  if (sp.path.size() < 5 || sp.path.compare(sp.path.size() - 5, 5, ".part") != 0)
    r.fail(f + ".path", "parts and family vary a catalogue part: the path is \"ID.part\"");
  if (p.contains("values") || p.contains("from") || p.contains("to") || p.contains("count") || p.contains("step"))
    r.fail(f, "give parts or family, not values or a range");
  if (p.contains("parts") == p.contains("family")) r.fail(f, "give one of parts or family");
  const catalogue::Catalogue& cat = catalogue::processCatalogue();
  if (p.contains("family")) {
    const std::string fam = r.text(p["family"], f + ".family");
    for (const catalogue::Entry* e : cat.family(fam)) sp.parts.push_back(e->part);
    if (sp.parts.empty()) r.fail(f + ".family", "no catalogue file '" + fam + ".json' with entries");
  } else {
    const json& l = p["parts"];
    if (!l.is_array() || l.empty()) r.fail(f + ".parts", "expected a non-empty list of part numbers");
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string f2 = f + ".parts[" + std::to_string(i) + "]";
      sp.parts.push_back(r.text(l[i], f2));
      if (!cat.find(sp.parts.back())) r.fail(f2, "no catalogue entry '" + sp.parts.back() + "'");
    }
  }
  for (size_t i = 0; i < sp.parts.size(); ++i) sp.values.push_back(static_cast<double>(i));
  sp.from = 0.0;
  sp.to = static_cast<double>(sp.parts.size() - 1);
  return sp;
}

StudyParameter parseParameter(const Reader& r, const json& p, const std::string& f) {
  if (!p.is_object()) r.fail(f, "expected {\"path\": \"ID.PARAM\", \"values\": [...]} or {\"path\", \"from\", \"to\", \"count\"}");
  r.onlyKeys(p, {"path", "values", "from", "to", "count", "step", "parts", "family"}, f + ".");
  StudyParameter sp;
  if (!p.contains("path")) r.fail(f + ".path", "missing: the parameter as --set names it, e.g. \"cyl1.bore\"");
  sp.path = r.text(p["path"], f + ".path");
  if (sp.path.find('.') == std::string::npos || sp.path.find('=') != std::string::npos)
    r.fail(f + ".path", "expected ID.PARAM as --set takes it, e.g. \"cyl1.bore\"");
  if (p.contains("parts") || p.contains("family")) return parseParts(r, p, f, std::move(sp));
  if (p.contains("values")) {
    if (p.contains("from") || p.contains("to") || p.contains("count") || p.contains("step"))
      r.fail(f + ".values", "give either a list of values or a range (from, to, count or step), not both");
    const json& v = p["values"];
    if (!v.is_array() || v.empty()) r.fail(f + ".values", "expected a non-empty list of numbers (SI)");
    for (size_t i = 0; i < v.size(); ++i) sp.values.push_back(r.number(v[i], f + ".values[" + std::to_string(i) + "]"));
    sp.from = *std::min_element(sp.values.begin(), sp.values.end());
    sp.to = *std::max_element(sp.values.begin(), sp.values.end());
    return sp;
  }
  if (!p.contains("from") || !p.contains("to")) r.fail(f, "needs \"values\" or a range \"from\" and \"to\"");
  sp.isRange = true;
  sp.from = r.number(p["from"], f + ".from");
  sp.to = r.number(p["to"], f + ".to");
  if (!(sp.to > sp.from)) r.fail(f + ".to", "must be greater than from");
  if (p.contains("count") && p.contains("step")) r.fail(f + ".step", "give count or step, not both");
  int count = 0;
  if (p.contains("count")) {
    if (!p["count"].is_number_integer() || p["count"].get<long long>() < 2 || p["count"].get<long long>() > 100000)
      r.fail(f + ".count", "expected an integer from 2 to 100000 (the points from 'from' to 'to', both included)");
    count = p["count"].get<int>();
  } else if (p.contains("step")) {
    const double step = r.number(p["step"], f + ".step");
    if (!(step > 0.0)) r.fail(f + ".step", "must be > 0");
    const double n = std::floor((sp.to - sp.from) / step * (1.0 + 1e-12)) + 1.0;
    if (n > 100000) r.fail(f + ".step", "gives more than 100000 points");
    count = static_cast<int>(n);
    for (int i = 0; i < count; ++i) sp.values.push_back(snap(sp.from + i * step));
    return sp;
  }
  // Without count or step a range has no grid points: only samplers and the optimiser use it.
  for (int i = 0; i < count; ++i)
    sp.values.push_back(i == count - 1 ? sp.to : snap(sp.from + (sp.to - sp.from) * i / (count - 1)));
  return sp;
}

Constraint parseConstraint(const Reader& r, const json& c, const std::string& f) {
  const std::string s = r.text(c, f);
  Constraint k;
  k.text = s;
  size_t op = s.find("<=");
  k.upper = true;
  if (op == std::string::npos) {
    op = s.find(">=");
    k.upper = false;
  }
  if (op == std::string::npos) r.fail(f, "expected \"RESULT <= NUMBER\" or \"RESULT >= NUMBER\", e.g. \"cycle_time <= 0.8\"");
  auto trim = [](std::string t) {
    t.erase(0, t.find_first_not_of(' '));
    t.erase(t.find_last_not_of(' ') + 1);
    return t;
  };
  k.result = trim(s.substr(0, op));
  const std::string b = trim(s.substr(op + 2));
  double v = 0.0;
  const auto [end, ec] = std::from_chars(b.data(), b.data() + b.size(), v);
  if (k.result.empty() || ec != std::errc() || end != b.data() + b.size() || !std::isfinite(v))
    r.fail(f, "expected \"RESULT <= NUMBER\" or \"RESULT >= NUMBER\" (SI), not '" + s + "'");
  k.bound = v;
  return k;
}

void parseOptimisation(const Reader& r, const json& o, StudyDefinition& st) {
  if (!o.is_object()) r.fail("optimise", "expected {\"minimise\": RESULT} or {\"maximise\": RESULT}");
  r.onlyKeys(o, {"minimise", "maximise", "algorithm", "max_evaluations", "xtol_rel"}, "optimise.");
  Optimisation& op = st.optimisation;
  if (o.contains("minimise") == o.contains("maximise")) r.fail("optimise", "give one of minimise or maximise");
  op.maximise = o.contains("maximise");
  op.objective = r.text(o[op.maximise ? "maximise" : "minimise"], op.maximise ? "optimise.maximise" : "optimise.minimise");
  const bool discrete = std::any_of(st.parameters.begin(), st.parameters.end(),
                                    [](const StudyParameter& p) { return !p.isRange; });
  if (discrete) op.algorithm = "pattern";
  if (o.contains("algorithm")) {
    op.algorithm = r.text(o["algorithm"], "optimise.algorithm");
    if (op.algorithm != "cobyla" && op.algorithm != "sbplx" && op.algorithm != "neldermead" && op.algorithm != "pattern")
      r.fail("optimise.algorithm", "expected cobyla, sbplx, neldermead or pattern");
    if (discrete && op.algorithm != "pattern")
      r.fail("optimise.algorithm", "lists and catalogue parts are discrete: only the pattern search varies them");
  }
  if (o.contains("max_evaluations")) {
    if (!o["max_evaluations"].is_number_integer() || o["max_evaluations"].get<long long>() < 1 ||
        o["max_evaluations"].get<long long>() > 1000000)
      r.fail("optimise.max_evaluations", "expected an integer from 1 to 1000000");
    op.maxEvaluations = o["max_evaluations"].get<int>();
  }
  if (o.contains("xtol_rel")) {
    op.xtolRelative = r.number(o["xtol_rel"], "optimise.xtol_rel");
    if (!(op.xtolRelative > 0.0 && op.xtolRelative < 1.0)) r.fail("optimise.xtol_rel", "expected a number in (0, 1)");
  }
  st.hasOptimisation = true;
}

}  // namespace

StudyDefinition parseStudy(const json& s, const std::string& file, const std::string& object) {
  const Reader r{file, object};
  if (!s.is_object()) r.fail("", "expected a study object with name, parameters, results");
  r.onlyKeys(s, {"name", "parameters", "sampling", "samples", "seed", "results", "constraints", "optimise"}, "");
  StudyDefinition st;
  st.name = s.contains("name") ? r.text(s["name"], "name") : std::string("study");
  if (!s.contains("parameters") || !s["parameters"].is_array() || s["parameters"].empty())
    r.fail("parameters", "expected a non-empty list of parameters to vary");
  std::set<std::string> seen;
  for (size_t i = 0; i < s["parameters"].size(); ++i) {
    const std::string f = "parameters[" + std::to_string(i) + "]";
    st.parameters.push_back(parseParameter(r, s["parameters"][i], f));
    if (!seen.insert(st.parameters.back().path).second) r.fail(f + ".path", "'" + st.parameters.back().path + "' is varied twice");
  }
  const std::string sampling = s.contains("sampling") ? r.text(s["sampling"], "sampling") : std::string("grid");
  if (sampling == "grid") st.sampling = Sampling::Grid;
  else if (sampling == "zip") st.sampling = Sampling::Zip;
  else if (sampling == "latin_hypercube") st.sampling = Sampling::LatinHypercube;
  else if (sampling == "sobol") st.sampling = Sampling::Sobol;
  else if (sampling == "random") st.sampling = Sampling::Random;
  else r.fail("sampling", "expected grid, zip, latin_hypercube, sobol or random");
  const bool sampled =
      st.sampling == Sampling::LatinHypercube || st.sampling == Sampling::Sobol || st.sampling == Sampling::Random;
  if (sampled) {
    if (!s.contains("samples") || !s["samples"].is_number_integer() || s["samples"].get<long long>() < 1 ||
        s["samples"].get<long long>() > 1000000)
      r.fail("samples", "expected the number of samples, an integer from 1 to 1000000");
    st.samples = s["samples"].get<int>();
    if (st.sampling == Sampling::Sobol && st.parameters.size() > static_cast<size_t>(kSobolMaxDimensions))
      r.fail("parameters", "Sobol sampling takes at most " + std::to_string(kSobolMaxDimensions) + " parameters");
  } else if (s.contains("samples")) {
    r.fail("samples", "only latin_hypercube, sobol and random sampling take a number of samples");
  }
  if (s.contains("seed")) {
    // A file's 3 reads as unsigned; the same value built in code (the studio) is a signed integer.
    const json& seed = s["seed"];
    if (!seed.is_number_integer() || (!seed.is_number_unsigned() && seed.get<long long>() < 0))
      r.fail("seed", "expected a non-negative integer");
    st.seed = s["seed"].get<std::uint64_t>();
  }
  for (size_t i = 0; i < st.parameters.size(); ++i) {
    const StudyParameter& p = st.parameters[i];
    const std::string f = "parameters[" + std::to_string(i) + "]";
    if (!sampled && p.values.empty() && !s.contains("optimise"))
      r.fail(f, "a range without count or step has no grid points (give count or step, or sample it)");
    if (st.sampling == Sampling::Zip && p.values.size() != st.parameters[0].values.size())
      r.fail(f, "zip sampling needs lists of the same length (" + std::to_string(st.parameters[0].values.size()) + ")");
  }
  if (s.contains("results")) {
    const json& rs = s["results"];
    if (!rs.is_array()) r.fail("results", "expected a list of key result names, e.g. [\"cycle_time\", \"max(cyl1.pA)\"]");
    for (size_t i = 0; i < rs.size(); ++i) st.results.push_back(r.text(rs[i], "results[" + std::to_string(i) + "]"));
  }
  if (s.contains("constraints")) {
    const json& cs = s["constraints"];
    if (!cs.is_array()) r.fail("constraints", "expected a list such as [\"cycle_time <= 0.8\"]");
    for (size_t i = 0; i < cs.size(); ++i)
      st.constraints.push_back(parseConstraint(r, cs[i], "constraints[" + std::to_string(i) + "]"));
  }
  if (s.contains("optimise")) parseOptimisation(r, s["optimise"], st);
  // Every constrained or optimised result is a column too.
  auto addColumn = [&](const std::string& name) {
    for (const StudyParameter& p : st.parameters)
      if (p.path == name) return;  // a parameter, already in the table
    if (std::find(st.results.begin(), st.results.end(), name) == st.results.end()) st.results.push_back(name);
  };
  for (const Constraint& c : st.constraints) addColumn(c.result);
  if (st.hasOptimisation) addColumn(st.optimisation.objective);
  return st;
}

std::vector<StudyDefinition> projectStudies(const Project& project, const std::string& file) {
  std::vector<StudyDefinition> out;
  if (!project.extra.is_object() || !project.extra.contains("studies")) return out;
  const json& s = project.extra.at("studies");
  if (!s.is_array()) throw ProjectError(file, "studies", "", "expected a list of study objects");
  std::set<std::string> names;
  for (size_t i = 0; i < s.size(); ++i) {
    const std::string obj = "studies[" + std::to_string(i) + "]";
    out.push_back(parseStudy(s[i], file, obj));
    if (!names.insert(out.back().name).second)
      throw ProjectError(file, obj, "name", "another study is named '" + out.back().name + "'");
  }
  return out;
}

std::vector<std::vector<double>> studyVariants(const StudyDefinition& st) {
  const size_t d = st.parameters.size();
  std::vector<std::vector<double>> out;
  if (st.sampling == Sampling::Zip) {
    for (size_t i = 0; i < st.parameters[0].values.size(); ++i) {
      std::vector<double> v;
      for (const auto& p : st.parameters) v.push_back(p.values[i]);
      out.push_back(v);
    }
    return out;
  }
  if (st.sampling == Sampling::Grid) {
    std::vector<size_t> idx(d, 0);
    for (;;) {
      std::vector<double> v;
      for (size_t k = 0; k < d; ++k) v.push_back(st.parameters[k].values[idx[k]]);
      out.push_back(v);
      size_t k = d;  // the last parameter varies fastest
      while (k > 0 && ++idx[k - 1] == st.parameters[k - 1].values.size()) idx[--k] = 0;
      if (k == 0) return out;
    }
  }
  const int n = st.samples, dims = static_cast<int>(d);
  const std::vector<std::vector<double>> unit = st.sampling == Sampling::Sobol  ? sobolPoints(n, dims)
                                                : st.sampling == Sampling::Random ? randomPoints(n, dims, st.seed)
                                                                                  : latinHypercube(n, dims, st.seed);
  for (const auto& u : unit) {
    std::vector<double> v;
    for (size_t k = 0; k < d; ++k) {
      const StudyParameter& p = st.parameters[k];
      if (p.isRange) {
        v.push_back(p.from + (p.to - p.from) * u[k]);
      } else {  // a list (catalogue sizes): its entries equally likely
        const size_t n = p.values.size();
        v.push_back(p.values[std::min(n - 1, static_cast<size_t>(u[k] * static_cast<double>(n)))]);
      }
    }
    out.push_back(v);
  }
  return out;
}

std::string valueLabel(const StudyParameter& p, double v) {
  if (p.parts.empty()) return valueText(v);
  const double i = std::round(v);
  if (!(i >= 0.0 && i < static_cast<double>(p.parts.size()))) return valueText(v);
  return p.parts[static_cast<size_t>(i)];
}

std::string valueText(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace pm::studies
