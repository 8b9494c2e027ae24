// The steel beam of the flexible-body tests (issue #22): 1 m long, a
// 20 x 10 mm rectangle (hy x bz), E = 210 GPa, 7850 kg/m3; clamped as a
// cantilever along world x; and its discrete model's bending frequencies
// (the node bodies' lumped masses on the assembled element stiffness,
// solved here), which the runs and the modal analysis are checked against.
// Header-only.
#pragma once

#include "mechanics/beam/beam_bodies.h"
#include "mechanics/beam/beam_modes.h"
#include "model/mechanism.h"
#include "support/mechanism_builders.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <numbers>
#include <vector>

namespace pm::test {

inline constexpr double kE = 210e9, kRho = 7850.0, kL = 1.0, kHy = 0.02, kBz = 0.01;
inline constexpr double kIz = kBz * kHy * kHy * kHy / 12.0;  // bending in x-y (v)
inline constexpr double kIy = kHy * kBz * kBz * kBz / 12.0;  // bending in x-z (w)
inline constexpr double kMu = kRho * kHy * kBz;              // kg/m
inline constexpr double kBeta1 = 1.87510407;                 // the clamped-free beam's first root

// The beam "beam" of `elements` elements, markers root and tip;
// stiffness-proportional damping `beta` [s] when positive.
inline FlexibleBodyDef steelBeam(int elements, double beta = 0.0) {
  FlexibleBodyDef b;
  b.id = "beam";
  b.length = kL;
  b.elements = elements;
  b.section_shape = "rectangle";
  b.section = {{"hy", kHy}, {"bz", kBz}};
  b.material = {{"E", kE}, {"nu", 0.3}, {"density", kRho}};
  if (beta > 0.0) b.damping = {{"beta", beta}};
  b.markers = {{"root", 0, {}}, {"tip", elements, {}}};
  return b;
}

// A cantilever along world x, `b`'s root welded to the ground's clamp at
// the origin (the ground's `moreMarkers` after it); gravity off.
inline Mechanism cantilever(const FlexibleBodyDef& b, const std::vector<MarkerDef>& moreMarkers = {}) {
  Mechanism m;
  m.gravity = {0, 0, 0};
  std::vector<MarkerDef> markers{mk("clamp", {0, 0, 0})};
  markers.insert(markers.end(), moreMarkers.begin(), moreMarkers.end());
  m.parts.push_back(ground(markers));
  m.flexible_bodies.push_back(b);
  m.joints.push_back(joint("weld", "fixed", "beam.root", "ground.clamp"));
  return m;
}

namespace detail {

// The discrete model's frequencies bending in plane `c` (1: v, 2: w),
// lowest first [Hz]; root clamped, or every node free with the six
// rigid-body modes (at 0) left out.
inline std::vector<double> bendingFrequencies(const FlexibleBodyDef& d, int c, bool freeFree) {
  beam::FlexibleBeam b(beam::beamSpecOf(d));
  if (freeFree)
    for (int k = 0; k < 6; ++k) b.setFixed(0, k, false);
  const int first = freeFree ? 0 : 1;  // the clamped root node has no degrees of freedom
  const Eigen::MatrixXd K(b.stiffness());
  Eigen::VectorXd m(b.dofCount());
  for (int j = first; j < b.nodeCount(); ++j) {
    const beam::NodeInertia ni = beam::nodeInertia(b, j);
    for (int k = 0; k < 6; ++k) m[b.dofIndex(j, k)] = k < 3 ? ni.mass : ni.inertia[k - 3];
  }
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> es(K, Eigen::MatrixXd(m.asDiagonal()));
  const double top = es.eigenvalues().maxCoeff();
  const int rot = c == 1 ? 5 : 4;  // v pairs with theta_z, w with theta_y
  std::vector<double> out;
  for (Eigen::Index k = 0; k < es.eigenvalues().size(); ++k) {
    if (freeFree && es.eigenvalues()[k] < 1e-9 * top) continue;  // rigid
    const Eigen::VectorXd phi = es.eigenvectors().col(k);
    double share = 0.0, all = 0.0;
    for (int j = first; j < b.nodeCount(); ++j)
      for (int q = 0; q < 6; ++q) {
        const double e = m[b.dofIndex(j, q)] * phi[b.dofIndex(j, q)] * phi[b.dofIndex(j, q)];
        all += e;
        if (q == c || q == rot) share += e;
      }
    if (share > 0.5 * all) out.push_back(std::sqrt(es.eigenvalues()[k]) / (2 * std::numbers::pi));
  }
  return out;
}

}  // namespace detail

// The discrete model's frequencies bending in plane `c` (1: v in x-y, 2: w
// in x-z), lowest first [Hz], the root clamped: a mode counts for the plane
// when most of its kinetic energy is in v and theta_z (w and theta_y).
inline std::vector<double> discreteFrequencies(const FlexibleBodyDef& d, int c) {
  return detail::bendingFrequencies(d, c, false);
}

// The same for the free-free beam (every node free; its six rigid-body
// modes, at 0, left out).
inline std::vector<double> freeFreeFrequencies(const FlexibleBodyDef& d, int c) {
  return detail::bendingFrequencies(d, c, true);
}

// The lowest of discreteFrequencies (NaN when there is none).
inline double discreteFrequency(const FlexibleBodyDef& d, int c) {
  const std::vector<double> f = discreteFrequencies(d, c);
  return f.empty() ? NAN : f.front();
}

}  // namespace pm::test
