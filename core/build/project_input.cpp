#include "build/project_input.h"

#include "build/catalogue_parts.h"
#include "build/validation.h"
#include "io/catalogue_file.h"
#include "io/mesh_file.h"
#include "io/project_file.h"
#include "mechanics/contact/contact_pair.h"
#include "model/component_type.h"
#include "model/mass_properties.h"
#include "model/mechanism_types.h"
#include "model/message_text.h"
#include "model/project_error.h"

#include <functional>
#include <map>
#include <stdexcept>

namespace pm {

Project loadProject(const std::string& path) {
  Project pr = readProjectFile(path);
  fillCatalogueParts(pr, path);
  validateProject(pr, path, false);
  return pr;
}

Project parseProject(const std::string& text, const std::string& name) {
  Project pr = parseProjectText(text, name);
  fillCatalogueParts(pr, name);
  validateProject(pr, name, false);
  return pr;
}

namespace {

// A numeric simulation setting: its member and SI unit ("1": a ratio).
struct NumericSetting {
  double SimulationSettings::*member;
  const char* unit;
};

const NumericSetting* numericSetting(const std::string& key) {
  using S = SimulationSettings;
  static const std::map<std::string, NumericSetting> settings = {
      {"t_end", {&S::t_end, "s"}},
      {"output_interval", {&S::output_interval, "s"}},
      {"rel_tol", {&S::rel_tol, "1"}},
      {"abs_tol_pressure", {&S::abs_tol_pressure, "Pa"}},
      {"abs_tol_temperature", {&S::abs_tol_temperature, "K"}},
      {"abs_tol_position", {&S::abs_tol_position, "m"}},
      {"max_step", {&S::max_step, "s"}},
      {"ambient_pressure", {&S::ambient_pressure, "Pa"}},
      {"ambient_temperature", {&S::ambient_temperature, "K"}},
      {"exchange_interval", {&S::exchange_interval, "s"}},
      {"wall_time_limit", {&S::wall_time_limit, "s"}}};
  const auto it = settings.find(key);
  return it == settings.end() ? nullptr : &it->second;
}

// Sets one simulation setting from `source` (--set, --t-end) and checks the
// settings again: a problem with that setting is the source's; one with
// another (the file's output_interval now longer than t_end) is the file's,
// with the change named. A refused change leaves the project as it was.
void setSimulation(Project& pr, const std::string& key, const std::function<void(SimulationSettings&)>& change,
                   const std::string& shown, const std::string& source, const std::string& file) {
  SimulationSettings s = pr.simulation;
  change(s);
  try {
    validateSimulation(s, file);
  } catch (const ProjectError& e) {
    if (e.field() == key) throw ProjectError(source, "simulation", key, e.message());
    throw ProjectError(file, "simulation", e.field(),
                       e.message() + " (with " + key + " = " + shown + " from " + source + ")");
  }
  pr.simulation = s;
}

}  // namespace

void setSimulationSetting(Project& pr, const std::string& key, double value, const std::string& source,
                          const std::string& file) {
  const NumericSetting* n = numericSetting(key);
  if (!n) throw ProjectError(source, "simulation", key, "no such numeric simulation setting");
  setSimulation(pr, key, [&](SimulationSettings& s) { s.*(n->member) = value; }, numberText(value), source, file);
}

std::optional<OverrideTarget> overrideTarget(const Project& pr, const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || dot == 0) return std::nullopt;
  const std::string obj = path.substr(0, dot), field = path.substr(dot + 1);
  if (obj == "simulation") {
    const NumericSetting* n = numericSetting(field);
    if (!n) return std::nullopt;
    ParamDecl d;
    d.name = field;
    d.unit = n->unit;
    return OverrideTarget{"simulation", d, pr.simulation.*(n->member)};
  }
  if (field == "part") return std::nullopt;
  auto declared = [&](const std::string& type, const ParamDecl* d,
                      const std::map<std::string, double>& params) -> std::optional<OverrideTarget> {
    if (!d) return std::nullopt;
    const auto it = params.find(field);
    return OverrideTarget{type, *d, it == params.end() ? d->def : it->second};
  };
  auto mech = [&](const MechTypeDecl* t, const std::map<std::string, double>& params) {
    return declared(t ? t->name : std::string(), t ? t->param(field) : nullptr, params);
  };
  const Mechanism& m = pr.mechanism;
  for (const JointDef& j : m.joints)
    if (j.id == obj) return mech(findJointType(j.type), j.params);
  for (const ForceDef& f : m.forces)
    if (f.id == obj) return mech(findForceType(f.type), f.params);
  for (const MotionDef& mo : m.motions)
    if (mo.id == obj) return mech(findMotionFunction(mo.function), mo.params);
  for (const ContactDef& c : m.contacts)
    if (c.id == obj) return mech(&contact::pairType(), c.params);
  for (const LatchDef& l : m.latches)
    if (l.id == obj) return mech(&latchType(), l.params);
  for (const PartDef& p : m.parts)
    if (p.id == obj) {
      if (field != "mass") return std::nullopt;
      ParamDecl d;
      d.name = field;
      d.unit = "kg";
      d.min = 0.0;  // applyOverride's check
      return OverrideTarget{"part", d, p.mass};
    }
  const Component* c = pr.find(obj);
  const ComponentType* t = c ? Registry::instance().find(c->type) : nullptr;
  return t ? declared(t->name, t->param(field), c->params) : std::nullopt;
}

std::string overrideUnit(const Project& pr, const std::string& path) {
  const std::optional<OverrideTarget> t = overrideTarget(pr, path);
  return t ? t->decl.unit : std::string();
}

void applyOverride(Project& pr, const std::string& a, const std::string& file) {
  const auto eq = a.find('=');
  const auto dot = a.rfind('.', eq);
  if (eq == std::string::npos || dot == std::string::npos || dot == 0)
    throw ProjectError("--set", "", a, "expected ID.PARAM=VALUE (SI units)");
  const std::string obj = a.substr(0, dot), field = a.substr(dot + 1, eq - dot - 1), val = a.substr(eq + 1);
  auto number = [&] {
    try {
      size_t used = 0;
      const double v = std::stod(val, &used);
      if (used != val.size()) throw std::invalid_argument("trailing characters");
      return v;
    } catch (const std::exception&) {
      throw ProjectError("--set", obj, field, "'" + val + "' is not a number");
    }
  };
  if (obj == "simulation") {
    if (!isSimulationKey(field))
      throw ProjectError("--set", obj, field, "no such simulation setting");
    if (field == "coupling")
      setSimulation(pr, field, [&](SimulationSettings& s) { s.coupling = val; }, val, "--set", file);
    else if (field == "mechanism_formulation")
      setSimulation(pr, field, [&](SimulationSettings& s) { s.mechanism_formulation = val; }, val, "--set", file);
    else
      setSimulationSetting(pr, field, number(), "--set", file);
    return;
  }
  if (field == "part") {  // a catalogue part number, not a number
    Component* c = pr.find(obj);
    if (!c) throw ProjectError("--set", obj, field, "no component with this id");
    return setCataloguePart(pr, *c, val, "--set");
  }
  const double v = number();
  // Mechanism objects: parameters of joints, forces and motions; part mass.
  Mechanism& m = pr.mechanism;
  auto setMech = [&](std::map<std::string, double>& params) {
    const auto before = params;
    params[field] = v;
    try {
      validateMechanism(m, "--set");
    } catch (...) {
      params = before;  // a rejected override leaves the project as it was
      throw;
    }
  };
  for (JointDef& j : m.joints)
    if (j.id == obj) return setMech(j.params);
  for (ForceDef& f : m.forces)
    if (f.id == obj) return setMech(f.params);
  for (MotionDef& mo : m.motions)
    if (mo.id == obj) return setMech(mo.params);
  for (ContactDef& c : m.contacts)
    if (c.id == obj) return setMech(c.params);
  for (LatchDef& l : m.latches)
    if (l.id == obj) return setMech(l.params);
  for (PartDef& p : m.parts)
    if (p.id == obj) {
      if (field != "mass") throw ProjectError("--set", obj, field, "parts take --set for 'mass' only");
      if (!(v >= 0.0)) throw ProjectError("--set", obj, field, "must be >= 0");
      p.mass = v;
      if (!p.mass_properties.empty()) {  // from the geometry: the mass given, its distribution kept
        p.material.clear();
        p.density = 0.0;
        if (auto e = applyMassProperties(p, meshReaderFor(file))) throw ProjectError("--set", obj, e->field, e->message);
      }
      return;
    }
  Component* c = pr.find(obj);
  if (!c) throw ProjectError("--set", obj, field, "no component, joint, force, motion, contact, latch or part with this id");
  const ComponentType* t = Registry::instance().find(c->type);
  const ParamDecl* d = t->param(field);
  if (!d) throw ProjectError("--set", obj, field, "type '" + c->type + "' has no parameter '" + field + "'");
  if (!d->accepts(v))
    throw ProjectError("--set", obj, field, "value " + val + " " + d->unit + " is outside " + d->rangeText());
  if (!c->part.empty())
    if (const catalogue::Entry* e = catalogue::processCatalogue().find(c->part); e && e->params.count(field))
      throw ProjectError("--set", obj, field, "set by part " + c->part + ": choose another part (" + obj + ".part)");
  c->params[field] = v;
}

}  // namespace pm
