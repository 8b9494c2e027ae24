#include "model/mass_properties.h"

#include "model/orientation.h"

#include <Eigen/Dense>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace pm {

const std::vector<Material>& materials() {
  // Typical room-temperature densities of the grades machine builders use.
  static const std::vector<Material> list = {
      {"steel", 7850.0, "carbon and low-alloy steel"},
      {"stainless_steel", 8000.0, "austenitic stainless steel (1.4301, 1.4404)"},
      {"cast_iron", 7200.0, "grey cast iron"},
      {"aluminium", 2700.0, "aluminium alloys (6061, 6082)"},
      {"brass", 8500.0, "brass (CuZn39Pb3)"},
      {"copper", 8960.0, "copper"},
      {"titanium", 4430.0, "titanium alloy Ti-6Al-4V"},
      {"pom", 1410.0, "POM, acetal"},
      {"pa6", 1140.0, "nylon PA6"},
      {"abs", 1050.0, "ABS"},
  };
  return list;
}

const Material* findMaterial(const std::string& name) {
  const std::string key = name == "aluminum" ? "aluminium" : name;
  for (const Material& m : materials())
    if (m.name == key) return &m;
  return nullptr;
}

namespace {

using M3 = Eigen::Matrix3d;
using V3 = Eigen::Vector3d;

struct Solid {
  double volume = 0.0;
  V3 cm = V3::Zero();        // in the shape's frame
  M3 J = M3::Zero();         // per unit density, about cm, shape axes
};

// One shape of unit density in its own frame (the marker's): box and sphere
// centred on it, cylinder and tube from it along +z (as the 3D view draws
// them). nullopt for display-only shapes; `missing` names a size not given.
std::optional<Solid> solidOf(const Geometry& g, std::string* missing, std::string* bad) {
  auto size = [&](const char* k) {
    auto it = g.size.find(k);
    if (it == g.size.end()) {
      if (missing->empty()) *missing = k;
      return 0.0;
    }
    return it->second;
  };
  constexpr double pi = std::numbers::pi;
  Solid s;
  if (g.shape == "box") {
    const double a = size("lx"), b = size("ly"), c = size("lz");
    s.volume = a * b * c;
    s.J.diagonal() = V3(b * b + c * c, a * a + c * c, a * a + b * b) * (s.volume / 12.0);
  } else if (g.shape == "cylinder" || g.shape == "tube") {
    const double r2 = size("radius"), h = size("length");
    const double r1 = g.shape == "tube" ? size("inner_radius") : 0.0;
    if (missing->empty() && !(r1 < r2)) *bad = "inner_radius";
    const double rr = r1 * r1 + r2 * r2;
    s.volume = pi * (r2 * r2 - r1 * r1) * h;
    s.cm = V3(0, 0, h / 2);
    const double transverse = s.volume * (3 * rr + h * h) / 12.0;
    s.J.diagonal() = V3(transverse, transverse, s.volume * rr / 2.0);
  } else if (g.shape == "sphere") {
    const double r = size("radius");
    s.volume = 4.0 / 3.0 * pi * r * r * r;
    s.J.diagonal() = V3::Constant(0.4 * s.volume * r * r);
  } else {
    return std::nullopt;
  }
  return s;
}

// A mesh shape's solid: the file's closed surface, scaled to metres.
// Throws std::runtime_error naming the file.
Solid meshSolid(const Geometry& g, const MeshReader& readMesh) {
  TriangleMesh mesh = readMesh(g.file);
  if (const std::string why = closedMeshProblem(mesh); !why.empty())
    throw std::runtime_error(g.file + " is not a closed surface, so it has no volume: " + why);
  const auto it = g.size.find("scale");
  const double scale = it == g.size.end() ? 1.0 : it->second;
  if (!(scale > 0.0)) throw std::runtime_error("size.scale must be > 0");
  for (Vec3& v : mesh.vertices)
    for (double& x : v) x *= scale;
  const MeshIntegrals in = meshIntegrals(mesh);
  Solid s;
  s.volume = in.volume;
  s.cm = V3(in.cm[0], in.cm[1], in.cm[2]);
  const auto& I = in.inertia;
  s.J << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
  return s;
}

}  // namespace

std::optional<MassProperties> geometryMassProperties(const PartDef& p, double rho, MassPropertiesError* error,
                                                     const MeshReader& readMesh) {
  double volume = 0.0;
  V3 first = V3::Zero();  // sum of volume * cm
  std::vector<std::pair<double, std::pair<V3, M3>>> placed;
  for (size_t i = 0; i < p.geometry.size(); ++i) {
    const Geometry& g = p.geometry[i];
    const std::string where = "geometry[" + std::to_string(i) + "]";
    std::string missing, bad;
    std::optional<Solid> s = solidOf(g, &missing, &bad);
    if (g.shape == "mesh" && readMesh) {
      try {
        s = meshSolid(g, readMesh);
      } catch (const std::exception& e) {
        *error = {where + ".file", e.what()};
        return std::nullopt;
      }
    }
    if (!s) continue;
    if (!missing.empty()) {
      *error = {where + ".size." + missing, "missing: a " + g.shape + " needs it for the mass properties"};
      return std::nullopt;
    }
    if (!bad.empty()) {
      *error = {where + ".size." + bad, "must be smaller than the outer radius"};
      return std::nullopt;
    }
    V3 pos = V3::Zero();
    M3 R = M3::Identity();
    if (!g.marker.empty()) {
      const MarkerDef* mk = nullptr;
      for (const MarkerDef& k : p.markers)
        if (k.id == g.marker) mk = &k;
      if (!mk) {
        *error = {where + ".marker", "part '" + p.id + "' has no marker '" + g.marker + "'"};
        return std::nullopt;
      }
      pos = V3(mk->position[0], mk->position[1], mk->position[2]);
      R = rotationFromRpy(mk->orientation);
    }
    const V3 c = pos + R * s->cm;
    placed.push_back({s->volume, {c, R * s->J * R.transpose()}});
    volume += s->volume;
    first += s->volume * c;
  }
  if (placed.empty()) {
    *error = {"geometry", "no solid to compute the mass properties from (box, cylinder, tube, sphere or a closed "
                          "mesh; link shapes are display only)"};
    return std::nullopt;
  }
  const V3 cm = first / volume;
  M3 J = M3::Zero();
  for (const auto& [v, cj] : placed) {
    const V3 d = cj.first - cm;  // parallel-axis theorem about the common cm
    J += cj.second + v * (d.squaredNorm() * M3::Identity() - d * d.transpose());
  }
  J *= rho;
  MassProperties r;
  r.volume = volume;
  r.mass = rho * volume;
  r.cm = {cm.x(), cm.y(), cm.z()};
  r.inertia = {J(0, 0), J(1, 1), J(2, 2), J(0, 1), J(0, 2), J(1, 2)};
  return r;
}

std::optional<MassPropertiesError> applyMassProperties(PartDef& p, const MeshReader& readMesh) {
  if (p.mass_properties.empty()) {
    if (!p.material.empty()) return MassPropertiesError{"material", "needs \"mass_properties\": \"from_geometry\""};
    if (p.density != 0.0) return MassPropertiesError{"density", "needs \"mass_properties\": \"from_geometry\""};
    return std::nullopt;
  }
  if (p.mass_properties != "from_geometry")
    return MassPropertiesError{"mass_properties", "unknown value '" + p.mass_properties +
                                                      "' (\"from_geometry\", or leave it out to enter mass, cm and inertia)"};
  if (p.ground) return MassPropertiesError{"mass_properties", "the ground part has no mass properties"};
  if (!p.material.empty() && p.density != 0.0)
    return MassPropertiesError{"density", "give a material or a density, not both"};
  double rho = 0.0;
  if (!p.material.empty()) {
    const Material* m = findMaterial(p.material);
    if (!m) {
      std::string known;
      for (const Material& k : materials()) known += (known.empty() ? "" : ", ") + k.name;
      return MassPropertiesError{"material", "unknown material '" + p.material + "' (" + known + "; or give \"density\")"};
    }
    rho = m->density;
  } else if (p.density != 0.0) {
    if (!(p.density > 0.0) || !std::isfinite(p.density)) return MassPropertiesError{"density", "must be > 0 kg/m3"};
    rho = p.density;
  } else if (!(p.mass > 0.0)) {
    return MassPropertiesError{"mass", "must be > 0 kg (with \"from_geometry\": give a material, a density or a mass)"};
  }
  if (!readMesh)
    for (size_t i = 0; i < p.geometry.size(); ++i)
      if (p.geometry[i].shape == "mesh")
        return MassPropertiesError{"geometry[" + std::to_string(i) + "].file", "a mesh's volume needs its file, which is not at hand here"};
  MassPropertiesError error;
  // Unit density first: a given mass then sets the density.
  const std::optional<MassProperties> unit = geometryMassProperties(p, 1.0, &error, readMesh);
  if (!unit) return error;
  if (rho == 0.0) rho = p.mass / unit->volume;
  else p.mass = rho * unit->volume;
  p.cm = unit->cm;
  for (int k = 0; k < 6; ++k) p.inertia[k] = rho * unit->inertia[k];
  return std::nullopt;
}

}  // namespace pm
