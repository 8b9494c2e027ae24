// Natural modes and structural damping of a flexible beam's elastic
// coordinates: the generalised symmetric eigenproblem K phi = omega^2 M phi
// (dense; beams have a few hundred coordinates), the share of each mode in
// the axial, bending and torsion coordinates (to name the modes), Rayleigh
// damping C = alpha M + beta K (sparse, the DAE's choice) or one modal
// damping ratio for every mode (dense), and the damped modes of
// M q'' + C q' + K q = 0 from its first-order form.
#pragma once

#include "mechanics/beam/flexible_beam.h"

#include <array>
#include <vector>

namespace pm::beam {

struct Modes {
  Eigen::VectorXd omega;   // rad/s, ascending
  Eigen::MatrixXd shapes;  // columns, mass-normalised: phi^T M phi = 1
};
Modes naturalModes(const SparseMatrix& K, const SparseMatrix& M);

// Shares of phi^T M phi in the families of coordinates (they sum to 1):
// axial u, bending in x-y (v, theta_z), bending in x-z (w, theta_y), twist.
enum class Family { Axial = 0, BendingXY = 1, BendingXZ = 2, Torsion = 3 };
std::array<double, 4> familyShares(const FlexibleBeam& beam, const SparseMatrix& M, const Eigen::VectorXd& phi);
Family familyOf(int comp);
// The natural frequencies of the modes whose largest share is `f`, ascending.
std::vector<double> familyFrequencies(const FlexibleBeam& beam, const SparseMatrix& M, const Modes& modes, Family f);

struct RayleighCoefficients {
  double alpha = 0.0, beta = 0.0;
};
SparseMatrix rayleighDamping(const SparseMatrix& M, const SparseMatrix& K, RayleighCoefficients c);
// The Rayleigh pair giving the ratio zeta at omega1 and omega2:
// zeta(omega) = alpha / (2 omega) + beta omega / 2.
RayleighCoefficients rayleighForRatio(double zeta, double omega1, double omega2);
// C = M Phi diag(2 zeta omega_i) Phi^T M over all modes: every mode gets the
// ratio zeta exactly. Dense: a full block in the Jacobian.
Eigen::MatrixXd modalDamping(const SparseMatrix& M, const Modes& modes, double zeta);

// A beam's structural damping as a project states it: Rayleigh (alpha,
// beta) or one modal ratio for every mode of the clamped beam.
struct BeamDamping {
  enum class Kind { None, Rayleigh, ModalRatio };
  Kind kind = Kind::None;
  RayleighCoefficients rayleigh;
  double zeta = 0.0;
};
// C for the beam's elastic coordinates (sparse storage; full for a modal ratio).
SparseMatrix dampingMatrix(const FlexibleBeam& beam, const BeamDamping& d);

struct DampedMode {
  double omega = 0.0;  // undamped-equivalent |lambda| [rad/s]
  double zeta = 0.0;   // -Re(lambda) / |lambda|
};
// The oscillating modes (Im lambda > 0) of M q'' + C q' + K q = 0, by |lambda| ascending.
std::vector<DampedMode> dampedModes(const Eigen::MatrixXd& K, const Eigen::MatrixXd& C, const Eigen::MatrixXd& M);

}  // namespace pm::beam
