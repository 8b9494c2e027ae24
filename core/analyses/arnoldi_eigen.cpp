#include "analyses/arnoldi_eigen.h"

#include "analyses/abandonable.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

namespace pm {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using Complex = std::complex<double>;

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
  // A Krylov-Schur restart from the first m columns: the span of V_m U
  // (U orthonormal, H_m U = U S), then the columns after m unchanged. The
  // relation C V_m = V_m H_m + V_rest T becomes
  // C (V_m U) = (V_m U) S + V_rest (T U), exact up to rounding, so nothing
  // is applied again. Returns the kept count (U's columns).
  int restart(int m, const MatrixXd& U) {
    const int k = static_cast<int>(U.cols()), rest = filled_ - m;
    const MatrixXd S = U.transpose() * H_.topLeftCorner(m, m) * U;
    const MatrixXd TU = H_.block(m, 0, rest, m) * U;
    const MatrixXd extra = V_.middleCols(m, rest);
    V_.leftCols(k) = V_.leftCols(m) * U;
    V_.middleCols(k, rest) = extra;
    H_.setZero();
    H_.topLeftCorner(k, k) = S;
    H_.block(k, 0, rest, k) = TU;
    filled_ = k + rest;
    return k;
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

// Ritz pairs of H(0:m, 0:m), |theta| descending, which have converged
// (residual |H(m:filled, 0:m) y| <= tol |theta|) and how many of them lead.
struct Ritz {
  Eigen::VectorXcd theta;
  Eigen::MatrixXcd Y;
  std::vector<char> ok;
  VectorXd residual;
  int converged = 0;
  bool solved = false;
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
  r.ok.resize(m);
  r.residual = VectorXd::Zero(m);
  for (int i = 0; i < m; ++i) {
    if (!whole) r.residual[i] = (tail * r.Y.col(i)).norm();
    r.ok[i] = r.residual[i] <= tol * std::abs(r.theta[i]);
  }
  while (r.converged < m && r.ok[r.converged]) ++r.converged;
  r.solved = true;
  return r;
}

// Moves the diagonal entry of the upper triangular T at j up to i < j by
// swaps of neighbours, each a Givens rotation whose first column is the
// 2 x 2 block's eigenvector of the lower entry (LAPACK's ztrexc); the
// Schur vectors Q follow.
void moveUp(Eigen::MatrixXcd& T, Eigen::MatrixXcd& Q, int j, int i) {
  for (int k = j - 1; k >= i; --k) {
    const Complex a = T(k, k), c = T(k + 1, k + 1);
    Eigen::JacobiRotation<Complex> G;
    G.makeGivens(T(k, k + 1), c - a);
    T.applyOnTheLeft(k, k + 1, G.adjoint());
    T.applyOnTheRight(k, k + 1, G);
    Q.applyOnTheRight(k, k + 1, G);
    T(k + 1, k) = 0.0;
  }
}

// An orthonormal real basis U (m x k) of the invariant subspace of H_m
// (m x m) that belongs to its `keep` eigenvalues of largest modulus, the
// conjugate of each complex one with it: H_m U = U S to rounding. From the
// complex Schur form reordered so that they lead (Schur vectors stay
// orthonormal where eigenvectors of a non-normal H_m need not), then the
// real span of those Schur vectors (closed under conjugation: dimension k).
MatrixXd wantedSpan(const MatrixXd& Hm, int keep) {
  const int m = static_cast<int>(Hm.rows());
  const Eigen::ComplexSchur<MatrixXd> schur(Hm, true);
  if (schur.info() != Eigen::Success) return MatrixXd(m, 0);
  Eigen::MatrixXcd T = schur.matrixT(), Q = schur.matrixU();
  std::vector<int> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return std::abs(T(a, a)) > std::abs(T(b, b)); });
  std::vector<bool> chosen(m, false);
  keep = std::clamp(keep, 0, m);
  for (int i = 0; i < keep; ++i) chosen[order[i]] = true;
  // A complex one's conjugate (the nearest eigenvalue to it) joins it.
  for (int i = 0; i < keep; ++i) {
    const Complex l = T(order[i], order[i]);
    if (std::abs(l.imag()) <= 1e-12 * std::abs(l)) continue;
    int partner = -1;
    for (int j = 0; j < m; ++j)
      if (j != order[i] && (partner < 0 || std::abs(T(j, j) - std::conj(l)) < std::abs(T(partner, partner) - std::conj(l))))
        partner = j;
    if (partner >= 0) chosen[partner] = true;
  }
  int k = 0;
  for (int j = 0; j < m; ++j) {
    if (!chosen[j]) continue;
    moveUp(T, Q, j, k++);
  }
  MatrixXd S(m, 2 * k);
  S.leftCols(k) = Q.leftCols(k).real();
  S.rightCols(k) = Q.leftCols(k).imag();
  const Eigen::ColPivHouseholderQR<MatrixXd> qr(S);
  return qr.householderQ() * MatrixXd::Identity(m, k);
}

}  // namespace

ArnoldiResult arnoldiLargest(int n, const std::function<void(const VectorXd&, VectorXd&)>& apply,
                             const std::function<bool(const RitzValues&)>& enough,
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
      } else {
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
    // The dense Ritz problem (m^3) on a thread a cancel can leave behind.
    std::optional<Ritz> ritz = runAbandonable(
        [H = MatrixXd(basis.H().topLeftCorner(basis.filled(), m)), m, filled = basis.filled(), whole, tol = opt.tol] {
          return ritzPairs(H, m, filled, whole, tol);
        },
        opt.cancel);
    if (!ritz || stopped()) {
      out.cancelled = true;
      return out;
    }
    const Ritz& r = *ritz;
    if (!r.solved) continue;
    RitzValues view{r.theta, r.ok, r.residual, r.converged, m};
    // Restarted this often without satisfying the caller: what converged.
    const bool exhausted = full && out.restarts >= kMaxRestarts;
    if (whole || exhausted || enough(view)) {
      std::vector<int> done;
      for (int i = 0; i < m; ++i)
        if (r.ok[i]) done.push_back(i);
      out.theta.resize(static_cast<long>(done.size()));
      out.vectors.resize(n, static_cast<long>(done.size()));
      const Eigen::MatrixXcd Vm = basis.V().leftCols(m).cast<std::complex<double>>();
      for (size_t i = 0; i < done.size(); ++i) {
        out.theta[static_cast<long>(i)] = r.theta[done[i]];
        out.vectors.col(static_cast<long>(i)) = (Vm * r.Y.col(done[i])).normalized();
      }
      out.leading = r.converged;
      out.ritz = std::move(view);
      out.dimension = m;
      out.complete = whole && out.restarts == 0;
      out.exhausted = exhausted && !whole;
      return out;
    }
    if (!full) continue;
    // Converged ones are kept; when they fill half the space, it doubles.
    if (r.converged + 2 * b > limit / 2) limit = std::min(n, 2 * limit);
    const int keep = std::min(std::max(opt.keep, r.converged + b), limit - 2 * b);
    std::optional<MatrixXd> U = runAbandonable(
        [Hm = MatrixXd(basis.H().topLeftCorner(m, m)), keep] { return wantedSpan(Hm, keep); }, opt.cancel);
    if (!U || stopped()) {
      out.cancelled = true;
      return out;
    }
    if (U->cols() == 0) {  // no Schur form: grow instead
      limit = std::min(n, 2 * limit);
      continue;
    }
    const int kept = basis.restart(m, *U);
    nextCheck = std::min(kept + std::max(b, kept / 3), limit);
    k = kept - 1;  // the kept columns' images are in H: go on with the first column after them
    ++out.restarts;
  }
  if (stopped()) return out;
  out.complete = basis.filled() == n;
  return out;
}

}  // namespace pm
