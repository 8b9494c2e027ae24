#include "mechanics/contact/force_law.h"

#include "mechanics/impact_force.h"

namespace pm::contact {

double frictionCoefficient(double v, const FrictionParams& f) {
  const double vs = f.stictionVelocity, vt = f.transitionVelocity;
  if (v < vs) return mb::step(v, -vs, -f.muStatic, vs, f.muStatic);
  return mb::step(v, vs, f.muStatic, vt, f.muDynamic);
}

PointForce pointForce(const ContactPoint& p, const V3& n, const V3& vRel, const ImpactParams& ip,
                      const FrictionParams& fp) {
  PointForce out;
  const double vn = n.dot(vRel);  // separating speed: the penetration rate is -vn
  out.normal = mb::contact(p.depth, -vn, ip.stiffness, ip.exponent, ip.damping, ip.depth);
  const V3 vt = vRel - vn * n;
  out.slip = vt.norm();
  if (out.slip > 0.0 && out.normal > 0.0)
    out.friction = -frictionCoefficient(out.slip, fp) * out.normal / out.slip * vt;
  out.force = out.normal * n + out.friction;
  return out;
}

}  // namespace pm::contact
