// The lever of issue 28's scenario, built in code: the seed 003 circuit
// (cylinder bore 32 x stroke 200 mm) driving a 0.5 m, 2 kg lever on a
// pivot, the rod end 150 mm from the pivot. Header-only, for the geometry
// checks and the property editor's attachment tests.
#pragma once

#include "build/project_input.h"
#include "model/project.h"
#include "support/test_project.h"

namespace pm::test {

inline MarkerDef leverMarker(const std::string& id, Vec3 pos, Vec3 rpy = {}) { return {id, pos, rpy}; }

// Seed 003's circuit (cylinder Ø32 x 200) with its cylinder between the
// ground's clevis at `clevis` and the lever 150 mm from the pivot. The
// lever turns about z in the horizontal plane (gravity along the pivot),
// its pivot marker turned by `pivotRpy`.
inline Project leverProject(Vec3 clevis, Vec3 pivotRpy = {}) {
  Project p = loadProject(projectPath("seed003_meter_out.pneumech.json"));
  PartDef ground;
  ground.id = "ground";
  ground.ground = true;
  ground.markers = {leverMarker("pivot", {0, 0, 0}, pivotRpy), leverMarker("clevis", clevis)};
  PartDef lever;
  lever.id = "lever";
  lever.mass = 2.0;
  lever.markers = {leverMarker("pivot", {0, 0, 0}, pivotRpy), leverMarker("P", {0.15, 0, 0}), leverMarker("mid", {0.25, 0, 0})};
  Geometry bar;
  bar.shape = "box";
  bar.size = {{"lx", 0.5}, {"ly", 0.03}, {"lz", 0.01}};
  bar.marker = "mid";
  lever.geometry = {bar};
  p.mechanism.parts = {ground, lever};
  JointDef pivot;
  pivot.id = "pivot";
  pivot.type = "revolute";
  pivot.i = "lever.pivot";
  pivot.j = "ground.pivot";
  p.mechanism.joints = {pivot};
  Component* cyl = p.find("cyl1");
  cyl->data = {{"attach", {{"barrel", "ground.clevis"}, {"rod", "lever.P"}}}};
  return p;
}

}  // namespace pm::test
