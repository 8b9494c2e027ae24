#include "mechanics/contact/narrow_phase.h"

#include "mechanics/contact/box_box.h"
#include "mechanics/contact/cylinder_box.h"
#include "mechanics/contact/cylinder_cylinder.h"
#include "mechanics/contact/funnel_pairs.h"
#include "mechanics/contact/mesh_pairs.h"
#include "mechanics/contact/segment_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace pm::contact {

namespace {

// Two surface points pa (on A) and pb (on B) at signed distance `dist` along
// n: one contact point midway when they overlap.
Contact make(double dist, const V3& n, const V3& pa, const V3& pb) {
  Contact c;
  c.distance = dist;
  c.normal = n;
  if (dist < 0.0) c.points.push_back({0.5 * (pa + pb), -dist});
  return c;
}

// Spheres of radii ra, rb about ca, cb (also the cores of capsules). When the
// centres coincide the normal is undefined: +z is taken.
Contact spheres(const V3& ca, double ra, const V3& cb, double rb) {
  const V3 d = cb - ca;
  const double L = d.norm();
  const V3 n = L > 0.0 ? V3(d / L) : V3::UnitZ();
  return make(L - ra - rb, n, ca + ra * n, cb - rb * n);
}

void segmentEnds(const Shape& s, const Frame& f, V3& p0, V3& p1) {
  p0 = f.toWorld(V3(0, 0, -s.halfLength));
  p1 = f.toWorld(V3(0, 0, s.halfLength));
}

// Plane A (its marker's z <= 0) against points of B carrying radius r: every
// point below the surface is a contact point; the distance is the lowest
// point's height.
Contact planeAgainstPoints(const Frame& fa, const V3* pts, int n, double r) {
  const V3 nz = fa.R.col(2);
  Contact c;
  c.normal = nz;
  c.distance = std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const V3 pb = pts[i] - r * nz;  // B's lowest surface point there
    const double h = nz.dot(pb - fa.p);
    c.distance = std::min(c.distance, h);
    if (h < 0.0) c.points.push_back({pb - 0.5 * h * nz, -h});
  }
  return c;
}

Contact planeSphere(const Frame& fa, const Shape& b, const Frame& fb) {
  return planeAgainstPoints(fa, &fb.p, 1, b.radius);
}

Contact planeCapsule(const Frame& fa, const Shape& b, const Frame& fb) {
  V3 e[2];
  segmentEnds(b, fb, e[0], e[1]);
  return planeAgainstPoints(fa, e, 2, b.radius);
}

// Plane A against cylinder B: per end disc its lowest rim point, and the
// rim points a quarter, a half and three quarters of a turn from it (below
// the plane only when the disc lies nearly flat: a standing cylinder rests
// on four points). Where the axis is along the normal the lowest direction
// is any: the four points then sit at an arbitrary azimuth, so tilting a
// standing cylinder through upright turns them by a jump (equal depths
// there: the force stays, the moment changes by O(tilt)).
Contact planeCylinder(const Frame& fa, const Shape& b, const Frame& fb) {
  const V3 n = fa.R.col(2), a = fb.R.col(2);
  V3 u = n - n.dot(a) * a;
  u = u.norm() > 1e-12 ? V3(u.normalized()) : V3(fb.R.col(0));
  const V3 w = a.cross(u);
  V3 pts[8];
  int k = 0;
  for (double end : {-1.0, 1.0}) {
    const V3 centre = fb.p + end * b.halfLength * a;
    for (const V3& d : {V3(-u), V3(u), w, V3(-w)}) pts[k++] = centre + b.radius * d;
  }
  return planeAgainstPoints(fa, pts, 8, 0.0);
}

Contact planeBox(const Frame& fa, const Shape& b, const Frame& fb) {
  V3 v[8];
  for (int i = 0; i < 8; ++i) {
    const V3 s((i & 1) ? 1.0 : -1.0, (i & 2) ? 1.0 : -1.0, (i & 4) ? 1.0 : -1.0);
    v[i] = fb.toWorld(s.cwiseProduct(b.halfExtents));
  }
  return planeAgainstPoints(fa, v, 8, 0.0);
}

Contact boxSphere(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const V3 cl = fa.toLocal(fb.p);
  const V3& e = a.halfExtents;
  const V3 q = cl.cwiseMax(-e).cwiseMin(e);
  if (q != cl) return spheres(fa.toWorld(q), 0.0, fb.p, b.radius);
  // Centre inside the box: out through the nearest face.
  int i = 0;
  (e - cl.cwiseAbs()).minCoeff(&i);
  const double sgn = cl[i] >= 0.0 ? 1.0 : -1.0;
  V3 face = cl;
  face[i] = sgn * e[i];
  const V3 n = sgn * fa.R.col(i);
  const double dist = -(e[i] - std::abs(cl[i])) - b.radius;
  return make(dist, n, fa.toWorld(face), fb.p - b.radius * n);
}

Contact capsuleSphere(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  V3 p0, p1;
  segmentEnds(a, fa, p0, p1);
  return spheres(closestOnSegment(p0, p1, fb.p), a.radius, fb.p, b.radius);
}

Contact capsuleCapsule(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  V3 p0, p1, q0, q1, ca, cb;
  segmentEnds(a, fa, p0, p1);
  segmentEnds(b, fb, q0, q1);
  closestSegments(p0, p1, q0, q1, ca, cb);
  return spheres(ca, a.radius, cb, b.radius);
}

// Solid cylinder A (axis z, radius r, half-length h) against sphere B.
Contact cylinderSphere(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const V3 cl = fa.toLocal(fb.p);
  const double rho = std::hypot(cl.x(), cl.y()), r = a.radius, h = a.halfLength;
  const V3 radial = rho > 0.0 ? V3(cl.x() / rho, cl.y() / rho, 0.0) : V3::UnitX();
  if (rho > r || std::abs(cl.z()) > h) {
    V3 q = cl;
    if (rho > r) q.head<2>() = r * radial.head<2>();
    q.z() = std::clamp(cl.z(), -h, h);
    return spheres(fa.toWorld(q), 0.0, fb.p, b.radius);
  }
  // Inside: out through the side or the nearer cap, whichever is closer.
  const double side = r - rho, cap = h - std::abs(cl.z());
  const double sgn = cl.z() >= 0.0 ? 1.0 : -1.0;
  V3 nl, q = cl;
  if (side < cap) {
    nl = radial;
    q.head<2>() = r * radial.head<2>();
  } else {
    nl = V3(0, 0, sgn);
    q.z() = sgn * h;
  }
  const V3 n = fa.R * nl;
  return make(-std::min(side, cap) - b.radius, n, fa.toWorld(q), fb.p - b.radius * n);
}


// Funnel A against sphere B, in the meridian half-plane (rho, z) of B's
// centre: the wall's inner generator runs from (r_base, 0) to (r_mouth, L);
// s is the distance from it towards the axis, u the position along it
// (0 base, 1 mouth). Inside the cone (s >= 0) beyond an end the rim is the
// nearest point; outside it beyond an end, the end face; between the ends
// the inner surface.
Contact funnelSphere(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  const V3 cl = fa.toLocal(fb.p);
  const double rho = std::hypot(cl.x(), cl.y());
  const V3 er = rho > 0.0 ? V3(cl.x() / rho, cl.y() / rho, 0.0) : V3::UnitX();
  const double dr = a.mouthRadius - a.radius, L = a.length, len = std::hypot(dr, L);
  const double tr = dr / len, tz = L / len;  // along the generator
  const double nr = -tz, nz = tr;            // across it, towards the axis
  const double pr = rho - a.radius, pz = cl.z();
  const double s = nr * pr + nz * pz, u = (tr * pr + tz * pz) / len;
  auto world = [&](double r, double z) { return V3(fa.toWorld(r * er + V3(0, 0, z))); };
  auto dirWorld = [&](double r, double z) { return V3(fa.R * (r * er + V3(0, 0, z))); };
  if ((u < 0.0 || u > 1.0) && s >= 0.0) {  // past an end, inside the cone: the rim
    const double rimR = u < 0.0 ? a.radius : a.mouthRadius, rimZ = u < 0.0 ? 0.0 : L;
    return spheres(world(rimR, rimZ), 0.0, fb.p, b.radius);
  }
  if (u < 0.0 || u > 1.0) {  // past an end, outside the cone: the end face
    const double sg = u < 0.0 ? -1.0 : 1.0, gap = (u < 0.0 ? -u : u - 1.0) * len;
    const V3 n = dirWorld(sg * tr, sg * tz);
    return make(gap - b.radius, n, fb.p - gap * n, fb.p - b.radius * n);
  }
  // Between the ends: the inner surface, or from inside the wall the
  // nearest way out (inner surface, base or mouth face).
  double depth = -s;
  V3 n = dirWorld(nr, nz);
  if (s < 0.0 && u * len < depth) {
    depth = u * len;
    n = dirWorld(-tr, -tz);
  }
  if (s < 0.0 && (1.0 - u) * len < depth) {
    depth = (1.0 - u) * len;
    n = dirWorld(tr, tz);
  }
  return make(-depth - b.radius, n, fb.p + depth * n, fb.p - b.radius * n);
}

// Signed distance of a point (box-local) to a box of half-extents e.
double boxDistance(const V3& x, const V3& e) {
  const V3 q = x.cwiseMax(-e).cwiseMin(e);
  if (q != x) return (x - q).norm();
  return -(e - x.cwiseAbs()).minCoeff();
}

// The minimum over [0, 1] of `f`, convex there, by golden-section search
// (to 1e-15 in t, at most 200 steps): where a segment is nearest a convex solid.
template <class F>
double goldenMinimum(const F& f) {
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  double lo = 0.0, hi = 1.0, x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = f(x2);
    }
  }
  return 0.5 * (lo + hi);
}

// Box A against capsule B. The distance of the box to the capsule's core
// segment is convex along it: golden-section search finds the nearest point,
// and the box-sphere contact there gives the distance and normal. When that
// normal is a face's, the segment clipped to the face's sides gives up to
// two points (its clipped ends, each with its depth), so a capsule lying on
// a face rests on both; otherwise one point.
Contact boxCapsule(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  V3 w0, w1;
  segmentEnds(b, fb, w0, w1);
  const V3 p0 = fa.toLocal(w0), d = fa.toLocal(w1) - p0, &e = a.halfExtents;
  auto f = [&](double t) { return boxDistance(p0 + t * d, e); };
  double t = goldenMinimum(f);
  // Outside, the search resolves t to sqrt(eps) only (the distance is flat
  // at its minimum): project exactly onto the nearest feature (the clamped
  // coordinates: an edge or a vertex; a face's distance is linear in t).
  const V3 x = p0 + t * d;
  double num = 0.0, den = 0.0;
  for (int j = 0; j < 3; ++j) {
    if (std::abs(x[j]) <= e[j]) continue;
    const double face = x[j] > 0.0 ? e[j] : -e[j];
    num -= (p0[j] - face) * d[j];
    den += d[j] * d[j];
  }
  if (den > 0.0) {
    const double tf = std::clamp(num / den, 0.0, 1.0);
    if (f(tf) <= f(t) + 1e-9 * e.sum()) t = tf;  // equal to rounding: the exact projection wins
  }
  if (f(0.0) <= f(t)) t = 0.0;
  if (f(1.0) < f(t)) t = 1.0;
  const Shape ball = Shape::sphere(b.radius);
  Contact c = boxSphere(a, fa, ball, Frame{fa.toWorld(p0 + t * d), M3::Identity()});
  const V3 nl = fa.R.transpose() * c.normal;
  int i = 0;
  if (!c.touching() || nl.cwiseAbs().maxCoeff(&i) < 1.0 - 1e-12) return c;
  // A face's normal: clip the segment to the slab over face i.
  double t0 = 0.0, t1 = 1.0;
  for (int j = 0; j < 3; ++j) {
    if (j == i) continue;
    if (d[j] == 0.0) continue;  // parallel to the slab: inside it (the nearest point is over the face)
    double ta = (-e[j] - p0[j]) / d[j], tb = (e[j] - p0[j]) / d[j];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
  }
  const double sg = nl[i] > 0.0 ? 1.0 : -1.0;
  std::vector<ContactPoint> pts;
  for (double s : {t0, t1}) {
    const V3 x = p0 + s * d;
    const double depth = b.radius - (sg * x[i] - e[i]);
    if (t0 > t1 || depth <= 0.0 || (s == t1 && t1 == t0)) continue;
    V3 face = x;
    face[i] = sg * e[i];
    pts.push_back({0.5 * (fa.toWorld(face) + fa.toWorld(x) - b.radius * c.normal), depth});
  }
  if (!pts.empty()) c.points = pts;  // else (the core deep inside) the one nearest point
  return c;
}

// Signed distance of a point (cylinder-local) to the solid cylinder of
// radius r and half-length h about z.
double cylinderDistance(const V3& x, double r, double h) {
  const double dr = std::hypot(x.x(), x.y()) - r, dz = std::abs(x.z()) - h;
  if (dr > 0.0 || dz > 0.0) return std::hypot(std::max(dr, 0.0), std::max(dz, 0.0));
  return std::max(dr, dz);
}

// Cylinder A against capsule B. The signed distance of the cylinder is
// convex along the capsule's core segment: golden-section search, then the
// exact candidates (the ends, and the point nearest the axis, exact for the
// side), the nearest of them; cylinder-sphere there gives distance and
// normal. A core lying flat on a cap (clipped to the cap's disc) or along
// the side (clipped to the cap planes) gives two points, one per end of the
// clipped stretch; otherwise one point.
Contact cylinderCapsule(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  V3 w0, w1;
  segmentEnds(b, fb, w0, w1);
  const V3 p0 = fa.toLocal(w0), d = fa.toLocal(w1) - p0;
  const double r = a.radius, h = a.halfLength, rc = b.radius;
  auto f = [&](double t) { return cylinderDistance(p0 + t * d, r, h); };
  double t = goldenMinimum(f);
  V3 onCore, onAxis;
  closestSegments(p0, p0 + d, V3(0, 0, -h), V3(0, 0, h), onCore, onAxis);
  const double tAxis = d.squaredNorm() > 0.0 ? std::clamp((onCore - p0).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
  const double slack = 1e-9 * (r + h + rc + d.norm());
  for (double tc : {tAxis, 0.0, 1.0})  // an exact candidate wins a tie to rounding
    if (f(tc) <= f(t) + slack) t = tc;
  Contact c = cylinderSphere(a, fa, Shape::sphere(rc), Frame{fa.toWorld(p0 + t * d), M3::Identity()});
  if (!c.touching()) return c;
  const V3 nl = fa.R.transpose() * c.normal;
  double t0 = 0.0, t1 = 1.0;
  std::vector<ContactPoint> pts;
  if (std::abs(nl.z()) > 1.0 - 1e-12) {
    // On a cap: the stretch of the core over the cap's disc, |xy(t)| <= r.
    const double A = d.head<2>().squaredNorm(), B = 2.0 * p0.head<2>().dot(d.head<2>()), C = p0.head<2>().squaredNorm() - r * r;
    if (A > 0.0) {
      const double disc = B * B - 4.0 * A * C;
      if (disc < 0.0) return c;
      t0 = std::max(t0, (-B - std::sqrt(disc)) / (2.0 * A));
      t1 = std::min(t1, (-B + std::sqrt(disc)) / (2.0 * A));
    }
    const double sg = nl.z() > 0.0 ? 1.0 : -1.0;
    for (double s : {t0, t1}) {
      const V3 x = p0 + s * d;
      const double depth = rc - (sg * x.z() - h);
      if (t0 > t1 || depth <= 0.0 || (s == t1 && t1 == t0)) continue;
      const V3 face(x.x(), x.y(), sg * h);
      pts.push_back({fa.toWorld(0.5 * (face + x - rc * V3(0, 0, sg))), depth});
    }
  } else if (std::abs(nl.z()) < 1e-12 && d.head<2>().norm() <= 1e-12 * d.norm()) {
    // Along the side, parallel to the axis: the stretch between the cap planes.
    if (d.z() != 0.0) {
      double ta = (-h - p0.z()) / d.z(), tb = (h - p0.z()) / d.z();
      if (ta > tb) std::swap(ta, tb);
      t0 = std::max(t0, ta);
      t1 = std::min(t1, tb);
    }
    for (double s : {t0, t1}) {
      const V3 x = p0 + s * d;
      const double rho = std::hypot(x.x(), x.y()), depth = r + rc - rho;
      if (t0 > t1 || depth <= 0.0 || rho <= 0.0 || (s == t1 && t1 == t0)) continue;
      const V3 e(x.x() / rho, x.y() / rho, 0.0);
      pts.push_back({fa.toWorld(0.5 * (V3(r * e.x(), r * e.y(), x.z()) + x - rc * e)), depth});
    }
  }
  if (!pts.empty()) c.points = pts;
  return c;
}

using Pair = Contact (*)(const Shape&, const Frame&, const Shape&, const Frame&);

Contact sphereSphere(const Shape& a, const Frame& fa, const Shape& b, const Frame& fb) {
  return spheres(fa.p, a.radius, fb.p, b.radius);
}
Contact planeSphereP(const Shape&, const Frame& fa, const Shape& b, const Frame& fb) { return planeSphere(fa, b, fb); }
Contact planeCapsuleP(const Shape&, const Frame& fa, const Shape& b, const Frame& fb) {
  return planeCapsule(fa, b, fb);
}
Contact planeBoxP(const Shape&, const Frame& fa, const Shape& b, const Frame& fb) { return planeBox(fa, b, fb); }
Contact planeCylinderP(const Shape&, const Frame& fa, const Shape& b, const Frame& fb) {
  return planeCylinder(fa, b, fb);
}

// The narrow phase of the ordered pair (a, b), or null.
Pair lookup(ShapeKind a, ShapeKind b) {
  using K = ShapeKind;
  if (a == K::Sphere && b == K::Sphere) return sphereSphere;
  if (a == K::Plane && b == K::Sphere) return planeSphereP;
  if (a == K::Plane && b == K::Capsule) return planeCapsuleP;
  if (a == K::Plane && b == K::Box) return planeBoxP;
  if (a == K::Plane && b == K::Cylinder) return planeCylinderP;
  if (a == K::Box && b == K::Sphere) return boxSphere;
  if (a == K::Box && b == K::Box) return boxBox;
  if (a == K::Box && b == K::Capsule) return boxCapsule;
  if (a == K::Capsule && b == K::Sphere) return capsuleSphere;
  if (a == K::Capsule && b == K::Capsule) return capsuleCapsule;
  if (a == K::Cylinder && b == K::Sphere) return cylinderSphere;
  if (a == K::Cylinder && b == K::Box) return cylinderBox;
  if (a == K::Cylinder && b == K::Capsule) return cylinderCapsule;
  if (a == K::Cylinder && b == K::Cylinder) return cylinderCylinder;
  if (a == K::Funnel && b == K::Sphere) return funnelSphere;
  if (a == K::Funnel && (b == K::Capsule || b == K::Cylinder)) return funnelBody;
  if (a == K::Mesh && (b == K::Sphere || b == K::Capsule)) return meshBody;
  if (a == K::Mesh && b == K::Box) return meshBox;
  if (a == K::Mesh && b == K::Cylinder) return meshCylinder;
  return nullptr;
}

}  // namespace

Frame orthonormal(const Frame& f) {
  // Well inside: left as it is, so converged states give the same numbers.
  if ((f.R.transpose() * f.R - M3::Identity()).cwiseAbs().maxCoeff() <= 1e-9) return f;
  Frame g = f;
  const V3 x = f.R.col(0).normalized();
  const V3 y = (f.R.col(1) - x.dot(f.R.col(1)) * x).normalized();
  g.R.col(0) = x;
  g.R.col(1) = y;
  g.R.col(2) = x.cross(y);
  return g;
}

bool supported(ShapeKind a, ShapeKind b) { return lookup(a, b) || lookup(b, a); }

Contact collide(const Shape& a, const Frame& fa0, const Shape& b, const Frame& fb0) {
  const Frame fa = orthonormal(fa0), fb = orthonormal(fb0);
  // Points without a normal of their own take the pair's.
  auto own = [](Contact c, bool swapped) {
    if (swapped) c.normal = -c.normal;
    for (ContactPoint& p : c.points) p.normal = p.normal.isZero() ? c.normal : V3(swapped ? -p.normal : p.normal);
    return c;
  };
  if (Pair f = lookup(a.kind, b.kind)) return own(f(a, fa, b, fb), false);
  if (Pair f = lookup(b.kind, a.kind)) return own(f(b, fb, a, fa), true);
  throw std::invalid_argument(std::string("contact between a ") + kindName(a.kind) + " and a " + kindName(b.kind) +
                              " is not supported");
}

}  // namespace pm::contact
