// The sparse linear solver IDA uses above 150 states: KLU on rows permuted by
// a maximum-product matching (core/solver/matched_klu.h). The matching is
// checked against every permutation of small matrices, the solver against a
// dense LU on saddle-point matrices of the mechanism's kind.
#include "solver/matched_klu.h"

#include "solver/fixed_pivot_lu.h"

#include <Eigen/Dense>
#include <QtTest>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace {

struct Csc {
  long n = 0;
  std::vector<long> cp, ri;
  std::vector<double> v;
};

Csc fromDense(const Eigen::MatrixXd& a, bool keepDiagonal = false) {
  Csc m;
  m.n = a.cols();
  m.cp.push_back(0);
  for (long j = 0; j < m.n; ++j) {
    for (long i = 0; i < m.n; ++i)
      if (a(i, j) != 0.0 || (keepDiagonal && i == j)) {
        m.ri.push_back(i);
        m.v.push_back(a(i, j));
      }
    m.cp.push_back(static_cast<long>(m.ri.size()));
  }
  return m;
}

// log of the product of |a(perm[j], j)| / max_i |a(i, j)|; -inf if a factor is zero.
double logScaledProduct(const Eigen::MatrixXd& a, const std::vector<long>& perm) {
  double s = 0.0;
  for (long j = 0; j < a.cols(); ++j) {
    const double x = std::abs(a(perm[j], j));
    if (x == 0.0) return -INFINITY;
    s += std::log(x) - std::log(a.col(j).cwiseAbs().maxCoeff());
  }
  return s;
}

// A saddle-point matrix like the mechanism's iteration matrix: [K C^T; C -eps I].
Eigen::MatrixXd saddlePoint(int nk, int nc, std::mt19937& rng, double eps) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::bernoulli_distribution sparse(0.3);
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(nk + nc, nk + nc);
  for (int i = 0; i < nk; ++i) {
    a(i, i) = 4.0 + u(rng);
    for (int j = 0; j < nk; ++j)
      if (i != j && sparse(rng)) a(i, j) = 0.5 * u(rng);
  }
  for (int r = 0; r < nc; ++r) {
    a(nk + r, nk + r) = -eps;
    for (int c = 0; c < nk; ++c)
      if (c % nc == r || sparse(rng)) {
        a(nk + r, c) = u(rng);
        a(c, nk + r) = a(nk + r, c);
      }
  }
  return a;
}

class MatchedKluTest : public QObject {
  Q_OBJECT
 private slots:
  void matchingMaximisesTheProduct() {
    // 200 random sparse 7 x 7 matrices, each with a random permutation of
    // non-zeros so that a matching exists: the matching's product equals the
    // best over all 5040 permutations.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::bernoulli_distribution nonzero(0.35);
    const int n = 7;
    double worst = 0.0;
    for (int trial = 0; trial < 200; ++trial) {
      Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
      std::vector<long> p(n);
      std::iota(p.begin(), p.end(), 0);
      std::shuffle(p.begin(), p.end(), rng);
      for (int j = 0; j < n; ++j) {
        a(p[j], j) = std::pow(10.0, 3.0 * u(rng));
        for (int i = 0; i < n; ++i)
          if (nonzero(rng)) a(i, j) = std::pow(10.0, 3.0 * u(rng)) * (u(rng) < 0 ? -1.0 : 1.0);
      }
      const Csc m = fromDense(a);
      const std::vector<long> match = pm::maximumProductMatching(n, m.cp.data(), m.ri.data(), m.v.data());
      QCOMPARE(static_cast<int>(match.size()), n);
      std::vector<long> sorted = match;
      std::sort(sorted.begin(), sorted.end());
      for (int j = 0; j < n; ++j) QCOMPARE(sorted[j], static_cast<long>(j));  // a permutation
      double best = -INFINITY;
      std::iota(p.begin(), p.end(), 0);
      do best = std::max(best, logScaledProduct(a, p));
      while (std::next_permutation(p.begin(), p.end()));
      worst = std::max(worst, best - logScaledProduct(a, match));
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString("log product short of the best by %1").arg(worst)));
  }

  void saddlePointRowsTradePlaces() {
    // [m c; c -eps]: the product m eps loses to c^2, so each column's
    // diagonal entry comes from the other row.
    Eigen::Matrix2d a;
    a << 2.0, 0.5, 0.5, -1e-12;
    const Csc m = fromDense(a);
    const std::vector<long> match = pm::maximumProductMatching(2, m.cp.data(), m.ri.data(), m.v.data());
    QCOMPARE(match, (std::vector<long>{1, 0}));
  }

  void structurallySingularGivesNoMatching() {
    Eigen::Matrix3d a;  // columns 0 and 1 have entries in row 0 only
    a << 1, 2, 3, 0, 0, 4, 0, 0, 5;
    const Csc m = fromDense(a);
    QVERIFY(pm::maximumProductMatching(3, m.cp.data(), m.ri.data(), m.v.data()).empty());
    Eigen::Matrix3d z = Eigen::Matrix3d::Identity();  // an explicit zero column
    z(1, 1) = 0.0;
    const Csc mz = fromDense(z, true);
    QVERIFY(pm::maximumProductMatching(3, mz.cp.data(), mz.ri.data(), mz.v.data()).empty());
  }

  void solverAgreesWithDenseLu() {
    // Through the SUNLinearSolver interface as IDA calls it: the first setup
    // (matching, analysis, factorisation), a second with new values on the
    // same pattern (refactorisation), then another pattern (new analysis).
    SUNContext ctx = nullptr;
    QCOMPARE(SUNContext_Create(nullptr, &ctx), 0);
    std::mt19937 rng(11);
    SUNLinearSolver ls = pm::makeMatchedKlu(ctx);
    QCOMPARE(SUNLinSolInitialize(ls), 0);
    for (int round = 0; round < 3; ++round) {
      const int nk = round < 2 ? 40 : 52, nc = round < 2 ? 16 : 20;
      Eigen::MatrixXd a = saddlePoint(nk, nc, rng, 1e-12);
      if (round == 1) {  // same pattern, other values
        std::mt19937 again(11);
        a = saddlePoint(nk, nc, again, 1e-12);
        for (long j = 0; j < a.cols(); ++j)
          for (long i = 0; i < a.rows(); ++i)
            if (a(i, j) != 0.0 && i != j) a(i, j) *= 1.3;
      }
      const Csc m = fromDense(a, true);
      const long n = m.n;
      SUNMatrix A = SUNSparseMatrix(n, n, static_cast<sunindextype>(m.v.size()), CSC_MAT, ctx);
      std::copy(m.cp.begin(), m.cp.end(), SUNSparseMatrix_IndexPointers(A));
      std::copy(m.ri.begin(), m.ri.end(), SUNSparseMatrix_IndexValues(A));
      std::copy(m.v.begin(), m.v.end(), SUNSparseMatrix_Data(A));
      QCOMPARE(SUNLinSolSetup(ls, A), 0);
      N_Vector b = N_VNew_Serial(n, ctx), x = N_VNew_Serial(n, ctx);
      Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
      std::copy(rhs.data(), rhs.data() + n, N_VGetArrayPointer(b));
      QCOMPARE(SUNLinSolSolve(ls, A, x, b, 0.0), 0);
      const Eigen::VectorXd ref = a.fullPivLu().solve(rhs);
      const Eigen::Map<Eigen::VectorXd> got(N_VGetArrayPointer(x), n);
      const double err = (got - ref).norm() / ref.norm();
      QVERIFY2(err < 1e-10, qPrintable(QString("round %1: relative error %2").arg(round).arg(err)));
      N_VDestroy(b);
      N_VDestroy(x);
      SUNMatDestroy(A);
    }
    SUNLinSolFree(ls);
    SUNContext_Free(&ctx);
  }

  void fixedPivotsReplayAsADenseLu() {
    // The replay of a pivot order: a sparse diagonally dominant 60 x 60
    // matrix in a random symmetric order (pivots on the diagonal), solved
    // against a dense LU; new values on the same pattern; then a first pivot
    // shrunk below the threshold, which the replay must refuse.
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::bernoulli_distribution nonzero(0.08);
    const int n = 60;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
    for (int j = 0; j < n; ++j) {
      a(j, j) = 4.0 + u(rng);
      for (int i = 0; i < n; ++i)
        if (i != j && nonzero(rng)) a(i, j) = u(rng);
    }
    // Rows of wildly different units, as pressures beside positions.
    for (int i = 0; i < n; i += 3) a.row(i) *= 1e5;
    std::vector<long> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    Csc m = fromDense(a);
    pm::FixedPivotLu lu;
    QVERIFY(lu.analyse(n, m.cp.data(), m.ri.data(), order.data(), order.data()));
    const Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
    for (int round = 0; round < 2; ++round) {
      if (round == 1) {  // same pattern, other values
        for (double& v : m.v) v *= 1.0 + 0.2 * u(rng);
        for (int j = 0; j < n; ++j)
          for (long p = m.cp[j]; p < m.cp[j + 1]; ++p) a(m.ri[p], j) = m.v[p];
      }
      QVERIFY(lu.factor(m.v.data(), 1e-3));
      Eigen::VectorXd x = rhs;
      lu.solve(x.data());
      const Eigen::VectorXd ref = a.fullPivLu().solve(rhs);
      const double err = (x - ref).norm() / ref.norm();
      QVERIFY2(err < 1e-13, qPrintable(QString("round %1: relative error %2").arg(round).arg(err)));
    }
    // The first pivot is its column's diagonal entry as given: shrink it
    // to 1e-5 of its column's largest (rows scaled by their largest entry).
    const long first = order[0];
    for (long p = m.cp[first]; p < m.cp[first + 1]; ++p)
      if (m.ri[p] == first) m.v[p] *= 1e-6;
    QVERIFY(!lu.factor(m.v.data(), 1e-3));
    QVERIFY(lu.factor(m.v.data(), 0.0));  // still regular: without the test it goes through

    // A pivot order whose pivot is structurally zero: [0 1; 1 0] in place.
    Eigen::Matrix2d swap;
    swap << 0, 1, 1, 0;
    const Csc s2 = fromDense(swap);
    const std::vector<long> identity = {0, 1};
    QVERIFY(!lu.analyse(2, s2.cp.data(), s2.ri.data(), identity.data(), identity.data()));
    const std::vector<long> swapped = {1, 0};
    QVERIFY(lu.analyse(2, s2.cp.data(), s2.ri.data(), swapped.data(), identity.data()));
    QVERIFY(lu.factor(s2.v.data(), 1e-3));
    Eigen::Vector2d x(3.0, 5.0);
    lu.solve(x.data());
    QCOMPARE(x(0), 5.0);
    QCOMPARE(x(1), 3.0);
  }

  void singularValuesAreARecoverableFailure() {
    // A pattern with a structurally full diagonal but a zero column in value:
    // IDA must see a recoverable failure (it then cuts the step), not a crash.
    SUNContext ctx = nullptr;
    QCOMPARE(SUNContext_Create(nullptr, &ctx), 0);
    Eigen::Matrix3d a = Eigen::Matrix3d::Identity();
    a(1, 1) = 0.0;
    const Csc m = fromDense(a, true);
    SUNMatrix A = SUNSparseMatrix(3, 3, 3, CSC_MAT, ctx);
    std::copy(m.cp.begin(), m.cp.end(), SUNSparseMatrix_IndexPointers(A));
    std::copy(m.ri.begin(), m.ri.end(), SUNSparseMatrix_IndexValues(A));
    std::copy(m.v.begin(), m.v.end(), SUNSparseMatrix_Data(A));
    SUNLinearSolver ls = pm::makeMatchedKlu(ctx);
    QCOMPARE(SUNLinSolInitialize(ls), 0);
    QVERIFY(SUNLinSolSetup(ls, A) > 0);
    SUNLinSolFree(ls);
    SUNMatDestroy(A);
    SUNContext_Free(&ctx);
  }
};

}  // namespace

QTEST_APPLESS_MAIN(MatchedKluTest)
#include "test_matched_klu.moc"
