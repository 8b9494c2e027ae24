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

}  // namespace

ArnoldiResult arnoldiLargest(int n, const std::function<void(const VectorXd&, VectorXd&)>& apply,
                             const std::function<bool(const Eigen::VectorXcd&)>& enough,
                             const ArnoldiOptions& opt) {
  ArnoldiResult out;
  if (n <= 0) return out;
  const int b = std::clamp(opt.block, 1, n);
  Basis basis(n, std::max(opt.firstCheck, 2 * b) + b);
  std::mt19937 rng(opt.seed);
  std::normal_distribution<double> normal;
  VectorXd w(n);
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
  int nextCheck = std::min(n, std::max(opt.firstCheck, 2 * b));
  for (int k = 0; k < basis.filled(); ++k) {
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
    const bool whole = m == basis.filled();  // nothing left to expand: V spans C's reach from the start
    if (m < nextCheck && !whole) continue;
    nextCheck = m + std::max(b, m / 3);
    // Ritz pairs of H(0:m, 0:m); residual |H(m:filled, 0:m) y| each.
    const Eigen::EigenSolver<MatrixXd> es(basis.H().topLeftCorner(m, m), true);
    if (es.info() != Eigen::Success) continue;
    const Eigen::VectorXcd theta = es.eigenvalues();
    const Eigen::MatrixXcd Y = es.eigenvectors();
    const Eigen::MatrixXcd tail = basis.H().block(m, 0, basis.filled() - m, m).cast<std::complex<double>>();
    std::vector<int> order(m);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int c) { return std::abs(theta[a]) > std::abs(theta[c]); });
    int p = 0;
    while (p < m && (whole || (tail * Y.col(order[p])).norm() <= opt.tol * std::abs(theta[order[p]]))) ++p;
    Eigen::VectorXcd lead(p);
    for (int i = 0; i < p; ++i) lead[i] = theta[order[i]];
    if (!whole && !enough(lead)) continue;
    out.theta = lead;
    out.vectors.resize(n, p);
    const Eigen::MatrixXcd Vm = basis.V().leftCols(m).cast<std::complex<double>>();
    for (int i = 0; i < p; ++i) out.vectors.col(i) = (Vm * Y.col(order[i])).normalized();
    out.dimension = m;
    out.complete = whole;
    return out;
  }
  out.complete = basis.filled() == n;
  return out;
}

}  // namespace pm
