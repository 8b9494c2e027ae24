// The sparse modal eigensolver's shifted windows (issue #22,
// analyses/modal_windows.h) on a large flexible model: the example
// flexible_swing_arm with its beam cut into 80 elements (1,156 states), at
// its start. Its beam's modal damping (2 %, stiffness-proportional) makes
// every beam mode above 2 / beta overdamped, and their slow roots
// accumulate just below -1 / beta = -1550.4175 1/s: 14 of its lowest 30
// modes lie within 2e-4 1/s of each other there.
//
// Both solvers are given the same linearisation (the sparse one, made
// dense for the dense solver), so what is compared is the eigensolution
// alone. The reference: the dense solver's every eigenvalue, except within
// 1 1/s of the accumulation point c = -1 / beta, where the dense solver at
// its shift (1 rad/s) is not accurate enough (its errors there, ~1e-5 1/s,
// exceed the members' spacing, ~1e-6, and split real members into complex
// pairs); there the dense eigensolution of (A + c B)^-1 B is taken. Checks:
//  - every eigenvalue the sparse solver reports lies within its reach R,
//    and the reference has exactly as many within R: a mode missed or
//    found twice changes the count;
//  - in order of |lambda| each agrees with the reference: in the
//    accumulation to 1e-8 of |lambda| and 1e-8 in damping ratio (measured
//    ~1e-12); elsewhere to 1e-6 and 1e-6. Not 1e-8 there: the lightly
//    damped bending modes are ill-conditioned in this 1,156-state
//    linearisation. Three solutions of the same pencil spread by 6e-8 of
//    |lambda| on the first bending mode (Re lambda -0.8193823 by two-sided
//    Rayleigh quotient iteration, -0.8193846 dense, -0.8193853 sparse, the
//    last unchanged to 14 digits when the Arnoldi tolerance is tightened
//    1,000 times); dense and sparse differ by up to 1.3e-7 of |lambda|
//    and 2e-7 in damping ratio (the 160 Hz mode) on one machine, and by
//    4.5e-7 of |lambda| (the 200 Hz mode) on another with the same code
//    and packages (2026-11-28; 3e-7 was the bound before). That is the
//    eigenproblem's conditioning, not the linearisation: the coloured and
//    the column-by-column linearisations of this model are equal to the bit
//    (test_modal_linearisation), so no tighter bound is available here;
//  - the lowest 30 modes are within R, 10 of them from the accumulation,
//    which a later window found;
//  - the oscillating modes alone (analyses/modal_oscillating.h), from the
//    same pencil, are the dense solver's oscillating modes within its
//    promise (damping ratio <= 0.6), as many, to the same tolerances; and
//    the analysis with oscillatingOnly on the 40-element arm at its end stop
//    (596 states) gives the dense solver's, to 1e-8 of |lambda| and 1e-7 in
//    damping ratio (measured 1.6e-8), and nothing else (fails with windows
//    8 times apart: 4 of 8 modes missed);
//  - cheap: within 1,000 products (C x, one sparse LU solve each) where
//    the single shift's growing iteration needed 1,045 and a Krylov space
//    of 973 (docs/performance.md); its CPU time is printed beside the
//    dense solver's.
#include "analyses/modal_analysis.h"
#include "analyses/modal_oscillating.h"
#include "analyses/modal_pencil.h"
#include "analyses/modal_windows.h"
#include "analyses/simulation.h"
#include "build/project_input.h"
#include "mechanics/beam/beam_bodies.h"
#include "mechanics/beam/flexible_beam.h"
#include "solver/result_store.h"
#include "support/test_project.h"

#include <QtTest>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <complex>
#include <ctime>
#include <vector>

using namespace pm;
using namespace pm::test;

namespace {

using Complex = std::complex<double>;

double cpuSeconds() { return double(std::clock()) / CLOCKS_PER_SEC; }

// Sorted by |lambda|, then by Im (both halves of a pair kept).
std::vector<Complex> sorted(const Eigen::VectorXcd& l) {
  std::vector<Complex> v(l.data(), l.data() + l.size());
  std::sort(v.begin(), v.end(), [](Complex a, Complex b) {
    return std::abs(a) != std::abs(b) ? std::abs(a) < std::abs(b) : a.imag() < b.imag();
  });
  return v;
}

// The swing arm at `elements` elements, the markers on the same fractions
// of the beam (pneumech-bench --modal-only does the same).
Project swingArm(int elements) {
  Project p = loadProject(projectPath("flexible_swing_arm.pneumech.json"));
  for (FlexibleBodyDef& b : p.mechanism.flexible_bodies) {
    for (BeamMarkerDef& m : b.markers) m.node = static_cast<int>(std::lround(double(m.node) * elements / b.elements));
    b.elements = elements;
  }
  return p;
}

// The oscillating modes of `dense` (every finite eigenvalue) that
// solveOscillating promises: Im lambda > 0.045 |lambda| (Mode::oscillating),
// damping ratio <= kCoveredZeta, |lambda| from kLowestOmega / sqrt(2) to `reach`.
std::vector<Complex> promised(const std::vector<Complex>& all, double reach) {
  std::vector<Complex> out;
  for (Complex l : all) {
    const double a = std::abs(l);
    if (l.imag() > 0.045 * a && -l.real() <= modal::kCoveredZeta * a && a >= modal::kLowestOmega / std::sqrt(2.0) &&
        a <= reach)
      out.push_back(l);
  }
  return sorted(Eigen::Map<Eigen::VectorXcd>(out.data(), static_cast<long>(out.size())));
}

// Every promised oscillating mode of the dense solution is found once, to
// `tol` of |lambda| and `tolZeta` in damping ratio; returns the largest
// difference of either, relative to its tolerance (<= 1: passed).
double compareOscillating(const std::vector<Complex>& found, const std::vector<Complex>& dense, double reach,
                          double tol, double tolZeta) {
  const std::vector<Complex> want = promised(dense, reach);
  size_t inPromise = 0;
  double worst = 0.0;
  for (Complex w : want) {
    const auto best = std::min_element(found.begin(), found.end(), [&](Complex a, Complex b) {
      return std::abs(a - w) < std::abs(b - w);
    });
    if (best == found.end()) return INFINITY;
    const double err = std::max(std::abs(std::abs(*best) - std::abs(w)) / std::abs(w) / tol,
                                std::abs(best->real() / std::abs(*best) - w.real() / std::abs(w)) / tolZeta);
    worst = std::max(worst, err);
    if (!(err <= 1.0)) {
      qInfo("dense %.12g%+.12gi: nearest found %.12g%+.12gi", w.real(), w.imag(), best->real(), best->imag());
      return err;
    }
  }
  for (Complex l : found) inPromise += promised({l}, reach).size();
  if (inPromise != want.size()) {
    qInfo("%zu found within the promise, %zu dense", inPromise, want.size());
    return INFINITY;
  }
  return worst;
}

}  // namespace

class TestModalWindows : public QObject {
  Q_OBJECT

 private slots:
  void sparseEqualsDenseOnALargeBeam() {
    Project p = swingArm(80);
    p.simulation.coupling = "monolithic";
    p.simulation.mechanism_formulation = "absolute";
    Simulation sim(p, "swing arm 80");
    sim.setEndTime(0.0);
    ResultStore rows;
    const RunResult run = sim.run(rows);
    QVERIFY2(run.ok(), run.message.c_str());
    System& sys = sim.system();
    QCOMPARE(sys.size(), 1156);
    const Eigen::VectorXd d = modal::stateScales(sys, run.yEnd, p.simulation.rel_tol);
    const modal::SparsePencil sp = modal::lineariseSparse(sys, 0.0, run.yEnd, run.ypEnd, d, true);

    double t0 = cpuSeconds();
    const modal::Eigenpairs sparse = modal::solveSparse(sp, 30, 0.0);
    const double sparseCpu = cpuSeconds() - t0;
    t0 = cpuSeconds();
    const Eigen::MatrixXd A(sp.A), B(sp.B);
    const modal::Eigenpairs dense = modal::solveDense({A, B, d});
    const double denseCpu = cpuSeconds() - t0;
    const FlexibleBodyDef& beam = p.mechanism.flexible_bodies.front();
    const double c = -1.0 / beam::dampingBeta(beam, beam::FlexibleBeam(beam::beamSpecOf(beam)));
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(A + c * B);
    const Eigen::EigenSolver<Eigen::MatrixXd> atC(lu.solve(B), false);
    QCOMPARE(atC.info(), Eigen::Success);
    std::vector<Complex> reference;
    for (Complex l : std::vector<Complex>(dense.lambda.data(), dense.lambda.data() + dense.lambda.size()))
      if (std::abs(l - c) > 1.0) reference.push_back(l);
    for (Eigen::Index k = 0; k < atC.eigenvalues().size(); ++k) {
      const Complex th = atC.eigenvalues()[k];
      if (std::abs(th) > 1.0) reference.push_back(c - 1.0 / th);  // |lambda - c| < 1
    }
    qInfo("sparse: %.3f s CPU, %d products, Krylov dimension %d, %zu windows, reach %.10g 1/s; dense: %.3f s CPU; "
          "accumulation at %.10g 1/s",
          sparseCpu, sparse.applications, sparse.krylovDimension, sparse.windows.size(), sparse.reach, denseCpu, c);

    const double R = sparse.reach;
    QVERIFY(std::isfinite(R));
    const std::vector<Complex> s = sorted(sparse.lambda);
    std::vector<Complex> within;
    for (Complex l : reference)
      if (std::abs(l) <= R * (1 + 1e-11)) within.push_back(l);
    within = sorted(Eigen::Map<Eigen::VectorXcd>(within.data(), static_cast<long>(within.size())));
    for (Complex l : s) QVERIFY(std::abs(l) <= R);
    if (s.size() != within.size())
      for (size_t i = 0; i < std::max(s.size(), within.size()); ++i)
        qInfo("%3zu dense %.14g %+.6gi  sparse %.14g %+.6gi", i, i < within.size() ? within[i].real() : 0.0,
              i < within.size() ? within[i].imag() : 0.0, i < s.size() ? s[i].real() : 0.0, i < s.size() ? s[i].imag() : 0.0);
    QCOMPARE(s.size(), within.size());
    // The lowest 30 modes (a pair once) are within the reach.
    const auto modes = std::count_if(within.begin(), within.end(), [](Complex l) { return l.imag() >= -1e-9 * std::abs(l); });
    QVERIFY2(modes >= 30, qPrintable(QString::number(modes)));
    // Some of them in the accumulation at -1 / beta, found by a later window.
    const auto accumulated = std::count_if(s.begin(), s.end(), [&](Complex l) { return std::abs(l - c) < 1e-3; });
    QVERIFY2(accumulated >= 10, qPrintable(QString::number(accumulated)));
    QVERIFY(sparse.windows.size() >= 2);
    double worst = 0.0, worstZeta = 0.0, worstIn = 0.0;
    for (size_t i = 0; i < s.size(); ++i) {
      const double a = std::abs(within[i]), b = std::abs(s[i]);
      if (a < 1e-3) continue;  // the zero modes' split is rounding (analyses/zero_modes.h)
      const double err = std::abs(b - a) / a;
      const double zeta = std::abs(-s[i].real() / b + within[i].real() / a);
      worst = std::max(worst, err);
      if (std::abs(within[i] - c) < 1.0) worstIn = std::max(worstIn, std::max(err, zeta));
      worstZeta = std::max(worstZeta, zeta);
      const bool accumulation = std::abs(within[i] - c) < 1.0;
      QVERIFY2(err <= (accumulation ? 1e-8 : 1e-6) && zeta <= (accumulation ? 1e-8 : 1e-6),
               qPrintable(QString("eigenvalue %1: dense %2%3i, sparse %4%5i")
                              .arg(i + 1)
                              .arg(within[i].real(), 0, 'g', 14)
                              .arg(within[i].imag(), 0, 'g', 14)
                              .arg(s[i].real(), 0, 'g', 14)
                              .arg(s[i].imag(), 0, 'g', 14)));
    }
    qInfo("%zu eigenvalues within the reach (%ld modes, %ld in the accumulation): largest difference %.3g of |lambda|, "
          "%.3g in the damping ratio (in the accumulation: %.3g)",
          s.size(), long(modes), long(accumulated), worst, worstZeta, worstIn);
    QVERIFY2(sparse.applications <= 1000, qPrintable(QString::number(sparse.applications)));

    // The oscillating modes alone (analyses/modal_oscillating.h), from the
    // same pencil: every one the dense solver has within the promise
    // (damping ratio <= 0.6, above 1 / sqrt(2) rad/s), none more, with the
    // tolerances of the bending modes above; found without the real roots
    // (the accumulation needs the windows above; this search's products
    // are counted against the real windows' 3,005 that `--max-frequency
    // 410` needs to reach the same modes).
    t0 = cpuSeconds();
    const modal::Eigenpairs osc = modal::solveOscillating(sp, 0, 0.0);
    const double oscCpu = cpuSeconds() - t0;
    std::vector<Complex> all(dense.lambda.data(), dense.lambda.data() + dense.lambda.size());
    const double diff = compareOscillating(sorted(osc.lambda), all, osc.reach, 3e-7, 1e-6);
    qInfo("oscillating only: %ld modes, %d products in %zu windows, %.3f s CPU; largest difference %.3g of the "
          "tolerances",
          long(osc.lambda.size()), osc.applications, osc.windows.size(), oscCpu, diff);
    QVERIFY2(diff <= 1.0, qPrintable(QString::number(diff)));
    QVERIFY2(osc.applications <= 1500, qPrintable(QString::number(osc.applications)));
  }

  // The analysis with ModalOptions::oscillatingOnly (`pneumech modal
  // --oscillating`) on the swing arm at 40 elements (596 states) at its end
  // stop (chambers pressurised, beam ringing): the sparse solver's
  // oscillating modes are the dense solver's, and neither reports another
  // kind.
  void oscillatingOnlyAnalysis() {
    Project p = swingArm(40);
    ModalOptions o;
    o.at = 1.5;
    o.oscillatingOnly = true;
    o.solver = ModalSolver::Dense;
    const ModalResult rd = runModalAnalysis(p, "dense", o);
    o.solver = ModalSolver::Sparse;
    const ModalResult rs = runModalAnalysis(p, "sparse", o);
    std::vector<Complex> d, s;
    for (const Mode& m : rd.modes) {
      QVERIFY(m.oscillating && !m.zero);
      d.push_back(m.lambda);
    }
    for (const Mode& m : rs.modes) {
      QVERIFY(m.oscillating && !m.zero);
      s.push_back(m.lambda);
    }
    QCOMPARE(rs.zeroModes, 0);
    QVERIFY(!rs.notes.empty());
    qInfo("%s", rs.notes.back().c_str());
    const double diff = compareOscillating(s, d, 1e6, 1e-8, 1e-7);
    qInfo("dense %zu, sparse %zu oscillating modes: largest difference %.3g of the tolerances", d.size(), s.size(), diff);
    QVERIFY2(diff <= 1.0, qPrintable(QString::number(diff)));
  }
};

QTEST_GUILESS_MAIN(TestModalWindows)
#include "test_modal_windows.moc"
