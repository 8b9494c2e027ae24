#include "mechanics/beam/beam_bodies.h"

#include "mechanics/beam/beam_modes.h"
#include "mechanics/spatial.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace pm::beam {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& msg) {
  throw std::invalid_argument(field + ": " + msg);
}

// Only the named keys, each a positive finite number; `required` must all be there.
void onlyKeys(const std::map<std::string, double>& m, const std::string& group, const std::set<std::string>& allowed,
              const std::string& what) {
  for (const auto& [k, v] : m) {
    if (!allowed.count(k)) bad(group + "." + k, "not a field of " + what);
    if (!(v > 0.0) || !std::isfinite(v)) bad(group + "." + k, "must be a positive number");
  }
}

double need(const std::map<std::string, double>& m, const std::string& group, const char* key) {
  auto it = m.find(key);
  if (it == m.end()) bad(group + "." + key, "missing field");
  return it->second;
}

BeamSection sectionOf(const FlexibleBodyDef& d) {
  const auto& s = d.section;
  const std::string& shape = d.section_shape;
  if (shape == "rectangle") {
    onlyKeys(s, "section", {"hy", "bz"}, "a rectangle (hy: height along y, bz: width along z)");
    return BeamSection::rectangle(need(s, "section", "hy"), need(s, "section", "bz"));
  }
  if (shape == "round") {
    onlyKeys(s, "section", {"d"}, "a round section (d: diameter)");
    return BeamSection::round(need(s, "section", "d"));
  }
  if (shape == "tube") {
    onlyKeys(s, "section", {"d", "d_inner"}, "a tube (d, d_inner: outer and inner diameter)");
    const double o = need(s, "section", "d"), i = need(s, "section", "d_inner");
    if (!(i < o)) bad("section.d_inner", "must be smaller than the outer diameter d");
    return BeamSection::tube(o, i);
  }
  if (shape == "direct") {
    onlyKeys(s, "section", {"A", "Iy", "Iz", "J", "cy", "cz"}, "a direct section (A, Iy, Iz, J, optional cy, cz)");
    auto opt = [&](const char* k) { return s.count(k) ? s.at(k) : 0.0; };
    return BeamSection::direct(need(s, "section", "A"), need(s, "section", "Iy"), need(s, "section", "Iz"),
                               need(s, "section", "J"), opt("cy"), opt("cz"));
  }
  bad("section.shape", "unknown shape '" + shape + "' (rectangle, round, tube, direct)");
}

BeamMaterial materialOf(const FlexibleBodyDef& d) {
  const auto& m = d.material;
  onlyKeys(m, "material", {"E", "G", "nu", "density"}, "a material (E, G or nu, density)");
  const double E = need(m, "material", "E"), rho = need(m, "material", "density");
  if (m.count("G") == m.count("nu")) bad("material.G", "give exactly one of G and nu");
  if (m.count("nu")) {
    if (!(m.at("nu") < 0.5)) bad("material.nu", "must lie in (0, 0.5)");
    return BeamMaterial::withPoisson(E, m.at("nu"), rho);
  }
  return BeamMaterial::withG(E, m.at("G"), rho);
}

}  // namespace

std::string nodeBodyId(const std::string& beam, int node) { return beam + "_n" + std::to_string(node); }

BeamSpec beamSpecOf(const FlexibleBodyDef& d) {
  if (!(d.length > 0.0) || !std::isfinite(d.length)) bad("length", "must be a positive number [m]");
  if (d.elements < 1 || d.elements > 1000) bad("elements", "must lie in [1, 1000]");
  BeamSpec s;
  s.length = d.length;
  s.elements = d.elements;
  s.material = materialOf(d);
  s.section = sectionOf(d);
  s.timoshenko = d.timoshenko;
  s.rotaryInertia = d.timoshenko;
  return s;
}

std::optional<std::pair<std::string, std::string>> checkFlexibleBody(const FlexibleBodyDef& d) {
  try {
    const FlexibleBeam b(beamSpecOf(d));
    for (const auto& [k, v] : d.damping) {
      if (k == "alpha")
        bad("damping.alpha",
            "mass-proportional damping would damp the beam's rigid motion (its nodes move in absolute coordinates); "
            "use beta or ratio");
      if (k != "beta" && k != "ratio") bad("damping." + k, "not a field of damping (beta [s] or ratio)");
      if (!(v >= 0.0) || !std::isfinite(v)) bad("damping." + k, "must be a number >= 0");
    }
    if (d.damping.size() > 1) bad("damping", "give beta or ratio, not both");
    if (d.damping.count("ratio") && !(d.damping.at("ratio") < 1.0)) bad("damping.ratio", "must be below 1");
    std::set<std::string> ids;
    for (const BeamMarkerDef& k : d.markers) {
      if (k.id.empty() || !ids.insert(k.id).second) bad("markers", "empty or duplicate marker id '" + k.id + "'");
      if (k.node < 0 || k.node > d.elements)
        bad("markers." + k.id + ".node",
            "node " + std::to_string(k.node) + " does not exist (0 .. " + std::to_string(d.elements) + ")");
    }
  } catch (const std::invalid_argument& e) {
    std::string w = e.what();
    if (w.rfind("beam: ", 0) == 0) w = w.substr(6);  // the section and material checks' own prefix
    const auto colon = w.find(": ");
    if (colon != std::string::npos && w.find(' ') > colon) return std::pair{w.substr(0, colon), w.substr(colon + 2)};
    return std::pair{std::string("section"), w};
  }
  return std::nullopt;
}

NodeInertia nodeInertia(const FlexibleBeam& b, int node) {
  const double l = b.spec().length / b.elementCount();
  const double share = (node == 0 || node == b.elementCount()) ? l / 2.0 : l;
  const double rho = b.spec().material.density;
  const BeamSection& s = b.spec().section;
  NodeInertia n;
  n.mass = rho * s.A * share;
  n.inertia = {rho * (s.Iy + s.Iz) * share, rho * s.Iy * share, rho * s.Iz * share};
  return n;
}

double dampingBeta(const FlexibleBodyDef& d, const FlexibleBeam& b) {
  if (d.damping.count("beta")) return d.damping.at("beta");
  if (!d.damping.count("ratio") || d.damping.at("ratio") == 0.0) return 0.0;
  const SparseMatrix M = b.mass();
  const Modes m = naturalModes(b.stiffness(), M);
  double w1 = INFINITY;
  for (Family f : {Family::BendingXY, Family::BendingXZ})
    if (const auto w = familyFrequencies(b, M, m, f); !w.empty()) w1 = std::min(w1, w.front());
  return 2.0 * d.damping.at("ratio") / w1;
}

namespace {

void addBeam(const FlexibleBodyDef& d, Mechanism& out) {
  BeamSpec spec;
  try {
    spec = beamSpecOf(d);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(d.id + ": " + e.what());
  }
  const FlexibleBeam beam(spec);
  const mb::M3 R = mb::fromRpy(d.orientation);
  const mb::V3 root = mb::v3(d.position);
  for (int j = 0; j < beam.nodeCount(); ++j) {
    PartDef p;
    p.id = nodeBodyId(d.id, j);
    if (out.part(p.id) || out.flexibleBody(p.id))
      throw std::runtime_error(p.id + ": id: the flexible body '" + d.id + "' names its node bodies so; rename this part");
    const NodeInertia ni = nodeInertia(beam, j);
    p.mass = ni.mass;
    p.inertia = {ni.inertia[0], ni.inertia[1], ni.inertia[2], 0, 0, 0};
    const mb::V3 x = root + R * mb::V3(beam.nodeX(j), 0, 0);
    p.position = {x[0], x[1], x[2]};
    p.orientation = d.orientation;
    // The body's initial motion, rigid: each node on the frame's velocity field.
    const mb::V3 w = mb::v3(d.angular_velocity), v = mb::v3(d.velocity) + w.cross(x - root);
    p.velocity = {v[0], v[1], v[2]};
    p.angular_velocity = d.angular_velocity;
    p.markers.push_back({kNodeMarker, {}, {}});
    for (const BeamMarkerDef& k : d.markers)
      if (k.node == j) p.markers.push_back({k.id, k.position, k.orientation});
    out.parts.push_back(std::move(p));
  }
  // The element's stiffness of its tip-side node with the root-side node
  // clamped: rows 6..11 (u, v, w, theta_x, theta_y, theta_z) of the 12.
  const Mat12& K = beam.element().stiffness();
  const double beta = dampingBeta(d, beam);
  for (int e = 0; e < beam.elementCount(); ++e) {
    ForceDef f;
    f.id = d.id + "_e" + std::to_string(e);
    f.type = "beam_segment";
    f.i = nodeBodyId(d.id, e + 1) + "." + kNodeMarker;
    f.j = nodeBodyId(d.id, e) + "." + kNodeMarker;
    f.params = {{"kuu", K(6, 6)},   {"kvv", K(7, 7)},   {"kvz", K(7, 11)}, {"kzz", K(11, 11)}, {"kww", K(8, 8)},
                {"kwy", K(8, 10)},  {"kyy", K(10, 10)}, {"kxx", K(9, 9)},  {"beta", beta},     {"length", beam.element().length()},
                {"A", spec.section.A}, {"Iy", spec.section.Iy}, {"Iz", spec.section.Iz}, {"cy", spec.section.cy},
                {"cz", spec.section.cz}, {"round", spec.section.shape == BeamSection::Shape::Round ||
                                                        spec.section.shape == BeamSection::Shape::Tube}};
    out.forces.push_back(std::move(f));
  }
  ForceDef tip;
  tip.id = d.id;
  tip.type = "beam_tip";
  tip.i = nodeBodyId(d.id, beam.elementCount()) + "." + kNodeMarker;
  tip.j = nodeBodyId(d.id, 0) + "." + kNodeMarker;
  tip.params = {{"length", spec.length}, {"segments", spec.elements}};
  out.forces.push_back(std::move(tip));
}

}  // namespace

Mechanism withNodeBodies(const Mechanism& m) {
  Mechanism out = m;
  if (m.flexible_bodies.empty()) return out;
  out.flexible_bodies.clear();
  for (const FlexibleBodyDef& d : m.flexible_bodies) addBeam(d, out);
  return out;
}

std::string userMarkerName(const Mechanism& m, const std::string& name) {
  for (const FlexibleBodyDef& d : m.flexible_bodies)
    for (const BeamMarkerDef& k : d.markers)
      if (name == nodeBodyId(d.id, k.node) + "." + k.id) return d.id + "." + k.id;
  return name;
}

}  // namespace pm::beam
