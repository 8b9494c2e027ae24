// The finite-element core of flexible links (issue #22) against closed forms:
// cantilever frequencies (Euler-Bernoulli, with and without a tip mass, from
// the roots of the frequency equation solved here), monotone convergence,
// static tip loads (Euler-Bernoulli and Timoshenko), axial and torsional
// frequencies, the rotating cantilever's Southwell coefficient, damping, and
// the floating-frame inertia invariants (rigid bar at zero deformation,
// kinetic energy by direct quadrature).
#include "mechanics/beam/beam_modes.h"
#include "mechanics/beam/flexible_beam.h"
#include "mechanics/beam/floating_frame.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>

using namespace pm::beam;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double E = 210e9, nu = 0.3, rho = 7850.0, L = 1.0;
const double hy = 0.01, bz = 0.02;  // Iz = Iy / 4: the x-y plane bends first

BeamSpec steelBar(int elements) {
  BeamSpec s;
  s.length = L;
  s.elements = elements;
  s.section = BeamSection::rectangle(hy, bz);
  s.material = BeamMaterial::withPoisson(E, nu, rho);
  return s;
}

double rel(double got, double want) { return std::abs(got - want) / std::abs(want); }

#define CHECK_REL(got, want, tol)                                                                                    \
  QVERIFY2(rel((got), (want)) <= (tol), qPrintable(QString("%1 = %2, expected %3 (rel %4, tol %5)")                 \
                                                       .arg(#got)                                                    \
                                                       .arg((got), 0, 'g', 15)                                       \
                                                       .arg((want), 0, 'g', 15)                                      \
                                                       .arg(rel((got), (want)), 0, 'g', 3)                           \
                                                       .arg((tol))))

// The first `count` roots beta of the cantilever frequency equation with a
// tip mass ratio r = M_tip / (rho A L):
//   1 + cos b cosh b + r b (cos b sinh b - sin b cosh b) = 0,
// divided by cosh b to stay finite; bracketed on a fine scan, then bisected.
std::vector<double> cantileverRoots(double r, int count) {
  auto g = [r](double b) {
    return 1.0 / std::cosh(b) + std::cos(b) + r * b * (std::cos(b) * std::tanh(b) - std::sin(b));
  };
  std::vector<double> roots;
  for (double a = 1e-3; roots.size() < static_cast<size_t>(count); a += 1e-3) {
    double lo = a, hi = a + 1e-3;
    if (g(lo) * g(hi) > 0.0) continue;
    for (int k = 0; k < 200 && hi - lo > 1e-15; ++k) {
      const double m = 0.5 * (lo + hi);
      (g(lo) * g(m) <= 0.0 ? hi : lo) = m;
    }
    roots.push_back(0.5 * (lo + hi));
  }
  return roots;
}

std::vector<double> bendingXY(const FlexibleBeam& b) {
  const SparseMatrix M = b.mass();
  return familyFrequencies(b, M, naturalModes(b.stiffness(), M), Family::BendingXY);
}

}  // namespace

class TestBeamFem : public QObject {
  Q_OBJECT

 private slots:
  // beta_n L = 1.87510, 4.69409, 7.85476: the first three bending
  // frequencies in both planes to 0.1 % with 10 elements, and above the
  // exact ones (consistent mass: upper bounds).
  void cantileverFrequencies() {
    const auto beta = cantileverRoots(0.0, 3);
    const double stated[3] = {1.87510, 4.69409, 7.85476};
    for (int n = 0; n < 3; ++n) QVERIFY(std::abs(beta[n] - stated[n]) < 1e-5);
    const FlexibleBeam b(steelBar(10));
    const SparseMatrix M = b.mass();
    const Modes modes = naturalModes(b.stiffness(), M);
    const auto wv = familyFrequencies(b, M, modes, Family::BendingXY);
    const auto ww = familyFrequencies(b, M, modes, Family::BendingXZ);
    const BeamSection& s = b.spec().section;
    const double mu = rho * s.A;
    for (int n = 0; n < 3; ++n) {
      const double exactV = beta[n] * beta[n] * std::sqrt(E * s.Iz / (mu * std::pow(L, 4)));
      const double exactW = beta[n] * beta[n] * std::sqrt(E * s.Iy / (mu * std::pow(L, 4)));
      qInfo("mode %d: x-y %.6f rad/s (exact %.6f, %+.2e), x-z %.6f (exact %.6f, %+.2e)", n + 1, wv[n], exactV,
            wv[n] / exactV - 1, ww[n], exactW, ww[n] / exactW - 1);
      CHECK_REL(wv[n], exactV, 1e-3);
      CHECK_REL(ww[n], exactW, 1e-3);
      QVERIFY(wv[n] > exactV && ww[n] > exactW);
    }
  }

  // A tip mass of 0.5 and 2 times the beam's: the first three frequencies
  // against the roots of the frequency equation, to 0.1 % with 10 elements.
  void cantileverTipMass() {
    for (double r : {0.5, 2.0}) {
      FlexibleBeam b(steelBar(10));
      const double mu = rho * b.spec().section.A;
      b.addPointMass({10, r * mu * L, Eigen::Vector3d::Zero()});
      const auto beta = cantileverRoots(r, 3);
      const auto w = bendingXY(b);
      for (int n = 0; n < 3; ++n) {
        const double exact = beta[n] * beta[n] * std::sqrt(E * b.spec().section.Iz / (mu * std::pow(L, 4)));
        qInfo("r = %.1f mode %d: beta L = %.6f, %.6f rad/s (exact %.6f, %+.2e)", r, n + 1, beta[n], w[n], exact,
              w[n] / exact - 1);
        CHECK_REL(w[n], exact, 1e-3);
      }
    }
  }

  // The error of each of the first three frequencies falls at every
  // refinement and stays positive.
  void convergenceMonotone() {
    const auto beta = cantileverRoots(0.0, 3);
    const double scale = std::sqrt(E * steelBar(1).section.Iz / (rho * steelBar(1).section.A * std::pow(L, 4)));
    std::vector<double> last(3, std::numeric_limits<double>::infinity());
    for (int n : {2, 3, 4, 5, 6, 8, 10, 12, 16, 20}) {
      const auto w = bendingXY(FlexibleBeam(steelBar(n)));
      for (int k = 0; k < 3; ++k) {
        const double err = w[k] / (beta[k] * beta[k] * scale) - 1.0;
        QVERIFY2(err > 0.0 && err < last[k], qPrintable(QString("n = %1, mode %2: error %3, before %4")
                                                            .arg(n).arg(k + 1).arg(err).arg(last[k])));
        last[k] = err;
      }
    }
  }

  // Tip loads P along y and z: deflection P L^3 / (3 E I) and slope
  // P L^2 / (2 E I) to 1e-6, the moment P (L - x) at every node (root: P L)
  // and the root's outer-fibre stress P L c / I.
  void staticTipLoad() {
    const double P = 100.0;
    const FlexibleBeam b(steelBar(10));
    const BeamSection& s = b.spec().section;
    const Eigen::VectorXd q = b.solveStatic(b.loadVector({{10, {0, P, 0}, {0, 0, 0}}}));
    const auto r = b.nodeResults(q);
    CHECK_REL(r[10].displacement.y(), P * L * L * L / (3 * E * s.Iz), 1e-6);
    CHECK_REL(r[10].rotation.z(), P * L * L / (2 * E * s.Iz), 1e-6);
    CHECK_REL(r[0].resultants[5], P * L, 1e-6);
    for (int j = 0; j < 10; ++j) CHECK_REL(r[j].resultants[5], P * (L - r[j].x), 1e-6);
    QVERIFY(std::abs(r[10].resultants[5]) < 1e-6 * P * L);
    CHECK_REL(r[0].stress, P * L * s.cy / s.Iz, 1e-6);
    const BeamSummary sum = b.summary(q);
    CHECK_REL(sum.tipDeflection, P * L * L * L / (3 * E * s.Iz), 1e-6);
    QCOMPARE(sum.maxStressNode, 0);

    const Eigen::VectorXd qz = b.solveStatic(b.loadVector({{10, {0, 0, P}, {0, 0, 0}}}));
    const auto rz = b.nodeResults(qz);
    CHECK_REL(rz[10].displacement.z(), P * L * L * L / (3 * E * s.Iy), 1e-6);
    CHECK_REL(rz[10].rotation.y(), -P * L * L / (2 * E * s.Iy), 1e-6);  // theta_y = -w'
    CHECK_REL(rz[0].resultants[4], -P * L, 1e-6);
    CHECK_REL(rz[0].stress, P * L * s.cz / s.Iy, 1e-6);
  }

  // Timoshenko: P L^3 / (3 E I) + P L / (kappa G A), exact at the nodes with
  // any number of elements (the interdependent interpolation is exact for
  // end loads); a stubby beam where shear adds about 10 %.
  void timoshenkoTipLoad() {
    for (int n : {1, 4}) {
      BeamSpec spec = steelBar(n);
      spec.length = 0.05;
      spec.section = BeamSection::rectangle(0.02, 0.01);
      spec.timoshenko = true;
      const FlexibleBeam b(spec);
      const BeamSection& s = spec.section;
      const double P = 1000.0, l = spec.length, G = spec.material.G, kappa = s.shearCoefficient(nu);
      const Eigen::VectorXd q = b.solveStatic(b.loadVector({{n, {0, P, 0}, {0, 0, 0}}}));
      const double bending = P * l * l * l / (3 * E * s.Iz), shear = P * l / (kappa * G * s.A);
      qInfo("%d elements: tip %.9e m, bending %.9e + shear %.9e", n, b.nodeResults(q)[n].displacement.y(), bending,
            shear);
      CHECK_REL(b.nodeResults(q)[n].displacement.y(), bending + shear, 1e-9);
      CHECK_REL(b.nodeResults(q)[0].resultants[5], P * l, 1e-9);
      QVERIFY(shear > 0.05 * bending);
      // The x-z plane (theta_y = -w' in the bending part) the same way.
      const Eigen::VectorXd qz = b.solveStatic(b.loadVector({{n, {0, 0, P}, {0, 0, 0}}}));
      CHECK_REL(b.nodeResults(qz)[n].displacement.z(), P * l * l * l / (3 * E * s.Iy) + shear, 1e-9);
      CHECK_REL(b.nodeResults(qz)[0].resultants[4], -P * l, 1e-9);
    }
  }

  // Timoshenko beam (shear and rotary inertia), simply supported in both
  // bending planes (pins at the ends, rotations free): the lower root of
  //   det [kGA k^2 - rho A w^2,  -kGA k;  -kGA k,  E I k^2 + kGA - rho I w^2] = 0,
  // k = n pi / L, for the first three modes to 0.1 % with 40 elements; a
  // beam with L / h = 10, where Euler-Bernoulli is off by 0.9 to 13 %.
  // (Elements this short are shear-dominated, Phi = 12 E I / (kappa G A l^2)
  // ~ 50: mode 3's error falls as l^2, 1.6e-3, 4e-4, 1e-4 at 20, 40, 80.)
  void timoshenkoSimplySupported() {
    const int N = 40;
    BeamSpec spec = steelBar(N);
    spec.length = 0.2;
    spec.section = BeamSection::rectangle(0.02, 0.015);
    spec.timoshenko = true;
    FlexibleBeam b(spec);
    b.setFixed(0, 4, false);  // theta_y free at the root pin
    b.setFixed(0, 5, false);  // theta_z
    b.setFixed(N, 1, true);  // v and w held at the far pin
    b.setFixed(N, 2, true);
    const SparseMatrix M = b.mass();
    const Modes modes = naturalModes(b.stiffness(), M);
    const BeamSection& s = spec.section;
    const double l = spec.length, kGA = s.shearCoefficient(nu) * spec.material.G * s.A;
    for (Family f : {Family::BendingXY, Family::BendingXZ}) {
      const double I = f == Family::BendingXY ? s.Iz : s.Iy;
      const auto w = familyFrequencies(b, M, modes, f);
      for (int n = 1; n <= 3; ++n) {
        const double k = n * kPi / l;
        // a w^4 - b w^2 + c = 0 in w^2.
        const double a = rho * s.A * rho * I;
        const double bb = rho * s.A * (E * I * k * k + kGA) + rho * I * kGA * k * k;
        const double c = kGA * k * k * E * I * k * k;
        const double exact = std::sqrt((bb - std::sqrt(bb * bb - 4 * a * c)) / (2 * a));
        const double eb = k * k * std::sqrt(E * I / (rho * s.A));
        qInfo("plane %d mode %d: %.4f rad/s, Timoshenko %.4f (%+.2e), Euler-Bernoulli %.4f", static_cast<int>(f), n,
              w[n - 1], exact, w[n - 1] / exact - 1, eb);
        CHECK_REL(w[n - 1], exact, 1e-3);
        QVERIFY(eb > 1.005 * exact);
      }
    }
  }

  // Fixed-free rod and shaft: omega_n = (2n - 1) pi / (2 L) sqrt(E / rho)
  // and sqrt(G / rho) (round section: J = Ip). With 10 elements they equal
  // the discrete chain's exact values to 1e-9,
  //   omega^2 = 6 c^2 / h^2 (1 - cos t) / (2 + cos t), t = (2n - 1) pi / (2 N);
  // with 60 elements the continuum's to 0.1 % (error ~ t^2 / 24).
  void axialAndTorsion() {
    for (int N : {10, 60}) {
      BeamSpec spec = steelBar(N);
      spec.section = BeamSection::round(0.02);
      const FlexibleBeam b(spec);
      const SparseMatrix M = b.mass();
      const Modes modes = naturalModes(b.stiffness(), M);
      const auto wa = familyFrequencies(b, M, modes, Family::Axial);
      const auto wt = familyFrequencies(b, M, modes, Family::Torsion);
      const double h = L / N;
      for (int n = 1; n <= 3; ++n) {
        const double t = (2 * n - 1) * kPi / (2 * N);
        const double chain = std::sqrt(6.0 / (h * h) * (1 - std::cos(t)) / (2 + std::cos(t)));
        const double cont = (2 * n - 1) * kPi / (2 * L);
        const double ca = std::sqrt(E / rho), ct = std::sqrt(spec.material.G / rho);
        qInfo("N = %d mode %d: axial %.6f (continuum %.6f), torsion %.6f (continuum %.6f)", N, n, wa[n - 1],
              cont * ca, wt[n - 1], cont * ct);
        if (N == 10) {
          CHECK_REL(wa[n - 1], chain * ca, 1e-9);
          CHECK_REL(wt[n - 1], chain * ct, 1e-9);
        } else {
          CHECK_REL(wa[n - 1], cont * ca, 1e-3);
          CHECK_REL(wt[n - 1], cont * ct, 1e-3);
        }
      }
    }
  }

  // Spinning about z through the root: the flapwise (x-z) first frequency
  // follows omega^2 = omega_0^2 + S Omega^2 with Southwell's S = 1.193 (1 %);
  // the in-plane (x-y) one, softened by the centrifugal field, with S - 1.
  // Omega = 0.1 omega_0 measures the slope. At Omega = omega_0 the formula
  // (a Rayleigh quotient of the still mode) bounds the frequency from above,
  // and is within 1 % of it.
  void rotatingCantilever() {
    const FlexibleBeam b(steelBar(10));
    const SparseMatrix M = b.mass(), K = b.stiffness();
    const Modes still = naturalModes(K, M);
    const double w0 = familyFrequencies(b, M, still, Family::BendingXZ)[0];
    const double v0 = familyFrequencies(b, M, still, Family::BendingXY)[0];
    for (double ratio : {0.1, 1.0}) {
      Spin spin;
      spin.rate = ratio * w0;
      const SparseMatrix Ks = K + b.centrifugalStiffening(spin) - b.centrifugalSoftening(spin);
      const Modes spinning = naturalModes(Ks, M);
      const double w = familyFrequencies(b, M, spinning, Family::BendingXZ)[0];
      const double v = familyFrequencies(b, M, spinning, Family::BendingXY)[0];
      const double O2 = spin.rate * spin.rate;
      const double S = (w * w - w0 * w0) / O2, Sv = (v * v - v0 * v0) / O2;
      qInfo("Omega = %.2f omega_0: flapwise %.6f rad/s, S = %.5f; in-plane S - 1 = %.5f", ratio, w, S, Sv);
      if (ratio < 0.5) {
        CHECK_REL(S, 1.193, 1e-2);
        CHECK_REL(Sv + 1.0, 1.193, 1e-2);
      } else {
        const double southwell = std::sqrt(w0 * w0 + 1.193 * O2);
        QVERIFY(w < southwell);
        CHECK_REL(w, southwell, 1e-2);
      }
    }
    // The axial force with a hub radius r and a tip mass m_t:
    // Omega^2 [mu (r (L - x) + (L^2 - x^2) / 2) + m_t (r + L)].
    FlexibleBeam tipped(steelBar(10));
    tipped.addPointMass({10, 0.4, Eigen::Vector3d::Zero()});
    Spin hub;
    hub.rate = 30.0;
    hub.hubRadius = 0.5 * L;
    const double mu = rho * b.spec().section.A, O2 = hub.rate * hub.rate, x = 0.3 * L;
    CHECK_REL(tipped.centrifugalAxialForce(hub, x),
              O2 * (mu * (0.5 * L * (L - x) + 0.5 * (L * L - x * x)) + 0.4 * (0.5 * L + L)), 1e-12);
    // A tilted axis keeps the share (1 - a_x^2) of it.
    hub.direction = Eigen::Vector3d(1, 0, 1).normalized();
    CHECK_REL(tipped.centrifugalAxialForce(hub, x),
              0.5 * O2 * (mu * (0.5 * L * (L - x) + 0.5 * (L * L - x * x)) + 0.4 * (0.5 * L + L)), 1e-12);
  }

  // Rayleigh: zeta_i = alpha / (2 omega_i) + beta omega_i / 2 for every
  // mode below critical damping (the stiff axial and torsion modes are
  // overdamped: real eigenvalues); the pair fitted to 2 % at modes 1 and 3
  // gives exactly that there; a modal ratio gives every mode its zeta. From
  // the damped eigenvalues: frequencies to 1e-9 relative, ratios to 1e-9
  // absolute.
  void damping() {
    const FlexibleBeam b(steelBar(4));
    const SparseMatrix M = b.mass(), K = b.stiffness();
    const Modes modes = naturalModes(K, M);
    const auto rc = rayleighForRatio(0.02, modes.omega[0], modes.omega[2]);
    BeamDamping rd;
    rd.kind = BeamDamping::Kind::Rayleigh;
    rd.rayleigh = rc;
    const auto ray = dampedModes(Eigen::MatrixXd(K), Eigen::MatrixXd(dampingMatrix(b, rd)), Eigen::MatrixXd(M));
    std::vector<double> under;
    for (double w : modes.omega) {
      const double zeta = rc.alpha / (2 * w) + rc.beta * w / 2;
      if (zeta < 1.0) under.push_back(w);
    }
    qInfo("%zu of %td modes oscillate", under.size(), modes.omega.size());
    QCOMPARE(ray.size(), under.size());
    QVERIFY(under.size() >= 12);
    for (size_t i = 0; i < ray.size(); ++i) {
      const double w = under[i];
      CHECK_REL(ray[i].omega, w, 1e-9);
      QVERIFY(std::abs(ray[i].zeta - (rc.alpha / (2 * w) + rc.beta * w / 2)) <= 1e-9);
    }
    QVERIFY(std::abs(ray[0].zeta - 0.02) <= 1e-9);
    QVERIFY(std::abs(ray[2].zeta - 0.02) <= 1e-9);
    BeamDamping ratio;
    ratio.kind = BeamDamping::Kind::ModalRatio;
    ratio.zeta = 0.03;
    const auto modal = dampedModes(Eigen::MatrixXd(K), Eigen::MatrixXd(dampingMatrix(b, ratio)), Eigen::MatrixXd(M));
    QCOMPARE(static_cast<Eigen::Index>(modal.size()), modes.omega.size());
    for (size_t i = 0; i < modal.size(); ++i) {
      QVERIFY(std::abs(modal[i].zeta - 0.03) <= 1e-9);
      CHECK_REL(modal[i].omega, modes.omega[static_cast<Eigen::Index>(i)], 1e-9);
    }
  }

  // At zero deformation the invariants are the rigid bar's: mass rho A L,
  // centre L / 2, inertia about the centre m (L^2 + b^2) / 12 and
  // m (hy^2 + bz^2) / 12 about the axis; with a tip mass (and its own
  // inertia) added by the parallel-axis theorem. 1e-12 relative.
  void floatingFrameRigidBar() {
    for (bool tip : {false, true}) {
      FlexibleBeam b(steelBar(7));
      const double mb = rho * hy * bz * L, mt = tip ? 0.3 : 0.0;
      const Eigen::Vector3d Jt = tip ? Eigen::Vector3d(1e-4, 2e-4, 3e-4) : Eigen::Vector3d::Zero();
      if (tip) b.addPointMass({7, mt, Jt});
      const FloatingFrameInertia ff(b);
      const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(ff.dofCount());
      const double m = mb + mt, xc = (mb * L / 2 + mt * L) / m;
      CHECK_REL(ff.mass(), m, 1e-12);
      const Eigen::Vector3d c = ff.centreOfMass(q0);
      CHECK_REL(c.x(), xc, 1e-12);
      QVERIFY(std::abs(c.y()) + std::abs(c.z()) < 1e-15);
      // Bar about its own centre, then both moved to the common centre.
      const double dBar = L / 2 - xc, dTip = L - xc;
      Eigen::Matrix3d J = Eigen::Vector3d(mb * (hy * hy + bz * bz) / 12, mb * (L * L + bz * bz) / 12,
                                          mb * (L * L + hy * hy) / 12).asDiagonal();
      J(1, 1) += mb * dBar * dBar + mt * dTip * dTip;
      J(2, 2) += mb * dBar * dBar + mt * dTip * dTip;
      J.diagonal() += Jt;
      const Eigen::Matrix3d got = ff.inertiaAboutCentre(q0);
      qInfo("tip %d: m %.15g, xc %.15g, J %.15g %.15g %.15g", tip, ff.mass(), c.x(), got(0, 0), got(1, 1), got(2, 2));
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          QVERIFY2(std::abs(got(i, j) - J(i, j)) <= 1e-12 * J.norm(),
                   qPrintable(QString("J(%1,%2) = %3, expected %4").arg(i).arg(j).arg(got(i, j)).arg(J(i, j))));
      // The elastic block of the invariants is the assembled mass matrix.
      const Eigen::MatrixXd Mb(b.mass());
      QVERIFY((Eigen::MatrixXd(ff.Mff()) - Mb).norm() <= 1e-13 * Mb.norm());
    }
  }

  // The invariants' kinetic energy 1/2 x^T M(q) x for random frame velocity,
  // angular velocity, deformation and rates equals the energy summed point by
  // point (|v + omega x u + N q'|^2 dm at each Gauss point, plus the tip
  // mass, plus the sections' rotary terms), to 1e-12; likewise the first
  // moment and the inertia. Deformations are exaggerated so the quadratic
  // invariants matter.
  void floatingFrameKineticEnergy() {
    BeamSpec spec = steelBar(5);
    spec.timoshenko = true;  // rotary inertia of the sections in the elastic terms too
    FlexibleBeam b(spec);
    b.addPointMass({5, 0.2, Eigen::Vector3d(1e-4, 2e-4, 3e-4)});
    const FloatingFrameInertia ff(b);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    const int n = b.dofCount();
    Eigen::VectorXd q(n), qd(n);
    for (int i = 0; i < n; ++i) q[i] = 0.05 * U(rng), qd[i] = U(rng);
    const Eigen::Vector3d v(U(rng), U(rng), U(rng)), w(U(rng), U(rng), U(rng));

    const Eigen::VectorXd full = b.expand(q), fulld = b.expand(qd);
    const BeamElement& el = b.element();
    double T = 0.0, m = 0.0;
    Eigen::Vector3d s = Eigen::Vector3d::Zero();
    Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
    auto point = [&](double dm, const Eigen::Vector3d& u, const Eigen::Vector3d& ud, const Eigen::Vector3d& Jf,
                     const Eigen::Vector3d& Je, const Eigen::Vector3d& thd) {
      T += 0.5 * dm * (v + w.cross(u) + ud).squaredNorm();
      T += 0.5 * w.dot(Jf.cwiseProduct(w)) + w.dot(Je.cwiseProduct(thd)) + 0.5 * thd.dot(Je.cwiseProduct(thd));
      m += dm;
      s += dm * u;
      J += dm * (u.squaredNorm() * Eigen::Matrix3d::Identity() - u * u.transpose());
      J.diagonal() += Jf;
    };
    for (int e = 0; e < b.elementCount(); ++e)
      for (int g = 0; g < BeamElement::kGauss; ++g) {
        const double xi = BeamElement::kGaussXi[g], dl = BeamElement::kGaussW[g] * el.length();
        const ElementShape sh = el.shape(xi);
        const auto qe = full.segment<12>(6 * e), qde = fulld.segment<12>(6 * e);
        point(dl * el.lineDensity(), Eigen::Vector3d((e + xi) * el.length(), 0, 0) + sh.N * qe, sh.N * qde,
              dl * el.rotaryInertia(), dl * el.elasticRotaryInertia(), sh.R * qde);
      }
    const PointMass& tip = b.pointMasses()[0];
    point(tip.mass, Eigen::Vector3d(L, 0, 0) + full.segment<3>(30), fulld.segment<3>(30), tip.inertia, tip.inertia,
          fulld.segment<3>(33));

    Eigen::VectorXd x(6 + n);
    x << v, w, qd;
    const double Tff = 0.5 * x.dot(ff.massMatrix(q) * x);
    qInfo("T = %.15g (invariants %.15g)", T, Tff);
    CHECK_REL(Tff, T, 1e-12);
    CHECK_REL(ff.mass(), m, 1e-12);
    QVERIFY((ff.firstMoment(q) - s).norm() <= 1e-12 * s.norm());
    QVERIFY((ff.inertia(q) - J).norm() <= 1e-12 * J.norm());
  }

  // In a steady spin (frame at rest otherwise, q' = 0) the elastic rows of
  // Qv are the centrifugal load plus Omega^2 M_perp q: exactly the softening
  // matrix of the rotating-cantilever test, and at q = 0 the load whose
  // axial sum is the centrifugal axial force at the root (1e-12).
  void spinFromInvariants() {
    FlexibleBeam b(steelBar(6));
    b.addPointMass({6, 0.3, Eigen::Vector3d::Zero()});
    const FloatingFrameInertia ff(b);
    const int n = b.dofCount();
    Spin spin;
    spin.direction = Eigen::Vector3d(0.2, -0.3, 1.0).normalized();
    spin.rate = 40.0;
    const Eigen::Vector3d w = spin.rate * spin.direction, zero = Eigen::Vector3d::Zero();
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    Eigen::VectorXd q(n);
    for (int i = 0; i < n; ++i) q[i] = 1e-3 * U(rng);
    const Eigen::VectorXd Z = Eigen::VectorXd::Zero(n);
    const Eigen::VectorXd Q0 = ff.quadraticVelocity(Z, zero, w, Z).tail(n);
    const Eigen::VectorXd dQ = ff.quadraticVelocity(q, zero, w, Z).tail(n) - Q0;
    const Eigen::VectorXd soft = b.centrifugalSoftening(spin) * q;
    QVERIFY2((dQ - soft).norm() <= 1e-12 * soft.norm(),
             qPrintable(QString("%1 vs %2").arg(dQ.norm()).arg(soft.norm())));
    // The free nodes carry all of it but the root node's share of the first
    // element, mu Omega_perp^2 h^2 / 6.
    double axial = 0.0;
    for (int j = 1; j < b.nodeCount(); ++j) axial += Q0[b.dofIndex(j, 0)];
    const double h = L / 6, perp2 = spin.rate * spin.rate * (1 - spin.direction.x() * spin.direction.x());
    CHECK_REL(axial, b.centrifugalAxialForce(spin, 0.0) - rho * hy * bz * perp2 * h * h / 6, 1e-12);
  }

  // A free-floating flexible beam (no external force) integrated by RK4 from
  // the equations M(q) x' = Qv(q, x) - [0; 0; K q] with R' = A v, A' = A w~:
  // energy T + q^T K q / 2, linear momentum A p and angular momentum about
  // the world origin R x A p + A h stay constant to 1e-6 relative over 1 s
  // while the beam spins, translates and vibrates (a soft beam; step
  // 1 / (16 omega_max); the drift falls as the step shrinks: 1.4e-4, 1.5e-6,
  // 1.5e-7 at 2000, 4000, 8000 steps). A wrong term in Qv would not conserve
  // at any step.
  void floatingFrameConservation() {
    BeamSpec spec = steelBar(3);
    spec.material = BeamMaterial::withPoisson(2e7, nu, rho);
    spec.section = BeamSection::rectangle(0.02, 0.04);
    spec.timoshenko = true;
    FlexibleBeam b(spec);
    b.addPointMass({3, 1.0, Eigen::Vector3d(1e-3, 2e-3, 3e-3)});
    const FloatingFrameInertia ff(b);
    const Eigen::MatrixXd K(b.stiffness());
    const int n = b.dofCount();
    // State: R (3), A (9, column-major), x = (v, w, qd), q.
    const int N = 18 + 2 * n;
    auto parts = [n](const Eigen::VectorXd& y) {
      struct P {
        Eigen::Vector3d R;
        Eigen::Matrix3d A;
        Eigen::VectorXd x, q;
      } p{y.head<3>(), Eigen::Map<const Eigen::Matrix3d>(y.data() + 3), y.segment(12, 6 + n), y.segment(18 + n, n)};
      return p;
    };
    auto rate = [&](const Eigen::VectorXd& y) {
      const auto p = parts(y);
      const Eigen::Vector3d v = p.x.head<3>(), w = p.x.segment<3>(3);
      const Eigen::VectorXd qd = p.x.tail(n);
      Eigen::VectorXd Q = ff.quadraticVelocity(p.q, v, w, qd);
      Q.tail(n) -= K * p.q;
      Eigen::Matrix3d wt;
      wt << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
      Eigen::VectorXd d(N);
      d.head<3>() = p.A * v;
      Eigen::Map<Eigen::Matrix3d>(d.data() + 3) = p.A * wt;
      d.segment(12, 6 + n) = ff.massMatrix(p.q).ldlt().solve(Q);
      d.segment(18 + n, n) = qd;
      return d;
    };
    struct Invariants {
      double energy;
      Eigen::Vector3d momentum, angular;
    };
    auto invariants = [&](const Eigen::VectorXd& y) {
      const auto p = parts(y);
      const Eigen::MatrixXd M = ff.massMatrix(p.q);
      const Eigen::VectorXd mom = M * p.x;  // (p, h, pi)
      return Invariants{0.5 * p.x.dot(mom) + 0.5 * p.q.dot(K * p.q), p.A * mom.head<3>(),
                        p.R.cross(p.A * mom.head<3>()) + p.A * mom.segment<3>(3)};
    };
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(N);
    y.head<3>() << 0.3, -0.2, 0.1;
    Eigen::Map<Eigen::Matrix3d>(y.data() + 3) =
        Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
    y.segment<6>(12) << 0.1, 0.2, -0.1, 0.2, -0.1, 0.3;
    // A tip deflection and rate in both planes: bending, not the stiff axial
    // and twist modes (their fast content would set the step).
    for (int c : {1, 2}) {
      y[18 + n + b.dofIndex(3, c)] = 0.02 * U(rng);
      y[18 + b.dofIndex(3, c)] = 0.05 * U(rng);
    }
    const Invariants start = invariants(y);
    // The fastest mode of the free beam (frame free: its mass matrix is M(0)).
    Eigen::MatrixXd Kf = Eigen::MatrixXd::Zero(6 + n, 6 + n);
    Kf.bottomRightCorner(n, n) = K;
    const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> free(Kf, ff.massMatrix(Eigen::VectorXd::Zero(n)),
                                                                         Eigen::EigenvaluesOnly);
    const double wMax = std::sqrt(free.eigenvalues().maxCoeff());
    const int steps = static_cast<int>(std::ceil(16.0 * wMax));
    const double dt = 1.0 / steps;
    qInfo("fastest mode %.4g rad/s: %d steps", wMax, steps);
    double travel = 0.0;
    for (int k = 0; k < steps; ++k) {
      const Eigen::VectorXd k1 = rate(y), k2 = rate(y + 0.5 * dt * k1), k3 = rate(y + 0.5 * dt * k2),
                            k4 = rate(y + dt * k3);
      const Eigen::VectorXd step = dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
      travel += step.segment(18 + n, n).norm();
      y += step;
    }
    const Invariants end = invariants(y);
    qInfo("energy %.12g -> %.12g J, |momentum| %.12g -> %.12g, |angular| %.12g -> %.12g; elastic path %.3g",
          start.energy, end.energy, start.momentum.norm(), end.momentum.norm(), start.angular.norm(),
          end.angular.norm(), travel);
    CHECK_REL(end.energy, start.energy, 1e-6);
    QVERIFY((end.momentum - start.momentum).norm() <= 1e-6 * start.momentum.norm());
    QVERIFY((end.angular - start.angular).norm() <= 1e-6 * start.angular.norm());
    QVERIFY(travel > 1.0);  // the beam did deform
  }

  // Section properties: the square's torsion constant 0.140577 a^4 and the
  // 2:1 rectangle's 0.228682 a b^3 (Saint-Venant series, tabulated values to
  // 1e-5 relative), Cowper's shear coefficients (rectangle
  // 10 (1 + nu) / (12 + 11 nu); a thin tube tends to 2 (1 + nu) / (4 + 3 nu)),
  // a tube's J = 2 I, and the round section's outer-fibre stress with moments
  // about both axes, sqrt(My^2 + Mz^2) c / I + N / A.
  void sections() {
    const double a = 0.03;
    CHECK_REL(BeamSection::rectangle(a, a).J, 0.140577 * std::pow(a, 4), 1e-5);
    CHECK_REL(BeamSection::rectangle(2 * a, a).J, 0.228682 * 2 * a * a * a * a, 1e-5);
    CHECK_REL(BeamSection::rectangle(a, 2 * a).J, 0.228682 * 2 * a * a * a * a, 1e-5);
    CHECK_REL(BeamSection::rectangle(a, a).shearCoefficient(nu), 10 * (1 + nu) / (12 + 11 * nu), 1e-15);
    CHECK_REL(BeamSection::tube(0.1, 0.0999).shearCoefficient(nu), 2 * (1 + nu) / (4 + 3 * nu), 1e-5);
    const BeamSection t = BeamSection::tube(0.05, 0.04);
    CHECK_REL(t.Iy, kPi * (std::pow(0.05, 4) - std::pow(0.04, 4)) / 64, 1e-15);
    CHECK_REL(t.J, 2 * t.Iz, 1e-15);
    const BeamSection r = BeamSection::round(0.02);
    CHECK_REL(r.outerFibreStress(100.0, 3.0, 4.0), 100.0 / r.A + 5.0 * 0.01 / r.Iz, 1e-15);
    const BeamSection d = BeamSection::direct(1e-4, 2e-9, 1e-9, 1e-9);
    QVERIFY(std::isnan(d.outerFibreStress(1.0, 1.0, 1.0)));  // no outer-fibre distances given
  }

  // Bad input is refused with the field named.
  void refusesBadInput() {
    auto refused = [](const std::function<void()>& f, const char* field) {
      try {
        f();
      } catch (const std::invalid_argument& e) {
        return QString(e.what()).contains(field);
      }
      return false;
    };
    QVERIFY(refused([] { BeamSpec s = steelBar(4); s.length = 0; FlexibleBeam b(s); }, "length"));
    QVERIFY(refused([] { BeamSpec s = steelBar(0); FlexibleBeam b(s); }, "elements"));
    QVERIFY(refused([] { BeamMaterial::withPoisson(E, 0.6, rho); }, "nu"));
    QVERIFY(refused([] { BeamSpec s = steelBar(4); s.material.density = -1; FlexibleBeam b(s); }, "density"));
    QVERIFY(refused([] { BeamSection::tube(0.02, 0.03); }, "inner diameter"));
    QVERIFY(refused([] { BeamSection::direct(1e-4, 0, 1e-9, 1e-9); }, "Iy"));
  }
};

QTEST_GUILESS_MAIN(TestBeamFem)
#include "test_beam_fem.moc"
