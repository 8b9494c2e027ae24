#include "mechanics/beam/beam_section.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace pm::beam {

namespace {

constexpr double kPi = std::numbers::pi;

void requirePositive(double v, const char* field) {
  if (!(v > 0.0) || !std::isfinite(v))
    throw std::invalid_argument(std::string("beam: ") + field + " must be a positive number");
}

// Saint-Venant torsion constant of an a x b rectangle (a >= b) by the series
// J = a b^3 / 3 (1 - 192 b / (pi^5 a) sum_{n odd} tanh(n pi a / (2 b)) / n^5).
double rectangleTorsion(double a, double b) {
  if (a < b) std::swap(a, b);
  double sum = 0.0;
  for (int n = 1; n < 200; n += 2) sum += std::tanh(n * kPi * a / (2.0 * b)) / std::pow(n, 5);
  return a * b * b * b / 3.0 * (1.0 - 192.0 * b / (std::pow(kPi, 5) * a) * sum);
}

}  // namespace

BeamMaterial BeamMaterial::withG(double E, double G, double density) { return {E, G, density}; }

BeamMaterial BeamMaterial::withPoisson(double E, double nu, double density) {
  if (!(nu > -1.0 && nu < 0.5)) throw std::invalid_argument("beam: nu must lie in (-1, 0.5)");
  return {E, E / (2.0 * (1.0 + nu)), density};
}

BeamSection BeamSection::rectangle(double hy, double bz) {
  requirePositive(hy, "section height");
  requirePositive(bz, "section width");
  BeamSection s;
  s.shape = Shape::Rectangle;
  s.A = hy * bz;
  s.Iz = bz * hy * hy * hy / 12.0;
  s.Iy = hy * bz * bz * bz / 12.0;
  s.J = rectangleTorsion(hy, bz);
  s.cy = hy / 2.0;
  s.cz = bz / 2.0;
  return s;
}

BeamSection BeamSection::round(double d) {
  requirePositive(d, "section diameter");
  BeamSection s;
  s.shape = Shape::Round;
  s.A = kPi * d * d / 4.0;
  s.Iy = s.Iz = kPi * std::pow(d, 4) / 64.0;
  s.J = 2.0 * s.Iy;
  s.cy = s.cz = d / 2.0;
  return s;
}

BeamSection BeamSection::tube(double dOuter, double dInner) {
  requirePositive(dOuter, "section outer diameter");
  requirePositive(dInner, "section inner diameter");
  if (dInner >= dOuter) throw std::invalid_argument("beam: section inner diameter must be below the outer diameter");
  BeamSection s;
  s.shape = Shape::Tube;
  s.A = kPi * (dOuter * dOuter - dInner * dInner) / 4.0;
  s.Iy = s.Iz = kPi * (std::pow(dOuter, 4) - std::pow(dInner, 4)) / 64.0;
  s.J = 2.0 * s.Iy;
  s.cy = s.cz = dOuter / 2.0;
  s.innerRatio = dInner / dOuter;
  return s;
}

BeamSection BeamSection::direct(double A, double Iy, double Iz, double J, double cy, double cz, double kappa) {
  BeamSection s;
  s.shape = Shape::Direct;
  s.A = A;
  s.Iy = Iy;
  s.Iz = Iz;
  s.J = J;
  s.cy = cy;
  s.cz = cz;
  s.directKappa = kappa;
  validate(s);
  return s;
}

double BeamSection::shearCoefficient(double nu) const {
  switch (shape) {
    case Shape::Rectangle: return 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
    case Shape::Round: return 6.0 * (1.0 + nu) / (7.0 + 6.0 * nu);
    case Shape::Tube: {
      const double m2 = innerRatio * innerRatio, f = (1.0 + m2) * (1.0 + m2);
      return 6.0 * (1.0 + nu) * f / ((7.0 + 6.0 * nu) * f + (20.0 + 12.0 * nu) * m2);
    }
    case Shape::Direct: return directKappa;
  }
  return directKappa;
}

double BeamSection::outerFibreStress(double N, double My, double Mz) const {
  const double axial = std::abs(N) / A;
  if (shape == Shape::Round || shape == Shape::Tube) return axial + std::hypot(My, Mz) * cy / Iz;
  if (!(cy > 0.0) || !(cz > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return axial + std::abs(Mz) * cy / Iz + std::abs(My) * cz / Iy;
}

void validate(const BeamMaterial& m) {
  requirePositive(m.E, "material E");
  requirePositive(m.G, "material G");
  requirePositive(m.density, "material density");
}

void validate(const BeamSection& s) {
  requirePositive(s.A, "section A");
  requirePositive(s.Iy, "section Iy");
  requirePositive(s.Iz, "section Iz");
  requirePositive(s.J, "section J");
  if (s.cy < 0.0 || s.cz < 0.0) throw std::invalid_argument("beam: section outer-fibre distances must not be negative");
  requirePositive(s.directKappa, "section shear coefficient");
}

}  // namespace pm::beam
