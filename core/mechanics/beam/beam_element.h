// One 3D beam element of two nodes, 12 coordinates: per node the
// displacements u (axial), v, w and the rotations theta_x (twist), theta_y,
// theta_z, in the beam's floating frame. Euler-Bernoulli: cubic Hermite
// bending (theta_z = v', theta_y = -w'), linear axial and twist. Timoshenko:
// the interdependent interpolation of Friedman and Kosmatka (1993), which
// reduces to Hermite at zero shear and gives the exact shear-flexible
// stiffness. Matrices are integrated by 5-point Gauss, exact for every
// polynomial integrand here (degree <= 6).
#pragma once

#include "mechanics/beam/beam_section.h"

#include <Eigen/Dense>

namespace pm::beam {

constexpr int kNodeDofs = 6;  // u, v, w, theta_x, theta_y, theta_z
constexpr int kElementDofs = 12;

using Mat12 = Eigen::Matrix<double, kElementDofs, kElementDofs>;
using Mat3x12 = Eigen::Matrix<double, 3, kElementDofs>;

// The properties an element needs, the same for every element of a beam.
struct ElementProperties {
  BeamSection section;
  BeamMaterial material;
  bool timoshenko = false;     // shear deformation
  bool rotaryInertia = false;  // bending rotary inertia of the sections (on with Timoshenko)
};

// The fields at xi in [0, 1] along an element of length l, as rows times the
// element coordinates.
struct ElementShape {
  Mat3x12 N;   // centreline displacement (u, v, w)
  Mat3x12 R;   // section rotation (theta_x, theta_y, theta_z)
  // Strains: u', theta_x', theta_y', theta_z', gamma_y = v' - theta_z, gamma_z = w' + theta_y.
  Eigen::Matrix<double, 6, kElementDofs> B;
  Eigen::Matrix<double, 2, kElementDofs> dT;  // v', w' (transverse slopes: geometric stiffness)
};

class BeamElement {
 public:
  BeamElement(const ElementProperties& p, double length);

  double length() const { return l_; }
  ElementShape shape(double xi) const;
  // Shear parameters Phi = 12 E I / (kappa G A l^2) of the two bending planes
  // (0 for Euler-Bernoulli).
  double phiV() const { return phiV_; }
  double phiW() const { return phiW_; }

  const Mat12& mass() const { return M_; }
  const Mat12& stiffness() const { return K_; }
  // Geometric stiffness for an axial force P(xi) (tension positive):
  // integral of P (v'^2 + w'^2); P is sampled at the Gauss points.
  template <class AxialForce>
  Mat12 geometricStiffness(const AxialForce& P) const;

  // Section rotary inertia per length entering the elastic terms: torsion
  // always, bending only with rotaryInertia.
  Eigen::Vector3d elasticRotaryInertia() const { return rotEl_; }
  // Full section inertia per length (rigid-body terms): rho (Iy + Iz, Iy, Iz).
  Eigen::Vector3d rotaryInertia() const { return rotFull_; }
  double lineDensity() const { return mu_; }

  static constexpr int kGauss = 5;
  static const double kGaussXi[kGauss];
  static const double kGaussW[kGauss];

 private:
  double l_, mu_, phiV_, phiW_;
  Eigen::Vector3d rotEl_, rotFull_;
  Eigen::Matrix<double, 6, 1> D_;  // EA, GJ, EIy, EIz, kappa G A, kappa G A
  Mat12 M_, K_;
};

template <class AxialForce>
Mat12 BeamElement::geometricStiffness(const AxialForce& P) const {
  Mat12 Kg = Mat12::Zero();
  for (int g = 0; g < kGauss; ++g) {
    const ElementShape s = shape(kGaussXi[g]);
    Kg.noalias() += (kGaussW[g] * l_ * P(kGaussXi[g])) * s.dT.transpose() * s.dT;
  }
  return Kg;
}

}  // namespace pm::beam
