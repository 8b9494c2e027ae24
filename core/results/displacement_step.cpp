#include "results/displacement_step.h"

#include "model/component_type.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace pm {

DisplacementStepDiagram displacementStepDiagram(const Project& project, const ResultStore& result,
                                                const std::string& sequence, std::vector<std::string> actuators) {
  const Component* seq = project.find(sequence);
  if (!seq) throw std::runtime_error("displacement-step diagram: no component '" + sequence + "'");
  if (seq->type != "step_sequence")
    throw std::runtime_error("displacement-step diagram: '" + sequence + "' is a " + seq->type +
                             ", not a step_sequence");
  if (actuators.empty())
    for (const Component& c : project.components) {
      const ComponentType* t = Registry::instance().find(c.type);
      if (t && t->param("stroke") && result.find(c.id + ".x") >= 0) actuators.push_back(c.id);
    }

  DisplacementStepDiagram d;
  d.sequence = sequence;
  d.actuators = actuators;
  std::vector<std::string> names;
  bool cyclic = false;
  if (seq->data.is_object() && seq->data.contains("steps") && seq->data["steps"].is_array()) {
    for (const auto& s : seq->data["steps"])
      names.push_back(s.is_object() && s.contains("name") && s["name"].is_string() ? s["name"].get<std::string>() : "");
    cyclic = seq->data.value("cyclic", false);
  }
  if (names.empty()) throw std::runtime_error("displacement-step diagram: '" + sequence + "' has no steps");
  const int n = static_cast<int>(names.size());

  if (result.find(sequence + ".step") < 0)
    throw std::runtime_error("displacement-step diagram: the result has no channel '" + sequence + ".step'");
  const std::vector<double> t = result.times();
  const std::vector<double> step = result.column(sequence + ".step");
  std::vector<std::vector<double>> x;
  for (const std::string& a : actuators) {
    if (result.find(a + ".x") < 0)
      throw std::runtime_error("displacement-step diagram: the result has no channel '" + a + ".x'");
    x.push_back(result.column(a + ".x"));
    const Component* c = project.find(a);
    const ComponentType* type = c ? Registry::instance().find(c->type) : nullptr;
    d.strokes.push_back(type && type->param("stroke") ? paramValue(*c, *type, "stroke") : 0.0);
  }
  if (t.empty()) return d;

  auto addRow = [&](int k, size_t i) {
    DisplacementStepDiagram::Row r;
    r.step = k;
    r.name = k >= 0 && k < n ? names[static_cast<size_t>(k)] : "";
    r.t = t[i];
    for (const auto& col : x) r.x.push_back(col[i]);
    d.rows.push_back(std::move(r));
  };
  int prev = static_cast<int>(std::lround(step[0]));
  addRow(prev, 0);
  for (size_t i = 1; i < t.size(); ++i) {
    const int k = static_cast<int>(std::lround(step[i]));
    if (k == prev) continue;
    if (k > prev) {
      for (int j = prev + 1; j <= k; ++j) addRow(j, i);  // transitions within one event
    } else if (k == 0 && !(cyclic && prev == n - 1)) {
      addRow(0, i);  // reset
    } else {
      for (int j = prev + 1; j < n; ++j) addRow(j, i);  // cyclic wrap through the last step
      for (int j = 0; j <= k; ++j) addRow(j, i);
    }
    prev = k;
  }
  d.tEnd = t.back();
  for (const auto& col : x) d.xEnd.push_back(col.back());
  return d;
}

std::string formatDiagram(const DisplacementStepDiagram& d) {
  std::string out = "Displacement-step diagram of " + d.sequence + " (positions in mm, fraction of stroke)\n";
  char buf[128];
  std::snprintf(buf, sizeof buf, "%5s  %-12s %10s", "step", "name", "t [s]");
  out += buf;
  for (const std::string& a : d.actuators) {
    std::snprintf(buf, sizeof buf, "  %18s", a.c_str());
    out += buf;
  }
  out += "\n";
  auto positions = [&](const std::vector<double>& x) {
    std::string s;
    char cell[64];
    for (size_t j = 0; j < x.size(); ++j) {
      if (d.strokes[j] > 0.0)
        std::snprintf(cell, sizeof cell, "  %10.2f (%5.2f)", 1e3 * x[j], x[j] / d.strokes[j]);
      else
        std::snprintf(cell, sizeof cell, "  %10.2f        ", 1e3 * x[j]);
      s += cell;
    }
    return s;
  };
  for (const auto& r : d.rows) {
    std::snprintf(buf, sizeof buf, "%5d  %-12s %10.4f", r.step, r.name.c_str(), r.t);
    out += std::string(buf);
    out += positions(r.x) + "\n";
  }
  std::snprintf(buf, sizeof buf, "%5s  %-12s %10.4f", "", "(end)", d.tEnd);
  out += std::string(buf);
  out += positions(d.xEnd) + "\n";
  return out;
}

}  // namespace pm
