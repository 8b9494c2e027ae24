// MultibodySystem's kinematics from the local state: bodies, the user's
// parts on them, markers; joint coordinates for sensors and actuators; the
// winding states (continuous angles); moving positions by a step.
#include "mechanics/multibody.h"

#include <algorithm>
#include <cmath>

namespace pm::mb {

void MultibodySystem::bodyKinematics(const double* y, int i, Kin& q) const {
  const BodyRT& b = bodies_[i];
  if (b.ground) {
    q.r.setZero();
    q.v.setZero();
    q.w.setZero();
    q.ww.setZero();
    q.p = Q4(1, 0, 0, 0);
    q.A.setIdentity();
    return;
  }
  const double* s = y + b.slot;
  q.r = V3(s[0], s[1], s[2]);
  q.p = Q4(s[3], s[4], s[5], s[6]);
  q.v = V3(s[7], s[8], s[9]);
  q.w = V3(s[10], s[11], s[12]);
  q.A = rotation(q.p);
  q.ww = q.A * q.w;
}

void MultibodySystem::kinematics(const double* y, std::vector<Kin>& k) const {
  k.resize(bodies_.size());
  for (size_t i = 0; i < bodies_.size(); ++i) bodyKinematics(y, static_cast<int>(i), k[i]);
}

void MultibodySystem::partMotion(const PartRT& p, const Kin& kb, const V3& ab, const V3& alphab, V3& r, V3& a,
                                 M3& A) const {
  const V3 d = kb.A * (p.t + p.R * p.cm - bodies_[p.body].cm);
  r = kb.r + d;
  a = ab + alphab.cross(d) + kb.ww.cross(kb.ww.cross(d));
  A = kb.A * p.R;
}

void MultibodySystem::partKinematics(const double* y, int part, Kin& k) const {
  const PartRT& p = parts_[part];
  Kin kb;
  bodyKinematics(y, p.body, kb);
  const V3 d = kb.A * (p.t + p.R * p.cm - bodies_[p.body].cm);
  k.r = kb.r + d;
  k.v = kb.v + kb.ww.cross(d);
  k.A = kb.A * p.R;
  k.p = fromMatrix(k.A);
  k.ww = kb.ww;
  k.w = k.A.transpose() * kb.ww;
}

double MultibodySystem::jointCoordinateAt(const double* y, int j, double* rate) const {
  // Only the joint's two parts: sensors and attached actuators read this
  // at every evaluation and root check (so no allocation either: a run's
  // threads each keep their scratch).
  thread_local std::vector<Kin> k;
  if (k.size() < bodies_.size()) k.resize(bodies_.size());
  bodyKinematics(y, markers_[joints_[j].I].body, k[markers_[joints_[j].I].body]);
  bodyKinematics(y, markers_[joints_[j].J].body, k[markers_[joints_[j].J].body]);
  return jointCoordinate(joints_[j], k, y, rate);
}

void MultibodySystem::trackWindings(double* y) const {
  if (windings_.empty()) return;
  std::vector<Kin> k;
  kinematics(y, k);
  for (const Winding& w : windings_) y[w.state] = relativeAngle(w.I, w.J, k, w.state, y, nullptr);
}

void MultibodySystem::predict(std::vector<double>& y, double dt) const {
  std::vector<double> dx;
  for (const BodyRT& b : bodies_)
    if (!b.ground)
      for (int a = 7; a < 13; ++a) dx.push_back(y[b.slot + a]);
  setPositions(y, Eigen::Map<Eigen::VectorXd>(dx.data(), static_cast<Eigen::Index>(dx.size())), dt);
}

double MultibodySystem::motionTurn(double t0, double t1) const {
  double most = 0.0;
  for (const MotionRT& mo : motions_) {
    if (joints_[mo.joint].kind != JointRT::Kind::Revolute) continue;
    auto value = [&](double t) {
      if (mo.velocity) return mo.q0 + mo.f.integral(t);
      double f, df, ddf;
      mo.f.eval(t, f, df, ddf);
      return f;
    };
    double path = 0.0, last = value(t0);
    for (int i = 1; i <= 16; ++i) {
      const double v = value(t0 + (t1 - t0) * i / 16.0);
      path += std::abs(v - last);
      last = v;
    }
    most = std::max(most, path);
  }
  return most;
}

void MultibodySystem::markerState(const double* y, int m, V3& pos, V3& vel) const {
  const MarkerRT& mk = markers_[m];
  const BodyRT& b = bodies_[mk.body];
  if (b.ground) {
    pos = mk.s;
    vel.setZero();
    return;
  }
  const double* s = y + b.slot;
  const M3 A = rotation(Q4(s[3], s[4], s[5], s[6]));
  const V3 arm = A * mk.s;
  pos = V3(s[0], s[1], s[2]) + arm;
  vel = V3(s[7], s[8], s[9]) + (A * V3(s[10], s[11], s[12])).cross(arm);
}

void MultibodySystem::setPositions(std::vector<double>& y, const Eigen::VectorXd& dx, double scale) const {
  // Windings move with the linearised change of their angle first, then take
  // the nearest branch: a step of more than half a turn keeps its turns.
  if (!windings_.empty()) {
    std::vector<Kin> k;
    kinematics(y.data(), k);
    std::vector<int> col(bodies_.size(), -1);
    int nm = 0;
    for (size_t b = 0; b < bodies_.size(); ++b)
      if (!bodies_[b].ground) col[b] = 6 * nm++;
    auto turn = [&](int m) {  // world rotation of the marker's part
      const int b = markers_[m].body;
      return col[b] < 0 ? V3(V3::Zero()) : V3(k[b].A * dx.segment<3>(col[b] + 3));
    };
    for (const Winding& w : windings_)
      y[w.state] += scale * markerAxes(w.J, k).col(2).dot(turn(w.I) - turn(w.J));
  }
  int c = 0;
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    for (int a = 0; a < 3; ++a) y[b.slot + a] += scale * dx[c + a];
    Q4 p(y[b.slot + 3], y[b.slot + 4], y[b.slot + 5], y[b.slot + 6]);
    p = rotated(p / p.norm(), scale * dx.segment<3>(c + 3));
    for (int a = 0; a < 4; ++a) y[b.slot + 3 + a] = p[a];
    c += 6;
  }
  trackWindings(y.data());
}

}  // namespace pm::mb
