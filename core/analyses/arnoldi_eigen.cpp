#include "analyses/arnoldi_eigen.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace pm {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr int kMaxRestarts = 20;

// The Krylov basis V (orthonormal columns) and the band Hessenberg H with
// C V(:, 0:k) = V(:, 0:filled) H(0:filled, 0:k), both grown on demand.
class Basis {
 public:
  Basis(int n, int cap) : n_(n) { grow(std::min(n, cap)); }
  int filled() const { return filled_; }
  MatrixXd& H() { return H_; }
  const MatrixXd& V() const { return V_; }

  // w minus its projection on the filled columns, twice (classical
  // Gram-Schmidt with one reorthogonalisation); the coefficients add to h.
  void orthogonalise(VectorXd& w, VectorXd* h) const {
    for (int pass = 0; pass < 2; ++pass) {
      const VectorXd c = V_.leftCols(filled_).transpose() * w;
      w.noalias() -= V_.leftCols(filled_) * c;
      if (h) *h += c;
    }
  }
  // Start again from the orthonormal columns of W (H forgotten).
  void restart(const MatrixXd& W) {
    filled_ = static_cast<int>(W.cols());
    V_.leftCols(filled_) = W;
    H_.setZero();
  }
  void append(const VectorXd& unit) {
    if (filled_ == V_.cols()) grow(std::min(n_, 2 * filled_));
    V_.col(filled_++) = unit;
  }

 private:
  void grow(int cols) {
    V_.conservativeResize(n_, cols);
    H_.conservativeResizeLike(MatrixXd::Zero(cols, cols));
  }
  int n_;
  int filled_ = 0;
  MatrixXd V_, H_;
};

// Ritz pairs of H(0:m, 0:m), |theta| descending, and how many leading
// ones have converged: residual |H(m:filled, 0:m) y| <= tol |theta|.
struct Ritz {
  Eigen::VectorXcd theta;
  Eigen::MatrixXcd Y;
  int converged = 0;
  bool ok = false;
};

Ritz ritzPairs(const MatrixXd& H, int m, int filled, bool whole, double tol) {
  Ritz r;
  const Eigen::EigenSolver<MatrixXd> es(H.topLeftCorner(m, m), true);
  if (es.info() != Eigen::Success) return r;
  std::vector<int> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int c) { return std::abs(es.eigenvalues()[a]) > std::abs(es.eigenvalues()[c]); });
  r.theta.resize(m);
  r.Y.resize(m, m);
  for (int i = 0; i < m; ++i) r.theta[i] = es.eigenvalues()[order[i]], r.Y.col(i) = es.eigenvectors().col(order[i]);
  const Eigen::MatrixXcd tail = H.block(m, 0, filled - m, m).cast<std::complex<double>>();
  while (r.converged < m && (whole || (tail * r.Y.col(r.converged)).norm() <= tol * std::abs(r.theta[r.converged])))
    ++r.converged;
  r.ok = true;
  return r;
}

// An orthonormal real basis (m x k) of the leading `keep` Ritz vectors'
// span, a conjugate pair kept whole.
MatrixXd keptSpan(const Ritz& r, int keep) {
  const int m = static_cast<int>(r.theta.size());
  keep = std::min(keep, m);
  if (keep < m && keep > 0 && r.theta[keep - 1].imag() != 0.0 && r.theta[keep] == std::conj(r.theta[keep - 1])) ++keep;
  std::vector<VectorXd> cols;
  for (int i = 0; i < keep; ++i) {
    if (r.theta[i].imag() < 0) continue;  // the pair's other half (kept too): the same real span
    cols.push_back(r.Y.col(i).real());
    if (r.theta[i].imag() > 0) cols.push_back(r.Y.col(i).imag());
  }
  MatrixXd S(m, static_cast<Eigen::Index>(cols.size()));
  for (size_t i = 0; i < cols.size(); ++i) S.col(static_cast<Eigen::Index>(i)) = cols[i];
  const Eigen::HouseholderQR<MatrixXd> qr(S);
  return qr.householderQ() * MatrixXd::Identity(m, S.cols());
}

}  // namespace

ArnoldiResult arnoldiLargest(int n, const std::function<void(const VectorXd&, VectorXd&)>& apply,
                             const std::function<bool(const Eigen::VectorXcd&)>& enough,
                             const ArnoldiOptions& opt) {
  ArnoldiResult out;
  if (n <= 0) return out;
  const int b = std::clamp(opt.block, 1, n);
  const bool restarting = opt.maxDimension > 0 && opt.maxDimension < n && opt.keep > 0 && opt.keep < opt.maxDimension;
  Basis basis(n, (restarting ? opt.maxDimension : std::max(opt.firstCheck, 2 * b)) + b);
  std::mt19937 rng(opt.seed);
  std::normal_distribution<double> normal;
  VectorXd w(n);
  auto stopped = [&] {
    if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) out.cancelled = true;
    return out.cancelled;
  };
  auto applyCounted = [&](const VectorXd& x, VectorXd& y) {
    apply(x, y);
    ++out.applications;
  };
  // A random direction, purified, orthogonal to the basis; false when none
  // is left (C's range lies in the basis: nothing more to find).
  auto addRandom = [&]() {
    for (int tries = 0; tries < 3 && basis.filled() < n; ++tries) {
      VectorXd r(n);
      for (int i = 0; i < n; ++i) r[i] = normal(rng);
      for (int p = 0; p < opt.purify; ++p) {
        if (stopped()) return false;
        applyCounted(r, w);
        const double size = w.norm();
        if (!(size > 0) || !std::isfinite(size)) return false;
        r = w / size;
      }
      basis.orthogonalise(r, nullptr);
      const double size = r.norm();
      if (size > 1e-8) {
        basis.append(r / size);
        return true;
      }
    }
    return false;
  };
  for (int j = 0; j < b; ++j)
    if (!addRandom()) break;
  if (stopped()) return out;
  int nextCheck = std::min(n, std::max(opt.firstCheck, 2 * b));
  int kept = 0;  // leading columns a restart carried over: their images lie (nearly) in the basis
  int limit = restarting ? opt.maxDimension : n;  // restart at this dimension
  for (int k = 0; k < basis.filled(); ++k) {
    if (stopped()) return out;
    applyCounted(basis.V().col(k), w);
    VectorXd h = VectorXd::Zero(basis.filled());
    basis.orthogonalise(w, &h);
    basis.H().col(k).head(h.size()) = h;
    const double beta = w.norm();
    if (basis.filled() < n) {
      if (beta > 1e-10 * std::hypot(h.norm(), beta)) {
        basis.append(w / beta);
        basis.H()(basis.filled() - 1, k) = beta;
      } else if (k >= kept) {
        addRandom();  // an invariant subspace: go on in a new direction (H's entry stays 0)
      }
    }
    const int m = k + 1;
    // After a restart an invariant space is the kept one: look further.
    if (m == basis.filled() && out.restarts > 0 && !addRandom()) break;
    const bool whole = m == basis.filled();  // nothing left to expand: V spans C's reach from the start
    const bool full = m >= limit && limit < n;
    if (m < nextCheck && !whole && !full) continue;
    nextCheck = std::min(m + std::max(b, m / 3), limit);
    if (stopped()) return out;
    const Ritz r = ritzPairs(basis.H(), m, basis.filled(), whole, opt.tol);
    if (stopped()) return out;
    if (!r.ok) continue;
    const Eigen::VectorXcd lead = r.theta.head(r.converged);
    // Restarted this often without satisfying the caller: what converged.
    const bool exhausted = full && out.restarts >= kMaxRestarts;
    if (whole || exhausted || enough(lead)) {
      out.theta = lead;
      out.vectors.resize(n, r.converged);
      const Eigen::MatrixXcd Vm = basis.V().leftCols(m).cast<std::complex<double>>();
      for (int i = 0; i < r.converged; ++i) out.vectors.col(i) = (Vm * r.Y.col(i)).normalized();
      out.dimension = m;
      out.complete = whole && out.restarts == 0;
      out.exhausted = exhausted && !whole;
      return out;
    }
    if (!full) continue;
    // Converged ones are kept; when they fill half the space, it doubles.
    if (r.converged + 2 * b > limit / 2) limit = std::min(n, 2 * limit);
    const MatrixXd U = keptSpan(r, std::min(std::max(opt.keep, r.converged + b), limit - 2 * b));
    basis.restart(basis.V().leftCols(m) * U);
    kept = static_cast<int>(U.cols());
    nextCheck = std::min(kept + std::max(b, kept / 3), limit);
    k = -1;
    ++out.restarts;
  }
  if (stopped()) return out;
  out.complete = basis.filled() == n;
  return out;
}

}  // namespace pm
