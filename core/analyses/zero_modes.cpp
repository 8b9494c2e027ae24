#include "analyses/zero_modes.h"

#include <algorithm>
#include <cmath>
#include <complex>

namespace pm::modal {

namespace {

using Complex = std::complex<double>;
using Eigen::Index;
using Eigen::MatrixXd;

// An integrator's column of A is empty (a winding count: nothing reads it
// but the whole turns), so |E| |q| is as small as A q is: q is a null
// vector to its own accuracy then, eps times a well separated
// eigenvector's condition, with margin.
constexpr double kVectorError = 1e-12;
constexpr double kSplitGap = 1e-6;

bool isReal(Complex l) { return std::abs(l.imag()) <= 1e-9 * std::abs(l); }

// The real span of an eigenvector: Re and Im of a complex one; a real
// eigenvalue's vector turned to phase 0 at its largest entry.
MatrixXd realSpan(const Eigen::VectorXcd& z, Complex lambda) {
  if (!isReal(lambda)) {
    MatrixXd s(z.size(), 2);
    s.col(0) = z.real();
    s.col(1) = z.imag();
    return s;
  }
  Index k = 0;
  z.cwiseAbs().maxCoeff(&k);
  const Complex phase = z[k] / std::abs(z[k]);
  return (z / phase).real();
}

// An orthonormal basis of S's columns (directions below 1e-10 of the
// largest dropped: a defective pair's two nearly parallel vectors span
// what they span, the rest is rounding).
MatrixXd orthonormal(const MatrixXd& S) {
  const Eigen::JacobiSVD<MatrixXd> svd(S, Eigen::ComputeThinU);
  const Eigen::VectorXd sv = svd.singularValues();
  Index r = 0;
  while (r < sv.size() && sv[r] > 1e-10 * sv[0]) ++r;
  return svd.matrixU().leftCols(r);
}

// The directions q of S's span with |A q| <= kNoiseMargin |E| |q|, and
// the largest |A q| / (|E| |q|) among them (in `worst`).
MatrixXd nullDirections(const MatrixXd& S, const PencilProducts& A, double& worst, double floor = kVectorError) {
  const MatrixXd Q = orthonormal(S);
  if (Q.cols() == 0) return MatrixXd(S.rows(), 0);
  const Eigen::JacobiSVD<MatrixXd> svd(A.times(Q), Eigen::ComputeThinV);
  const MatrixXd q = Q * svd.matrixV();
  const MatrixXd spread = A.noiseTimes(q.cwiseAbs());
  std::vector<Index> keep;
  for (Index c = 0; c < q.cols(); ++c) {
    const double sv = svd.singularValues()[c];
    const double ratio = sv / std::max(spread.col(c).norm(), 1e-300);
    if (ratio <= kNoiseMargin || sv <= floor * A.norm) {
      keep.push_back(c);
      worst = std::max(worst, std::min(ratio, kNoiseMargin));
    }
  }
  MatrixXd out(S.rows(), static_cast<Index>(keep.size()));
  for (size_t i = 0; i < keep.size(); ++i) out.col(static_cast<Index>(i)) = q.col(keep[i]);
  return out;
}

}  // namespace

ZeroModes findZeroModes(const Eigen::VectorXcd& lambda, const Eigen::MatrixXcd& z, const PencilProducts& A) {
  std::vector<Index> order;
  for (Index k = 0; k < lambda.size(); ++k)
    if (lambda[k].imag() >= -1e-9 * std::abs(lambda[k])) order.push_back(k);
  std::sort(order.begin(), order.end(), [&](Index a, Index b) { return std::abs(lambda[a]) < std::abs(lambda[b]); });
  ZeroModes out;
  // From the smallest |lambda| up, each mode alone, then a real one with an
  // earlier real one of opposite sign (a rigid pair split into +-mu); the
  // search ends after four modes in a row with no null direction.
  std::vector<Index> pending;
  int misses = 0;
  double ignored = 0.0;
  for (const Index k : order) {
    if (misses >= 4) break;
    const MatrixXd span = realSpan(z.col(k), lambda[k]);
    if (std::abs(lambda[k]) <= A.solverZero || nullDirections(span, A, ignored).cols() > 0) {
      out.members.push_back(k);
      misses = 0;
      continue;
    }
    bool paired = false;
    if (isReal(lambda[k])) {
      for (size_t i = 0; i < pending.size() && !paired; ++i) {
        const Index p = pending[i];
        if ((lambda[p].real() > 0) == (lambda[k].real() > 0)) continue;
        MatrixXd both(span.rows(), 2);
        both << realSpan(z.col(p), lambda[p]), span;
        if (nullDirections(both, A, ignored).cols() == 0) continue;
        out.members.push_back(p);
        out.members.push_back(k);
        pending.erase(pending.begin() + static_cast<long>(i));
        paired = true;
      }
      if (!paired) pending.push_back(k);
    }
    misses = paired ? 0 : misses + 1;
  }
  if (out.members.empty()) return out;
  // The null directions of all the members' span together: their count is
  // the number of zero modes, however rounding split the eigenvalues.
  MatrixXd all(z.rows(), 0);
  for (const Index k : out.members) {
    const MatrixXd s = realSpan(z.col(k), lambda[k]);
    all.conservativeResize(Eigen::NoChange, all.cols() + s.cols());
    all.rightCols(s.cols()) = s;
  }
  // Members the solver's rounding split: their null directions stand as
  // far below the rest of A q (|A w| = |B z0| ~ 1e-2 |A|) as that split.
  out.directions = nullDirections(all, A, out.worst, A.solverZero > 0 ? kSplitGap : kVectorError);
  return out;
}

}  // namespace pm::modal
