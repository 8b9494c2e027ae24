// A carriage on a frictionless guide, pushed by a component attached to it
// as a cylinder is: the mechanism the tests of a user component's
// mechanical port drive (issue 24). Header-only.
#pragma once

#include "model/project.h"
#include "support/mechanism_builders.h"

#include <numbers>
#include <utility>

namespace pm::test {

// A carriage of mass m on a frictionless guide along world x, pushed by
// `push` attached between a ground marker and the carriage's (as a
// cylinder is); the markers start 0.1 m apart, x = 0 there. Gravity off.
inline Project guidedCarriage(double m, Component push) {
  Project p;
  p.mechanism.gravity = {0, 0, 0};
  const Vec3 alongX{0, std::numbers::pi / 2, 0};  // z-axis along world x
  p.mechanism.parts = {ground({mk("clevis", {0, 0, 0}), mk("rail", {0, 0, 0}, alongX)}),
                       part("carriage", m, {0.01, 0.01, 0.01, 0, 0, 0}, {0.1, 0, 0},
                            {mk("rod", {0, 0, 0}), mk("guide", {0, 0, 0}, alongX)})};
  p.mechanism.joints = {joint("guide", "translational", "carriage.guide", "ground.rail")};
  push.data = {{"attach", {{"barrel", "ground.clevis"}, {"rod", "carriage.rod"}}}};
  p.components.push_back(std::move(push));
  return p;
}

}  // namespace pm::test
