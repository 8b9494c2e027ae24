#include "mechanics/beam/beam_segment_force.h"

#include <algorithm>
#include <cmath>

namespace pm::beam {

namespace {

using mb::M3;
using mb::V3;
using Vec6 = Eigen::Matrix<double, 6, 1>;

constexpr int kSegmentValues = 7;  // N, Vy, Vz, T, My, Mz, stress

// I's deformation relative to J in J's axes (u, v, w, theta_x, theta_y,
// theta_z) and its rate.
void deformation(const mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k, Vec6& x,
                 Vec6* xd) {
  const M3 AJ = sys.markerAxes(f.J, k), AI = sys.markerAxes(f.I, k);
  const V3 r = AJ.transpose() * (sys.markerPoint(f.I, k) - sys.markerPoint(f.J, k));
  const Eigen::AngleAxisd aa(M3(AJ.transpose() * AI));
  x.head<3>() = r - V3(f.par<"length">(), 0, 0);
  x.tail<3>() = aa.angle() * aa.axis();
  if (!xd) return;
  const int bi = sys.markerBody(f.I), bj = sys.markerBody(f.J);
  const V3 wJ = AJ.transpose() * k[bj].ww;
  xd->head<3>() = AJ.transpose() * (sys.markerVelocity(f.I, k) - sys.markerVelocity(f.J, k)) - wJ.cross(r);
  xd->tail<3>() = AJ.transpose() * (k[bi].ww - k[bj].ww);
}

// K_II [d; theta]: the coordinates' coupling of bending (v with theta_z, w with theta_y).
Vec6 stiffnessTimes(const mb::ForceRT& f, const Vec6& x) {
  const double kvz = f.par<"kvz">(), kwy = f.par<"kwy">();
  Vec6 r;
  r << f.par<"kuu">() * x[0], f.par<"kvv">() * x[1] + kvz * x[5], f.par<"kww">() * x[2] + kwy * x[4], f.par<"kxx">() * x[3],
      kwy * x[2] + f.par<"kyy">() * x[4], kvz * x[1] + f.par<"kzz">() * x[5];
  return r;
}

// The axial strain measure the element's stiffness acts on: I's axial
// displacement in J's axes plus the shortening its bending within the
// element causes, 1/2 integral (v'^2 + w'^2) dx of the clamped-free Hermite
// shapes (1/2 b^T G b, G the element's geometric stiffness per unit axial
// force, its tip block (36, -+3 l; -+3 l, 4 l^2) / (30 l)). Its derivative
// along the bending coordinates is the axial force times G: the geometric
// stiffness of the deformation within the element. The element's rigid
// rotation with J's axes carries the rest (the chord's N / l).
double axialStrain(const mb::ForceRT& f, const Vec6& x, Vec6* gradient) {
  const double l = f.par<"length">(), c = 1.0 / (30.0 * l);
  // (v, theta_z): v' = theta_z; (w, theta_y): w' = -theta_y.
  const double gv = c * (36 * x[1] - 3 * l * x[5]), gz = c * (-3 * l * x[1] + 4 * l * l * x[5]);
  const double gw = c * (36 * x[2] + 3 * l * x[4]), gy = c * (3 * l * x[2] + 4 * l * l * x[4]);
  if (gradient) *gradient << 1.0, gv, gw, 0.0, gy, gz;
  return x[0] + 0.5 * (x[1] * gv + x[5] * gz + x[2] * gw + x[4] * gy);
}

// The elastic load on I (J's axes) and the element's stored energy.
Vec6 elasticLoad(const mb::ForceRT& f, const Vec6& x, const Vec6& xd, double* energy) {
  Vec6 g;
  Vec6 xe = x;
  xe[0] = axialStrain(f, x, &g);
  const Vec6 k = stiffnessTimes(f, xe);
  if (energy) *energy = 0.5 * xe.dot(k);
  // Bending and twist as the element's stiffness gives them, the axial force
  // N = kuu e along the strain's gradient; damping on the rates.
  Vec6 load = -k;
  load[0] = 0.0;
  load -= k[0] * g;
  return load - f.par<"beta">() * stiffnessTimes(f, xd);
}

double outerFibreStress(const mb::ForceRT& f, double N, double My, double Mz) {
  const double axial = std::abs(N) / f.par<"A">();
  if (f.par<"round">() > 0.5) return axial + std::hypot(My, Mz) * f.par<"cy">() / f.par<"Iz">();
  if (!(f.par<"cy">() > 0.0) || !(f.par<"cz">() > 0.0)) return NAN;
  return axial + std::abs(Mz) * f.par<"cy">() / f.par<"Iz">() + std::abs(My) * f.par<"cz">() / f.par<"Iy">();
}

void applySegment(mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k,
                  std::vector<double>& vals) {
  Vec6 x, xd;
  deformation(sys, f, k, x, &xd);
  const Vec6 load = elasticLoad(f, x, xd, nullptr);  // on I, J's axes
  const M3 AJ = sys.markerAxes(f.J, k);
  const V3 PI = sys.markerPoint(f.I, k);
  const V3 F = AJ * load.head<3>(), T = AJ * load.tail<3>();
  sys.applyForce(sys.markerBody(f.I), PI, F, T);
  sys.applyForce(sys.markerBody(f.J), PI, -F, -T);
  // The element's action on J, about J's origin, in J's axes: the resultants
  // the beam beyond J carries through J's section.
  const V3 r = AJ.transpose() * (PI - sys.markerPoint(f.J, k));
  const V3 Fj = -load.head<3>();
  const V3 Mj = r.cross(Fj) - load.tail<3>();
  vals.insert(vals.end(), {Fj[0], Fj[1], Fj[2], Mj[0], Mj[1], Mj[2], outerFibreStress(f, Fj[0], Mj[1], Mj[2])});
}

void tipValues(const mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k,
               std::vector<double>& vals) {
  const M3 A0 = sys.markerAxes(f.J, k);
  const V3 r = A0.transpose() * (sys.markerPoint(f.I, k) - sys.markerPoint(f.J, k));
  const int n = static_cast<int>(f.par<"segments">());
  double smax = 0.0;
  const size_t first = vals.size() >= static_cast<size_t>(n * kSegmentValues) ? vals.size() - n * kSegmentValues : 0;
  for (size_t i = first + kSegmentValues - 1; i < vals.size(); i += kSegmentValues) smax = std::max(smax, vals[i]);
  vals.insert(vals.end(), {r[1], r[2], std::hypot(r[1], r[2]), r[0] - f.par<"length">(), smax});
}

}  // namespace

bool isBeamForce(const std::string& type) { return type == "beam_segment" || type == "beam_tip"; }

std::vector<std::pair<const char*, const char*>> beamForceChannels(const std::string& type) {
  if (type == "beam_segment")
    return {{"N", "N"}, {"Vy", "N"}, {"Vz", "N"}, {"T", "N m"}, {"My", "N m"}, {"Mz", "N m"}, {"stress", "Pa"}};
  return {{"tip_v", "m"}, {"tip_w", "m"}, {"tip_deflection", "m"}, {"tip_u", "m"}, {"max_stress", "Pa"}};
}

void applyBeamForce(mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k,
                    std::vector<double>& vals) {
  if (f.type == "beam_segment")
    applySegment(sys, f, k, vals);
  else
    tipValues(sys, f, k, vals);
}

double beamForceEnergy(const mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k) {
  if (f.type != "beam_segment") return 0.0;
  Vec6 x;
  deformation(sys, f, k, x, nullptr);
  double e = 0.0;
  elasticLoad(f, x, Vec6::Zero(), &e);
  return e;
}

}  // namespace pm::beam
