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
  x.head<3>() = r - V3(f.par("length"), 0, 0);
  x.tail<3>() = aa.angle() * aa.axis();
  if (!xd) return;
  const int bi = sys.markerBody(f.I), bj = sys.markerBody(f.J);
  const V3 wJ = AJ.transpose() * k[bj].ww;
  xd->head<3>() = AJ.transpose() * (sys.markerVelocity(f.I, k) - sys.markerVelocity(f.J, k)) - wJ.cross(r);
  xd->tail<3>() = AJ.transpose() * (k[bi].ww - k[bj].ww);
}

// K_II [d; theta]: the coordinates' coupling of bending (v with theta_z, w with theta_y).
Vec6 stiffnessTimes(const mb::ForceRT& f, const Vec6& x) {
  const double kvz = f.par("kvz"), kwy = f.par("kwy");
  Vec6 r;
  r << f.par("kuu") * x[0], f.par("kvv") * x[1] + kvz * x[5], f.par("kww") * x[2] + kwy * x[4], f.par("kxx") * x[3],
      kwy * x[2] + f.par("kyy") * x[4], kvz * x[1] + f.par("kzz") * x[5];
  return r;
}

double outerFibreStress(const mb::ForceRT& f, double N, double My, double Mz) {
  const double axial = std::abs(N) / f.par("A");
  if (f.par("round") > 0.5) return axial + std::hypot(My, Mz) * f.par("cy") / f.par("Iz");
  if (!(f.par("cy") > 0.0) || !(f.par("cz") > 0.0)) return NAN;
  return axial + std::abs(Mz) * f.par("cy") / f.par("Iz") + std::abs(My) * f.par("cz") / f.par("Iy");
}

void applySegment(mb::MultibodySystem& sys, const mb::ForceRT& f, const std::vector<mb::Kin>& k,
                  std::vector<double>& vals) {
  Vec6 x, xd;
  deformation(sys, f, k, x, &xd);
  const Vec6 load = -stiffnessTimes(f, x + f.par("beta") * xd);  // on I, J's axes
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
  const int n = static_cast<int>(f.par("segments"));
  double smax = 0.0;
  const size_t first = vals.size() >= static_cast<size_t>(n * kSegmentValues) ? vals.size() - n * kSegmentValues : 0;
  for (size_t i = first + kSegmentValues - 1; i < vals.size(); i += kSegmentValues) smax = std::max(smax, vals[i]);
  vals.insert(vals.end(), {r[1], r[2], std::hypot(r[1], r[2]), r[0] - f.par("length"), smax});
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
  return 0.5 * x.dot(stiffnessTimes(f, x));
}

}  // namespace pm::beam
