// The editable document: what the user draws and sets, in SI units.
// It is compiled into a runtime System (core/solver) for simulation; nothing
// here knows about equations.
#pragma once

#include "model/mechanism.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pm {

// Where a symbol sits on the schematic sheet (sheet units are mm).
struct Placement {
  double x = 0.0;
  double y = 0.0;
  int rotation = 0;  // degrees, multiple of 90
  bool mirror = false;
  bool operator==(const Placement&) const = default;
};

struct Point {
  double x = 0.0;
  double y = 0.0;
  bool operator==(const Point&) const = default;
};

// One instance of a registered component type.
struct Component {
  std::string id;    // stable, human readable: "cyl1", "v_5_2_a"
  std::string type;  // registry name: "cylinder_double", "valve_5_2_solenoid"
  std::string label; // free text shown on the sheet (ISO 1219-2 code "1A1")
  std::string part;  // catalogue part number (io/catalogue_file.h): its entry sets params
  std::map<std::string, double> params;       // SI; missing ones take the type default
  std::map<std::string, std::string> inputs;  // signal inputs: "<id>.<channel>" references
  nlohmann::json data;                        // structured data (tables, steps), checked by the type
  Placement placement;
  bool operator==(const Component&) const = default;
};

struct PortRef {
  std::string component;
  std::string port;
  bool operator==(const PortRef&) const = default;
  std::string str() const { return component + "." + port; }
};

// A line between two ports. Lines that share a port form one net.
struct Connection {
  std::string id;
  PortRef from;
  PortRef to;
  std::vector<Point> waypoints;  // schematic route between the two port positions
  bool operator==(const Connection&) const = default;
};

struct SimulationSettings {
  double t_end = 1.0;            // s
  double output_interval = 1e-3; // s
  double rel_tol = 1e-5;
  double abs_tol_pressure = 1.0;     // Pa
  double abs_tol_temperature = 1e-4; // K
  double abs_tol_position = 1e-8;    // m
  double max_step = 0.0;             // s, 0 = solver's choice
  double ambient_pressure = 101325.0;   // Pa absolute
  double ambient_temperature = 293.15;  // K
  // How circuit and mechanism are integrated: "monolithic" (one DAE) or
  // "cosimulation" (seed 000 backplane: two integrators exchanging stroke,
  // velocity and force every exchange_interval seconds).
  std::string coupling = "monolithic";
  double exchange_interval = 1e-3;  // s, cosimulation only
  // How the mechanism's equations are written for dynamics: "absolute"
  // (every part's absolute coordinates and the joints' multipliers, a
  // stabilised index-2 DAE) or "reduced" (coordinate partitioning: an ODE in
  // its degrees of freedom, constraints exact at every evaluation).
  std::string mechanism_formulation = "absolute";
  // Wall-clock seconds a run may take before it fails saying so (0: no
  // limit); a guard against a project that makes the solver crawl.
  double wall_time_limit = 0.0;
  bool operator==(const SimulationSettings&) const = default;
};

struct Metadata {
  std::string title;
  std::string customer;
  std::string author;
  std::string description;
  std::string notes;               // engineers' technical notes; the report leaves them out
  std::string logo;                // report logo image, relative to the project file's folder (or absolute)
  double requiredCycleTime = 0.0;  // s, the customer's required cycle time; 0: not stated
  bool operator==(const Metadata&) const = default;
};

struct Project {
  Metadata meta;
  std::vector<Component> components;
  std::vector<Connection> connections;
  SimulationSettings simulation;
  Mechanism mechanism;  // empty when the project is a circuit only
  // User component definitions the file carries (its `user_components`
  // section, docs/user-components.md), by type name, as written. Saving
  // adds those of every user type the project uses.
  std::map<std::string, nlohmann::json> userComponents;
  // Sections owned by later subsystems (controls, report) that this
  // version does not interpret yet; kept verbatim so nothing is lost on save.
  nlohmann::json extra = nlohmann::json::object();

  const Component* find(const std::string& id) const;
  Component* find(const std::string& id);
  bool operator==(const Project&) const = default;
};

}  // namespace pm
