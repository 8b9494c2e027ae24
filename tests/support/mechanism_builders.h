// Builders the mechanism tests share: markers, parts, joints, a project
// around a mechanism, and a run of the static or kinematic analysis.
// Header-only, like test_project.h.
#pragma once

#include "analyses/mechanism_analysis.h"
#include "mechanics/spatial.h"
#include "support/test_project.h"

#include <array>
#include <map>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace pm::test {

inline MarkerDef mk(const std::string& id, Vec3 pos, Vec3 rpy = {0, 0, 0}) { return {id, pos, rpy}; }

// Marker orientation whose z-axis is `z` (x completes a right-handed frame from `xHint`).
inline Vec3 zAxis(mb::V3 z, mb::V3 xHint = mb::V3::UnitX()) {
  z.normalize();
  mb::V3 x = (xHint - xHint.dot(z) * z);
  if (x.norm() < 1e-9) x = mb::V3::UnitY() - mb::V3::UnitY().dot(z) * z;
  x.normalize();
  mb::M3 R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  const mb::V3 a = mb::toRpy(R);
  return {a[0], a[1], a[2]};
}

inline PartDef ground(std::vector<MarkerDef> m) {
  PartDef p;
  p.id = "ground";
  p.ground = true;
  p.markers = std::move(m);
  return p;
}

inline PartDef part(const std::string& id, double mass, std::array<double, 6> I, Vec3 pos, std::vector<MarkerDef> m) {
  PartDef p;
  p.id = id;
  p.mass = mass;
  p.inertia = I;
  p.position = pos;
  p.markers = std::move(m);
  return p;
}

inline JointDef joint(const std::string& id, const std::string& type, const std::string& i, const std::string& j) {
  JointDef d;
  d.id = id;
  d.type = type;
  d.i = i;
  d.j = j;
  return d;
}

// A coupler: q_a + ratio q_b = q_a(0) + ratio q_b(0) (a gear pair, a rack and pinion).
inline JointDef coupler(const std::string& id, const std::string& jointA, const std::string& jointB, double ratio) {
  JointDef d;
  d.id = id;
  d.type = "coupler";
  d.joints = {jointA, jointB};
  d.params = {{"ratio", ratio}};
  return d;
}

// A force element of `type` on marker i (and j: empty for an action-only
// force; `ref`: the marker whose axes give a vforce's components).
inline ForceDef force(const std::string& id, const std::string& type, const std::string& i, const std::string& j,
                      std::map<std::string, double> params, const std::string& ref = "") {
  ForceDef f;
  f.id = id;
  f.type = type;
  f.i = i;
  f.j = j;
  f.ref = ref;
  f.params = std::move(params);
  return f;
}

// A motion driving `joint` at a constant rate (rad/s or m/s).
inline MotionDef velocityMotion(const std::string& id, const std::string& joint, double rate) {
  MotionDef mo;
  mo.id = id;
  mo.joint = joint;
  mo.quantity = "velocity";
  mo.function = "constant";
  mo.params = {{"value", rate}};
  return mo;
}

// prefix + k, the ids of a generated mechanism ("link" 3: "link3").
// Appended: GCC 12's -Wrestrict misfires on prefix + std::to_string(k).
inline std::string named(const char* prefix, int k) {
  std::string s(prefix);
  s += std::to_string(k);
  return s;
}

inline Project mechProject(Mechanism m, double tEnd, double dt, double rtol) {
  Project p;
  p.mechanism = std::move(m);
  settings(p, tEnd, dt, {.rel = rtol, .position = 1e-10});
  return p;
}

inline std::unique_ptr<Run> analyse(const Project& p, MechanismAnalysis kind, const BuildOptions& options = {}) {
  auto r = std::make_unique<Run>();
  r->project = p;
  try {
    runMechanismAnalysis(r->project, "test", kind, r->out, options);
  } catch (const std::exception& e) {
    r->error = e.what();
    r->result.status = RunStatus::Failed;
  }
  r->t = r->out.times();
  return r;
}

// A part with an isotropic inertia I about its centre of mass.
inline PartDef part(const std::string& id, double mass, double I, Vec3 pos, std::vector<MarkerDef> m) {
  return part(id, mass, std::array<double, 6>{I, I, I, 0, 0, 0}, pos, std::move(m));
}

// A disc (1 kg, Izz 2e-3 kg m2) on a revolute joint "shaft" about the world
// z-axis, without gravity: the load of a semi-rotary actuator.
inline Mechanism discOnShaft() {
  Mechanism m;
  m.gravity = {0, 0, 0};
  m.parts = {ground({mk("axis", {0, 0, 0})}),
             part("disc", 1.0, std::array<double, 6>{1e-3, 1e-3, 2e-3, 0, 0, 0}, {0, 0, 0}, {mk("axis", {0, 0, 0})})};
  m.joints = {joint("shaft", "revolute", "disc.axis", "ground.axis")};
  return m;
}

// The four-bar ladder of pneumech-bench: n loops in the vertical x-z plane,
// rung k (0.2 m, 0.3 kg) on two posts (0.15 m, 0.1 kg) leaning 0.2 rad above
// rung k-1 (rung 0 the ground); `offset` places every rung that far off in x
// and z (for the assembly). Joints jlb/jrb (posts on the rung below),
// jlt/jrt (posts on the rung above), k = 1..n.
inline Mechanism fourBarLadder(int n, double offset = 0.0) {
  Mechanism m;
  const Vec3 yAxis{-1.5707963267948966, 0, 0};
  const double w = 0.2, h = 0.15, a = 0.2, dx = h * std::sin(a), dz = h * std::cos(a);
  m.parts.push_back(ground({mk("l", {0, 0, 0}, yAxis), mk("r", {w, 0, 0}, yAxis)}));
  std::string below = "ground";
  for (int k = 1; k <= n; ++k) {
    const double x0 = (k - 1) * dx, z0 = (k - 1) * dz;
    const std::string K = std::to_string(k), L = "left" + K, R = "right" + K, G = "rung" + K;
    for (const auto& [id, xb] : {std::pair{L, x0}, std::pair{R, x0 + w}})
      m.parts.push_back(part(id, 0.1, std::array<double, 6>{1e-5, 2e-4, 2e-4, 0, 0, 0}, {xb + dx / 2, 0, z0 + dz / 2},
                             {mk("b", {-dx / 2, 0, -dz / 2}, yAxis), mk("t", {dx / 2, 0, dz / 2}, yAxis)}));
    m.parts.push_back(part(G, 0.3, std::array<double, 6>{1e-5, 1e-3, 1e-3, 0, 0, 0},
                           {x0 + dx + w / 2 + offset, 0, z0 + dz + offset},
                           {mk("l", {-w / 2, 0, 0}, yAxis), mk("r", {w / 2, 0, 0}, yAxis)}));
    m.joints.push_back(joint("jlb" + K, "revolute", L + ".b", below + ".l"));
    m.joints.push_back(joint("jrb" + K, "revolute", R + ".b", below + ".r"));
    m.joints.push_back(joint("jlt" + K, "revolute", L + ".t", G + ".l"));
    m.joints.push_back(joint("jrt" + K, "revolute", R + ".t", G + ".r"));
    below = G;
  }
  return m;
}

// The pendulum chain of pneumech-bench: n links (0.1 m, 0.2 kg, centre of
// mass mid-link) in a straight line 0.3 rad from the vertical in the x-z
// plane, link1 hinged at the origin, joints j1..jn about the world y-axis.
inline Mechanism pendulumChain(int n) {
  Mechanism m;
  const Vec3 yAxis{-1.5707963267948966, 0, 0};
  const double L = 0.1, th = 0.3, sx = std::sin(th), cz = std::cos(th);
  m.parts.push_back(ground({mk("o", {0, 0, 0}, yAxis)}));
  for (int k = 1; k <= n; ++k) {
    const std::string id = "link" + std::to_string(k);
    m.parts.push_back(part(id, 0.2, std::array<double, 6>{1e-5, 0.2 * L * L / 12, 0.2 * L * L / 12, 0, 0, 0},
                           {(k - 0.5) * L * sx, 0, -(k - 0.5) * L * cz},
                           {mk("top", {-0.5 * L * sx, 0, 0.5 * L * cz}, yAxis),
                            mk("bottom", {0.5 * L * sx, 0, -0.5 * L * cz}, yAxis)}));
    m.joints.push_back(joint("j" + std::to_string(k), "revolute", id + ".top",
                             k == 1 ? "ground.o" : "link" + std::to_string(k - 1) + ".bottom"));
  }
  return m;
}

// Slider-crank in the x-y plane: crank r = 0.05 m about the world z-axis at
// the origin (joint crank_pivot), rod l = 0.15 m (crank_pin, wrist_pin),
// slider on the x-axis (translational joint guide, travel = the slider's x),
// placed closed at crank angle th, every part at rest, gravity -z (across
// the plane). Its closed forms, S = sqrt(l^2 - r^2 sin^2 th), crank rate w,
// crank acceleration 0: x = r cos th + S, rod angle psi = -asin(r sin th / l),
// v = -r w (sin th + r sin th cos th / S), psi' = -r w cos th / S,
// x'' = -r w^2 (cos th + r cos 2th / S + r^3 sin^2 th cos^2 th / S^3),
// psi'' = r w^2 sin th (1 / S - r^2 cos^2 th / S^3).
struct SliderCrank {
  static constexpr double r = 0.05, l = 0.15;
  static double S(double th) { return std::sqrt(l * l - r * r * std::sin(th) * std::sin(th)); }
  static double x(double th) { return r * std::cos(th) + S(th); }
  static double rodAngle(double th) { return -std::asin(r * std::sin(th) / l); }
  static double v(double th, double w) { return -r * w * (std::sin(th) + r * std::sin(th) * std::cos(th) / S(th)); }
  static double rodRate(double th, double w) { return -r * w * std::cos(th) / S(th); }
  static double a(double th, double w) {
    const double s = std::sin(th), c = std::cos(th), S3 = std::pow(S(th), 3);
    return -r * w * w * (c + r * std::cos(2 * th) / S(th) + r * r * r * s * s * c * c / S3);
  }
  static double rodAcceleration(double th, double w) {
    const double c = std::cos(th);
    return r * w * w * std::sin(th) * (1.0 / S(th) - r * r * c * c / std::pow(S(th), 3));
  }
  static Mechanism placed(double th) {
    Mechanism m;
    const Vec3 alongX = zAxis(mb::V3::UnitX(), mb::V3::UnitY());
    m.parts.push_back(ground({mk("o", {0, 0, 0}), mk("rail", {0, 0, 0}, alongX)}));
    PartDef crank = part("crank", 0.5, 2e-4, {0, 0, 0}, {mk("o", {0, 0, 0}), mk("pin", {r, 0, 0})});
    crank.orientation = {0, 0, th};
    PartDef rod = part("rod", 0.3, std::array<double, 6>{1e-5, 6e-4, 6e-4, 0, 0, 0}, {r * std::cos(th), r * std::sin(th), 0},
                       {mk("a", {0, 0, 0}), mk("b", {l, 0, 0})});
    rod.cm = {l / 2, 0, 0};
    rod.orientation = {0, 0, rodAngle(th)};
    PartDef slider = part("slider", 1.0, 1e-3, {x(th), 0, 0}, {mk("pin", {0, 0, 0}), mk("guide", {0, 0, 0}, alongX)});
    m.parts.push_back(crank);
    m.parts.push_back(rod);
    m.parts.push_back(slider);
    m.joints.push_back(joint("crank_pivot", "revolute", "crank.o", "ground.o"));
    m.joints.push_back(joint("crank_pin", "revolute", "rod.a", "crank.pin"));
    m.joints.push_back(joint("wrist_pin", "revolute", "slider.pin", "rod.b"));
    m.joints.push_back(joint("guide", "translational", "slider.guide", "ground.rail"));
    return m;
  }
};

}  // namespace pm::test
