// Minimum-norm solutions of a sparse constraint system A z = b (the
// assembly's and the projections' Gauss-Newton steps, the kinematic
// analysis).
#pragma once

#include <Eigen/Sparse>

namespace pm::mb {

// Minimum-norm solution of A z = b (A m x n, possibly rank-deficient, b
// consistent): with A^T P = Q R (sparse QR, rank r), z = Q [R11^-T (P^T b)_r; 0];
// the dependent rows (P's last m - r) hold when b is consistent.
Eigen::VectorXd minimumNorm(const Eigen::SparseMatrix<double>& A, const Eigen::VectorXd& b);

// The same where A is square and regular (a 0-DOF mechanism's kinematics),
// then its only solution, by a sparse LU: the QR's Householder updates cost
// several times more on long ladders. Singular: the QR's minimum norm.
Eigen::VectorXd minimumNormSquare(const Eigen::SparseMatrix<double>& A, const Eigen::VectorXd& b);

}  // namespace pm::mb
