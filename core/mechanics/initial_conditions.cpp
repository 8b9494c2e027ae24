// Joint initial conditions (ADAMS's IC on a joint) and the report of the
// start. The assembly (MultibodySystem::assemble) holds the joints' initial
// coordinates as extra rows of its Gauss-Newton, the velocity projection
// their initial rates; they are no constraints of the motion, so nothing
// holds them after t = 0. A set the mechanism cannot take (more than its
// degrees of freedom, or fixed by the joints already) is refused naming the
// joints, and what the start changed of the user's input is said in a
// message, as ADAMS's initial conditions report does.
#include "mechanics/multibody.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseQR>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace pm::mb {

namespace {

[[noreturn]] void fail(const std::string& id, const std::string& field, const std::string& msg) {
  throw std::runtime_error(id + ": " + field + ": " + msg);
}

// Per row of C, in order: whether it adds a direction to the rows before it
// (the test findRedundant makes: Gram-Schmidt, part below 1e-9 of the row).
std::vector<char> independentInOrder(const Eigen::MatrixXd& C) {
  std::vector<char> ind(C.rows(), 0);
  std::vector<Eigen::VectorXd> basis;
  for (Eigen::Index i = 0; i < C.rows(); ++i) {
    Eigen::VectorXd v = C.row(i).transpose();
    const double n0 = v.norm();
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& q : basis) v -= q.dot(v) * q;
    if (n0 == 0.0 || v.norm() < 1e-9 * n0) continue;
    basis.push_back(v / v.norm());
    ind[i] = 1;
  }
  return ind;
}

// The same for large models: a sparse Householder QR of C^T, rows as unit
// columns in their order (no reordering, so the later of two dependent rows
// is the dependent one).
std::vector<char> independentInOrder(const Eigen::SparseMatrix<double>& C) {
  Eigen::SparseMatrix<double> Ct = C.transpose();
  Ct.makeCompressed();
  std::vector<char> zero(C.rows(), 0), ind(C.rows(), 0);
  for (Eigen::Index c = 0; c < Ct.outerSize(); ++c) {
    const double n0 = Ct.col(c).norm();
    if (n0 == 0.0) zero[c] = 1;
    else Ct.col(c) /= n0;
  }
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::NaturalOrdering<int>> qr;
  qr.setPivotThreshold(1e-9);
  qr.compute(Ct);
  if (qr.info() != Eigen::Success) throw std::runtime_error("mechanism: sparse QR of the constraint matrix failed");
  const auto& perm = qr.colsPermutation().indices();
  for (Eigen::Index i = 0; i < qr.rank(); ++i) ind[perm[i]] = !zero[perm[i]];
  return ind;
}

std::string quoted(const std::vector<std::string>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) s += (i ? ", '" : "'") + ids[i] + "'";
  return s;
}

// Rounding noise (1e-17 across the plane of a planar loop) printed as 0.
double shown(double v, double scale) { return std::abs(v) < 1e-12 * std::max(scale, 1.0) ? 0.0 : v; }

std::string vec(const V3& v) {
  std::ostringstream o;
  const double s = v.norm();
  o << "(" << shown(v[0], s) << ", " << shown(v[1], s) << ", " << shown(v[2], s) << ")";
  return o.str();
}

const char* fieldOf(const std::string& type, bool rate) {
  const auto names = jointInitialNames(type);
  return rate ? names->second : names->first;
}

// Below these the assembly is said not to have moved a part: rounding in
// the user's coordinates, not a correction worth a message.
constexpr double kMovedBy = 1e-6;  // m, rad

}  // namespace

void MultibodySystem::initialConditionRows(const std::vector<Kin>& k, const double* y, bool rates,
                                           std::vector<Row>& out, std::vector<std::string>* owners) const {
  out.clear();
  if (owners) owners->clear();
  for (const JointRT& j : joints_) {
    const std::optional<double>& ic = rates ? j.icRate : j.icValue;
    if (!ic) continue;
    Row r = coordinateRow(j, k, y);
    if (rates) {
      r.phi = 0.0;
      r.phit = -*ic;
    } else {
      r.phi -= *ic;
      r.phit = 0.0;
    }
    out.push_back(r);
    if (owners) owners->push_back(j.id + " (initial." + fieldOf(j.type, rates) + ")");
  }
}

void MultibodySystem::checkInitialConditions(std::vector<double>& y) const {
  std::vector<Kin> k;
  std::vector<Row> rows, ics;
  kinematics(y.data(), k);
  int moving = 0;
  for (const BodyRT& b : bodies_)
    if (!b.ground) ++moving;
  for (bool rates : {false, true}) {
    initialConditionRows(k, y.data(), rates, ics);
    if (ics.empty()) continue;
    if (rows.empty()) buildRows(0.0, y.data(), k, rows);
    std::vector<Row> all = rows;
    all.insert(all.end(), ics.begin(), ics.end());
    const std::vector<char> ind = denseAssembly() ? independentInOrder(matrixOf(all)) : independentInOrder(sparseOf(all));
    const int rank = static_cast<int>(std::count(ind.begin(), ind.begin() + static_cast<long>(rows.size()), 1));
    std::vector<std::string> given;
    for (const JointRT& j : joints_)
      if (rates ? j.icRate : j.icValue) given.push_back(j.id);
    for (size_t i = 0; i < ics.size(); ++i) {
      if (ind[rows.size() + i]) continue;
      const JointRT* j = nullptr;
      for (const JointRT& c : joints_)
        if (c.id == given[i]) j = &c;
      const char* what = rates ? "rates" : "coordinates";
      std::ostringstream o;
      o << "over-specified initial conditions: the mechanism has " << 6 * moving - rank
        << " degree(s) of freedom, which the joints, motions and couplers";
      if (i > 0) o << " with the initial " << what << " of " << quoted(std::vector<std::string>(given.begin(), given.begin() + static_cast<long>(i)));
      o << " already fix at the assembled pose; initial " << what << " are given on " << quoted(given) << ": remove one";
      fail(j->id, std::string("initial.") + fieldOf(j->type, rates), o.str());
    }
  }
  // An initial angle is met on the turn nearest it (the pose is the same).
  const double turn = 2.0 * std::numbers::pi;
  for (const JointRT& j : joints_)
    if (j.icValue && j.wind >= 0) y[j.wind] += turn * std::round((*j.icValue - y[j.wind]) / turn);
}

void MultibodySystem::reportStart(const std::vector<double>& user) {
  const std::vector<double>& y = y0_;
  std::vector<Kin> k, ku;
  kinematics(y.data(), k);
  kinematics(user.data(), ku);
  // The projection holds the initial rates exactly unless the joints fix the
  // rate there (a slider-crank at a dead centre): then no velocity meets it.
  for (const JointRT& j : joints_) {
    if (!j.icRate) continue;
    double rate = 0.0;
    jointCoordinate(j, k, y.data(), &rate);
    if (std::abs(rate - *j.icRate) > 1e-9 * std::max(1.0, std::abs(*j.icRate))) {
      std::ostringstream o;
      o << "cannot be met at the assembled pose, where the other joints fix this rate (a dead centre?): it would start at "
        << rate;
      fail(j.id, std::string("initial.") + fieldOf(j.type, true), o.str());
    }
  }
  // Parts the assembly moved, largest first; velocities the user gave that
  // the projection changed.
  std::vector<std::pair<double, std::string>> moved;
  std::ostringstream changed;
  int nChanged = 0;
  for (size_t b = 0; b < bodies_.size(); ++b) {
    const BodyRT& B = bodies_[b];
    if (B.ground) continue;
    const V3 armU = ku[b].A * B.cm, arm = k[b].A * B.cm;  // origin -> centre of mass
    const double dr = ((k[b].r - arm) - (ku[b].r - armU)).norm();
    const Eigen::Quaterniond qu(ku[b].A), q(k[b].A);
    const double turn = qu.angularDistance(q);
    if (dr > kMovedBy || turn > kMovedBy) {
      std::ostringstream o;
      o << "'" << B.id << "' by " << shown(dr, 0.0) << " m and " << shown(turn, 0.0) << " rad ("
        << shown(turn, 0.0) * 180.0 / std::numbers::pi << " deg)";
      moved.push_back({std::max(dr, turn), o.str()});
    }
    const V3 vU = ku[b].v - ku[b].ww.cross(armU), v = k[b].v - k[b].ww.cross(arm);  // of the origin
    if (vU.isZero(0.0) && ku[b].ww.isZero(0.0)) continue;                         // none given
    auto differs = [](const V3& a, const V3& c) { return (a - c).norm() > 1e-9 + 1e-6 * a.norm(); };
    const bool dv = differs(vU, v), dw = differs(ku[b].ww, k[b].ww);
    if (!dv && !dw) continue;
    changed << (nChanged++ ? "; '" : "'") << B.id << "'";
    if (dw) changed << " angular velocity " << vec(ku[b].ww) << " -> " << vec(k[b].ww) << " rad/s";
    if (dv) changed << (dw ? "," : "") << " velocity " << vec(vU) << " -> " << vec(v) << " m/s";
  }
  if (!moved.empty()) {
    std::sort(moved.rbegin(), moved.rend());
    std::ostringstream o;
    o << "assembly moved parts from where they were placed (part frame origin and rotation):";
    for (size_t i = 0; i < moved.size() && i < 8; ++i) o << (i ? "; " : " ") << moved[i].second;
    if (moved.size() > 8) o << "; and " << moved.size() - 8 << " more by less";
    messages_.push_back(o.str());
  }
  if (nChanged > 0)
    messages_.push_back("velocity projection changed the initial velocities given, to satisfy the joints and motions: " +
                        changed.str() + " (joint initial rates set a start velocity exactly)");
}

}  // namespace pm::mb
