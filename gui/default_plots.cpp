#include "default_plots.h"

#include "result_buffer.h"

#include "engine/engine.h"  // reportSettings: the project's report plots
#include "model/fixed_parts.h"
#include "model/orientation.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace pm::gui {

namespace {

std::string partOf(const std::string& ref) { return ref.substr(0, ref.find('.')); }

// The world axis (0 x, 1 y, 2 z) marker `ref`'s z lies along as built; -1
// when it lies along none.
int worldAxisOf(const Mechanism& m, const std::string& ref) {
  const PartDef* part = m.part(partOf(ref));
  if (!part) return -1;
  const std::string id = ref.substr(ref.find('.') + 1);
  const auto mk = std::find_if(part->markers.begin(), part->markers.end(), [&](const MarkerDef& d) { return d.id == id; });
  if (mk == part->markers.end()) return -1;
  const Eigen::Vector3d z = (rotationFromRpy(part->orientation) * rotationFromRpy(mk->orientation)).col(2);
  for (int a = 0; a < 3; ++a)
    if (std::abs(z[a]) > 1.0 - 1e-9) return a;
  return -1;
}

// The axes of a movable part held by exactly one joint to a fixed part.
std::string jointAxes(const Mechanism& m, const std::string& part, const std::set<std::string>& fixed) {
  const JointDef* only = nullptr;
  int joints = 0;
  for (const JointDef& j : m.joints)
    if (partOf(j.i) == part || partOf(j.j) == part) only = &j, ++joints;
  for (const LatchDef& l : m.latches) joints += partOf(l.i) == part || partOf(l.j) == part;
  if (joints != 1 || !only) return "xyz";  // one latch and no joint: free until it engages
  const std::string& other = partOf(only->i) == part ? only->j : only->i;
  const int a = fixed.count(partOf(other)) ? worldAxisOf(m, other) : -1;
  if (a < 0) return "xyz";
  const std::string all = "xyz";
  if (only->type == "translational") return all.substr(size_t(a), 1);
  if (only->type == "revolute" || only->type == "planar") return std::string(all).erase(size_t(a), 1);
  return all;
}

struct Axis {
  std::string name;
  double range = 0.0;  // max - min over the rows held
};

double rangeOf(const ResultBuffer& data, int k) {
  const auto& cols = data.columns();
  if (k < 0 || size_t(k) >= cols.size() || cols[size_t(k)].empty()) return 0.0;
  const auto [lo, hi] = std::minmax_element(cols[size_t(k)].begin(), cols[size_t(k)].end());
  return std::isfinite(*hi - *lo) ? *hi - *lo : 0.0;
}

bool isBeamNode(const std::string& object, const DefaultPlotModel& model) {
  for (const std::string& b : model.beams) {
    const std::string head = b + "_n";
    if (object.size() > head.size() && object.compare(0, head.size(), head) == 0 &&
        std::all_of(object.begin() + long(head.size()), object.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return true;
  }
  return false;
}

// The rigid parts with pose channels ("<part>.x" and "<part>.vx"), in channel order.
std::vector<std::string> bodies(const ResultBuffer& data, const DefaultPlotModel& model) {
  std::vector<std::string> out;
  for (const auto& c : data.channels()) {
    const std::string object = c.name.substr(0, c.name.rfind('.'));
    if (c.quantity == "x" && c.unit == "m" && data.find(object + ".vx") >= 0 && !isBeamNode(object, model))
      out.push_back(object);
  }
  return out;
}

// Part `object`'s channels "<object>.<prefix><axis>" along the axes it can move along.
std::vector<Axis> axesOf(const ResultBuffer& data, const DefaultPlotModel& model, const std::string& object,
                         const std::string& prefix) {
  const auto it = model.axes.find(object);
  std::vector<Axis> out;
  for (char q : it == model.axes.end() ? std::string("xyz") : it->second) {
    const std::string n = object + "." + prefix + q;
    const int k = data.find(n);
    if (k >= 0) out.push_back({n, rangeOf(data, k)});
  }
  return out;
}

// Those that move: once the rows show motion, above kStillFraction of the
// pane's largest range; before, all the model allows.
std::vector<Axis> moving(std::vector<Axis> axes) {
  double top = 0.0;
  for (const Axis& a : axes) top = std::max(top, a.range);
  if (top > 0) std::erase_if(axes, [top](const Axis& a) { return !(a.range > kStillFraction * top); });
  return axes;
}

// Each part's moving axes, the one that moves most first; up to four.
std::vector<std::string> paneOfAxes(const ResultBuffer& data, const DefaultPlotModel& model,
                                    const std::vector<std::string>& parts, const std::string& prefix) {
  std::vector<Axis> all;
  for (const std::string& p : parts) {
    std::vector<Axis> own = axesOf(data, model, p, prefix);
    std::stable_sort(own.begin(), own.end(), [](const Axis& a, const Axis& b) { return a.range > b.range; });
    all.insert(all.end(), own.begin(), own.end());
  }
  std::vector<std::string> names;
  for (const Axis& a : moving(all))
    if (names.size() < 4) names.push_back(a.name);
  return names;
}

// Without a circuit: the project's report plots when it names them (its
// author's choice, every channel present), else the moving parts'
// positions, their velocities and the contacts' normal forces, each pane
// with up to four channels and no pane without one.
std::vector<std::vector<std::string>> mechanismPlotGroups(const ResultBuffer& data, const DefaultPlotModel& model) {
  std::vector<std::vector<std::string>> groups;
  for (const auto& plot : model.reportPlots) {
    std::vector<std::string> present;
    for (const auto& n : plot)
      if (data.find(n) >= 0) present.push_back(n);
    if (!present.empty()) groups.push_back(std::move(present));
  }
  if (!groups.empty()) return groups;
  const std::vector<std::string> parts = bodies(data, model);
  std::vector<std::string> forces;
  for (const auto& c : data.channels())
    if (c.quantity == "normal_force" && forces.size() < 4) forces.push_back(c.name);
  for (auto g : {paneOfAxes(data, model, parts, ""), paneOfAxes(data, model, parts, "v"), forces})
    if (!g.empty()) groups.push_back(std::move(g));
  return groups;
}

}  // namespace

std::map<std::string, std::string> movableAxes(const Mechanism& m) {
  const std::set<std::string> fixed = partsFixedToGround(m);
  std::map<std::string, std::string> out;
  for (const PartDef& p : m.parts) out[p.id] = fixed.count(p.id) ? std::string() : jointAxes(m, p.id, fixed);
  return out;
}

DefaultPlotModel defaultPlotModel(const Project& project) {
  DefaultPlotModel model;
  try {
    for (const ReportPlot& p : reportSettings(project).plots) model.reportPlots.push_back(p.channels);
  } catch (const std::exception&) {
    // A bad "report" section is the Check's and the report's to name; the plots fall back.
  }
  model.axes = movableAxes(project.mechanism);
  for (const FlexibleBodyDef& b : project.mechanism.flexible_bodies) model.beams.push_back(b.id);
  return model;
}

// The circuit's pressures (up to four; components' own channels "cyl1.pA",
// the nets' copies only when there are fewer than two; a flexible body's
// stresses are Pa too, but not pressures) and, in a second
// pane, what moves: the actuators' strokes and each part along its axis of
// largest motion (a lift's height, not its reach). A mechanism without
// pressures shows what an ADAMS user plots first (mechanismPlotGroups).
std::vector<std::vector<std::string>> defaultPlotGroups(const ResultBuffer& data, const DefaultPlotModel& model) {
  const auto& ch = data.channels();
  auto own = [](const std::string& n) { return n.rfind("n:", 0) != 0 && std::count(n.begin(), n.end(), '.') == 1; };
  std::vector<std::string> pressures;
  for (int pass = 0; pass < 2 && pressures.size() < 2; ++pass)
    for (const auto& c : ch)
      if (c.unit == "Pa" && !c.quantity.contains("stress") && (pass == 1 || own(c.name)) && pressures.size() < 4 &&
          std::find(pressures.begin(), pressures.end(), c.name) == pressures.end())
        pressures.push_back(c.name);
  if (pressures.empty()) return mechanismPlotGroups(data, model);
  std::vector<Axis> strokes;
  for (const auto& c : ch) {
    if (c.unit != "m" || !own(c.name) || c.quantity != "x") continue;
    const std::string object = c.name.substr(0, c.name.find('.'));
    if (isBeamNode(object, model)) continue;
    if (data.find(object + ".vx") < 0) {  // an actuator's stroke
      strokes.push_back({c.name, rangeOf(data, data.find(c.name))});
      continue;
    }
    const std::vector<Axis> axes = axesOf(data, model, object, "");
    const auto most = std::max_element(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) { return a.range < b.range; });
    if (most != axes.end()) strokes.push_back(*most);
  }
  std::vector<std::vector<std::string>> groups{pressures};
  std::vector<std::string> positions;
  for (const Axis& a : moving(strokes))
    if (positions.size() < 4) positions.push_back(a.name);
  if (!positions.empty()) groups.push_back(positions);
  return groups;
}

}  // namespace pm::gui
