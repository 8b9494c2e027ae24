// The force elements a flexible body compiles into (beam_bodies.h), applied
// by the multibody engine like its own force elements:
//  - "beam_segment" between the node bodies J (root side) and I (tip side)
//    of one element: I's displacement d and rotation theta relative to J,
//    in J's axes, less the element's length along x, give I the end force
//    and moment -K_II [d; theta] - beta K_II [d'; theta'] (K_II: the
//    element's stiffness with its J end clamped; J the reaction). Small
//    deformation within an element, any rigid motion of the element. The
//    axial force acts on the strain u + 1/2 integral (v'^2 + w'^2) dx, so
//    that an element under tension N gets N times its geometric stiffness
//    (its rigid rotation with J's axes gives the chord's share): a beam
//    stretched or spinning stiffens (decision 0017).
//    Values: the section resultants at J, N, Vy, Vz, T, My, Mz in J's axes
//    (the element's forces on the beam beyond), and the outer-fibre stress.
//  - "beam_tip" from the root node body (J) to the tip node body (I):
//    applies nothing; values: the tip's deflection v, w in the root's axes
//    (the beam's floating frame, clamped at the root), its magnitude, and
//    the largest stress of the beam's segments (the segments precede it).
#pragma once

#include "mechanics/multibody.h"

#include <string>
#include <utility>
#include <vector>

namespace pm::beam {

bool isBeamForce(const std::string& type);
// Channels (name suffix, unit) of a beam force element, in value order.
std::vector<std::pair<const char*, const char*>> beamForceChannels(const std::string& type);
// Applies the force element and appends its values to `vals`.
void applyBeamForce(mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k,
                    std::vector<double>& vals);
// Elastic energy stored in a beam_segment (0 for beam_tip).
double beamForceEnergy(const mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k);

}  // namespace pm::beam
