// Cancelling a modal analysis (issue #22, ModalOptions::cancel): the studio's
// Cancel sets a flag from the GUI thread; the analysis must stop at its next
// look and give no result (ModalCancelled), also in the middle of the
// eigensolution.
//  - the Arnoldi iteration alone: a flag set by the 10th product stops it
//    before the 11th, with nothing returned;
//  - the sparse solver on a 120-element cantilever (about 1,500 states): a
//    flag set a quarter into the eigensolution (CPU time) ends the analysis
//    within another quarter, not at the end of the eigensolution;
//  - both solvers: a flag set as the eigensolution begins gives
//    ModalCancelled and never reaches the modes' stage.
#include "analyses/arnoldi_eigen.h"
#include "analyses/modal_analysis.h"
#include "support/mechanism_builders.h"
#include "support/test_project.h"

#include <QtTest>

#include <pthread.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace pm;
using namespace pm::test;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A steel cantilever of `elements` node bodies, clamped to the ground.
Project cantileverProject(int elements) {
  FlexibleBodyDef b;
  b.id = "beam";
  b.length = 1.0;
  b.elements = elements;
  b.section_shape = "rectangle";
  b.section = {{"hy", 0.02}, {"bz", 0.01}};
  b.material = {{"E", 210e9}, {"nu", 0.3}, {"density", 7850.0}};
  b.markers = {{"root", 0, {}}, {"tip", elements, {}}};
  Mechanism m;
  m.gravity = {0, 0, 0};
  m.parts.push_back(ground({mk("clamp", {0, 0, 0})}));
  m.flexible_bodies.push_back(b);
  m.joints.push_back(joint("weld", "fixed", "beam.root", "ground.clamp"));
  return mechProject(m, 0.1, 0.01, 1e-8);
}

}  // namespace

class TestModalCancel : public QObject {
  Q_OBJECT

 private slots:
  // C = diag(1, 1/2, 1/3, ...), n = 600, asked for more converged Ritz
  // values than 10 products can give: the product that sets the flag is
  // the last one made.
  void arnoldiStopsAtTheNextProduct() {
    const int n = 600;
    std::atomic<bool> cancel{false};
    int products = 0;
    auto apply = [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
      y = x.cwiseQuotient(Eigen::VectorXd::LinSpaced(n, 1.0, double(n)));
      if (++products == 10) cancel = true;
    };
    auto enough = [](const Eigen::VectorXcd& theta) { return theta.size() >= 20; };
    ArnoldiOptions o;
    o.block = 2;
    o.cancel = &cancel;
    const ArnoldiResult r = arnoldiLargest(n, apply, enough, o);
    QVERIFY(r.cancelled);
    QCOMPARE(products, 10);
    QCOMPARE(r.applications, 10);
    QCOMPARE(r.theta.size(), Eigen::Index(0));
    QCOMPARE(r.vectors.cols(), Eigen::Index(0));
    // Not cancelled, the same iteration needs many more products and finds
    // the 20 largest, 1/k.
    cancel = false;
    products = -1000000;
    o.cancel = nullptr;
    const ArnoldiResult full = arnoldiLargest(n, apply, enough, o);
    QVERIFY(!full.cancelled);
    QVERIFY2(full.applications > 40, qPrintable(QString::number(full.applications)));
    QVERIFY(full.theta.size() >= 20);
    for (int k = 0; k < 20; ++k) QVERIFY(std::abs(full.theta[k] - 1.0 / (k + 1)) < 1e-9);
  }

  // The sparse path's eigensolution is interrupted: measured once in full
  // (the CPU time of this thread, which runs the analysis, from the
  // Eigensolve stage to the Modes stage), then cancelled from another
  // thread once this one has spent a quarter of that in it. The analysis
  // must end within another quarter: it stops at the next Arnoldi product
  // or Ritz problem instead of running out. CPU time, not wall time: the
  // machine may be shared.
  void sparseEigensolutionStopsWhenCancelled() {
    const Project p = cantileverProject(120);
    clockid_t self;
    QCOMPARE(pthread_getcpuclockid(pthread_self(), &self), 0);
    auto cpu = [self] {
      timespec ts{};
      clock_gettime(self, &ts);
      return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
    };
    ModalOptions o;
    o.solver = ModalSolver::Sparse;
    o.modes = 10;
    double solveStart = 0.0, solveEnd = 0.0;
    o.onStage = [&](ModalStage s) {
      if (s == ModalStage::Eigensolve) solveStart = cpu();
      if (s == ModalStage::Modes) solveEnd = cpu();
    };
    const ModalResult whole = runModalAnalysis(p, "cantilever", o);
    QCOMPARE(whole.modes.size(), size_t(10));
    const double full = solveEnd - solveStart;

    std::atomic<bool> cancel{false};
    std::atomic<double> cancelledAt{0.0};
    std::thread setter;
    std::vector<ModalStage> seen;
    o.cancel = &cancel;
    o.onStage = [&](ModalStage s) {
      seen.push_back(s);
      if (s != ModalStage::Eigensolve) return;
      const double from = cpu();
      setter = std::thread([&, from, full] {
        double now = cpu();
        while (now < from + 0.25 * full) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          now = cpu();
        }
        cancelledAt = now;
        cancel = true;
      });
    };
    const Clock::time_point t0 = Clock::now();
    bool threw = false;
    try {
      runModalAnalysis(p, "cantilever", o);
    } catch (const ModalCancelled&) {
      threw = true;
    }
    const double end = cpu(), wall = secondsSince(t0);
    if (setter.joinable()) setter.join();
    const double after = end - cancelledAt;
    qInfo("eigensolution in full %.3f s CPU; cancelled %.3f s CPU into it, the analysis returned %.3f s CPU later "
          "(%.3f s wall in all)",
          full, 0.25 * full, after, wall);
    QVERIFY(threw);
    QVERIFY(cancel.load());
    QVERIFY(std::find(seen.begin(), seen.end(), ModalStage::Modes) == seen.end());
    QVERIFY2(after < 0.25 * full, qPrintable(QString("%1 s CPU after the cancel").arg(after)));
  }

  // Either solver: cancelled as the eigensolution begins, the analysis
  // throws ModalCancelled (no result), and the modes' stage never comes.
  void cancelledGivesNoResult() {
    const Project p = cantileverProject(10);
    for (ModalSolver solver : {ModalSolver::Dense, ModalSolver::Sparse}) {
      std::atomic<bool> cancel{false};
      std::vector<ModalStage> seen;
      ModalOptions o;
      o.solver = solver;
      o.modes = 4;
      o.cancel = &cancel;
      o.onStage = [&](ModalStage s) {
        seen.push_back(s);
        if (s == ModalStage::Eigensolve) cancel = true;
      };
      QVERIFY_THROWS_EXCEPTION(ModalCancelled, runModalAnalysis(p, "cantilever", o));
      const std::vector<ModalStage> expected{ModalStage::Run, ModalStage::Linearise, ModalStage::Eigensolve};
      QVERIFY(seen == expected);
      // Not cancelled: every stage, and modes.
      cancel = false;
      seen.clear();
      o.onStage = [&](ModalStage s) { seen.push_back(s); };
      QCOMPARE(runModalAnalysis(p, "cantilever", o).modes.size(), size_t(4));
      QCOMPARE(seen.back(), ModalStage::Modes);
    }
  }
};

QTEST_GUILESS_MAIN(TestModalCancel)
#include "test_modal_cancel.moc"
