// The contact force at one contact point (issue 27): ADAMS-style IMPACT in
// the normal direction (mechanics/impact_force.h, shared with the 1D
// `impact` element) and Coulomb friction with ADAMS's smooth stick-slip
// regularisation in the tangent plane.
#pragma once

#include "mechanics/contact/narrow_phase.h"

namespace pm::contact {

struct ImpactParams {
  double stiffness = 1e6;  // k [N/m^e]
  double exponent = 1.5;   // e
  double damping = 0.0;    // c_max [N s/m], reached at `depth`
  double depth = 1e-4;     // penetration over which the damping ramps up [m]
};

struct FrictionParams {
  double muStatic = 0.0;              // mu_s
  double muDynamic = 0.0;             // mu_d
  double stictionVelocity = 1e-4;     // v_s: |mu| reaches mu_s here [m/s]
  double transitionVelocity = 1e-3;   // v_t: mu is mu_d from here on [m/s]
};

// Friction coefficient at slip speed v >= 0: STEP(v, -v_s, -mu_s, v_s, mu_s)
// below v_s (odd and smooth through zero: a steep viscous-like stiction),
// STEP(v, v_s, mu_s, v_t, mu_d) from v_s to v_t, mu_d beyond.
double frictionCoefficient(double v, const FrictionParams& f);

struct PointForce {
  V3 force = V3::Zero();     // on B at the point (A gets the opposite)
  double normal = 0.0;       // normal force magnitude, >= 0
  V3 friction = V3::Zero();  // tangential part of `force`
  double slip = 0.0;         // tangential slip speed
};

// Force on B at contact point p with normal n (A to B), from the velocity of
// B's material point relative to A's there.
PointForce pointForce(const ContactPoint& p, const V3& n, const V3& vRel, const ImpactParams& ip,
                      const FrictionParams& fp);

}  // namespace pm::contact
