// A flexible beam assembled from finite elements (issue #22, seed 001): its
// generalised mass and stiffness in the elastic coordinates of the floating
// frame, boundary conditions, point masses, geometric (centrifugal)
// stiffening, static solution and the per-node outputs. The frame sits at the
// root with x along the undeformed beam; node j lies at x_j = j L / n. The
// elastic coordinates are the nodal displacements and rotations that are not
// fixed: by default the root is clamped in the frame (all six of node 0), so
// the frame's motion is the root's. Coordinate k of node j, when free, has
// index dofIndex(j, k) in every matrix and vector here.
#pragma once

#include "mechanics/beam/beam_element.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <array>
#include <functional>
#include <vector>

namespace pm::beam {

using SparseMatrix = Eigen::SparseMatrix<double>;

struct BeamSpec {
  double length = 0.0;
  int elements = 0;
  BeamSection section;
  BeamMaterial material;
  bool timoshenko = false;
  bool rotaryInertia = false;  // Rayleigh beam; implied by timoshenko
};

struct PointMass {  // a gripper, a payload: rigidly on a node
  int node = 0;
  double mass = 0.0;
  Eigen::Vector3d inertia = Eigen::Vector3d::Zero();  // principal, about the node, beam axes
};

struct NodalLoad {
  int node = 0;
  Eigen::Vector3d force = Eigen::Vector3d::Zero();   // along x, y, z of the frame
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();  // about x, y, z
};

// A steady spin of the frame at `rate` [rad/s] about `direction` (unit, frame
// axes) through the point -hubRadius * x of the frame (the root lies
// hubRadius from the axis).
struct Spin {
  Eigen::Vector3d direction = Eigen::Vector3d::UnitZ();
  double rate = 0.0;
  double hubRadius = 0.0;
};

struct NodeResult {
  double x = 0.0;                  // undeformed position along the beam
  Eigen::Vector3d displacement;    // u, v, w
  Eigen::Vector3d rotation;        // theta_x (twist), theta_y, theta_z (the slopes -w', v')
  // Section resultants from the elements' elastic end forces (exact for loads
  // at the nodes): N, Vy, Vz, T, My = E Iy theta_y', Mz = E Iz theta_z'.
  Eigen::Matrix<double, 6, 1> resultants;
  double stress = 0.0;             // largest outer-fibre normal stress [Pa]
};

struct BeamSummary {
  Eigen::Vector3d tipDisplacement;
  double tipDeflection = 0.0;      // transverse: hypot(v, w) at the tip
  double maxStress = 0.0;
  int maxStressNode = 0;
};

class FlexibleBeam {
 public:
  explicit FlexibleBeam(const BeamSpec& spec);

  const BeamSpec& spec() const { return spec_; }
  int elementCount() const { return spec_.elements; }
  int nodeCount() const { return spec_.elements + 1; }
  double nodeX(int node) const { return spec_.length * node / spec_.elements; }
  const BeamElement& element() const { return element_; }  // every element is this one

  // Boundary conditions in the frame. The root is clamped at construction.
  void setFixed(int node, int comp, bool fixed);
  void clamp(int node);
  void addPointMass(const PointMass& m);
  const std::vector<PointMass>& pointMasses() const { return masses_; }

  int dofCount() const { return free_; }
  int dofIndex(int node, int comp) const { return index_[kNodeDofs * node + comp]; }
  // Free coordinates of element e's 12 (-1 where fixed).
  std::array<int, kElementDofs> elementDofs(int e) const;

  SparseMatrix mass() const;
  SparseMatrix stiffness() const;
  // Geometric stiffness for an axial force P(x) (tension positive), x along the beam.
  SparseMatrix geometricStiffness(const std::function<double(double)>& P) const;
  // The axial force a spin causes (line mass and point masses outboard of x).
  double centrifugalAxialForce(const Spin& s, double x) const;
  SparseMatrix centrifugalStiffening(const Spin& s) const;
  // Omega^2 times the mass matrix of the motion perpendicular to the spin
  // axis: K + Kg - this is the stiffness seen in the spinning frame.
  SparseMatrix centrifugalSoftening(const Spin& s) const;

  Eigen::VectorXd loadVector(const std::vector<NodalLoad>& loads) const;
  Eigen::VectorXd solveStatic(const Eigen::VectorXd& f) const;
  Eigen::VectorXd solveStatic(const SparseMatrix& K, const Eigen::VectorXd& f) const;
  // All 6 (n + 1) nodal coordinates, zero where fixed.
  Eigen::VectorXd expand(const Eigen::VectorXd& q) const;

  std::vector<NodeResult> nodeResults(const Eigen::VectorXd& q) const;
  BeamSummary summary(const Eigen::VectorXd& q) const;

 private:
  void renumber();
  template <class ElementMatrix>
  SparseMatrix assemble(const ElementMatrix& elementMatrix) const;

  BeamSpec spec_;
  BeamElement element_;
  std::vector<bool> fixed_;
  std::vector<int> index_;
  int free_ = 0;
  std::vector<PointMass> masses_;
};

}  // namespace pm::beam
