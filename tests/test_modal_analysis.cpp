// Modal analysis of the coupled machine (issue #22, analyses/modal_analysis.h)
// against closed forms:
//  - a cantilever of node bodies and beam segments: its first bending
//    frequencies in both planes against the discrete model (lumped masses,
//    the assembled element stiffness, solved here) and against the
//    continuous beam's 1.87510^2 sqrt(E I / (mu L^4)) / (2 pi), with the
//    lumped masses' discretisation error stated;
//  - the same cantilever pulled along its axis by a dead load T: the
//    frequency rises, against the root of the tensioned beam's frequency
//    equation (geometric stiffening);
//  - a mass on two closed cylinder chambers: the air spring
//    k = kappa p (A_A^2 / V_A + A_B^2 / V_B) adiabatic, p (...) isothermal;
//  - a pendulum linearised at its start angle: omega^2 = m g l cos(theta0) / J;
//    about its static equilibrium (--static): m g l / J;
//  - the example flexible_swing_arm: its first bending mode in the swing plane.
#include "analyses/modal_analysis.h"
#include "mechanics/beam/beam_bodies.h"
#include "mechanics/beam/beam_modes.h"
#include "build/project_input.h"
#include "model/project_error.h"
#include "pneumatics/gas.h"
#include "support/mechanism_builders.h"
#include "support/steel_beam.h"
#include "support/test_project.h"

#include <QtTest>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

using namespace pm;
using namespace pm::test;

namespace {

constexpr double kPi = std::numbers::pi;

double amplitude(const Mode& m, const std::string& channel) {
  for (const auto& c : m.channels)
    if (c.channel == channel) return c.amplitude;
  return 0.0;
}

// The lowest oscillating mode in which `channel` moves more than `other`.
const Mode* lowestMoving(const ModalResult& r, const std::string& channel, const std::string& other) {
  for (const Mode& m : r.modes)
    if (m.oscillating && amplitude(m, channel) > amplitude(m, other)) return &m;
  return nullptr;
}

// Clamped-free beam under an axial dead load T at its tip:
// EI w'''' - T w'' - mu omega^2 w = 0, w(0) = w'(0) = 0, w''(L) = 0,
// EI w'''(L) - T w'(L) = 0. The frequency equation's determinant.
double tensionedDeterminant(double omega, double EI, double T) {
  const double h = T / (2 * EI), r = std::sqrt(h * h + kMu * omega * omega / EI);
  const double a = std::sqrt(h + r), b = std::sqrt(r - h), L = kL;
  // w = C1 (cosh ax - cos bx) + C2 (sinh ax - (a/b) sin bx)
  const double ch = std::cosh(a * L), sh = std::sinh(a * L), c = std::cos(b * L), s = std::sin(b * L);
  const double m11 = a * a * ch + b * b * c, m12 = a * a * sh + a * b * s;
  const double d1 = a * sh + b * s, d2 = a * ch - a * c;  // w'(L) of each
  const double t1 = a * a * a * sh - b * b * b * s, t2 = a * a * a * ch + a * b * b * c;  // w'''(L)
  const double m21 = EI * t1 - T * d1, m22 = EI * t2 - T * d2;
  return m11 * m22 - m12 * m21;
}

// Its first root by bracketing from below the untensioned frequency.
double tensionedFirstFrequency(double EI, double T) {
  const double w0 = kBeta1 * kBeta1 * std::sqrt(EI / (kMu * std::pow(kL, 4)));
  double lo = 0.5 * w0, hi = lo;
  const double sLo = tensionedDeterminant(lo, EI, T) > 0;
  while ((tensionedDeterminant(hi, EI, T) > 0) == sLo) hi *= 1.01;
  lo = hi / 1.01;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if ((tensionedDeterminant(mid, EI, T) > 0) == sLo) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi) / (2 * kPi);
}

// The sparse solver's lowest `count` modes against the dense solver's (the
// same linearisation: the coloured and the column-by-column difference
// quotients are equal to the bit, test_modal_linearisation; frequencies and
// damping through lambda, to 1e-8 of |lambda|, or of the shift's 1 rad/s for
// a mode at rest: what parts them is the eigensolvers' rounding on modes of
// condition number 1e8-1e9, up to ~6e-9 of |lambda|, mostly the dense one's).
void compareSolvers(const Project& p, ModalOptions o, int count) {
  o.solver = ModalSolver::Dense;
  const ModalResult rd = runModalAnalysis(p, "dense", o);
  o.solver = ModalSolver::Sparse;
  o.modes = count;
  const ModalResult rs = runModalAnalysis(p, "sparse", o);
  QCOMPARE(rd.solver, std::string("dense"));
  QCOMPARE(rs.solver, std::string("sparse"));
  const size_t k = std::min<size_t>(count, rd.modes.size());
  QCOMPARE(rs.modes.size(), k);
  double worst = 0.0;
  for (size_t i = 0; i < k; ++i) {
    const auto ld = rd.modes[i].lambda, ls = rs.modes[i].lambda;
    const double err = std::abs(ls - ld) / std::max(std::abs(ld), 1.0);
    worst = std::max(worst, err);
    QVERIFY2(err <= 1e-8, qPrintable(QString("mode %1: dense %2%3i, sparse %4%5i")
                                         .arg(i + 1)
                                         .arg(ld.real(), 0, 'g', 12)
                                         .arg(ld.imag(), 0, 'g', 12)
                                         .arg(ls.real(), 0, 'g', 12)
                                         .arg(ls.imag(), 0, 'g', 12)));
    QCOMPARE(rs.modes[i].oscillating, rd.modes[i].oscillating);
  }
  qInfo("%zu states, %zu modes compared (dense finds %zu, Krylov dimension %d): largest difference %.3g of |lambda|",
        rd.states.size(), k, rd.modes.size(), rs.krylovDimension, worst);
}

}  // namespace

class TestModalAnalysis : public QObject {
  Q_OBJECT

 private slots:
  // The cantilever at rest (t = 0). The modal analysis linearises the
  // engine's own equations, so it must find the discrete model's frequency
  // to the difference quotients' accuracy (tolerance 1e-6; measured below).
  // Against the continuous beam the lumped masses are low by about 2 / n^2
  // of the frequency's square: measured 0.47 % at 10 elements, 0.12 % at 20
  // (tolerances 0.6 % and 0.15 %), both planes.
  void cantileverBending() {
    for (auto [n, tolClosed] : {std::pair{10, 6e-3}, std::pair{20, 1.5e-3}}) {
      const FlexibleBodyDef d = steelBeam(n);
      const ModalResult r = runModalAnalysis(mechProject(cantilever(d), 0.1, 0.01, 1e-8), "cantilever", {});
      for (auto [plane, I, ch, other] : {std::tuple{1, kIz, "beam.tip_v", "beam.tip_w"},
                                         std::tuple{2, kIy, "beam.tip_w", "beam.tip_v"}}) {
        const Mode* m = lowestMoving(r, ch, other);
        QVERIFY2(m, ch);
        const double closed = kBeta1 * kBeta1 * std::sqrt(kE * I / (kMu * std::pow(kL, 4))) / (2 * kPi);
        const double fd = discreteFrequency(d, plane);
        qInfo("n = %d, %s: modal %.9f Hz, discrete model %.9f Hz, closed form %.6f Hz (%.3f %%)", n, ch,
              m->naturalFrequency, fd, closed, 100 * (m->naturalFrequency / closed - 1));
        CHECK_REL(m->naturalFrequency, fd, 1e-6);
        QVERIFY(m->naturalFrequency < closed);
        CHECK_REL(m->naturalFrequency, closed, tolClosed);
        QVERIFY(std::abs(m->dampingRatio) < 1e-6);  // no damping given
        QCOMPARE(m->shares.front().object, std::string("beam"));
      }
    }
  }

  // Stiffness-proportional damping beta: zeta = beta omega / 2 for every
  // mode, the natural frequency unchanged.
  void beamDampingRatio() {
    const double beta = 2e-4;
    const FlexibleBodyDef d = steelBeam(10, beta);
    const ModalResult r = runModalAnalysis(mechProject(cantilever(d), 0.1, 0.01, 1e-8), "damped", {});
    const Mode* m = lowestMoving(r, "beam.tip_v", "beam.tip_w");
    QVERIFY(m);
    CHECK_REL(m->naturalFrequency, discreteFrequency(d, 1), 1e-6);
    CHECK_REL(m->dampingRatio, beta * 2 * kPi * m->naturalFrequency / 2, 1e-5);
  }

  // Geometric stiffening: a dead load T along the beam's axis at its tip,
  // T L^2 / (E I) = 1, 2 and 4. The run goes to t = 0.05 s first so that
  // the beam is stretched (the axial mode, zeta ~ 0.8 with beta = 2e-4,
  // has settled) and its elements carry T. The frequency's rise against
  // the tensioned beam's closed form, as a ratio to the untensioned one
  // (the lumped masses' error mostly cancels); tolerance from the
  // measurement with 20 elements: 2.5e-4, 3.9e-4, 5.7e-4 (tolerance 1e-3).
  void axialTensionStiffens() {
    const int n = 20;
    const double EI = kE * kIz;
    double f0 = 0.0;
    for (double load : {0.0, 1.0, 2.0, 4.0}) {
      const double T = load * EI / (kL * kL);
      Mechanism m = cantilever(steelBeam(n, 2e-4));
      if (T > 0) {
        ForceDef f = force("pull", "vforce", "beam.tip", "", {{"fx", T}});
        m.forces.push_back(f);
      }
      ModalOptions o;
      o.at = 0.05;
      const ModalResult r = runModalAnalysis(mechProject(m, 0.1, 0.01, 1e-8), "pulled", o);
      const Mode* mode = lowestMoving(r, "beam.tip_v", "beam.tip_w");
      QVERIFY(mode);
      const double f = mode->naturalFrequency;
      if (T == 0) {
        f0 = f;
        continue;
      }
      const double closed = tensionedFirstFrequency(EI, T), closed0 = tensionedFirstFrequency(EI, 0.0);
      qInfo("T L^2/EI = %g: modal %.6f Hz (x%.6f), closed form %.6f Hz (x%.6f)", load, f, f / f0, closed,
            closed / closed0);
      QVERIFY(f > f0 * (1 + 0.5 * (closed / closed0 - 1)));  // it does stiffen
      CHECK_REL(f / f0, closed / closed0, 1e-3);
    }
  }

  // A 2 kg piston between two closed chambers at 3 bar, mid-stroke, no
  // friction, adiabatic walls: k = kappa p (A_A^2 / V_A + A_B^2 / V_B); with
  // isothermal chambers, p (...). The mode's energy is the cylinder's.
  void airSpring() {
    for (double iso : {0.0, 1.0}) {
      Project p;
      settings(p, 0.1, 0.01);
      const double bore = 0.032, rod = 0.012, stroke = 0.1, x0 = 0.05, V0 = 5e-6, p0 = 3e5, mass = 2.0;
      p.components.push_back(comp("cyl", "cylinder_double",
                                  {{"bore", bore}, {"rod", rod}, {"stroke", stroke}, {"x0", x0}, {"mass", mass},
                                   {"F_coulomb", 0.0}, {"F_static", 0.0}, {"c_viscous", 0.0}, {"pA0", p0},
                                   {"pB0", p0}, {"V0_A", V0}, {"V0_B", V0}, {"isothermal", iso}}));
      const ModalResult r = runModalAnalysis(p, "air spring", {});
      const double AA = kPi * bore * bore / 4, AB = AA - kPi * rod * rod / 4;
      const double VA = V0 + AA * x0, VB = V0 + AB * (stroke - x0);
      const double k = (iso > 0 ? 1.0 : gas::kappa) * p0 * (AA * AA / VA + AB * AB / VB);
      const double want = std::sqrt(k / mass) / (2 * kPi);
      const Mode* m = nullptr;
      for (const Mode& x : r.modes)
        if (x.oscillating) m = m ? m : &x;
      QVERIFY(m);
      qInfo("%s: %.9f Hz, closed form %.9f Hz", iso > 0 ? "isothermal" : "adiabatic", m->naturalFrequency, want);
      CHECK_REL(m->naturalFrequency, want, 1e-6);
      QVERIFY(std::abs(m->dampingRatio) < 1e-6);
      QVERIFY(amplitude(*m, "cyl.x") > 0);
      QVERIFY(amplitude(*m, "cyl.A.p") > 0 && amplitude(*m, "cyl.B.p") > 0);
    }
  }

  // The pendulum example (0.5 m, 1 kg point mass with 1e-4 kg m^2 of its
  // own, released 0.2 rad out) linearised at its start: the gravity
  // stiffness there is m g l cos(theta0) about the pin.
  void pendulumAtItsStart() {
    const Project pr = loadProject(projectPath("pendulum.pneumech.json"));
    const ModalResult r = runModalAnalysis(pr, "pendulum", {});
    int oscillating = 0;
    const Mode* m = nullptr;
    for (const Mode& x : r.modes)
      if (x.oscillating) ++oscillating, m = m ? m : &x;
    QCOMPARE(oscillating, 1);
    const auto& bob = pr.mechanism.parts[1];
    const double l = std::hypot(bob.position[0], bob.position[2]), c = -bob.position[2] / l;
    const double J = bob.mass * l * l + 1e-4;
    CHECK_REL(m->naturalFrequency, std::sqrt(bob.mass * 9.80665 * l * c / J) / (2 * kPi), 1e-6);
  }

  // The same pendulum about its static equilibrium (--static): hanging
  // straight down, m g l / J whatever the start angle, and the operating
  // point is that pose (the bob's x at 0; Newton's residual 1e-11 of the
  // scaled rows: 1e-9 m). The start is linearised at cos(0.2) = 0.98 of it,
  // so the test tells the two apart.
  void pendulumAtStaticEquilibrium() {
    const Project pr = loadProject(projectPath("pendulum.pneumech.json"));
    ModalOptions o;
    o.staticEquilibrium = true;
    const ModalResult r = runModalAnalysis(pr, "pendulum", o);
    QVERIFY(r.staticEquilibrium);
    const Mode* m = nullptr;
    for (const Mode& x : r.modes)
      if (x.oscillating && !m) m = &x;
    QVERIFY(m);
    const auto& bob = pr.mechanism.parts[1];
    const double l = std::hypot(bob.position[0], bob.position[2]);
    const double J = bob.mass * l * l + 1e-4;
    CHECK_REL(m->naturalFrequency, std::sqrt(bob.mass * 9.80665 * l / J) / (2 * kPi), 1e-6);
    QVERIFY(std::abs(m->dampingRatio) < 1e-6);
    // The bob's centre of mass straight under the pivot (at the origin).
    int found = 0;
    for (size_t i = 0; i < r.states.size(); ++i) {
      if (r.states[i] == "mechanism.bob.rx") {
        ++found;
        QVERIFY2(std::abs(r.y[i]) < 1e-9, qPrintable(QString::number(r.y[i])));
      }
      if (r.states[i] == "mechanism.bob.rz") {
        ++found;
        QVERIFY2(std::abs(r.y[i] + l) < 1e-9, qPrintable(QString::number(r.y[i])));
      }
    }
    QCOMPARE(found, 2);
  }

  // A motion driven at a constant rate has no static equilibrium: refused.
  void noStaticEquilibrium() {
    Mechanism m;
    m.gravity = {0, 0, 0};
    m.parts.push_back(ground({mk("o", {0, 0, 0})}));
    m.parts.push_back(part("wheel", 1.0, {1e-2, 1e-2, 1e-2, 0, 0, 0}, {0, 0, 0}, {mk("o", {0, 0, 0})}));
    m.joints.push_back(joint("pin", "revolute", "wheel.o", "ground.o"));
    MotionDef mo;
    mo.id = "drive";
    mo.joint = "pin";
    mo.quantity = "velocity";
    mo.params = {{"value", 3.0}};
    m.motions.push_back(mo);
    ModalOptions o;
    o.staticEquilibrium = true;
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, runModalAnalysis(mechProject(m, 0.1, 0.01, 1e-8), "x", o));
  }

  // The example: its arm resting against the cylinder's end stop at 1.5 s.
  // The lowest mode that moves the tip in the swing plane is the arm's.
  void swingArmExample() {
    const Project pr = loadProject(projectPath("flexible_swing_arm.pneumech.json"));
    ModalOptions o;
    o.at = 1.5;
    const ModalResult r = runModalAnalysis(pr, "flexible_swing_arm", o);
    const Mode* m = lowestMoving(r, "arm.tip_v", "arm.tip_w");
    QVERIFY(m);
    qInfo("swing plane: %.6f Hz, zeta %.4f", m->naturalFrequency, m->dampingRatio);
    QCOMPARE(m->shares.front().object, std::string("arm"));
  }

  // The sparse solver (shift-invert Arnoldi on the sparse linearisation)
  // finds the dense solver's lowest modes on the models above: the
  // cantilever (both planes, with damping), the air spring, the pendulum at
  // its start and at its static equilibrium (the sparse Newton), the swing
  // arm at its end stop (chambers and beam coupled).
  void sparseAgreesWithDense() {
    compareSolvers(mechProject(cantilever(steelBeam(10)), 0.1, 0.01, 1e-8), {}, 10);
    compareSolvers(mechProject(cantilever(steelBeam(10, 2e-4)), 0.1, 0.01, 1e-8), {}, 6);
    const Project pendulum = loadProject(projectPath("pendulum.pneumech.json"));
    compareSolvers(pendulum, {}, 4);
    ModalOptions still;
    still.staticEquilibrium = true;
    compareSolvers(pendulum, still, 4);
    ModalOptions late;
    late.at = 1.5;
    compareSolvers(loadProject(projectPath("flexible_swing_arm.pneumech.json")), late, 10);
  }

  // A fine cantilever, 120 elements: about 1,600 states, where the default
  // is the sparse solver. Its lowest bending frequencies in both planes
  // against the discrete model (lumped node masses, the assembled element
  // stiffness: tolerance 1e-6 as in cantileverBending) and against the
  // Euler-Bernoulli closed forms beta_n^2 sqrt(E I / (mu L^4)) / (2 pi),
  // beta_n L = 1.87510, 4.69409, 7.85476. The discrete model is low by the
  // lumped masses' error, about 0.13 (beta_n L / n)^2 of the frequency
  // (0.47 % at n = 10 for the first mode), and by the nodes' rotary inertia
  // (a Rayleigh beam), about (beta_n r)^2 / 2 with r^2 = I / A; the tolerance
  // is 1.5 times their sum.
  void fineCantileverSparse() {
    const int n = 120;
    const FlexibleBodyDef d = steelBeam(n);
    const Project p = mechProject(cantilever(d), 0.1, 0.01, 1e-8);
    ModalOptions o;
    o.modes = 10;
    const ModalResult r = runModalAnalysis(p, "fine cantilever", o);
    QCOMPARE(r.solver, std::string("sparse"));
    QVERIFY(r.states.size() > 1200);
    QCOMPARE(r.modes.size(), size_t(10));
    const double betas[] = {1.87510407, 4.69409113, 7.85475744};
    for (auto [plane, I, ch, other] : {std::tuple{1, kIz, "beam.tip_v", "beam.tip_w"},
                                       std::tuple{2, kIy, "beam.tip_w", "beam.tip_v"}}) {
      std::vector<const Mode*> bending;
      for (const Mode& m : r.modes)
        if (m.oscillating && amplitude(m, ch) > amplitude(m, other)) bending.push_back(&m);
      QVERIFY2(bending.size() >= 3, ch);
      const std::vector<double> discrete = discreteFrequencies(d, plane);
      const double rg2 = I / (kHy * kBz);
      for (int k = 0; k < 3; ++k) {
        const double f = bending[k]->naturalFrequency, bl = betas[k];
        const double closed = bl * bl * std::sqrt(kE * I / (kMu * std::pow(kL, 4))) / (2 * kPi);
        const double expected = 0.13 * std::pow(bl / n, 2) + 0.5 * bl * bl * rg2 / (kL * kL);
        qInfo("%s mode %d: %.9f Hz, discrete model %.9f Hz, closed form %.6f Hz (%.4f %%, expected about -%.4f %%)",
              ch, k + 1, f, discrete[k], closed, 100 * (f / closed - 1), 100 * expected);
        CHECK_REL(f, discrete[k], 1e-6);
        QVERIFY(f < closed);
        CHECK_REL(f, closed, 1.5 * expected);
      }
    }
    // Asked by frequency instead: every mode below 200 Hz, no more.
    ModalOptions below;
    below.maxOmega = 2 * kPi * 200.0;
    const ModalResult rb = runModalAnalysis(p, "fine cantilever", below);
    const auto under = std::count_if(r.modes.begin(), r.modes.end(), [](const Mode& m) { return m.naturalFrequency < 200.0; });
    QVERIFY(under >= 4 && under < 10);
    QCOMPARE(static_cast<long>(rb.modes.size()), static_cast<long>(under));
    for (long i = 0; i < under; ++i) CHECK_REL(rb.modes[i].naturalFrequency, r.modes[i].naturalFrequency, 1e-9);
  }

  // Zero modes (analyses/zero_modes.h): a free-free beam, 20 elements, no
  // gravity, has exactly six (three translations, three rotations), each a
  // zero eigenvalue that rounding may split into +-mu; none of them may be
  // listed as oscillating. Its first bending frequencies in both planes
  // against the discrete model (lumped masses, tolerance 1e-6 as above) and
  // the free-free closed form beta_1 L = 4.73004 (the lumped masses' error
  // measured: 0.85 % and 0.79 % low with 20 elements; tolerance 1 %). The
  // sparse solver finds the same frequency.
  void zeroModesOfAFreeFreeBeam() {
    const int n = 20;
    FlexibleBodyDef d = steelBeam(n);
    Mechanism m;
    m.gravity = {0, 0, 0};
    m.parts.push_back(ground({mk("o", {0, 0, 0})}));
    m.flexible_bodies.push_back(d);
    const Project p = mechProject(m, 0.1, 0.01, 1e-8);
    for (ModalSolver solver : {ModalSolver::Dense, ModalSolver::Sparse}) {
      ModalOptions o;
      o.solver = solver;
      o.modes = solver == ModalSolver::Sparse ? 12 : 0;
      const ModalResult r = runModalAnalysis(p, "free beam", o);
      for (const auto& note : r.notes) qInfo("%s: %s", r.solver.c_str(), note.c_str());
      // The dense solver's six lowest eigenvalues (3e-4 to 8e-4 i 1/s) each
      // hold no null direction of their own (rounding mixes the six rigid
      // motions' Jordan chains), the six together hold six (zero_modes.h).
      QCOMPARE(r.zeroModes, 6);
      for (int k = 0; k < r.zeroModes; ++k) QVERIFY(r.modes[size_t(k)].zero && !r.modes[size_t(k)].oscillating);
      for (auto [plane, I, ch, other] : {std::tuple{1, kIz, "beam.tip_v", "beam.tip_w"},
                                         std::tuple{2, kIy, "beam.tip_w", "beam.tip_v"}}) {
        const Mode* mode = lowestMoving(r, ch, other);
        QVERIFY2(mode, ch);
        const double closed = 4.73004074 * 4.73004074 * std::sqrt(kE * I / (kMu * std::pow(kL, 4))) / (2 * kPi);
        const double discrete = freeFreeFrequencies(d, plane).front();
        qInfo("%s: %.9f Hz, discrete model %.9f Hz, closed form %.6f Hz (%.3f %%)", ch, mode->naturalFrequency,
              discrete, closed, 100 * (mode->naturalFrequency / closed - 1));
        CHECK_REL(mode->naturalFrequency, discrete, 1e-6);
        CHECK_REL(mode->naturalFrequency, closed, 1e-2);
      }
    }
  }

  // A slow oscillation among the split rigid modes: the free-free beam of
  // zeroModesOfAFreeFreeBeam next to the pendulum example's bob under a
  // gravity so weak that it swings at omega = 5e-4 rad/s, inside the range
  // over which the beam's six rigid modes are split (3e-4 to 8e-4 1/s,
  // measured above). The zero modes are the beam's six and the pin's
  // winding, not the swing, which keeps its closed form
  // omega^2 = m g l cos(theta0) / J to 1e-4.
  void slowModeAmongSplitRigidOnes() {
    const Project pendulum = loadProject(projectPath("pendulum.pneumech.json"));
    Mechanism m = pendulum.mechanism;
    m.flexible_bodies.push_back(steelBeam(20));
    const auto& bob = m.parts[1];
    const double l = std::hypot(bob.position[0], bob.position[2]), c = -bob.position[2] / l;
    const double J = bob.mass * l * l + 1e-4, omega = 5e-4;
    const double g = omega * omega * J / (bob.mass * l * c);
    m.gravity = {0, 0, -g};
    ModalOptions o;
    o.solver = ModalSolver::Dense;
    const ModalResult r = runModalAnalysis(mechProject(m, 0.1, 0.01, 1e-8), "beam and slow pendulum", o);
    for (const auto& note : r.notes) qInfo("%s", note.c_str());
    QCOMPARE(r.zeroModes, 7);
    const Mode* swing = nullptr;
    for (const Mode& x : r.modes)
      if (x.oscillating && !swing) swing = &x;
    QVERIFY(swing);
    qInfo("swing: %.9g rad/s, closed form %.9g rad/s", 2 * kPi * swing->naturalFrequency, omega);
    CHECK_REL(2 * kPi * swing->naturalFrequency, omega, 1e-4);
    // The pendulum's alone (its pin's angle and rate, the bob), no beam.
    for (const auto& s : swing->shares) QVERIFY2(s.object == "pin" || s.object == "bob", s.object.c_str());
  }

  // The pendulum example without gravity turns freely: two zero modes (the
  // rotation about the pin, and the pin's winding count, an integrator of
  // its rate) and no oscillating one. With gravity 1e-5 m/s^2 it swings at
  // sqrt(m g l cos(theta0) / J) / 2 pi = 6.6e-4 Hz: an oscillation that
  // slow is a mode, not a zero one (only the winding is), found to the
  // linearisation's accuracy there (1e-4).
  void zeroModesOfAFreePendulum() {
    Project pr = loadProject(projectPath("pendulum.pneumech.json"));
    pr.mechanism.gravity = {0, 0, 0};
    const ModalResult r = runModalAnalysis(pr, "free pendulum", {});
    QCOMPARE(r.zeroModes, 2);
    QVERIFY(std::none_of(r.modes.begin(), r.modes.end(), [](const Mode& m) { return m.oscillating; }));
    const double g = 1e-5;
    pr.mechanism.gravity = {0, 0, -g};
    const ModalResult slow = runModalAnalysis(pr, "slow pendulum", {});
    QCOMPARE(slow.zeroModes, 1);
    const Mode* m = nullptr;
    for (const Mode& x : slow.modes)
      if (x.oscillating && !m) m = &x;
    QVERIFY(m);
    const auto& bob = pr.mechanism.parts[1];
    const double l = std::hypot(bob.position[0], bob.position[2]), c = -bob.position[2] / l;
    const double want = std::sqrt(bob.mass * g * l * c / (bob.mass * l * l + 1e-4)) / (2 * kPi);
    qInfo("slow pendulum: %.9g Hz, closed form %.9g Hz", m->naturalFrequency, want);
    CHECK_REL(m->naturalFrequency, want, 1e-4);
  }

  // Seed 001's flexible link on its free hub at rest: two zero modes (the
  // link's rotation about the hub, the hub's winding), none oscillating
  // below 1e-3 Hz (before, the rotation was listed at 1.5e-5 Hz), and the
  // first bending mode as before (0.732153 Hz, the studio's table).
  void seed001RigidRotationIsAZeroMode() {
    const ModalResult r = runModalAnalysis(loadProject(projectPath("seed001_flexible_link.pneumech.json")), "seed001", {});
    QCOMPARE(r.zeroModes, 2);
    const Mode* first = nullptr;
    for (const Mode& x : r.modes) {
      QVERIFY2(!x.oscillating || x.frequency > 1e-3, qPrintable(QString::number(x.frequency)));
      if (x.oscillating && !first) first = &x;
    }
    QVERIFY(first);
    CHECK_REL(first->frequency, 0.732153, 1e-6);
    QCOMPARE(first->shares.front().object, std::string("link"));
  }

  void badOperatingPoint() {
    ModalOptions o;
    o.at = -1;
    QVERIFY_THROWS_EXCEPTION(ProjectError, runModalAnalysis(mechProject(cantilever(steelBeam(2)), 0.1, 0.01, 1e-8), "x", o));
  }
};

QTEST_GUILESS_MAIN(TestModalAnalysis)
#include "test_modal_analysis.moc"
