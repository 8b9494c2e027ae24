#include "studies/result_columns.h"

#include "model/project_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace pm::studies {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// "max(cyl1.pA)" -> {"max", "cyl1.pA"}; anything else -> {"", name}.
std::pair<std::string, std::string> channelReduction(const std::string& name) {
  for (const char* f : {"max", "min", "final"}) {
    const std::string head = std::string(f) + "(";
    if (name.size() > head.size() + 1 && name.compare(0, head.size(), head) == 0 && name.back() == ')')
      return {f, name.substr(head.size(), name.size() - head.size() - 1)};
  }
  return {"", name};
}

const std::map<std::string, std::string> kGlobal = {
    {"cycle_time", "s"}, {"air_per_cycle", "Nl"}, {"air_mass", "kg"}, {"air_per_minute", "Nl/min"}};
const std::map<std::string, std::string> kCylinder = {
    {"extend_time", "s"},   {"retract_time", "s"},    {"extend_time_from_signal", "s"},
    {"retract_time_from_signal", "s"}, {"impact_speed", "m/s"}, {"impact_energy", "J"},
    {"v_max", "m/s"},       {"pA_max", "Pa"},         {"pB_max", "Pa"},
    {"force_max", "N"}};
const std::map<std::string, std::string> kJoint = {{"force_max", "N"}, {"torque_max", "N m"}};

std::string known(const std::map<std::string, std::string>& m) {
  std::string s;
  for (const auto& [k, u] : m) s += (s.empty() ? "" : ", ") + k;
  return s;
}

}  // namespace

std::string resultUnit(const std::string& name, const Project& project, const std::vector<ChannelInfo>& channels,
                       const std::string& file, const std::string& object, const std::string& field) {
  auto fail = [&](const std::string& msg) -> std::string { throw ProjectError(file, object, field, msg); };
  const auto [reduce, channel] = channelReduction(name);
  if (!reduce.empty()) {
    for (const ChannelInfo& c : channels)
      if (c.name == channel) return c.unit;
    return fail("no channel '" + channel + "' in this project's run (`pneumech info` lists them)");
  }
  if (const auto g = kGlobal.find(name); g != kGlobal.end()) return g->second;
  const auto dot = name.rfind('.');
  if (dot == std::string::npos)
    return fail("unknown result '" + name + "' (known: " + known(kGlobal) + ", ID.FIELD, max(CHANNEL), min(CHANNEL), final(CHANNEL))");
  const std::string id = name.substr(0, dot), what = name.substr(dot + 1);
  if (const Component* c = project.find(id)) {
    if (isCylinderType(c->type)) {
      if (const auto f = kCylinder.find(what); f != kCylinder.end()) return f->second;
      return fail("cylinder '" + id + "' has no key result '" + what + "' (known: " + known(kCylinder) + ")");
    }
    if (c->type == "supply") {
      if (what == "air") return "Nl";
      return fail("supply '" + id + "' has the key result 'air' only");
    }
    return fail("component '" + id + "' (" + c->type + ") has no key results: use max(" + name + "), min(...) or final(...) for a channel");
  }
  for (const JointDef& j : project.mechanism.joints)
    if (j.id == id && j.type != "coupler") {
      if (const auto f = kJoint.find(what); f != kJoint.end()) return f->second;
      return fail("joint '" + id + "' has no key result '" + what + "' (known: " + known(kJoint) + ")");
    }
  return fail("no cylinder, supply or joint '" + id + "' with key results");
}

double resultValue(const std::string& name, const KeyResults& kr, const ResultStore& results) {
  const auto [reduce, channel] = channelReduction(name);
  if (!reduce.empty()) {
    const std::vector<double> v = results.column(channel);
    if (v.empty()) return kNaN;
    if (reduce == "final") return v.back();
    return reduce == "max" ? *std::max_element(v.begin(), v.end()) : *std::min_element(v.begin(), v.end());
  }
  if (name == "cycle_time") return kr.hasCycle ? kr.cycleTime() : kNaN;
  if (name == "air_per_cycle") return kr.airNormalLitres;
  if (name == "air_mass") return kr.airMass;
  if (name == "air_per_minute") return kr.airNormalLitresPerMinute();
  const auto dot = name.rfind('.');
  const std::string id = name.substr(0, dot), what = name.substr(dot + 1);
  for (const CylinderResult& c : kr.cylinders) {
    if (c.id != id) continue;
    auto first = [&](bool extend, bool fromSignal) {
      const StrokeResult* s = c.firstStroke(extend);
      if (!s) return kNaN;
      return fromSignal ? s->fromSignal() : s->duration();
    };
    if (what == "extend_time") return first(true, false);
    if (what == "retract_time") return first(false, false);
    if (what == "extend_time_from_signal") return first(true, true);
    if (what == "retract_time_from_signal") return first(false, true);
    if (what == "impact_speed" || what == "impact_energy") {
      double m = kNaN;
      for (const StrokeResult& s : c.strokes)
        if (s.complete) m = std::isnan(m) ? 0.0 : m, m = std::max(m, what == "impact_speed" ? s.vArrival : s.eArrival);
      return m;
    }
    if (what == "v_max") return c.vMax;
    if (what == "pA_max") return c.pAMax;
    if (what == "pB_max") return c.hasB ? c.pBMax : kNaN;
    if (what == "force_max") return c.forceMax;
  }
  for (const SupplyResult& s : kr.supplies)
    if (s.id == id && what == "air") return s.normalLitres;
  for (const JointLoadResult& j : kr.joints)
    if (j.id == id) return what == "force_max" ? j.forceMax : j.torqueMax;
  return kNaN;
}

}  // namespace pm::studies
