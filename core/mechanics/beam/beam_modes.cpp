#include "mechanics/beam/beam_modes.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pm::beam {

Modes naturalModes(const SparseMatrix& K, const SparseMatrix& M) {
  const Eigen::MatrixXd Kd(K), Md(M);
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(Kd, Md);
  if (es.info() != Eigen::Success)
    throw std::runtime_error("beam: the eigenproblem failed (is the mass matrix positive?)");
  Modes m;
  m.omega = es.eigenvalues().cwiseMax(0.0).cwiseSqrt();  // ascending; a rigid mode's -1e-9 becomes 0
  m.shapes = es.eigenvectors();                          // normalised to phi^T M phi = 1
  return m;
}

Family familyOf(int comp) {
  switch (comp) {
    case 0: return Family::Axial;
    case 1:
    case 5: return Family::BendingXY;
    case 2:
    case 4: return Family::BendingXZ;
    default: return Family::Torsion;
  }
}

std::array<double, 4> familyShares(const FlexibleBeam& beam, const SparseMatrix& M, const Eigen::VectorXd& phi) {
  std::array<Eigen::VectorXd, 4> part;
  for (auto& p : part) p = Eigen::VectorXd::Zero(phi.size());
  for (int j = 0; j < beam.nodeCount(); ++j)
    for (int c = 0; c < kNodeDofs; ++c)
      if (const int i = beam.dofIndex(j, c); i >= 0) part[static_cast<int>(familyOf(c))][i] = phi[i];
  const double total = phi.dot(M * phi);
  std::array<double, 4> s{};
  for (int f = 0; f < 4; ++f) s[f] = part[f].dot(M * part[f]) / total;
  return s;
}

std::vector<double> familyFrequencies(const FlexibleBeam& beam, const SparseMatrix& M, const Modes& modes, Family f) {
  std::vector<double> w;
  for (Eigen::Index k = 0; k < modes.omega.size(); ++k) {
    const auto s = familyShares(beam, M, modes.shapes.col(k));
    if (std::max_element(s.begin(), s.end()) - s.begin() == static_cast<int>(f)) w.push_back(modes.omega[k]);
  }
  return w;
}

SparseMatrix rayleighDamping(const SparseMatrix& M, const SparseMatrix& K, RayleighCoefficients c) {
  if (c.alpha < 0.0 || c.beta < 0.0) throw std::invalid_argument("beam: Rayleigh alpha and beta must not be negative");
  return c.alpha * M + c.beta * K;
}

RayleighCoefficients rayleighForRatio(double zeta, double omega1, double omega2) {
  if (!(omega1 > 0.0 && omega2 > 0.0)) throw std::invalid_argument("beam: Rayleigh fit needs two positive frequencies");
  return {2.0 * zeta * omega1 * omega2 / (omega1 + omega2), 2.0 * zeta / (omega1 + omega2)};
}

Eigen::MatrixXd modalDamping(const SparseMatrix& M, const Modes& modes, double zeta) {
  if (zeta < 0.0) throw std::invalid_argument("beam: the modal damping ratio must not be negative");
  const Eigen::MatrixXd MPhi = Eigen::MatrixXd(M) * modes.shapes;
  return MPhi * (2.0 * zeta * modes.omega).asDiagonal() * MPhi.transpose();
}

SparseMatrix dampingMatrix(const FlexibleBeam& beam, const BeamDamping& d) {
  const SparseMatrix M = beam.mass();
  switch (d.kind) {
    case BeamDamping::Kind::None: return SparseMatrix(M.rows(), M.cols());
    case BeamDamping::Kind::Rayleigh: return rayleighDamping(M, beam.stiffness(), d.rayleigh);
    case BeamDamping::Kind::ModalRatio: {
      const SparseMatrix K = beam.stiffness();
      return modalDamping(M, naturalModes(K, M), d.zeta).sparseView();
    }
  }
  return SparseMatrix(M.rows(), M.cols());
}

std::vector<DampedMode> dampedModes(const Eigen::MatrixXd& K, const Eigen::MatrixXd& C, const Eigen::MatrixXd& M) {
  const Eigen::Index n = K.rows();
  // Mass-normalised coordinates y = L^T q (M = L L^T), states (s y, y'):
  //   x' = [0  s I; -Kt / s  -Ct] x,  Kt = L^-1 K L^-T, Ct = L^-1 C L^-T.
  // The scale s = sqrt(|Kt|) balances the blocks; without it the stiff
  // modes' large entries cost the slow modes digits.
  const Eigen::LLT<Eigen::MatrixXd> llt(M);
  if (llt.info() != Eigen::Success) throw std::runtime_error("beam: the mass matrix is not positive definite");
  auto congruent = [&](const Eigen::MatrixXd& X) -> Eigen::MatrixXd {
    const Eigen::MatrixXd Y = llt.matrixL().solve(X);
    return llt.matrixL().solve(Y.transpose()).transpose();
  };
  const Eigen::MatrixXd Kt = congruent(K), Ct = congruent(C);
  const double s = std::sqrt(std::max(Kt.norm(), 1e-300));
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topRightCorner(n, n).diagonal().setConstant(s);
  A.bottomLeftCorner(n, n) = -Kt / s;
  A.bottomRightCorner(n, n) = -Ct;
  Eigen::EigenSolver<Eigen::MatrixXd> es(A, false);
  std::vector<DampedMode> modes;
  for (Eigen::Index k = 0; k < 2 * n; ++k) {
    const std::complex<double> l = es.eigenvalues()[k];
    if (l.imag() > 0.0) modes.push_back({std::abs(l), -l.real() / std::abs(l)});
  }
  std::sort(modes.begin(), modes.end(), [](const DampedMode& a, const DampedMode& b) { return a.omega < b.omega; });
  return modes;
}

}  // namespace pm::beam
