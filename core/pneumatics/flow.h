// Mass flow through restrictions, valid in both directions.
//
// ISO 6358-1:2013: q = C p1 rho0 sqrt(T0/T1) * phi(p2/p1), with
//   phi = 1                                  for pr <= b      (choked)
//   phi = [1 - ((pr - b)/(1 - b))^2]^m       for b < pr <= 0.999
//   phi = (1 - pr)/0.001 * phi(0.999)        for pr > 0.999 (laminar, as the
//                                            2013 standard writes it)
// The laminar branch is also our regularisation: the flow is continuous with a
// finite slope through zero pressure difference, so Newton iterations stay
// well conditioned and reverse flow joins smoothly.
//
// Orifice (seed 003 eqs. 2-3, Saint-Venant): effective area Ae, critical ratio
// (2/(k+1))^(k/(k-1)) = 0.528, with the same laminar branch above pr = 0.999.
#pragma once

namespace pm::flow {

constexpr double kLaminarRatio = 0.999;

// Normalised flow function phi(pr) of ISO 6358 for 0 <= pr <= 1.
double isoPhi(double pr, double b, double m);

// Mass flow [kg/s] from side a to side b (negative when b is upstream).
double iso6358(double C, double b, double m, double pa, double Ta, double pb, double Tb);

// Mass flow [kg/s] from a to b through an effective area Ae [m2].
double orifice(double Ae, double pa, double Ta, double pb, double Tb);

// Smooth 0..1 step: 0 for s <= 0, 1 for s >= 1, C1 in between.
double smoothstep(double s);

}  // namespace pm::flow
