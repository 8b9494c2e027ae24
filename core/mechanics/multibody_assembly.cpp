// MultibodySystem's assembly at the start: Gauss-Newton onto the
// constraints (joints, then couplers and initial conditions, then motions)
// nearest the user's pose, the redundant rows switched off, and the
// velocities projected onto the velocity constraints; the position
// projection the analyses use.
#include "mechanics/multibody.h"

#include "mechanics/beam/beam_bodies.h"
#include "mechanics/minimum_norm.h"
#include "mechanics/multibody_error.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseQR>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>

namespace pm::mb {

namespace {

// Up to this many rigid-body coordinates (6 per part) the assembly's and
// redundancy check's decompositions are dense (complete orthogonal,
// Gram-Schmidt); above, a sparse QR of C^T in declaration order (joints
// declared along a chain keep the fill low, lower than COLAMD's order): the
// dense ones cost O(m n^2), most of a long ladder's construction.
constexpr int kDenseAssemblyUpTo = 120;

using SpMat = Eigen::SparseMatrix<double>;

}  // namespace

bool MultibodySystem::denseAssembly() const {
  int nm = 0;
  for (const BodyRT& b : bodies_)
    if (!b.ground) ++nm;
  return forceDense_ || 6 * nm <= kDenseAssemblyUpTo;
}

Eigen::VectorXd MultibodySystem::assemblyScales() const {
  std::vector<double> s;
  for (const BodyRT& b : bodies_)
    if (!b.ground) s.insert(s.end(), 6, b.assemblyScale);
  return Eigen::Map<Eigen::VectorXd>(s.data(), static_cast<Eigen::Index>(s.size()));
}

// Per moving part: position and body-frame rotation vector taking `from` to `to`.
Eigen::VectorXd MultibodySystem::offsetFrom(const std::vector<double>& from, const std::vector<double>& to) const {
  std::vector<double> d;
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    for (int a = 0; a < 3; ++a) d.push_back(to[b.slot + a] - from[b.slot + a]);
    const Q4 p0(from[b.slot + 3], from[b.slot + 4], from[b.slot + 5], from[b.slot + 6]);
    const Q4 p1(to[b.slot + 3], to[b.slot + 4], to[b.slot + 5], to[b.slot + 6]);
    Q4 q = quatMul(Q4(p0[0], -p0[1], -p0[2], -p0[3]), p1);
    if (q[0] < 0) q = -q;
    const V3 v = q.tail<3>();
    const double sn = v.norm();
    const V3 phi = sn < 1e-15 ? V3(2.0 * v) : V3(2.0 * std::atan2(sn, q[0]) / sn * v);
    d.insert(d.end(), {phi[0], phi[1], phi[2]});
  }
  return Eigen::Map<Eigen::VectorXd>(d.data(), static_cast<Eigen::Index>(d.size()));
}

namespace {

// Per flexible body, the markers "<beam>_n<j>.@node" of its node bodies
// (beam_bodies.h) by node, root first.
std::vector<std::vector<int>> beamNodeMarkers(const std::vector<MarkerRT>& markers) {
  const std::string tag = std::string(".") + beam::kNodeMarker;
  std::map<std::string, std::map<int, int>> by;
  for (size_t i = 0; i < markers.size(); ++i) {
    const std::string& n = markers[i].name;
    if (n.size() <= tag.size() || n.compare(n.size() - tag.size(), tag.size(), tag) != 0) continue;
    const std::string body = n.substr(0, n.size() - tag.size());
    const size_t at = body.rfind("_n");
    if (at == std::string::npos || at + 2 >= body.size() ||
        !std::all_of(body.begin() + static_cast<long>(at) + 2, body.end(), ::isdigit))
      continue;
    by[body.substr(0, at)][std::stoi(body.substr(at + 2))] = static_cast<int>(i);
  }
  std::vector<std::vector<int>> out;
  for (const auto& [beam, nodes] : by) {
    if (!nodes.count(0)) continue;
    out.emplace_back();
    for (const auto& [j, m] : nodes) out.back().push_back(m);
  }
  return out;
}

}  // namespace

void MultibodySystem::assemble() {
  std::vector<double>& y = y0_;
  const std::vector<double> user = y;
  std::vector<Kin> k;
  std::vector<Row> rows, ics;
  std::vector<std::string> icOwners;
  // The pass from which each row is held: 0 the joints, 1 the couplers, 2 the motions.
  std::vector<int> from(rowInfo_.size(), 0);
  for (const JointRT& j : joints_)
    if (j.kind == JointRT::Kind::Coupler) from[j.firstRow] = 1;
  for (const MotionRT& mo : motions_) from[mo.row] = 2;
  // A latch's rows are off until it engages (and then hold where it engaged).
  for (size_t i = firstLatchRow_; i < from.size(); ++i) from[i] = 3;
  // Pass 0 closes the joints; pass 1 adds the couplers, holding the values
  // they have there, and the joints' initial conditions; pass 2 the motions,
  // whose velocity drivers start from where pass 1 left their joints.
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 1) {
      // A limited joint takes the branch (whole turns) that puts it inside
      // its limits, if one does.
      for (const JointRT& j : joints_) {
        if (j.wind < 0) continue;
        const double q = y[j.wind], turn = 2.0 * std::numbers::pi;
        double shift = 0.0;
        if (q < j.lower) shift = std::ceil((j.lower - q) / turn) * turn;
        else if (q > j.upper) shift = -std::ceil((q - j.upper) / turn) * turn;
        if (shift != 0.0 && q + shift >= j.lower && q + shift <= j.upper) y[j.wind] += shift;
      }
      checkInitialConditions(y);
      kinematics(y.data(), k);
      for (JointRT& j : joints_)
        if (j.kind == JointRT::Kind::Coupler)
          j.c0 = jointCoordinate(joints_[j.coupled[0]], k, y.data()) + j.ratio * jointCoordinate(joints_[j.coupled[1]], k, y.data());
    } else if (pass == 2) {
      kinematics(y.data(), k);
      for (MotionRT& mo : motions_) mo.q0 = jointCoordinate(joints_[mo.joint], k, y.data());
    }
    double prev = INFINITY;
    int stall = 0;
    for (int it = 0;; ++it) {
      kinematics(y.data(), k);
      buildRows(0.0, y.data(), k, rows);
      std::vector<Row> sel;
      std::vector<const std::string*> owner;
      for (size_t i = 0; i < rows.size(); ++i)
        if (rowInfo_[i].mu >= 0 && from[i] <= pass) {
          sel.push_back(rows[i]);
          owner.push_back(&rowInfo_[i].owner);
        }
      if (pass > 0) {
        initialConditionRows(k, y.data(), false, ics, &icOwners);
        for (size_t i = 0; i < ics.size(); ++i) {
          sel.push_back(ics[i]);
          owner.push_back(&icOwners[i]);
        }
      }
      Eigen::VectorXd phi(sel.size());
      for (size_t i = 0; i < sel.size(); ++i) phi[i] = sel[i].phi;
      const double err = sel.empty() ? 0.0 : phi.cwiseAbs().maxCoeff();
      if (err < 1e-13) break;
      stall = err > 0.5 * prev ? stall + 1 : 0;
      prev = err;
      if (it >= 100 || stall >= 8) assemblyFailed(owner, phi, !icOwners.empty());
      assemblyStep(y, user, sel, phi);
    }
  }
  kinematics(y.data(), k);
  buildRows(0.0, y.data(), k, rows);
  rows.resize(firstLatchRow_);  // the latches' rows stay off
  findRedundant(rows);
  initialConditionRows(k, y.data(), true, ics);
  projectVelocities(0.0, y, &ics);
  // A flexible body's nodes (decision 0017) carry no joints between them:
  // the projection leaves them at rest while the root moves with what
  // holds it. They start instead on the root node's rigid velocity field,
  // projected once more for whatever else holds them.
  auto followBeamRoots = [this, &k](std::vector<double>& y) {
    const std::vector<std::vector<int>> beams = beamNodeMarkers(markers_);
    if (beams.empty()) return false;
    kinematics(y.data(), k);
    bool changed = false;
    for (const std::vector<int>& nodes : beams) {
      const int root = markerBody(nodes[0]);
      const V3 p0 = markerPoint(nodes[0], k), v0 = markerVelocity(nodes[0], k), w0 = k[root].ww;
      for (size_t j = 1; j < nodes.size(); ++j) {
        const int b = markerBody(nodes[j]);
        if (b == root || bodies_[b].ground) continue;  // welded (lumped) to the root, or to the ground
        const V3 v = v0 + w0.cross(k[b].r - p0), w = k[b].A.transpose() * w0;
        for (int a = 0; a < 3; ++a)
          for (auto [s, x] : {std::pair{7, v[a]}, std::pair{10, w[a]}})
            if (double& ya = y[bodies_[b].slot + s + a]; ya != x) ya = x, changed = true;
      }
    }
    return changed;
  };
  if (followBeamRoots(y)) projectVelocities(0.0, y, &ics);
  reportStart(user);
}

void MultibodySystem::assemblyStep(std::vector<double>& y, const std::vector<double>& user,
                                   const std::vector<Row>& sel, const Eigen::VectorXd& phi) const {
  // Gauss-Newton towards the nearest assembled pose in the weighted norm
  // sum |S^-1 (q - q_user)|^2: each step minimises the distance from
  // where the user put the parts (not from the last iterate), so the
  // parts marked initial_fixed (S = 1e-3) end up where they were put
  // whenever the others can close the loops.
  const Eigen::VectorXd S = assemblyScales();
  const Eigen::VectorXd d = offsetFrom(user, y).cwiseQuotient(S);
  Eigen::VectorXd z;
  if (denseAssembly()) {
    const Eigen::MatrixXd C = matrixOf(sel) * S.asDiagonal();
    z = -d + C.completeOrthogonalDecomposition().solve(-phi + C * d);
  } else {
    const SpMat C = sparseOf(sel) * S.asDiagonal();
    z = -d + minimumNorm(C, -phi + C * d);
  }
  setPositions(y, S.asDiagonal() * z);
}

void MultibodySystem::assemblyFailed(const std::vector<const std::string*>& owner, const Eigen::VectorXd& phi,
                                     bool initialConditions) const {
  // Least-squares has converged to a point that misses: the loop cannot close.
  std::vector<std::pair<double, std::string>> worst;
  for (Eigen::Index i = 0; i < phi.size(); ++i)
    if (std::abs(phi[i]) > 1e-9) worst.push_back({std::abs(phi[i]), *owner[i]});
  std::sort(worst.rbegin(), worst.rend());
  std::ostringstream o;
  o << "the mechanism cannot be assembled (largest constraint errors:";
  std::vector<std::string> seen;
  for (auto& [e, who] : worst) {
    if (std::find(seen.begin(), seen.end(), who) != seen.end()) continue;
    seen.push_back(who);
    o << " " << who << " " << e;
    if (seen.size() == 4) break;
  }
  o << "); check that the links are long enough to close the loop and the markers sit where the joints are";
  if (initialConditions) o << ", and that the joints' initial conditions can be met together";
  const std::string who = worst.empty() ? "mechanism" : worst.front().second.substr(0, worst.front().second.find(' '));
  fail(who, "", o.str());
}

void MultibodySystem::findRedundant(const std::vector<Row>& rows) {
  // Gram-Schmidt in declaration order: a row that adds no new direction to
  // the ones before it is redundant (an over-constrained planar loop built
  // from revolute joints is the classic case) and is switched off, as ADAMS does.
  std::map<std::string, int> removed;
  std::map<std::string, int> total;
  int rank = 0;
  if (denseAssembly()) {
    const Eigen::MatrixXd C = constraintMatrix(rows, false);
    std::vector<Eigen::VectorXd> basis;
    for (int i = 0; i < C.rows(); ++i) {
      total[rowInfo_[i].owner]++;
      Eigen::VectorXd v = C.row(i).transpose();
      const double n0 = v.norm();
      for (int pass = 0; pass < 2; ++pass)
        for (const auto& q : basis) v -= q.dot(v) * q;
      if (n0 == 0.0 || v.norm() < 1e-9 * n0) {
        rowInfo_[i].active = false;
        removed[rowInfo_[i].owner]++;
        continue;
      }
      basis.push_back(v / v.norm());
    }
    rank = static_cast<int>(basis.size());
  } else {
    // The same test by a sparse Householder QR of C^T, rows as unit columns
    // taken in declaration order (no fill-reducing reordering, so the later
    // of two dependent rows is the one switched off): a column whose part
    // orthogonal to the columns before it is below 1e-9 is dependent.
    SpMat Ct = sparseOf(rows).transpose();
    Ct.makeCompressed();
    std::vector<char> zero(rows.size(), 0);
    for (Eigen::Index c = 0; c < Ct.outerSize(); ++c) {
      const double n0 = Ct.col(c).norm();
      if (n0 == 0.0) zero[c] = 1;
      else Ct.col(c) /= n0;
    }
    Eigen::SparseQR<SpMat, Eigen::NaturalOrdering<int>> qr;
    qr.setPivotThreshold(1e-9);
    qr.compute(Ct);
    if (qr.info() != Eigen::Success) fail("mechanism", "", "sparse QR of the constraint matrix failed");
    std::vector<char> independent(rows.size(), 0);
    const auto& perm = qr.colsPermutation().indices();
    for (Eigen::Index i = 0; i < qr.rank(); ++i) independent[perm[i]] = 1;
    for (size_t i = 0; i < rows.size(); ++i) {
      total[rowInfo_[i].owner]++;
      if (independent[i] && !zero[i]) {
        ++rank;
        continue;
      }
      rowInfo_[i].active = false;
      removed[rowInfo_[i].owner]++;
    }
  }
  for (const MotionRT& mo : motions_)
    if (!rowInfo_[mo.row].active)
      fail(mo.id, "joint", "drives a coordinate that the joints already fix (the motion is redundant)");
  for (const JointRT& j : joints_)
    if (j.type == "coupler" && !rowInfo_[j.firstRow].active)
      fail(j.id, "joints", "couples coordinates that are already fixed (redundant)");
  int nm = 0;
  for (const BodyRT& b : bodies_)
    if (!b.ground) ++nm;
  dof_ = 6 * nm - rank;
  if (!removed.empty()) {
    std::ostringstream o;
    o << "redundant constraint equations removed:";
    for (auto& [who, n] : removed) o << " " << who << " (" << n << " of " << total[who] << ")";
    o << ". This is normal for a planar mechanism modelled in 3D (every joint of the loop also holds the "
         "out-of-plane motion) and for any loop whose joints fix the same motion twice. The split of the loads "
         "between the joints is then not unique for these reaction components: "
      << undeterminedReactions(rows)
      << " (the removed equations carry none of it); every other reaction component is unique and exact";
    messages_.push_back(o.str());
  }
}

void MultibodySystem::projectVelocities(double t, std::vector<double>& y, const std::vector<Row>* extra) {
  std::vector<Kin> k;
  std::vector<Row> rows;
  kinematics(y.data(), k);
  buildRows(t, y.data(), k, rows);
  std::vector<Row> act = activeRows(rows);
  if (extra) act.insert(act.end(), extra->begin(), extra->end());
  // Large models: C sparse from the start (the dense one alone is O(m n)).
  const bool dense = denseAssembly();
  const Eigen::MatrixXd C = dense ? matrixOf(act) : Eigen::MatrixXd();
  const SpMat Cs = dense ? SpMat() : sparseOf(act);
  if ((dense ? C.rows() : Cs.rows()) == 0) return;
  Eigen::VectorXd v(dense ? C.cols() : Cs.cols()), rhs(dense ? C.rows() : Cs.rows());
  int c = 0;
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    v.segment<3>(c) = k[&b - &bodies_[0]].v;
    v.segment<3>(c + 3) = k[&b - &bodies_[0]].w;
    c += 6;
  }
  for (size_t i = 0; i < act.size(); ++i) rhs[i] = -act[i].phit;
  const Eigen::VectorXd S = assemblyScales();
  if (dense) {
    const Eigen::MatrixXd CS = C * S.asDiagonal();
    v += S.asDiagonal() * CS.completeOrthogonalDecomposition().solve(rhs - C * v);
  } else {
    v += S.asDiagonal() * minimumNormSquare(Cs * S.asDiagonal(), rhs - Cs * v);
  }
  c = 0;
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    for (int a = 0; a < 3; ++a) {
      y[b.slot + 7 + a] = v[c + a];
      y[b.slot + 10 + a] = v[c + 3 + a];
    }
    c += 6;
  }
}

bool MultibodySystem::correctPositions(double t, std::vector<double>& y) const {
  std::vector<Kin> k;
  std::vector<Row> rows;
  kinematics(y.data(), k);
  buildRows(t, y.data(), k, rows);
  std::vector<Row> sel;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rowInfo_[i].active && rowInfo_[i].mu >= 0) sel.push_back(rows[i]);
  Eigen::VectorXd phi(sel.size());
  for (size_t i = 0; i < sel.size(); ++i) phi[i] = sel[i].phi;
  if (sel.empty() || phi.cwiseAbs().maxCoeff() < 1e-13) return false;
  if (denseAssembly()) setPositions(y, matrixOf(sel).completeOrthogonalDecomposition().solve(-phi));
  else setPositions(y, minimumNormSquare(sparseOf(sel), -phi));
  return true;
}

void MultibodySystem::projectPositions(double t, std::vector<double>& y) const {
  for (int it = 0; it < 20 && correctPositions(t, y); ++it) {
  }
}

}  // namespace pm::mb
