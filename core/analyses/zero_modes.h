// The zero modes among a modal analysis's eigenpairs (analyses/modal_pencil.h):
// rigid-body motions (a free part or beam, a joint without spring) and pure
// integrators (a revolute joint's winding count). Their exact eigenvalue is
// 0, defective for a rigid motion (position and velocity form a Jordan
// chain), so the linearisation's error e splits each into a pair
// +-sqrt(e): a "mode" oscillating at 1e-5 Hz, or a real pair +-mu. That
// size measures the error, not the machine.
//
// The test is on the direction: the eigenpairs' real span (Re and Im of a
// complex pair; a real pair +-mu together) holds a null vector q of the
// linearised A if |A q| is within what the finite differences leave
// uncertain in A q. That uncertainty is measured, not bounded a priori: A
// is differenced a second time with twice the step, and the difference E
// of the two (round-off of independent size; the truncation error h^2 is
// below it) gives |E| |q|, the most the error adds to A q. A split rigid
// pair passes whatever its mu (A (z+ + z-) / 2 = mu^2 B w, the size of E);
// an oscillation at omega has |A q| ~ (omega / w_r)^2 of its rows' scale
// (w_r: the rows' own rate). Why measured: the a-priori bound of the
// round-off, eps / h = 2.2e-9 of each row's scale, would call the first
// bending of the 120-element cantilever (8.4 Hz; its rows carry the axial
// element stiffness, so |A q| is 1.4e-11 of them) a zero mode, while the
// error of these linearisations is 1e-16 to 1e-13 of the row scale.
//
// Which eigenpairs: the span of the modes from the smallest |lambda| up,
// all together, for as long as a further mode adds a null direction; then
// a mode without whom the rest still hold them all (a slow oscillation
// among split rigid ones) is left out. Not each mode or +-mu pair alone:
// several rigid motions share the defective eigenvalue 0, and the
// eigensolver's rounding mixes their Jordan chains. On a free-free beam the
// dense solver's six lowest eigenvalues (3e-4 to 8e-4 i 1/s) hold null
// directions alone only to 1e4 to 1e6 times the noise, the six together
// hold six to 0.15 of it.
#pragma once

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace pm::modal {

// |A q| <= kNoiseMargin |E| |q|: E, the difference of two noisy quotients,
// may happen to be smaller than the first one's error.
constexpr double kNoiseMargin = 10.0;

struct ZeroModes {
  std::vector<Eigen::Index> members;  // the eigenpairs (indices) that are zero ones
  Eigen::MatrixXd directions;         // the null directions in their span (scaled states, orthonormal)
  double worst = 0.0;                 // the largest |A q| / (|E| |q|) accepted
};

// A x and |E| x (E: A's error, x >= 0) for the columns of x.
struct PencilProducts {
  std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)> times, noiseTimes;
  double norm = 0.0;  // A's Frobenius norm
  // Below this |lambda| a mode may be the eigensolver's own split of a
  // zero (see findZeroModes) [1/s].
  double solverZero = 0.0;
};

// `lambda` and `z` (columns: scaled states) as the solvers return them,
// complex pairs with both halves or the upper one only.
ZeroModes findZeroModes(const Eigen::VectorXcd& lambda, const Eigen::MatrixXcd& z, const PencilProducts& A);

}  // namespace pm::modal
