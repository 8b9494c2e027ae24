#include "model/component_type.h"

#include "model/project.h"
#include "model/user_types.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace pm {

bool ParamDecl::accepts(double v) const {
  if (!std::isfinite(v)) return false;
  if (min_open ? !(v > min) : !(v >= min)) return false;
  if (max_open ? !(v < max) : !(v <= max)) return false;
  return true;
}

std::string ParamDecl::rangeText() const {
  auto num = [](double v) {
    if (v <= -1e299) return std::string("-inf");
    if (v >= 1e299) return std::string("inf");
    std::ostringstream s;
    s << v;
    return s.str();
  };
  // One stream, not string operator+ chains: GCC 12 warns (-Wrestrict) on those.
  std::ostringstream s;
  s << (min_open ? "(" : "[") << num(min) << ", " << num(max) << (max_open ? ")" : "]");
  return s.str();
}

template <class T>
static const T* byName(const std::vector<T>& v, const std::string& n) {
  for (const auto& x : v)
    if (x.name == n) return &x;
  return nullptr;
}

const PortDecl* ComponentType::port(const std::string& n) const { return byName(ports, n); }
const ParamDecl* ComponentType::param(const std::string& n) const { return byName(params, n); }
const InputDecl* ComponentType::input(const std::string& n) const { return byName(inputs, n); }

Registry& Registry::instance() {
  static Registry r;
  return r;
}

namespace {
// User types withdrawn (model/user_types.h): kept in the registry's map,
// not found. And the user types another file's type of their name
// replaced (the library's, under a project's copy), oldest first.
std::set<std::string>& withdrawn() {
  static std::set<std::string> s;
  return s;
}
std::map<std::string, std::vector<ComponentType>>& shadowed() {
  static std::map<std::string, std::vector<ComponentType>> s;
  return s;
}
}  // namespace

void withdrawUserType(const std::string& name, const std::set<std::string>& origins) {
  Registry& r = Registry::instance();
  const ComponentType* t = r.find(name);
  if (!t || t->origin.empty()) return;
  const bool current = origins.count(t->origin) > 0;
  auto sh = shadowed().find(name);
  if (sh != shadowed().end()) {
    std::erase_if(sh->second, [&](const ComponentType& s) { return origins.count(s.origin) > 0; });
    if (sh->second.empty()) shadowed().erase(sh);
  }
  if (!current) return;
  sh = shadowed().find(name);
  if (sh == shadowed().end()) {
    withdrawn().insert(name);
    return;
  }
  ComponentType back = std::move(sh->second.back());
  sh->second.pop_back();
  if (sh->second.empty()) shadowed().erase(sh);
  withdrawn().insert(name);  // so the copy withdrawn is not kept below the one back
  r.addUser(std::move(back));
}

ParamDecl plausible(ParamDecl d) {
  struct Bound {
    const char* unit;
    double lo, hi;  // for any value of the unit
    double floor;   // the smallest value of a strictly positive one
  };
  static const Bound kBounds[] = {
      {"m", -kPlausiblePosition, kPlausiblePosition, 1e-6},
      {"K", kPlausibleTemperatureMin, kPlausibleTemperatureMax, kPlausibleTemperatureMin},
      {"Pa", -kPlausiblePressure, kPlausiblePressure, kPlausiblePressureFloor},
      {"m3", 0.0, 1e6, 1e-12},
      {"kg", 0.0, 1e9, 1e-6},
      {"kg m2", 0.0, 1e9, 1e-12},
      {"s", -1e9, 1e9, 1e-9},
  };
  for (const Bound& b : kBounds) {
    if (d.unit != b.unit) continue;
    if (d.min == 0.0 && d.min_open) {
      d.min = b.floor;
      d.min_open = false;
    }
    if (d.min < b.lo) d.min = b.lo, d.min_open = false;
    if (d.max > b.hi) d.max = b.hi, d.max_open = false;
  }
  return d;
}

void Registry::add(ComponentType type) {
  if (types_.count(type.name)) throw std::logic_error("component type registered twice: " + type.name);
  for (ParamDecl& p : type.params) {
    p = plausible(std::move(p));
    if (!p.accepts(p.def)) throw std::logic_error(type.name + "." + p.name + ": default outside the plausible range");
  }
  types_.emplace(type.name, std::move(type));
}

void Registry::addUser(ComponentType type) {
  auto it = types_.find(type.name);
  if (it != types_.end() && it->second.origin.empty())
    throw std::invalid_argument("'" + type.name + "' is the name of a built-in component type");
  for (ParamDecl& p : type.params) {
    p = plausible(std::move(p));
    if (!p.accepts(p.def))
      throw std::invalid_argument("parameter '" + p.name + "': default outside the range " + p.rangeText());
  }
  const bool hidden = withdrawn().erase(type.name) > 0;
  if (it == types_.end()) {
    types_.emplace(type.name, std::move(type));
    return;
  }
  // Another file's type of the name is kept, to come back when this one is
  // withdrawn; the same file's earlier version (an edit) is not.
  if (!hidden && it->second.origin != type.origin) {
    std::vector<ComponentType>& below = shadowed()[type.name];
    std::erase_if(below, [&](const ComponentType& s) { return s.origin == type.origin; });
    below.push_back(std::move(it->second));
  }
  it->second = std::move(type);  // in place: pointers to the entry stay valid
}

const ComponentType* Registry::find(const std::string& name) const {
  auto it = types_.find(name);
  return it == types_.end() || withdrawn().count(name) ? nullptr : &it->second;
}

std::vector<const ComponentType*> Registry::all() const {
  std::vector<const ComponentType*> v;
  for (const auto& [n, t] : types_)
    if (!withdrawn().count(n)) v.push_back(&t);
  std::sort(v.begin(), v.end(), [](auto a, auto b) {
    return std::tie(a->category, a->name) < std::tie(b->category, b->name);
  });
  return v;
}

double paramValue(const Component& c, const ComponentType& t, const std::string& name) {
  auto it = c.params.find(name);
  if (it != c.params.end()) return it->second;
  const ParamDecl* p = t.param(name);
  // The element asked for a name its type does not declare: the program's
  // defect (tests/test_registry.cpp runs every type to keep it so).
  if (!p) throw std::logic_error("type " + t.name + " reads a parameter '" + name + "' it does not declare");
  return p->def;
}

Params::Params(const Component& c) : c_(c), t_(Registry::instance().find(c.type)) {
  if (!t_) throw std::logic_error("unknown component type " + c.type);
}

double Params::operator()(const std::string& name) const { return paramValue(c_, *t_, name); }

const char* domainName(Domain d) {
  switch (d) {
    case Domain::Pneumatic: return "pneumatic";
    case Domain::Mechanical: return "mechanical";
    case Domain::Signal: return "signal";
  }
  return "";
}

std::string Registry::reference() const {
  std::ostringstream o;
  for (const ComponentType* t : all()) {
    o << t->name << "  (" << t->category << ")  " << t->description
      << (t->origin.empty() ? "" : "  [user component: " + t->origin + "]") << "\n";
    for (const PortDecl& p : t->ports)
      o << "    port " << p.name << " (" << domainName(p.domain) << ")" << (p.doc.empty() ? "" : "  " + p.doc) << "\n";
    for (const InputDecl& in : t->inputs)
      o << "    input " << in.name << " (signal" << (in.required ? ", required" : "") << ")"
        << (in.doc.empty() ? "" : "  " + in.doc) << "\n";
    for (const auto& p : t->params)
      o << "    " << p.name << " [" << p.unit << "] default " << p.def << " range " << p.rangeText() << "  " << p.doc
        << "\n";
  }
  return o.str();
}

}  // namespace pm
