// A flexible body of the mechanism file (FlexibleBodyDef) compiled into the
// multibody engine's own vocabulary (decision 0017, "How it joins the DAE"):
// nodal coordinates. Node j of the beam becomes a body "<id>_n<j>" at
// x_j = j L / n along the beam, carrying the lumped mass and rotary inertia
// of its share of the beam; each element becomes a force element
// "beam_segment" between its two nodes that applies the element's elastic
// (and stiffness-proportional damping) end forces, measured in the frame of
// the element's root-side node (the floating frame of one element); one
// "beam_tip" force element named like the body writes its tip deflection
// and largest stress. The user's markers sit on the node bodies and keep
// their names "<id>.<marker>". Why nodal bodies rather than one floating
// frame with elastic coordinates: see decision 0017.
#pragma once

#include "mechanics/beam/flexible_beam.h"
#include "model/mechanism.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pm::beam {

// Id of node j's body.
std::string nodeBodyId(const std::string& beam, int node);
// Id of the marker every node body has at its node (the segments' ends).
inline const char* kNodeMarker = "@node";

// The beam a definition describes; throws std::invalid_argument whose
// message is "<field>: <what is wrong>" (field as the file names it).
BeamSpec beamSpecOf(const FlexibleBodyDef& d);
// Every check of a definition: (field, message) of the first problem.
std::optional<std::pair<std::string, std::string>> checkFlexibleBody(const FlexibleBodyDef& d);

// The lumped inertia of node j's body: mass mu l_j of its share l_j of the
// beam (l / 2 at the ends) and the sections' rotary inertia rho (Iy + Iz,
// Iy, Iz) l_j (node axes = beam axes): a Rayleigh beam's lumped mass. The
// beam's mass and centre are exact; its inertia about the centre is the
// trapezoid rule's, high by about 2 / n^2 relative for n elements.
struct NodeInertia {
  double mass = 0.0;
  Eigen::Vector3d inertia = Eigen::Vector3d::Zero();  // Ixx (twist), Iyy, Izz
};
NodeInertia nodeInertia(const FlexibleBeam& b, int node);

// Stiffness-proportional damping factor beta [s] of a definition: as given,
// or 2 zeta / omega_1 for a modal ratio zeta (the ratio then holds exactly
// for the first bending mode of the clamped beam; higher modes get more).
double dampingBeta(const FlexibleBodyDef& d, const FlexibleBeam& b);

// The mechanism with every flexible body replaced by its node bodies and
// force elements (a copy of m when it has none). Throws std::runtime_error
// "<id>: <field>: message" on a bad definition.
Mechanism withNodeBodies(const Mechanism& m);
// The name joints, forces and the circuit use for a marker of a node body:
// "<beam>_n<j>.<marker>" -> "<beam>.<marker>" for the beam's own markers of
// m (the mechanism before withNodeBodies); other names unchanged.
std::string userMarkerName(const Mechanism& m, const std::string& name);

}  // namespace pm::beam
