// Mass flow through restrictions, valid in both directions.
//
// ISO 6358-1:2013: q = C p1 rho0 sqrt(T0/T1) * phi(p2/p1), with
//   phi = 1                                  for pr <= b      (choked)
//   phi = [1 - ((pr - b)/(1 - b))^2]^m       for b < pr <= 0.999
//   phi = a u + c u^2, u = 1 - pr             for pr > 0.999 (laminar zone)
// ISO 6358-1:2013 makes the laminar zone linear in (1 - pr); we use the
// quadratic through zero that also matches the slope of the subsonic branch at
// 0.999, so the flow is C1 everywhere: continuous with a finite slope through
// zero pressure difference, and no kink at 0.999 (a kink there made IDA's
// Newton iterations fail repeatedly while a chamber vents to ambient). Inside
// the zone the quadratic lies up to ~0.005 (in phi) above the linear law,
// where phi itself is below 0.054 for b = 0.3; outside the zone (pressure
// difference > 0.1 %) both are the standard's subsonic formula.
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

// Spring-loaded poppet (check valve, relief valve, the check path of a flow
// control): lift s = smoothstep((p1 - p2 - p_crack) / dp_open), C1 so the
// Jacobian has no jump at the cracking point; flow iso6358(s C, b, m) from 1
// to 2 only (s = 0 whenever p1 - p2 <= p_crack). Returns the flow, writes s.
double poppet(double C, double b, double m, double pCrack, double dpOpen, double p1, double T1, double p2, double T2,
              double& lift);

// Smooth 0..1 step: 0 for s <= 0, 1 for s >= 1, C1 in between.
double smoothstep(double s);

}  // namespace pm::flow
