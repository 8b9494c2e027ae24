// Air as an ideal gas, and the standard reference conditions of ISO 6358 /
// ISO 8778 (ANR). Everything in SI.
#pragma once

namespace pm::gas {

constexpr double R = 287.05;        // J/(kg K), dry air
constexpr double kappa = 1.4;       // cp/cv
constexpr double cv = R / (kappa - 1.0);
constexpr double cp = kappa * cv;
constexpr double rho0 = 1.185;      // kg/m3, ISO 6358 / ISO 8778 reference density
constexpr double T0 = 293.15;       // K, ISO 6358 reference temperature
constexpr double p_anr = 100000.0;  // Pa, ISO 8778 reference pressure

// Standard-litre conversion: mass flow [kg/s] -> Nl/min (ANR).
constexpr double kgPerSToNlPerMin(double q) { return q / rho0 * 1000.0 * 60.0; }

}  // namespace pm::gas
