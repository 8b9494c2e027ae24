// The inertia of a flexible beam in its floating frame of reference (seed
// 001; Shabana's inertia shape integrals). A point of the centreline at x
// sits at u(x, q) = x0 + N(x) q in the frame (x0 = (x, 0, 0)); its sections
// also carry rotary inertia. With the frame's velocity v and angular velocity
// omega (both in frame axes) and the elastic rates q', the kinetic energy is
//   T = 1/2 [v; omega; q']^T M(q) [v; omega; q'],
//   M = [ m I       -s~(q)      S      ]
//       [ s~(q)      J(q)       Jq(q)  ]
//       [ S^T        Jq^T       Mff    ]
// with s = I1 + S q the first moment, J(q) the inertia about the frame
// origin, Jq = integral u~ N dm (+ sections) the rotation-deformation
// coupling and Mff the beam's mass matrix. Everything is precomputed once as
// constant integrals (m, I1, S, integral x0_j N_k, integral N_k^T N_l and the
// section terms), so that evaluating M(q) costs no quadrature. Point masses
// on nodes are included.
#pragma once

#include "mechanics/beam/flexible_beam.h"

#include <array>

namespace pm::beam {

class FloatingFrameInertia {
 public:
  explicit FloatingFrameInertia(const FlexibleBeam& beam);

  int dofCount() const { return n_; }
  double mass() const { return m_; }
  const Eigen::Vector3d& firstMoment0() const { return I1_; }  // integral x0 dm
  const Eigen::Matrix3Xd& S() const { return S_; }             // integral N dm (3 x n)
  const SparseMatrix& Mff() const { return Mff_; }
  // integral N_k^T N_l dm (k, l in x, y, z): the quadratic invariants.
  const SparseMatrix& Skl(int k, int l) const { return Skl_[3 * k + l]; }

  Eigen::Vector3d firstMoment(const Eigen::VectorXd& q) const;
  Eigen::Vector3d centreOfMass(const Eigen::VectorXd& q) const { return firstMoment(q) / m_; }
  Eigen::Matrix3d secondMoment(const Eigen::VectorXd& q) const;        // integral u u^T dm
  Eigen::Matrix3d inertia(const Eigen::VectorXd& q) const;             // about the frame origin
  Eigen::Matrix3d inertiaAboutCentre(const Eigen::VectorXd& q) const;  // about the centre of mass
  Eigen::Matrix3Xd rotationCoupling(const Eigen::VectorXd& q) const;   // Jq (3 x n)
  Eigen::MatrixXd massMatrix(const Eigen::VectorXd& q) const;          // (6 + n) square
  // The quadratic velocity forces Qv of the equations of motion in the
  // frame's velocities x = (v, omega, q'), all in frame axes:
  //   M(q) x' = Q_ext + Qv(q, x) - [0; 0; K q + C q'],
  // i.e. minus (dM/dt x + the frame's gyroscopic terms - dT/dq). Frame
  // position and attitude follow from R' = A v, A' = A omega~.
  Eigen::VectorXd quadraticVelocity(const Eigen::VectorXd& q, const Eigen::Vector3d& v, const Eigen::Vector3d& omega,
                                    const Eigen::VectorXd& qd) const;

 private:
  int n_ = 0;
  double m_ = 0.0;
  Eigen::Vector3d I1_ = Eigen::Vector3d::Zero();
  Eigen::Matrix3d E0_ = Eigen::Matrix3d::Zero();    // integral x0 x0^T dm
  Eigen::Matrix3d Jsec_ = Eigen::Matrix3d::Zero();  // the sections' (and point masses') own inertia
  Eigen::Matrix3Xd S_, Crot_;                       // Crot: the sections' rotary coupling
  Eigen::MatrixXd P_;                               // 9 x n, row 3 j + k: integral x0_j N_k dm
  std::array<SparseMatrix, 9> Skl_;
  SparseMatrix Mff_;
};

}  // namespace pm::beam
