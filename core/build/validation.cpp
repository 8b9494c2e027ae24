// All model validation, in one place: what a project must satisfy before it
// is compiled (build/compiler.h) or analysed. The loader (io/) reports only
// what it cannot parse.
#include "build/validation.h"

#include "build/catalogue_parts.h"

#include "mechanics/beam/beam_bodies.h"
#include "mechanics/contact/contact_pair.h"
#include "model/component_type.h"
#include "model/fixed_parts.h"
#include "model/mechanism_types.h"
#include "model/message_text.h"
#include "model/project_error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

namespace pm {

namespace {

bool validId(const std::string& id) {
  if (id.empty() || !std::isalpha(static_cast<unsigned char>(id[0]))) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

// An expanded sub-circuit's inner id: valid ids joined by '.'.
bool validDottedId(const std::string& id) {
  size_t from = 0;
  for (size_t dot = id.find('.'); dot != std::string::npos; from = dot + 1, dot = id.find('.', from))
    if (!validId(id.substr(from, dot - from))) return false;
  return validId(id.substr(from));
}

// The component id a signal reference names: its longest prefix before a
// '.' that is an id (inner ids of sub-circuits hold dots), else up to the first '.'.
std::string referencedId(const std::string& ref, const std::set<std::string>& ids) {
  std::string found = ref.substr(0, ref.find('.'));
  for (size_t dot = ref.find('.'); dot != std::string::npos; dot = ref.find('.', dot + 1))
    if (ids.count(ref.substr(0, dot))) found = ref.substr(0, dot);
  return found;
}

// A mesh (issue 27) only on a part that cannot move, against a sphere, a capsule, a box or a cylinder.
void checkMeshSide(const Mechanism& m, const ContactDef& c, const contact::Shape& sa, const contact::Shape& sb,
                   const std::string& file) {
  const bool meshI = sa.kind == contact::ShapeKind::Mesh, meshJ = sb.kind == contact::ShapeKind::Mesh;
  if (!meshI && !meshJ) return;
  const ContactShapeDef& mesh = meshI ? c.i : c.j;
  const ContactShapeDef& other = meshI ? c.j : c.i;
  const std::string side = meshI ? "i." : "j.", otherSide = meshI ? "j." : "i.";
  if (!contact::supported(sa.kind, sb.kind))
    throw ProjectError(file, c.id, otherSide + "shape",
                       "a mesh touches only a sphere, a capsule, a box or a cylinder, not a " + other.shape);
  const std::string part = mesh.marker.substr(0, mesh.marker.find('.'));
  if (!partsFixedToGround(m).count(part))
    throw ProjectError(file, c.id, side + "marker",
                       "a mesh must be on the ground or on a part welded to it by fixed joints; '" + part +
                           "' can move (put the mesh on the fixed side of the pair)");
}

// mechanism.contacts and .latches (issue 27), with validateMechanism's
// checks of ids, markers and parameters.
template <class NewId, class MarkerCheck, class ParamCheck>
void checkContactsAndLatches(const Mechanism& m, const std::string& file, NewId& newId, MarkerCheck& marker,
                             ParamCheck& checkParams) {
  for (const ContactDef& c : m.contacts) {
    newId(c.id, "contact");
    contact::Shape sa, sb;
    for (const auto& [side, s] : {std::pair{"i.", &c.i}, std::pair{"j.", &c.j}}) {
      marker(s->marker, c.id, side == std::string("i.") ? "i.marker" : "j.marker", false);
      if (auto e = contact::shapeOf(*s, side == std::string("i.") ? sa : sb))
        throw ProjectError(file, c.id, side + e->field, e->message);
    }
    checkMeshSide(m, c, sa, sb, file);
    if (!contact::supported(sa.kind, sb.kind))
      throw ProjectError(file, c.id, "j.shape",
                         "no contact between a " + c.i.shape + " and a " + c.j.shape +
                             " (see docs/file-format.md, contacts)");
    if (c.i.marker.substr(0, c.i.marker.find('.')) == c.j.marker.substr(0, c.j.marker.find('.')))
      throw ProjectError(file, c.id, "j.marker", "both shapes are on the same part");
    checkParams(contact::pairType(), c.params, c.id);
    if (auto e = contact::checkPairParams(c.params)) throw ProjectError(file, c.id, e->field, e->message);
  }
  for (const LatchDef& l : m.latches) {
    newId(l.id, "latch");
    const MechTypeDecl* t = findJointType(l.type);
    if (!t || l.type == "coupler")
      throw ProjectError(file, l.id, "type",
                         "unknown latch type '" + l.type + "' (a joint type: fixed, revolute, translational, ...)");
    marker(l.i, l.id, "i", false);
    marker(l.j, l.id, "j", false);
    if (l.i.substr(0, l.i.find('.')) == l.j.substr(0, l.j.find('.')))
      throw ProjectError(file, l.id, "j", "I and J are on the same part");
    checkParams(latchType(), l.params, l.id);
    const bool byDistance = l.params.count("capture_radius") && l.params.at("capture_radius") > 0.0;
    const bool atStart = l.params.count("engaged") && l.params.at("engaged") > 0.5;
    if (!byDistance && l.engage.empty() && !atStart)
      throw ProjectError(file, l.id, "engage",
                         "a latch needs a condition: params.capture_radius > 0, an engage signal or params.engaged = 1");
  }
}

}  // namespace

bool namesMechanismObject(const Mechanism& m, const std::string& ref) {
  const std::string id = ref.substr(0, ref.find('.'));
  auto has = [&](const auto& list) {
    return std::any_of(list.begin(), list.end(), [&](const auto& o) { return o.id == id; });
  };
  return has(m.parts) || has(m.flexible_bodies) || has(m.joints) || has(m.motions) || has(m.forces) || has(m.contacts) ||
         has(m.latches);
}

void validateProject(const Project& pr, const std::string& file, bool forRun, bool expanded) {
  auto fail = [&](const std::string& obj, const std::string& field, const std::string& msg) {
    throw ProjectError(file, obj, field, msg);
  };
  const auto& reg = Registry::instance();
  checkCatalogueParts(pr, file);
  std::set<std::string> ids;
  for (const Component& c : pr.components) {
    if (!(expanded ? validDottedId(c.id) : validId(c.id)))
      fail(c.id, "id", "ids start with a letter and use only letters, digits, '_' and '-'");
    if (!ids.insert(c.id).second) fail(c.id, "id", "duplicate id");
    const ComponentType* t = reg.find(c.type);
    if (!t) fail(c.id, "type", "unknown component type '" + c.type + "'");
    for (const auto& [name, value] : c.params) {
      const ParamDecl* d = t->param(name);
      if (!d) fail(c.id, "params." + name, "type '" + c.type + "' has no parameter '" + name + "'");
      if (!d->accepts(value))
        fail(c.id, "params." + name,
             "value " + numberText(value) + " " + d->unit + " is outside the valid range " +
                 d->rangeText() + " (" + d->doc + ")");
    }
    for (const auto& [name, ref] : c.inputs) {
      if (!t->input(name)) fail(c.id, "inputs." + name, "type '" + c.type + "' has no input '" + name + "'");
      const auto dot = ref.find('.');
      if (ref.empty()) continue;
      if (dot == std::string::npos || dot == 0 || dot + 1 == ref.size())
        fail(c.id, "inputs." + name, "signal reference '" + ref + "' must read '<component id>.<channel>'");
    }
    for (const InputDecl& in : t->inputs)
      if (forRun && in.required && (!c.inputs.count(in.name) || c.inputs.at(in.name).empty()))
        fail(c.id, "inputs." + in.name, "required input is not connected (" + in.doc + ")");
    if (t->check_data)
      for (const std::string& e : t->check_data(c)) {
        // "points[2]: message" names a field; a message about the whole
        // data may hold ": " itself ('expected {"points": ...}').
        const auto colon = e.find(": ");
        const bool hasField = colon != std::string::npos && e.find(' ') > colon;
        fail(c.id, hasField ? "data." + e.substr(0, colon) : "data", hasField ? e.substr(colon + 2) : e);
      }
  }
  for (const Component& c : pr.components)
    for (const auto& [name, ref] : c.inputs) {
      if (ref.empty()) continue;
      const std::string target = referencedId(ref, ids);
      if (!ids.count(target) && !namesMechanismObject(pr.mechanism, ref))
        fail(c.id, "inputs." + name,
             "signal reference '" + ref + "' names no component or mechanism object '" + target + "'");
    }
  std::set<std::string> connIds;
  std::set<std::pair<std::string, std::string>> pairs;
  for (const Connection& k : pr.connections) {
    if (k.id.empty()) fail("", "connections", "a connection has an empty id");
    if (!connIds.insert(k.id).second) fail(k.id, "id", "duplicate connection id");
    if (ids.count(k.id)) fail(k.id, "id", "connection id is also a component id");
    const PortDecl* ends[2] = {nullptr, nullptr};
    int i = 0;
    for (const PortRef* r : {&k.from, &k.to}) {
      const char* field = i == 0 ? "from" : "to";
      const Component* c = pr.find(r->component);
      if (!c) fail(k.id, field, "dangling connection: no component '" + r->component + "'");
      const ComponentType* t = reg.find(c->type);
      ends[i] = t->port(r->port);
      if (!ends[i]) fail(k.id, field, "component '" + c->id + "' (" + c->type + ") has no port '" + r->port + "'");
      ++i;
    }
    if (k.from == k.to) fail(k.id, "to", "connection joins a port to itself");
    if (ends[0]->domain != ends[1]->domain)
      fail(k.id, "to", "connects ports of different domains (" + k.from.str() + ", " + k.to.str() + ")");
    if (ends[0]->domain != Domain::Pneumatic)
      fail(k.id, "to", "only pneumatic lines can be drawn in this version; signal inputs are references");
    const std::string a = k.from.str(), b = k.to.str();
    const std::pair<std::string, std::string> key = a < b ? std::pair{a, b} : std::pair{b, a};
    if (!pairs.insert(key).second)
      fail(k.id, "to", "duplicate connection between " + key.first + " and " + key.second);
  }
  if (!pr.mechanism.empty()) {
    std::vector<std::string> compIds(ids.begin(), ids.end());
    validateMechanism(pr.mechanism, file, compIds);
  }
  validateSimulation(pr.simulation, file);
}

void validateSimulation(const SimulationSettings& s, const std::string& file) {
  auto fail = [&](const std::string& obj, const std::string& field, const std::string& msg) {
    throw ProjectError(file, obj, field, msg);
  };
  auto positive = [&](double v, const char* f) {
    if (!(v > 0.0) || !std::isfinite(v)) fail("simulation", f, "must be a positive number");
  };
  positive(s.t_end, "t_end");
  positive(s.output_interval, "output_interval");
  positive(s.rel_tol, "rel_tol");
  positive(s.abs_tol_pressure, "abs_tol_pressure");
  positive(s.abs_tol_temperature, "abs_tol_temperature");
  positive(s.abs_tol_position, "abs_tol_position");
  // Physical plausibility (what the solver can do anything sensible with);
  // the same bounds as a component's pressures and temperatures.
  auto within = [&](double v, const char* f, double lo, double hi, const char* unit) {
    if (!(v >= lo && v <= hi))
      fail("simulation", f, "value " + numberText(v) + (*unit ? " " : "") + unit + " is outside the valid range [" +
                                numberText(lo) + ", " + numberText(hi) + "]");
  };
  within(s.ambient_pressure, "ambient_pressure", kPlausiblePressureFloor, kPlausiblePressure, "Pa");
  within(s.ambient_temperature, "ambient_temperature", kPlausibleTemperatureMin, kPlausibleTemperatureMax, "K");
  within(s.rel_tol, "rel_tol", 1e-12, 0.5, "");
  if (!(s.wall_time_limit >= 0.0) || !std::isfinite(s.wall_time_limit))
    fail("simulation", "wall_time_limit", "must be >= 0 s (0: no limit)");
  if (s.max_step < 0.0 || !std::isfinite(s.max_step)) fail("simulation", "max_step", "must be >= 0 (0: solver's choice)");
  if (s.coupling != "monolithic" && s.coupling != "cosimulation")
    fail("simulation", "coupling", "must be \"monolithic\" or \"cosimulation\", not \"" + s.coupling + "\"");
  if (s.mechanism_formulation != "reduced" && s.mechanism_formulation != "absolute")
    fail("simulation", "mechanism_formulation",
         "must be \"absolute\" or \"reduced\", not \"" + s.mechanism_formulation + "\"");
  positive(s.exchange_interval, "exchange_interval");
  if (s.coupling == "cosimulation" && s.exchange_interval > s.t_end)
    fail("simulation", "exchange_interval", "is longer than t_end");
  if (s.output_interval > s.t_end) fail("simulation", "output_interval", "is longer than t_end");
  if (s.t_end / s.output_interval > 5e7) fail("simulation", "output_interval", "would write more than 5e7 rows");
}

// 2e8 doubles are 1.6 GB held; the store's columns grow by doubling, so the
// peak while they grow is up to about twice that: still within a desktop's
// memory, where the run that prompted the limit (1,000 components at 1e-5 s
// over 10 s) wanted about 30 GB and died of bad_alloc hours in.
void validateOutputSize(const SimulationSettings& s, size_t storedChannels, const std::string& file,
                        const std::string& where) {
  const double rows = std::floor(s.t_end / s.output_interval + 1e-9) + 1.0;  // 0, dt, ..., t_end
  const double values = rows * static_cast<double>(storedChannels + 1);  // + the time column
  if (values <= kMaxStoredValues) return;
  char gb[32];
  std::snprintf(gb, sizeof gb, "%.1f GB", values * 8e-9);
  throw ProjectError(file, "simulation", "output_interval",
                     "the run would hold " + std::to_string(static_cast<long long>(rows)) + " rows x " +
                         std::to_string(storedChannels) + " channels (+ time) = " + numberText(values) +
                         " values " + where + " (" + gb + "), more than the limit of " + numberText(kMaxStoredValues) +
                         " values (1.6 GB): choose a larger output_interval (at least " +
                         numberText(s.t_end * static_cast<double>(storedChannels + 1) / kMaxStoredValues) +
                         " s) or write fewer channels (pneumech simulate --channels)");
}

// A motion's table: points in time order, and read so that the imposed
// acceleration stays finite.
static void checkMotionTable(const MotionDef& mo,
                             const std::function<void(const std::string&, const std::string&, const std::string&)>& fail) {
  if (mo.table.size() < 2) fail(mo.id, "table", "needs at least two points");
  for (size_t i = 1; i < mo.table.size(); ++i)
    if (!(mo.table[i][0] > mo.table[i - 1][0])) fail(mo.id, "table[" + std::to_string(i) + "]", "times must increase");
  // The driver imposes the table's second derivative (of a displacement)
  // or first (of a velocity) as an acceleration: it must be finite.
  const Interpolation in = mo.interpolation;
  if (mo.quantity == "displacement" && (in == Interpolation::Linear || in == Interpolation::Step))
    fail(mo.id, "interpolation",
         std::string("a displacement table read \"") + interpolationName(in) +
             "\" has infinite accelerations at its points; use \"monotone_cubic\" or \"natural_cubic\"");
  if (mo.quantity == "velocity" && in == Interpolation::Step)
    fail(mo.id, "interpolation",
         "a velocity table read \"step\" jumps at its points (infinite accelerations); use \"linear\", "
         "\"monotone_cubic\" or \"natural_cubic\"");
}

void validateMechanism(const Mechanism& m, const std::string& file, const std::vector<std::string>& componentIds) {
  auto fail = [&](const std::string& o, const std::string& f, const std::string& msg) {
    throw ProjectError(file, o, f, msg);
  };
  std::set<std::string> ids(componentIds.begin(), componentIds.end());
  auto newId = [&](const std::string& id, const std::string& what) {
    if (id.empty() || !std::isalpha(static_cast<unsigned char>(id[0])) ||
        id.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != std::string::npos)
      fail(id, "id", what + " ids start with a letter and use only letters, digits, '_' and '-'");
    if (!ids.insert(id).second) fail(id, "id", "duplicate id (parts, joints, motions, forces and components share one id space)");
  };
  // Physical plausibility (model/component_type.h): beyond these the solver crawls.
  auto bounded = [&](const std::string& o, const std::string& f, const double* v, int n, double limit, const char* unit) {
    for (int i = 0; i < n; ++i)
      if (!(std::abs(v[i]) <= limit))
        fail(o, f + "[" + std::to_string(i) + "]",
             "value " + numberText(v[i]) + " " + unit + " is outside the valid range [-" + numberText(limit) + ", " +
                 numberText(limit) + "]");
  };
  bounded("mechanism", "gravity", m.gravity.data(), 3, kPlausibleAcceleration, "m/s2");
  for (const PartDef& p : m.parts) {
    bounded(p.id, "position", p.position.data(), 3, kPlausiblePosition, "m");
    bounded(p.id, "cm", p.cm.data(), 3, kPlausiblePosition, "m");
    for (const MarkerDef& k : p.markers) bounded(p.id + "." + k.id, "position", k.position.data(), 3, kPlausiblePosition, "m");
  }
  int grounds = 0;
  for (const PartDef& p : m.parts) {
    newId(p.id, "part");
    if (p.ground) {
      ++grounds;
    } else {
      if (!(p.mass >= 0.0)) fail(p.id, "mass", "must be >= 0 (0 only for kinematic analysis)");
      const auto& I = p.inertia;
      if (I[0] < 0 || I[1] < 0 || I[2] < 0) fail(p.id, "inertia", "principal moments Ixx, Iyy, Izz must be >= 0");
      // Triangle inequality of a physical inertia tensor (principal axes).
      if (I[0] + I[1] < I[2] * (1 - 1e-9) || I[1] + I[2] < I[0] * (1 - 1e-9) || I[0] + I[2] < I[1] * (1 - 1e-9))
        fail(p.id, "inertia", "Ixx, Iyy, Izz violate the triangle inequality (no rigid body has them)");
    }
    std::set<std::string> mk;
    for (const MarkerDef& k : p.markers)
      if (k.id.empty() || !mk.insert(k.id).second) fail(p.id, "markers", "empty or duplicate marker id '" + k.id + "'");
  }
  for (const FlexibleBodyDef& b : m.flexible_bodies) {
    newId(b.id, "flexible body");
    bounded(b.id, "position", b.position.data(), 3, kPlausiblePosition, "m");
    if (const auto e = beam::checkFlexibleBody(b)) fail(b.id, e->first, e->second);
  }
  if (grounds > 1) fail("mechanism", "parts", "more than one ground part");
  if (!m.parts.empty() && grounds == 0) fail("mechanism", "parts", "no ground part (mark one part \"ground\": true)");
  auto marker = [&](const std::string& ref, const std::string& o, const char* field, bool optional) {
    if (ref.empty()) {
      if (!optional) fail(o, field, "missing marker reference '<part>.<marker>'");
      return;
    }
    const auto dot = ref.find('.');
    if (dot == std::string::npos) fail(o, field, "marker reference '" + ref + "' must read '<part>.<marker>'");
    if (const FlexibleBodyDef* b = m.flexibleBody(ref.substr(0, dot))) {
      for (const BeamMarkerDef& k : b->markers)
        if (k.id == ref.substr(dot + 1)) return;
      fail(o, field, "flexible body '" + b->id + "' has no marker '" + ref.substr(dot + 1) + "'");
    }
    const PartDef* p = m.part(ref.substr(0, dot));
    if (!p) fail(o, field, "no part '" + ref.substr(0, dot) + "'");
    for (const MarkerDef& k : p->markers)
      if (k.id == ref.substr(dot + 1)) return;
    fail(o, field, "part '" + p->id + "' has no marker '" + ref.substr(dot + 1) + "'");
  };
  auto checkParams = [&](const MechTypeDecl& t, const std::map<std::string, double>& ps, const std::string& o) {
    for (const auto& [k, v] : ps) {
      const ParamDecl* d = t.param(k);
      if (!d) fail(o, "params." + k, "'" + t.name + "' has no parameter '" + k + "'");
      if (!d->accepts(v) && !(std::isinf(v) && (k == "lower" || k == "upper")))
        fail(o, "params." + k, "value " + numberText(v) + " " + d->unit + " is outside " + d->rangeText());
    }
  };
  std::set<std::string> jointIds;
  for (const JointDef& j : m.joints) {
    newId(j.id, "joint");
    jointIds.insert(j.id);
    const MechTypeDecl* t = findJointType(j.type);
    if (!t) fail(j.id, "type", "unknown joint type '" + j.type + "'");
    checkParams(*t, j.params, j.id);
    if (j.type == "coupler") {
      if (j.joints.size() != 2) fail(j.id, "joints", "a coupler names exactly two joints");
    } else {
      marker(j.i, j.id, "i", false);
      marker(j.j, j.id, "j", false);
      if (j.i.substr(0, j.i.find('.')) == j.j.substr(0, j.j.find('.')))
        fail(j.id, "j", "I and J are on the same part");
      const double lo = j.params.count("lower") ? j.params.at("lower") : -INFINITY;
      const double hi = j.params.count("upper") ? j.params.at("upper") : INFINITY;
      if (lo >= hi) fail(j.id, "params.upper", "upper limit must exceed the lower limit");
    }
  }
  for (const JointDef& j : m.joints)
    if (j.type == "coupler")
      for (const std::string& r : j.joints) {
        const JointDef* o = nullptr;
        for (const JointDef& k : m.joints)
          if (k.id == r) o = &k;
        if (!o) fail(j.id, "joints", "no joint '" + r + "'");
        if (o->type != "revolute" && o->type != "translational" && o->type != "cylindrical")
          fail(j.id, "joints", "joint '" + r + "' is " + o->type + "; couplers join revolute, translational or cylindrical joints");
      }
  for (const MotionDef& mo : m.motions) {
    newId(mo.id, "motion");
    const JointDef* jt = nullptr;
    for (const JointDef& k : m.joints)
      if (k.id == mo.joint) jt = &k;
    if (!jt) fail(mo.id, "joint", "no joint '" + mo.joint + "'");
    if (jt->type != "revolute" && jt->type != "translational" && jt->type != "cylindrical")
      fail(mo.id, "joint", "motions drive revolute, translational or cylindrical joints, not " + jt->type);
    if (mo.quantity != "displacement" && mo.quantity != "velocity")
      fail(mo.id, "quantity", "expected \"displacement\" or \"velocity\"");
    const MechTypeDecl* f = findMotionFunction(mo.function);
    if (!f) fail(mo.id, "function", "unknown function '" + mo.function + "' (constant, ramp, harmonic, step, table)");
    checkParams(*f, mo.params, mo.id);
    if (mo.function == "table") checkMotionTable(mo, fail);
    if (mo.function == "step" && mo.params.count("t1") && mo.params.count("t0") && !(mo.params.at("t1") > mo.params.at("t0")))
      fail(mo.id, "params.t1", "must be later than t0");
  }
  for (const ForceDef& f : m.forces) {
    newId(f.id, "force");
    const MechTypeDecl* t = findForceType(f.type);
    if (!t) fail(f.id, "type", "unknown force type '" + f.type + "'");
    checkParams(*t, f.params, f.id);
    marker(f.i, f.id, "i", false);
    marker(f.j, f.id, "j", t->j_optional);
    if (!f.ref.empty()) marker(f.ref, f.id, "ref", true);
    if (!f.j.empty() && f.i.substr(0, f.i.find('.')) == f.j.substr(0, f.j.find('.')))
      fail(f.id, "j", "I and J are on the same part");
    for (size_t i = 1; i < f.table.size(); ++i)
      if (!(f.table[i][0] > f.table[i - 1][0])) fail(f.id, "table[" + std::to_string(i) + "]", "times must increase");
  }
  checkContactsAndLatches(m, file, newId, marker, checkParams);
}

}  // namespace pm
