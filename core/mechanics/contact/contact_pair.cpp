#include "mechanics/contact/contact_pair.h"

#include "mechanics/contact/mesh_shape.h"
#include "mechanics/contact/shape_sizes.h"
#include "model/message_text.h"
#include "mechanics/impact_force.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pm::contact {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

ParamDecl P(const char* n, const char* u, double def, double lo, double hi, const char* doc, bool loOpen = false) {
  ParamDecl d;
  d.name = std::string(n);
  d.unit = std::string(u);
  d.def = def;
  d.min = lo;
  d.max = hi;
  d.min_open = loOpen;
  d.doc = std::string(doc);
  return d;
}

MechTypeDecl makePairType() {
  MechTypeDecl t;
  t.name = "contact";
  t.description =
      "Compliant contact between two shapes: IMPACT normal force k d^e + damping ramped over the depth at each "
      "contact point, Coulomb friction regularised between the stiction and transition velocities";
  t.params = {P("stiffness", "N/m^e", 1e6, 0, inf, "contact stiffness k", true),
              P("exponent", "1", 1.5, 1, 10, "force exponent e (1.5: Hertz)"),
              P("damping", "N s/m", 100, 0, inf, "maximum damping, reached at the penetration `depth`"),
              P("depth", "m", 1e-4, 0, inf, "penetration at which the damping is full", true),
              P("mu_static", "1", 0, 0, 10, "static friction coefficient"),
              P("mu_dynamic", "1", 0, 0, 10, "dynamic (sliding) friction coefficient"),
              P("stiction_velocity", "m/s", 1e-4, 0, inf, "slip speed at which friction reaches mu_static", true),
              P("transition_velocity", "m/s", 1e-3, 0, inf, "slip speed from which friction is mu_dynamic", true),
              P("stiction_deformation", "m", 0, 0, inf,
                "tangential deflection at which a stuck pair breaks away (a stick state that holds without "
                "creeping; 0: the velocity law alone, which creeps below stiction_velocity)"),
              P("torsion_radius", "m", 0, 0, inf,
                "a contact point's own arm for twisting friction with a stick state: one point holds up to "
                "mu_static N torsion_radius about the normal (a uniform disc of radius a: 2 a / 3)")};
  return t;
}

double sizeOf(const ContactShapeDef& d, const char* n) {
  auto it = d.size.find(n);
  return it == d.size.end() ? 0.0 : it->second;
}

}  // namespace

const MechTypeDecl& pairType() {
  static const MechTypeDecl t = makePairType();
  return t;
}

namespace {

std::optional<ShapeError> meshOf(const ContactShapeDef& d, const ShapeDecl& decl, Shape& out) {
  const SizeDecl& scale = decl.sizes.front();
  for (const auto& [k, v] : d.size) {
    if (k != scale.name || d.file.empty())
      return ShapeError{"size." + k, d.file.empty() ? "a mesh given by its vertices takes no size"
                                                    : "a mesh takes only size.scale (" + scale.description + ")"};
    if (!(v > 0.0) || !std::isfinite(v))
      return ShapeError{"size.scale", numberText(v) + " is not a scale: " + scale.description + "; it must be > 0"};
  }
  if (auto p = MeshShape::check(d.vertices, d.triangles))
    return ShapeError{p->field, (d.file.empty() ? "" : "(from " + d.file + ") ") + p->message};
  out = Shape::triangles(std::make_shared<const MeshShape>(d.vertices, d.triangles));
  return std::nullopt;
}

// The sizes of `d` against those its shape declares: none unknown, none
// missing, each a finite length > 0.
std::optional<ShapeError> checkSizes(const ContactShapeDef& d, const ShapeDecl& decl) {
  const std::string all = decl.sizeNames();
  for (const auto& [k, v] : d.size)
    if (!decl.size(k)) return ShapeError{"size." + k, "a " + d.shape + " has no size '" + k + "' (it takes: " + all + ")"};
  for (const SizeDecl& s : decl.sizes) {
    auto it = d.size.find(s.name);
    if (it == d.size.end())
      return ShapeError{"size." + s.name, "missing: " + s.description + " [" + s.unit + "] (a " + d.shape +
                                              " takes: " + all + ")"};
    if (!(it->second > 0.0) || !std::isfinite(it->second))
      return ShapeError{"size." + s.name, numberText(it->second) + " " + s.unit + " is not a size: " + s.description +
                                              " must be a finite length > 0 " + s.unit};
  }
  return std::nullopt;
}

}  // namespace

std::optional<ShapeError> shapeOf(const ContactShapeDef& d, Shape& out) {
  const ShapeDecl* decl = findShapeDecl(d.shape);
  if (!decl) {
    std::string names;
    for (const ShapeDecl& s : shapeDecls()) names += (names.empty() ? "" : ", ") + s.name;
    return ShapeError{"shape", "unknown shape '" + d.shape + "' (" + names + ")"};
  }
  if (d.shape == "mesh") return meshOf(d, *decl, out);
  if (!d.vertices.empty() || !d.triangles.empty() || !d.file.empty())
    return ShapeError{d.file.empty() ? "vertices" : "file", "only a mesh has vertices, triangles or a file"};
  if (auto e = checkSizes(d, *decl)) return e;
  const double r = sizeOf(d, "radius"), L = sizeOf(d, "length");
  if (d.shape == "sphere") out = Shape::sphere(r);
  else if (d.shape == "box") out = Shape::box(0.5 * V3(sizeOf(d, "lx"), sizeOf(d, "ly"), sizeOf(d, "lz")));
  else if (d.shape == "capsule") out = Shape::capsule(r, 0.5 * L);
  else if (d.shape == "cylinder") out = Shape::cylinder(r, 0.5 * L);
  else if (d.shape == "plane") out = Shape::plane();
  else out = Shape::funnel(r, sizeOf(d, "mouth_radius"), L);
  return std::nullopt;
}

std::optional<ShapeError> checkPairParams(const std::map<std::string, double>& params) {
  auto get = [&](const char* n) {
    auto it = params.find(n);
    return it == params.end() ? pairType().param(n)->def : it->second;
  };
  if (!(get("transition_velocity") > get("stiction_velocity")))
    return ShapeError{"params.transition_velocity", "must be larger than stiction_velocity"};
  return std::nullopt;
}

PairRT makePair(const ContactDef& d, int markerI, int markerJ) {
  PairRT p;
  p.id = d.id;
  p.I = markerI;
  p.J = markerJ;
  shapeOf(d.i, p.a);  // checked by validation
  shapeOf(d.j, p.b);
  auto get = [&](const char* n) {
    auto it = d.params.find(n);
    return it == d.params.end() ? pairType().param(n)->def : it->second;
  };
  p.impact = {get("stiffness"), get("exponent"), get("damping"), get("depth")};
  p.friction = {get("mu_static"), get("mu_dynamic"), get("stiction_velocity"), get("transition_velocity"),
                get("stiction_deformation"), get("torsion_radius")};
  return p;
}

PairResult evaluate(const PairRT& p, const Frame& fa, const BodyMotion& ma, const Frame& fb, const BodyMotion& mb,
                    const double* stick, StickRate* stickRate) {
  PairResult r;
  r.geometry = collide(p.a, fa, p.b, fb);
  const Contact& c = r.geometry;
  const V3& n = c.normal;
  Bristle bristle;
  double pairSlip = 0.0, arm = 0.0;
  if (stick) {
    const V3 z(stick[0], stick[1], stick[2]), zn = n.dot(z) * n;
    const double s = stick[3];
    const double relax = p.friction.stictionVelocity / p.friction.stictionDeformation;
    if (c.touching()) {
      // The slip at the points' centre, weighted by their normal forces.
      std::vector<double> f;
      for (const ContactPoint& cp : c.points) {
        const V3 vRel = mb.velocityAt(cp.point) - ma.velocityAt(cp.point);
        f.push_back(bristlePointForce(cp, cp.normal, vRel, p.impact, Bristle{}).normal);
      }
      const TwistArm ta = twistArm(c.points, f, n, p.friction.torsionRadius);
      const V3& centre = ta.centre;
      arm = ta.arm;
      const V3 vRel = mb.velocityAt(centre) - ma.velocityAt(centre), vt = vRel - n.dot(vRel) * n;
      pairSlip = vt.norm();
      bristle = bristleFriction(z - zn, vt, p.friction, s, arm * n.dot(mb.w - ma.w));
      bristle.rate -= relax * zn;  // z stays across the normal
    } else {
      bristle.rate = -relax * z;
      bristle.twistRate = -relax * s;
    }
    if (stickRate) *stickRate << bristle.rate, bristle.twistRate;
  }
  double deepest = -1.0;
  V3 weighted = V3::Zero();
  for (const ContactPoint& cp : c.points) {
    const V3 vRel = mb.velocityAt(cp.point) - ma.velocityAt(cp.point);
    const PointForce f = stick ? bristlePointForce(cp, cp.normal, vRel, p.impact, bristle)
                               : pointForce(cp, cp.normal, vRel, p.impact, p.friction);
    r.forces.push_back(f);
    r.normal += f.normal;
    r.friction += f.friction;
    weighted += f.normal * cp.point;
    const double e = p.impact.exponent;
    r.elasticEnergy += cp.share * p.impact.stiffness * std::pow(cp.depth, e + 1.0) / (e + 1.0);
    if (cp.depth > deepest) {
      deepest = cp.depth;
      r.penetration = cp.depth;
      r.slip = stick ? pairSlip : f.slip;
      r.point = cp.point;
    }
  }
  if (r.normal > 0.0) r.point = weighted / r.normal;
  if (stick && c.touching()) r.torque = r.normal * arm * bristle.twistCoefficient * n;
  return r;
}

TwistArm twistArm(const std::vector<ContactPoint>& points, const std::vector<double>& normals, const V3& n,
                  double torsionRadius) {
  TwistArm t;
  double w = 0.0;
  for (size_t q = 0; q < points.size(); ++q) {
    t.centre += normals[q] * points[q].point;
    w += normals[q];
  }
  if (w > 0.0) t.centre /= w;
  else t.centre = points.front().point;
  // Each point's distance from the centre across n, with its own patch's
  // rho_0, weighted by its normal force.
  const double r0 = torsionRadius;
  for (size_t q = 0; q < points.size(); ++q) {
    const V3 d = points[q].point - t.centre, dt = d - n.dot(d) * n;
    t.arm += (w > 0.0 ? normals[q] / w : 1.0 / points.size()) * std::sqrt(dt.squaredNorm() + r0 * r0);
  }
  return t;
}

double twistTorque(const PairResult& r) {
  const V3& n = r.geometry.normal;
  V3 m = r.torque;
  for (size_t q = 0; q < r.forces.size(); ++q) m += (r.geometry.points[q].point - r.point).cross(r.forces[q].force);
  return n.dot(m);
}

const std::vector<ChannelDecl>& channelDecls() {
  static const std::vector<ChannelDecl> d = {
      {"in_contact", "1"},       {"distance", "m"}, {"normal_force", "N"}, {"friction_force", "N"},
      {"penetration", "m"},      {"slip_speed", "m/s"}, {"point_x", "m"}, {"point_y", "m"},
      {"point_z", "m"},          {"normal_x", "1"}, {"normal_y", "1"}, {"normal_z", "1"},
      {"twist_torque", "N m"}};
  return d;
}

void channelValues(const PairResult& r, std::vector<double>& out) {
  out.push_back(r.geometry.touching() ? 1.0 : 0.0);
  out.push_back(r.geometry.distance);
  out.push_back(r.normal);
  out.push_back(r.friction.norm());
  out.push_back(r.penetration);
  out.push_back(r.slip);
  for (int a = 0; a < 3; ++a) out.push_back(r.point[a]);
  for (int a = 0; a < 3; ++a) out.push_back(r.geometry.normal[a]);  // the force on j's part is along it
  out.push_back(twistTorque(r));
}

}  // namespace pm::contact
