// The linearised DAE of the modal analysis (analyses/modal_analysis.h),
//   A dy + B dy' = 0,  A = dF/dy, B = dF/dy',
// by central differences of the System's residual on states scaled by d
// (columns times d, rows divided by their largest entry), and its finite
// eigenvalues lambda (dy = v e^(lambda t)) by shift and invert:
// (A + s B)^-1 B z = theta z, lambda = s - 1/theta.
//  - dense: every column differenced alone, every eigenvalue
//    (Eigen::EigenSolver on the n x n shift-inverted matrix, cost ~ n^3);
//  - sparse: columns differenced by colour groups of the Jacobian's pattern
//    (solver/colored_jacobian.h), A + s B factorised by a sparse LU and the
//    eigenvalues nearest the shift found by a band Arnoldi iteration
//    (analyses/arnoldi_eigen.h), in shifted windows
//    (analyses/modal_windows.h): the lowest modes only, for large models.
// Where the residual is the same function of each column's state alone (a
// complete pattern), both give the same matrix entries.
#pragma once

#include "analyses/abandonable.h"
#include "analyses/zero_modes.h"
#include "solver/system.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <atomic>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

namespace pm::modal {

using SpMat = Eigen::SparseMatrix<double>;

// The state scales: a state's value, or what the solver's tolerances call
// small (multipliers kept out of the error test have a huge atol: 1 for them).
Eigen::VectorXd stateScales(System& sys, const std::vector<double>& y, double relTol);

struct Pencil {
  Eigen::MatrixXd A, B;
  Eigen::VectorXd d;  // state scales
};
struct SparsePencil {
  SpMat A, B;
  Eigen::VectorXd d;
};

// The difference quotients' step, relative to the state scales.
constexpr double kStep = 1e-7;

// The functions below throw ModalCancelled (analyses/modal_analysis.h) once
// `cancel` is set: the linearisations look at it after every column (or
// colour group), the sparse solver before every Arnoldi product; the dense
// solver's LU and eigensolution and the sparse one's Ritz problems run on a
// thread the cancel leaves behind (leavable, below).

// A (and B unless `withRate` is false) on the states scaled by d, rows
// divided by their largest entry (returned in `rows`), or by `given`.
Pencil linearise(System& sys, double t, std::vector<double> y, std::vector<double> yp, const Eigen::VectorXd& d,
                 bool withRate, Eigen::VectorXd* rows = nullptr, double step = kStep,
                 const Eigen::VectorXd* given = nullptr, const std::atomic<bool>* cancel = nullptr);
SparsePencil lineariseSparse(System& sys, double t, std::vector<double> y, std::vector<double> yp,
                             const Eigen::VectorXd& d, bool withRate, Eigen::VectorXd* rows = nullptr,
                             double step = kStep, const Eigen::VectorXd* given = nullptr,
                             const std::atomic<bool>* cancel = nullptr);

struct Eigenpairs {
  Eigen::VectorXcd lambda;
  Eigen::MatrixXcd z;  // scaled states
  double shift = 0.0;
  int infinite = 0;      // -1: not counted (sparse)
  double reach = INFINITY;  // every finite eigenvalue with |lambda| <= reach is in (sparse) [1/s]
  int krylovDimension = 0;
  int applications = 0;  // products (A + s B)^-1 B x
  int factorisations = 0;  // LU factorisations of A + s B
  std::vector<double> windows;  // sparse: the shifts of the windows used (analyses/modal_windows.h) [1/s]
  double operatorNorm = 0.0;  // |(A + s B)^-1 B|_F (sparse: estimated)
  ZeroModes zeros;       // the eigenpairs that are zero modes, and their null directions
};

// Every finite eigenvalue. (The sparse solver: analyses/modal_windows.h.)
Eigenpairs solveDense(const Pencil& p, const std::atomic<bool>* cancel = nullptr);

// |theta| below this times the largest is an infinite eigenvalue (above
// 1e6 |s|-scaled rad/s, 160 kHz at the shift 1 rad/s).
constexpr double kInfinite = 1e-6;
// The shifts tried in turn until A + s B is regular enough [rad/s].
constexpr double kShifts[] = {1.0, 7.3, 0.137, 53.0};

// Throws ModalCancelled if `cancel` is set.
void throwIfCancelled(const std::atomic<bool>* cancel);

// work() (which owns what it reads) on a thread a cancel leaves behind
// (analyses/abandonable.h); throws ModalCancelled once `cancel` is set.
template <class Work>
auto leavable(Work work, const std::atomic<bool>* cancel) {
  auto result = runAbandonable(std::move(work), cancel);
  if (!result) throwIfCancelled(cancel);
  return std::move(*result);
}

}  // namespace pm::modal
