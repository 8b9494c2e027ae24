#include "mechanics/beam/flexible_beam.h"

#include <Eigen/SparseCholesky>

#include <cmath>
#include <stdexcept>
#include <string>

namespace pm::beam {

namespace {

ElementProperties propertiesOf(const BeamSpec& s) {
  if (!(s.length > 0.0) || !std::isfinite(s.length))
    throw std::invalid_argument("beam: length must be a positive number");
  if (s.elements < 1) throw std::invalid_argument("beam: elements must be at least 1");
  validate(s.section);
  validate(s.material);
  return {s.section, s.material, s.timoshenko, s.rotaryInertia};
}

}  // namespace

FlexibleBeam::FlexibleBeam(const BeamSpec& spec)
    : spec_(spec), element_(propertiesOf(spec), spec.length / spec.elements),
      fixed_(static_cast<size_t>(kNodeDofs * (spec.elements + 1)), false) {
  clamp(0);
}

void FlexibleBeam::setFixed(int node, int comp, bool fixed) {
  if (node < 0 || node >= nodeCount() || comp < 0 || comp >= kNodeDofs)
    throw std::invalid_argument("beam: no node " + std::to_string(node) + " coordinate " + std::to_string(comp));
  fixed_[kNodeDofs * node + comp] = fixed;
  renumber();
}

void FlexibleBeam::clamp(int node) {
  for (int c = 0; c < kNodeDofs; ++c) setFixed(node, c, true);
}

void FlexibleBeam::renumber() {
  index_.assign(fixed_.size(), -1);
  free_ = 0;
  for (size_t i = 0; i < fixed_.size(); ++i)
    if (!fixed_[i]) index_[i] = free_++;
}

void FlexibleBeam::addPointMass(const PointMass& m) {
  if (m.node < 0 || m.node >= nodeCount())
    throw std::invalid_argument("beam: point mass on a node that does not exist");
  if (!(m.mass >= 0.0) || !(m.inertia.minCoeff() >= 0.0))
    throw std::invalid_argument("beam: point mass and inertia must not be negative");
  masses_.push_back(m);
}

std::array<int, kElementDofs> FlexibleBeam::elementDofs(int e) const {
  std::array<int, kElementDofs> d{};
  for (int k = 0; k < kElementDofs; ++k) d[k] = index_[kNodeDofs * e + k];  // nodes e, e+1 are contiguous
  return d;
}

template <class ElementMatrix>
SparseMatrix FlexibleBeam::assemble(const ElementMatrix& elementMatrix) const {
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(static_cast<size_t>(spec_.elements) * kElementDofs * kElementDofs);
  for (int e = 0; e < spec_.elements; ++e) {
    const Mat12 m = elementMatrix(e);
    const auto d = elementDofs(e);
    for (int i = 0; i < kElementDofs; ++i)
      for (int j = 0; j < kElementDofs; ++j)
        if (d[i] >= 0 && d[j] >= 0 && m(i, j) != 0.0) t.emplace_back(d[i], d[j], m(i, j));
  }
  SparseMatrix A(free_, free_);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

SparseMatrix FlexibleBeam::mass() const {
  SparseMatrix M = assemble([&](int) { return element_.mass(); });
  std::vector<Eigen::Triplet<double>> t;
  for (const PointMass& pm : masses_)
    for (int c = 0; c < 3; ++c) {
      if (const int i = dofIndex(pm.node, c); i >= 0) t.emplace_back(i, i, pm.mass);
      if (const int i = dofIndex(pm.node, 3 + c); i >= 0) t.emplace_back(i, i, pm.inertia[c]);
    }
  SparseMatrix P(free_, free_);
  P.setFromTriplets(t.begin(), t.end());
  return M + P;
}

SparseMatrix FlexibleBeam::stiffness() const {
  return assemble([&](int) { return element_.stiffness(); });
}

SparseMatrix FlexibleBeam::geometricStiffness(const std::function<double(double)>& P) const {
  const double l = element_.length();
  return assemble([&](int e) { return element_.geometricStiffness([&](double xi) { return P((e + xi) * l); }); });
}

double FlexibleBeam::centrifugalAxialForce(const Spin& s, double x) const {
  // Axial part of the centrifugal load mu Omega^2 (I - a a^T)(r + x) e_x,
  // integrated from x to the tip.
  const Eigen::Vector3d a = s.direction.normalized();
  const double f = s.rate * s.rate * (1.0 - a.x() * a.x()), r = s.hubRadius, L = spec_.length;
  double P = element_.lineDensity() * (r * (L - x) + 0.5 * (L * L - x * x));
  for (const PointMass& m : masses_)
    if (nodeX(m.node) > x) P += m.mass * (r + nodeX(m.node));
  return f * P;
}

SparseMatrix FlexibleBeam::centrifugalStiffening(const Spin& s) const {
  return geometricStiffness([&](double x) { return centrifugalAxialForce(s, x); });
}

SparseMatrix FlexibleBeam::centrifugalSoftening(const Spin& s) const {
  const Eigen::Vector3d a = s.direction.normalized();
  const Eigen::Matrix3d perp = s.rate * s.rate * (Eigen::Matrix3d::Identity() - a * a.transpose());
  Mat12 Me = Mat12::Zero();
  const double l = element_.length(), mu = element_.lineDensity();
  for (int g = 0; g < BeamElement::kGauss; ++g) {
    const ElementShape sh = element_.shape(BeamElement::kGaussXi[g]);
    Me.noalias() += (BeamElement::kGaussW[g] * l * mu) * sh.N.transpose() * perp * sh.N;
  }
  SparseMatrix S = assemble([&](int) { return Me; });
  std::vector<Eigen::Triplet<double>> t;
  for (const PointMass& pm : masses_)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int di = dofIndex(pm.node, i), dj = dofIndex(pm.node, j);
        if (di >= 0 && dj >= 0 && perp(i, j) != 0.0) t.emplace_back(di, dj, pm.mass * perp(i, j));
      }
  SparseMatrix P(free_, free_);
  P.setFromTriplets(t.begin(), t.end());
  return S + P;
}

Eigen::VectorXd FlexibleBeam::loadVector(const std::vector<NodalLoad>& loads) const {
  Eigen::VectorXd f = Eigen::VectorXd::Zero(free_);
  for (const NodalLoad& l : loads) {
    if (l.node < 0 || l.node >= nodeCount()) throw std::invalid_argument("beam: load on a node that does not exist");
    for (int c = 0; c < 3; ++c) {
      if (const int i = dofIndex(l.node, c); i >= 0) f[i] += l.force[c];
      if (const int i = dofIndex(l.node, 3 + c); i >= 0) f[i] += l.moment[c];
    }
  }
  return f;
}

Eigen::VectorXd FlexibleBeam::solveStatic(const Eigen::VectorXd& f) const { return solveStatic(stiffness(), f); }

Eigen::VectorXd FlexibleBeam::solveStatic(const SparseMatrix& K, const Eigen::VectorXd& f) const {
  Eigen::SimplicialLDLT<SparseMatrix> ldlt(K);
  if (ldlt.info() != Eigen::Success)
    throw std::runtime_error("beam: the stiffness matrix is singular (is the beam held in its frame?)");
  return ldlt.solve(f);
}

Eigen::VectorXd FlexibleBeam::expand(const Eigen::VectorXd& q) const {
  if (q.size() != free_) throw std::invalid_argument("beam: coordinate vector of the wrong size");
  Eigen::VectorXd full = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(index_.size()));
  for (size_t i = 0; i < index_.size(); ++i)
    if (index_[i] >= 0) full[static_cast<Eigen::Index>(i)] = q[index_[i]];
  return full;
}

std::vector<NodeResult> FlexibleBeam::nodeResults(const Eigen::VectorXd& q) const {
  const Eigen::VectorXd full = expand(q);
  std::vector<NodeResult> r(static_cast<size_t>(nodeCount()));
  std::vector<int> count(r.size(), 0);
  for (auto& n : r) n.resultants.setZero();
  for (int e = 0; e < spec_.elements; ++e) {
    // End forces the element needs at its nodes; the section resultant is
    // minus that at the start, plus it at the end.
    const Eigen::Matrix<double, 12, 1> F = element_.stiffness() * full.segment<kElementDofs>(kNodeDofs * e);
    r[e].resultants -= F.head<6>();
    r[e + 1].resultants += F.tail<6>();
    ++count[e];
    ++count[e + 1];
  }
  for (int j = 0; j < nodeCount(); ++j) {
    NodeResult& n = r[j];
    n.x = nodeX(j);
    n.displacement = full.segment<3>(kNodeDofs * j);
    n.rotation = full.segment<3>(kNodeDofs * j + 3);
    n.resultants /= count[j];  // the mean where two elements meet (equal without a load on the node)
    n.stress = spec_.section.outerFibreStress(n.resultants[0], n.resultants[4], n.resultants[5]);
  }
  return r;
}

BeamSummary FlexibleBeam::summary(const Eigen::VectorXd& q) const {
  const std::vector<NodeResult> r = nodeResults(q);
  BeamSummary s;
  s.tipDisplacement = r.back().displacement;
  s.tipDeflection = std::hypot(s.tipDisplacement.y(), s.tipDisplacement.z());
  for (int j = 0; j < nodeCount(); ++j)
    if (r[j].stress > s.maxStress) {
      s.maxStress = r[j].stress;
      s.maxStressNode = j;
    }
  return s;
}

}  // namespace pm::beam
