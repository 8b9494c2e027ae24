#include "solver/fixed_pivot_lu.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

namespace pm {

void FixedPivotLu::Runs::build(long n, const std::vector<int32_t>& ptr, const std::vector<int32_t>& index) {
  at.assign(1, 0);
  first.clear();
  length.clear();
  for (long v = 0; v < n; ++v) {
    for (int32_t q = ptr[v]; q < ptr[v + 1]; ++q)
      if (q > ptr[v] && index[q] == index[q - 1] + 1)
        ++length.back();
      else {
        first.push_back(index[q]);
        length.push_back(1);
      }
    at.push_back(static_cast<int32_t>(first.size()));
  }
}

void FixedPivotLu::clear() {
  n_ = 0;
  li_.clear();
  ui_.clear();
}

bool FixedPivotLu::analyse(long n, const long* cp, const long* ri, const long* rowOf, const long* colOf) {
  clear();
  if (n <= 0 || cp[n] > std::numeric_limits<int32_t>::max()) return false;
  rowOf_.assign(rowOf, rowOf + n);
  colOf_.assign(colOf, colOf + n);
  std::vector<int32_t> pivotRow(n);
  for (long k = 0; k < n; ++k) pivotRow[rowOf[k]] = static_cast<int32_t>(k);
  aRow_.resize(cp[n]);
  for (long p = 0; p < cp[n]; ++p) aRow_[p] = pivotRow[ri[p]];
  aStart_.resize(n);
  aEnd_.resize(n);
  lp_.assign(1, 0);
  up_.assign(1, 0);
  // Column k's pattern is the reach of its entries through L's columns:
  // rows above the pivot, taken in increasing order (a topological order,
  // since L is lower triangular), each add their L column.
  std::vector<long> mark(n, -1);
  std::vector<int32_t> lower;
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<int32_t>> above;
  for (long k = 0; k < n; ++k) {
    aStart_[k] = static_cast<int32_t>(cp[colOf[k]]);
    aEnd_[k] = static_cast<int32_t>(cp[colOf[k] + 1]);
    lower.clear();
    bool pivot = false;
    auto add = [&](int32_t i) {
      if (mark[i] == k) return;
      mark[i] = k;
      if (i < k) above.push(i);
      else if (i == k) pivot = true;
      else lower.push_back(i);
    };
    for (long p = aStart_[k]; p < aEnd_[k]; ++p) add(aRow_[p]);
    while (!above.empty()) {
      const int32_t j = above.top();
      above.pop();
      ui_.push_back(j);
      for (int32_t q = lp_[j]; q < lp_[j + 1]; ++q) add(li_[q]);
    }
    if (!pivot) return clear(), false;
    std::sort(lower.begin(), lower.end());
    li_.insert(li_.end(), lower.begin(), lower.end());
    lp_.push_back(static_cast<int32_t>(li_.size()));
    up_.push_back(static_cast<int32_t>(ui_.size()));
  }
  lx_.assign(li_.size(), 0.0);
  // The same factors by rows, for the solves: a row's update is then a dot
  // product (loads and one sum) rather than a scatter (a load and a store
  // per non-zero).
  auto byRows = [n](const std::vector<int32_t>& colPtr, const std::vector<int32_t>& rowIdx, std::vector<int32_t>& rowPtr,
                    std::vector<int32_t>& colIdx, std::vector<int32_t>& position) {
    rowPtr.assign(n + 1, 0);
    for (int32_t i : rowIdx) ++rowPtr[i + 1];
    for (long i = 0; i < n; ++i) rowPtr[i + 1] += rowPtr[i];
    std::vector<int32_t> next(rowPtr.begin(), rowPtr.end() - 1);
    colIdx.resize(rowIdx.size());
    position.resize(rowIdx.size());
    for (long j = 0; j < n; ++j)
      for (int32_t q = colPtr[j]; q < colPtr[j + 1]; ++q) {
        position[q] = next[rowIdx[q]]++;
        colIdx[position[q]] = static_cast<int32_t>(j);
      }
  };
  std::vector<int32_t> lci;
  byRows(lp_, li_, lrp_, lci, lpos_);
  // Rows of a mechanism's parts come in consecutive runs (~4 per L column,
  // ~10 per L row and U column on TORX): loops over runs address memory
  // directly, without an index load per non-zero.
  lColumnRuns_.build(n, lp_, li_);
  lRowRuns_.build(n, lrp_, lci);
  uColumnRuns_.build(n, up_, ui_);
  lrx_.assign(li_.size(), 0.0);
  ux_.assign(ui_.size(), 0.0);
  inverseDiag_.assign(n, 0.0);
  work_.assign(n, 0.0);
  rowScale_.assign(n, 0.0);
  n_ = n;
  return true;
}

bool FixedPivotLu::factor(const double* a, double minRatio) {
  // The threshold test compares rows scaled by their largest entry, as
  // KLU's pivoting does: the rows' units differ by orders of magnitude.
  double* inverseScale = rowScale_.data();
  std::fill(rowScale_.begin(), rowScale_.end(), 0.0);
  for (size_t p = 0; p < aRow_.size(); ++p) inverseScale[aRow_[p]] = std::max(inverseScale[aRow_[p]], std::abs(a[p]));
  for (long i = 0; i < n_; ++i) inverseScale[i] = inverseScale[i] > 0.0 ? 1.0 / inverseScale[i] : 1.0;
  double* x = work_.data();
  const int32_t* li = li_.data();
  double* lx = lx_.data();
  const int32_t *runAt = lColumnRuns_.at.data(), *runFirst = lColumnRuns_.first.data(),
                *runLength = lColumnRuns_.length.data();
  for (long k = 0; k < n_; ++k) {
    for (int32_t p = aStart_[k]; p < aEnd_[k]; ++p) x[aRow_[p]] = a[p];
    for (int32_t p = up_[k]; p < up_[k + 1]; ++p) {
      const int32_t j = ui_[p];
      const double ujk = x[j];
      x[j] = 0.0;
      ux_[p] = ujk;
      const double* v = lx + lp_[j];
      for (int32_t r = runAt[j]; r < runAt[j + 1]; ++r) {
        double* xr = x + runFirst[r];
        const int32_t m = runLength[r];
        for (int32_t t = 0; t < m; ++t) xr[t] -= v[t] * ujk;
        v += m;
      }
    }
    const double pivot = x[k];
    x[k] = 0.0;
    double largest = 0.0;
    for (int32_t q = lp_[k]; q < lp_[k + 1]; ++q) largest = std::max(largest, std::abs(x[li[q]]) * inverseScale[li[q]]);
    if (!(std::abs(pivot) * inverseScale[k] >= minRatio * largest) || pivot == 0.0 || !std::isfinite(pivot)) {
      std::fill(work_.begin(), work_.end(), 0.0);
      return false;
    }
    const double inverse = 1.0 / pivot;
    inverseDiag_[k] = inverse;
    for (int32_t q = lp_[k]; q < lp_[k + 1]; ++q) {
      lx[q] = lrx_[lpos_[q]] = x[li[q]] * inverse;
      x[li[q]] = 0.0;
    }
  }
  return true;
}

namespace {

// sum of v[t] x[t], t < m, four partial sums (one would wait on the
// previous addition at every term).
inline double dot(const double* v, const double* x, int32_t m) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int32_t t = 0;
  for (; t + 3 < m; t += 4) {
    s0 += v[t] * x[t];
    s1 += v[t + 1] * x[t + 1];
    s2 += v[t + 2] * x[t + 2];
    s3 += v[t + 3] * x[t + 3];
  }
  for (; t < m; ++t) s0 += v[t] * x[t];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace

void FixedPivotLu::solve(double* b) const {
  double* y = work_.data();
  // L by rows (each a dot product over its runs), U by columns.
  const double* v = lrx_.data();
  for (long i = 0; i < n_; ++i) {
    double s = b[rowOf_[i]];
    for (int32_t r = lRowRuns_.at[i]; r < lRowRuns_.at[i + 1]; ++r) {
      const int32_t m = lRowRuns_.length[r];
      s -= dot(v, y + lRowRuns_.first[r], m);
      v += m;
    }
    y[i] = s;
  }
  for (long j = n_ - 1; j >= 0; --j) {
    const double yj = y[j] *= inverseDiag_[j];
    const double* u = ux_.data() + up_[j];
    for (int32_t r = uColumnRuns_.at[j]; r < uColumnRuns_.at[j + 1]; ++r) {
      double* yr = y + uColumnRuns_.first[r];
      const int32_t m = uColumnRuns_.length[r];
      for (int32_t t = 0; t < m; ++t) yr[t] -= u[t] * yj;
      u += m;
    }
  }
  for (long k = 0; k < n_; ++k) {
    b[colOf_[k]] = y[k];
    y[k] = 0.0;
  }
}

}  // namespace pm
