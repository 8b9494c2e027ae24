// The eigenvalues of largest modulus of a real linear operator C (n x n)
// given only as x -> C x, by a band (block) Arnoldi iteration with full
// reorthogonalisation: the Krylov space of `block` random starting vectors,
// grown one vector at a time, C V_m = V_(m+b) H. Ritz pairs of the leading
// m x m of H are checked from time to time; the iteration stops when the
// converged leading ones (largest |theta| first) satisfy the caller. With
// ArnoldiOptions::maxDimension the space is restarted instead of growing
// (the dense Ritz problem costs m^3): a Krylov-Schur restart keeps the
// invariant subspace of H's leading Ritz values and the Arnoldi relation
// with it, so the iteration goes on where it was.
//
// Used by the modal analysis on the shift-inverted pencil
// C = (A + s B)^-1 B: its largest |theta| are the eigenvalues lambda
// nearest the shift. Why a band of starting vectors: a single one spans
// only one direction of a repeated eigenvalue (a round beam's two bending
// planes, a free part's rigid-body modes); b vectors find up to b copies.
// The random start is "purified" by applying C to it a few times, so that
// the pencil's infinite eigenvalues (theta = 0, defective for the
// constraints of an index-2 DAE) do not enter the Krylov space.
#pragma once

#include <Eigen/Dense>

#include <atomic>
#include <functional>
#include <vector>

namespace pm {

struct ArnoldiOptions {
  int block = 6;          // starting vectors (largest multiplicity found for sure: a free body's 6 rigid modes)
  double tol = 1e-11;     // converged: |C x - theta x| <= tol |theta| (|x| = 1)
  int purify = 3;         // applications of C to the random start
  int firstCheck = 40;    // Krylov dimension of the first convergence check
  // Restart when the space reaches this dimension (0: grow until enough):
  // keep the span of the `keep` leading Ritz vectors (a conjugate pair
  // whole; from H's reordered Schur form) and the vectors that extend it,
  // so the dense Ritz problems stay small.
  int maxDimension = 0;
  int keep = 0;
  unsigned seed = 20261127;
  // Polled before every product, and while a Ritz problem or a restart's
  // Schur form is computed (on a thread left behind when it is set,
  // analyses/abandonable.h): once set (from another thread), the iteration
  // returns at once with `cancelled` and no pairs.
  const std::atomic<bool>* cancel = nullptr;
};

// The Ritz values at a convergence check, |theta| descending, each with
// whether it has converged (|C x - theta x| <= tol |theta|).
struct RitzValues {
  Eigen::VectorXcd theta;
  std::vector<char> converged;
  Eigen::VectorXd residual;  // |C x - theta x| of each (|x| = 1)
  int leading = 0;    // how many lead converged without a gap
  int dimension = 0;  // the Krylov space's
};

struct ArnoldiResult {
  // The converged Ritz values, |theta| descending (the `leading` ones first,
  // then those converged behind an unconverged one), and their Ritz vectors
  // (unit norm, columns). Conjugate pairs appear as both halves.
  Eigen::VectorXcd theta;
  Eigen::MatrixXcd vectors;
  int leading = 0;
  RitzValues ritz;         // every Ritz value at the end (the caller's view of what did not converge)
  int dimension = 0;       // Krylov dimension at the end
  int applications = 0;    // products C x
  int restarts = 0;
  bool exhausted = false;  // restarted ArnoldiOptions' limit of times without satisfying the caller
  // The space is invariant and holds everything the purified starts reach
  // (every eigenvalue but those of theta = 0 is among the returned, exact).
  bool complete = false;
  bool cancelled = false;  // ArnoldiOptions::cancel was set: theta and vectors are empty
};

// `apply(x, y)` sets y = C x. `enough(ritz)` is asked with the Ritz values
// at each check; the iteration ends when it says yes, or when the Krylov
// space is the whole space (then every Ritz pair is returned).
ArnoldiResult arnoldiLargest(int n, const std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)>& apply,
                             const std::function<bool(const RitzValues&)>& enough,
                             const ArnoldiOptions& options = {});

}  // namespace pm
