#include "solver/matched_klu.h"

#include "solver/direct_linear_solver.h"
#include "solver/fixed_pivot_lu.h"

#include <klu.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <utility>

namespace pm {

// Successive shortest augmenting paths (Dijkstra with potentials) on the
// bipartite graph of the non-zeros, edge cost log(column max) - log|a| >= 0:
// the assignment of least total cost is the matching of largest product.
std::vector<long> maximumProductMatching(long n, const long* cp, const long* ri, const double* a) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> cost(static_cast<size_t>(cp[n]), kInf);
  for (long j = 0; j < n; ++j) {
    double mx = 0.0;
    for (long k = cp[j]; k < cp[j + 1]; ++k) mx = std::max(mx, std::abs(a[k]));
    if (!(mx > 0.0) || !std::isfinite(mx)) return {};
    for (long k = cp[j]; k < cp[j + 1]; ++k)
      if (a[k] != 0.0) cost[k] = std::log(mx) - std::log(std::abs(a[k]));
  }
  std::vector<long> rowMatch(n, -1), colMatch(n, -1);
  std::vector<double> u(n, 0.0), v(n, 0.0);  // column and row potentials
  // Greedy start: each column's largest entry, where its row is still free
  // (cost 0, so the potentials stay feasible).
  for (long j = 0; j < n; ++j)
    for (long k = cp[j]; k < cp[j + 1]; ++k)
      if (cost[k] == 0.0 && rowMatch[ri[k]] < 0) {
        rowMatch[ri[k]] = j;
        colMatch[j] = ri[k];
        break;
      }
  std::vector<double> dist(n, kInf);
  std::vector<long> pred(n, -1), touched, finalized;
  std::vector<char> done(n, 0);
  using Item = std::pair<double, long>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  for (long s = 0; s < n; ++s) {
    if (colMatch[s] >= 0) continue;
    auto scan = [&](long j, double dj) {
      for (long k = cp[j]; k < cp[j + 1]; ++k) {
        if (!std::isfinite(cost[k])) continue;
        const long i = ri[k];
        if (done[i]) continue;
        const double nd = dj + cost[k] - u[j] - v[i];
        if (nd < dist[i]) {
          if (dist[i] == kInf) touched.push_back(i);
          dist[i] = nd;
          pred[i] = j;
          heap.push({nd, i});
        }
      }
    };
    scan(s, 0.0);
    long end = -1;
    double D = 0.0;
    while (!heap.empty()) {
      const auto [d, i] = heap.top();
      heap.pop();
      if (done[i] || d > dist[i]) continue;
      done[i] = 1;
      finalized.push_back(i);
      if (rowMatch[i] < 0) {
        end = i;
        D = d;
        break;
      }
      scan(rowMatch[i], d);  // the matched edge costs nothing
    }
    if (end < 0) return {};  // structurally singular
    u[s] += D;
    for (long i : finalized)
      if (i != end) {
        u[rowMatch[i]] += D - dist[i];
        v[i] -= D - dist[i];
      }
    for (long i = end;;) {
      const long j = pred[i], previous = colMatch[j];
      colMatch[j] = i;
      rowMatch[i] = j;
      if (j == s) break;
      i = previous;
    }
    for (long i : touched) dist[i] = kInf, done[i] = 0, pred[i] = -1;
    touched.clear();
    finalized.clear();
    heap = {};
  }
  return colMatch;
}

namespace {

struct MatchedKlu {
  // The pattern the permutation was made for (IDA keeps one, but a caller
  // may hand another).
  std::vector<long> colPtr, rowIdx;
  std::vector<long> newRow;  // permuted row of each original row
  std::vector<long> oldRow;  // and back
  std::vector<long> bp, bi;  // permuted pattern
  std::vector<long> to;      // position in bx of each original entry
  std::vector<double> bx, rhs;
  klu_l_common common{};
  klu_l_symbolic* symbolic = nullptr;
  klu_l_numeric* numeric = nullptr;
  FixedPivotLu replay;  // KLU's last pivots, replayed on new values
  long lastFlag = 0;
  MatchedKlu() {
    klu_l_defaults(&common);
    common.ordering = 0;  // AMD: the matched diagonal makes A + A^T's pattern meaningful
  }
  ~MatchedKlu() { release(); }
  void release() {
    if (numeric) klu_l_free_numeric(&numeric, &common);
    if (symbolic) klu_l_free_symbolic(&symbolic, &common);
  }
  int setup(SUNMatrix A);
  int solve(SUNMatrix A, N_Vector x, N_Vector b);
};

// The permutation and KLU's analysis, from the values of this matrix.
bool analyse(MatchedKlu& c, long n, const long* cp, const long* ri, const double* a) {
  c.release();
  const long nnz = cp[n];
  c.colPtr.assign(cp, cp + n + 1);
  c.rowIdx.assign(ri, ri + nnz);
  std::vector<long> match = maximumProductMatching(n, cp, ri, a);
  c.newRow.assign(n, 0);
  if (match.empty())  // KLU's own pivoting copes (or reports the singularity)
    for (long i = 0; i < n; ++i) c.newRow[i] = i;
  else
    for (long j = 0; j < n; ++j) c.newRow[match[j]] = j;
  c.oldRow.assign(n, 0);
  for (long i = 0; i < n; ++i) c.oldRow[c.newRow[i]] = i;
  c.replay.clear();
  c.bp.assign(cp, cp + n + 1);
  c.bi.resize(nnz);
  c.to.resize(nnz);
  c.bx.resize(nnz);
  std::vector<std::pair<long, long>> col;
  for (long j = 0; j < n; ++j) {
    col.clear();
    for (long k = cp[j]; k < cp[j + 1]; ++k) col.push_back({c.newRow[ri[k]], k});
    std::sort(col.begin(), col.end());
    for (size_t q = 0; q < col.size(); ++q) {
      c.bi[cp[j] + q] = col[q].first;
      c.to[col[q].second] = cp[j] + static_cast<long>(q);
    }
  }
  c.rhs.assign(n, 0.0);
  c.symbolic = klu_l_analyze(n, c.bp.data(), c.bi.data(), &c.common);
  return c.symbolic != nullptr;
}

int MatchedKlu::setup(SUNMatrix A) {
  MatchedKlu& c = *this;
  const long n = SUNSparseMatrix_Columns(A);
  const long* cp = SUNSparseMatrix_IndexPointers(A);
  const long* ri = SUNSparseMatrix_IndexValues(A);
  const double* a = SUNSparseMatrix_Data(A);
  const bool samePattern = static_cast<long>(c.colPtr.size()) == n + 1 && std::equal(cp, cp + n + 1, c.colPtr.begin()) &&
                           std::equal(ri, ri + cp[n], c.rowIdx.begin());
  if (!samePattern && !analyse(c, n, cp, ri, a)) {
    c.lastFlag = c.common.status;
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  // A pivot may sit this far below the largest entry it divides before
  // KLU chooses the pivots afresh (KLU's own choice takes 1e-3).
  constexpr double kReplayRatio = 1e-3;
  if (c.replay.analysed() && c.replay.factor(a, kReplayRatio)) {
    c.lastFlag = 0;
    return SUNLS_SUCCESS;
  }
  for (long k = 0; k < cp[n]; ++k) c.bx[c.to[k]] = a[k];
  if (!c.replay.analysed() && c.numeric &&
      klu_l_refactor(c.bp.data(), c.bi.data(), c.bx.data(), c.symbolic, c.numeric, &c.common)) {
    // The pivots chosen once may have grown small since: choose afresh
    // then (as SUNDIALS' KLU wrapper does, without its condition estimate).
    klu_l_rcond(c.symbolic, c.numeric, &c.common);
    constexpr double kMinRcond = 3.7e-11;  // unit roundoff^(2/3)
    if (c.common.rcond >= kMinRcond) {
      c.lastFlag = 0;
      return SUNLS_SUCCESS;
    }
  }
  if (c.numeric) klu_l_free_numeric(&c.numeric, &c.common);
  c.numeric = klu_l_factor(c.bp.data(), c.bi.data(), c.bx.data(), c.symbolic, &c.common);
  if (!c.numeric) {
    c.lastFlag = c.common.status;
    return SUNLS_LUFACT_FAIL;  // recoverable: IDA retries with a smaller step
  }
  // KLU's pivots in the caller's rows and columns, for the replays. If
  // they do not factorise without KLU's scaling, KLU keeps the work.
  std::vector<long> rowOf(n), colOf(n);
  for (long k = 0; k < n; ++k) {
    rowOf[k] = c.oldRow[c.numeric->Pnum[k]];
    colOf[k] = c.symbolic->Q[k];
  }
  if (!c.replay.analyse(n, cp, ri, rowOf.data(), colOf.data()) || !c.replay.factor(a, 0.0)) c.replay.clear();
  c.lastFlag = 0;
  return SUNLS_SUCCESS;
}

int MatchedKlu::solve(SUNMatrix A, N_Vector x, N_Vector b) {
  MatchedKlu& c = *this;
  const long n = SUNSparseMatrix_Columns(A);
  const double* bv = N_VGetArrayPointer(b);
  double* xv = N_VGetArrayPointer(x);
  if (c.replay.analysed()) {
    if (xv != bv) std::copy(bv, bv + n, xv);
    c.replay.solve(xv);
    c.lastFlag = 0;
    return SUNLS_SUCCESS;
  }
  for (long i = 0; i < n; ++i) c.rhs[c.newRow[i]] = bv[i];
  if (!klu_l_solve(c.symbolic, c.numeric, n, 1, c.rhs.data(), &c.common)) {
    c.lastFlag = c.common.status;
    return SUNLS_PACKAGE_FAIL_REC;
  }
  std::copy(c.rhs.begin(), c.rhs.end(), xv);
  c.lastFlag = 0;
  return SUNLS_SUCCESS;
}

}  // namespace

SUNLinearSolver makeMatchedKlu(SUNContext ctx) {
  return makeDirectLinearSolver(ctx, std::make_unique<MatchedKlu>());
}

}  // namespace pm
