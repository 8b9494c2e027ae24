#include "results/key_results.h"

#include "build/subcircuit_expansion.h"
#include "model/component_type.h"
#include "pneumatics/gas.h"
#include "results/stroke_signal.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace pm {

namespace {

enum class Zone { Retracted, Mid, Extended };

std::string fmt(const char* f, ...) {
  char buf[512];
  va_list a;
  va_start(a, f);
  std::vsnprintf(buf, sizeof buf, f, a);
  va_end(a);
  return buf;
}

std::vector<double> channel(const ResultStore& rs, const std::string& name) {
  if (rs.find(name) < 0) throw std::runtime_error("key results: the results have no channel " + name);
  return rs.column(name);
}

// Time where v crosses `level` between samples i-1 and i.
double crossAt(const std::vector<double>& t, const std::vector<double>& v, size_t i, double level) {
  const double d = v[i] - v[i - 1];
  if (d == 0.0) return t[i];
  return t[i - 1] + (level - v[i - 1]) / d * (t[i] - t[i - 1]);
}

// Linear interpolation of v at time `at` (clamped to the sampled range).
double interp(const std::vector<double>& t, const std::vector<double>& v, double at) {
  auto it = std::lower_bound(t.begin(), t.end(), at);
  if (it == t.begin()) return v.front();
  if (it == t.end()) return v.back();
  const size_t i = static_cast<size_t>(it - t.begin());
  if (t[i] == t[i - 1]) return v[i];
  return v[i - 1] + (at - t[i - 1]) / (t[i] - t[i - 1]) * (v[i] - v[i - 1]);
}

struct StrokeSpan {
  StrokeResult r;
  size_t iStart = 0;  // first sample after the start crossing
  size_t iEnd = 0;    // first sample after the end crossing (n if incomplete)
};

// The signal instant of each stroke (key_results.h, results/stroke_signal.h).
void findSignals(const Project& project, const Component& c, const ResultStore& rs, const std::vector<double>& t,
                 std::vector<StrokeSpan>& spans) {
  struct Valve {
    std::string id;
    std::vector<double> s;
    double tSwitch;
  };
  std::vector<Valve> valves;
  for (const std::string& id : drivingValves(project, c.id)) {
    const Component* vc = project.find(id);
    const ComponentType* vt = Registry::instance().find(vc->type);
    valves.push_back({id, channel(rs, id + ".s"), paramValue(*vc, *vt, "t_switch")});
  }
  if (valves.empty() || t.empty()) return;
  for (size_t k = 0; k < spans.size(); ++k) {
    StrokeResult& r = spans[k].r;
    const double after = k > 0 ? spans[k - 1].r.tStart : -INFINITY;
    for (const Valve& v : valves) {
      const double tc = std::min(commandInstant(t, v.s, v.tSwitch, spans[k].iStart), r.tStart);
      if (std::isnan(tc) || !(tc > after) || (r.hasSignal() && tc <= r.tSignal)) continue;
      r.tSignal = tc;
      r.valve = v.id;
    }
    if (k == 0 && !r.hasSignal()) {  // in position since the start of the run
      r.tSignal = t.front();
      r.valve = valves.front().id;
    }
  }
}

// Splits an incomplete stroke that turned round (went out, then came back by
// more than an end zone's width, lo) at its extreme: an incomplete stroke out
// to there, then an incomplete stroke back, each in the direction the piston
// actually moved. Wobbles inside a stroke and a rebound off an end stop that
// barely leaves its zone (less than lo beyond it) do not split it.
void splitAtTurn(const std::vector<double>& t, const std::vector<double>& x, double lo, double hi,
                 std::vector<StrokeSpan>& spans) {
  for (size_t k = 0; k < spans.size(); ++k) {
    const StrokeResult& r = spans[k].r;
    if (r.complete) continue;
    const double dir = r.extend ? 1.0 : -1.0;
    const size_t last = std::min(spans[k].iEnd, x.size() - 1);
    size_t iExt = spans[k].iStart;
    for (size_t i = spans[k].iStart; i <= last; ++i)
      if (dir * (x[i] - x[iExt]) > 0.0) iExt = i;
    const double edge = r.extend ? lo : hi;
    if (dir * (x[iExt] - edge) <= lo || dir * (x[iExt] - x[last]) <= lo) continue;
    // A turn zone of width lo at the extreme, as at the end stops: the stroke
    // out ends entering it, the stroke back starts leaving it (after a dwell).
    const double level = x[iExt] - dir * lo;
    size_t iIn = spans[k].iStart, iOut = iExt + 1;
    while (dir * (x[iIn] - level) < 0.0) ++iIn;
    while (dir * (x[iOut] - level) >= 0.0) ++iOut;
    StrokeSpan back = spans[k];
    back.r.extend = !r.extend;
    back.r.tStart = crossAt(t, x, iOut, level);
    back.iStart = iOut;
    spans[k].r.tEnd = iIn > spans[k].iStart ? crossAt(t, x, iIn, level) : t[iIn];
    spans[k].iEnd = iIn;
    spans.insert(spans.begin() + static_cast<std::ptrdiff_t>(k) + 1, back);
    ++k;
  }
}

// The strokes of position trace x (see key_results.h).
std::vector<StrokeSpan> findSpans(const std::vector<double>& t, const std::vector<double>& x, double lo, double hi) {
  auto zone = [&](double xi) { return xi <= lo ? Zone::Retracted : xi >= hi ? Zone::Extended : Zone::Mid; };
  std::vector<StrokeSpan> spans;
  const size_t n = x.size();
  bool open = false;
  Zone from = Zone::Mid;
  for (size_t i = 1; i < n; ++i) {
    const Zone zp = zone(x[i - 1]), z = zone(x[i]);
    if (zp != Zone::Mid && z != zp) {  // leaves an end zone
      StrokeSpan s;
      s.r.extend = zp == Zone::Retracted;
      s.r.tStart = crossAt(t, x, i, s.r.extend ? lo : hi);
      s.iStart = i;
      spans.push_back(s);
      open = true;
      from = zp;
    }
    if (z != Zone::Mid && z != zp && open) {  // enters an end zone
      StrokeSpan& s = spans.back();
      s.r.tEnd = crossAt(t, x, i, z == Zone::Extended ? hi : lo);
      s.r.complete = z != from;
      s.iEnd = i;
      open = false;
    }
  }
  if (open) {
    spans.back().r.complete = false;
    spans.back().r.tEnd = t.back();
    spans.back().iEnd = n;
  }
  splitAtTurn(t, x, lo, hi, spans);
  return spans;
}

CylinderResult analyseCylinder(const Project& project, const Component& c, const ComponentType& type,
                               const ResultStore& rs, const std::vector<double>& t, double endZone, Zone* initial,
                               Zone* final) {
  CylinderResult cr;
  cr.id = c.id;
  cr.label = c.label;
  cr.type = c.type;
  cr.stroke = paramValue(c, type, "stroke");
  cr.bore = paramValue(c, type, "bore");
  cr.rod = type.param("rod") ? paramValue(c, type, "rod") : 0.0;
  cr.mass = paramValue(c, type, "mass");
  cr.eCushionMax = type.param("E_cushion_max") ? paramValue(c, type, "E_cushion_max") : 0.0;
  // Attached to a mechanism, the moving mass is the mechanism's: the arrival
  // energy is then the mechanism's kinetic energy at contact (all of it, so
  // on a multi-axis machine it includes the other axes' motion).
  const bool attached = c.data.is_object() && c.data.contains("attach") && rs.find("mechanism.E_kinetic") >= 0;
  if (attached) cr.mass = std::numeric_limits<double>::quiet_NaN();
  const auto ek = attached ? channel(rs, "mechanism.E_kinetic") : std::vector<double>{};
  const auto x = channel(rs, c.id + ".x");
  const auto v = channel(rs, c.id + ".v");
  const auto pA = channel(rs, c.id + ".pA");
  cr.hasB = rs.find(c.id + ".pB") >= 0;
  for (double p : pA) cr.pAMax = std::max(cr.pAMax, p);
  if (cr.hasB)
    for (double p : rs.column(c.id + ".pB")) cr.pBMax = std::max(cr.pBMax, p);
  for (double s : v) cr.vMax = std::max(cr.vMax, std::abs(s));
  if (rs.find(c.id + ".F_pressure") >= 0)
    for (double f : rs.column(c.id + ".F_pressure")) cr.forceMax = std::max(cr.forceMax, std::abs(f));

  const size_t n = t.size();
  const double L = cr.stroke, lo = endZone * L, hi = (1.0 - endZone) * L;
  auto zone = [&](double xi) { return xi <= lo ? Zone::Retracted : xi >= hi ? Zone::Extended : Zone::Mid; };
  *initial = *final = n ? zone(x[0]) : Zone::Mid;
  if (n < 2 || L <= 0) return cr;

  std::vector<StrokeSpan> spans = findSpans(t, x, lo, hi);

  for (size_t k = 0; k < spans.size(); ++k) {
    StrokeSpan& s = spans[k];
    StrokeResult& r = s.r;
    const size_t limit = k + 1 < spans.size() ? spans[k + 1].iStart : n;
    for (size_t i = s.iStart - 1; i < std::min(s.iEnd + 1, n); ++i) {
      if (t[i] < r.tStart || t[i] > r.tEnd) continue;
      r.vMax = std::max(r.vMax, std::abs(v[i]));
    }
    r.vMax = std::max({r.vMax, std::abs(interp(t, v, r.tStart)), std::abs(interp(t, v, r.tEnd))});
    if (!r.complete) continue;
    const double sign = r.extend ? 1.0 : -1.0;
    const double stop = r.extend ? L : 0.0;
    size_t j = s.iStart;
    while (j < limit && sign * (x[j] - stop) < 0.0) ++j;
    if (j < limit && j >= 1) {
      r.tContact = crossAt(t, x, j, stop);
      double va = sign * v[j - 1];
      if (j >= 2 && t[j - 1] > t[j - 2])
        va += sign * (v[j - 1] - v[j - 2]) / (t[j - 1] - t[j - 2]) * (r.tContact - t[j - 1]);
      r.vArrival = std::max(0.0, va);
    } else {
      r.vArrival = std::abs(interp(t, v, r.tEnd));
    }
    r.eArrival = attached ? interp(t, ek, r.tContact > 0 ? r.tContact : r.tEnd) : 0.5 * cr.mass * r.vArrival * r.vArrival;
    r.exceedsCushioning = cr.eCushionMax > 0 && r.eArrival > cr.eCushionMax;
  }
  findSignals(project, c, rs, t, spans);
  for (const auto& s : spans) cr.strokes.push_back(s.r);
  // Where the cylinder rests after its last complete stroke.
  for (const auto& s : cr.strokes)
    if (s.complete) *final = s.extend ? Zone::Extended : Zone::Retracted;
  if (!cr.strokes.empty() && !cr.strokes.back().complete) *final = Zone::Mid;
  return cr;
}

// Where the counted cycle starts (key_results.h): the first command of an
// on/off valve, or an earlier stroke's signal or start; the run's start when
// the project has no on/off valve.
double airCycleStart(const Project& project, const ResultStore& rs, const std::vector<double>& t,
                     const std::vector<CylinderResult>& cylinders) {
  if (t.empty()) return 0.0;
  const std::vector<std::string> valves = onOffValves(project);
  if (valves.empty()) return t.front();
  double start = t.back();
  for (const std::string& id : valves) {
    const auto s = channel(rs, id + ".s");
    if (s.front() != 0.0) return t.front();  // actuated from the start
    // The last sample before the spool's first travel: the command lies
    // within the next output interval, and a spool faster than that leaves
    // no better estimate; the supplies deliver next to nothing in between.
    size_t i = 1;
    while (i < s.size() && s[i] == s[i - 1]) ++i;
    if (i < s.size()) start = std::min(start, t[i - 1]);
  }
  for (const CylinderResult& c : cylinders)
    if (!c.strokes.empty()) {
      const StrokeResult& r = c.strokes.front();
      start = std::min(start, r.hasSignal() ? std::min(r.tSignal, r.tStart) : r.tStart);
    }
  return std::max(start, t.front());
}

}  // namespace

const StrokeResult* CylinderResult::firstStroke(bool extend) const {
  for (const auto& s : strokes)
    if (s.complete && s.extend == extend) return &s;
  return nullptr;
}

double normalLitres(double massKg) { return massKg / gas::rho0 * 1000.0; }

bool isCylinderType(const std::string& type) {
  return type == "cylinder_double" || type == "cylinder_single" || type == "cylinder_through_rod";
}

std::vector<std::string> keyResultChannels(const Project& drawn) {
  std::optional<Project> flat;
  const Project& project = expandedView(drawn, flat);
  std::vector<std::string> names;
  bool attached = false;
  for (const Component& c : project.components) {
    if (isCylinderType(c.type)) {
      for (const char* q : {".x", ".v", ".pA", ".pB", ".F_pressure"}) names.push_back(c.id + q);
      attached = attached || (c.data.is_object() && c.data.contains("attach"));
    } else if (c.type == "supply") {
      names.push_back(c.id + ".m_delivered");
    }
  }
  for (const std::string& id : onOffValves(project)) names.push_back(id + ".s");  // every driving valve among them
  if (attached) names.push_back("mechanism.E_kinetic");
  for (const JointDef& j : project.mechanism.joints)
    if (j.type != "coupler")
      for (const char* q : {".Fx", ".Fy", ".Fz", ".Tx", ".Ty", ".Tz"}) names.push_back(j.id + q);
  for (const ContactDef& c : project.mechanism.contacts)
    for (const std::string& q : contactResultQuantities()) names.push_back(c.id + "." + q);
  for (const LatchDef& l : project.mechanism.latches)
    for (const std::string& q : latchResultQuantities()) names.push_back(l.id + "." + q);
  return names;
}

KeyResults computeKeyResults(const Project& drawn, const ResultStore& results, const KeyResultOptions& options) {
  std::optional<Project> flat;
  const Project& project = expandedView(drawn, flat);
  KeyResults kr;
  kr.title = project.meta.title;
  kr.ambientPressure = project.simulation.ambient_pressure;
  const auto t = results.times();
  kr.tEnd = t.empty() ? 0.0 : t.back();

  bool anyStroke = false, closed = true;
  kr.cycleStart = 1e300;
  kr.cycleEnd = -1e300;
  for (const Component& c : project.components) {
    const ComponentType* type = Registry::instance().find(c.type);
    if (!type) continue;
    if (isCylinderType(c.type)) {
      Zone initial, final;
      kr.cylinders.push_back(analyseCylinder(project, c, *type, results, t, options.endZone, &initial, &final));
      const CylinderResult& cr = kr.cylinders.back();
      if (cr.strokes.empty()) continue;
      anyStroke = true;
      if (initial == Zone::Mid || final != initial) closed = false;
      for (const auto& s : cr.strokes) {
        kr.cycleStart = std::min(kr.cycleStart, s.tStart);
        if (s.complete) {
          kr.hasCycle = true;
          kr.cycleEnd = std::max(kr.cycleEnd, s.tEnd);
        }
      }
    }
  }
  kr.airFrom = airCycleStart(project, results, t, kr.cylinders);
  for (const Component& c : project.components) {
    if (c.type != "supply") continue;
    SupplyResult sr;
    sr.id = c.id;
    sr.label = c.label;
    const auto m = channel(results, c.id + ".m_delivered");
    sr.massRun = m.empty() ? 0.0 : m.back();
    const double before = m.empty() ? 0.0 : interp(t, m, kr.airFrom);
    sr.mass = sr.massRun - before;
    sr.normalLitres = normalLitres(sr.mass);
    kr.airMass += sr.mass;
    kr.airMassBeforeCycle += before;
    kr.supplies.push_back(sr);
  }
  kr.cycleClosed = anyStroke && kr.hasCycle && closed;
  if (!kr.hasCycle) kr.cycleStart = kr.cycleEnd = 0.0;
  kr.airNormalLitres = normalLitres(kr.airMass);
  const double tRun = project.simulation.t_end > 0 ? project.simulation.t_end : kr.tEnd;
  kr.cyclesPerMinute = options.cyclesPerMinute > 0 ? options.cyclesPerMinute : (tRun > 0 ? 60.0 / tRun : 0.0);

  for (const JointDef& j : project.mechanism.joints) {
    if (j.type == "coupler") continue;
    JointLoadResult jr;
    jr.id = j.id;
    jr.type = j.type;
    std::vector<double> comp[6];
    const char* q[6] = {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz"};
    for (int k = 0; k < 6; ++k) comp[k] = channel(results, j.id + "." + q[k]);
    for (size_t i = 0; i < t.size(); ++i) {
      const double f = std::hypot(comp[0][i], comp[1][i], comp[2][i]);
      const double m = std::hypot(comp[3][i], comp[4][i], comp[5][i]);
      if (f > jr.forceMax) jr.forceMax = f, jr.tForceMax = t[i];
      if (m > jr.torqueMax) jr.torqueMax = m, jr.tTorqueMax = t[i];
    }
    kr.joints.push_back(jr);
  }
  for (const ContactDef& c : project.mechanism.contacts) {
    auto q = [&](const char* name) { return channel(results, c.id + "." + name); };
    kr.contacts.push_back(contactPairResult(c.id, c.j.shape + " on " + c.i.shape, t,
                                            {q("in_contact"), q("distance"), q("normal_force"), q("friction_force"),
                                             q("penetration"), q("slip_speed")}));
  }
  for (const LatchDef& l : project.mechanism.latches) {
    auto q = [&](const char* name) { return channel(results, l.id + "." + name); };
    kr.latches.push_back(latchResult(l.id, l.type, t,
                                     {q("engaged"), q("Fx"), q("Fy"), q("Fz"), q("velocity_jump"), q("energy_lost"),
                                      q("impulse")}));
  }
  return kr;
}

std::string KeyResults::toText() const {
  std::string s;
  if (!title.empty()) s += "Key results: " + title + "\n";
  s += fmt("Run: 0 to %.4g s; pressures absolute, gauge relative to %.5g bar ambient\n", tEnd, ambientPressure / 1e5);
  for (const auto& c : cylinders) {
    s += fmt("\nCylinder %s%s%s%s: stroke %.4g mm, ", c.label.empty() ? "" : c.label.c_str(),
             c.label.empty() ? "" : " (", c.id.c_str(), c.label.empty() ? "" : ")", c.stroke * 1e3);
    s += std::isnan(c.mass) ? std::string("attached to the mechanism (E arrival = its kinetic energy)\n")
                            : fmt("moving mass %.4g kg\n", c.mass);
    if (c.eCushionMax > 0) s += fmt("  allowed cushioning energy %.4g J (catalogue)\n", c.eCushionMax);
    if (c.strokes.empty()) {
      s += "  no stroke (did not leave its end position)\n";
    } else {
      s += "  #  stroke    signal [s]  start [s]  end [s]   movement [s]  from signal [s]  v max [m/s]  v arrival [m/s]"
           "  E arrival [J]\n";
      int k = 0;
      std::string valves;
      for (const auto& r : c.strokes) {
        ++k;
        const std::string signal = r.hasSignal() ? fmt("%-10.4f", r.tSignal) : std::string("-         ");
        if (!r.valve.empty() && valves.find(r.valve) == std::string::npos) valves += (valves.empty() ? "" : ", ") + r.valve;
        const std::string fromSignal = r.hasSignal() ? fmt("%.4f", r.fromSignal()) : std::string("-");
        const std::string times = fmt("  %-2d %-8s  %s  %-9.4f  %-8.4f  %-12.4f  %-15s  %-11.3f  ", k,
                                      r.extend ? "extend" : "retract", signal.c_str(), r.tStart, r.tEnd, r.duration(),
                                      fromSignal.c_str(), r.vMax);
        // An incomplete stroke ends where it turned, came back or the run
        // ended; it never arrived, so it has no arrival speed or energy.
        if (r.complete)
          s += times + fmt("%-15.3f  %.3f%s\n", r.vArrival, r.eArrival,
                           r.exceedsCushioning ? "  EXCEEDS the allowed cushioning energy" : "");
        else
          s += times + fmt("%-15s  %-13s  (incomplete%s)\n", "-", "-",
                           r.tEnd >= tEnd ? ", under way when the run ended" : "");
      }
      s += "  movement time: start to end (leaving one end zone, 1 % of the stroke, to entering the other)\n";
      if (std::any_of(c.strokes.begin(), c.strokes.end(), [](const StrokeResult& r) { return !r.complete; }))
        s += "  incomplete: did not go from one end zone to the other; it ends where it turned, came back or the run"
             " ended\n";
      s += valves.empty() ? std::string("  stroke time from signal: no on/off valve drives this cylinder\n")
                          : "  stroke time from signal: the valve signal (" + valves +
                                ") to the end = switching + dead time + movement time\n";
    }
    s += fmt("  max speed %.3f m/s, max pneumatic force %.4g N\n", c.vMax, c.forceMax);
    s += fmt("  peak pressure A %.3f bar abs (%.3f bar gauge)", c.pAMax / 1e5, (c.pAMax - ambientPressure) / 1e5);
    if (c.hasB) s += fmt(", B %.3f bar abs (%.3f bar gauge)", c.pBMax / 1e5, (c.pBMax - ambientPressure) / 1e5);
    s += "\n";
  }
  s += "\nMachine\n";
  if (hasCycle)
    s += fmt("  %s %.4f s (from %.4f s to %.4f s)\n", cycleClosed ? "cycle time" : "motion time (open cycle)",
             cycleTime(), cycleStart, cycleEnd);
  else
    s += "  cycle time: no complete stroke in the run\n";
  for (const auto& sp : supplies)
    s += fmt("  supply %s: %.4g g = %.4g Nl\n", sp.label.empty() ? sp.id.c_str() : (sp.label + " (" + sp.id + ")").c_str(),
             sp.mass * 1e3, sp.normalLitres);
  if (!supplies.empty()) {
    s += fmt("  air consumption %.4g Nl per cycle (ISO 8778), %.4g Nl/min at %.4g cycles/min\n", airNormalLitres,
             airNormalLitresPerMinute(), cyclesPerMinute);
    s += fmt("  counted from the cycle's start at %.4f s; the initial filling before it (%.4g Nl) is not counted\n",
             airFrom, normalLitres(airMassBeforeCycle));
  }
  if (!joints.empty()) {
    s += "\nJoint reactions (maximum magnitude)\n";
    for (const auto& j : joints)
      s += fmt("  %-16s %-14s force %10.4g N at %.4f s, torque %10.4g N m at %.4f s\n", j.id.c_str(), j.type.c_str(),
               j.forceMax, j.tForceMax, j.torqueMax, j.tTorqueMax);
  }
  if (!contacts.empty()) {
    s += "\nContacts (peaks over the run; slip speed while touching)\n";
    for (const auto& c : contacts) {
      s += fmt("  %-16s %-18s ", c.id.c_str(), c.shapes.c_str());
      if (c.touches.empty()) {
        s += "never touched\n";
        continue;
      }
      const ContactTouch &first = c.touches.front(), &last = c.touches.back();
      s += fmt("%zu touch%s, first at %.4f s, %s, %.4g s in contact\n", c.touches.size(),
               c.touches.size() == 1 ? "" : "es", first.tStart,
               last.open ? "touching at the end" : fmt("last left at %.4f s", last.tEnd).c_str(), c.timeInContact);
      s += fmt("    normal force %.4g N at %.4f s, ", c.normalMax, c.tNormalMax);
      s += c.frictionMax > 0 ? fmt("friction %.4g N at %.4f s, ", c.frictionMax, c.tFrictionMax)
                             : std::string("no friction force, ");
      s += fmt("penetration %.4g mm at %.4f s, slip speed %.4g m/s at %.4f s\n", c.penetrationMax * 1e3,
               c.tPenetrationMax, c.slipMax, c.tSlipMax);
    }
  }
  if (!latches.empty()) {
    s += "\nLatches (engagement: the first output sample engaged; a plastic impact)\n";
    for (const auto& l : latches) {
      s += fmt("  %-16s %-14s ", l.id.c_str(), l.type.c_str());
      if (l.engagements.empty()) {
        s += "never engaged\n";
        continue;
      }
      s += fmt("engaged %zu time%s, energy lost %.4g J in all, reaction %.4g N at %.4f s%s\n", l.engagements.size(),
               l.engagements.size() == 1 ? "" : "s", l.energyLost, l.forceMax, l.tForceMax,
               l.engagedAtEnd ? ", engaged at the end" : "");
      for (const auto& e : l.engagements)
        s += fmt("    at %.4f s: velocity jump %.4g m/s, energy lost %.4g J, impulse %.4g N s%s\n", e.t,
                 e.velocityJump, e.energyLost, e.impulse,
                 std::isnan(e.tRelease) ? "" : fmt(", released at %.4f s", e.tRelease).c_str());
    }
  }
  return s;
}

nlohmann::json KeyResults::toJson() const {
  using nlohmann::json;
  json j;
  j["title"] = title;
  j["t_end"] = tEnd;
  j["ambient_pressure_Pa"] = ambientPressure;
  j["cylinders"] = json::array();
  for (const auto& c : cylinders) {
    json jc{{"id", c.id}, {"label", c.label}, {"type", c.type}, {"stroke_m", c.stroke}, {"mass_kg", c.mass},
            {"v_max_m_s", c.vMax}, {"p_A_max_Pa", c.pAMax}, {"p_A_max_gauge_Pa", c.pAMax - ambientPressure},
            {"force_max_N", c.forceMax}};
    if (c.eCushionMax > 0) jc["E_cushion_max_J"] = c.eCushionMax;
    if (c.hasB) {
      jc["p_B_max_Pa"] = c.pBMax;
      jc["p_B_max_gauge_Pa"] = c.pBMax - ambientPressure;
    }
    jc["strokes"] = json::array();
    for (const auto& r : c.strokes) {
      json js{{"direction", r.extend ? "extend" : "retract"}, {"complete", r.complete}, {"t_start_s", r.tStart},
              {"t_end_s", r.tEnd}, {"movement_time_s", r.duration()}, {"v_max_m_s", r.vMax}};
      if (r.hasSignal()) js["time_from_signal_s"] = r.fromSignal();
      if (r.complete) {
        js["time_s"] = r.duration();
        js["v_arrival_m_s"] = r.vArrival;
        js["E_arrival_J"] = r.eArrival;
        if (c.eCushionMax > 0) js["exceeds_cushioning"] = r.exceedsCushioning;
        if (r.tContact >= 0) js["t_contact_s"] = r.tContact;
      } else {
        js["under_way_at_end"] = r.tEnd >= tEnd;
      }
      if (r.hasSignal()) {
        js["t_signal_s"] = r.tSignal;
        js["valve"] = r.valve;
      }
      jc["strokes"].push_back(js);
    }
    for (bool ext : {true, false})
      if (const StrokeResult* r = c.firstStroke(ext)) {
        // Movement time (as before: "time_s"), and the time from the valve signal.
        jc[ext ? "extension_time_s" : "retraction_time_s"] = r->duration();
        if (r->hasSignal()) jc[ext ? "extension_time_from_signal_s" : "retraction_time_from_signal_s"] = r->fromSignal();
      }
    j["cylinders"].push_back(jc);
  }
  json machine;
  machine["cycle_closed"] = cycleClosed;
  if (hasCycle) {
    machine["cycle_time_s"] = cycleTime();
    machine["cycle_start_s"] = cycleStart;
    machine["cycle_end_s"] = cycleEnd;
  }
  machine["air_kg_per_cycle"] = airMass;
  machine["air_counted_from_s"] = airFrom;
  machine["air_Nl_initial_filling"] = normalLitres(airMassBeforeCycle);
  machine["air_Nl_per_cycle"] = airNormalLitres;
  machine["cycles_per_minute"] = cyclesPerMinute;
  machine["air_Nl_per_min"] = airNormalLitresPerMinute();
  machine["supplies"] = json::array();
  for (const auto& s : supplies)
    machine["supplies"].push_back({{"id", s.id}, {"label", s.label}, {"mass_kg", s.mass}, {"Nl", s.normalLitres},
                                   {"mass_run_kg", s.massRun}});
  j["machine"] = machine;
  j["joints"] = json::array();
  for (const auto& jr : joints)
    j["joints"].push_back({{"id", jr.id}, {"type", jr.type}, {"force_max_N", jr.forceMax}, {"t_force_max_s", jr.tForceMax},
                           {"torque_max_Nm", jr.torqueMax}, {"t_torque_max_s", jr.tTorqueMax}});
  j["contacts"] = json::array();
  for (const auto& c : contacts) {
    json touches = json::array();
    for (const auto& k : c.touches) touches.push_back({{"t_start_s", k.tStart}, {"t_end_s", k.tEnd}, {"open", k.open}});
    j["contacts"].push_back({{"id", c.id}, {"shapes", c.shapes}, {"touches", touches},
                             {"time_in_contact_s", c.timeInContact}, {"normal_force_max_N", c.normalMax},
                             {"t_normal_force_max_s", c.tNormalMax}, {"friction_force_max_N", c.frictionMax},
                             {"t_friction_force_max_s", c.tFrictionMax}, {"penetration_max_m", c.penetrationMax},
                             {"t_penetration_max_s", c.tPenetrationMax}, {"slip_speed_max_m_s", c.slipMax},
                             {"t_slip_speed_max_s", c.tSlipMax}});
  }
  j["latches"] = json::array();
  for (const auto& l : latches) {
    json engagements = json::array();
    for (const auto& e : l.engagements) {
      json je{{"t_s", e.t}, {"velocity_jump_m_s", e.velocityJump}, {"energy_lost_J", e.energyLost},
              {"impulse_Ns", e.impulse}};
      if (!std::isnan(e.tRelease)) je["t_release_s"] = e.tRelease;
      engagements.push_back(je);
    }
    j["latches"].push_back({{"id", l.id}, {"type", l.type}, {"engagements", engagements},
                            {"energy_lost_J", l.energyLost}, {"force_max_N", l.forceMax},
                            {"t_force_max_s", l.tForceMax}, {"engaged_at_end", l.engagedAtEnd}});
  }
  return j;
}

}  // namespace pm
