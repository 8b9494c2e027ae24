#include "solver/dense_lu.h"

#include "solver/direct_linear_solver.h"

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <vector>

namespace pm {

namespace {

struct DenseLu {
  std::vector<long> pivot;
  long lastFlag = 0;
  // The factors' non-zeros by column, for the solves (a third of the
  // entries of the tool changer's 25 x 25 factors are non-zero): L strictly
  // below the diagonal, U strictly above, rows ascending as the dense loops
  // ran them, so the solutions are the same to the bit.
  std::vector<int> lStart, uStart, lRow, uRow;
  std::vector<double> lVal, uVal, diag;
  int setup(SUNMatrix A);
  int solve(SUNMatrix A, N_Vector x, N_Vector b);
};

// Column-major a (n x n): a[i + j n] is row i, column j. Right-looking
// elimination, k = 0 .. n-1: pivot = first largest |a(i, k)|, i >= k; swap
// rows k and pivot over all columns; multipliers a(i, k) *= 1 / a(k, k);
// a(i, j) -= a(k, j) a(i, k) for j > k where a(k, j) != 0.
int DenseLu::setup(SUNMatrix A) {
  const long n = SUNDenseMatrix_Columns(A);
  double* a = SUNDenseMatrix_Data(A);
  long* p = pivot.data();
  for (long k = 0; k < n; ++k) {
    double* colK = a + k * n;
    long l = k;
    for (long i = k + 1; i < n; ++i)
      if (std::abs(colK[i]) > std::abs(colK[l])) l = i;
    p[k] = l;
    if (colK[l] == 0.0) {
      lastFlag = k + 1;
      return SUNLS_LUFACT_FAIL;
    }
    if (l != k)
      for (long j = 0; j < n; ++j) {
        double* col = a + j * n;
        const double tmp = col[l];
        col[l] = col[k];
        col[k] = tmp;
      }
    const double mult = 1.0 / colK[k];
    for (long i = k + 1; i < n; ++i) colK[i] *= mult;
    for (long j = k + 1; j < n; ++j) {
      double* __restrict colJ = a + j * n;
      const double* __restrict ck = colK;
      const double akj = colJ[k];
      if (akj != 0.0)
        for (long i = k + 1; i < n; ++i) colJ[i] -= akj * ck[i];
    }
  }
  DenseLu& c = *this;
  const size_t nn = static_cast<size_t>(n);
  c.lStart.resize(nn + 1), c.uStart.resize(nn + 1), c.diag.resize(nn);
  c.lRow.resize(nn * nn), c.uRow.resize(nn * nn), c.lVal.resize(nn * nn), c.uVal.resize(nn * nn);
  int* lr = c.lRow.data();
  int* ur = c.uRow.data();
  double* lv = c.lVal.data();
  double* uv = c.uVal.data();
  int nl = 0, nu = 0;
  c.lStart[0] = c.uStart[0] = 0;
  for (long k = 0; k < n; ++k) {
    const double* col = a + k * n;
    for (long i = 0; i < k; ++i)
      if (col[i] != 0.0) ur[nu] = static_cast<int>(i), uv[nu++] = col[i];
    c.diag[static_cast<size_t>(k)] = col[k];
    for (long i = k + 1; i < n; ++i)
      if (col[i] != 0.0) lr[nl] = static_cast<int>(i), lv[nl++] = col[i];
    c.lStart[static_cast<size_t>(k) + 1] = nl;
    c.uStart[static_cast<size_t>(k) + 1] = nu;
  }
  c.lastFlag = 0;
  return SUNLS_SUCCESS;
}

// x = A^-1 b with the factors' non-zeros: permute, then L y = b (unit
// diagonal), then U x = y, each column at a time.
int DenseLu::solve(SUNMatrix A, N_Vector x, N_Vector b) {
  const long n = SUNDenseMatrix_Columns(A);
  const DenseLu& c = *this;
  const long* p = c.pivot.data();
  double* __restrict v = N_VGetArrayPointer(x);
  const double* bv = N_VGetArrayPointer(b);
  if (v != bv)
    for (long i = 0; i < n; ++i) v[i] = bv[i];
  for (long k = 0; k < n; ++k)
    if (p[k] != k) {
      const double tmp = v[k];
      v[k] = v[p[k]];
      v[p[k]] = tmp;
    }
  const int* lr = c.lRow.data();
  const double* lv = c.lVal.data();
  for (long k = 0; k < n - 1; ++k) {
    const double vk = v[k];
    if (vk == 0.0) continue;
    for (int e = c.lStart[k]; e < c.lStart[k + 1]; ++e) v[lr[e]] -= lv[e] * vk;
  }
  const int* ur = c.uRow.data();
  const double* uv = c.uVal.data();
  for (long k = n - 1; k >= 0; --k) {
    v[k] /= c.diag[k];
    const double vk = v[k];
    if (vk == 0.0) continue;
    for (int e = c.uStart[k]; e < c.uStart[k + 1]; ++e) v[ur[e]] -= uv[e] * vk;
  }
  lastFlag = 0;
  return SUNLS_SUCCESS;
}

}  // namespace

SUNLinearSolver makeDenseLu(int n, SUNContext ctx) {
  auto c = std::make_unique<DenseLu>();
  c->pivot.assign(static_cast<size_t>(n), 0);
  return makeDirectLinearSolver(ctx, std::move(c));
}

}  // namespace pm
