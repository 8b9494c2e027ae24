#include "solver/serial_vector.h"

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <cmath>

namespace pm {

namespace {

// The element-wise kernels. Elements are independent, so aliasing between
// x, y and z (IDA passes z == x or z == y) reads each element before it is
// written, as SUNDIALS' loops do.
long len(N_Vector v) { return NV_LENGTH_S(v); }
double* data(N_Vector v) { return NV_DATA_S(v); }

void copy(N_Vector x, N_Vector z) {
  const double* xd = data(x);
  double* zd = data(z);
  for (long i = 0, n = len(x); i < n; ++i) zd[i] = xd[i];
}

// y <- a x + y, with SUNDIALS' cases a = 1 and a = -1.
void axpy(double a, N_Vector x, N_Vector y) {
  const double* xd = data(x);
  double* yd = data(y);
  const long n = len(x);
  if (a == 1.0) {
    for (long i = 0; i < n; ++i) yd[i] += xd[i];
  } else if (a == -1.0) {
    for (long i = 0; i < n; ++i) yd[i] -= xd[i];
  } else {
    for (long i = 0; i < n; ++i) yd[i] += a * xd[i];
  }
}

// z = a x + b y, case by case as N_VLinearSum_Serial: each case rounds
// differently (c (x + y) is not c x + c y), so the cases stay.
void linearSum(double a, N_Vector x, double b, N_Vector y, N_Vector z) {
  if (b == 1.0 && z == y) return axpy(a, x, y);
  if (a == 1.0 && z == x) return axpy(b, y, x);
  const double* xd = data(x);
  const double* yd = data(y);
  double* zd = data(z);
  const long n = len(x);
  if (a == 1.0 && b == 1.0) {
    for (long i = 0; i < n; ++i) zd[i] = xd[i] + yd[i];
  } else if (a == 1.0 && b == -1.0) {
    for (long i = 0; i < n; ++i) zd[i] = xd[i] - yd[i];
  } else if (a == -1.0 && b == 1.0) {
    for (long i = 0; i < n; ++i) zd[i] = yd[i] - xd[i];
  } else if (a == 1.0) {
    for (long i = 0; i < n; ++i) zd[i] = (b * yd[i]) + xd[i];
  } else if (b == 1.0) {
    for (long i = 0; i < n; ++i) zd[i] = (a * xd[i]) + yd[i];
  } else if (a == -1.0) {
    for (long i = 0; i < n; ++i) zd[i] = (b * yd[i]) - xd[i];
  } else if (b == -1.0) {
    for (long i = 0; i < n; ++i) zd[i] = (a * xd[i]) - yd[i];
  } else if (a == b) {
    for (long i = 0; i < n; ++i) zd[i] = a * (xd[i] + yd[i]);
  } else if (a == -b) {
    for (long i = 0; i < n; ++i) zd[i] = a * (xd[i] - yd[i]);
  } else {
    for (long i = 0; i < n; ++i) zd[i] = (a * xd[i]) + (b * yd[i]);
  }
}

void constant(double c, N_Vector z) {
  double* zd = data(z);
  for (long i = 0, n = len(z); i < n; ++i) zd[i] = c;
}

void prod(N_Vector x, N_Vector y, N_Vector z) {
  const double* xd = data(x);
  const double* yd = data(y);
  double* zd = data(z);
  for (long i = 0, n = len(x); i < n; ++i) zd[i] = xd[i] * yd[i];
}

void div(N_Vector x, N_Vector y, N_Vector z) {
  const double* xd = data(x);
  const double* yd = data(y);
  double* zd = data(z);
  for (long i = 0, n = len(x); i < n; ++i) zd[i] = xd[i] / yd[i];
}

void scale(double c, N_Vector x, N_Vector z) {
  const double* xd = data(x);
  double* zd = data(z);
  const long n = len(x);
  if (z == x) {
    for (long i = 0; i < n; ++i) zd[i] *= c;
  } else if (c == 1.0) {
    copy(x, z);
  } else if (c == -1.0) {
    for (long i = 0; i < n; ++i) zd[i] = -xd[i];
  } else {
    for (long i = 0; i < n; ++i) zd[i] = c * xd[i];
  }
}

void absolute(N_Vector x, N_Vector z) {
  const double* xd = data(x);
  double* zd = data(z);
  for (long i = 0, n = len(x); i < n; ++i) zd[i] = std::fabs(xd[i]);
}

void inv(N_Vector x, N_Vector z) {
  const double* xd = data(x);
  double* zd = data(z);
  for (long i = 0, n = len(x); i < n; ++i) zd[i] = 1.0 / xd[i];
}

void addConst(N_Vector x, double b, N_Vector z) {
  const double* xd = data(x);
  double* zd = data(z);
  for (long i = 0, n = len(x); i < n; ++i) zd[i] = xd[i] + b;
}

// Reductions in index order (a vectorised sum would round differently).
double wSqrSum(N_Vector x, N_Vector w) {
  const double* xd = data(x);
  const double* wd = data(w);
  double sum = 0.0;
  for (long i = 0, n = len(x); i < n; ++i) {
    const double p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

double wSqrSumMask(N_Vector x, N_Vector w, N_Vector id) {
  const double* xd = data(x);
  const double* wd = data(w);
  const double* idd = data(id);
  double sum = 0.0;
  for (long i = 0, n = len(x); i < n; ++i)
    if (idd[i] > 0.0) {
      const double p = xd[i] * wd[i];
      sum += p * p;
    }
  return sum;
}

double wrmsNorm(N_Vector x, N_Vector w) { return std::sqrt(wSqrSum(x, w) / len(x)); }
double wrmsNormMask(N_Vector x, N_Vector w, N_Vector id) { return std::sqrt(wSqrSumMask(x, w, id) / len(x)); }

double maxNorm(N_Vector x) {
  const double* xd = data(x);
  double m = 0.0;
  for (long i = 0, n = len(x); i < n; ++i)
    if (std::fabs(xd[i]) > m) m = std::fabs(xd[i]);
  return m;
}

double minimum(N_Vector x) {
  const double* xd = data(x);
  double m = xd[0];
  for (long i = 1, n = len(x); i < n; ++i)
    if (xd[i] < m) m = xd[i];
  return m;
}

// The fused and array operations do exactly what SUNDIALS' generic
// fallbacks do with the operations above (the ones that ran before these
// existed), in one call instead of one per vector.
// z = c0 x0 + c1 x1 + ... summed left to right in one pass. The fallback's
// scale and axpy cases (copy for c = 1, negation for c = -1, z + x, z - x)
// are exactly c x and z + c x for c = +-1, so this rounds as the fallback
// does, as long as no x_i (i > 0) is z itself (the fallback reads the
// partial sum there).
template <int K>
void combine(const double* c, N_Vector* X, N_Vector z) {
  const double* x[K];
  for (int i = 0; i < K; ++i) x[i] = data(X[i]);
  double* zd = data(z);
  for (long j = 0, n = len(z); j < n; ++j) {
    double s = c[0] * x[0][j];
    for (int i = 1; i < K; ++i) s += c[i] * x[i][j];
    zd[j] = s;
  }
}

int linearCombination(int nvec, double* c, N_Vector* X, N_Vector z) {
  bool aliased = false;
  for (int i = 1; i < nvec; ++i) aliased = aliased || X[i] == z;
  if (!aliased) switch (nvec) {
      case 2: return combine<2>(c, X, z), 0;
      case 3: return combine<3>(c, X, z), 0;
      case 4: return combine<4>(c, X, z), 0;
      case 5: return combine<5>(c, X, z), 0;
      case 6: return combine<6>(c, X, z), 0;
      default: break;
    }
  scale(c[0], X[0], z);
  for (int i = 1; i < nvec; ++i) linearSum(c[i], X[i], 1.0, z, z);
  return 0;
}

int scaleAddMulti(int nvec, double* a, N_Vector x, N_Vector* Y, N_Vector* Z) {
  for (int i = 0; i < nvec; ++i) linearSum(a[i], x, 1.0, Y[i], Z[i]);
  return 0;
}

int linearSumArray(int nvec, double a, N_Vector* X, double b, N_Vector* Y, N_Vector* Z) {
  for (int i = 0; i < nvec; ++i) linearSum(a, X[i], b, Y[i], Z[i]);
  return 0;
}

int scaleArray(int nvec, double* c, N_Vector* X, N_Vector* Z) {
  for (int i = 0; i < nvec; ++i) scale(c[i], X[i], Z[i]);
  return 0;
}

int constArray(int nvec, double c, N_Vector* Z) {
  for (int i = 0; i < nvec; ++i) constant(c, Z[i]);
  return 0;
}

int wrmsNormArray(int nvec, N_Vector* X, N_Vector* W, double* nrm) {
  for (int i = 0; i < nvec; ++i) nrm[i] = wrmsNorm(X[i], W[i]);
  return 0;
}

int wrmsNormMaskArray(int nvec, N_Vector* X, N_Vector* W, N_Vector id, double* nrm) {
  for (int i = 0; i < nvec; ++i) nrm[i] = wrmsNormMask(X[i], W[i], id);
  return 0;
}

// A plain store loop rather than memset: for these sizes (a few kB) glibc's
// memset uses `rep stosb`, no faster here and counted per byte by callgrind,
// which would hide the instruction counts the speed notes rely on.
#if defined(__GNUC__) && !defined(__clang__)
#define PM_NO_MEMSET_PATTERN __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define PM_NO_MEMSET_PATTERN
#endif
PM_NO_MEMSET_PATTERN int zeroDense(SUNMatrix A) {
  double* a = SUNDenseMatrix_Data(A);
  for (long i = 0, n = SUNDenseMatrix_LData(A); i < n; ++i) a[i] = 0.0;
  return 0;
}

PM_NO_MEMSET_PATTERN int zeroSparse(SUNMatrix A) {
  double* a = SUNSparseMatrix_Data(A);
  sunindextype* rows = SUNSparseMatrix_IndexValues(A);
  sunindextype* cols = SUNSparseMatrix_IndexPointers(A);
  for (long i = 0, n = SUNSparseMatrix_NNZ(A); i < n; ++i) a[i] = 0.0, rows[i] = 0;
  for (long i = 0, n = SUNSparseMatrix_NP(A); i <= n; ++i) cols[i] = 0;
  return 0;
}

}  // namespace

N_Vector newSerialVector(long n, SUNContext ctx) {
  N_Vector v = N_VNew_Serial(n, ctx);
  if (!v) return v;
  N_Vector_Ops o = v->ops;
  o->nvlinearsum = linearSum;
  o->nvconst = constant;
  o->nvprod = prod;
  o->nvdiv = div;
  o->nvscale = scale;
  o->nvabs = absolute;
  o->nvinv = inv;
  o->nvaddconst = addConst;
  o->nvmaxnorm = maxNorm;
  o->nvmaxnormlocal = maxNorm;
  o->nvwrmsnorm = wrmsNorm;
  o->nvwrmsnormmask = wrmsNormMask;
  o->nvmin = minimum;
  o->nvminlocal = minimum;
  o->nvwsqrsumlocal = wSqrSum;
  o->nvwsqrsummasklocal = wSqrSumMask;
  o->nvlinearcombination = linearCombination;
  o->nvscaleaddmulti = scaleAddMulti;
  o->nvlinearsumvectorarray = linearSumArray;
  o->nvscalevectorarray = scaleArray;
  o->nvconstvectorarray = constArray;
  o->nvwrmsnormvectorarray = wrmsNormArray;
  o->nvwrmsnormmaskvectorarray = wrmsNormMaskArray;
  return v;
}

void useOptimisedZero(SUNMatrix matrix) {
  matrix->ops->zero = SUNMatGetID(matrix) == SUNMATRIX_SPARSE ? zeroSparse : zeroDense;
}

}  // namespace pm
