// Box against box (part of the narrow phase, narrow_phase.h).
#pragma once

#include "mechanics/contact/narrow_phase.h"

namespace pm::contact {

// Separating axes (3 + 3 face normals, 9 edge-edge cross products). The
// signed distance is the largest separation along them: zero when the
// boxes first touch, exact when a face axis separates them, and otherwise a
// lower bound of the distance when apart (enough for a root function).
// Overlapping along a face axis, the other box's most opposed face is
// clipped to the reference face's sides (up to 8 points, each with its own
// depth); along an edge axis, one point between the two edges.
Contact boxBox(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb);

}  // namespace pm::contact
