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
  // delta: > 0 gives the pair a stick state (a bristle, bristleFriction)
  // whose deflection reaches delta at break-away; 0: the velocity law alone,
  // under which a held body creeps below v_s [m].
  double stictionDeformation = 0.0;
  // rho_0: a contact point's own arm for twisting friction (stick state
  // only), the root mean square radius of its patch: a single point holds
  // up to mu_s N rho_0 about the normal [m].
  double torsionRadius = 0.0;
};

// Friction coefficient at slip speed v >= 0: STEP(v, -v_s, -mu_s, v_s, mu_s)
// below v_s (odd and smooth through zero: a steep viscous-like stiction),
// STEP(v, v_s, mu_s, v_t, mu_d) from v_s to v_t, mu_d beyond.
double frictionCoefficient(double v, const FrictionParams& f);

// The sliding coefficient (Stribeck curve) at slip speed v >= 0: mu_s up to
// v_s, STEP(v, v_s, mu_s, v_t, mu_d) to v_t, mu_d beyond. Equal to
// frictionCoefficient above v_s; not odd, the bristle's saturation level.
double slidingCoefficient(double v, const FrictionParams& f);

// True when the pair carries a stick state: delta > 0 and some friction.
bool hasStickState(const FrictionParams& f);

// LuGre-type stick state of a pair (decision 0018): the bristle deflection z
// (world, along the tangent plane) and the twist deflection s about the
// normal (at the pair's torsional arm rho, so in m), sigma0 = max(mu_s, mu_d)
// / delta, driven by the generalised slip u = (v, rho w_n) of B relative to A
// (v: tangential slip velocity at the points' centre, w_n: relative turning
// rate about the normal), w = |u|:
//   dz/dt = v - sigma0 w z / g(w),  ds/dt = rho w_n - sigma0 w s / g(w)
//   (g: slidingCoefficient)
//   friction per unit normal force on B: -(sigma0 z + sigma1(w) dz/dt),
//   twisting torque per unit normal force and arm: -(sigma0 s + sigma1(w) ds/dt),
//   sigma1(w) = 1.5 mu_s / v_s exp(-(w / v_s)^2).
// At rest under a load below mu_s N (a torque below mu_s N rho), the state
// holds it and nothing creeps (the rates are zero at u = 0); sliding, (z, s)
// saturates at g(w) u / (sigma0 w): force and torque lie on the ellipse
// (F / (g N))^2 + (T / (g N rho))^2 = 1 (the limit surface's usual
// approximation), so a sliding part turns easily and a turning one slides.
// sigma1 is the velocity law's slope at rest (frictionCoefficient's
// 1.5 mu_s / v_s), faded out above v_s (Dupont et al.), so it damps the
// stick state without adding to the sliding force.
struct Bristle {
  V3 coefficient = V3::Zero();  // friction on B per unit normal force (tangential)
  V3 rate = V3::Zero();         // dz/dt
  double twistCoefficient = 0.0;  // torque on B about n per unit normal force and arm
  double twistRate = 0.0;         // ds/dt
};
// `twist` s and `twistSpeed` rho w_n: the twisting part (zero: sliding alone).
Bristle bristleFriction(const V3& z, const V3& vt, const FrictionParams& f, double twist = 0.0,
                        double twistSpeed = 0.0);

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
// The same with a pair's stick state: the friction is the normal force times
// the bristle's coefficient (its part across n); `slip` is |vRel across n|.
PointForce bristlePointForce(const ContactPoint& p, const V3& n, const V3& vRel, const ImpactParams& ip,
                             const Bristle& stick);

}  // namespace pm::contact
