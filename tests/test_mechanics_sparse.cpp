// The sparse linear algebra of large models (above 120 rigid-body
// coordinates, 20 parts) against the dense path forced on the same model
// (MultibodyOptions::forceDense): static equilibrium (colour-grouped
// difference Jacobian, sparse QR), kinematic analysis (sparse LU of the
// square constraint matrix) and a short dynamic run (sparse consistent
// accelerations at every output) of the pendulum chain of 64 links (384
// coordinates) and the four-bar ladder of 32 loops (96 parts, 576
// coordinates) of pneumech-bench, plus an external force between distant
// parts (the statics' structure probe) and a chain with no equilibrium (the
// error names the same 64 free directions). Each result is also checked
// against its closed form (hanging chain, upright ladder, a chain turning
// rigidly, a ladder of parallelograms), the parts' balance and the
// constraint residuals. Wall times are printed for information only.
#include "analyses/mechanism_analysis.h"
#include "mechanics/multibody.h"
#include "support/mechanism_builders.h"
#include "support/multibody_checks.h"
#include "support/test_project.h"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kG = 9.80665;

// Dense decompositions on one system for the scope's lifetime.
struct DenseScope {
  explicit DenseScope(mb::MultibodySystem& sys) : sys_(sys) { sys_.forceDense(true); }
  ~DenseScope() { sys_.forceDense(false); }
  mb::MultibodySystem& sys_;
  DenseScope(const DenseScope&) = delete;
  DenseScope& operator=(const DenseScope&) = delete;
};

struct Difference {
  double position = 0.0, orientation = 0.0, velocity = 0.0, acceleration = 0.0, reaction = 0.0;
};

// Largest differences between two local states of one system: positions
// [m], Euler parameters, velocities [m/s, rad/s]; accelerations (linear and
// angular) and reactions (lambda) relative to the largest of b's.
Difference compare(const mb::MultibodySystem& sys, const std::vector<double>& a, const std::vector<double>& ap,
                   const std::vector<double>& b, const std::vector<double>& bp) {
  Difference d;
  for (const auto& body : sys.bodies()) {
    if (body.ground) continue;
    const int s = body.slot;
    for (int i = 0; i < 3; ++i) d.position = std::max(d.position, std::abs(a[s + i] - b[s + i]));
    for (int i = 3; i < 7; ++i) d.orientation = std::max(d.orientation, std::abs(a[s + i] - b[s + i]));
    for (int i = 7; i < 13; ++i) d.velocity = std::max(d.velocity, std::abs(a[s + i] - b[s + i]));
    for (int i = 7; i < 13; ++i) d.acceleration = std::max(d.acceleration, std::abs(ap[s + i] - bp[s + i]));
  }
  double amax = 0.0, lmax = 0.0;
  for (const auto& body : sys.bodies())
    if (!body.ground)
      for (int i = 7; i < 13; ++i) amax = std::max(amax, std::abs(bp[body.slot + i]));
  if (amax > 0.0) d.acceleration /= amax;
  for (const auto& r : sys.rows()) lmax = std::max(lmax, std::abs(b[r.lambda]));
  for (const auto& r : sys.rows()) d.reaction = std::max(d.reaction, std::abs(a[r.lambda] - b[r.lambda]) / lmax);
  return d;
}

void report(const char* what, const Difference& d) {
  qInfo("%s: position %.3g m, Euler parameters %.3g, velocity %.3g, acceleration %.3g, reactions %.3g relative", what,
        d.position, d.orientation, d.velocity, d.acceleration, d.reaction);
}

// The sparse path's solution (ys, yps) matches the dense path's (yd, ypd):
// a static equilibrium to 1e-10 in position and Euler parameters and 1e-9 in
// reactions; a kinematic analysis's (velocities and accelerations too) to
// 1e-12, 1e-10 in velocity and 1e-9 in accelerations and reactions.
enum class Analysis { Statics, Kinematics };
void checkSparseMatchesDense(const mb::MultibodySystem& sys, const std::vector<double>& ys,
                             const std::vector<double>& yps, const std::vector<double>& yd,
                             const std::vector<double>& ypd, Analysis kind) {
  const Difference d = compare(sys, ys, yps, yd, ypd);
  report("sparse - dense", d);
  if (kind == Analysis::Statics) {
    CHECK_WORST(d.position, 1e-10);
    CHECK_WORST(d.orientation, 1e-10);
  } else {
    CHECK_WORST(d.position, 1e-12);
    CHECK_WORST(d.orientation, 1e-12);
    CHECK_WORST(d.velocity, 1e-10);
    CHECK_WORST(d.acceleration, 1e-9);
  }
  CHECK_WORST(d.reaction, 1e-9);
}

// The static equilibrium (from the assembled start) or the kinematic
// analysis at t on the sparse path, then on the dense path from the same
// start, with timings; the two must agree (checkSparseMatchesDense). The
// sparse path's state goes to ys, yps.
void solveBothWays(mb::MultibodySystem& sys, Analysis kind, double t, std::vector<double>& ys,
                   std::vector<double>& yps) {
  std::vector<double> yd, ypd;
  ys = yd = sys.initialState();
  auto solve = [&](std::vector<double>& y, std::vector<double>& yp) {
    if (kind == Analysis::Statics)
      mb::staticEquilibrium(sys, 0.0, y, yp);
    else
      mb::kinematicAnalysis(sys, t, y, yp);
  };
  QElapsedTimer clock;
  clock.start();
  solve(ys, yps);
  const double tSparse = clock.nsecsElapsed() * 1e-9;
  clock.restart();
  {
    DenseScope dense(sys);
    solve(yd, ypd);
  }
  qInfo("%s: sparse %.3f s, dense %.3f s (wall, shared machine)",
        kind == Analysis::Statics ? "static equilibrium" : "kinematic analysis", tSparse, clock.nsecsElapsed() * 1e-9);
  checkSparseMatchesDense(sys, ys, yps, yd, ypd, kind);
}

// The index-1 solve of the dynamics (M a + C^T lambda = F, C a = gamma: the
// consistent start and every output row) at the kinematic analysis's state
// (y, yp) of a 0-DOF mechanism, sparse and dense: they agree with each
// other, and with the kinematic analysis, whose accelerations and reactions
// the constraints alone fix.
void checkConsistentAccelerations(mb::MultibodySystem& sys, double t, const std::vector<double>& y,
                                  const std::vector<double>& yp) {
  std::vector<double> ys = y, yd = y, yps(y.size(), 0.0), ypd(y.size(), 0.0);
  QElapsedTimer clock;
  clock.start();
  sys.makeConsistent(t, ys.data(), yps.data());
  const double tSparse = clock.nsecsElapsed() * 1e-9;
  clock.restart();
  {
    DenseScope dense(sys);
    sys.makeConsistent(t, yd.data(), ypd.data());
  }
  qInfo("consistent accelerations: sparse %.4f s, dense %.4f s (wall)", tSparse, clock.nsecsElapsed() * 1e-9);
  const Difference d = compare(sys, ys, yps, yd, ypd), k = compare(sys, ys, yps, y, yp);
  report("consistent accelerations, sparse - dense", d);
  report("consistent accelerations (sparse) - kinematic analysis", k);
  CHECK_WORST(d.acceleration, 1e-9);
  CHECK_WORST(d.reaction, 1e-9);
  // The dynamics' constraint rows yield by eps lambda (eps = 1e-12 s/kg per
  // mean part mass, see multibody.h), which the long loops of the ladder
  // magnify to ~1e-6 (chain: ~3e-9).
  CHECK_WORST(k.acceleration, 1e-5);
  CHECK_WORST(k.reaction, 1e-5);
  // The multipliers for accelerations already known on the constraints
  // (C a = gamma: the reduced formulation's output rows; here the
  // kinematic analysis's): the index-1 solve's reactions, without its
  // gamma, sparse and dense; the accelerations stay as given.
  for (const bool denseScope : {false, true}) {
    std::vector<double> ym = y, ypm(y.size(), 0.0);
    for (const auto& r : sys.rows()) ym[r.lambda] = 12345.0;  // overwritten
    for (const auto& body : sys.bodies())
      if (!body.ground)
        for (int i = 7; i < 13; ++i) ypm[body.slot + i] = yp[body.slot + i];
    std::vector<mb::V3> F, N;
    sys.appliedForces(t, ym.data(), F, N);
    if (denseScope) {
      DenseScope dense(sys);
      sys.multipliersFor(t, ym.data(), ypm.data(), F, N);
    } else {
      sys.multipliersFor(t, ym.data(), ypm.data(), F, N);
    }
    const Difference m = compare(sys, ym, ypm, ys, yps), given = compare(sys, ym, ypm, y, yp);
    report(denseScope ? "multipliers for given accelerations (dense) - index-1" : "multipliers for given accelerations - index-1", m);
    CHECK_WORST(m.reaction, 1e-9);
    QCOMPARE(given.acceleration, 0.0);
  }
}

}  // namespace

class TestMechanicsSparse : public QObject {
  Q_OBJECT
 private slots:
  // 64 links hanging from 0.3 rad: at rest straight down, link k's centre
  // at z = -(k - 1/2) L, the pivot carrying the weight of all, 64 x 0.2 kg x g.
  void chainStatics() {
    const int n = 64;
    const double L = 0.1, m = 0.2;
    mb::MultibodySystem sys(pendulumChain(n));
    std::vector<double> ys, yps;
    solveBothWays(sys, Analysis::Statics, 0.0, ys, yps);
    double worstCentre = 0.0;
    for (int k = 1; k <= n; ++k) {
      const mb::V3 c = centre(sys, ys, bodyIndex(sys, named("link", k)));
      worstCentre = std::max(worstCentre, (c - mb::V3(0, 0, -(k - 0.5) * L)).norm());
    }
    CHECK_WORST(worstCentre, 1e-9);
    std::vector<double> row(sys.channels().size());
    sys.outputs(0.0, ys.data(), yps.data(), row.data());
    const mb::V3 F(channel(sys, row, "j1.Fx"), channel(sys, row, "j1.Fy"), channel(sys, row, "j1.Fz"));
    CHECK_REL(F.norm(), n * m * kG, 1e-9);
    checkBalanced(sys, ys);
  }

  // An external force (as a pneumatic cylinder's, through externalForces)
  // between distant parts, which the joints do not couple: a spring of
  // 2 N/m pulling link64's bottom towards link1's bottom + (1, 0, -5) m. The sparse Jacobian takes the
  // parts it acts on from a probe of externalForces; both paths reach the
  // same bent equilibrium, balanced to 1e-8 N.
  void externalForceBetweenDistantParts() {
    const int n = 64;
    mb::MultibodySystem sys(pendulumChain(n));
    const int a = sys.marker("link1.bottom"), b = sys.marker(named("link", n) + ".bottom");
    QVERIFY(a >= 0 && b >= 0);
    sys.externalForces = [a, b](double, const double*, const std::vector<mb::Kin>& k, mb::MultibodySystem& s) {
      const mb::V3 pa = s.markerPoint(a, k), pb = s.markerPoint(b, k), f = 2.0 * (pb - pa - mb::V3(1.0, 0.0, -5.0));
      s.applyForce(s.markerBody(a), pa, f);
      s.applyForce(s.markerBody(b), pb, -f);
    };
    std::vector<double> ys, yps;
    solveBothWays(sys, Analysis::Statics, 0.0, ys, yps);
    const mb::V3 tip = centre(sys, ys, bodyIndex(sys, named("link", n)));
    qInfo("last link's centre at x = %.4f m, z = %.4f m", tip.x(), tip.z());
    QVERIFY(tip.x() > 0.01);  // pulled sideways
    checkBalanced(sys, ys);
  }

  // Without gravity nothing holds the chain: both paths refuse, naming the
  // 64 free directions (one per joint).
  void chainWithoutGravityHasNoEquilibrium() {
    Mechanism mech = pendulumChain(64);
    mech.gravity = {0, 0, 0};
    mb::MultibodySystem sys(mech);
    std::string messages[2];
    for (int dense = 0; dense < 2; ++dense) {
      std::unique_ptr<DenseScope> scope(dense ? new DenseScope(sys) : nullptr);
      std::vector<double> y = sys.initialState(), yp;
      try {
        mb::staticEquilibrium(sys, 0.0, y, yp);
      } catch (const std::runtime_error& e) {
        messages[dense] = e.what();
      }
      qInfo("%s: %s", dense ? "dense" : "sparse", messages[dense].c_str());
    }
    QVERIFY2(messages[0].find("no unique static equilibrium: 64 direction(s)") != std::string::npos, messages[0].c_str());
    QCOMPARE(messages[0], messages[1]);
  }

  // 32 loops whose posts lean 0.2 rad, no springs: Newton goes to the
  // nearest equilibrium, every post upright, rung k's centre at (w/2, 0, k h).
  void ladderStatics() {
    const int n = 32;
    const double w = 0.2, h = 0.15;
    mb::MultibodySystem sys(fourBarLadder(n));
    std::vector<double> ys, yps;
    solveBothWays(sys, Analysis::Statics, 0.0, ys, yps);
    double worstCentre = 0.0;
    for (int k = 1; k <= n; ++k) {
      const mb::V3 c = centre(sys, ys, bodyIndex(sys, named("rung", k)));
      worstCentre = std::max(worstCentre, (c - mb::V3(w / 2, 0, k * h)).norm());
    }
    CHECK_WORST(worstCentre, 1e-9);
    checkBalanced(sys, ys);
  }

  // The chain driven at j1 (2 rad/s) with every other joint held (0 rad/s)
  // turns as one rigid line about the pivot: link k's centre at distance
  // (k - 1/2) L, speed (k - 1/2) L w, acceleration (k - 1/2) L w^2 towards
  // the pivot; j1's motion holds the weight's moment, m g L sin(theta) n^2 / 2.
  void chainKinematics() {
    const int n = 64;
    const double L = 0.1, m = 0.2, w = 2.0, t = 0.25;
    Mechanism mech = pendulumChain(n);
    for (int k = 1; k <= n; ++k)
      mech.motions.push_back(velocityMotion(named("m", k), named("j", k), k == 1 ? w : 0.0));
    mb::MultibodySystem sys(mech);
    QCOMPARE(sys.degreesOfFreedom(), 0);
    std::vector<double> ys, yps;
    solveBothWays(sys, Analysis::Kinematics, t, ys, yps);
    double rErr = 0.0, vErr = 0.0, aErr = 0.0;
    for (int k = 1; k <= n; ++k) {
      const int b = bodyIndex(sys, named("link", k)), s = sys.bodies()[b].slot;
      const mb::V3 c = centre(sys, ys, b), v(ys[s + 7], ys[s + 8], ys[s + 9]), a(yps[s + 7], yps[s + 8], yps[s + 9]);
      const double r = (k - 0.5) * L;
      rErr = std::max(rErr, std::abs(c.norm() - r));
      vErr = std::max(vErr, std::abs(v.norm() - r * w));
      aErr = std::max(aErr, (a + w * w * c).norm());
    }
    CHECK_WORST(rErr, 1e-10);
    CHECK_WORST(vErr, 1e-9);
    CHECK_WORST(aErr, 1e-7);
    const mb::V3 tip = centre(sys, ys, bodyIndex(sys, named("link", n)));
    const double sinTheta = std::abs(tip.x()) / tip.norm();
    std::vector<double> row(sys.channels().size());
    sys.outputs(t, ys.data(), yps.data(), row.data());
    CHECK_REL(std::abs(channel(sys, row, "m1.effort")), m * kG * L * sinTheta * n * n / 2.0, 1e-8);
    checkClosed(sys, t, ys);
    checkConsistentAccelerations(sys, t, ys, yps);
  }

  // Every loop driven at its lower left joint (1 rad/s relative to the rung
  // below): the rungs stay horizontal (parallelograms), each loop's posts
  // turn at 1 rad/s absolute, so rung k moves on a circle of radius k h with
  // speed k h w and acceleration k h w^2 towards its start (w/2, 0, 0).
  void ladderKinematics() {
    const int n = 32;
    const double w = 0.2, h = 0.15, rate = 1.0, t = 0.25;
    Mechanism mech = fourBarLadder(n);
    for (int k = 1; k <= n; ++k)
      mech.motions.push_back(velocityMotion(named("m", k), named("jlb", k), rate));
    mb::MultibodySystem sys(mech);
    QCOMPARE(sys.degreesOfFreedom(), 0);
    std::vector<double> ys, yps;
    solveBothWays(sys, Analysis::Kinematics, t, ys, yps);
    double rErr = 0.0, vErr = 0.0, aErr = 0.0;
    for (int k = 1; k <= n; ++k) {
      const int b = bodyIndex(sys, named("rung", k)), s = sys.bodies()[b].slot;
      const mb::V3 c = centre(sys, ys, b) - mb::V3(w / 2, 0, 0), v(ys[s + 7], ys[s + 8], ys[s + 9]),
                   a(yps[s + 7], yps[s + 8], yps[s + 9]);
      rErr = std::max(rErr, std::abs(c.norm() - k * h));
      vErr = std::max(vErr, std::abs(v.norm() - k * h * rate));
      aErr = std::max(aErr, (a + rate * rate * c).norm());
    }
    CHECK_WORST(rErr, 1e-10);
    CHECK_WORST(vErr, 1e-9);
    CHECK_WORST(aErr, 1e-7);
    checkClosed(sys, t, ys);
    checkConsistentAccelerations(sys, t, ys, yps);
  }

  // 0.2 s of the free chain and ladder falling under gravity, once with
  // every decomposition dense: the integrator (sparse KLU in both) sees
  // start accelerations that differ by rounding only, and every output row's
  // accelerations and reactions come from the index-1 solve on each path.
  void dynamicsAgree() {
    for (int kind = 0; kind < 2; ++kind) {
      Project p;
      p.mechanism = kind == 0 ? pendulumChain(64) : fourBarLadder(32);
      settings(p, 0.2, 0.01, {.rel = 1e-10});
      auto sparse = simulate(p);
      REQUIRE_OK(sparse);
      auto dense = simulate(p, "test", {.forceDense = true});
      REQUIRE_OK(dense);
      QCOMPARE(sparse->t.size(), dense->t.size());
      // Per unit, the largest difference relative to the largest value (plus
      // 1e-10 for the zero torques of a planar model): the two runs' steps
      // part with the start's rounding, so they differ at the integrator's
      // tolerance, not the linear algebra's. At rel_tol 1e-10: up to 8e-9 on
      // the chain, 1.1e-7 on the ladder (at 1e-8, with the Jacobian reuse of
      // mechanism runs, the falling chain amplified them to 1.6e-5).
      std::map<std::string, std::pair<double, double>> byUnit;  // unit -> (max |diff|, max |value|)
      for (const auto& c : sparse->out.channels()) {
        const auto a = sparse->col(c.name), b = dense->col(c.name);
        auto& [diff, scale] = byUnit[c.unit];
        for (size_t i = 0; i < a.size(); ++i) {
          diff = std::max(diff, std::abs(a[i] - b[i]));
          scale = std::max(scale, std::abs(b[i]));
        }
      }
      bool agree = true;
      for (const auto& [unit, ds] : byUnit) {
        qInfo("%s: channels in %s differ by %.3g of %.3g", kind == 0 ? "chain" : "ladder", unit.c_str(), ds.first,
              ds.second);
        agree = agree && ds.first <= 1e-6 * ds.second + 1e-10;
      }
      QVERIFY(agree);
      const auto E = sparse->col("mechanism.E_total"), Ep = sparse->col("mechanism.E_potential");
      double drift = 0.0, released = 0.0;
      for (size_t i = 0; i < E.size(); ++i) {
        drift = std::max(drift, std::abs(E[i] - E[0]));
        released = std::max(released, Ep[0] - Ep[i]);
      }
      qInfo("energy drift %.3g J of %.3g J released", drift, released);
      QVERIFY(released > 0.0);
      CHECK_WORST(drift, 1e-5 * released);
    }
  }
};

QTEST_APPLESS_MAIN(TestMechanicsSparse)
#include "test_mechanics_sparse.moc"
