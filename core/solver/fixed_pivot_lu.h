// Sparse LU that replays a pivot sequence chosen elsewhere (KLU's): rows
// P and columns Q fixed, the pattern of L and U computed once, then each
// refactorisation and solve is a plain loop over the stored non-zeros.
//
// Why: between two pivot choices IDA refactorises and solves the same
// pattern thousands of times per run, and KLU's general kernels spend
// several instructions per non-zero there (64-bit
// indices packed with the values, row scaling, its block form). Here the
// indices are 32-bit and separate, nothing is scaled, and there are no
// blocks: one L and one U for the whole permuted matrix.
#pragma once

#include <cstdint>
#include <vector>

namespace pm {

class FixedPivotLu {
 public:
  // Pattern of the n x n CSC matrix (colPtr, rowIdx) and the pivot order:
  // the k-th pivot is row rowOf[k] of column colOf[k]. False if the order
  // leaves a pivot structurally zero.
  bool analyse(long n, const long* colPtr, const long* rowIdx, const long* rowOf, const long* colOf);
  bool analysed() const { return n_ > 0; }
  void clear();

  // Factorises the values (same pattern as analysed). False when a pivot is
  // zero, not finite, or smaller than minRatio times the largest entry it
  // divides in its column (the threshold test of partial pivoting): the
  // pivots chosen for other values no longer hold, choose afresh.
  bool factor(const double* values, double minRatio);

  // Solves A x = b in place (b in, x out).
  void solve(double* b) const;

 private:
  long n_ = 0;
  std::vector<int32_t> rowOf_, colOf_;        // pivot order
  std::vector<int32_t> aStart_, aEnd_;        // matrix entries of pivot column k: [aStart_[k], aEnd_[k])
  std::vector<int32_t> aRow_;                 // each matrix entry's pivot row
  std::vector<int32_t> lp_, li_, up_, ui_;    // strictly lower L and strictly upper U, by column
  std::vector<int32_t> lrp_, lpos_;  // L by rows; each by-column entry's position there
  // Consecutive indices of each column (or row), as (first, length).
  struct Runs {
    std::vector<int32_t> at, first, length;  // vector v's runs: [at[v], at[v + 1])
    void build(long n, const std::vector<int32_t>& ptr, const std::vector<int32_t>& index);
  };
  Runs lColumnRuns_, lRowRuns_, uColumnRuns_;
  std::vector<double> lx_, lrx_, ux_, inverseDiag_;
  std::vector<double> rowScale_;  // 1 / each pivot row's largest entry
  mutable std::vector<double> work_;
};

}  // namespace pm
