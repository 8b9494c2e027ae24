// The oscillating modes alone (ModalOptions::oscillatingOnly, `pneumech modal
// --oscillating`), found by windows at shifts on the imaginary axis,
// sigma_k = i omega_k, without the real eigenvalues: a large beam with
// stiffness-proportional damping has hundreds of overdamped real roots piled
// up near -1 / beta (analyses/modal_windows.h), which the real-shift windows
// must resolve one by one before the oscillating modes above them.
//
// Each window iterates (analyses/arnoldi_eigen.h) on the real operator
//   R = Re (A + sigma B)^-1 B = ((A + sigma B)^-1 B + (A + conj sigma B)^-1 B) / 2
// (a complex sparse LU, the real part of each solve). An eigenvector of the
// pencil with eigenvalue lambda is one of R with
//   mu(lambda) = -lambda / (lambda^2 + omega^2),
// so |mu| is large next to +-i omega and at most 1 / (2 omega) for any real
// lambda. A window stops when every Ritz value with |mu| >= m = 2 / (3 omega)
// has converged: no real eigenvalue is ever needed (1 / (2 omega) < m), and
// every eigenvalue with |mu| >= m is found. Along the imaginary axis that is
// omega / 2 <= |lambda| <= 2 omega; windows at omega_0 2^k (each twice the
// last) together hold every eigenvalue with damping ratio up to 2/3
// between them (at the geometric middle of two windows, |lambda| = sqrt(2)
// omega, |mu| >= m reads 1 + 8 zeta^2 <= 4.5); kCoveredZeta is what is
// promised. lambda of a converged Ritz vector z is the pencil's Rayleigh
// quotient -(B z)^H A z / |B z|^2, kept when its residual is small.
#pragma once

#include "analyses/modal_pencil.h"

namespace pm::modal {

// The damping ratio up to which every oscillating mode in the reach is found.
constexpr double kCoveredZeta = 0.6;
// The first window's frequency [rad/s]: modes below it / sqrt(2) are not looked for.
constexpr double kLowestOmega = 1.0;
// The windows end once the reach passes this [rad/s] (160 kHz, where the
// dense solver's eigenvalues count as infinite at its shift 1 rad/s).
constexpr double kHighestOmega = 1e6;

// The oscillating eigenvalues (Im lambda > 0, each pair once) with damping
// ratio <= kCoveredZeta and kLowestOmega / sqrt(2) <= |lambda| <= reach,
// until `count` of them lie within the reach or the reach passes `maxOmega`
// (whichever comes first of those asked for: > 0) or kHighestOmega; others
// found on the way are returned too, all by |lambda|. Eigenpairs::windows are the omega_k.
Eigenpairs solveOscillating(const SparsePencil& p, int count, double maxOmega,
                            const std::atomic<bool>* cancel = nullptr);

}  // namespace pm::modal
