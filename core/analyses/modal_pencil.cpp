#include "analyses/modal_pencil.h"

#include "analyses/arnoldi_eigen.h"
#include "analyses/modal_analysis.h"
#include "solver/colored_jacobian.h"

#include <Eigen/Eigenvalues>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>

namespace pm::modal {

namespace {

using Complex = std::complex<double>;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// |theta| below this times the largest is an infinite eigenvalue (above
// 1e6 |s|-scaled rad/s, 160 kHz at the shift 1 rad/s).
constexpr double kInfinite = 1e-6;
// The shifts tried in turn until A + s B is regular enough [rad/s].
constexpr double kShifts[] = {1.0, 7.3, 0.137, 53.0};

// Central differences, one column at a time; a side the residual refuses
// (a non-physical state) falls back to the one-sided quotient.
void differentiate(System& sys, double t, std::vector<double>& y, std::vector<double>& yp, bool wrtRate, int j,
                   double h, Eigen::Ref<VectorXd> col) {
  const int n = sys.size();
  std::vector<double> rp(n), rm(n), r0(n);
  std::vector<double>& x = wrtRate ? yp : y;
  const double x0 = x[j];
  x[j] = x0 + h;
  const int okP = sys.residual(t, y.data(), yp.data(), rp.data());
  x[j] = x0 - h;
  const int okM = sys.residual(t, y.data(), yp.data(), rm.data());
  x[j] = x0;
  if (okP == 0 && okM == 0) {
    for (int i = 0; i < n; ++i) col[i] = (rp[i] - rm[i]) / (2 * h);
    return;
  }
  if (sys.residual(t, y.data(), yp.data(), r0.data()) != 0)
    throw std::runtime_error("the residual cannot be evaluated at the operating point");
  if (okP == 0) {
    for (int i = 0; i < n; ++i) col[i] = (rp[i] - r0[i]) / h;
  } else if (okM == 0) {
    for (int i = 0; i < n; ++i) col[i] = (r0[i] - rm[i]) / h;
  } else {
    throw std::runtime_error("the residual cannot be evaluated next to the operating point (state " +
                             sys.states()[j].name + ")");
  }
}

double stepFor(bool wrtRate, int j, const std::vector<double>& yp, const VectorXd& d, double step) {
  return wrtRate ? step * std::max(std::abs(yp[j]), d[j]) : step * d[j];
}

// One colour's columns of dF/dy (or dF/dy'), all perturbed at once: row i
// belongs to the one column of the group whose pattern holds it. A side the
// residual refuses: column by column as the dense path does.
void differentiateGroup(System& sys, const ColoredJacobian& cj, const std::vector<int>& group, double t,
                        std::vector<double>& y, std::vector<double>& yp, bool wrtRate, const VectorXd& d,
                        double step, std::vector<Eigen::Triplet<double>>& out) {
  const int n = sys.size();
  std::vector<double>& x = wrtRate ? yp : y;
  std::vector<double> x0(group.size()), rp(n), rm(n);
  for (size_t q = 0; q < group.size(); ++q) x0[q] = x[group[q]];
  auto side = [&](double sign, std::vector<double>& r) {
    for (size_t q = 0; q < group.size(); ++q) x[group[q]] = x0[q] + sign * stepFor(wrtRate, group[q], yp, d, step);
    const int ok = sys.residual(t, y.data(), yp.data(), r.data());
    for (size_t q = 0; q < group.size(); ++q) x[group[q]] = x0[q];
    return ok;
  };
  const int okP = side(1.0, rp), okM = side(-1.0, rm);
  if (okP == 0 && okM == 0) {
    for (int j : group) {
      const double h = stepFor(wrtRate, j, yp, d, step);
      for (int i : cj.rowsOf(j)) {
        const double v = (rp[i] - rm[i]) / (2 * h) * d[j];
        if (v != 0.0) out.emplace_back(i, j, v);
      }
    }
    return;
  }
  VectorXd col(n);
  for (int j : group) {
    differentiate(sys, t, y, yp, wrtRate, j, stepFor(wrtRate, j, yp, d, step), col);
    for (int i = 0; i < n; ++i)
      if (const double v = col[i] * d[j]; v != 0.0) out.emplace_back(i, j, v);
  }
}

// Whether the factorised A + s B is regular enough: |M| |M^-1 r| / |r| for
// two random r, a lower bound of the condition number, below 1e13 (the
// dense path's reciprocal condition 1e-13).
bool regularEnough(const SpMat& M, const Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>>& lu) {
  double norm = 0.0;
  for (int j = 0; j < M.outerSize(); ++j) {
    double column = 0.0;
    for (SpMat::InnerIterator it(M, j); it; ++it) column += std::abs(it.value());
    norm = std::max(norm, column);
  }
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (int k = 0; k < 2; ++k) {
    VectorXd r(M.rows());
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = g(rng);
    const VectorXd x = lu.solve(r);
    if (!x.allFinite() || x.lpNorm<1>() * norm > 1e13 * r.lpNorm<1>()) return false;
  }
  return true;
}

// Each complex pair once (Im >= 0), as the analysis counts modes.
bool upperHalf(Complex l) { return l.imag() >= -1e-9 * std::abs(l); }

}  // namespace

void throwIfCancelled(const std::atomic<bool>* cancel) {
  if (cancel && cancel->load(std::memory_order_relaxed)) throw ModalCancelled();
}

VectorXd stateScales(System& sys, const std::vector<double>& y, double relTol) {
  VectorXd d(sys.size());
  for (int j = 0; j < sys.size(); ++j) {
    const double atol = sys.states()[j].atol;
    d[j] = std::max(std::abs(y[j]), atol < 1e6 ? atol / relTol : 1.0);
  }
  return d;
}

Pencil linearise(System& sys, double t, std::vector<double> y, std::vector<double> yp, const VectorXd& d,
                 bool withRate, VectorXd* rows, double step, const VectorXd* given,
                 const std::atomic<bool>* cancel) {
  const int n = sys.size();
  Pencil p{MatrixXd(n, n), MatrixXd::Zero(n, n), d};
  for (int j = 0; j < n; ++j) {
    throwIfCancelled(cancel);
    differentiate(sys, t, y, yp, false, j, stepFor(false, j, yp, d, step), p.A.col(j));
    p.A.col(j) *= p.d[j];
    if (!withRate) continue;
    differentiate(sys, t, y, yp, true, j, stepFor(true, j, yp, d, step), p.B.col(j));
    p.B.col(j) *= p.d[j];
  }
  if (rows) rows->setOnes(n);
  for (int i = 0; i < n; ++i) {
    const double m = given ? (*given)[i] : std::max(p.A.row(i).cwiseAbs().maxCoeff(), p.B.row(i).cwiseAbs().maxCoeff());
    if (m > 0) p.A.row(i) /= m, p.B.row(i) /= m;
    if (m > 0 && rows) (*rows)[i] = m;
  }
  return p;
}

SparsePencil lineariseSparse(System& sys, double t, std::vector<double> y, std::vector<double> yp, const VectorXd& d,
                             bool withRate, VectorXd* rows, double step, const VectorXd* given,
                             const std::atomic<bool>* cancel) {
  const int n = sys.size();
  const ColoredJacobian cj(sys, t, y.data(), yp.data());
  std::vector<Eigen::Triplet<double>> ta, tb;
  for (const std::vector<int>& group : cj.groups()) {
    throwIfCancelled(cancel);
    differentiateGroup(sys, cj, group, t, y, yp, false, d, step, ta);
    if (withRate) differentiateGroup(sys, cj, group, t, y, yp, true, d, step, tb);
  }
  VectorXd big = VectorXd::Zero(n);
  for (const auto* ts : {&ta, &tb})
    for (const auto& e : *ts) big[e.row()] = std::max(big[e.row()], std::abs(e.value()));
  if (given) big = *given;
  if (rows) rows->setOnes(n);
  for (auto* ts : {&ta, &tb})
    for (auto& e : *ts) e = Eigen::Triplet<double>(e.row(), e.col(), e.value() / big[e.row()]);
  if (rows)
    for (int i = 0; i < n; ++i)
      if (big[i] > 0) (*rows)[i] = big[i];
  SparsePencil p{SpMat(n, n), SpMat(n, n), d};
  p.A.setFromTriplets(ta.begin(), ta.end());
  p.B.setFromTriplets(tb.begin(), tb.end());
  return p;
}

namespace {

// One shift's dense eigenproblem: (A + s B)^-1 B and its eigenpairs, or
// `regular` false when A + s B is too near singular.
struct DenseShift {
  bool regular = false;
  Eigen::VectorXcd theta;
  Eigen::MatrixXcd vectors;
  double operatorNorm = 0.0;
};

DenseShift denseShift(const MatrixXd& A, const MatrixXd& B, double s) {
  DenseShift out;
  const Eigen::PartialPivLU<MatrixXd> lu(A + s * B);
  if (!(lu.rcond() > 1e-13)) return out;
  const MatrixXd C = lu.solve(B);
  const Eigen::EigenSolver<MatrixXd> es(C, true);
  if (es.info() != Eigen::Success) throw std::runtime_error("the eigenvalue solver did not converge");
  out.regular = true;
  out.theta = es.eigenvalues();
  out.vectors = es.eigenvectors();
  out.operatorNorm = C.norm();
  return out;
}

}  // namespace

// Shift and invert: (A + s B)^-1 B z = theta z, lambda = s - 1/theta; theta
// = 0 (to rounding) are the pencil's infinite eigenvalues. The LU and the
// eigensolution (n^3, no place to look at `cancel` inside) run on a thread
// a cancel leaves behind (analyses/abandonable.h), with their own copy of
// the pencil.
Eigenpairs solveDense(const Pencil& p, const std::atomic<bool>* cancel) {
  const int n = static_cast<int>(p.A.rows());
  int factorisations = 0;
  const auto pencil = std::make_shared<const std::pair<MatrixXd, MatrixXd>>(p.A, p.B);
  for (double s : kShifts) {
    throwIfCancelled(cancel);
    const DenseShift solved =
        leavable([pencil, s] { return denseShift(pencil->first, pencil->second, s); }, cancel);
    ++factorisations;
    if (!solved.regular) continue;
    const Eigen::VectorXcd& theta = solved.theta;
    const double big = theta.cwiseAbs().maxCoeff();
    Eigenpairs out;
    out.shift = s;
    std::vector<int> keep;
    for (int k = 0; k < n; ++k) {
      // The constraints' infinite eigenvalues are defective (index 2: Jordan
      // chains), so rounding and the difference quotients move them to
      // |theta| ~ sqrt(eps) rather than eps: all that small is infinite.
      if (std::abs(theta[k]) <= kInfinite * std::max(big, 1.0 / s)) {
        ++out.infinite;
        continue;
      }
      keep.push_back(k);
    }
    out.lambda.resize(static_cast<long>(keep.size()));
    out.z.resize(n, static_cast<long>(keep.size()));
    for (size_t i = 0; i < keep.size(); ++i) {
      out.lambda[static_cast<long>(i)] = s - 1.0 / theta[keep[i]];
      out.z.col(static_cast<long>(i)) = solved.vectors.col(keep[i]);
    }
    out.krylovDimension = n;
    out.factorisations = factorisations;
    out.operatorNorm = solved.operatorNorm;
    return out;
  }
  throw std::runtime_error("the linearised system is singular at every shift tried (a state the equations do not fix)");
}

Eigenpairs solveSparse(const SparsePencil& p, int count, double maxOmega, const std::atomic<bool>* cancel) {
  const int n = static_cast<int>(p.A.rows());
  int factorisations = 0;
  for (double s : kShifts) {
    throwIfCancelled(cancel);
    SpMat M = p.A + s * p.B;
    M.makeCompressed();
    Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
    lu.compute(M);
    ++factorisations;
    if (lu.info() != Eigen::Success || !regularEnough(M, lu)) continue;
    // |C|_F estimated from C r of a random r (E |C r|^2 = |C|_F^2 |r|^2 / n).
    double operatorNorm = 0.0;
    {
      std::mt19937 rng(11);
      std::normal_distribution<double> g;
      VectorXd r(n);
      for (int i = 0; i < n; ++i) r[i] = g(rng);
      operatorNorm = VectorXd(lu.solve(p.B * r)).norm() / r.norm() * std::sqrt(double(n));
    }
    auto apply = [&](const VectorXd& x, VectorXd& y) { y = lu.solve(p.B * x); };
    // Every eigenvalue with |lambda - s| < 1 / |theta| of the last converged
    // one is found, so every one with |lambda| below that less s.
    auto reachOf = [&](const Eigen::VectorXcd& th) { return 1.0 / std::abs(th[th.size() - 1]) - s; };
    double infiniteBelow = 0.0;  // |theta| of an infinite eigenvalue
    auto enough = [&](const Eigen::VectorXcd& th) {
      if (th.size() == 0) return false;
      infiniteBelow = kInfinite * std::max(std::abs(th[0]), 1.0 / s);
      const double reach = reachOf(th);
      int modes = 0;
      for (Eigen::Index k = 0; k < th.size(); ++k)
        if (std::abs(th[k]) > infiniteBelow && upperHalf(s - 1.0 / th[k]) && std::abs(s - 1.0 / th[k]) <= reach)
          ++modes;
      return (count > 0 && modes >= count) || (maxOmega > 0 && reach >= maxOmega);
    };
    ArnoldiOptions opt;
    opt.firstCheck = std::max(40, 3 * count + 20);
    // A Krylov-Schur restart at twice the kept size would keep the dense
    // Ritz problems small (kept: twice the modes wanted, a pair's two
    // halves, and a margin), but with the shift at 1 rad/s the wanted
    // chamber and valve time constants converge so slowly that the
    // restarted iteration costs 3-4 times the growing one (swing arm, 80
    // elements: 26 s against 7.6 s dense; docs/performance.md, session 20):
    // off (maxDimension 0) until the shift is chosen from the spectrum.
    opt.keep = count > 0 ? 2 * count + 2 * opt.block : 40;
    opt.maxDimension = 0;
    opt.cancel = cancel;
    ArnoldiResult ar = arnoldiLargest(n, apply, enough, opt);
    if (ar.exhausted && !ar.cancelled) {  // the restarts stalled: grow the space instead
      const int spent = ar.applications;
      opt.maxDimension = 0;
      ar = arnoldiLargest(n, apply, enough, opt);
      ar.applications += spent;
    }
    if (ar.cancelled) throw ModalCancelled();
    Eigenpairs out;
    out.shift = s;
    out.infinite = -1;
    out.krylovDimension = ar.dimension;
    out.applications = ar.applications;
    out.factorisations = factorisations;
    out.operatorNorm = operatorNorm;
    const Eigen::Index found = ar.theta.size();
    if (found == 0) return out;
    out.reach = ar.complete ? INFINITY : reachOf(ar.theta);
    infiniteBelow = kInfinite * std::max(std::abs(ar.theta[0]), 1.0 / s);
    std::vector<Eigen::Index> keep;
    for (Eigen::Index k = 0; k < found; ++k)
      if (std::abs(ar.theta[k]) > infiniteBelow && std::abs(s - 1.0 / ar.theta[k]) <= out.reach) keep.push_back(k);
    out.lambda.resize(static_cast<long>(keep.size()));
    out.z.resize(n, static_cast<long>(keep.size()));
    VectorXd re(n), im(n);
    for (size_t i = 0; i < keep.size(); ++i) {
      const Complex th = ar.theta[keep[i]];
      out.lambda[static_cast<long>(i)] = s - 1.0 / th;
      // One more product purifies the Ritz vector of what rounding left of
      // the infinite eigenvalues' directions.
      const Eigen::VectorXcd& x = ar.vectors.col(keep[i]);
      apply(x.real(), re);
      apply(x.imag(), im);
      out.z.col(static_cast<long>(i)) = (re.cast<Complex>() + Complex(0, 1) * im.cast<Complex>()) / th;
    }
    return out;
  }
  throw std::runtime_error("the linearised system is singular at every shift tried (a state the equations do not fix)");
}

}  // namespace pm::modal
