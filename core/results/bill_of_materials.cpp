#include "results/bill_of_materials.h"

#include "build/subcircuit_expansion.h"
#include "model/component_type.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace pm {

namespace {

// Shortest form with up to `digits` significant digits ("32", "0.5", "254").
std::string g(double v, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// Rounded to whole Nl/min above 10, else to 2 significant digits.
std::string flow(double C, double b, double m) {
  const double q = nominalFlowNlPerMin(C, b, m);
  return (q >= 10 ? g(std::round(q), 6) : g(q, 2)) + " Nl/min";
}

bool isControl(const std::string& category) {
  static const std::set<std::string> k = {"Signals", "Signal sources", "Signal math", "Signal dynamics", "Logic",
                                          "Controllers"};
  return k.count(category) > 0;
}

bool isDirectional(const ComponentType& t) { return t.category == "Directional valves"; }

// Standard metric tubing: outer diameter for a usual inner one (mm).
double tubeOuter(double innerMm) {
  static const std::pair<double, double> k[] = {{1.8, 3}, {2.5, 4}, {2.9, 4}, {4, 6}, {5.7, 8}, {6, 8},
                                                 {7, 10}, {8, 10}, {9, 12}, {12, 16}};
  for (const auto& [in, out] : k)
    if (std::abs(innerMm - in) < 0.05) return out;
  return 0.0;
}

struct Sizer {
  const Component& c;
  const ComponentType& t;
  double operator()(const char* n) const { return t.param(n) ? paramValue(c, t, n) : 0.0; }
};

std::string valveActuation(const Component& c, const ComponentType& t, const Sizer& P, bool pilot14, bool pilot12) {
  std::string a;
  if (P("manual") > 0.5) a = "manually operated";
  else if (c.inputs.count("sol14") || c.inputs.count("sol12")) a = c.inputs.count("sol12") ? "double solenoid" : "solenoid actuated";
  else if (pilot14 || pilot12) a = "pilot operated";
  if (t.param("spring_return")) a += std::string(a.empty() ? "" : ", ") + (P("spring_return") > 0.5 ? "spring return" : "detented");
  return a;
}

std::string sizeOf(const Component& c, const ComponentType& t, const PressureText& pt, bool pilot14, bool pilot12,
                   std::string* function) {
  const Sizer P{c, t};
  const std::string& n = c.type;
  auto mm = [](double v) { return g(v * 1e3); };
  if (n == "cylinder_double" || n == "cylinder_through_rod") {
    std::string s = "bore " + mm(P("bore")) + " mm, rod " + mm(P("rod")) + " mm, stroke " + mm(P("stroke")) + " mm";
    if (P("cushion_length_A") > 0 || P("cushion_length_B") > 0)
      s += "; end cushioning " + mm(std::max(P("cushion_length_A"), P("cushion_length_B"))) + " mm";
    if (P("E_cushion_max") > 0) s += ", up to " + g(P("E_cushion_max")) + " J";
    return s;
  }
  if (n == "cylinder_single") return "bore " + mm(P("bore")) + " mm, stroke " + mm(P("stroke")) + " mm, spring return";
  if (n == "semi_rotary_actuator")
    return "swivel angle " + g(P("theta_max") * 180.0 / M_PI) + " deg, " + g(P("D") * 1e6) + " cm3/rad displacement";
  if (isDirectional(t)) {
    const std::string act = valveActuation(c, t, P, pilot14, pilot12);
    if (!act.empty()) *function += ", " + act;
    std::string s = "nominal flow " + flow(P("C_supply"), P("b_supply"), 0.5) + " (1->4/2), " +
                    flow(P("C_exhaust"), P("b_exhaust"), 0.5) + " to exhaust";
    if (t.param("t_switch")) s += "; switching time " + g(P("t_switch") * 1e3) + " ms";
    return s;
  }
  if (n == "flow_control_one_way")
    return "nominal flow " + flow(P("C_max"), P("b"), P("m")) + " fully open (set to " + g(P("opening") * 100) +
           " %), free flow " + flow(P("C_check"), P("b_check"), P("m"));
  if (n == "throttle")
    return "nominal flow " + flow(P("C_max"), P("b"), P("m")) + " fully open (set to " + g(P("opening") * 100) + " %)";
  if (n == "restriction" || n == "silencer" || n == "check_valve" || n == "flow_sensor")
    return "nominal flow " + flow(P("C"), P("b"), t.param("m") ? P("m") : 0.5) +
           (n == "check_valve" ? ", cracking at " + g(P("p_crack") / 1e5) + " bar" : std::string());
  if (n == "quick_exhaust_valve")
    return "nominal flow " + flow(P("C_12"), P("b_12"), 0.5) + " in, " + flow(P("C_23"), P("b_23"), 0.5) + " to exhaust";
  if (n == "pressure_regulator")
    return "set to " + g(pt.bar(P("p_set"))) + " " + pt.unit() + ", nominal flow " + flow(P("C"), P("b"), 0.5);
  if (n == "orifice") return "orifice diameter " + g(P("d") * 1e3) + " mm";
  if (n == "tube") {
    const double id = P("d") * 1e3, od = tubeOuter(id);
    return "tubing, inner diameter " + g(id) + " mm" + (od > 0 ? " (" + g(od) + "/" + g(id) + " mm tubing)" : "") +
           ", length " + g(P("L")) + " m";
  }
  if (n == "reservoir") return g(P("V") * 1e3) + " l";
  if (n == "supply") return g(pt.bar(P("p"))) + " " + pt.unit();
  if (n == "limit_switch") return "switching point " + mm(P("x_switch")) + " mm";
  if (n == "pressure_switch") return "switches on at " + g(pt.bar(P("p_on") + pt.ambient)) + " " + pt.unit();  // p_on is gauge
  return "";
}

// The type's description up to its first ':' (the rest explains the model),
// in a buyer's words where the description speaks of the model.
std::string function(const Component& c, const ComponentType& t) {
  if (c.type == "supply") return "Compressed-air supply (service unit)";
  if (c.type == "restriction") return "Fixed restriction (orifice fitting)";
  if (c.type == "flow_control_one_way") return "One-way flow control";
  if (c.type == "cylinder_double") return "Double-acting cylinder";  // cushioning, when set, is in the size
  return t.description.substr(0, t.description.find(':'));
}

}  // namespace

double nominalFlowNlPerMin(double C, double b, double m) {
  const double p1 = 701325.0, p2 = 601325.0, r = p2 / p1;
  const double phi = r <= b ? 1.0 : std::pow(1.0 - std::pow((r - b) / (1.0 - b), 2.0), m);
  return C * p1 * phi * 1000.0 * 60.0;
}

std::vector<BomItem> billOfMaterials(const Project& drawn, const ReportSettings& settings, PressureReference pressure) {
  std::optional<Project> flat;
  const Project& project = expandedView(drawn, flat);
  const PressureText pt{pressure, project.simulation.ambient_pressure};
  std::set<std::string> connected;
  for (const Connection& k : project.connections) {
    connected.insert(k.from.str());
    connected.insert(k.to.str());
  }
  std::vector<BomItem> items;
  std::string control, exhausts;
  bool tubes = false;
  for (const Component& c : project.components) {
    const ComponentType* t = Registry::instance().find(c.type);
    if (!t) continue;
    if (isControl(t->category)) {
      control += (control.empty() ? "" : ", ") + (c.label.empty() ? c.id : c.label);
      continue;
    }
    if (c.type == "atmosphere") continue;  // an open port, not a part
    tubes = tubes || c.type == "tube";
    BomItem it{c.label, c.id, function(c, *t), "", ""};
    it.size = sizeOf(c, *t, pt, connected.count(c.id + ".14") > 0, connected.count(c.id + ".12") > 0, &it.function);
    // The object's own catalogue part (its "part") first; the report's list names others.
    if (!c.part.empty()) it.part = c.part;
    else if (auto p = settings.parts.find(c.id); p != settings.parts.end()) it.part = p->second;
    items.push_back(it);
    if (isDirectional(*t) || c.type == "quick_exhaust_valve" || c.type == "pressure_regulator")
      for (const PortDecl& port : t->ports)
        if (port.vents_when_open && !connected.count(c.id + "." + port.name))
          exhausts += (exhausts.empty() ? "" : ", ") + (c.label.empty() ? c.id : c.label) + " port " + port.name;
  }
  if (!exhausts.empty())
    items.push_back({"", "", "Exhaust silencers (not modelled: the ports vent freely)", "one for each of " + exhausts,
                     ""});
  if (!tubes && !project.connections.empty())
    items.push_back({"", "", "Tubing and fittings (not modelled: lines are ideal, without volume or loss)",
                     "to suit the ports", ""});
  if (!control.empty())
    items.push_back({"", "", "Control: the machine's PLC program or relay logic", "signals " + control, ""});
  return items;
}

}  // namespace pm
