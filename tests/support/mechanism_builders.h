// Builders the mechanism tests share: markers, parts, joints, a project
// around a mechanism, and a run of the static or kinematic analysis.
// Header-only, like test_project.h.
#pragma once

#include "mechanics/mechanism_analysis.h"
#include "mechanics/spatial.h"
#include "support/test_project.h"

#include <array>
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

inline Project mechProject(Mechanism m, double tEnd, double dt, double rtol) {
  Project p;
  p.mechanism = std::move(m);
  settings(p, tEnd, dt, {.rel = rtol, .position = 1e-10});
  return p;
}

inline std::unique_ptr<Run> analyse(const Project& p, MechanismAnalysis kind) {
  auto r = std::make_unique<Run>();
  r->project = p;
  try {
    runMechanismAnalysis(r->project, "test", kind, r->out);
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

}  // namespace pm::test
