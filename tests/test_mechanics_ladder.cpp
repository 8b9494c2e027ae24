// The four-bar ladder of pneumech-bench. Assembly and redundancy detection
// of a model above the dense limit (20 parts): a ladder of 8 loops (24
// parts) goes through the sparse QR path. Each planar loop of four
// revolutes has three redundant equations, found in declaration order (the
// last joint of each loop, jrt_k, 3 of 5), DOF = 8; a ladder whose rungs are
// placed 5 mm off assembles onto the constraints to 1e-12 m, its start
// velocities (one rung pushed) to 1e-12 m/s. Dynamics through the loops'
// change points (posts collinear with the rungs), where the constraint rows
// lose rank.
#include "mechanics/multibody.h"
#include "support/mechanism_builders.h"
#include "support/test_project.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace pm;
using namespace pm::test;

class TestMechanicsLadder : public QObject {
  Q_OBJECT
 private slots:
  void ladderRedundancyAndDof() {
    const mb::MultibodySystem sys(fourBarLadder(8, 0.0));
    QCOMPARE(sys.degreesOfFreedom(), 8);
    int inactive = 0;
    for (const auto& r : sys.rows())
      if (!r.active) {
        ++inactive;
        QVERIFY2(r.owner.rfind("jrt", 0) == 0, r.owner.c_str());
      }
    QCOMPARE(inactive, 24);
    QCOMPARE(sys.messages().size(), size_t(1));
    for (int k = 1; k <= 8; ++k)
      QVERIFY(QString::fromStdString(sys.messages()[0]).contains(QString("jrt%1 (3 of 5)").arg(k)));
  }

  void ladderPlacedOffAssembles() {
    Mechanism m = fourBarLadder(8, 0.005);
    m.parts[3].velocity = {0.1, 0, 0.05};  // rung1 pushed: the start velocities are projected too
    mb::MultibodySystem sys(m);
    std::vector<double> y = sys.initialState();
    double pos = 1.0, vel = 1.0;
    sys.constraintResiduals(0.0, y.data(), pos, vel);
    qInfo("assembled from rungs 5 mm off: |Phi| %.3g m, |C v| %.3g m/s", pos, vel);
    QVERIFY2(pos < 1e-12, qPrintable(QString("position residual %1").arg(pos)));
    QVERIFY2(vel < 1e-12, qPrintable(QString("velocity residual %1").arg(vel)));
    QCOMPARE(sys.degreesOfFreedom(), 8);
    double vmax = 0.0;
    for (const auto& b : sys.bodies())
      if (!b.ground)
        for (int a = 7; a < 10; ++a) vmax = std::max(vmax, std::abs(y[b.slot + a]));
    // The minimum change spreads the push over the posts' rotations and
    // the loops above: measured 8.3e-4 m/s, the same on the dense path.
    qInfo("largest projected start speed %g m/s", vmax);
    QVERIFY2(vmax > 1e-4, "the projected start velocities vanished");
  }

  // Ladders of 1 and 2 loops falling under gravity for 2 s: each post
  // swings through horizontal, the parallelogram's change point, several
  // times. There the loop's rows lose one rank and, without the constraint
  // rows' regularisation, IDA's iteration matrix is singular: 3 of these 14
  // runs stopped with corrector failures (N = 1 at rel_tol 1e-8 at t = 0.333 s,
  // N = 2 at 3e-7 and 3e-8), and 5 of the same 7 with 4 loops. No damping: the energy holds to
  // (100 rel_tol + 5e-6) of the potential energy released; measured 1.5e-6
  // (N = 1, 1e-8) to 2.1e-4 (N = 1, 1e-5). The first loop swings to 5.88
  // rad (N = 1) or turns 2.4 times (N = 2).
  void throughChangePoints() {
    for (int n : {1, 2})
      for (double rtol : {1e-5, 3e-6, 1e-6, 3e-7, 1e-7, 3e-8, 1e-8}) {
        Project p;
        p.mechanism = fourBarLadder(n, 0.0);
        settings(p, 2.0, 0.01, {.rel = rtol});
        auto r = simulate(p);
        QVERIFY2(r->ok(), qPrintable(QString("N = %1, rel_tol %2: %3").arg(n).arg(rtol).arg(QString::fromStdString(r->message()))));
        const auto E = r->col("mechanism.E_total"), Ep = r->col("mechanism.E_potential");
        double drift = 0.0, released = 0.0;
        for (size_t i = 0; i < E.size(); ++i) {
          drift = std::max(drift, std::abs(E[i] - E[0]));
          released = std::max(released, Ep[0] - Ep[i]);
        }
        const auto turns = r->col("jlb1.angle");
        qInfo("N = %d rel_tol %g: jlb1 ends at %.3f rad, energy drift %.3g of %.3g J released", n, rtol, turns.back(),
              drift, released);
        // Past both change points of the first loop, cos(angle + 0.2) = 0.
        QVERIFY(*std::max_element(turns.begin(), turns.end()) > 1.5 * std::numbers::pi - 0.2);
        QVERIFY(released > 0.0);
        QVERIFY2(drift < (100 * rtol + 5e-6) * released, qPrintable(QString("energy drift %1 J").arg(drift)));
      }
  }
};

QTEST_APPLESS_MAIN(TestMechanicsLadder)
#include "test_mechanics_ladder.moc"
