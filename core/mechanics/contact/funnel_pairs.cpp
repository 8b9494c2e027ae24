#include "mechanics/contact/funnel_pairs.h"

#include "mechanics/contact/segment_geometry.h"

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

namespace pm::contact {

namespace {

// The capsule or cylinder in the funnel's frame: centre c, unit axis a.
struct Body {
  V3 c, a;
  double hl = 0.0, R = 0.0;
  bool cylinder = false;

  // The support point on end e (+-1) in direction d (unit): the end's
  // sphere (capsule) or rim (cylinder) point furthest along d.
  V3 supportEnd(const V3& d, double e) const {
    const V3 base = c + e * hl * a;
    if (!cylinder) return base + R * d;
    const V3 r = d - a.dot(d) * a;
    const double n = r.norm();
    return n > 1e-15 ? V3(base + (R / n) * r) : base;
  }
  double endOf(const V3& d) const { return a.dot(d) >= 0.0 ? 1.0 : -1.0; }
  V3 support(const V3& d) const { return supportEnd(d, endOf(d)); }

  // Signed distance of the body at x, and its gradient.
  double sdf(const V3& x, V3& grad) const {
    if (!cylinder) {
      const V3 v = x - closestOnSegment(c - hl * a, c + hl * a, x);
      const double L = v.norm();
      grad = L > 0.0 ? V3(v / L) : V3(a.unitOrthogonal());
      return L - R;
    }
    const double z = a.dot(x - c), sz = z >= 0.0 ? 1.0 : -1.0;
    const V3 r = x - c - z * a;
    const double rho = r.norm();
    const V3 er = rho > 0.0 ? V3(r / rho) : V3(a.unitOrthogonal());
    const double dr = rho - R, dz = std::abs(z) - hl;
    if (dr > 0.0 || dz > 0.0) {
      const double pr = std::max(dr, 0.0), pz = std::max(dz, 0.0), L = std::hypot(pr, pz);
      grad = (pr * er + pz * sz * a) / L;
      return L;
    }
    grad = dr > dz ? er : V3(sz * a);
    return std::max(dr, dz);
  }
};

// The azimuth in [0, 2 pi) where f is largest: the best of 64 samples, then
// the zero of its derivative df bracketed there, to rounding (1e-15 rad),
// by regula falsi with the Illinois rule, bisecting whenever a step fails to
// halve the bracket (f is smooth there or has a kink where df changes sign).
// Flat (no sign change): the sample.
double argMax(const std::function<double(double)>& f, const std::function<double(double)>& df) {
  constexpr int N = 64;
  const double h = 2.0 * std::numbers::pi / N;
  int k = 0;
  double best = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < N; ++i)
    if (const double v = f(i * h); v > best) best = v, k = i;
  double lo = (k - 1) * h, hi = (k + 1) * h, dlo = df(lo), dhi = df(hi);
  if (!(dlo > 0.0 && dhi < 0.0)) {
    // The maximum in one half: bracket it there, else keep the sample.
    const double d = df(k * h);
    if (d > 0.0 && dhi < 0.0) lo = k * h, dlo = d;
    else if (d < 0.0 && dlo > 0.0) hi = k * h, dhi = d;
    else return k * h;
  }
  int kept = 0;  // +1: lo moved last (hi kept), -1: hi moved last
  bool bisect = false;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double w = hi - lo;
    double x = bisect ? 0.5 * (lo + hi) : lo + w * dlo / (dlo - dhi);
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    if (x <= lo || x >= hi) break;
    const double v = df(x);
    if (v > 0.0) {
      if (kept > 0) dhi *= 0.5;
      lo = x, dlo = v, kept = 1;
    } else if (v < 0.0) {
      if (kept < 0) dlo *= 0.5;
      hi = x, dhi = v, kept = -1;
    } else {
      return x;
    }
    bisect = hi - lo > 0.5 * w;
  }
  return 0.5 * (lo + hi);
}

struct Candidate {
  double distance = std::numeric_limits<double>::infinity();
  V3 normal = V3::UnitZ();  // funnel to body, funnel frame
  std::vector<ContactPoint> points;  // funnel frame
  bool valid = false;
  // A face's or the wall's deepest point (penetrating) whose foot lies on
  // the feature but whose shortest way out of the solid is `wayOut`, another
  // plane feature (0 wall, 1 base face, 2 mouth face): it counts when that
  // one does not.
  int wayOut = -1;
};

// The candidate that gives the contact: cands are the wall, the base and
// mouth faces, then the base and mouth rims; len the generator's length.
const Candidate* chosen(std::vector<Candidate>& cands, double len) {
  // The wall and faces (cands 0 to 2) first: a point in the solid's corner
  // by a rim (closer to the face's plane than to the wall's, or the
  // reverse) is the wall's (the face's) when the other plane has no
  // contact there: an extended body's deepest point is not a point body.
  // (Never one face for the other: the plane of a face far away bounds a
  // deep, false penetration.)
  bool counts[3];
  for (int f = 0; f < 3; ++f) counts[f] = cands[f].valid;
  for (int f = 0; f < 3; ++f)
    if (const int w = cands[f].wayOut; !counts[f] && w >= 0 && (f == 0) != (w == 0) && !counts[w]) cands[f].valid = true;
  // The most penetrating; on a tie (to rounding) the wall or a face, met
  // first, whose points hold a body lying across a rim at both its ends.
  const Candidate* best = nullptr;
  for (const Candidate& k : cands)
    if (k.valid && (!best || k.distance < best->distance - 1e-12 * len)) best = &k;
  // None counts (the body's deepest point near a rim, closer to the face's
  // plane than to the wall's, while the rim's normal is still the wall's
  // side): the candidate nearest to touching, the shortest way out (a
  // plane's extension past its feature gives deep, false penetrations).
  if (!best)
    for (const Candidate& k : cands)
      if (!best || std::abs(k.distance) < std::abs(best->distance)) best = &k;
  return best;
}

}  // namespace

Contact funnelBody(const Shape& f, const Frame& fa, const Shape& s, const Frame& fb) {
  Body b;
  b.c = fa.toLocal(fb.p);
  b.a = fa.R.transpose() * fb.R.col(2);
  b.hl = s.halfLength;
  b.R = s.radius;
  b.cylinder = s.kind == ShapeKind::Cylinder;
  const double rb = f.radius, rm = f.mouthRadius, L = f.length, len = std::hypot(rm - rb, L);
  const double tr = (rm - rb) / len, tz = L / len;  // along the generator
  auto rhoOf = [](const V3& x) { return std::hypot(x.x(), x.y()); };
  auto inside = [&](const V3& x) { return -tz * (rhoOf(x) - rb) + tr * x.z(); };  // s: > 0 inside the cone
  auto along = [&](const V3& x) { return (tr * (rhoOf(x) - rb) + tz * x.z()) / len; };  // u: 0 base, 1 mouth
  // Which way out of the solid is shortest from x: 0 the wall, 1 the base
  // face, 2 the mouth face (-1: x is not in the solid).
  auto wayOut = [&](const V3& x) {
    const double u = along(x), w = -inside(x), tol = 1e-12 * len;
    if (w < -tol || u < -1e-12 || u > 1.0 + 1e-12) return -1;
    const double base = u * len, mouth = (1.0 - u) * len;
    if (w <= std::min(base, mouth) + tol) return 0;
    return base <= mouth ? 1 : 2;
  };
  auto wallN = [&](double p) { return V3(tz * std::cos(p), tz * std::sin(p), -tr); };
  auto wallN1 = [&](double p) { return V3(-tz * std::sin(p), tz * std::cos(p), 0.0); };
  auto gen = [&](double p) { return V3(tr * std::cos(p), tr * std::sin(p), tz); };
  auto gen1 = [&](double p) { return V3(-tr * std::sin(p), tr * std::cos(p), 0.0); };

  // A plane family's candidate: the body beyond the plane {x . d = h} by
  // depth, pushed back along -d; the other end's point when it is beyond too.
  auto planar = [&](const V3& d, double h, int feature, const std::function<bool(const V3&)>& onFeature) {
    Candidate k;
    double e = b.endOf(d);
    V3 x = b.supportEnd(d, e);
    double depth = x.dot(d) - h;
    // The deeper end past the feature's rim while the other end presses on
    // the feature: the other end leads (the stretch between them still on
    // the feature keeps its support, below).
    if (b.hl > 0.0 && depth > 0.0 && !onFeature(x - depth * d)) {
      const V3 x2 = b.supportEnd(d, -e);
      const double d2 = x2.dot(d) - h;
      if (d2 > 0.0 && onFeature(x2 - d2 * d)) e = -e, x = x2, depth = d2;
    }
    k.distance = -depth;
    k.normal = -d;
    // Penetrating, the deepest point must be in the solid with this
    // feature its shortest way out: each plane bounds more than its feature.
    const bool onIt = onFeature(x - depth * d);
    k.valid = onIt && (depth <= 0.0 || wayOut(x) == feature);
    if (onIt && !k.valid && wayOut(x) >= 0) k.wayOut = wayOut(x);
    if (depth > 0.0) {
      k.points.push_back({x - 0.5 * depth * d, depth});
      // The body's support line from x to the other end's support point
      // x2 (its depth linear along it): a second point at x2 or, when x2 is
      // past the feature's rim, at the last of the line still on the
      // feature, so the point follows the end across the rim.
      const V3 x2 = b.supportEnd(d, -e);
      const double d2 = x2.dot(d) - h;
      if (b.hl > 0.0 && d2 > 0.0 && onIt) {
        double lam = 1.0;
        if (!onFeature(x2 - d2 * d)) {
          double lo = 0.0, hi = 1.0;
          for (int i = 0; i < 60; ++i) {
            const double mid = 0.5 * (lo + hi);
            (onFeature(x + mid * (x2 - x) - (depth + mid * (d2 - depth)) * d) ? lo : hi) = mid;
          }
          lam = lo;
        }
        const V3 X = x + lam * (x2 - x);
        const double D = depth + lam * (d2 - depth);
        if (lam > 0.0 && D > 0.0) k.points.push_back({X - 0.5 * D * d, D});
        k.distance = -std::max(depth, D);
      }
    }
    return k;
  };
  std::vector<Candidate> cands;
  // Inner wall: the foot between the ends.
  {
    const double p = argMax([&](double q) {
                              const V3 m = wallN(q);
                              return b.support(m).dot(m);
                            },
                            [&](double q) { return b.support(wallN(q)).dot(wallN1(q)); });
    cands.push_back(planar(wallN(p), tz * rb, 0, [&](const V3& foot) {
      const double u = along(foot);
      return u >= 0.0 && u <= 1.0;
    }));
  }
  auto outsideCone = [&](const V3& foot) { return inside(foot) <= 1e-12 * len; };
  // Base face (below it is free): the foot outside the cone.
  {
    const double p = argMax([&](double q) {
                              const V3 t = gen(q);
                              return b.support(t).dot(t);
                            },
                            [&](double q) { return b.support(gen(q)).dot(gen1(q)); });
    cands.push_back(planar(gen(p), tr * rb, 1, outsideCone));
  }
  // Mouth face (the solid below it is convex): the plane that separates
  // most, max over psi of min over the body of x . t(psi).
  {
    const double p = argMax([&](double q) {
                              const V3 t = gen(q);
                              return b.support(-t).dot(t);
                            },
                            [&](double q) { return b.support(-gen(q)).dot(gen1(q)); });
    cands.push_back(planar(-gen(p), -(tr * rm + tz * L), 2, outsideCone));
  }
  // Rims: the body's signed distance at the circle's nearest point, when
  // the normal lies between the wall's and the face's.
  for (const bool mouth : {false, true}) {
    const double Rr = mouth ? rm : rb, zr = mouth ? L : 0.0;
    auto P = [&](double q) { return V3(Rr * std::cos(q), Rr * std::sin(q), zr); };
    V3 g;
    const double q = argMax([&](double t) { return -b.sdf(P(t), g); },
                            [&](double t) {
                              b.sdf(P(t), g);
                              return -g.dot(V3(-Rr * std::sin(t), Rr * std::cos(t), 0.0));
                            });
    Candidate k;
    const V3 x = P(q);
    k.distance = b.sdf(x, g);
    k.normal = -g;
    const double nr = k.normal.dot(V3(std::cos(q), std::sin(q), 0.0)), nz = k.normal.z();
    const double face = (mouth ? 1.0 : -1.0) * (tr * nr + tz * nz);
    k.valid = -tz * nr + tr * nz >= -1e-12 && face >= -1e-12;
    if (k.distance < 0.0) k.points.push_back({x + 0.5 * k.distance * k.normal, -k.distance});
    cands.push_back(k);
  }
  const Candidate* best = chosen(cands, len);
  Contact c;
  c.distance = best->distance;
  c.normal = fa.R * best->normal;
  if (c.distance < 0.0)
    for (const ContactPoint& p : best->points) c.points.push_back({fa.toWorld(p.point), p.depth});
  return c;
}

}  // namespace pm::contact
