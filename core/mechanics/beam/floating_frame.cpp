#include "mechanics/beam/floating_frame.h"

#include <vector>

namespace pm::beam {

namespace {

Eigen::Matrix3d skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

// One sample of the mass: dm at x0, the centreline field N and the section
// rotation R over a few coordinates (index -1: fixed), and the rotary inertia
// (full for the rigid terms, elastic for the deformation terms).
struct MassSample {
  double dm = 0.0;
  Eigen::Vector3d x0;
  std::vector<int> dofs;
  Eigen::Matrix3Xd N, R;
  Eigen::Vector3d rotFull, rotElastic;
};

}  // namespace

FloatingFrameInertia::FloatingFrameInertia(const FlexibleBeam& beam) : n_(beam.dofCount()) {
  S_ = Eigen::Matrix3Xd::Zero(3, n_);
  Crot_ = Eigen::Matrix3Xd::Zero(3, n_);
  P_ = Eigen::MatrixXd::Zero(9, n_);
  std::array<std::vector<Eigen::Triplet<double>>, 9> t;
  std::vector<Eigen::Triplet<double>> trot;

  auto add = [&](const MassSample& s) {
    m_ += s.dm;
    I1_ += s.dm * s.x0;
    E0_ += s.dm * s.x0 * s.x0.transpose();
    Jsec_.diagonal() += s.rotFull;
    const int c = static_cast<int>(s.dofs.size());
    for (int i = 0; i < c; ++i) {
      const int di = s.dofs[i];
      if (di < 0) continue;
      S_.col(di) += s.dm * s.N.col(i);
      Crot_.col(di) += s.rotElastic.asDiagonal() * s.R.col(i);
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) P_(3 * j + k, di) += s.dm * s.x0[j] * s.N(k, i);
      for (int i2 = 0; i2 < c; ++i2) {
        const int dj = s.dofs[i2];
        if (dj < 0) continue;
        for (int k = 0; k < 3; ++k)
          for (int l = 0; l < 3; ++l)
            if (const double v = s.dm * s.N(k, i) * s.N(l, i2); v != 0.0) t[3 * k + l].emplace_back(di, dj, v);
        if (const double r = s.R.col(i).dot(s.rotElastic.asDiagonal() * s.R.col(i2)); r != 0.0)
          trot.emplace_back(di, dj, r);
      }
    }
  };

  const BeamElement& el = beam.element();
  const double l = el.length();
  for (int e = 0; e < beam.elementCount(); ++e) {
    const auto d = beam.elementDofs(e);
    for (int g = 0; g < BeamElement::kGauss; ++g) {
      const double xi = BeamElement::kGaussXi[g], dl = BeamElement::kGaussW[g] * l;
      const ElementShape sh = el.shape(xi);
      add({dl * el.lineDensity(), Eigen::Vector3d((e + xi) * l, 0.0, 0.0), std::vector<int>(d.begin(), d.end()), sh.N,
           sh.R, dl * el.rotaryInertia(), dl * el.elasticRotaryInertia()});
    }
  }
  for (const PointMass& pm : beam.pointMasses()) {
    MassSample s{pm.mass, Eigen::Vector3d(beam.nodeX(pm.node), 0.0, 0.0), {}, Eigen::Matrix3Xd::Zero(3, 6),
                 Eigen::Matrix3Xd::Zero(3, 6), pm.inertia, pm.inertia};
    for (int c = 0; c < kNodeDofs; ++c) s.dofs.push_back(beam.dofIndex(pm.node, c));
    s.N.leftCols<3>().setIdentity();
    s.R.rightCols<3>().setIdentity();
    add(s);
  }

  Mff_.resize(n_, n_);
  Mff_.setFromTriplets(trot.begin(), trot.end());
  for (int k = 0; k < 9; ++k) {
    Skl_[k].resize(n_, n_);
    Skl_[k].setFromTriplets(t[k].begin(), t[k].end());
  }
  for (int k = 0; k < 3; ++k) Mff_ += Skl_[4 * k];
}

Eigen::Vector3d FloatingFrameInertia::firstMoment(const Eigen::VectorXd& q) const { return I1_ + S_ * q; }

Eigen::Matrix3d FloatingFrameInertia::secondMoment(const Eigen::VectorXd& q) const {
  Eigen::Matrix3d E = E0_;
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) E(j, k) += P_.row(3 * j + k).dot(q) + P_.row(3 * k + j).dot(q) + q.dot(Skl(j, k) * q);
  return E;
}

Eigen::Matrix3d FloatingFrameInertia::inertia(const Eigen::VectorXd& q) const {
  const Eigen::Matrix3d E = secondMoment(q);
  return E.trace() * Eigen::Matrix3d::Identity() - E + Jsec_;
}

Eigen::Matrix3d FloatingFrameInertia::inertiaAboutCentre(const Eigen::VectorXd& q) const {
  const Eigen::Vector3d c = centreOfMass(q);
  return inertia(q) - m_ * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
}

Eigen::Matrix3Xd FloatingFrameInertia::rotationCoupling(const Eigen::VectorXd& q) const {
  // Row i of integral u~ N dm is eps_ijk integral u_j N_k dm, with
  // integral u_j N_k dm = P_jk + q^T S^jk.
  auto un = [&](int j, int k) -> Eigen::RowVectorXd {
    return P_.row(3 * j + k) + (Skl(j, k).transpose() * q).transpose();
  };
  Eigen::Matrix3Xd C = Crot_;
  C.row(0) += un(1, 2) - un(2, 1);
  C.row(1) += un(2, 0) - un(0, 2);
  C.row(2) += un(0, 1) - un(1, 0);
  return C;
}

Eigen::MatrixXd FloatingFrameInertia::massMatrix(const Eigen::VectorXd& q) const {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6 + n_, 6 + n_);
  const Eigen::Matrix3d st = skew(firstMoment(q));
  const Eigen::Matrix3Xd Jq = rotationCoupling(q);
  M.topLeftCorner<3, 3>() = m_ * Eigen::Matrix3d::Identity();
  M.block<3, 3>(0, 3) = -st;
  M.block<3, 3>(3, 0) = st;
  M.block<3, 3>(3, 3) = inertia(q);
  M.block(0, 6, 3, n_) = S_;
  M.block(6, 0, n_, 3) = S_.transpose();
  M.block(3, 6, 3, n_) = Jq;
  M.block(6, 3, n_, 3) = Jq.transpose();
  M.bottomRightCorner(n_, n_) = Eigen::MatrixXd(Mff_);
  return M;
}

Eigen::VectorXd FloatingFrameInertia::quadraticVelocity(const Eigen::VectorXd& q, const Eigen::Vector3d& v,
                                                        const Eigen::Vector3d& w, const Eigen::VectorXd& qd) const {
  // T = 1/2 m v^2 + v.(w x s) + v.S q' + 1/2 w.J w + w.Jq q' + 1/2 q'.Mff q'.
  // Momenta p = dT/dv, h = dT/dw; the frame rows are Kirchhoff's
  // p' + w x p = F, h' + w x h + v x p = T, the elastic rows Lagrange's.
  // S^kl q and S^kl q' once each; (S^kl)^T = S^lk gives the transposes.
  std::array<Eigen::VectorXd, 9> Sq, Sqd;
  for (int c = 0; c < 9; ++c) {
    Sq[c] = Skl_[c] * q;
    Sqd[c] = Skl_[c] * qd;
  }
  auto at = [](int j, int k) { return 3 * j + k; };
  Eigen::Matrix3d E, Ed;  // integral u u^T dm and its rate at fixed velocities
  Eigen::Matrix3d uN;     // integral u_j N_k dm . q'
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) {
      const double Pq = P_.row(at(j, k)).dot(q) + P_.row(at(k, j)).dot(q);
      const double Pqd = P_.row(at(j, k)).dot(qd) + P_.row(at(k, j)).dot(qd);
      E(j, k) = E0_(j, k) + Pq + q.dot(Sq[at(j, k)]);
      Ed(j, k) = Pqd + qd.dot(Sq[at(j, k)]) + q.dot(Sqd[at(j, k)]);
      uN(j, k) = P_.row(at(j, k)).dot(qd) + q.dot(Sqd[at(j, k)]);
    }
  const Eigen::Matrix3d I3 = Eigen::Matrix3d::Identity();
  const Eigen::Matrix3d J = E.trace() * I3 - E + Jsec_, Jd = Ed.trace() * I3 - Ed;
  const Eigen::Vector3d Jqqd =
      Crot_ * qd + Eigen::Vector3d(uN(1, 2) - uN(2, 1), uN(2, 0) - uN(0, 2), uN(0, 1) - uN(1, 0));
  const Eigen::Vector3d s = firstMoment(q), sd = S_ * qd;
  const Eigen::Vector3d p = m_ * v + w.cross(s) + sd;
  const Eigen::Vector3d h = s.cross(v) + J * w + Jqqd;
  // (d/dt Jq) q' = eps_ijk q'^T S^jk q' vanishes (antisymmetric in j, k).
  // Coriolis: sum_i w_i eps_ijk S^jk q' and its transpose, whose difference
  // enters the elastic rows.
  Eigen::VectorXd cor = Eigen::VectorXd::Zero(n_), corT = Eigen::VectorXd::Zero(n_);
  const int ijk[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
  for (int c = 0; c < 6; ++c) {
    const double f = (c < 3 ? 1.0 : -1.0) * w[ijk[c][0]];
    cor += f * Sqd[at(ijk[c][1], ijk[c][2])];
    corT += f * Sqd[at(ijk[c][2], ijk[c][1])];
  }
  // dT/dq = S^T (v x w) + cor + 1/2 sum W_jk dE_jk/dq, W = |w|^2 I - w w^T.
  const Eigen::Matrix3d W = w.squaredNorm() * I3 - w * w.transpose();
  Eigen::VectorXd dTdq = S_.transpose() * v.cross(w) + cor;
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k)
      if (W(j, k) != 0.0)
        dTdq += 0.5 * W(j, k) *
                (P_.row(at(j, k)).transpose() + P_.row(at(k, j)).transpose() + Sq[at(j, k)] + Sq[at(k, j)]);

  Eigen::VectorXd Q(6 + n_);
  Q.head<3>() = -(w.cross(sd) + w.cross(p));  // d/dt (w x s) at fixed w is w x sd
  Q.segment<3>(3) = -(sd.cross(v) + Jd * w + w.cross(h) + v.cross(p));
  Q.tail(n_) = dTdq - corT;
  return Q;
}

}  // namespace pm::beam
