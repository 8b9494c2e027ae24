// Flow functions against hand formulas (core/pneumatics/flow.h).
//
// ISO 6358-1:2013: q = C p1 rho0 sqrt(T0/T1) phi(p2/p1) with
//   phi = 1                              pr <= b        (choked)
//   phi = [1 - ((pr - b)/(1 - b))^2]^m   b < pr <= 0.999
//   phi = a u + c u^2, u = 1 - pr        pr > 0.999     (laminar zone)
// The laminar zone (flow.h): ISO 6358-1:2013 writes it linear in u; flow.cpp
// uses the quadratic through 0 at u = 0 that matches value AND slope of the
// subsonic branch at u_l = 0.001 (C1). The hand version below uses the exact
// derivative of the subsonic branch; flow.cpp takes a forward difference with
// h = 1e-7, which differs from it by 2.5e-5 relative (b = 0.3, m = 0.5), i.e.
// at most ~1e-5 relative in the laminar flow: tolerance 3e-5 there.
// Orifice (seed 003 eqs. 2-3, Saint-Venant):
//   choked    q = Ae p1 sqrt(k/(R T1)) (2/(k+1))^((k+1)/(2(k-1)))
//   subsonic  q = Ae p1/sqrt(R T1) sqrt(2k/(k-1) (pr^(2/k) - pr^((k+1)/k)))
//
// Every expected value below is written out independently of flow.cpp (only the
// gas constants of gas.h are shared). Tolerances: the code evaluates the same
// closed forms, so agreement is to rounding: relative 1e-12 unless stated.
#include "pneumatics/flow.h"
#include "pneumatics/gas.h"

#include <QtTest/QtTest>

#include <cmath>
#include <numbers>

using namespace pm;

namespace {

constexpr double kRel = 1e-12;  // closed form vs closed form: rounding only

bool near(double a, double b, double rel, double abs = 0.0) {
  return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)) + abs;
}

#define CHECK_NEAR(a, b, rel)                                                                   \
  QVERIFY2(near((a), (b), (rel)), qPrintable(QString("%1 = %2, expected %3 = %4 (rel tol %5)") \
                                                 .arg(#a)                                       \
                                                 .arg((a), 0, 'g', 17)                          \
                                                 .arg(#b)                                       \
                                                 .arg((b), 0, 'g', 17)                          \
                                                 .arg((rel), 0, 'g', 3)))

// Hand formula of the ISO 6358 subsonic branch.
double handPhi(double pr, double b, double m) {
  const double s = (pr - b) / (1.0 - b);
  return std::pow(1.0 - s * s, m);
}

// Exact -dphi/dpr of the subsonic branch: 2 m s (1 - s^2)^(m-1) / (1 - b).
double handPhiSlope(double pr, double b, double m) {
  const double s = (pr - b) / (1.0 - b);
  return 2.0 * m * s * std::pow(1.0 - s * s, m - 1.0) / (1.0 - b);
}

// Quadratic a u + c u^2 with phi(ul) = phiL, dphi/du(ul) = D.
double handLaminar(double u, double phiL, double D) {
  const double ul = 0.001;
  const double c = (D * ul - phiL) / (ul * ul);
  const double a = D - 2.0 * c * ul;
  return a * u + c * u * u;
}
double handIsoLaminar(double pr, double b, double m) {
  return handLaminar(1.0 - pr, handPhi(0.999, b, m), handPhiSlope(0.999, b, m));
}
// Full ISO 6358 phi by hand.
double handIso(double pr, double b, double m) {
  return pr <= b ? 1.0 : pr <= 0.999 ? handPhi(pr, b, m) : handIsoLaminar(pr, b, m);
}

constexpr double kLamTol = 3e-5;  // forward-difference slope in flow.cpp, see top

double handIsoChoked(double C, double p1, double T1) { return C * p1 * 1.185 * std::sqrt(293.15 / T1); }

constexpr double k = 1.4, R = 287.05;
double handOrificeChoked(double Ae, double p1, double T1) {
  return Ae * p1 * std::sqrt(k / (R * T1)) * std::pow(2.0 / (k + 1.0), (k + 1.0) / (2.0 * (k - 1.0)));
}
double psi(double pr) { return std::sqrt(2.0 * k / (k - 1.0) * (std::pow(pr, 2.0 / k) - std::pow(pr, (k + 1.0) / k))); }
double handOrificeSub(double Ae, double p1, double T1, double pr) { return Ae * p1 / std::sqrt(R * T1) * psi(pr); }
// Laminar zone of the orifice: the same C1 quadratic on psi; -dpsi/dpr exact.
double handOrificeLaminar(double Ae, double p1, double T1, double pr) {
  const double r = 0.999;
  const double dpsi = k / (k - 1.0) * (2.0 / k * std::pow(r, 2.0 / k - 1.0) - (k + 1.0) / k * std::pow(r, 1.0 / k)) / psi(r);
  return Ae * p1 / std::sqrt(R * T1) * handLaminar(1.0 - pr, psi(r), -dpsi);
}

}  // namespace

class TestFlowFunctions : public QObject {
  Q_OBJECT

  static double isoQ(double C, double b, double m, double p1, double pr) {
    return flow::iso6358(C, b, m, p1, 293.15, pr * p1, 293.15);
  }

 private slots:
  void constants() {
    // The reference values the whole library is built on (ISO 6358 / ISO 8778).
    QCOMPARE(gas::rho0, 1.185);
    QCOMPARE(gas::T0, 293.15);
    QCOMPARE(gas::R, 287.05);
    QCOMPARE(gas::kappa, 1.4);
  }

  void isoChoked() {
    // C = 1 dm3/(s bar), 6 bar abs upstream, 1 bar downstream: pr = 0.1667 < b.
    const double C = 1e-8, b = 0.3, m = 0.5;
    const double q = flow::iso6358(C, b, m, 6e5, 293.15, 1e5, 293.15);
    CHECK_NEAR(q, 1e-8 * 6e5 * 1.185, kRel);  // 7.11e-3 kg/s, sqrt(T0/T1) = 1
    // Hot upstream air: the sqrt(T0/T1) factor, 350 K.
    const double qHot = flow::iso6358(C, b, m, 6e5, 350.0, 1e5, 293.15);
    CHECK_NEAR(qHot, handIsoChoked(C, 6e5, 350.0), kRel);
    CHECK_NEAR(qHot, 7.11e-3 * std::sqrt(293.15 / 350.0), kRel);
    // Downstream temperature does not matter.
    CHECK_NEAR(flow::iso6358(C, b, m, 6e5, 293.15, 1e5, 500.0), 7.11e-3, kRel);
    // Choked flow does not depend on the downstream pressure: pr = 0 .. b.
    for (double pr : {0.0, 0.05, 0.2, 0.3})
      CHECK_NEAR(flow::iso6358(C, b, m, 6e5, 293.15, pr * 6e5, 293.15), 7.11e-3, kRel);
    // Exactly at b the subsonic formula also gives 1: continuity.
    CHECK_NEAR(flow::isoPhi(0.3 * (1 + 1e-12), b, m), 1.0, 1e-12);
    // Linear in C and in p1 at fixed ratio.
    CHECK_NEAR(flow::iso6358(3e-8, b, m, 12e5, 293.15, 2e5, 293.15), 6.0 * 7.11e-3, kRel);
  }

  void isoSubsonic() {
    const double C = 2e-8, p1 = 5e5, T1 = 293.15;
    struct Case { double b, m, pr; };
    for (const Case& c : {Case{0.3, 0.5, 0.6}, Case{0.3, 0.5, 0.9}, Case{0.45, 0.62, 0.7},
                          Case{0.2, 0.35, 0.998}, Case{0.0, 0.5, 0.5}}) {
      const double expected = handIsoChoked(C, p1, T1) * handPhi(c.pr, c.b, c.m);
      const double q = flow::iso6358(C, c.b, c.m, p1, T1, c.pr * p1, T1);
      CHECK_NEAR(q, expected, kRel);
    }
    // One number written out: b = 0.3, m = 0.5, pr = 0.6:
    // phi = sqrt(1 - (0.3/0.7)^2) = sqrt(40/49) = 0.9035079..., q = 2e-8 * 5e5 * 1.185 * phi.
    CHECK_NEAR(flow::iso6358(C, 0.3, 0.5, p1, T1, 3e5, T1), 1.185e-2 * std::sqrt(40.0 / 49.0), kRel);
    // Flow falls monotonically from b to 1.
    double prev = 1e9;
    for (double pr = 0.3; pr <= 1.0; pr += 0.01) {
      const double q = flow::iso6358(C, 0.3, 0.5, p1, T1, pr * p1, T1);
      QVERIFY2(q <= prev, qPrintable(QString("not monotonic at pr = %1").arg(pr)));
      prev = q;
    }
  }

  void isoLaminar() {
    const double C = 1e-8, b = 0.3, m = 0.5, p1 = 4e5, T1 = 293.15;
    const double q0 = handIsoChoked(C, p1, T1);
    // At pr = 0.999 (b = 0.3, m = 1/2) by hand in exact fractions: s = 0.699/0.7
    // = 699/700, 1 - s^2 = 1399/700^2, so phi = sqrt(1399)/700 = 0.0534332 and
    // -dphi/dpr = s / (0.7 sqrt(1 - s^2)) = 6990/(7 sqrt(1399)) = 26.6975.
    const double r1399 = std::sqrt(1399.0);
    const double phi999 = r1399 / 700.0, D = 6990.0 / (7.0 * r1399);
    // The code's phi at the zone's edge against that fraction (1 - s^2 loses
    // 2.5 digits to cancellation: rel 1e-12 still holds).
    CHECK_NEAR(flow::isoPhi(0.999, b, m), phi999, kRel);
    // The hand quadratic inside the zone (rel 3e-5, see top).
    for (double pr : {0.9991, 0.9995, 0.9999, 0.99999})
      CHECK_NEAR(flow::iso6358(C, b, m, p1, T1, pr * p1, T1), q0 * handIsoLaminar(pr, b, m), kLamTol);
    // b = 0.45, m = 0.62 as well.
    CHECK_NEAR(flow::iso6358(C, 0.45, 0.62, p1, T1, 0.9996 * p1, T1), q0 * handIsoLaminar(0.9996, 0.45, 0.62), kLamTol);
    // Continuity of the value at 0.999: the slopes are ~27 (in phi per unit pr)
    // on both sides, so a step of 1e-12 in pr moves q by < 1e-10 q0; a jump
    // would be >> that. Tolerance 1e-9 q0.
    const double q999 = flow::iso6358(C, b, m, p1, T1, 0.999 * p1, T1);
    CHECK_NEAR(q999, q0 * phi999, kRel);
    const double below = flow::iso6358(C, b, m, p1, T1, (0.999 - 1e-12) * p1, T1);
    const double above = flow::iso6358(C, b, m, p1, T1, (0.999 + 1e-12) * p1, T1);
    QVERIFY2(std::abs(below - above) < 1e-9 * q0,
             qPrintable(QString("jump at 0.999: %1 vs %2").arg(below, 0, 'g', 17).arg(above, 0, 'g', 17)));
    // Continuity of the slope at 0.999 (C1): one-sided differences over 1e-7 in
    // pr on each side; their truncation error (curvature 2.7e4 and ~1.3e4) is
    // < 2e-3 of D = 26.7. The ISO linear law would give 53.4 on the right: a kink of 100 %.
    const double dpr = 1e-7;
    const double sLeft = (isoQ(C, b, m, p1, 0.999 - dpr) - q999) / (dpr * q0);
    const double sRight = (q999 - isoQ(C, b, m, p1, 0.999 + dpr)) / (dpr * q0);
    CHECK_NEAR(sLeft, D, 2e-3);
    CHECK_NEAR(sRight, D, 2e-3);
    // Finite slope through zero pressure difference: dphi/du at u = 0 is
    // a = 2 phi999/0.001 - D = (2798000 - 699000)/(700 sqrt(1399))
    // = 20990/(7 sqrt(1399)) = 80.169 (the ISO linear law: 53.4). The secant
    // between the 1 Pa and 2 Pa points (u1 = 2.5e-6, u2 = 5e-6) is
    // a + c (u1 + u2), c = (D 0.001 - phi999)/0.001^2 = (699 - 1399) 1e6/(700 sqrt(1399))
    // = -1e6/sqrt(1399) = -26736; rel 1e-4 (the forward-difference D of
    // flow.cpp moves a by 8e-6 relative).
    const double a = 20990.0 / (7.0 * r1399), c = -1e6 / r1399;
    const double h = 1.0;  // Pa
    const double slope = (flow::iso6358(C, b, m, p1, T1, p1 - h, T1) - flow::iso6358(C, b, m, p1, T1, p1 - 2 * h, T1)) / h;
    CHECK_NEAR(slope, -q0 * (a + c * 3.0 * h / p1) / p1, 1e-4);
    // Inside the zone the quadratic lies above the standard's linear law by at most
    // (a - phi999/0.001)^2 / (4 |c|) = 6.68e-3 in phi, at u = 0.0005 (abs 2e-5 in phi).
    const double lin = phi999 * 0.5;
    const double quad = isoQ(C, b, m, p1, 0.9995) / q0;
    QVERIFY2(std::abs((quad - lin) - 6.684e-3) < 2e-5, qPrintable(QString("quad - linear = %1").arg(quad - lin)));
  }

  void isoZeroAtEqualPressure() {
    QCOMPARE(flow::iso6358(1e-8, 0.3, 0.5, 5e5, 293.15, 5e5, 293.15), 0.0);
    QCOMPARE(flow::iso6358(1e-8, 0.3, 0.5, 5e5, 293.15, 5e5, 400.0), 0.0);
    QCOMPARE(flow::orifice(1e-6, 5e5, 293.15, 5e5, 293.15), 0.0);
    // Closed restriction.
    QCOMPARE(flow::iso6358(0.0, 0.3, 0.5, 6e5, 293.15, 1e5, 293.15), 0.0);
  }

  void isoReverse() {
    const double C = 1e-8, b = 0.3, m = 0.5;
    const double Ta = 280.0, Tb = 330.0;
    for (double pr : {0.1, 0.3, 0.6, 0.95, 0.9995}) {
      const double pb = 6e5, pa = pr * pb;  // b is upstream
      const double q = flow::iso6358(C, b, m, pa, Ta, pb, Tb);
      // Upstream (side b) temperature and pressure are used.
      CHECK_NEAR(q, -handIsoChoked(C, pb, Tb) * handIso(pr, b, m), pr > 0.999 ? kLamTol : 1e-9);
      // Antisymmetry under swapping the sides (with their temperatures): exact.
      QCOMPARE(q, -flow::iso6358(C, b, m, pb, Tb, pa, Ta));
      QVERIFY(q < 0.0);
    }
    // Using the downstream temperature would be off by sqrt(330/280) = 8.6 %:
    // make sure the wrong answer is distinguishable.
    const double q = flow::iso6358(C, b, m, 1e5, Ta, 6e5, Tb);
    QVERIFY(std::abs(q + handIsoChoked(C, 6e5, Ta)) > 0.05 * std::abs(q));
  }

  void orificeChoked() {
    const double Ae = 0.8 * std::numbers::pi * 1e-6 / 4.0;  // d = 1 mm, Cd = 0.8
    for (double T1 : {293.15, 350.0}) {
      const double expected = handOrificeChoked(Ae, 6e5, T1);
      for (double pr : {0.0, 0.1, 0.3, 0.5, 0.528})
        CHECK_NEAR(flow::orifice(Ae, 6e5, T1, pr * 6e5, 293.15), expected, kRel);
    }
    // Another formulation of choked flow: the throat holds air at
    // T* = T1 2/(k+1) and rho* = rho1 (2/(k+1))^(1/(k-1)) moving at the speed
    // of sound sqrt(k R T*), so q = Ae rho* sqrt(k R T*).
    const double T1 = 293.15, rho1 = 6e5 / (R * T1);
    const double rhoStar = rho1 * std::pow(1.0 / 1.2, 2.5), aStar = std::sqrt(k * R * T1 / 1.2);
    const double q = flow::orifice(Ae, 6e5, T1, 1e5, T1);
    CHECK_NEAR(q, Ae * rhoStar * aStar, kRel);
    // Number written out: q = coef Ae p1 / sqrt(T1) with k = 1.4, R = 287.05:
    // coef = sqrt(k/R) (2/2.4)^3 = 0.0698369465 * 0.5787037037 = 0.0404148996 (rel 1e-9).
    CHECK_NEAR(q * std::sqrt(T1) / (Ae * 6e5), 0.0404148996, 1e-9);
  }

  void orificeSubsonicAndContinuity() {
    const double Ae = 5e-7, p1 = 5e5, T1 = 293.15;
    const double crit = std::pow(2.0 / 2.4, 1.4 / 0.4);
    // Where the code's flow stops being choked, against the hand number
    // (5/6)^3.5 = 0.5282817877: at 0.528281 it is the choked flow to the bit,
    // at 0.5283 below it (by 7.3e-10 relative: psi is flat at its maximum).
    const double qChoked = flow::orifice(Ae, p1, T1, 0.0, T1);
    QCOMPARE(flow::orifice(Ae, p1, T1, 0.528281 * p1, T1), qChoked);
    const double justAbove = flow::orifice(Ae, p1, T1, 0.5283 * p1, T1) / qChoked - 1.0;
    QVERIFY2(justAbove < -3e-10 && justAbove > -3e-9, qPrintable(QString("q(0.5283)/q* - 1 = %1").arg(justAbove)));
    // The subsonic branch at pr = 0.95^7 (so that pr^(1/k) = 0.95^5): psi
    // = sqrt(7 (0.95^10 - 0.95^12)) = sqrt(7 0.95^10 (1 - 0.95^2)) = 0.639248,
    // integer powers only, a different formulation from flow.cpp's.
    const double pr7 = std::pow(0.95, 7);
    CHECK_NEAR(flow::orifice(Ae, p1, T1, pr7 * p1, T1),
               Ae * p1 / std::sqrt(R * T1) * std::sqrt(7.0 * std::pow(0.95, 10) * (1.0 - 0.95 * 0.95)), 1e-12);
    // Subsonic branch against the hand formula.
    for (double pr : {0.55, 0.7, 0.9, 0.99, 0.999})
      CHECK_NEAR(flow::orifice(Ae, p1, T1, pr * p1, T1), handOrificeSub(Ae, p1, T1, pr), 1e-12);
    // Continuity at the critical ratio: the code does not jump across it, and
    // its subsonic branch just above crit gives the choked flow of the throat
    // formulation (rho* a* Ae, see orificeChoked). The subsonic branch has
    // zero slope at crit (maximum of psi), so the jump is O(eps^2): tol 1e-12.
    const double rhoStar = p1 / (R * T1) * std::pow(1.0 / 1.2, 2.5), aStar = std::sqrt(k * R * T1 / 1.2);
    const double below = flow::orifice(Ae, p1, T1, crit * (1 - 1e-9) * p1, T1);
    const double above = flow::orifice(Ae, p1, T1, crit * (1 + 1e-9) * p1, T1);
    CHECK_NEAR(below, above, 1e-12);
    CHECK_NEAR(above, handOrificeChoked(Ae, p1, T1), 1e-12);
    CHECK_NEAR(above, Ae * rhoStar * aStar, 1e-12);
    // Laminar branch above 0.999 and antisymmetry with upstream temperature.
    const double q9995 = flow::orifice(Ae, p1, T1, 0.9995 * p1, T1);
    CHECK_NEAR(q9995, handOrificeLaminar(Ae, p1, T1, 0.9995), kLamTol);
    CHECK_NEAR(flow::orifice(Ae, p1, T1, 0.9999 * p1, T1), handOrificeLaminar(Ae, p1, T1, 0.9999), kLamTol);
    QCOMPARE(flow::orifice(Ae, p1, T1, p1 * (1 + 1e-17), T1), 0.0);
    // Value continuity at 0.999 (1e-9 relative, slope ~ 1.7 in psi per unit pr).
    CHECK_NEAR(flow::orifice(Ae, p1, T1, (0.999 - 1e-12) * p1, T1), flow::orifice(Ae, p1, T1, (0.999 + 1e-12) * p1, T1), 1e-9);
    const double qRev = flow::orifice(Ae, 2e5, 280.0, 6e5, 340.0);
    CHECK_NEAR(qRev, -handOrificeSub(Ae, 6e5, 340.0, 2e5 / 6e5 < crit ? crit : 2e5 / 6e5), kRel);
    QCOMPARE(qRev, -flow::orifice(Ae, 6e5, 340.0, 2e5, 280.0));
  }

  void smoothstep() {
    QCOMPARE(flow::smoothstep(-1.0), 0.0);
    QCOMPARE(flow::smoothstep(0.0), 0.0);
    QCOMPARE(flow::smoothstep(0.5), 0.5);
    QCOMPARE(flow::smoothstep(1.0), 1.0);
    QCOMPARE(flow::smoothstep(2.0), 1.0);
    CHECK_NEAR(flow::smoothstep(0.25), 0.25 * 0.25 * 2.5, kRel);
  }
};

QTEST_APPLESS_MAIN(TestFlowFunctions)
#include "test_flow_functions.moc"
