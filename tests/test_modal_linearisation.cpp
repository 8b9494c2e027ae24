// The modal analysis's two linearisations (issue #22, analyses/modal_pencil.h)
// and where its dense and sparse results part.
//
// The sparse linearisation differences columns by colour groups of the
// Jacobian's pattern (solver/colored_jacobian.h), the dense one column by
// column, both by central differences with the same step. Where the pattern
// holds every entry, each row of a group's quotient reads one perturbed
// column alone, so the two matrices are the same to the bit; an entry
// missing from the pattern (a "hole") shows as an entry the dense matrix has
// and the sparse one lacks, and it spoils the entry of whichever column of
// the group the row is given to. Checks:
//  - the swing arm with its beam in 80 elements (1,156 states, as
//    test_modal_windows takes it) at its start, the swing arm of the example
//    at its end stop (t = 1.5 s, chambers and beam coupled) and the boom
//    lift at its start: A = dF/dy and B = dF/dy' equal entry by entry, at
//    the modal step and at 100 times it (a difference in truncation would
//    grow as the step squared; there is none), and no dense entry outside
//    the pattern. Measured: 0 differences, 0 holes.
//    With entries dropped from the pattern it fails (tried: an entry taken
//    out of every 100th column: the hole at row arm_n0.rx, column
//    arm_n0.vx, of 0.01 in the scaled A, fails all three rows).
//  - So the dense and sparse results differ only in their eigensolvers (up
//    to ~6e-9 of |lambda| at 166-177 states, 1.3e-7 at 1,156; the earlier
//    note's "the linearisations differ by ~1e-8" was that). On the 10-element
//    cantilever of test_modal_analysis each solver's eigenvalue is checked
//    against the two-sided Rayleigh quotient of the pencil (inverse
//    iteration at a complex shift next to it), and its error bounded by
//    first-order perturbation theory: eps kappa (|A| + |lambda| |B|) / |lambda|
//    with kappa = |x| |y| / |y^H B x| the eigenvalue's condition number.
//    The lowest 10 bending modes have kappa 6e7-1.4e9 (in the scaled
//    states), so errors of 1e-9 are rounding, not the linearisation:
//    measured dense up to 4.6e-9 (452 Hz), sparse up to 8.3e-11, at most
//    0.006 of the bound. (A check that the solvers stay backward stable;
//    the bound is first order, so not tight.)
#include "analyses/modal_pencil.h"
#include "analyses/modal_windows.h"
#include "analyses/simulation.h"
#include "build/project_input.h"
#include "solver/colored_jacobian.h"
#include "solver/result_store.h"
#include "support/mechanism_builders.h"
#include "support/steel_beam.h"
#include "support/test_project.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

using namespace pm;
using namespace pm::test;

namespace {

using Complex = std::complex<double>;
using Eigen::MatrixXcd;
using Eigen::MatrixXd;
using Eigen::VectorXcd;

// The example with its beams cut into `elements` elements (0: as it is),
// the markers on the same fractions of the beam.
Project example(const std::string& file, int elements) {
  Project p = loadProject(projectPath(file));
  if (elements > 0)
    for (FlexibleBodyDef& b : p.mechanism.flexible_bodies) {
      for (BeamMarkerDef& m : b.markers) m.node = static_cast<int>(std::lround(double(m.node) * elements / b.elements));
      b.elements = elements;
    }
  return p;
}

struct OperatingPoint {
  std::unique_ptr<Simulation> sim;
  RunResult run;
  Eigen::VectorXd d;
};

OperatingPoint reach(const Project& p, double at) {
  OperatingPoint o;
  o.sim = std::make_unique<Simulation>(p, "linearised");
  o.sim->setEndTime(at);
  ResultStore rows;
  o.run = o.sim->run(rows);
  if (o.run.ok()) o.d = modal::stateScales(o.sim->system(), o.run.yEnd, p.simulation.rel_tol);
  return o;
}

// Two-sided Rayleigh quotient of the pencil (A + lambda B) x = 0 from
// inverse iteration at sigma, with the eigenvalue's condition number
// |x| |y| / |y^H B x|.
Complex rayleigh(const MatrixXd& A, const MatrixXd& B, Complex sigma, double& kappa) {
  const MatrixXcd Ac = A.cast<Complex>(), Bc = B.cast<Complex>(), M = Ac + sigma * Bc;
  const Eigen::PartialPivLU<MatrixXcd> lu(M), lt(M.adjoint());
  VectorXcd x = VectorXcd::Ones(A.rows()), y = x;
  for (int k = 0; k < 30; ++k) {
    x = lu.solve(Bc * x).normalized();
    y = lt.solve(Bc.adjoint() * y).normalized();
  }
  const Complex yBx = y.dot(Bc * x);
  kappa = 1.0 / std::abs(yBx);
  return -y.dot(Ac * x) / yBx;
}

}  // namespace

class TestModalLinearisation : public QObject {
  Q_OBJECT

 private slots:
  void denseAndColouredAreEqual_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("elements");
    QTest::addColumn<double>("at");
    QTest::newRow("swing arm, 80 elements, start") << "flexible_swing_arm.pneumech.json" << 80 << 0.0;
    QTest::newRow("swing arm, end stop") << "flexible_swing_arm.pneumech.json" << 0 << 1.5;
    QTest::newRow("boom lift, start") << "flexible_boom_lift.pneumech.json" << 0 << 0.0;
  }
  void denseAndColouredAreEqual() {
    QFETCH(QString, file);
    QFETCH(int, elements);
    QFETCH(double, at);
    Project p = example(file.toStdString(), elements);
    p.simulation.coupling = "monolithic";
    p.simulation.mechanism_formulation = "absolute";
    const OperatingPoint o = reach(p, at);
    QVERIFY2(o.run.ok(), o.run.message.c_str());
    System& sys = o.sim->system();
    const int n = sys.size();
    const double t = o.run.stats.tReached;
    const ColoredJacobian cj(sys, t, o.run.yEnd.data(), o.run.ypEnd.data());
    for (double step : {modal::kStep, 100 * modal::kStep}) {
      Eigen::VectorXd rows;
      const modal::Pencil dense = modal::linearise(sys, t, o.run.yEnd, o.run.ypEnd, o.d, true, &rows, step);
      const modal::SparsePencil sparse =
          modal::lineariseSparse(sys, t, o.run.yEnd, o.run.ypEnd, o.d, true, nullptr, step, &rows);
      const MatrixXd sA(sparse.A), sB(sparse.B);
      int holes = 0, differ = 0;
      for (int j = 0; j < n; ++j) {
        const std::vector<int>& in = cj.rowsOf(j);
        for (int i = 0; i < n; ++i) {
          const bool entry = dense.A(i, j) != 0.0 || dense.B(i, j) != 0.0;
          if (entry && !std::binary_search(in.begin(), in.end(), i)) {
            if (++holes <= 5)
              qInfo("hole: row %s, column %s", sys.states()[i].name.c_str(), sys.states()[j].name.c_str());
          }
          if (dense.A(i, j) != sA(i, j) || dense.B(i, j) != sB(i, j)) ++differ;
        }
      }
      qInfo("%d states, %zu pattern entries, step %g: %d holes, %d entries differ (largest |dA| %.3g, |dB| %.3g)", n,
            cj.nonZeros(), step, holes, differ, (dense.A - sA).cwiseAbs().maxCoeff(),
            (dense.B - sB).cwiseAbs().maxCoeff());
      QCOMPARE(holes, 0);
      QCOMPARE(differ, 0);
    }
  }

  void solversPartByConditioningAlone() {
    const OperatingPoint o = reach(mechProject(cantilever(steelBeam(10)), 0.1, 0.01, 1e-8), 0.0);
    QVERIFY2(o.run.ok(), o.run.message.c_str());
    System& sys = o.sim->system();
    const modal::Pencil dp = modal::linearise(sys, 0.0, o.run.yEnd, o.run.ypEnd, o.d, true);
    const modal::SparsePencil sp = modal::lineariseSparse(sys, 0.0, o.run.yEnd, o.run.ypEnd, o.d, true);
    const modal::Eigenpairs dense = modal::solveDense(dp), sparse = modal::solveSparse(sp, 10, 0.0);
    const double eps = std::numeric_limits<double>::epsilon(), nA = dp.A.norm(), nB = dp.B.norm();
    auto nearest = [](const Eigen::VectorXcd& l, Complex to) {
      Complex best = l[0];
      for (Complex c : l) best = std::abs(c - to) < std::abs(best - to) ? c : best;
      return best;
    };
    // The lowest 10 modes (test_modal_analysis compares these): each pair
    // once, zero modes left out.
    std::vector<Complex> lowest;
    for (Complex l : sparse.lambda)
      if (std::abs(l) >= 1.0 && l.imag() >= 0 && std::abs(l) <= sparse.reach) lowest.push_back(l);
    std::sort(lowest.begin(), lowest.end(), [](Complex a, Complex b) { return std::abs(a) < std::abs(b); });
    QVERIFY(lowest.size() >= 10);
    lowest.resize(10);
    int checked = 0;
    double worst = 0.0;
    for (Complex l : lowest) {
      double kappa = 0.0;
      const Complex ref = rayleigh(dp.A, dp.B, l * (1.0 + 1e-7), kappa);
      const double a = std::abs(ref), bound = eps * kappa * (nA + a * nB) / a;
      const double errDense = std::abs(nearest(dense.lambda, ref) - ref) / a, errSparse = std::abs(l - ref) / a;
      qInfo("%10.4f Hz: kappa %.3g, bound %.3g; error dense %.3g, sparse %.3g", a / (2 * M_PI), kappa, bound,
            errDense, errSparse);
      QVERIFY(errDense <= bound && errSparse <= bound);
      worst = std::max({worst, errDense / bound, errSparse / bound});
      ++checked;
    }
    qInfo("%d modes, largest error %.3g of its bound", checked, worst);
    QCOMPARE(checked, 10);
  }
};

QTEST_GUILESS_MAIN(TestModalLinearisation)
#include "test_modal_linearisation.moc"
