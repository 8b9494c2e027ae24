// Editing flexible bodies (issue #22) without widgets: the fields the
// mechanism form shows for one (length, elements, section, material,
// damping, root pose, initial velocity and angular velocity; display units), applying a typed value with its
// checks, and a new beam with sensible defaults clamped to the ground.
// mechanism_editing.h routes the form's calls here for ObjectKind::FlexibleBody.
#pragma once

#include "mechanism_editing.h"
#include "model/project.h"

#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace pm::gui {

FlexibleBodyDef* findFlexibleBody(Mechanism& m, const std::string& id);

std::vector<EditField> flexibleBodyFields(const FlexibleBodyDef& d);
// The section's size as drawn: its height (along the beam's y) and width
// (along z) [m]; a section given by its numbers alone, the square of its area.
std::pair<double, double> beamSectionSize(const FlexibleBodyDef& d);
// "" on success, else a message naming the body and field (`p` unchanged then).
QString applyFlexibleBodyField(Project& p, const std::string& id, const std::string& key, const QString& text);

// Adds a beam "<stem>N" along world x from `root` [m]: 0.5 m, 10 elements,
// a 20 x 10 mm aluminium bar (E 70 GPa, nu 0.33, 2700 kg/m3), 2 % modal
// damping, markers "root" (node 0) and "tip" (last node); when the model has
// a ground part, its root is clamped there (a ground marker and a fixed
// joint). Returns the beam's id.
std::string addFlexibleBody(Project& p, const Vec3& root = {0, 0, 0}, const std::string& stem = "beam");
// Where Add Flexible Body puts a new beam's root: at x = y = 0, 50 mm above
// the highest point of the ground part's shapes (boxes, cylinders, tubes,
// spheres, links; world z up), so that the beam does not start inside the
// base plate; the origin when the ground has no shapes.
Vec3 newBeamRoot(const Project& p);

}  // namespace pm::gui
