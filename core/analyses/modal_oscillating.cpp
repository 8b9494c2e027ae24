#include "analyses/modal_oscillating.h"

#include "analyses/arnoldi_eigen.h"
#include "analyses/modal_analysis.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace pm::modal {

namespace {

using Complex = std::complex<double>;
using Eigen::VectorXd;
using CMat = Eigen::SparseMatrix<Complex>;
using CLU = Eigen::SparseLU<CMat, Eigen::COLAMDOrdering<int>>;

// A Rayleigh quotient is kept when |(A + lambda B) z| is below this times
// (|A| + |lambda| |B|) |z|.
constexpr double kResidual = 1e-9;
// Ritz values down to this fraction of m = 2 / (3 omega) must converge
// (a margin for those still moving; real eigenvalues stay below 0.75 m).
constexpr double kMargin = 0.9;
// A window's first convergence check (most windows hold few modes).
constexpr int kFirstCheck = 20;
// Two Rayleigh quotients this near (relative) may be one eigenvalue.
constexpr double kSame = 1e-5;

double frobenius(const SpMat& M) { return M.norm(); }

// An eigenpair of one window, with its backward error.
struct Found {
  Complex lambda;
  Eigen::VectorXcd z;
  double residual = 0.0;
};

class OscillatingSolve {
 public:
  OscillatingSolve(const SparsePencil& p, const std::atomic<bool>* cancel)
      : p_(p), A_(p.A.cast<Complex>()), B_(p.B.cast<Complex>()), n_(static_cast<int>(p.A.rows())),
        normA_(frobenius(p.A)), normB_(frobenius(p.B)), cancel_(cancel) {}

  // The window at i omega: its converged pairs added to found_.
  void window(double omega, Eigenpairs& out) {
    throwIfCancelled(cancel_);
    CMat M = A_ + Complex(0.0, omega) * B_;
    M.makeCompressed();
    CLU lu;
    lu.compute(M);
    ++out.factorisations;
    if (lu.info() != Eigen::Success)
      throw std::runtime_error("the linearised system is singular at the shift i " + std::to_string(omega) + " rad/s");
    const double m = 2.0 / (3.0 * omega);
    auto apply = [&](const VectorXd& x, VectorXd& y) {
      const Eigen::VectorXcd bx = (p_.B * x).cast<Complex>();
      y = lu.solve(bx).real();
    };
    auto enough = [&](const RitzValues& r) {
      for (Eigen::Index k = 0; k < r.theta.size(); ++k) {
        if (std::abs(r.theta[k]) < kMargin * m) return true;
        if (!r.converged[k]) return false;
      }
      return true;
    };
    ArnoldiOptions o;
    o.cancel = cancel_;
    o.firstCheck = kFirstCheck;
    const ArnoldiResult ar = arnoldiLargest(n_, apply, enough, o);
    if (ar.cancelled) throwIfCancelled(cancel_);
    out.applications += ar.applications;
    out.krylovDimension = std::max(out.krylovDimension, ar.dimension);
    if (out.operatorNorm == 0.0 && ar.theta.size()) out.operatorNorm = std::abs(ar.theta[0]) * std::sqrt(double(n_));
    for (Eigen::Index k = 0; k < ar.theta.size(); ++k) take(lu, ar.vectors.col(k));
  }

  std::vector<Found>& found() { return found_; }

 private:
  // One product with (A + sigma B)^-1 B purifies the Ritz vector (the
  // infinite eigenvalues' directions); its Rayleigh quotient is lambda.
  void take(const CLU& lu, const Eigen::VectorXcd& x) {
    Eigen::VectorXcd z = lu.solve(Eigen::VectorXcd(B_ * x));
    if (!(z.norm() > 0.0) || !z.allFinite()) return;
    z.normalize();
    const Eigen::VectorXcd az = A_ * z, bz = B_ * z;
    if (!(bz.norm() > 0.0)) return;
    const Complex lambda = -bz.dot(az) / bz.squaredNorm();
    if (!(lambda.imag() > 0.045 * std::abs(lambda))) return;  // real, or the pair's lower half (Mode::oscillating)
    const double residual = (az + lambda * bz).norm() / (normA_ + std::abs(lambda) * normB_);
    if (!(residual <= kResidual)) return;
    // Found before (by another window): lambda the same to its conditioning
    // (1e-7 apart seen at 1,156 states) and z in the span of those found
    // there (a repeated eigenvalue, a round beam's two planes, has a plane
    // of them, which two windows may give in different bases).
    std::vector<size_t> near;
    for (size_t i = 0; i < found_.size(); ++i)
      if (std::abs(found_[i].lambda - lambda) <= kSame * std::abs(lambda)) near.push_back(i);
    if (!near.empty()) {
      Eigen::MatrixXcd Q(z.size(), static_cast<long>(near.size()));
      for (size_t i = 0; i < near.size(); ++i) Q.col(static_cast<long>(i)) = found_[near[i]].z;
      const Eigen::HouseholderQR<Eigen::MatrixXcd> qr(Q);
      const Eigen::MatrixXcd basis = qr.householderQ() * Eigen::MatrixXcd::Identity(Q.rows(), Q.cols());
      if ((z - basis * (basis.adjoint() * z)).norm() < 1e-3) {
        if (near.size() == 1 && residual < found_[near[0]].residual) found_[near[0]] = {lambda, z, residual};
        return;
      }
    }
    found_.push_back({lambda, z, residual});
  }

  const SparsePencil& p_;
  const CMat A_, B_;  // the pencil made complex once, not per window and Ritz vector
  int n_;
  double normA_, normB_;
  const std::atomic<bool>* cancel_;
  std::vector<Found> found_;
};

bool covered(Complex l, double reach) {
  return std::abs(l) >= kLowestOmega / std::sqrt(2.0) && std::abs(l) <= reach &&
         -l.real() <= kCoveredZeta * std::abs(l);
}

}  // namespace

Eigenpairs solveOscillating(const SparsePencil& p, int count, double maxOmega, const std::atomic<bool>* cancel) {
  OscillatingSolve solve(p, cancel);
  Eigenpairs out;
  out.shift = kLowestOmega;
  out.infinite = -1;
  double omega = kLowestOmega;
  for (;; omega *= 2.0) {
    solve.window(omega, out);
    out.windows.push_back(omega);
    // Between this window and the next one, the coverage is still open.
    out.reach = omega * std::sqrt(2.0);
    const auto within = std::count_if(solve.found().begin(), solve.found().end(),
                                      [&](const Found& f) { return covered(f.lambda, out.reach); });
    if ((count > 0 && within >= count) || (maxOmega > 0 && out.reach >= maxOmega) || out.reach >= kHighestOmega)
      break;
  }
  std::vector<Found>& f = solve.found();
  std::sort(f.begin(), f.end(), [](const Found& a, const Found& b) { return std::abs(a.lambda) < std::abs(b.lambda); });
  out.lambda.resize(static_cast<long>(f.size()));
  out.z.resize(p.A.rows(), static_cast<long>(f.size()));
  for (size_t i = 0; i < f.size(); ++i) {
    out.lambda[static_cast<long>(i)] = f[i].lambda;
    out.z.col(static_cast<long>(i)) = f[i].z;
  }
  return out;
}

}  // namespace pm::modal
