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
// Modes in a row that add no null direction before the search ends.
constexpr int kMisses = 4;

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
  if (S.cols() == 0) return MatrixXd(S.rows(), 0);
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

namespace {

MatrixXd spanOf(const std::vector<Index>& modes, const Eigen::VectorXcd& lambda, const Eigen::MatrixXcd& z) {
  MatrixXd all(z.rows(), 0);
  for (const Index k : modes) {
    const MatrixXd s = realSpan(z.col(k), lambda[k]);
    all.conservativeResize(Eigen::NoChange, all.cols() + s.cols());
    all.rightCols(s.cols()) = s;
  }
  return all;
}

Index nullCount(const std::vector<Index>& modes, const Eigen::VectorXcd& lambda, const Eigen::MatrixXcd& z,
                const PencilProducts& A) {
  double ignored = 0.0;
  return nullDirections(spanOf(modes, lambda, z), A, ignored).cols();
}

}  // namespace

ZeroModes findZeroModes(const Eigen::VectorXcd& lambda, const Eigen::MatrixXcd& z, const PencilProducts& A) {
  std::vector<Index> order;
  for (Index k = 0; k < lambda.size(); ++k)
    if (lambda[k].imag() >= -1e-9 * std::abs(lambda[k])) order.push_back(k);
  std::sort(order.begin(), order.end(), [&](Index a, Index b) { return std::abs(lambda[a]) < std::abs(lambda[b]); });
  ZeroModes out;
  // From the smallest |lambda| up, the span of the modes so far grows; a
  // mode whose coming raises the count of null directions in it ends a
  // run of members (with those before it). Why the span of all together:
  // several rigid motions share the defective eigenvalue 0, and rounding
  // mixes their Jordan chains, so one computed eigenvector (or a +-mu pair)
  // holds parts of several chains and no null direction of its own; the
  // cluster's eigenvectors together hold them all. The search ends after
  // kMisses modes in a row that add none.
  std::vector<Index> seen, forced;
  Index count = 0;
  size_t members = 0;
  int misses = 0;
  for (const Index k : order) {
    if (misses >= kMisses) break;
    seen.push_back(k);
    // Below the eigensolver's own split a mode is zero whatever its vector.
    if (std::abs(lambda[k]) <= A.solverZero) forced.push_back(k);
    const Index c = nullCount(seen, lambda, z, A);
    if (c > count || std::abs(lambda[k]) <= A.solverZero) {
      count = std::max(count, c);
      members = seen.size();
      misses = 0;
    } else {
      ++misses;
    }
  }
  out.members.assign(seen.begin(), seen.begin() + static_cast<long>(members));
  // A mode that lies among the members by |lambda| but holds no part of a
  // null direction (a slow oscillation between split rigid ones): the
  // others keep every null direction without it.
  for (size_t i = out.members.size(); i-- > 0;) {
    const Index k = out.members[i];
    if (std::find(forced.begin(), forced.end(), k) != forced.end()) continue;
    std::vector<Index> without = out.members;
    without.erase(without.begin() + static_cast<long>(i));
    if (nullCount(without, lambda, z, A) >= count) out.members = without;
  }
  if (out.members.empty()) return out;
  // The null directions of all the members' span together: their count is
  // the number of zero modes, however rounding split the eigenvalues.
  // Members the solver's rounding split: their null directions stand as
  // far below the rest of A q (|A w| = |B z0| ~ 1e-2 |A|) as that split.
  out.directions = nullDirections(spanOf(out.members, lambda, z), A, out.worst,
                                  A.solverZero > 0 ? kSplitGap : kVectorError);
  return out;
}

}  // namespace pm::modal
