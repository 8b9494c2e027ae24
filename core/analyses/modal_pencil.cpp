#include "analyses/modal_pencil.h"

#include "analyses/modal_analysis.h"
#include "solver/colored_jacobian.h"

#include <Eigen/Eigenvalues>
#include <Eigen/OrderingMethods>

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
  const ColoredJacobian cj(sys, t, y.data(), yp.data(), cancel);
  throwIfCancelled(cancel);  // the pattern's sampling stopped half way
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

}  // namespace pm::modal
