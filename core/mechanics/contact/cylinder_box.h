// Cylinder against box (part of the narrow phase, narrow_phase.h).
#pragma once

#include "mechanics/contact/narrow_phase.h"

namespace pm::contact {

// Separating axes with the shapes' support functions: the box's three face
// normals, the cylinder's axis, the axis crossed with each box edge, and per
// box vertex the direction from the nearest point of the cylinder to it. The
// signed distance is the largest separation along them: exact for a face,
// a cap, the side against a vertex or an edge, and a lower bound when apart
// otherwise (a box edge against a rim; enough for a root function).
// Overlapping along a box face, the cylinder's cap (an octagon inscribed in
// the rim) and its side line nearest the face, clipped to the face's sides,
// give the points (a standing cylinder on eight rim points, a lying one on
// its two ends); along the cylinder's axis, the box's most opposed face
// clipped to the prism over that octagon (the same points for a cap flat on
// a face, whichever of the two axes wins); along the other axes, the box's
// vertices inside the cylinder, or one point between the edge and the side.
Contact cylinderBox(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb);

}  // namespace pm::contact
