// The sparse modal eigensolution (analyses/modal_pencil.h's solveSparse) by
// shifted windows: shift-invert Arnoldi iterations (analyses/arnoldi_eigen.h)
// on C_j = (A + s_j B)^-1 B, each finding the eigenvalues nearest its shift
// s_j, every one in a disk |lambda - s_j| <= rho_j.
//
// Why more than one shift: stiffness-proportional (Rayleigh beta) damping of
// a fine beam gives every mode above 2 / beta an overdamped pair whose slow
// root lies just below -1 / beta: hundreds of real eigenvalues accumulate at
// -1 / beta (the swing arm at 80 elements: 14 of its lowest 30 within 2e-4
// of -1550.4175 1/s, 1e-9 apart relative to |lambda|). From a shift near 0
// they are inseparable (theta = 1 / (s - lambda) the same to 1e-9), and the
// Krylov space grew to nearly the whole space before they converged. From a
// shift inside the accumulation they are far apart (theta = 1 / (s - lambda)
// spread over decades), so a second window finds the nearest ones in a few
// dozen products.
//
// The first window (shift near 0) runs until it has the wanted modes, or
// until its converged leading Ritz values stop growing while the next one
// is (nearly) real. There a further window opens. Its Ritz values place an
// accumulation only roughly (22 1/s off once), so a window that finds
// nothing (a probe) takes its leading Ritz value for the nearest
// eigenvalue, its disk to 0.9 of that distance for empty, and the next one
// opens a tenth of the way back from the estimate: each ten times nearer,
// until one is nearer the members than they are to each other. Every
// eigenvalue with |lambda| <= R is found, where R is the least of: |s_j| +
// rho_j of the later windows that found some (beyond, the accumulation is
// not resolved), the lower edge of such a disk where no other disk holds
// it, and the |lambda| of a first-window Ritz value that neither converged
// nor is accounted for by a later window. Each eigenvalue is taken from the
// first window whose disk holds it (the later windows before the first),
// so none is counted twice.
#pragma once

#include "analyses/modal_pencil.h"

namespace pm::modal {

// The finite eigenvalues of smallest |lambda|: until `count` modes (a
// complex pair counted once) lie within the reach, or the reach passes
// `maxOmega` (whichever comes first of those asked for: > 0).
Eigenpairs solveSparse(const SparsePencil& p, int count, double maxOmega, const std::atomic<bool>* cancel = nullptr);

}  // namespace pm::modal
