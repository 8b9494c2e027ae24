#include "mechanics/contact/funnel_pairs.h"

#include "mechanics/contact/segment_geometry.h"

#include <algorithm>
#include <array>
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

// An azimuth with its cosine and sine, computed once per angle and, for the
// samples, once per process (they were 60 % of a funnel pair's
// instructions; the values are the same).
struct Azimuth {
  double q, c, s;
};
Azimuth azimuth(double q) { return {q, std::cos(q), std::sin(q)}; }
constexpr int kSamples = 64;
const std::array<Azimuth, kSamples>& sampleAzimuths() {
  static const std::array<Azimuth, kSamples> table = [] {
    std::array<Azimuth, kSamples> t;
    for (int i = 0; i < kSamples; ++i) t[i] = azimuth(i * (2.0 * std::numbers::pi / kSamples));
    return t;
  }();
  return table;
}
// The best of the 64 samples of f: its index, and f there.
template <class F>
int bestSample(const F& f, double& best) {
  const auto& samples = sampleAzimuths();
  int k = 0;
  best = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < kSamples; ++i)
    if (const double v = f(samples[i]); v > best) best = v, k = i;
  return k;
}
// The zero of df in (lo, hi), dlo = df(lo) > 0 > dhi = df(hi), to rounding
// (1e-15 rad), by regula falsi with the Illinois rule, bisecting whenever a
// step fails to halve the bracket (f is smooth there or has a kink where df
// changes sign).
template <class D>
double slopeZero(const D& df, double lo, double hi, double dlo, double dhi) {
  int kept = 0;  // +1: lo moved last (hi kept), -1: hi moved last
  bool bisect = false;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double w = hi - lo;
    double x = bisect ? 0.5 * (lo + hi) : lo + w * dlo / (dlo - dhi);
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
    if (x <= lo || x >= hi) break;
    const double v = df(azimuth(x));
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
// The azimuth in [0, 2 pi) where f is largest (f and df take an Azimuth): the best of 64 samples, then
// the zero of its derivative df bracketed there (slopeZero).
// Flat (no sign change): the sample.
template <class F, class D>
double argMax(const F& f, const D& df) {
  const double h = 2.0 * std::numbers::pi / kSamples;
  double best;
  const int k = bestSample(f, best);
  double lo = (k - 1) * h, hi = (k + 1) * h, dlo = df(azimuth(lo)), dhi = df(azimuth(hi));
  if (!(dlo > 0.0 && dhi < 0.0)) {
    // The maximum in one half: bracket it there, else keep the sample.
    const double d = df(sampleAzimuths()[k]);
    if (d > 0.0 && dhi < 0.0) lo = k * h, dlo = d;
    else if (d < 0.0 && dlo > 0.0) hi = k * h, dhi = d;
    else return k * h;
  }
  return slopeZero(df, lo, hi, dlo, dhi);
}
// argMax for an f with several maxima between neighbouring samples (a rim's
// depth along a cylinder): golden section about the best sample first, each
// step keeping the best point, so the result is never lower than the sample
// (a bracket of df's signs about it may hold a lower maximum: path 221 of
// randomPathsWithoutJumps landed on one 10 mm shallower), to 1e-4 rad; then
// the zero of df in that bracket (slopeZero), else the best point.
template <class F, class D>
double argMaxKeepingBest(const F& f, const D& df) {
  const double h = 2.0 * std::numbers::pi / kSamples, gr = 0.5 * (3.0 - std::sqrt(5.0));
  double fb;
  const int k = bestSample(f, fb);
  double a = (k - 1) * h, c = (k + 1) * h, b = k * h;
  while (c - a > 1e-4) {
    const bool right = c - b > b - a;
    const double x = right ? b + gr * (c - b) : b - gr * (b - a);
    if (const double fx = f(azimuth(x)); fx > fb) {
      (right ? a : c) = b;
      b = x, fb = fx;
    } else {
      (right ? c : a) = x;
    }
  }
  // Widened by its width: the slope's zero (df a difference) may lie just
  // outside, and slopeZero then lands on it whatever the steps before.
  a -= 1e-4, c += 1e-4;
  const double da = df(azimuth(a)), dc = df(azimuth(c));
  return da > 0.0 && dc < 0.0 ? slopeZero(df, a, c, da, dc) : b;
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
  V3 at = V3::Zero();  // a plane feature's deepest point of the body
  double share = 1.0;  // rim on rim: its weight against the other features' choice
  // A plane feature's deepest point in the solid near the bisector of two
  // ways out: the share of this feature as its way out, in (0, 1), and the
  // other way (1 or 0 elsewhere: the sharp choice holds).
  double way = 1.0;
  int other = -1;
  // A face whose deepest point lies nearer the other face's plane than its
  // own (in the corner by the other face's rim, the whole generator away).
  bool farFace = false;
  // The feature's weight when its deepest point is a rim's cut point and
  // the stretch's other end nears the plane (depth / (kBand D)), so it hands
  // over to the other features as the stretch vanishes into the rim (1: the
  // sharp choice holds).
  double fade = 1.0;
  // Faded out (chosenByWays' second choice): no contact, but still the way
  // out of its overlap (fadedDistance): a feature deeper than that never
  // counts for want of it (the vanishing stretch hands over to the rim,
  // not to a plane's false deep penetration).
  bool faded = false;
  double fadedDistance = 0.0;
  // A face's weight against not counting (chosenByWays): its deepest
  // point's entry, 0 at the cone's surface, rising smoothly (C1) to 1 at
  // kEnter of its depth (of the radius, when deeper) past it into the
  // solid (1 at once where the face is that point's own way out), shared
  // near the two ends' tie with the other end's: its entry when on the
  // face, else (its foot in the cone, where it leads once the deeper and
  // its foot on the face) its foot's distance from the surface scaling
  // this one. 1 after the split: the choice is the sharp one.
  double enter = 1.0;
};

// Where two choices hand over (two ways out of the solid, two features'
// depths), the farther (deeper) one's share for depths near <= far: one
// half where they are equal, falling smoothly (C1) to zero where far - near
// reaches kBand of far, the same rule as the mesh's ridges (mesh_pairs.cpp):
// the force hands over within the band, and beyond it is the sharp choice's.
constexpr double kBand = 0.5;
double farShare(double near, double far) {
  if (!(far > 0.0)) return 0.0;
  const double s = (far - near) / (kBand * far);
  return s >= 1.0 ? 0.0 : 0.5 * (1.0 - s) * (1.0 - s);
}
// A face counting for want of the wall enters over this fraction of its
// depth past the cone's surface (Candidate::enter): a quarter let the
// rim's choice keep weight where the rim's depth jumps as its point leaves
// the body (path 221 at s = 0.968; so did a band of 0.1 to 0.3 of the
// depth itself, which kept the wider sweep's entry ramps within the bound:
// 138 to 161 at s = 0.97).
constexpr double kEnter = 0.1;
// 0 at t <= 0 rising smoothly (C1) to 1 at t >= 1.
double rise(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// w a + (1 - w) b: the force sum depth_i n moves linearly from b's to a's.
Candidate blended(const Candidate& a, const Candidate& b, double w) {
  Candidate out;
  out.normal = (w * a.normal + (1.0 - w) * b.normal).normalized();
  out.distance = w * a.distance + (1.0 - w) * b.distance;
  for (const ContactPoint& p : a.points) out.points.push_back({p.point, w * p.depth});
  for (const ContactPoint& p : b.points) out.points.push_back({p.point, (1.0 - w) * p.depth});
  out.valid = true;
  return out;
}

// The candidate that gives the contact: cands are the wall, the base and
// mouth faces, then the base and mouth rims; len the generator's length.
// Each sharp choice between the wall and a face (the pair's shallower, the
// most penetrating) is blended with the other within the band of farShare.
Candidate chosen(std::vector<Candidate> cands, double len) {
  // The wall and faces (cands 0 to 2) first: a point in the solid's corner
  // by a rim (closer to the face's plane than to the wall's, or the
  // reverse) is the wall's (the face's) when the other plane has no
  // contact there: an extended body's deepest point is not a point body.
  // (Never one face for the other, nor a face for the wall at a point
  // nearer the other face's plane: the plane of a face far away bounds a
  // deep, false penetration, up to the generator's length.)
  // A cylinder's end rim point in the solid's corner by a rim, the deepest
  // point of both the wall and a face, its shortest way out through one of
  // them: the body goes on past the corner, so both planes' overlaps are
  // true separations and the smaller one is the contact (the point's own
  // shortest way out picks the face's, deeper by the body's extent).
  for (int f = 1; f < 3; ++f) {
    Candidate &w = cands[0], &k = cands[f];
    const bool pair = (!w.valid && k.valid && w.wayOut == f) || (w.valid && !k.valid && k.wayOut == 0);
    if (!pair || w.distance >= 0.0 || k.distance >= 0.0 || (w.at - k.at).norm() > 1e-12 * len) continue;
    w.wayOut = k.wayOut = -1;
    const double deeper = farShare(-std::max(w.distance, k.distance), -std::min(w.distance, k.distance));
    if (deeper > 0.0) {
      std::vector<Candidate> byWall = cands, byFace = cands;
      byWall[0].valid = byFace[f].valid = true;
      byWall[f].valid = byFace[0].valid = false;
      const double wallShare = w.distance >= k.distance ? 1.0 - deeper : deeper;
      return blended(chosen(byWall, len), chosen(byFace, len), wallShare);
    }
    w.valid = w.distance >= k.distance;
    k.valid = !w.valid;
  }
  bool counts[3];
  for (int f = 0; f < 3; ++f) counts[f] = cands[f].valid;
  for (int f = 0; f < 3; ++f)
    if (const int w = cands[f].wayOut; !counts[f] && w >= 0 && (f == 0) != (w == 0) && !counts[w] && !cands[f].farFace &&
                                       cands[f].enter > 0.0 && !(cands[w].faded && cands[f].distance < cands[w].fadedDistance))
      cands[f].valid = true;
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
  // The wall and a face both counting and penetrating: the shallower's
  // share by depth, so the normal turns as their depths cross.
  const Candidate* second = nullptr;
  if (best - cands.data() < 3 && best->distance < 0.0)
    for (int f = 0; f < 3; ++f)
      if (&cands[f] != best && cands[f].valid && cands[f].distance < 0.0 && (!second || cands[f].distance < second->distance))
        second = &cands[f];
  const double minor = second ? farShare(-second->distance, -best->distance) : 0.0;
  return minor > 0.0 ? blended(*best, *second, 1.0 - minor) : *best;
}

// chosen, with each plane feature whose deepest point lies near the
// bisector of two ways out (way in (0, 1)) counted by its share: the
// choices with it counting (its way out) and not (the other) blended.
Candidate chosenByWays(const std::vector<Candidate>& cands, double len, int from = 0) {
  for (int f = from; f < 3; ++f) {
    if (const double e = cands[f].enter; e < 1.0) {
      std::vector<Candidate> with = cands, without = cands;
      with[f].enter = without[f].enter = 1.0;
      without[f].valid = false;  // counting for want of nothing
      without[f].wayOut = -1;
      without[f].fade = without[f].way = 1.0;
      return e > 0.0 ? blended(chosenByWays(with, len, f), chosenByWays(without, len, f), e) : chosenByWays(without, len, f);
    }
    if (const double fade = cands[f].fade; fade < 1.0) {
      std::vector<Candidate> whole = cands, none = cands;
      whole[f].fade = 1.0;
      none[f] = Candidate();  // no contact, never the nearest
      none[f].faded = true;
      none[f].fadedDistance = cands[f].distance;
      return fade > 0.0 ? blended(chosenByWays(whole, len, f), chosenByWays(none, len, f + 1), fade)
                        : chosenByWays(none, len, f + 1);
    }
    const double s = cands[f].way;
    if (!(s > 0.0 && s < 1.0)) continue;
    // The wall's and a face's deepest point the same: chosen's pair rule
    // decides between them by their overlaps, not by the point's way out.
    bool pair = false;
    for (int g = 0; g < 3; ++g)
      pair = pair || (g != f && cands[g].distance < 0.0 && (cands[g].at - cands[f].at).norm() <= 1e-12 * len);
    if (pair) continue;
    std::vector<Candidate> counting = cands, not_ = cands;
    counting[f].valid = true;
    counting[f].wayOut = -1;
    not_[f].valid = false;
    not_[f].wayOut = cands[f].other;
    counting[f].way = not_[f].way = 1.0;
    return blended(chosenByWays(counting, len, f + 1), chosenByWays(not_, len, f + 1), s);
  }
  return chosen(cands, len);
}


// A cylinder's faces at a point X inside it, as axes pushing the body out:
// its side (depth R - rho, normal -e_r) and its nearer end (depth hl - |z|).
struct Axis {
  V3 nu = V3::UnitZ();  // funnel to body
  double depth = 0.0;   // overlap along nu
};
void cylinderAxes(const Body& b, const V3& X, Axis& side, Axis& end, V3& corner) {
  const double z = b.a.dot(X - b.c), sz = z >= 0.0 ? 1.0 : -1.0;
  const V3 r = X - b.c - z * b.a;
  const double rho = r.norm();
  const V3 er = rho > 0.0 ? V3(r / rho) : V3(b.a.unitOrthogonal());
  side = {-er, b.R - rho};
  end = {-sz * b.a, b.hl - std::abs(z)};
  corner = b.c + sz * b.hl * b.a + b.R * er;  // the end rim's point nearest X
}

// Angle of v in the funnel's meridian plane at azimuth q (radial, z).
double meridianAngle(const V3& v, double q) {
  return std::atan2(v.z(), v.x() * std::cos(q) + v.y() * std::sin(q));
}
double wrapAngle(double a) { return std::remainder(a, 2.0 * std::numbers::pi); }
// True when angle t lies on the arc from a0 to a1 (shorter than pi).
bool onArc(double t, double a0, double a1) {
  const double half = 0.5 * wrapAngle(a1 - a0), mid = a0 + half;
  return std::abs(wrapAngle(t - mid)) <= std::abs(half) + 1e-9;
}

// Rim on rim: a cylinder's end rim across one of the funnel's rims, each
// solid's corner (C, the body's end rim point nearest X; X, the funnel's rim
// point deepest in the body) inside the other. Locally two wedges: their
// overlap along an axis nu is nu . (X - C), and the separating axes are the
// two ends of the arc shared by the funnel rim's normal cone (wall, face)
// and the body corner's (side, end), in the funnel's meridian plane at X.
// The exact penetration, the smaller of the two overlaps, turns the normal
// at once where they tie (by the angle between the axes, at full depth):
// here the two axes' contacts are blended over |lambda_a - lambda_b| <
// eps, eps half the smallest of the four overlaps, so the blend vanishes
// where the configuration ends (one overlap zero) and the contact there is
// the single feature's. An axis of the funnel is its plane candidate (wall
// or face: the same corner, and a lying body's second point), one of the
// body the rim point X pushed out along it. Returns false when not across.
bool rimOnRim(const Body& b, double q, const V3& X, const V3& wallOut, const V3& faceOut,
              const Candidate& wall, const Candidate& face, double tol, Candidate& out) {
  Axis side, end;
  V3 C;
  cylinderAxes(b, X, side, end, C);
  struct Ax {
    V3 nu;
    double lam, th;
    const Candidate* plane;  // the funnel's candidate, else null
    double local;            // the wedges' overlap (lam: the whole body's)
    bool whole = false;      // lam is the plane candidate's overlap
  };
  // A funnel axis's overlap: C's along it, or its plane candidate's when
  // another point of the body, in the solid, lies deeper past the plane
  // (the overlap along an axis is the whole body's: the candidate is the
  // contact chosen when the body leaves the rim).
  auto funnelAx = [&](const V3& nu, const Candidate& k) {
    const double lam = nu.dot(X - C);
    const bool whole = (k.valid || k.wayOut >= 0) && (k.at - C).norm() > tol && -k.distance > lam;
    return Ax{nu, whole ? -k.distance : lam, meridianAngle(nu, q), &k, lam, whole};
  };
  const Ax ax[4] = {funnelAx(wallOut, wall), funnelAx(faceOut, face),
                    {side.nu, side.depth, meridianAngle(side.nu, q), nullptr, side.depth},
                    {end.nu, end.depth, meridianAngle(end.nu, q), nullptr, end.depth}};
  double lamMin = std::numeric_limits<double>::infinity();
  for (const Ax& a : ax) lamMin = std::min(lamMin, a.local);
  if (!(lamMin >= -tol)) return false;  // the plane features' own tolerance
  // Two wedges only while X is near the corner: deeper than half the
  // radius into the body, the side's normal -e_r turns round the axis and
  // flips where X crosses it; deeper than half the half-length, the end's
  // flips where X crosses the mid-plane (path 279 switched rim on rim on
  // and off there at full weight). Between 1/2 and 3/4 of the way in, the
  // contact hands over to the other features' choice (a deep body pushed
  // out by the wall or a face). (The end's hand-over made more paths jump
  // than it mended while the rim's own end way still flipped there: now
  // that way fades near the mid-plane, rimWays.)
  const double share =
      std::min(std::clamp(3.0 - 4.0 * side.depth / b.R, 0.0, 1.0), std::clamp(3.0 - 4.0 * end.depth / b.hl, 0.0, 1.0));
  if (share == 0.0) return false;
  // The shared arc's ends: the funnel's axes in the body's arc, then the
  // body's in the funnel's (one that coincides with a funnel axis is that axis).
  const Ax* ends[4];
  int n = 0;
  for (int i = 0; i < 4; ++i) {
    const Ax& a = ax[i];
    const bool inOther = i < 2 ? onArc(a.th, ax[2].th, ax[3].th) : onArc(a.th, ax[0].th, ax[1].th);
    bool dup = false;
    for (int j = 0; j < n; ++j) dup = dup || std::abs(wrapAngle(a.th - ends[j]->th)) < 1e-9;
    if (inOther && !dup) ends[n++] = &a;
  }
  if (n != 2) return false;
  // A funnel axis: its plane candidate when that one's deepest point is C
  // (a lying body's second point with it) or its overlap is the axis's,
  // else C pushed out along it.
  auto asCandidate = [&](const Ax& a) {
    if (a.plane && (a.whole || (a.plane->at - C).norm() <= tol)) return *a.plane;
    Candidate k;
    const double lam = std::max(a.lam, 0.0);
    k.distance = -lam;
    k.normal = a.nu;
    k.points.push_back({a.plane ? V3(C + 0.5 * lam * a.nu) : V3(X - 0.5 * lam * a.nu), lam});
    k.valid = true;
    return k;
  };
  // The blend's weight of ends[0]: linear in the overlaps' gap over eps,
  // half the shallower end's overlap but no more than the gap plus half
  // the other two overlaps: exactly the sharp choice where the
  // configuration ends (one of those zero).
  double other = std::numeric_limits<double>::infinity();
  for (const Ax& a : ax)
    if (&a != ends[0] && &a != ends[1]) other = std::min(other, a.local);
  const double gap = ends[1]->lam - ends[0]->lam;
  const double eps = std::max(std::min(0.5 * std::min(ends[0]->local, ends[1]->local), std::abs(gap) + 0.5 * other), 0.0);
  const double w = eps > 0.0 ? std::clamp(0.5 + gap / (2.0 * eps), 0.0, 1.0) : (gap >= 0.0 ? 1.0 : 0.0);
  out = w == 1.0 || w == 0.0 ? asCandidate(*ends[w == 1.0 ? 0 : 1]) : blended(asCandidate(*ends[0]), asCandidate(*ends[1]), w);
  out.valid = true;
  out.share = share;
  return true;
}

// A rim point x inside a cylinder with neither of its ways out (side, end)
// in the rim's normal cone: the local wedge's exact overlap, the smallest
// over the push directions n(th) = cos th n0 + sin th n1 (th in [0, pi/2],
// the meridian arc from the wall's normal to the face's) of
// lambda(n) = (x - s(-n)) . n, s the body's support point; at the arc's ends
// the wall's and the face's plane overlaps at this azimuth. Where a way out
// enters the cone its lambda is that way's depth, the old choice's. Sets n
// and the overlap's rate along the rim (dx, dn0, dn1: the derivatives of x,
// n0, n1 by the azimuth; the minimum's own th moves nothing to first order).
double rimWedge(const Body& b, const V3& x, const V3& n0, const V3& n1, const V3& dx, const V3& dn0,
                const V3& dn1, V3& n, double& rate) {
  auto lam = [&](double th) {
    const V3 m = std::cos(th) * n0 + std::sin(th) * n1;
    return (x - b.support(-m)).dot(m);
  };
  // Samples, then golden section about the smallest.
  constexpr int kArc = 8;
  const double step = 0.5 * std::numbers::pi / kArc, gr = 0.5 * (std::sqrt(5.0) - 1.0);
  int k = 0;
  double vk = lam(0.0);
  for (int i = 1; i <= kArc; ++i)
    if (const double v = lam(i * step); v < vk) vk = v, k = i;
  double lo = std::max(0, k - 1) * step, hi = std::min(kArc, k + 1) * step;
  double a = hi - gr * (hi - lo), c = lo + gr * (hi - lo), fa = lam(a), fc = lam(c);
  for (int j = 0; j < 60 && hi - lo > 1e-13; ++j) {
    if (fa <= fc) hi = c, c = a, fc = fa, a = hi - gr * (hi - lo), fa = lam(a);
    else lo = a, a = c, fa = fc, c = lo + gr * (hi - lo), fc = lam(c);
  }
  double th = 0.5 * (lo + hi), v = lam(th);
  if (vk < v) v = vk, th = k * step;
  n = std::cos(th) * n0 + std::sin(th) * n1;
  // Each end's overlap lambda_e (its support held): rates by the azimuth
  // (dq) and along the arc (dth). At a kink (the support switching ends
  // at n, the two overlaps crossing there within 1e-8 rad, one rising
  // and one falling) the minimum rides the crossing as the azimuth moves:
  // its rate is the crossing's (l1q l2th - l2q l1th) / (l2th - l1th), not
  // either end's (issue 27: 0.056 or -0.032 for 0.037).
  const V3 dn = std::cos(th) * dn0 + std::sin(th) * dn1, nt = -std::sin(th) * n0 + std::cos(th) * n1;
  const V3 s1 = b.supportEnd(-n, 1.0), s2 = b.supportEnd(-n, -1.0);
  const double l1q = dx.dot(n) + (x - s1).dot(dn), l2q = dx.dot(n) + (x - s2).dot(dn);
  const double l1th = (x - s1).dot(nt), l2th = (x - s2).dot(nt);
  const bool kink = l1th * l2th < 0.0 && std::abs((s2 - s1).dot(n)) <= 1e-8 * std::abs(l1th - l2th);
  rate = kink ? (l1q * l2th - l2q * l1th) / (l2th - l1th) : dx.dot(n) + (x - b.support(-n)).dot(dn);
  return v;
}

// The local wedge at rim point x (of radius Rr; sg 1 the mouth's, -1 the
// base's): the arc from the wall's normal to the face's and the rates of
// x and the arc's ends by the azimuth.
double rimWedgeAt(const Body& b, const V3& x, double Rr, double tr, double tz, double sg, V3& n, double& rate) {
  const double cq = x.x() / Rr, sq = x.y() / Rr;
  return rimWedge(b, x, V3(-tz * cq, -tz * sq, tr), sg * V3(tr * cq, tr * sq, tz), V3(-x.y(), x.x(), 0.0),
                  V3(tz * sq, -tz * cq, 0.0), sg * V3(-tr * sq, tr * cq, 0.0), n, rate);
}

// A rim point inside a cylinder leaves it by the shallower of its ways
// out (side, end) when that one's normal lies in the rim's normal cone,
// else by the deeper's, else by the local wedge's overlap (rimWedge). Each
// way counts by its share (1 in the cone, falling to 0 at kCone outside
// it), and where both count and their depths near a tie (the rim's
// deepest point under both lies on the corner's bisector) the deeper's
// farShare w blends them, as the wall and a face: so the normal turns
// rather than flips where a way leaves the cone or the depths cross.
// With fa, fo the shallower's and the deeper's shares, the weights are
// fa (1 - w fo), fo (1 - fa + fa w) and the wedge's (1 - fa)(1 - fo):
// the sharp choice where the shares are 0 or 1 and w = 0, and the same
// when the two ways swap at their tie (w = 1/2).
constexpr double kCone = 0.25;
// A way's share by the rim point's distance from where its normal flips
// (|z| from the mid-plane for the end, rho from the axis for the side): 0
// there, rising smoothly (C1) to 1 at kNearEnd of the half-length (at
// kNearSide of the radius). (The side's at a quarter turned the normal
// faster than the sweeps' hand bound as the deepest rim point slid along
// the rim: 10.05 on path 221 at s = 0.580.)
constexpr double kNearEnd = 0.25, kNearSide = 0.35;
double nearShare(double z, double size, double band) {
  return rise(z / (band * size));
}
struct RimWays {
  double shallow, deep, wedge;
};
RimWays rimWays(double fa, double fo, double w) {
  return {fa * (1.0 - w * fo), fo * (1.0 - fa + fa * w), (1.0 - fa) * (1.0 - fo)};
}

// The base and mouth rims' candidates (appended to cands, after the wall
// and the faces), and a cylinder's rim-on-rim contact when one is across.
void addRims(const Body& b, double rb, double rm, double L, std::vector<Candidate>& cands, Candidate& across) {
  const double len = std::hypot(rm - rb, L), tr = (rm - rb) / len, tz = L / len;
  // Rims: the body's signed distance at the circle's nearest point, when
  // the normal lies between the wall's and the face's. A rim point inside
  // a cylinder leaves it by its side or its end as rimWays weighs them (a
  // way out of the rim's normal cone is blocked by the funnel; neither in
  // it: the local wedge's overlap, rimWedge); its normal is then always
  // in the cone (a blend within kCone of it: the rim counts).
  // A cylinder's end rim across the rim is its own feature (rimOnRim).
  for (const bool mouth : {false, true}) {
    const double Rr = mouth ? rm : rb, zr = mouth ? L : 0.0;
    auto P = [&](const Azimuth& a) { return V3(Rr * a.c, Rr * a.s, zr); };
    const double sg = mouth ? 1.0 : -1.0;
    // How far n lies inside the rim's normal cone at x (the smaller of its
    // two bounds' sines; >= 0 inside).
    auto coneMargin = [&](const V3& n, const V3& x) {
      const double nr = n.dot(V3(x.x(), x.y(), 0.0)) / Rr, nz = n.z();
      return std::min(-tz * nr + tr * nz, sg * (tr * nr + tz * nz));
    };
    auto inCone = [&](const V3& n, const V3& x) { return coneMargin(n, x) >= -1e-12; };
    // A way out's share by its normal's place: 1 in the cone, falling
    // smoothly (C1) to 0 at kCone outside it.
    auto coneShare = [&](const V3& n, const V3& x) {
      const double m = coneMargin(n, x);
      return m >= -1e-12 ? 1.0 : rise(1.0 + m / kCone);
    };
    // The body's signed distance at rim point x; inside a cylinder its
    // ways out (side, end) by their shares (rimWays). The rim point is
    // chosen by it plus kappa times both ways' depths: along a
    // stretch of the rim under a cylinder's end (or side) the first is
    // flat, and the deepest under both is the corner's (the middle of the
    // stretch, not any point of it). rate: the distance's rate along the
    // rim (by the azimuth), leaving out the shares' own rates: exact (exact
    // = true) only where every share is 0 or 1.
    auto rimSdf = [&](const V3& x, V3& g, double kappa, double& rate, bool& exact) {
      const V3 dx(-x.y(), x.x(), 0.0);
      const double sd = b.sdf(x, g);
      rate = g.dot(dx);
      exact = true;
      if (!b.cylinder || sd >= 0.0) return sd;
      Axis side, end;
      V3 corner;
      cylinderAxes(b, x, side, end, corner);
      const bool bySide = side.depth <= end.depth;
      const Axis &a = bySide ? side : end, &o = bySide ? end : side;
      // The end's normal flips where x crosses the mid-plane (hl deep),
      // the side's -e_r where it crosses the axis (R deep): each counts
      // less as x nears them, in the search as in the contact (the
      // search by the side's full depth R - rho jumped where -e_r
      // flipped, and its maximum was not the contact's).
      auto share = [&](const Axis& w) {
        const double near = &w == &end ? nearShare(b.hl - end.depth, b.hl, kNearEnd)
                                      : nearShare(b.R - side.depth, b.R, kNearSide);
        return near * coneShare(w.nu, x);
      };
      const double fa = share(a), fo = share(o), w = farShare(a.depth, o.depth);
      exact = (fa == 0.0 || fa == 1.0) && (fo == 0.0 || fo == 1.0) && w == 0.0;
      const RimWays c = rimWays(fa, fo, w);
      V3 n = c.shallow * a.nu + c.deep * o.nu;
      double depth = c.shallow * a.depth + c.deep * o.depth, r = n.dot(dx);
      if (c.wedge > 0.0) {
        V3 nw;
        double rw;
        depth += c.wedge * rimWedgeAt(b, x, Rr, tr, tz, sg, nw, rw);
        n += c.wedge * nw;
        r += c.wedge * rw;
      }
      g = -n.normalized();
      rate = -(r + kappa * (side.nu + end.nu).dot(dx));
      return -(depth + kappa * (side.depth + end.depth));
    };
    V3 g;
    double rate;
    bool exact;
    // The search's slope: rimSdf's rate where exact, else its central
    // difference over 1e-4 rad (the shares' rates included; its zero is
    // off the maximum by the order of the step squared, not at all where
    // the depth is symmetric about it; over 1e-7 rad its rounding turned
    // rimWedgeByHand's normal by 2e-11 rad).
    auto depth = [&](const Azimuth& t) { return -rimSdf(P(t), g, 1e-6, rate, exact); };
    auto slope = [&](const Azimuth& t) {
      rimSdf(P(t), g, 1e-6, rate, exact);
      if (exact) return -rate;
      constexpr double e = 1e-4;
      return (rimSdf(P(azimuth(t.q - e)), g, 1e-6, rate, exact) - rimSdf(P(azimuth(t.q + e)), g, 1e-6, rate, exact)) / (2.0 * e);
    };
    // (A capsule keeps argMax: its depth, the signed distance, has an exact
    // slope and no ways' shares.)
    const double q = b.cylinder ? argMaxKeepingBest(depth, slope) : argMax(depth, slope);
    const V3 x = P(azimuth(q));
    Candidate k;
    k.distance = rimSdf(x, g, 0.0, rate, exact);
    k.normal = -g;
    k.valid = inCone(k.normal, x) || (b.cylinder && k.distance < 0.0);  // inside: rimWays' normal
    if (b.cylinder && k.distance < 0.0) {
      const V3 faceOut = (mouth ? 1.0 : -1.0) * V3(tr * std::cos(q), tr * std::sin(q), tz);
      Candidate r;
      if (rimOnRim(b, q, x, -V3(tz * std::cos(q), tz * std::sin(q), -tr), faceOut, cands[0], cands[mouth ? 2 : 1], 1e-12 * len, r) &&
          (!across.valid || r.distance < across.distance))
        across = r;
    }
    if (k.distance < 0.0) k.points.push_back({x + 0.5 * k.distance * k.normal, -k.distance});
    cands.push_back(k);
  }
}

// The body B in the funnel's frame.
Body bodyOf(const Frame& fa, const Shape& s, const Frame& fb) {
  Body b;
  b.c = fa.toLocal(fb.p);
  b.a = fa.R.transpose() * fb.R.col(2);
  b.hl = s.halfLength;
  b.R = s.radius;
  b.cylinder = s.kind == ShapeKind::Cylinder;
  return b;
}

// The funnel's solid in its frame: the cone's wall and its two faces.
struct Cone {
  double rb, rm, L, len, tr, tz;  // tr, tz: along the generator
  explicit Cone(const Shape& f)
      : rb(f.radius), rm(f.mouthRadius), L(f.length), len(std::hypot(rm - rb, L)), tr((rm - rb) / len), tz(L / len) {}
  static double rhoOf(const V3& x) { return std::hypot(x.x(), x.y()); }
  double inside(const V3& x) const { return -tz * (rhoOf(x) - rb) + tr * x.z(); }  // s: > 0 inside the cone
  double along(const V3& x) const { return (tr * (rhoOf(x) - rb) + tz * x.z()) / len; }  // u: 0 base, 1 mouth
  // Which way out of the solid is shortest from x: 0 the wall, 1 the base
  // face, 2 the mouth face (-1: x is not in the solid).
  int wayOut(const V3& x) const {
    const double u = along(x), w = -inside(x), tol = 1e-12 * len;
    if (w < -tol || u < -1e-12 || u > 1.0 + 1e-12) return -1;
    const double base = u * len, mouth = (1.0 - u) * len;
    if (w <= std::min(base, mouth) + tol) return 0;
    return base <= mouth ? 1 : 2;
  }
  // Feature f's share as the way out of x in the solid (its distance
  // against the nearer of the other two ways'), and that other way.
  double wayShare(const V3& x, int f, int& other) const {
    const double u = along(x), ways[3] = {-inside(x), u * len, (1.0 - u) * len};
    const int o1 = f == 0 ? 1 : 0, o2 = f == 2 ? 1 : 2;
    other = ways[o1] <= ways[o2] ? o1 : o2;
    const double mine = ways[f], theirs = ways[other];
    return mine <= theirs ? 1.0 - farShare(mine, theirs) : farShare(theirs, mine);
  }
  V3 wallN(const Azimuth& p) const { return V3(tz * p.c, tz * p.s, -tr); }
  V3 wallN1(const Azimuth& p) const { return V3(-tz * p.s, tz * p.c, 0.0); }
  V3 gen(const Azimuth& p) const { return V3(tr * p.c, tr * p.s, tz); }
  V3 gen1(const Azimuth& p) const { return V3(-tr * p.s, tr * p.c, 0.0); }
};

}  // namespace

double funnelRimWedge(const Shape& f, const Frame& fa, const Shape& s, const Frame& fb, bool mouth, double q, double& rate) {
  const double len = std::hypot(f.mouthRadius - f.radius, f.length), Rr = mouth ? f.mouthRadius : f.radius;
  V3 n;
  return rimWedgeAt(bodyOf(fa, s, fb), V3(Rr * std::cos(q), Rr * std::sin(q), mouth ? f.length : 0.0), Rr,
                    (f.mouthRadius - f.radius) / len, f.length / len, mouth ? 1.0 : -1.0, n, rate);
}

Contact funnelBody(const Shape& f, const Frame& fa, const Shape& s, const Frame& fb) {
  const Body b = bodyOf(fa, s, fb);
  const Cone cone(f);

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
    k.at = x;
    // Penetrating, the deepest point must be in the solid with this
    // feature its shortest way out: each plane bounds more than its feature.
    const bool onIt = onFeature(x - depth * d);
    k.valid = onIt && (depth <= 0.0 || cone.wayOut(x) == feature);
    if (onIt && !k.valid && cone.wayOut(x) >= 0) k.wayOut = cone.wayOut(x);
    if (onIt && depth > 0.0 && cone.wayOut(x) >= 0) k.way = cone.wayShare(x, feature, k.other);
    if (feature > 0) k.farFace = (feature == 1) == (cone.along(x) > 0.5);
    if (feature > 0 && depth > 0.0 && onIt) {
      // The face's weight against not counting (Candidate::enter): x's
      // entry by its distance past the cone's surface (1 where it counts
      // by its own way out; counting at once for want of the wall as its
      // foot crossed the rim, the face took over from the rim 7 mm deeper:
      // path 221 at s = 0.623). The other end past the plane: on the face,
      // its entry shares with x's near their tie (farShare), as the two
      // swap; off it (in the cone), it leads as the deeper where its foot
      // crosses onto the face, at entry 0, so its foot's distance from the
      // surface scales x's entry, by the same share. (By x's entry alone
      // the weight jumped there, 1 to 0, as the lead swapped ends: 538 and
      // 508 on paths 309 and 1036 of widerRandomPathsSweep.)
      auto entry = [&](const V3& X, double dX) {
        const double past = -std::max(cone.inside(X), cone.inside(X - dX * d));  // X and its foot in the solid
        return cone.wayOut(X) == feature ? 1.0 : rise(past / (kEnter * std::min(b.R, dX)));
      };
      k.enter = entry(x, depth);
      const V3 x2 = b.supportEnd(d, -e);
      if (const double d2 = x2.dot(d) - h; b.hl > 0.0 && d2 > 0.0)
        if (const double w = d2 <= depth ? farShare(d2, depth) : 1.0 - farShare(depth, d2); w > 0.0) {
          if (const V3 f2 = x2 - d2 * d; onFeature(f2))
            k.enter = (1.0 - w) * k.enter + w * entry(x2, d2);
          else
            k.enter *= 1.0 - w * (1.0 - rise(cone.inside(f2) / (kEnter * std::min(b.R, d2))));
        }
    }
    if (depth > 0.0) {
      k.points.push_back({x - 0.5 * depth * d, depth});
      // The body's support line from x to the other end's support point
      // x2 (its depth linear along it), up to where it leaves the plane
      // (lamPlane): a second point at x2 or, when the line is past the
      // feature's rim before that, at the last of the line still on the
      // feature, so the point follows the end across the rim. With x2 clear
      // of the plane (d2 < 0) the cut point fades out over the band,
      // d2 from 0 to -kBand depth, rather than vanishing where d2 = 0.
      const V3 x2 = b.supportEnd(d, -e);
      const double d2 = x2.dot(d) - h;
      const double lamPlane = d2 >= 0.0 ? 1.0 : depth / (depth - d2);
      auto footAt = [&](double l) { return V3(x + l * (x2 - x) - (depth + l * (d2 - depth)) * d); };
      if (b.hl > 0.0 && lamPlane > 0.0 && onIt) {
        double lam = 1.0;
        if (!onFeature(footAt(lamPlane))) {
          double lo = 0.0, hi = lamPlane;
          for (int i = 0; i < 60; ++i) {
            const double mid = 0.5 * (lo + hi);
            (onFeature(footAt(mid)) ? lo : hi) = mid;
          }
          lam = lo;
        } else if (d2 < 0.0) {
          lam = 0.0;  // the line ends in the plane on the feature: no second point
        }
        const V3 X = x + lam * (x2 - x);
        const double D = depth + lam * (d2 - depth);
        // A stretch cut by the rim and shorter than the body's radius is
        // becoming the point contact of the rim (one point): its cut end's
        // point carries the share length / radius of its depth, so the
        // force does not halve when the stretch vanishes.
        const double fade = d2 >= 0.0 ? 1.0 : std::max(0.0, 1.0 + d2 / (kBand * depth));
        const double share = fade * (lam < 1.0 ? std::min(1.0, lam * (x2 - x).norm() / b.R) : 1.0);
        if (lam > 0.0 && D > 0.0 && share > 0.0) k.points.push_back({X - 0.5 * D * d, share * D});
        k.distance = -std::max(depth, D);
        // The cut point deepest: the feature fades as the stretch's start
        // (x) leaves the plane, where the stretch vanishes into the rim.
        if (lam < 1.0 && D > depth) k.fade = std::clamp(depth / (kBand * D), 0.0, 1.0);
      }
    }
    return k;
  };
  std::vector<Candidate> cands;
  // Inner wall: the foot between the ends.
  {
    const double p = argMax([&](const Azimuth& q) {
                              const V3 m = cone.wallN(q);
                              return b.support(m).dot(m);
                            },
                            [&](const Azimuth& q) { return b.support(cone.wallN(q)).dot(cone.wallN1(q)); });
    cands.push_back(planar(cone.wallN(azimuth(p)), cone.tz * cone.rb, 0, [&](const V3& foot) {
      const double u = cone.along(foot);
      return u >= 0.0 && u <= 1.0;
    }));
  }
  auto outsideCone = [&](const V3& foot) { return cone.inside(foot) <= 1e-12 * cone.len; };
  // Base face (below it is free): the foot outside the cone.
  {
    const double p = argMax([&](const Azimuth& q) {
                              const V3 t = cone.gen(q);
                              return b.support(t).dot(t);
                            },
                            [&](const Azimuth& q) { return b.support(cone.gen(q)).dot(cone.gen1(q)); });
    cands.push_back(planar(cone.gen(azimuth(p)), cone.tr * cone.rb, 1, outsideCone));
  }
  // Mouth face (the solid below it is convex): the plane that separates
  // most, max over psi of min over the body of x . t(psi).
  {
    const double p = argMax([&](const Azimuth& q) {
                              const V3 t = cone.gen(q);
                              return b.support(-t).dot(t);
                            },
                            [&](const Azimuth& q) { return b.support(-cone.gen(q)).dot(cone.gen1(q)); });
    cands.push_back(planar(-cone.gen(azimuth(p)), -(cone.tr * cone.rm + cone.tz * cone.L), 2, outsideCone));
  }
  Candidate across;
  addRims(b, cone.rb, cone.rm, cone.L, cands, across);
  Candidate best = across.valid && across.share == 1.0 ? across : chosenByWays(cands, cone.len);
  if (across.valid && across.share < 1.0) best = blended(across, best, across.share);
  Contact c;
  c.distance = best.distance;
  c.normal = fa.R * best.normal;
  if (c.distance < 0.0)
    for (const ContactPoint& p : best.points) c.points.push_back({fa.toWorld(p.point), p.depth});
  return c;
}

}  // namespace pm::contact
