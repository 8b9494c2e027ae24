// Declaration of a component type: everything a user, the file loader, the
// editor and the engine need to know about it, written once in the type's
// own class and registered in the global Registry.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pm {

struct Component;
class Element;

enum class Domain { Pneumatic, Mechanical, Signal };

// "pneumatic", "mechanical", "signal": as user component files write it.
const char* domainName(Domain d);

struct PortDecl {
  std::string name;  // ISO 5599-3 numbers where they exist: "1", "2", "4", "14"
  Domain domain = Domain::Pneumatic;
  std::string doc;
  // An unconnected port of this kind vents to atmosphere (valve exhausts 3, 5);
  // any other unconnected pneumatic port is plugged.
  bool vents_when_open = false;
};

struct ParamDecl {
  std::string name;
  std::string unit;  // SI unit as written in the CSV header and file format doc
  double def = 0.0;
  double min = -1e300;
  double max = 1e300;
  bool min_open = false;  // true: value must be > min (not >=)
  bool max_open = false;
  std::string doc;

  bool accepts(double v) const;
  std::string rangeText() const;  // "(0, 1)", "[0, inf)" for messages
};

// Physical plausibility: bounds that hold for every parameter of a unit on
// top of its declared range (Registry::add narrows the declaration to them),
// and for the matching simulation settings and mechanism values. Values
// beyond them do not describe a machine and make the solver crawl or
// overflow: an ambient 1e-300 K, a gravity of 1e30 m/s2, a volume of
// 1e-300 m3. A quantity declared strictly positive (0, max] starts at its
// unit's floor.
constexpr double kPlausiblePosition = 1e6;        // m, |x|
constexpr double kPlausibleTemperatureMin = 1.0;  // K
constexpr double kPlausibleTemperatureMax = 5000.0;
constexpr double kPlausiblePressure = 1e9;        // Pa, |p|
constexpr double kPlausiblePressureFloor = 1.0;   // Pa, absolute pressures
constexpr double kPlausibleAcceleration = 1e4;    // m/s2, gravity

// `d` with its range narrowed to the plausibility bounds of its unit.
ParamDecl plausible(ParamDecl d);

// A signal the type reads, given in the file as a "<id>.<channel>" reference.
struct InputDecl {
  std::string name;
  std::string doc;
  bool required = false;
};

struct ChannelDecl {
  std::string quantity;
  std::string unit;
  std::string doc;
};

struct ComponentType {
  std::string name;      // registry key, used in files: "cylinder_double"
  std::string category;  // "Supply", "Valves", "Actuators", ...
  std::string symbol;    // icons/<symbol>.svg
  std::string description;
  std::vector<PortDecl> ports;
  std::vector<ParamDecl> params;
  std::vector<InputDecl> inputs;
  std::vector<ChannelDecl> channels;

  std::function<std::unique_ptr<Element>(const Component&)> create;
  // Checks the instance's structured `data`; returns "field: message" errors.
  std::function<std::vector<std::string>(const Component&)> check_data;
  // A working example of the data, for a type that needs some (a time
  // table's points, a sequence's steps): what tests/test_registry.cpp runs
  // the type with, and what an editor may offer a new instance. Null: the
  // type needs none.
  nlohmann::json initial_data;
  // The instance's published signals that change only in its discrete
  // update (a sampled block's output, held between samples). A reader may
  // then treat them as constant between events (the proportional valve's
  // spool solved exactly for a held command). Unset: none.
  std::function<std::vector<std::string>(const Component&)> held_outputs;
  // The signal references ("<id>.<channel>") written inside an instance's
  // `data` (a sequence's step conditions, a script's inputs): `visit` sees
  // each and may rewrite it (a sub-circuit's expansion renames the inner
  // ids, build/subcircuit_expansion.h). Unset: the data names none.
  using RefVisitor = std::function<void(std::string&)>;
  std::function<void(nlohmann::json& data, const RefVisitor& visit)> data_refs;
  // A user component (core/user): the file it was read from, and its
  // definition as written, which a project that uses it carries along
  // (its `user_components` section). Both empty for a built-in type.
  std::string origin;
  nlohmann::json definition;
  // A user type's own symbol, the SVG's text (read from its file, or
  // carried in the definition as `symbol_svg` by a saved project): what the
  // studio draws. Empty: the generated box.
  std::string symbol_svg;

  const PortDecl* port(const std::string& n) const;
  const ParamDecl* param(const std::string& n) const;
  const InputDecl* input(const std::string& n) const;
};

class Registry {
 public:
  static Registry& instance();
  void add(ComponentType type);
  // A user component type: replaces an earlier user type of its name (a
  // project's own copy over the library's); throws std::invalid_argument
  // when a built-in type has the name, or a default is implausible.
  void addUser(ComponentType type);
  const ComponentType* find(const std::string& name) const;
  std::vector<const ComponentType*> all() const;  // sorted by category, then name
  // Every type with its ports (name, domain), signal inputs and parameters
  // (SI unit, default, range, description): what `pneumech types` prints
  // and the studio's Help > Component reference.
  std::string reference() const;

 private:
  std::map<std::string, ComponentType> types_;
};

// Parameter value of a component: its own value, else the type default.
double paramValue(const Component& c, const ComponentType& t, const std::string& name);

// Convenience for element constructors: P("bore") is the SI value.
class Params {
 public:
  explicit Params(const Component& c);
  double operator()(const std::string& name) const;
  const ComponentType& type() const { return *t_; }

 private:
  const Component& c_;
  const ComponentType* t_;
};

// One line in a component's .cpp registers it:  PM_REGISTER(Cylinder);
// The class supplies `static ComponentType declare();`.
#define PM_REGISTER(Class)                                                    \
  namespace {                                                                 \
  const bool registered_##Class = [] {                                        \
    ::pm::Registry::instance().add(Class::declare());                         \
    return true;                                                              \
  }();                                                                        \
  }

}  // namespace pm
