// MultibodySystem's result channels (declared in the order outputs()
// writes them): per part its pose, velocities and accelerations, per joint
// its reaction and coordinate, per motion its effort, per force element its
// values, the energies and the constraint residuals.
#include "mechanics/multibody.h"

#include "mechanics/beam/beam_segment_force.h"
#include "model/message_text.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <limits>
#include <cstdio>

namespace pm::mb {

namespace {

bool isRevolute(const std::string& t) { return t == "revolute"; }

}  // namespace

void MultibodySystem::declareChannels() {
  auto ch = [&](const std::string& n2, const char* u) { channels_.push_back({n2, u}); };
  for (const PartRT& b : parts_) {
    for (const char* q : {"x", "y", "z"}) ch(b.id + "." + q, "m");
    for (const char* q : {"roll", "pitch", "yaw"}) ch(b.id + "." + q, "rad");
    for (const char* q : {"vx", "vy", "vz"}) ch(b.id + "." + q, "m/s");
    for (const char* q : {"wx", "wy", "wz"}) ch(b.id + "." + q, "rad/s");
    for (const char* q : {"ax", "ay", "az"}) ch(b.id + "." + q, "m/s2");
    for (const char* q : {"alpha_x", "alpha_y", "alpha_z"}) ch(b.id + "." + q, "rad/s2");
  }
  for (int o : jointOut_) {
    if (o < 0) {
      const std::string& id = lumpedJoints_[-1 - o].id;
      for (const char* q : {"Fx", "Fy", "Fz"}) ch(id + "." + q, "N");
      for (const char* q : {"Tx", "Ty", "Tz"}) ch(id + "." + q, "N m");
      continue;
    }
    const JointRT& j = joints_[o];
    if (j.type == "coupler") {
      ch(j.id + ".effort", "N|N m");
      continue;
    }
    for (const char* q : {"Fx", "Fy", "Fz"}) ch(j.id + "." + q, "N");
    for (const char* q : {"Tx", "Ty", "Tz"}) ch(j.id + "." + q, "N m");
    if (j.type == "revolute") {
      ch(j.id + ".angle", "rad");
      ch(j.id + ".rate", "rad/s");
      ch(j.id + ".alpha", "rad/s2");
    } else if (j.type == "translational" || j.type == "cylindrical") {
      ch(j.id + ".displacement", "m");
      ch(j.id + ".velocity", "m/s");
      ch(j.id + ".acceleration", "m/s2");
    }
  }
  for (const MotionRT& mo : motions_) {
    const bool rev = isRevolute(joints_[mo.joint].type);
    ch(mo.id + ".effort", rev ? "N m" : "N");
    ch(mo.id + ".value", rev ? "rad" : "m");
  }
  for (const ForceRT& f : forces_) {
    if (beam::isBeamForce(f.type)) {
      for (const auto& [q, u] : beam::beamForceChannels(f.type)) ch(f.id + "." + q, u);
    } else if (f.type == "bushing") {
      for (const char* q : {"Fx", "Fy", "Fz"}) ch(f.id + "." + q, "N");
      for (const char* q : {"Tx", "Ty", "Tz"}) ch(f.id + "." + q, "N m");
    } else if (f.type == "vforce") {
      for (const char* q : {"Fx", "Fy", "Fz"}) ch(f.id + "." + q, "N");
    } else if (f.type == "vtorque") {
      for (const char* q : {"Tx", "Ty", "Tz"}) ch(f.id + "." + q, "N m");
    } else if (f.type == "rotational_spring_damper" || (f.type == "sforce" && f.par<"rotational">() > 0.5)) {
      ch(f.id + ".T", "N m");
      if (f.type == "rotational_spring_damper") ch(f.id + ".angle", "rad");
    } else {
      ch(f.id + ".F", "N");
      if (f.type == "spring_damper") ch(f.id + ".length", "m");
      if (f.type == "impact") ch(f.id + ".penetration", "m");
    }
  }
  declareContactChannels();
  declareLatchChannels();
  for (const char* q : {"E_kinetic", "E_potential", "E_total"}) ch(std::string("mechanism.") + q, "J");
  ch("mechanism.residual_position", "m");
  ch("mechanism.residual_velocity", "m/s");
}

void MultibodySystem::constraintResiduals(double t, const double* y, double& pos, double& vel) {
  std::vector<Kin> k;
  std::vector<Row> rows;
  kinematics(y, k);
  buildRows(t, y, k, rows);
  residualsOf(rows, k, pos, vel);
}

void MultibodySystem::residualsOf(const std::vector<Row>& rows, const std::vector<Kin>& k, double& pos,
                                  double& vel) const {
  pos = vel = 0.0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rowInfo_[i].active) continue;
    if (rowInfo_[i].mu >= 0) pos = std::max(pos, std::abs(rows[i].phi));
    double v = rows[i].phit;
    for (int q = 0; q < rows[i].n; ++q) v += rows[i].r[q].dot(k[rows[i].b[q]].v) + rows[i].p[q].dot(k[rows[i].b[q]].w);
    vel = std::max(vel, std::abs(v));
  }
}

double MultibodySystem::constraintBreachLimit() const {
  std::vector<Kin> k;
  kinematics(y0_.data(), k);
  V3 lo = V3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (size_t m = 0; m < markers_.size(); ++m) {
    const V3 p = markerPoint(static_cast<int>(m), k);
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const double size = markers_.empty() ? 0.0 : (hi - lo).norm();
  return 1e-3 * std::max(size, 1e-3);
}

std::string MultibodySystem::constraintBreach(double t, const double* y) const {
  if (breachLimit_ < 0.0) breachLimit_ = constraintBreachLimit();
  std::vector<Kin>& k = breachKin_;
  std::vector<Row>& rows = breachRows_;
  kinematics(y, k);
  buildRows(t, y, k, rows, false);  // phi is all it reads
  std::map<std::string, double> open;  // owner -> its largest |Phi| over the limit
  double worst = 0.0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rowInfo_[i].active || rowInfo_[i].mu < 0) continue;
    const double phi = std::abs(rows[i].phi);
    if (!(phi <= breachLimit_)) {  // NaN counts as open
      double& o = open[rowInfo_[i].owner];
      o = std::max(o, std::isnan(phi) ? std::numeric_limits<double>::infinity() : phi);
      worst = std::max(worst, o);
    }
  }
  if (open.empty()) return {};
  std::vector<std::pair<double, std::string>> byGap;
  for (const auto& [owner, gap] : open) byGap.push_back({gap, owner});
  std::sort(byGap.rbegin(), byGap.rend());
  std::string names;
  for (size_t i = 0; i < byGap.size() && i < 4; ++i) names += (i ? ", " : "") + byGap[i].second;
  if (byGap.size() > 4) names += " and " + std::to_string(byGap.size() - 4) + " more";
  char gap[96];
  std::snprintf(gap, sizeof gap, "%.3g mm (allowed %.3g mm)", worst * 1e3, breachLimit_ * 1e3);
  return "the mechanism cannot follow its constraints at t = " + numberText(t) + " s: " + names + " open by " + gap +
         "; it locks, or is driven through a dead point where its links cannot go (a motion or a load pushing a "
         "linkage past its limit position)";
}

double MultibodySystem::kineticEnergy(const double* y) const {
  std::vector<Kin> k;
  kinematics(y, k);
  return kineticEnergyOf(k);
}

double MultibodySystem::kineticEnergyOf(const std::vector<Kin>& k) const {
  double e = 0.0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) e += 0.5 * bodies_[b].m * k[b].v.squaredNorm() + 0.5 * k[b].w.dot(bodies_[b].J * k[b].w);
  return e;
}

double MultibodySystem::potentialEnergy(double t, const double* y) {
  std::vector<Kin> k;
  kinematics(y, k);
  return potentialEnergyOf(t, y, k);
}

double MultibodySystem::potentialEnergyOf(double /*t: springs have no time tables*/, const double* y,
                                          const std::vector<Kin>& k) const {
  double e = 0.0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) e -= bodies_[b].m * g_.dot(k[b].r);
  for (const ForceRT& f : forces_) {
    if (f.kind == ForceRT::Kind::SpringDamper) {
      const double l = (markerPoint(f.J, k) - markerPoint(f.I, k)).norm(), dl = l - f.par<"free_length">();
      e += 0.5 * f.par<"stiffness">() * dl * dl - f.par<"preload">() * dl;
    } else if (f.kind == ForceRT::Kind::RotationalSpringDamper) {
      const double th = relativeAngle(f.I, f.J, k, f.wind, y, nullptr) - f.par<"free_angle">();
      e += 0.5 * f.par<"stiffness">() * th * th - f.par<"preload">() * th;
    } else if (f.kind == ForceRT::Kind::Impact) {
      const V3 z = markerAxes(f.J, k).col(2);
      const double pen = f.par<"x1">() - z.dot(markerPoint(f.I, k) - markerPoint(f.J, k));
      if (pen > 0) e += f.par<"stiffness">() * std::pow(pen, f.par<"exponent">() + 1) / (f.par<"exponent">() + 1);
    } else if (f.kind == ForceRT::Kind::Bushing) {
      const M3 AJ = markerAxes(f.J, k);
      const V3 d = AJ.transpose() * (markerPoint(f.I, k) - markerPoint(f.J, k));
      const Eigen::AngleAxisd aa(M3(AJ.transpose() * markerAxes(f.I, k)));
      const V3 th = aa.angle() * aa.axis();
      e += 0.5 * (f.par<"kx">() * d.x() * d.x() + f.par<"ky">() * d.y() * d.y() + f.par<"kz">() * d.z() * d.z() +
                  f.par<"ktx">() * th.x() * th.x() + f.par<"kty">() * th.y() * th.y() + f.par<"ktz">() * th.z() * th.z());
    } else if (beam::isBeamForce(f.type)) {
      e += beam::beamForceEnergy(*this, f, k);
    }
  }
  return e + contactEnergy(k);
}

void MultibodySystem::outputs(double t, const double* y, const double* yp, double* row, bool rowsCurrent) {
  const size_t nb = bodies_.size();
  if (!rowsCurrent) kinematics(y, kin_);
  F_.assign(nb, V3::Zero());
  N_.assign(nb, V3::Zero());
  std::vector<double> fv;
  forceValues(t, y, kin_, fv);
  if (!rowsCurrent) buildRows(t, y, kin_, rowsScratch_);
  // Each body's centre of mass acceleration and angular acceleration (world).
  std::vector<V3> acc(nb, V3::Zero()), alpha(nb, V3::Zero());
  for (size_t b = 0; b < nb; ++b) {
    const BodyRT& B = bodies_[b];
    if (B.ground) continue;
    acc[b] = V3(yp[B.slot + 7], yp[B.slot + 8], yp[B.slot + 9]);
    alpha[b] = kin_[b].A * V3(yp[B.slot + 10], yp[B.slot + 11], yp[B.slot + 12]);
  }
  int c = 0;
  for (const PartRT& P : parts_) {
    const BodyRT& B = bodies_[P.body];
    const Kin& k = kin_[P.body];
    const V3 s = k.A * (P.t - B.cm);  // COM -> part frame origin
    const V3 o = k.r + s;
    const V3 rpy = toRpy(P.lumped ? M3(k.A * P.R) : k.A);
    const V3 v = k.v + k.ww.cross(s);
    const V3& a = acc[P.body];
    const V3 ao = a + alpha[P.body].cross(s) + k.ww.cross(k.ww.cross(s));
    for (int q = 0; q < 3; ++q) row[c + q] = o[q];
    for (int q = 0; q < 3; ++q) row[c + 3 + q] = rpy[q];
    for (int q = 0; q < 3; ++q) row[c + 6 + q] = v[q];
    for (int q = 0; q < 3; ++q) row[c + 9 + q] = k.ww[q];
    for (int q = 0; q < 3; ++q) row[c + 12 + q] = ao[q];
    for (int q = 0; q < 3; ++q) row[c + 15 + q] = alpha[P.body][q];
    c += 18;
  }
  for (int out : jointOut_) {
    if (out < 0) {
      V3 F, T;
      lumpedJointReaction(lumpedJoints_[-1 - out], acc, alpha, F, T);
      for (int q = 0; q < 3; ++q) row[c + q] = F[q];
      for (int q = 0; q < 3; ++q) row[c + 3 + q] = T[q];
      c += 6;
      continue;
    }
    const JointRT& j = joints_[out];
    if (j.type == "coupler") {
      row[c++] = rowInfo_[j.firstRow].active ? -y[rowInfo_[j.firstRow].lambda] : 0.0;
      continue;
    }
    V3 F, T;
    jointReaction(j, y, F, T);
    for (int q = 0; q < 3; ++q) row[c + q] = F[q];
    for (int q = 0; q < 3; ++q) row[c + 3 + q] = T[q];
    c += 6;
    if (j.type == "revolute" || j.type == "translational" || j.type == "cylindrical") {
      double rate = 0.0;
      row[c++] = jointCoordinate(j, kin_, y, &rate);
      row[c++] = rate;
      row[c++] = jointAcceleration(j, kin_, acc, alpha);
    }
  }
  for (const MotionRT& mo : motions_) {
    double f, df, ddf;
    mo.f.eval(t, f, df, ddf);
    if (mo.velocity) f = mo.q0 + mo.f.integral(t);
    const double lam = y[rowInfo_[mo.row].lambda];
    // Generalised force on I along the coordinate: -lambda dPhi/dq, dPhi/dq = 1.
    row[c++] = -lam;
    row[c++] = f;
  }
  for (double v : fv) row[c++] = v;
  latchValues(y, row, c);
  const double ek = kineticEnergyOf(kin_), ep = potentialEnergyOf(t, y, kin_);  // kin_ is y's
  row[c++] = ek;
  row[c++] = ep;
  row[c++] = ek + ep;
  double pos = 0.0, vel = 0.0;
  residualsOf(rowsScratch_, kin_, pos, vel);
  row[c++] = pos;
  row[c++] = vel;
}

// A lumped weld carries only its leaf's weight and inertia: the leaf's
// Newton-Euler balance, about the I marker.
void MultibodySystem::lumpedJointReaction(const LumpedJointRT& lj, const std::vector<V3>& acc,
                                          const std::vector<V3>& alpha, V3& F, V3& T) const {
  const V3 P = markerPoint(lj.I, kin_);
  F = V3::Zero();
  T = V3::Zero();
  for (int p : lj.group) {
    const PartRT& pt = parts_[p];
    const Kin& kb = kin_[pt.body];
    V3 r, a;
    M3 A;
    partMotion(pt, kb, acc[pt.body], alpha[pt.body], r, a, A);
    const M3 Jw = A * pt.J * A.transpose();
    const V3 f = pt.m * (a - g_);
    F += f;
    T += Jw * alpha[pt.body] + kb.ww.cross(Jw * kb.ww) + (r - P).cross(f);
  }
  if (!lj.leafIsI) F = -F, T = -T;
}

// Reaction on I's part, at the I marker, world axes (ADAMS convention),
// from the multipliers in y and the rows of the last evaluation.
void MultibodySystem::jointReaction(const JointRT& j, const double* y, V3& F, V3& T) const {
  const int bi = markers_[j.I].body;
  V3 Nb = V3::Zero();
  F = V3::Zero();
  for (int r = j.firstRow; r < j.firstRow + j.nRows; ++r) {
    if (!rowInfo_[r].active) continue;
    const Row& rw = rowsScratch_[r];
    const double lam = y[rowInfo_[r].lambda];
    for (int q = 0; q < rw.n; ++q)
      if (rw.b[q] == bi) {
        F -= rw.r[q] * lam;
        Nb -= rw.p[q] * lam;
      }
  }
  const V3 P = markerPoint(j.I, kin_);
  T = kin_[bi].A * Nb - (P - kin_[bi].r).cross(F);
}

}  // namespace pm::mb
