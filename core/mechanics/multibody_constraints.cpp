// MultibodySystem's constraint rows: each joint's equations built from three
// primitives (point coincidence, two perpendicular vectors, a vector
// perpendicular to a point-to-point line) with analytic Jacobians; joint
// coordinates, the motions' and couplers' rows on them; and the constraint
// matrix C of a set of rows, dense or sparse.
#include "mechanics/multibody.h"

#include <cmath>
#include <numbers>

namespace pm::mb {

namespace {
// The primitives write into a row the caller placed (the residual builds
// every row at every evaluation: no copies).
struct Prims {
  const std::vector<MarkerRT>& mk;
  const std::vector<Kin>& k;
  bool jacobian = true;  // false: phi alone (a row's gradient left empty)
  // Component `axis` (world) of P_I - P_J.
  void point(Row& r, int I, int J, int axis) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 n = V3::Unit(axis);
    r.n = 0;
    r.phit = 0.0;
    r.phi = n.dot(ki.r + ki.A * a.s - kj.r - kj.A * b.s);
    if (!jacobian) return;
    r.add(a.body, n, a.s.cross(ki.A.row(axis).transpose()));
    r.add(b.body, -n, -b.s.cross(kj.A.row(axis).transpose()));
  }
  Row point(int I, int J, int axis) const {
    Row r;
    point(r, I, J, axis);
    return r;
  }
  // The three components of P_I - P_J: the same rows as point(), the
  // marker offsets rotated once.
  template <class NextRow>
  void points(NextRow next, int I, int J) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 d = ki.r + ki.A * a.s - kj.r - kj.A * b.s;
    for (int axis = 0; axis < 3; ++axis) {
      Row& r = next();
      const V3 n = V3::Unit(axis);
      r.n = 0;
      r.phit = 0.0;
      r.phi = n.dot(d);
      if (!jacobian) continue;
      r.add(a.body, n, a.s.cross(ki.A.row(axis).transpose()));
      r.add(b.body, -n, -b.s.cross(kj.A.row(axis).transpose()));
    }
  }
  // Axis ai of I dotted with axis aj of J.
  void dot1(Row& r, int I, int ai, int J, int aj) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 ub = a.A.col(ai), wb = b.A.col(aj), u = ki.A * ub, w = kj.A * wb;
    r.n = 0;
    r.phit = 0.0;
    r.phi = u.dot(w);
    if (!jacobian) return;
    r.add(a.body, V3::Zero(), ub.cross(ki.A.transpose() * w));
    r.add(b.body, V3::Zero(), wb.cross(kj.A.transpose() * u));
  }
  Row dot1(int I, int ai, int J, int aj) const {
    Row r;
    dot1(r, I, ai, J, aj);
    return r;
  }
  // Axis aj of J dotted with P_I - P_J.
  void dot2(Row& r, int I, int J, int aj) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 wb = b.A.col(aj), w = kj.A * wb;
    const V3 d = ki.r + ki.A * a.s - kj.r - kj.A * b.s;
    r.n = 0;
    r.phit = 0.0;
    r.phi = w.dot(d);
    if (!jacobian) return;
    r.add(a.body, w, a.s.cross(ki.A.transpose() * w));
    r.add(b.body, -w, -b.s.cross(kj.A.transpose() * w) + wb.cross(kj.A.transpose() * d));
  }
  Row dot2(int I, int J, int aj) const {
    Row r;
    dot2(r, I, J, aj);
    return r;
  }
};

Row combine(const Row& a, double ca, const Row& b, double cb) {
  Row r;
  for (int i = 0; i < a.n; ++i) r.add(a.b[i], ca * a.r[i], ca * a.p[i]);
  for (int i = 0; i < b.n; ++i) r.add(b.b[i], cb * b.r[i], cb * b.p[i]);
  r.phi = ca * a.phi + cb * b.phi;
  return r;
}
}  // namespace

void MultibodySystem::jointRows(const JointRT& j, const std::vector<Kin>& k, std::vector<Row>& out, size_t& n,
                                bool jacobian) const {
  const Prims P{markers_, k, jacobian};
  const int I = j.I, J = j.J;
  // Rows of the last build are overwritten in place (each primitive sets
  // every field it uses); new ones appended on the first build.
  auto row = [&]() -> Row& {
    if (n == out.size()) out.emplace_back();
    return out[n++];
  };
  auto pts = [&] { P.points(row, I, J); };
  using K = JointRT::Kind;
  switch (j.kind) {
    case K::Spherical:
      pts();
      break;
    case K::Revolute:
      pts();
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      break;
    case K::Translational:
    case K::Cylindrical:
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      P.dot2(row(), I, J, 0);
      P.dot2(row(), I, J, 1);
      if (j.kind == K::Translational) P.dot1(row(), I, 0, J, 1);
      break;
    case K::Universal:
      pts();
      P.dot1(row(), I, 0, J, 1);
      break;
    case K::Planar:
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      P.dot2(row(), I, J, 2);
      break;
    case K::Fixed:
      pts();
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      P.dot1(row(), I, 0, J, 1);
      break;
    case K::Coupler:
      break;
  }
}

double MultibodySystem::relativeAngle(int I, int J, const std::vector<Kin>& k, int wind, const double* y,
                                      double* rate) const {
  const M3 AI = markerAxes(I, k), AJ = markerAxes(J, k);
  if (rate) *rate = AJ.col(2).dot(k[markers_[I].body].ww - k[markers_[J].body].ww);
  const double a = std::atan2(AI.col(0).dot(AJ.col(1)), AI.col(0).dot(AJ.col(0)));
  if (wind < 0 || !y) return a;
  // The branch nearest the winding state: continuous through +-pi, counting turns.
  const double ref = y[wind];
  return ref + std::remainder(a - ref, 2.0 * std::numbers::pi);
}

double MultibodySystem::jointCoordinate(const JointRT& j, const std::vector<Kin>& k, const double* y, double* rate) const {
  if (j.kind == JointRT::Kind::Revolute) return relativeAngle(j.I, j.J, k, j.wind, y, rate);
  const M3 AJ = markerAxes(j.J, k);
  const V3 d = markerPoint(j.I, k) - markerPoint(j.J, k);
  if (rate) {
    const V3 dd = markerVelocity(j.I, k) - markerVelocity(j.J, k);
    *rate = AJ.col(2).dot(dd) + k[markers_[j.J].body].ww.cross(AJ.col(2)).dot(d);
  }
  return AJ.col(2).dot(d);
}

double MultibodySystem::jointAcceleration(const JointRT& j, const std::vector<Kin>& k, const std::vector<V3>& acc,
                                          const std::vector<V3>& alpha) const {
  const int bi = markers_[j.I].body, bj = markers_[j.J].body;
  const V3 z = markerAxes(j.J, k).col(2), wJ = k[bj].ww, zd = wJ.cross(z);  // z_J and its rate
  if (j.kind == JointRT::Kind::Revolute)  // d/dt of z . (w_I - w_J)
    return z.dot(alpha[bi] - alpha[bj]) + zd.dot(k[bi].ww - k[bj].ww);
  // d2/dt2 of z . d, d = P_I - P_J: z . d'' + 2 z' . d' + z'' . d.
  auto pointAcc = [&](int m, int b) {
    const V3 s = k[b].A * markers_[m].s;
    return V3(acc[b] + alpha[b].cross(s) + k[b].ww.cross(k[b].ww.cross(s)));
  };
  const V3 d = markerPoint(j.I, k) - markerPoint(j.J, k);
  const V3 dd = markerVelocity(j.I, k) - markerVelocity(j.J, k);
  const V3 ddd = pointAcc(j.I, bi) - pointAcc(j.J, bj);
  return z.dot(ddd) + 2.0 * zd.dot(dd) + (alpha[bj].cross(z) + wJ.cross(zd)).dot(d);
}

// Derivative of the joint coordinate (angle about z_J, or travel along z_J).
Row MultibodySystem::coordinateRow(const JointRT& j, const std::vector<Kin>& k, const double* y) const {
  if (j.kind == JointRT::Kind::Revolute) {
    const V3 z = markerAxes(j.J, k).col(2);
    Row r;
    const int bi = markers_[j.I].body, bj = markers_[j.J].body;
    r.add(bi, V3::Zero(), k[bi].A.transpose() * z);
    r.add(bj, V3::Zero(), -(k[bj].A.transpose() * z));
    r.phi = jointCoordinate(j, k, y);
    return r;
  }
  return Prims{markers_, k}.dot2(j.I, j.J, 2);
}

void MultibodySystem::buildRows(double t, const double* y, const std::vector<Kin>& k, std::vector<Row>& out,
                                bool jacobian) const {
  size_t n = 0;
  auto put = [&](const Row& r) {
    if (n == out.size()) out.push_back(r);
    else out[n] = r;
    ++n;
  };
  for (const JointRT& j : joints_)
    if (j.kind != JointRT::Kind::Coupler) jointRows(j, k, out, n, jacobian);
  for (const MotionRT& mo : motions_) {
    const JointRT& j = joints_[mo.joint];
    double f, df, ddf;
    mo.f.eval(t, f, df, ddf);
    if (mo.velocity) {
      df = f;
      f = mo.q0 + mo.f.integral(t);
    }
    // On the continuous coordinate: a revolute motion sets the angle with its
    // turns, so f(t) has one solution, not one per half turn.
    Row r = coordinateRow(j, k, y);
    r.phi -= f;
    r.phit = -df;
    put(r);
  }
  for (const JointRT& j : joints_)
    if (j.kind == JointRT::Kind::Coupler) {
      Row r = combine(coordinateRow(joints_[j.coupled[0]], k, y), 1.0, coordinateRow(joints_[j.coupled[1]], k, y), j.ratio);
      r.phi -= j.c0;
      put(r);
    }
  for (const LatchRT& l : latches_) jointRows(l.joint, k, out, n, jacobian);
  out.resize(n);
}

Eigen::MatrixXd MultibodySystem::matrixOf(const std::vector<Row>& rows) const {
  std::vector<int> col(bodies_.size(), -1);
  int nm = 0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) col[b] = 6 * nm++;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(static_cast<int>(rows.size()), 6 * nm);
  for (size_t i = 0; i < rows.size(); ++i)
    for (int q = 0; q < rows[i].n; ++q) {
      const int c = col[rows[i].b[q]];
      if (c < 0) continue;
      C.block<1, 3>(i, c) += rows[i].r[q].transpose();
      C.block<1, 3>(i, c + 3) += rows[i].p[q].transpose();
    }
  return C;
}

Eigen::SparseMatrix<double> MultibodySystem::sparseOf(const std::vector<Row>& rows) const {
  std::vector<int> col(bodies_.size(), -1);
  int nm = 0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) col[b] = 6 * nm++;
  std::vector<Eigen::Triplet<double>> tr;
  for (size_t i = 0; i < rows.size(); ++i)
    for (int q = 0; q < rows[i].n; ++q) {
      const int c = col[rows[i].b[q]];
      if (c < 0) continue;
      for (int a = 0; a < 3; ++a) {
        tr.emplace_back(static_cast<int>(i), c + a, rows[i].r[q][a]);
        tr.emplace_back(static_cast<int>(i), c + 3 + a, rows[i].p[q][a]);
      }
    }
  Eigen::SparseMatrix<double> C(static_cast<Eigen::Index>(rows.size()), 6 * nm);
  C.setFromTriplets(tr.begin(), tr.end());  // sums duplicates, as matrixOf does
  return C;
}

std::vector<Row> MultibodySystem::activeRows(const std::vector<Row>& rows) const {
  std::vector<Row> act;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rowInfo_[i].active) act.push_back(rows[i]);
  return act;
}

Eigen::MatrixXd MultibodySystem::constraintMatrix(const std::vector<Row>& rows, bool activeOnly) const {
  return matrixOf(activeOnly ? activeRows(rows) : rows);
}

}  // namespace pm::mb
