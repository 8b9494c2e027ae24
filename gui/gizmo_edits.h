// What a drag of the 3D view's gizmo does to the model (issue #28, point 4):
// a part or marker moved by a world offset or along one of its own axes,
// turned about a world axis or one of its own through its origin, or moved
// so that one of its markers lands on another part's marker. Positions are world for a part and in the part frame for a
// marker; the arithmetic is in double from the model (not the view's float
// matrices), so a snapped position is exact.
#pragma once

#include "model/project.h"

#include <string>

namespace pm::gui {

// Moves part or marker `id` ("<part>.<marker>") by `offset` (world). The
// snap step applies to the move, not to where it ends (as in CAD tools: a
// part at x = 13 mm moved +45 mm lands at 58 mm, as the drag showed): each
// component of `offset` is rounded to `step` [m] (0: to micrometres), and
// the coordinates it changes to picometres (the sum's last bits; a float
// offset's noise). False when `id` is neither.
bool moveObject(Project& p, const std::string& id, const Vec3& offset, double step);
// Moves part or marker `id` so that its marker `marker` (id itself for a
// marker) sits on marker `onto` of another part, as placed in the model.
bool moveOnto(Project& p, const std::string& id, const std::string& marker, const std::string& onto);
// Moves part or marker `id` by `offset` given along its own axes (the
// part's frame, or the marker's): each component rounded to `step` as
// moveObject does, the coordinates it changes to picometres. Axis
// components below 1e-12 (a rotation's rounding: cos 90 deg = 6e-17) count
// as 0, so a move along an axis that lies on a world axis leaves the other
// coordinates exactly as they were.
bool moveLocal(Project& p, const std::string& id, const Vec3& offset, double step);
// moveLocal by `distance` [m] along own axis `axis` (0 x, 1 y, 2 z).
bool moveAlong(Project& p, const std::string& id, int axis, double distance, double step);
// Turns part or marker `id` by `angle` [rad] about axis `axis` (0 x, 1 y,
// 2 z) through its origin: the world's axis, or with `local` its own.
bool turnObject(Project& p, const std::string& id, int axis, double angle, bool local = false);
// Turns part or marker `id` about `marker`'s origin (id itself for a
// marker) so that `marker`'s frame agrees with that of marker `onto`: z
// axes and x axes both (a revolute joint between them starts at angle 0,
// a translational one can be assembled). A part keeps that marker in place.
bool alignFrames(Project& p, const std::string& id, const std::string& marker, const std::string& onto);
// A marker's world position with its part where the model places it.
bool markerWorld(const Mechanism& m, const std::string& ref, Vec3& world);
// The angle between the z axes of two markers, as placed [rad].
double zAxisAngle(const Mechanism& m, const std::string& a, const std::string& b);
// The angle of the rotation from marker a's frame to marker b's, as placed
// [rad]: 0 when their axes agree.
double frameAngle(const Mechanism& m, const std::string& a, const std::string& b);

}  // namespace pm::gui
