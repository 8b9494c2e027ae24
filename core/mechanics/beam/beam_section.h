// Cross-section and material of a flexible beam (issue #22). Local axes: x
// along the beam from root to tip, y and z the section's principal axes.
// Iz = integral of y^2 dA governs bending in the x-y plane (displacement v,
// rotation theta_z), Iy = integral of z^2 dA bending in the x-z plane (w,
// theta_y). SI: m, m^2, m^4, Pa, kg/m^3.
#pragma once

#include <string>

namespace pm::beam {

struct BeamMaterial {
  double E = 0.0;        // Young's modulus
  double G = 0.0;        // shear modulus
  double density = 0.0;  // kg/m^3

  static BeamMaterial withG(double E, double G, double density);
  static BeamMaterial withPoisson(double E, double nu, double density);  // G = E / (2 (1 + nu))
  double poisson() const { return E / (2.0 * G) - 1.0; }
};

struct BeamSection {
  enum class Shape { Rectangle, Round, Tube, Direct };
  Shape shape = Shape::Direct;
  double A = 0.0;   // area
  double Iy = 0.0;  // integral z^2 dA
  double Iz = 0.0;  // integral y^2 dA
  double J = 0.0;   // torsion constant (Saint-Venant)
  // Outer-fibre distances from the axis along y and z, for the stresses;
  // 0 for a Direct section entered without them (its stresses are then NaN).
  double cy = 0.0, cz = 0.0;
  double innerRatio = 0.0;     // tube: inner / outer diameter (Cowper's shear coefficient)
  double directKappa = 5.0 / 6.0;  // Direct: shear coefficient as entered

  // Height hy along y, width bz along z. J by the Saint-Venant series.
  static BeamSection rectangle(double hy, double bz);
  static BeamSection round(double d);
  static BeamSection tube(double dOuter, double dInner);
  static BeamSection direct(double A, double Iy, double Iz, double J, double cy = 0.0, double cz = 0.0,
                            double kappa = 5.0 / 6.0);

  double polar() const { return Iy + Iz; }  // polar moment of area: the section's rotary inertia / density
  // Timoshenko shear coefficient (Cowper 1966) for a Poisson ratio nu;
  // one value for both shear directions (exact for the symmetric shapes here).
  double shearCoefficient(double nu) const;
  // Largest normal stress magnitude on the section under an axial force N
  // and bending moments My, Mz: circular sections take the resultant
  // moment, the others the corner (|y| = cy, |z| = cz).
  double outerFibreStress(double N, double My, double Mz) const;
};

// Throws std::invalid_argument naming `field` when the values are not physical.
void validate(const BeamMaterial& m);
void validate(const BeamSection& s);

}  // namespace pm::beam
