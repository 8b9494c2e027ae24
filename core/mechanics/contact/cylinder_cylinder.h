// Cylinder against cylinder (part of the narrow phase, narrow_phase.h).
#pragma once

#include "mechanics/contact/narrow_phase.h"

namespace pm::contact {

// Separating axes with the cylinders' support functions: the two axes, their
// cross product, the line between the axes' nearest points, and per end rim
// of either cylinder (an inscribed octagon, one vertex towards the other
// cylinder) the direction from the other cylinder's nearest point to each
// vertex. The signed distance is the largest separation along them: exact
// for a cap, crossed or parallel sides, a rim against a cap or a side; a
// lower bound when apart otherwise (rim against rim).
// Overlapping along an axis (a cap), the other cylinder's cap octagon and
// side line nearest it, clipped to the prism over the cap's octagon, give
// the points below the cap (coaxial caps: their octagons' overlap; one lying
// on a cap: the two ends of its lowest line); crossed sides one point
// between the side lines; parallel sides the two ends of their common
// stretch; otherwise the octagon vertices inside the other cylinder.
Contact cylinderCylinder(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb);

}  // namespace pm::contact
