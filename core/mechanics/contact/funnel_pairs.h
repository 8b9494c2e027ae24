// Funnel against capsule and cylinder (part of the narrow phase,
// narrow_phase.h): a peg or a roller guided by a funnel, a part falling
// into a part feeder's bowl.
#pragma once

#include "mechanics/contact/narrow_phase.h"

namespace pm::contact {

// Funnel A against capsule or cylinder B (the body). Every feature of the
// funnel's solid is a family of planes over the azimuth psi, so the body's
// support function h_K gives each feature's signed distance as a 1D
// extremum over psi, located by bisection on its derivative (the support
// point times the plane normal's rate: exact to rounding):
//   inner wall: depth max_psi h_K(m(psi)) - t_z r_base, m the wall's
//     outward normal (the free inside of the cone is convex);
//   base face: depth max_psi h_K(t(psi)) - t_r r_base, t the generator
//     (the free side below the base is convex);
//   mouth face: depth min_psi h_K(-t(psi)) + t_r r_mouth + t_z L (the
//     solid below it is convex);
//   rims: the body's signed distance at the rim circle's nearest point.
// A feature counts when its contact lies on it (the wall's foot between the
// ends, a face's outside the cone, a rim's normal between the wall's and the
// face's, and when penetrating, the deepest point's shortest way out of the
// solid, as for the sphere); the nearest (most penetrating) counting feature gives distance,
// normal and its deepest point. On the wall and the faces the body's other
// end (capsule) or end rim (cylinder) is a second point when it too lies
// beyond the feature's plane at that azimuth: a peg lying along the wall
// rests on both ends; a stretch cut by a rim and shorter than the body's
// radius gives its cut end's point the share length / radius of its depth
// (it becomes the rim's point contact, so the force does not halve), and
// with the other end clear of the plane that point fades out over the band
// (the other end's clearance from 0 to half the depth). When that cut
// point is the deepest, the feature itself fades out (weight depth /
// (half the cut point's depth)) as the stretch's start leaves the plane,
// blended with the choice without it; there no feature deeper than the
// faded one counts for want of its way out. A face counts for
// want of the wall's way out only at points nearer its own plane than the
// other face's (a face's plane far away bounds a false depth), and enters
// by its deepest point's distance past the cone's surface (0 there, 1 at
// a tenth of its depth or radius), blended with the choice without it;
// near the tie of the body's two ends' depths that entry is shared with
// the other end's, or, the other end's foot in the cone, scaled by its
// distance from the surface (where that end leads at entry 0). A rim point
// inside a cylinder leaves it by the shallower of its side and end when
// that one's normal lies in the rim's cone, else by the deeper's, else by
// the local wedge's exact overlap (the smallest over the cone of the
// body's overlap along each direction); each way counts by a share that
// falls smoothly to 0 within 0.25 outside the cone and near where its
// normal flips (the end within hl/4 of the body's mid-plane, the side
// within 0.35 R of its axis), and near their tie the two ways are blended as
// the wall and a face are, so the rim's normal turns rather than flips; the
// rim's point is the deepest by this same depth. A
// cylinder's end rim across a funnel rim, each corner inside the other
// solid, is the rim-on-rim feature: the overlaps X - C along the two axes
// both corners' normal cones share, blended near their tie so the normal
// turns over a distance of the order of the depth rather than at once; it
// is a corner's model, so where the funnel's rim point lies deeper in the
// body than half its radius or half its half-length it hands over to the
// other features' choice, done at 3/4 (the side's normal would flip where
// the point crosses the body's axis, the end's where it crosses the
// mid-plane).
// One normal per pair: a peg pressed against two sides of the funnel at
// once is held by the deeper side only.
Contact funnelBody(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb);

// The local wedge's overlap of cylinder B (in funnel A's frame) at the base
// (or mouth) rim's point of azimuth q, the smallest over the rim's normal
// cone of B's overlap along each direction, and its rate by q (the rim
// search's derivative). Exposed for tests.
double funnelRimWedge(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb, bool mouth, double q, double& rate);

}  // namespace pm::contact
