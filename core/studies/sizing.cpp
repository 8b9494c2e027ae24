#include "studies/sizing.h"

#include "build/project_input.h"
#include "io/catalogue_file.h"
#include "model/message_text.h"
#include "model/project_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pm::studies {

namespace {

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The rejection of a candidate that ran, or "" when it meets the task.
std::string rejection(const SizingTask& task, const SizingCandidate& c, const VariantResult& r) {
  if (!r.ok) return "run failed: " + r.message;
  if (!std::isfinite(c.time)) return "does not complete the stroke";
  if (c.time > task.requiredTime)
    return "too slow: " + fixed(c.time, 3) + " s > " + fixed(task.requiredTime, 3) + " s";
  const catalogue::Entry* cyl = catalogue::processCatalogue().find(c.cylinderPart);
  if (cyl && cyl->params.count("E_cushion_max") && cyl->params.at("E_cushion_max") > 0.0 && std::isfinite(c.impactEnergy) &&
      c.impactEnergy > cyl->params.at("E_cushion_max"))
    return "impact energy " + fixed(c.impactEnergy, 3) + " J > the cushion's " +
           fixed(cyl->params.at("E_cushion_max"), 3) + " J";
  return {};
}

}  // namespace

StudySetup sizingStudy(const Project& base, const std::string& file, const SizingTask& task) {
  if (!(task.requiredTime > 0.0)) throw ProjectError("--time", "", "", "the required time must be > 0 s");
  Project pr = base;
  for (const std::string& s : task.sets) applyOverride(pr, s, file);
  for (const auto& [id, what] : {std::pair{task.cylinder, "--cylinder"}, std::pair{task.valve, "--valve"}})
    if (!pr.find(id)) throw ProjectError(what, id, "", "no component with this id in " + file);
  const nlohmann::json st = {
      {"name", "sizing"},
      {"parameters",
       {{{"path", task.cylinder + ".part"}, {"family", task.cylinderFamily}},
        {{"path", task.valve + ".part"}, {"family", task.valveFamily}}}},
      {"results",
       {task.cylinder + ".extend_time_from_signal", "air_per_cycle", task.cylinder + ".impact_energy"}},
      {"constraints", {task.cylinder + ".extend_time_from_signal <= " + valueText(task.requiredTime)}}};
  return prepareStudy(pr, file, parseStudy(st, "sizing task", "sizing"));
}

SizingResult size(const Project& base, const std::string& file, const SizingTask& task, int jobs,
                  const VariantDone& done) {
  SizingResult out;
  out.setup = sizingStudy(base, file, task);
  const StudyDefinition& st = out.setup.study;
  out.points = studyVariants(st);
  out.results = evaluateLocally(out.setup, out.points, jobs, done);
  const catalogue::Catalogue& cat = catalogue::processCatalogue();
  bool allPriced = true;
  for (size_t i = 0; i < out.points.size(); ++i) {
    SizingCandidate c;
    c.cylinderPart = valueLabel(st.parameters[0], out.points[i][0]);
    c.valvePart = valueLabel(st.parameters[1], out.points[i][1]);
    const VariantResult& r = out.results[i];
    const double nan = std::nan("");
    c.time = r.ok ? r.results[0] : nan;
    c.air = r.ok ? r.results[1] : nan;
    c.impactEnergy = r.ok ? r.results[2] : nan;
    const catalogue::Entry *ce = cat.find(c.cylinderPart), *ve = cat.find(c.valvePart);
    if (ce && ve && ce->price && ve->price) c.price = *ce->price + *ve->price;
    c.why = rejection(task, c, r);
    c.meets = c.why.empty();
    if (c.meets) {
      c.margin = (task.requiredTime - c.time) / task.requiredTime;
      allPriced = allPriced && c.price.has_value();
    }
    out.candidates.push_back(c);
  }
  out.rankedBy = allPriced ? "price" : "air per cycle";
  std::vector<size_t> order;
  for (size_t i = 0; i < out.candidates.size(); ++i)
    if (out.candidates[i].meets) order.push_back(i);
  // By price; without prices by air, where a few per cent is no reason to
  // take a bigger part: the proposal is the smallest cylinder, then valve
  // (the earliest row) within 2 % of the least air, the rest by air.
  if (allPriced) {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return *out.candidates[a].price < *out.candidates[b].price; });
  } else if (!order.empty()) {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return out.candidates[a].air < out.candidates[b].air; });
    const double least = out.candidates[order[0]].air;
    size_t first = order[0];
    for (size_t i : order)
      if (out.candidates[i].air <= 1.02 * least) first = std::min(first, i);
    order.erase(std::find(order.begin(), order.end(), first));
    order.insert(order.begin(), first);
  }
  for (size_t k = 0; k < order.size(); ++k) {
    SizingCandidate& c = out.candidates[order[k]];
    c.rank = static_cast<int>(k);
    c.why = k == 0 ? "proposal" : "meets; ranked " + std::to_string(k + 1) + " by " + out.rankedBy;
  }
  if (!order.empty()) out.proposal = static_cast<int>(order[0]);
  return out;
}

}  // namespace pm::studies
