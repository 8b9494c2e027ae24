// MultibodySystem's force elements (spring-dampers, bushings, single and
// vector forces, impacts) and joint limit stops, the external forces'
// entry point (applyForce), and the root functions at contact onsets.
#include "mechanics/multibody.h"

#include "mechanics/beam/beam_segment_force.h"
#include "mechanics/impact_force.h"

#include <algorithm>
#include <cmath>

namespace pm::mb {

namespace {

bool isRevolute(const std::string& t) { return t == "revolute"; }

}  // namespace

void ForceRT::decode() {
  using K = Kind;
  static const std::pair<const char*, K> kinds[] = {
      {"spring_damper", K::SpringDamper}, {"rotational_spring_damper", K::RotationalSpringDamper},
      {"bushing", K::Bushing},            {"sforce", K::SForce},
      {"vforce", K::VForce},              {"vtorque", K::VTorque},
      {"impact", K::Impact}};
  kind = K::Other;
  for (const auto& [name, k] : kinds)
    if (type == name) kind = k;
  for (size_t i = 0; i < kNumForceParams; ++i) {
    auto it = p.find(std::string(kForceParams[i]));
    values[i] = it == p.end() ? 0.0 : it->second;
  }
}

double ForceRT::scale(double t) const {
  if (!hasTable) return 1.0;
  double f, df, ddf;
  table.eval(t, f, df, ddf);
  return f;
}

void MultibodySystem::applyForce(int b, const V3& P, const V3& f, const V3& tau) {
  if (bodies_[b].ground) return;
  if (pushed_) (*pushed_)[b] = 1;
  const Kin& k = kin_[b];
  F_[b] += f;
  N_[b] += k.A.transpose() * ((P - k.r).cross(f) + tau);
}

void MultibodySystem::forces(double t, const double* y, const std::vector<Kin>& k) {
  if (forces_.empty() && !hasLimits_ && contacts_.empty()) return;
  forceValues(t, y, k, forceVals_);
}

void MultibodySystem::jointLimitForces(const double* y, const std::vector<Kin>& k) {
  for (const JointRT& j : joints_) {
    using K = JointRT::Kind;
    if (!std::isfinite(j.lower) && !std::isfinite(j.upper)) continue;
    if (j.kind != K::Revolute && j.kind != K::Translational && j.kind != K::Cylindrical) continue;
    double rate = 0.0;
    const double q = jointCoordinate(j, k, y, &rate);
    double f = 0.0;
    if (std::isfinite(j.lower)) f += contact(j.lower - q, -rate, j.k, j.e, j.c, j.d);
    if (std::isfinite(j.upper)) f -= contact(q - j.upper, rate, j.k, j.e, j.c, j.d);
    if (f == 0.0) continue;
    const V3 z = markerAxes(j.J, k).col(2);
    const int bi = markers_[j.I].body, bj = markers_[j.J].body;
    if (isRevolute(j.type)) {
      applyForce(bi, k[bi].r, V3::Zero(), f * z);
      applyForce(bj, k[bj].r, V3::Zero(), -f * z);
    } else {
      const V3 P = markerPoint(j.I, k);
      applyForce(bi, P, f * z);
      applyForce(bj, P, -f * z);
    }
  }
}

// Applies every force element (and joint limit) and returns the values the
// channels show, in channel order.
void MultibodySystem::forceValues(double t, const double* y, const std::vector<Kin>& k, std::vector<double>& vals) {
  vals.clear();
  jointLimitForces(y, k);
  for (const ForceRT& fe : forces_) {
    const int bi = markers_[fe.I].body;
    const int bj = fe.J >= 0 ? markers_[fe.J].body : -1;
    const V3 PI = markerPoint(fe.I, k);
    const double sc = fe.scale(t);
    if (fe.kind == ForceRT::Kind::SpringDamper) {
      const V3 PJ = markerPoint(fe.J, k);
      const V3 d = PJ - PI;
      const double l = d.norm();
      const V3 u = l > 0 ? V3(d / l) : V3::UnitZ();
      const double ldot = u.dot(markerVelocity(fe.J, k) - markerVelocity(fe.I, k));
      // Tension: pulls I towards J.
      const double T = fe.par<"stiffness">() * (l - fe.par<"free_length">()) + fe.par<"damping">() * ldot - fe.par<"preload">();
      applyForce(bi, PI, T * u);
      applyForce(bj, PJ, -T * u);
      vals.push_back(-T);  // positive = pushing apart, like the preload
      vals.push_back(l);
    } else if (fe.kind == ForceRT::Kind::RotationalSpringDamper) {
      const V3 z = markerAxes(fe.J, k).col(2);
      double rate = 0.0;
      const double th = relativeAngle(fe.I, fe.J, k, fe.wind, y, &rate);
      const double T = -fe.par<"stiffness">() * (th - fe.par<"free_angle">()) - fe.par<"damping">() * rate + fe.par<"preload">();
      applyForce(bi, k[bi].r, V3::Zero(), T * z);
      applyForce(bj, k[bj].r, V3::Zero(), -T * z);
      vals.push_back(T);
      vals.push_back(th);
    } else if (fe.kind == ForceRT::Kind::Bushing) {
      const M3 AI = markerAxes(fe.I, k), AJ = markerAxes(fe.J, k);
      const V3 PJ = markerPoint(fe.J, k);
      const V3 d = AJ.transpose() * (PI - PJ);
      const Eigen::AngleAxisd aa(M3(AJ.transpose() * AI));
      const V3 th = aa.angle() * aa.axis();
      const V3 wJ = AJ.transpose() * k[bj].ww;
      const V3 dd = AJ.transpose() * (markerVelocity(fe.I, k) - markerVelocity(fe.J, k)) - wJ.cross(d);
      const V3 wr = AJ.transpose() * (k[bi].ww - k[bj].ww);
      V3 F, T;
      const double kn[] = {fe.par<"kx">(), fe.par<"ky">(), fe.par<"kz">()};
      const double cn[] = {fe.par<"cx">(), fe.par<"cy">(), fe.par<"cz">()};
      const double ktn[] = {fe.par<"ktx">(), fe.par<"kty">(), fe.par<"ktz">()};
      const double ctn[] = {fe.par<"ctx">(), fe.par<"cty">(), fe.par<"ctz">()};
      for (int a = 0; a < 3; ++a) {
        F[a] = -kn[a] * d[a] - cn[a] * dd[a];
        T[a] = -ktn[a] * th[a] - ctn[a] * wr[a];
      }
      applyForce(bi, PI, AJ * F, AJ * T);
      applyForce(bj, PI, -(AJ * F), -(AJ * T));
      for (int a = 0; a < 3; ++a) vals.push_back(F[a]);
      for (int a = 0; a < 3; ++a) vals.push_back(T[a]);
    } else if (fe.kind == ForceRT::Kind::SForce) {
      const double v = fe.par<"value">() * sc;
      if (fe.par<"rotational">() > 0.5) {
        const V3 z = markerAxes(fe.I, k).col(2);
        applyForce(bi, k[bi].r, V3::Zero(), v * z);
        if (bj >= 0) applyForce(bj, k[bj].r, V3::Zero(), -v * z);
      } else if (bj >= 0) {
        const V3 PJ = markerPoint(fe.J, k);
        const V3 d = PI - PJ;
        const double l = d.norm();
        const V3 u = l > 0 ? V3(d / l) : V3::UnitZ();
        applyForce(bi, PI, v * u);
        applyForce(bj, PJ, -v * u);
      } else {
        applyForce(bi, PI, v * markerAxes(fe.I, k).col(2));
      }
      vals.push_back(v);
    } else if (fe.kind == ForceRT::Kind::VForce || fe.kind == ForceRT::Kind::VTorque) {
      const M3 R = fe.ref >= 0 ? markerAxes(fe.ref, k) : M3::Identity();
      const bool force = fe.kind == ForceRT::Kind::VForce;
      const V3 c = force ? V3(fe.par<"fx">(), fe.par<"fy">(), fe.par<"fz">()) : V3(fe.par<"tx">(), fe.par<"ty">(), fe.par<"tz">());
      const V3 v = R * c * sc;
      if (force) {
        applyForce(bi, PI, v);
        if (bj >= 0) applyForce(bj, PI, -v);
      } else {
        applyForce(bi, PI, V3::Zero(), v);
        if (bj >= 0) applyForce(bj, PI, V3::Zero(), -v);
      }
      for (int a = 0; a < 3; ++a) vals.push_back(v[a]);
    } else if (fe.kind == ForceRT::Kind::Impact) {
      const V3 z = markerAxes(fe.J, k).col(2);
      const V3 PJ = markerPoint(fe.J, k);
      const V3 d = PI - PJ;
      const double x = z.dot(d);
      const double xd = z.dot(markerVelocity(fe.I, k) - markerVelocity(fe.J, k)) + k[bj].ww.cross(z).dot(d);
      const double pen = fe.par<"x1">() - x;
      const double F = contact(pen, -xd, fe.par<"stiffness">(), fe.par<"exponent">(), fe.par<"damping">(), fe.par<"depth">());
      applyForce(bi, PI, F * z);
      applyForce(bj, PI, -F * z);
      vals.push_back(F);
      vals.push_back(std::max(pen, 0.0));
    } else if (beam::isBeamForce(fe.type)) {
      beam::applyBeamForce(*this, fe, k, vals);
    }
  }
  contactForces(y, k, vals);
}

// A torque (revolute) or force (translational, cylindrical) along the
// joint's coordinate: on I's part, and the reaction on J's part.
void MultibodySystem::applyJointEffort(int j, const std::vector<Kin>& k, double f) {
  const JointRT& jt = joints_[j];
  const V3 z = markerAxes(jt.J, k).col(2);
  const int bi = markers_[jt.I].body, bj = markers_[jt.J].body;
  if (isRevolute(jt.type)) {
    applyForce(bi, k[bi].r, V3::Zero(), f * z);
    applyForce(bj, k[bj].r, V3::Zero(), -f * z);
  } else {
    const V3 P = markerPoint(jt.I, k);
    applyForce(bi, P, f * z);
    applyForce(bj, P, -f * z);
  }
}

void MultibodySystem::declareRoots() {
  // Roots at contact onsets, so the integrator meets the kink there.
  for (const ForceRT& f : forces_)
    if (f.type == "impact") {
      const ForceRT* fp = &f;
      rootFns_.push_back([this, fp](double, const double*, const std::vector<Kin>& k) {
        const V3 z = markerAxes(fp->J, k).col(2);
        return z.dot(markerPoint(fp->I, k) - markerPoint(fp->J, k)) - fp->par<"x1">();
      });
    }
  for (const JointRT& j : joints_) {
    if (j.type == "coupler") continue;
    const JointRT* jp = &j;
    if (std::isfinite(j.lower))
      rootFns_.push_back([this, jp](double, const double* y, const std::vector<Kin>& k) {
        return jointCoordinate(*jp, k, y) - jp->lower;
      });
    if (std::isfinite(j.upper))
      rootFns_.push_back([this, jp](double, const double* y, const std::vector<Kin>& k) {
        return jp->upper - jointCoordinate(*jp, k, y);
      });
  }
  declareContactRoots();
}

void MultibodySystem::roots(double t, const double* y, double* g) {
  std::vector<Kin> k;
  kinematics(y, k);
  for (size_t i = 0; i < rootFns_.size(); ++i) g[i] = rootFns_[i](t, y, k);
}

}  // namespace pm::mb
