#include "mechanics/beam/beam_element.h"

#include <cmath>
#include <stdexcept>

namespace pm::beam {

namespace {

// Gauss-Legendre on [-1, 1], mapped to [0, 1] below.
constexpr double a1 = 0.5384693101056831, a2 = 0.9061798459386640;
constexpr double w0 = 0.5688888888888889, w1 = 0.4786286704993665, w2 = 0.2369268850561891;

// Friedman-Kosmatka functions of one bending plane for the coordinates
// (d1, psi1, d2, psi2): displacement d, rotation psi (= d' at Phi = 0), and
// their derivatives along s = xi l.
struct PlaneShape {
  Eigen::Vector4d d, psi, dd, dpsi;
};

PlaneShape planeShape(double x, double l, double phi) {
  const double c = 1.0 / (1.0 + phi), x2 = x * x, x3 = x2 * x;
  PlaneShape p;
  p.d << c * (2 * x3 - 3 * x2 - phi * x + 1 + phi), c * l * (x3 - (2 + phi / 2) * x2 + (1 + phi / 2) * x),
      c * (-2 * x3 + 3 * x2 + phi * x), c * l * (x3 - (1 - phi / 2) * x2 - (phi / 2) * x);
  p.psi << c * 6 * (x2 - x) / l, c * (3 * x2 - (4 + phi) * x + 1 + phi), -c * 6 * (x2 - x) / l,
      c * (3 * x2 - (2 - phi) * x);
  p.dd << c / l * (6 * x2 - 6 * x - phi), c * (3 * x2 - (4 + phi) * x + 1 + phi / 2), c / l * (-6 * x2 + 6 * x + phi),
      c * (3 * x2 - (2 - phi) * x - phi / 2);
  p.dpsi << c * 6 * (2 * x - 1) / (l * l), c / l * (6 * x - (4 + phi)), -c * 6 * (2 * x - 1) / (l * l),
      c / l * (6 * x - (2 - phi));
  return p;
}

// Element coordinate index of component `comp` (0..5) at node `n` (0, 1).
constexpr int idx(int n, int comp) { return n * kNodeDofs + comp; }

}  // namespace

const double BeamElement::kGaussXi[kGauss] = {0.5 * (1 - a2), 0.5 * (1 - a1), 0.5, 0.5 * (1 + a1), 0.5 * (1 + a2)};
const double BeamElement::kGaussW[kGauss] = {0.5 * w2, 0.5 * w1, 0.5 * w0, 0.5 * w1, 0.5 * w2};

BeamElement::BeamElement(const ElementProperties& p, double length) : l_(length) {
  if (!(length > 0.0)) throw std::invalid_argument("beam: element length must be positive");
  const BeamSection& s = p.section;
  const BeamMaterial& m = p.material;
  mu_ = m.density * s.A;
  const double kGA = s.shearCoefficient(m.poisson()) * m.G * s.A;
  phiV_ = p.timoshenko ? 12.0 * m.E * s.Iz / (kGA * l_ * l_) : 0.0;
  phiW_ = p.timoshenko ? 12.0 * m.E * s.Iy / (kGA * l_ * l_) : 0.0;
  const bool rot = p.rotaryInertia || p.timoshenko;
  rotFull_ << m.density * s.polar(), m.density * s.Iy, m.density * s.Iz;
  rotEl_ << rotFull_[0], rot ? rotFull_[1] : 0.0, rot ? rotFull_[2] : 0.0;
  // Euler-Bernoulli has no shear strain (gamma = 0 identically at Phi = 0).
  D_ << m.E * s.A, m.G * s.J, m.E * s.Iy, m.E * s.Iz, p.timoshenko ? kGA : 0.0, p.timoshenko ? kGA : 0.0;

  M_.setZero();
  K_.setZero();
  for (int g = 0; g < kGauss; ++g) {
    const ElementShape sh = shape(kGaussXi[g]);
    const double w = kGaussW[g] * l_;
    M_.noalias() += (w * mu_) * sh.N.transpose() * sh.N + w * sh.R.transpose() * rotEl_.asDiagonal() * sh.R;
    K_.noalias() += w * sh.B.transpose() * D_.asDiagonal() * sh.B;
  }
  // Symmetric to the last bit (the sums above are, up to rounding order).
  M_ = 0.5 * (M_ + M_.transpose()).eval();
  K_ = 0.5 * (K_ + K_.transpose()).eval();
}

ElementShape BeamElement::shape(double x) const {
  ElementShape s;
  s.N.setZero();
  s.R.setZero();
  s.B.setZero();
  s.dT.setZero();
  // Axial and twist: linear.
  const double L0 = 1.0 - x, L1 = x;
  s.N(0, idx(0, 0)) = L0;
  s.N(0, idx(1, 0)) = L1;
  s.R(0, idx(0, 3)) = L0;
  s.R(0, idx(1, 3)) = L1;
  s.B(0, idx(0, 0)) = -1.0 / l_;
  s.B(0, idx(1, 0)) = 1.0 / l_;
  s.B(1, idx(0, 3)) = -1.0 / l_;
  s.B(1, idx(1, 3)) = 1.0 / l_;
  // x-y plane: d = v (comp 1), psi = theta_z (comp 5).
  const PlaneShape pv = planeShape(x, l_, phiV_);
  // x-z plane: d = w (comp 2), psi = -theta_y (comp 4): the theta_y columns
  // change sign, and theta_y itself is -psi.
  const PlaneShape pw = planeShape(x, l_, phiW_);
  for (int n = 0; n < 2; ++n) {
    const int a = 2 * n, b = 2 * n + 1;  // plane function indices of d_n, psi_n
    const int v = idx(n, 1), w = idx(n, 2), ty = idx(n, 4), tz = idx(n, 5);
    s.N(1, v) = pv.d[a];
    s.N(1, tz) = pv.d[b];
    s.R(2, v) = pv.psi[a];
    s.R(2, tz) = pv.psi[b];
    s.B(3, v) = pv.dpsi[a];
    s.B(3, tz) = pv.dpsi[b];
    s.B(4, v) = pv.dd[a] - pv.psi[a];
    s.B(4, tz) = pv.dd[b] - pv.psi[b];
    s.dT(0, v) = pv.dd[a];
    s.dT(0, tz) = pv.dd[b];

    s.N(2, w) = pw.d[a];
    s.N(2, ty) = -pw.d[b];
    s.R(1, w) = -pw.psi[a];
    s.R(1, ty) = pw.psi[b];
    s.B(2, w) = -pw.dpsi[a];
    s.B(2, ty) = pw.dpsi[b];
    s.B(5, w) = pw.dd[a] - pw.psi[a];  // w' + theta_y = w' - psi
    s.B(5, ty) = -(pw.dd[b] - pw.psi[b]);
    s.dT(1, w) = pw.dd[a];
    s.dT(1, ty) = -pw.dd[b];
  }
  return s;
}

}  // namespace pm::beam
