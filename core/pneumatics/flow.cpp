#include "pneumatics/flow.h"

#include "pneumatics/gas.h"

#include <algorithm>
#include <cmath>

namespace pm::flow {

namespace {
// Quadratic a u + c u^2 with value phiL and slope D (in u) at u = ul.
double laminar(double u, double ul, double phiL, double D) {
  const double c = (D * ul - phiL) / (ul * ul);
  const double a = D - 2.0 * c * ul;
  return a * u + c * u * u;
}

// isoPhi's body, inline in iso6358 (a call between exported functions of a
// shared library is not inlined otherwise).
inline double phi(double pr, double b, double m) {
  pr = std::clamp(pr, 0.0, 1.0);
  if (pr <= b) return 1.0;
  auto subsonic = [&](double r) {
    const double s = (r - b) / (1.0 - b);
    const double base = std::max(0.0, 1.0 - s * s);
    return m == 0.5 ? std::sqrt(base) : std::pow(base, m);  // sqrt: the classic law, cheaper than pow
  };
  if (pr <= kLaminarRatio) return subsonic(pr);
  // Laminar zone: quadratic in u = 1 - pr through 0 at u = 0, matching value
  // and slope of the subsonic branch at pr = 0.999 (C1, see flow.h).
  const double ul = 1.0 - kLaminarRatio, h = 1e-7;
  const double phiL = subsonic(kLaminarRatio);
  const double D = (subsonic(kLaminarRatio - h) - phiL) / h;  // -dphi/dpr at 0.999 (> 0)
  return laminar(1.0 - pr, ul, phiL, D);
}
}  // namespace

double isoPhi(double pr, double b, double m) { return phi(pr, b, m); }

double iso6358(double C, double b, double m, double pa, double Ta, double pb, double Tb) {
  if (C <= 0.0) return 0.0;
  const bool forward = pa >= pb;
  const double pu = forward ? pa : pb, Tu = forward ? Ta : Tb, pd = forward ? pb : pa;
  if (pu <= 0.0 || Tu <= 0.0) return 0.0;
  const double q = C * pu * gas::rho0 * std::sqrt(gas::T0 / Tu) * phi(pd / pu, b, m);
  return forward ? q : -q;
}

static double orificePhi(double pr) {
  constexpr double k = gas::kappa;
  const double crit = std::pow(2.0 / (k + 1.0), k / (k - 1.0));
  auto sub = [&](double r) {
    // Eq. (3) written relative to the choked value of eq. (2).
    const double psi = std::sqrt(2.0 * k / (k - 1.0) * (std::pow(r, 2.0 / k) - std::pow(r, (k + 1.0) / k)));
    return psi;
  };
  pr = std::clamp(pr, 0.0, 1.0);
  const double psiCrit = sub(crit);
  if (pr <= crit) return psiCrit;
  if (pr <= kLaminarRatio) return sub(pr);
  const double ul = 1.0 - kLaminarRatio, h = 1e-7;
  const double phiL = sub(kLaminarRatio);
  return laminar(1.0 - pr, ul, phiL, (sub(kLaminarRatio - h) - phiL) / h);
}

double orifice(double Ae, double pa, double Ta, double pb, double Tb) {
  if (Ae <= 0.0) return 0.0;
  const bool forward = pa >= pb;
  const double pu = forward ? pa : pb, Tu = forward ? Ta : Tb, pd = forward ? pb : pa;
  if (pu <= 0.0 || Tu <= 0.0) return 0.0;
  const double q = Ae * pu / std::sqrt(gas::R * Tu) * orificePhi(pd / pu);
  return forward ? q : -q;
}

double poppet(double C, double b, double m, double pCrack, double dpOpen, double p1, double T1, double p2, double T2,
              double& lift) {
  lift = smoothstep((p1 - p2 - pCrack) / dpOpen);
  return lift > 0.0 ? iso6358(lift * C, b, m, p1, T1, p2, T2) : 0.0;
}

double smoothstep(double s) {
  if (s <= 0.0) return 0.0;
  if (s >= 1.0) return 1.0;
  return s * s * (3.0 - 2.0 * s);
}

}  // namespace pm::flow
