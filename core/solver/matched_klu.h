// IDA's sparse linear solver: KLU on the iteration matrix with its rows
// permuted once so that large entries sit on the diagonal (a maximum-product
// matching, as MC64 does for SuperLU), then ordered by AMD.
//
// Why: the mechanism's multiplier columns have only -eps (or nothing) on the
// diagonal, so KLU's fill-reducing order, computed for diagonal pivots, is
// spoiled by the off-diagonal pivots partial pivoting must take; where they
// fall depends on the values at the first factorisation (TORX under servo
// control and its open-loop twin, with nearly the same pattern, filled in
// very differently). With the matched rows the pivots stay on the diagonal
// and the order holds for both.
#pragma once

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>

#include <vector>

namespace pm {

// States from which IDA's Jacobian is sparse (this solver) rather than dense.
// With the matched rows KLU beats the dense LU from about 80 states and
// loses below (docs/performance.md says how to re-check).
constexpr int kSparseFrom = 80;

SUNLinearSolver makeMatchedKlu(SUNContext ctx);

// Row of each column in a maximum-product matching of the n x n CSC matrix
// (colPtr, rowIdx, values): row perm[j] holds column j's diagonal entry,
// maximising the product of |a(perm[j], j)| scaled by each column's largest
// entry. Empty when the matrix is structurally singular.
std::vector<long> maximumProductMatching(long n, const long* colPtr, const long* rowIdx, const double* values);

}  // namespace pm
