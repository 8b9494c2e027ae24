// What a drag of the 3D view's gizmo does to the model (issue #28, point 4):
// a part or marker moved by a world offset, or turned about a world axis
// through its origin, or moved so that one of its markers lands on another
// part's marker. Positions are world for a part and in the part frame for a
// marker; the arithmetic is in double from the model (not the view's float
// matrices), so a snapped position is exact.
#pragma once

#include "model/project.h"

#include <string>

namespace pm::gui {

// Moves part or marker `id` ("<part>.<marker>") by `offset` (world) and
// rounds the new position to `step` [m] (0: to micrometres). False when
// `id` is neither.
bool moveObject(Project& p, const std::string& id, const Vec3& offset, double step);
// Moves part or marker `id` so that its marker `marker` (id itself for a
// marker) sits on marker `onto` of another part, as placed in the model.
bool moveOnto(Project& p, const std::string& id, const std::string& marker, const std::string& onto);
// Turns part or marker `id` by `angle` [rad] about world axis `axis`
// (0 x, 1 y, 2 z) through its origin.
bool turnObject(Project& p, const std::string& id, int axis, double angle);
// Turns part or marker `id` so that the z axis of its marker `marker` (id
// itself for a marker) agrees with that of marker `onto`, by the smallest
// rotation about `marker`'s origin (a part then keeps that marker in place).
bool alignZ(Project& p, const std::string& id, const std::string& marker, const std::string& onto);
// A marker's world position with its part where the model places it.
bool markerWorld(const Mechanism& m, const std::string& ref, Vec3& world);
// The angle between the z axes of two markers, as placed [rad].
double zAxisAngle(const Mechanism& m, const std::string& a, const std::string& b);

}  // namespace pm::gui
