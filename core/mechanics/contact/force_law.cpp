#include "mechanics/contact/force_law.h"

#include "mechanics/impact_force.h"

#include <algorithm>
#include <cmath>

namespace pm::contact {

double frictionCoefficient(double v, const FrictionParams& f) {
  const double vs = f.stictionVelocity, vt = f.transitionVelocity;
  if (v < vs) return mb::step(v, -vs, -f.muStatic, vs, f.muStatic);
  return mb::step(v, vs, f.muStatic, vt, f.muDynamic);
}

double slidingCoefficient(double v, const FrictionParams& f) {
  if (v <= f.stictionVelocity) return f.muStatic;
  return mb::step(v, f.stictionVelocity, f.muStatic, f.transitionVelocity, f.muDynamic);
}

bool hasStickState(const FrictionParams& f) {
  return f.stictionDeformation > 0.0 && std::max(f.muStatic, f.muDynamic) > 0.0;
}

Bristle bristleFriction(const V3& z, const V3& vt, const FrictionParams& f, double twist, double twistSpeed) {
  Bristle b;
  const double muMax = std::max(f.muStatic, f.muDynamic);
  if (!(f.stictionDeformation > 0.0) || muMax <= 0.0) return b;
  const double sigma0 = muMax / f.stictionDeformation, w = std::hypot(vt.norm(), twistSpeed);
  // g floored: mu_s = 0 < mu_d would divide by zero at rest.
  const double g = std::max(slidingCoefficient(w, f), 1e-3 * muMax);
  b.rate = vt - (sigma0 * w / g) * z;
  b.twistRate = twistSpeed - (sigma0 * w / g) * twist;
  const double x = w / f.stictionVelocity;
  const double sigma1 = 1.5 * f.muStatic / f.stictionVelocity * std::exp(-x * x);
  b.coefficient = -(sigma0 * z + sigma1 * b.rate);
  b.twistCoefficient = -(sigma0 * twist + sigma1 * b.twistRate);
  return b;
}

PointForce bristlePointForce(const ContactPoint& p, const V3& n, const V3& vRel, const ImpactParams& ip, const Bristle& stick) {
  PointForce out;
  const double vn = n.dot(vRel);
  out.normal = p.share * mb::contact(p.depth, -vn, ip.stiffness, ip.exponent, ip.damping, ip.depth);
  out.slip = (vRel - vn * n).norm();
  const V3 c = stick.coefficient - n.dot(stick.coefficient) * n;
  out.friction = out.normal * c;
  out.force = out.normal * n + out.friction;
  return out;
}

PointForce pointForce(const ContactPoint& p, const V3& n, const V3& vRel, const ImpactParams& ip,
                      const FrictionParams& fp) {
  PointForce out;
  const double vn = n.dot(vRel);  // separating speed: the penetration rate is -vn
  out.normal = p.share * mb::contact(p.depth, -vn, ip.stiffness, ip.exponent, ip.damping, ip.depth);
  const V3 vt = vRel - vn * n;
  out.slip = vt.norm();
  if (out.slip > 0.0 && out.normal > 0.0)
    out.friction = -frictionCoefficient(out.slip, fp) * out.normal / out.slip * vt;
  out.force = out.normal * n + out.friction;
  return out;
}

}  // namespace pm::contact
