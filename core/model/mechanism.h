// The mechanical half of the document: rigid parts with markers, joints,
// motion drivers and force elements, in the vocabulary of ADAMS (seed 004):
// joints and forces connect markers, a marker is a frame fixed on a part.
// SI units throughout (m, kg, rad, N, N m). Nothing here knows equations; the
// multibody engine (core/mechanics) compiles it.
#pragma once

#include "model/table.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pm {

using Vec3 = std::array<double, 3>;

// Orientation of a frame relative to its parent: roll-pitch-yaw angles [rad],
// R = Rz(yaw) Ry(pitch) Rx(roll) (fixed axes x, then y, then z).
struct MarkerDef {
  std::string id;  // unique within its part; referenced as "<part>.<marker>"
  Vec3 position{};     // in the part frame
  Vec3 orientation{};  // rpy in the part frame
  bool operator==(const MarkerDef&) const = default;
};

// Display geometry (the 3D view draws it); the equations use it only for a
// part whose mass properties come from it (core/model/mass_properties.h).
struct Geometry {
  std::string shape;  // box | cylinder | tube | sphere | link | mesh
  // box: lx ly lz; cylinder: radius length; tube: radius inner_radius length;
  // sphere: radius; link: width; mesh: scale
  std::map<std::string, double> size;
  std::string marker;                  // frame the shape sits in (part frame if empty)
  std::string marker2;                 // link: the second end
  std::string file;                    // mesh: STL/OBJ path relative to the project
  std::string color;                   // "#rrggbb"
  bool operator==(const Geometry&) const = default;
};

struct PartDef {
  std::string id;
  bool ground = false;
  double mass = 1.0;                          // kg
  Vec3 cm{};                                  // centre of mass in the part frame
  std::array<double, 6> inertia{1e-3, 1e-3, 1e-3, 0, 0, 0};  // Ixx Iyy Izz Ixy Ixz Iyz about the cm, part axes [kg m2]
  // "from_geometry": mass, cm and inertia are computed from the geometry's
  // solids (applyMassProperties) with the density of `material`, else
  // `density`, else the one that gives `mass`. Empty: as entered.
  std::string mass_properties;
  std::string material;
  double density = 0.0;  // kg/m3; 0 = not given
  Vec3 position{};                            // part frame origin in the world (initial)
  Vec3 orientation{};                         // rpy (initial)
  Vec3 velocity{};                            // of the part frame origin, world [m/s]
  Vec3 angular_velocity{};                    // world [rad/s]
  // The user's initial pose and velocity are kept where the constraints
  // allow: the assembly moves the other parts instead.
  bool initial_fixed = false;
  std::vector<MarkerDef> markers;
  std::vector<Geometry> geometry;
  bool operator==(const PartDef&) const = default;
};

// A joint's initial conditions (ADAMS's joint IC): its coordinate (revolute:
// angle [rad]; translational, cylindrical: travel [m]) and that coordinate's
// rate at t = 0. The assembly and the velocity projection hold them exactly.
struct JointInitial {
  std::optional<double> value, rate;
  bool empty() const { return !value && !rate; }
  bool operator==(const JointInitial&) const = default;
};

// The names of a joint's initial conditions in the file ("initial": {...}),
// as its result channels: {coordinate, rate}; none for types without.
inline std::optional<std::pair<const char*, const char*>> jointInitialNames(const std::string& type) {
  if (type == "revolute") return std::pair{"angle", "rate"};
  if (type == "translational" || type == "cylindrical") return std::pair{"displacement", "velocity"};
  return std::nullopt;
}

// Joints, forces and motions are typed elements with named scalar
// parameters (declared with units and ranges in core/mechanics) so that
// overrides, the property editor and validation treat them like components.
struct JointDef {
  std::string id;
  std::string type;   // fixed revolute translational cylindrical spherical universal planar coupler
  std::string i, j;   // markers "<part>.<marker>"; the joint moves I relative to J
  std::vector<std::string> joints;  // coupler: the two joints it couples
  std::map<std::string, double> params;
  JointInitial initial;
  bool operator==(const JointDef&) const = default;
};

struct MotionDef {
  std::string id;
  std::string joint;        // revolute, translational or cylindrical joint it drives
  std::string quantity = "displacement";  // displacement | velocity
  std::string function = "constant";      // constant ramp harmonic step table
  std::map<std::string, double> params;
  std::vector<std::array<double, 2>> table;  // (t, value) for function "table"
  Interpolation interpolation = kDefaultInterpolation;  // of the table
  bool operator==(const MotionDef&) const = default;
};

struct ForceDef {
  std::string id;
  std::string type;  // spring_damper rotational_spring_damper bushing sforce vforce vtorque impact
  std::string i, j;  // markers; j empty = action-only where the type allows it
  std::string ref;   // vforce/vtorque: marker whose axes give the components (ground if empty)
  std::map<std::string, double> params;
  std::vector<std::array<double, 2>> table;  // optional (t, value) table scaling the force
  Interpolation interpolation = kDefaultInterpolation;  // of the table
  bool operator==(const ForceDef&) const = default;
};

// A contact shape at a marker (issue 27): sphere (radius), box (lx ly lz),
// capsule (radius, length of the core segment along z), cylinder (radius,
// length along z), plane (the half-space z <= 0 of the marker), funnel
// (radius at its base z = 0, mouth_radius at z = length), mesh (triangles
// over `vertices` in the marker's frame [m], counter-clockwise seen from
// the side the other shape touches; or read from the STL/OBJ `file`, whose
// coordinates are multiplied by size.scale, default 1).
struct ContactShapeDef {
  std::string marker;  // "<part>.<marker>"
  std::string shape;
  std::map<std::string, double> size;
  std::vector<Vec3> vertices = {};                // mesh
  std::vector<std::array<int, 3>> triangles = {};  // mesh: vertex indices
  std::string file = {};                          // mesh: relative to the project file; fills vertices and triangles
  bool operator==(const ContactShapeDef&) const = default;
};

// Compliant contact between the shapes of two parts; the parameters
// (stiffness, friction, ...) are declared in core/mechanics/contact.
struct ContactDef {
  std::string id;
  ContactShapeDef i, j;  // the normal force pushes j's part away from i's
  std::map<std::string, double> params;
  bool operator==(const ContactDef&) const = default;
};

// A latch (issue 27): a joint of `type` (any type but coupler) between the
// markers i and j that is switched on when its condition holds and off
// when released. Engaging is a plastic impact: the velocities jump onto the
// new constraint, momentum conserved (docs/decisions/0021). The joint forms
// where the parts are at that instant: J's frame is taken at I's.
// Conditions (each one given must hold): the markers' distance at most
// params.capture_radius and not opening; the signal `engage` above 0.5.
// The signal `release` above 0.5 releases it; it engages again only after
// its condition has been false (re-armed).
struct LatchDef {
  std::string id;
  std::string type = "fixed";
  std::string i, j;  // markers "<part>.<marker>"
  std::map<std::string, double> params;
  std::string engage, release;  // signal references; empty: none
  bool operator==(const LatchDef&) const = default;
};

// A marker on a node of a flexible body: referenced "<body>.<marker>" like a
// part's marker; node 0 is the root, node `elements` the tip.
struct BeamMarkerDef {
  std::string id;
  int node = 0;
  Vec3 orientation{};  // rpy in the beam's axes (x along the beam)
  Vec3 position{};     // offset from the node in the beam's axes [m], carried rigidly by the node
  bool operator==(const BeamMarkerDef&) const = default;
};

// A flexible beam (issue #22): `elements` Euler-Bernoulli (or Timoshenko)
// elements along its x-axis from the root, which sits at `position` with
// `orientation`. Section and material are named numbers (SI) so that the
// file, the overrides and the editor treat them alike:
//   section_shape rectangle {hy, bz} | round {d} | tube {d, d_inner} | direct {A, Iy, Iz, J[, cy, cz]}
//   material {E, G or nu, density}; damping {beta} (stiffness-proportional) or {ratio}.
// The multibody engine compiles it into node bodies (core/mechanics/beam/beam_bodies.h).
struct FlexibleBodyDef {
  std::string id;
  double length = 1.0;  // m
  int elements = 10;
  std::string section_shape = "rectangle";
  std::map<std::string, double> section, material, damping;
  bool timoshenko = false;
  Vec3 position{};
  Vec3 orientation{};
  // The initial motion as a rigid body: the velocity of the frame's origin
  // (the root, `position`) and the angular velocity, world [m/s, rad/s].
  Vec3 velocity{};
  Vec3 angular_velocity{};
  std::vector<BeamMarkerDef> markers;
  bool operator==(const FlexibleBodyDef&) const = default;
};

struct Mechanism {
  Vec3 gravity{0.0, 0.0, -9.80665};
  std::vector<PartDef> parts;
  std::vector<FlexibleBodyDef> flexible_bodies;
  std::vector<JointDef> joints;
  std::vector<MotionDef> motions;
  std::vector<ForceDef> forces;
  std::vector<ContactDef> contacts;
  std::vector<LatchDef> latches;
  bool empty() const { return parts.empty(); }
  const PartDef* part(const std::string& id) const;
  const FlexibleBodyDef* flexibleBody(const std::string& id) const;
  bool operator==(const Mechanism&) const = default;
};

}  // namespace pm
