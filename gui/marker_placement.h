// Where "add marker here" puts a marker (issue #28, point 4): a point and
// normal picked on a part's surface in the 3D view, turned into a marker
// in the part frame whose z axis is the outward normal. Snapping: to a
// marker of another part drawn within a few pixels (the new marker then
// coincides with it, position and axes, and the two make a joint at once),
// else the coordinates along the part axes that lie in the surface are
// rounded to the grid step, and a normal within 2 degrees of a part axis is
// put on that axis.
#pragma once

#include "model/mechanism.h"

#include <QMatrix4x4>
#include <QVector3D>

namespace pm::gui {

// R = Rz(yaw) Ry(pitch) Rx(roll) as the file's orientations, and back.
QMatrix4x4 rotationFromRpy(const Vec3& rpy);
Vec3 rpyFromRotation(const QMatrix4x4& r);

struct MarkerPlacement {
  Vec3 position{};  // part frame [m]
  Vec3 orientation{};  // rpy in the part frame [rad]
};

// `part` is the part's world matrix as drawn; `world`, `normal` the picked
// point and outward normal; `grid` the snap step [m] (0: none).
MarkerPlacement placeOnSurface(const QMatrix4x4& part, const QVector3D& world, const QVector3D& normal, double grid);

// The marker of another part at world matrix `other` (its part's world
// matrix times the marker's own) expressed in `part`'s frame.
MarkerPlacement coincideWith(const QMatrix4x4& part, const QMatrix4x4& other);

}  // namespace pm::gui
