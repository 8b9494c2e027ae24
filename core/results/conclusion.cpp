#include "results/conclusion.h"

#include "build/subcircuit_expansion.h"
#include "model/component_type.h"

#include <algorithm>
#include <cstdio>

namespace pm {

namespace {

std::string f(const char* fmt, double a, double b = 0.0, double c = 0.0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

std::string nameOf(const CylinderResult& c) { return c.label.empty() ? c.id : c.label; }

double param(const Component* c, const char* n) {
  const ComponentType* t = c ? Registry::instance().find(c->type) : nullptr;
  return t && t->param(n) ? paramValue(*c, *t, n) : 0.0;
}

Verdict cycleVerdict(const Project& project, const KeyResults& kr) {
  Verdict v{"Cycle time", VerdictStatus::NotChecked, 0.0, ""};
  const double req = project.meta.requiredCycleTime;
  if (!kr.hasCycle || !kr.cycleClosed) {
    v.text = kr.hasCycle ? f("The run shows an open cycle (%.3f s of motion): the machine does not return to its "
                             "start position within the run, so no cycle time can be checked.",
                             kr.cycleTime())
                         : "The run has no complete stroke, so no cycle time can be checked.";
    return v;
  }
  const double t = kr.cycleTime();
  if (!(req > 0)) {
    v.text = f("The cycle takes %.3f s. No required cycle time is stated (File > Project Properties), so it is "
               "not checked.",
               t);
    return v;
  }
  v.margin = req - t;
  v.status = v.margin >= 0 ? VerdictStatus::Met : VerdictStatus::NotMet;
  v.text = v.margin >= 0
               ? f("Met: the cycle takes %.3f s against the required %.3f s, a margin of %.3f s", t, req, v.margin) +
                     f(" (%.0f %% of the requirement).", 100.0 * v.margin / req)
               : f("Not met: the cycle takes %.3f s against the required %.3f s, %.3f s too long", t, req, -v.margin) +
                     f(" (%.0f %% over).", -100.0 * v.margin / req);
  return v;
}

Verdict cushionVerdict(const CylinderResult& c) {
  Verdict v{"Cushioning " + nameOf(c), VerdictStatus::NotChecked, 0.0, ""};
  double e = 0.0;
  bool any = false;
  for (const StrokeResult& s : c.strokes)
    if (s.complete) e = std::max(e, s.eArrival), any = true;
  if (!any) {
    v.text = "No complete stroke: the impact energy is not checked.";
    return v;
  }
  if (!(c.eCushionMax > 0)) {
    v.text = f("The highest impact energy is %.3f J. No cushioning limit is entered for this cylinder (catalogue "
               "E_cushion_max), so it is not checked.",
               e);
    return v;
  }
  v.margin = c.eCushionMax - e;
  v.status = v.margin >= 0 ? VerdictStatus::Met : VerdictStatus::NotMet;
  v.text = v.margin >= 0 ? f("Met: the highest impact energy is %.3f J against the allowed %.3f J, a margin of %.3f J.",
                             e, c.eCushionMax, v.margin)
                         : f("Not met: the highest impact energy is %.3f J against the allowed %.3f J; add external "
                             "shock absorbers or slow the stroke (flow controls) by at least %.3f J.",
                             e, c.eCushionMax, -v.margin);
  return v;
}

// Where chamber `side` ("A" or "B") of `c` peaks above the supply pressure.
void overSupply(const Project& project, const ResultStore& rs, const CylinderResult& c, const char* side, double pMax,
                double pSupply, const PressureText& pt, std::vector<Verdict>& out) {
  if (!(pSupply > 0) || pMax <= pSupply * 1.005) return;
  const std::string ch = c.id + ".p" + side;
  if (rs.find(ch) < 0 || rs.find(c.id + ".x") < 0) return;
  const auto p = rs.column(ch), x = rs.column(c.id + ".x"), t = rs.times();
  const size_t i = size_t(std::max_element(p.begin(), p.end()) - p.begin());
  const Component* comp = project.find(c.id);
  const bool a = side[0] == 'A';
  const double cushion = param(comp, a ? "cushion_length_A" : "cushion_length_B");
  const bool inCushion = cushion > 0 && (a ? x[i] <= cushion : x[i] >= c.stroke - cushion);
  Verdict v{"Pressure above supply " + nameOf(c) + " " + side, VerdictStatus::Note, 0.0, ""};
  v.text = "Chamber " + std::string(side) + " of " + nameOf(c) +
           " reaches " + pt(pMax, "%.2f") + f(" at %.3f s, above the supply's ", t[i]) + pt(pSupply, "%.2f") + ": ";
  v.text += inCushion ? f("the piston is %.1f mm into the end cushion, which traps the air and brakes the moving "
                          "mass; the compressed air is what absorbs its kinetic energy.",
                          (a ? x[i] : c.stroke - x[i]) * 1e3)
                      : "the moving mass or the load drives the piston into this chamber faster than its air can "
                        "escape (through the throttled exhaust), compressing it; this pressure is what brakes the "
                        "motion.";
  out.push_back(v);
}

}  // namespace

std::vector<Verdict> conclusions(const Project& drawn, const ResultStore& results, const KeyResults& kr,
                                 PressureReference pressure) {
  std::optional<Project> flat;
  const Project& project = expandedView(drawn, flat);
  const PressureText pt{pressure, kr.ambientPressure};
  std::vector<Verdict> out;
  out.push_back(cycleVerdict(project, kr));
  for (const CylinderResult& c : kr.cylinders) out.push_back(cushionVerdict(c));
  double pSupply = 0.0;
  for (const Component& c : project.components)
    if (c.type == "supply") pSupply = std::max(pSupply, param(&c, "p"));
  for (const CylinderResult& c : kr.cylinders) {
    overSupply(project, results, c, "A", c.pAMax, pSupply, pt, out);
    if (c.hasB) overSupply(project, results, c, "B", c.pBMax, pSupply, pt, out);
  }
  return out;
}

}  // namespace pm
