// Mass properties from display geometry, as ADAMS computes a part's mass,
// centre of mass and inertia from its solids and a material. A part with
// "mass_properties": "from_geometry" (docs/file-format.md) takes its density
// from a named material, from "density", or from "mass" spread uniformly
// over the volume; its solids are box, cylinder, tube, sphere and closed
// meshes (STL, OBJ; read through a MeshReader, since files are io's
// business); link shapes are display only. Volumes are added, so
// overlapping solids count twice. SI: m, kg, kg/m3, kg m2.
#pragma once

#include "model/triangle_mesh.h"
#include "model/mechanism.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pm {

struct Material {
  std::string name;  // as written in files: "steel", "aluminium", ...
  double density;    // kg/m3
  std::string description;
};

// The materials offered by name (common engineering values).
const std::vector<Material>& materials();
const Material* findMaterial(const std::string& name);

// Mass, centre of mass and inertia of one solid of uniform density, in the
// part frame (the solid placed by its marker's pose `position`, `rpy`).
struct MassProperties {
  double mass = 0.0;
  double volume = 0.0;
  Vec3 cm{};
  std::array<double, 6> inertia{};  // Ixx Iyy Izz Ixy Ixz Iyz about cm, part axes (tensor entries)
};

// What is wrong, in the user's terms: the part's field ("material",
// "geometry[1].size.radius", ...) and a message.
struct MassPropertiesError {
  std::string field, message;
};

// The mesh a "mesh" shape's `file` names (io/mesh_file.h: meshReaderFor);
// throws std::exception whose message names the file.
using MeshReader = std::function<TriangleMesh(const std::string& file)>;

// Does nothing unless p.mass_properties is "from_geometry"; then sets
// p.mass, p.cm and p.inertia from p.geometry, or returns what is wrong.
// Without `readMesh`, a part with a mesh shape is refused (its solid is
// unknown).
std::optional<MassPropertiesError> applyMassProperties(PartDef& p, const MeshReader& readMesh = {});

// The properties of p's solids at density `rho` (volume-weighted sum);
// nullopt with `error` set when a solid lacks a size or a marker, or a mesh
// cannot be read or is not closed. Without `readMesh`, mesh shapes are
// skipped.
std::optional<MassProperties> geometryMassProperties(const PartDef& p, double rho, MassPropertiesError* error,
                                                     const MeshReader& readMesh = {});


}  // namespace pm
