// Which reactions a redundant constraint set leaves undetermined. Each
// equation removed as redundant is a combination of kept ones:
// C_i = sum_j c_j C_j. The multipliers may then shift by any multiple of
// e_i - sum_j c_j e_j without changing a part's motion (C^T delta = 0): the
// joints whose equations take part carry a self-balanced set of loads whose
// split between them the rigid-body equations do not fix. The reaction
// components that such a shift changes are the undetermined ones; the
// others are unique, and the solver's values for them exact.
#include "mechanics/multibody.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseQR>

#include <set>
#include <sstream>

namespace pm::mb {

std::string MultibodySystem::undeterminedReactions(const std::vector<Row>& rows) const {
  std::vector<int> kept, removed;
  for (size_t i = 0; i < rows.size(); ++i) (rowInfo_[i].active ? kept : removed).push_back(static_cast<int>(i));
  if (removed.empty()) return {};
  std::vector<Row> keptRows;
  for (int i : kept) keptRows.push_back(rows[i]);
  // The combination coefficients: least squares C_kept^T c = C_i^T (exact,
  // as C_i lies in the span of the kept rows).
  std::vector<Eigen::VectorXd> coeffs;
  if (denseAssembly()) {
    const Eigen::MatrixXd K = matrixOf(keptRows).transpose();
    const auto qr = K.colPivHouseholderQr();
    for (int i : removed) coeffs.push_back(qr.solve(Eigen::VectorXd(matrixOf({rows[i]}).row(0).transpose())));
  } else {
    Eigen::SparseMatrix<double> K = sparseOf(keptRows).transpose();
    K.makeCompressed();
    Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr;
    qr.compute(K);
    if (qr.info() != Eigen::Success) return {};
    for (int i : removed) coeffs.push_back(qr.solve(Eigen::VectorXd(sparseOf({rows[i]}).transpose())));
  }
  std::vector<Kin> k;
  kinematics(y0_.data(), k);
  // Per reaction channel ("jA.Fz", "drive.effort"): undetermined by any shift.
  std::set<std::string> open;
  auto mark = [&](const std::string& name) { open.insert(name); };
  for (size_t r = 0; r < removed.size(); ++r) {
    std::vector<double> delta(rows.size(), 0.0);
    delta[removed[r]] = 1.0;
    for (size_t j = 0; j < kept.size(); ++j) delta[kept[j]] = -coeffs[r][static_cast<Eigen::Index>(j)];
    // The change of each joint's reaction on I's part at marker I, world
    // axes, as outputs() computes it from the multipliers.
    struct Change {
      std::string id;
      V3 F, T;
    };
    std::vector<Change> changes;
    double fMax = 0.0, tMax = 0.0, lever = 0.0;
    for (const JointRT& j : joints_) {
      if (j.kind == JointRT::Kind::Coupler) {
        if (std::abs(delta[j.firstRow]) > 1e-9) mark(j.id + ".effort");
        continue;
      }
      const int bi = markers_[j.I].body;
      V3 F = V3::Zero(), Nb = V3::Zero();
      for (int i = j.firstRow; i < j.firstRow + j.nRows; ++i)
        for (int q = 0; q < rows[i].n; ++q)
          if (rows[i].b[q] == bi) F -= rows[i].r[q] * delta[i], Nb -= rows[i].p[q] * delta[i];
      const V3 arm = markerPoint(j.I, k) - k[bi].r;
      const V3 T = k[bi].A * Nb - arm.cross(F);
      fMax = std::max(fMax, F.cwiseAbs().maxCoeff());
      tMax = std::max(tMax, T.cwiseAbs().maxCoeff());
      lever = std::max(lever, arm.norm());
      changes.push_back({j.id, F, T});
    }
    for (const MotionRT& mo : motions_)
      if (std::abs(delta[mo.row]) > 1e-9) mark(mo.id + ".effort");
    // Forces and torques compared through the mechanism's size: a component
    // is undetermined when the shift moves it beyond round-off.
    const double L = lever > 0.0 ? lever : 1.0;
    const double fTol = 1e-9 * (fMax + tMax / L), tTol = 1e-9 * (fMax * L + tMax);
    const char* fn[3] = {"Fx", "Fy", "Fz"};
    const char* tn[3] = {"Tx", "Ty", "Tz"};
    for (const Change& c : changes)
      for (int a = 0; a < 3; ++a) {
        if (std::abs(c.F[a]) > fTol) mark(c.id + "." + fn[a]);
        if (std::abs(c.T[a]) > tTol) mark(c.id + "." + tn[a]);
      }
  }
  // "jA Fz Tx Ty, jB Fz Tx Ty": per object, its components in channel order.
  std::ostringstream o;
  std::string current;
  for (const JointRT& j : joints_)
    for (const char* q : {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz", "effort"})
      if (open.count(j.id + "." + q)) {
        o << (current == j.id ? " " : current.empty() ? "" : ", ") << (current == j.id ? "" : j.id + " ") << q;
        current = j.id;
      }
  for (const MotionRT& mo : motions_)
    if (open.count(mo.id + ".effort")) {
      o << (current.empty() ? "" : ", ") << mo.id << " effort";
      current = mo.id;
    }
  return o.str();
}

}  // namespace pm::mb
