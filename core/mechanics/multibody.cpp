#include "mechanics/multibody.h"

#include "mechanics/mechanism_types.h"
#include "model/message_text.h"

#include <algorithm>
#include <atomic>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>

#include <Eigen/OrderingMethods>
#include <Eigen/SparseLU>
#include <Eigen/SparseQR>
#include <stdexcept>

namespace pm::mb {

namespace {

[[noreturn]] void fail(const std::string& id, const std::string& field, const std::string& msg) {
  throw std::runtime_error(id + ": " + (field.empty() ? "" : field + ": ") + msg);
}

double param(const std::map<std::string, double>& p, const char* n, double def) {
  auto it = p.find(n);
  return it == p.end() ? def : it->second;
}

// ADAMS STEP(x, x0, h0, x1, h1), cubic.
double step(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  const double s = (x - x0) / (x1 - x0);
  return h0 + (h1 - h0) * s * s * (3.0 - 2.0 * s);
}

// Contact force of penetration pen >= 0 and penetration rate: k pen^e with
// damping ramped over the depth d; never pulls.
double contact(double pen, double penRate, double k, double e, double c, double d) {
  if (pen <= 0.0) return 0.0;
  const double f = k * std::pow(pen, e) + step(pen, 0.0, 0.0, d, c) * penRate;
  return std::max(f, 0.0);
}

bool isRevolute(const std::string& t) { return t == "revolute"; }

// Up to this many rigid-body coordinates (6 per part) the index-1 solve for
// accelerations and reactions is dense.
constexpr int kDenseAccelerationsUpTo = 120;
// Largest rotation of a part in one static Newton step [rad].
constexpr double kMaxStaticTurn = 0.2 * std::numbers::pi;
// Up to this many, too, the assembly's and redundancy check's
// decompositions are dense (complete orthogonal, Gram-Schmidt); above, a
// sparse QR of C^T in declaration order (joints declared along a chain
// keep the fill low, lower than COLAMD's order): the dense ones cost
// O(m n^2), most of a long ladder's construction.
constexpr int kDenseAssemblyUpTo = 120;

using SpMat = Eigen::SparseMatrix<double>;

// MultibodySystem::forceDense (tests and pneumech-bench --dense only).
std::atomic<bool> gForceDense{false};
// MultibodySystem::lumpFixedJoints.
std::atomic<bool> gLump{true};  // read by the output thread's compile too

// Inertia of a point mass m at d about the origin (parallel-axis theorem).
M3 steiner(double m, const V3& d) { return m * (d.squaredNorm() * M3::Identity() - d * d.transpose()); }

// Minimum-norm solution of A z = b (A m x n, possibly rank-deficient, b
// consistent): with A^T P = Q R (sparse QR, rank r), z = Q [R11^-T (P^T b)_r; 0];
// the dependent rows (P's last m - r) hold when b is consistent.
Eigen::VectorXd minimumNorm(const SpMat& A, const Eigen::VectorXd& b) {
  const SpMat At = A.transpose();
  Eigen::SparseQR<SpMat, Eigen::NaturalOrdering<int>> qr;
  qr.setPivotThreshold(1e-12);
  qr.compute(At);
  if (qr.info() != Eigen::Success) throw std::runtime_error("mechanism: sparse QR of the constraint matrix failed");
  const Eigen::Index r = qr.rank();
  const Eigen::VectorXd pb = qr.colsPermutation().transpose() * b;
  const SpMat R11 = qr.matrixR().topLeftCorner(r, r);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(At.rows());
  w.head(r) = R11.transpose().triangularView<Eigen::Lower>().solve(pb.head(r));
  return qr.matrixQ() * w;
}

// The same where A is square and regular (a 0-DOF mechanism's kinematics),
// then its only solution, by a sparse LU: the QR's Householder updates cost
// several times more on long ladders. Singular: the QR's minimum norm.
Eigen::VectorXd minimumNormSquare(const SpMat& A, const Eigen::VectorXd& b) {
  if (A.rows() == A.cols()) {
    Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu(A);
    if (lu.info() == Eigen::Success) {
      Eigen::VectorXd z = lu.solve(b);
      if (z.allFinite()) return z;
    }
  }
  return minimumNorm(A, b);
}

// Groups of columns that share no row, greedily in column order (Curtis,
// Powell and Reid): a finite-difference Jacobian needs one evaluation per
// group instead of one per column.
std::vector<std::vector<int>> columnGroups(const std::vector<std::vector<int>>& colRows, int nRows) {
  std::vector<std::vector<int>> rowCols(nRows), groups;
  for (size_t c = 0; c < colRows.size(); ++c)
    for (int r : colRows[c]) rowCols[r].push_back(static_cast<int>(c));
  std::vector<int> colour(colRows.size(), -1), taken(colRows.size() + 1, -1);
  for (size_t c = 0; c < colRows.size(); ++c) {
    for (int r : colRows[c])
      for (int c2 : rowCols[r])
        if (colour[c2] >= 0) taken[colour[c2]] = static_cast<int>(c);
    int k = 0;
    while (taken[k] == static_cast<int>(c)) ++k;
    colour[c] = k;
    if (k == static_cast<int>(groups.size())) groups.emplace_back();
    groups[k].push_back(static_cast<int>(c));
  }
  return groups;
}

}  // namespace

double MultibodySystem::ForceRT::par(const char* n) const { return param(p, n, 0.0); }

double MultibodySystem::ForceRT::scale(double t) const {
  if (!hasTable) return 1.0;
  double f, df, ddf;
  table.eval(t, f, df, ddf);
  return f;
}

// ------------------------------------------------------------------ build

MultibodySystem::MultibodySystem(const Mechanism& m, const ExternalLoads& loads) : g_(v3(m.gravity)) {
  // Ground first, so body 0 is the world.
  const PartDef* groundDef = nullptr;
  for (const PartDef& p : m.parts)
    if (p.ground) groundDef = &p;
  std::vector<const PartDef*> order;
  if (groundDef) order.push_back(groundDef);
  for (const PartDef& p : m.parts)
    if (!p.ground) order.push_back(&p);
  std::vector<char> userFixed;
  for (const PartDef* pd : order) {
    BodyRT b;
    b.id = pd->id;
    b.ground = pd->ground;
    if (!b.ground) {
      b.m = pd->mass;
      const auto& I = pd->inertia;
      b.J << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
      if (b.m > 0.0 && b.J.determinant() > 0.0) b.Jinv = b.J.inverse();
      b.cm = v3(pd->cm);
      const M3 R = fromRpy(pd->orientation);
      b.r0 = v3(pd->position) + R * b.cm;
      b.p0 = fromMatrix(R);
      const V3 w = v3(pd->angular_velocity);
      b.v0 = v3(pd->velocity) + w.cross(R * b.cm);
      b.w0 = R.transpose() * w;
      if (pd->initial_fixed) b.assemblyScale = 1e-3;
    }
    const int bi = static_cast<int>(bodies_.size());
    for (const MarkerDef& k : pd->markers) {
      MarkerRT mk;
      mk.name = pd->id + "." + k.id;
      mk.body = bi;
      mk.s = v3(k.position) - b.cm;
      mk.A = fromRpy(k.orientation);
      markers_.push_back(mk);
    }
    if (!b.ground) {
      PartRT pt;
      pt.id = b.id;
      pt.body = bi;
      pt.m = b.m;
      pt.J = b.J;
      pt.cm = b.cm;
      parts_.push_back(pt);
    }
    bodies_.push_back(b);
    userFixed.push_back(pd->initial_fixed ? 1 : 0);
  }
  if (bodies_.empty() || !bodies_[0].ground) {  // validation normally catches this
    BodyRT g;
    g.id = "ground";
    g.ground = true;
    bodies_.insert(bodies_.begin(), g);
    userFixed.insert(userFixed.begin(), 0);
    for (auto& mk : markers_) ++mk.body;
    for (auto& pt : parts_) ++pt.body;
  }
  // The regularisation from the user's parts: the same with or without lumping.
  double massSum = 0.0;
  int massCount = 0;
  for (const BodyRT& b : bodies_)
    if (!b.ground && b.m > 0.0) massSum += b.m, ++massCount;
  if (massCount > 0) compliance_ = 1e-12 * massCount / massSum;
  const std::vector<int> lumped = gLump ? lumpWelded(m, loads, userFixed) : std::vector<int>(m.joints.size(), -1);
  int n = 0;
  for (BodyRT& b : bodies_)
    if (!b.ground) {
      b.slot = n;
      n += 14;
    }

  auto markerIdx = [&](const std::string& ref, const std::string& id, const char* field) {
    const int k = marker(ref);
    if (k < 0) fail(id, field, "no marker '" + ref + "'");
    return k;
  };
  int rows = 0;
  auto addRows = [&](const std::string& owner, int count, bool position, const std::vector<std::string>& eqs) {
    for (int r = 0; r < count; ++r) {
      RowInfo ri;
      ri.owner = owner;
      ri.equation = r < static_cast<int>(eqs.size()) ? eqs[r] : "";
      ri.mu = position ? n++ : -1;
      ri.lambda = n++;
      rowInfo_.push_back(ri);
      ++rows;
    }
  };
  for (size_t a = 0; a < m.joints.size(); ++a) {
    const JointDef& jd = m.joints[a];
    if (!jd.initial.empty() && !jointInitialNames(jd.type))
      fail(jd.id, "initial", "initial conditions are set on revolute, translational or cylindrical joints");
    if (jd.type == "coupler") continue;
    if (lumped[a] >= 0) {
      jointOut_.push_back(-1 - lumped[a]);
      continue;
    }
    JointRT j;
    j.id = jd.id;
    j.type = jd.type;
    j.I = markerIdx(jd.i, jd.id, "i");
    j.J = markerIdx(jd.j, jd.id, "j");
    j.lower = param(jd.params, "lower", -INFINITY);
    j.upper = param(jd.params, "upper", INFINITY);
    j.k = param(jd.params, "limit_stiffness", 1e6);
    j.e = param(jd.params, "limit_exponent", 1.5);
    j.c = param(jd.params, "limit_damping", 100.0);
    j.d = param(jd.params, "limit_depth", 1e-4);
    j.icValue = jd.initial.value;
    j.icRate = jd.initial.rate;
    std::vector<std::string> eqs;
    const std::vector<std::string> pt = {"x_I - x_J", "y_I - y_J", "z_I - z_J"};
    const std::string zx = "z_I . x_J", zy = "z_I . y_J", xy = "x_I . y_J", dx = "x_J . (P_I - P_J)",
                      dy = "y_J . (P_I - P_J)", dz = "z_J . (P_I - P_J)";
    if (j.type == "spherical") eqs = pt;
    else if (j.type == "revolute") eqs = {pt[0], pt[1], pt[2], zx, zy};
    else if (j.type == "translational") eqs = {zx, zy, dx, dy, xy};
    else if (j.type == "cylindrical") eqs = {zx, zy, dx, dy};
    else if (j.type == "universal") eqs = {pt[0], pt[1], pt[2], xy};
    else if (j.type == "planar") eqs = {zx, zy, dz};
    else if (j.type == "fixed") eqs = {pt[0], pt[1], pt[2], zx, zy, xy};
    else fail(jd.id, "type", "unknown joint type '" + jd.type + "'");
    using K = JointRT::Kind;
    j.kind = j.type == "spherical"       ? K::Spherical
             : j.type == "revolute"      ? K::Revolute
             : j.type == "translational" ? K::Translational
             : j.type == "cylindrical"   ? K::Cylindrical
             : j.type == "universal"     ? K::Universal
             : j.type == "planar"        ? K::Planar
                                         : K::Fixed;
    j.firstRow = rows;
    j.nRows = static_cast<int>(eqs.size());
    addRows(jd.id, j.nRows, true, eqs);
    jointOut_.push_back(static_cast<int>(joints_.size()));
    joints_.push_back(j);
  }
  auto jointIdx = [&](const std::string& id) {
    for (size_t i = 0; i < joints_.size(); ++i)
      if (joints_[i].id == id) return static_cast<int>(i);
    return -1;
  };
  for (const MotionDef& md : m.motions) {
    MotionRT mo;
    mo.id = md.id;
    mo.joint = jointIdx(md.joint);
    if (mo.joint < 0) fail(md.id, "joint", "no joint '" + md.joint + "'");
    mo.velocity = md.quantity == "velocity";
    mo.f = TimeFunction(md.function, md.params, md.table, md.interpolation);
    mo.row = rows;
    addRows(md.id, 1, true,
            {(isRevolute(joints_[mo.joint].type) ? "angle - f(t)" : "displacement - f(t)") +
             std::string(mo.velocity ? ", f = q0 + integral of the velocity" : "")});
    motions_.push_back(std::move(mo));
  }
  for (const JointDef& jd : m.joints) {
    if (jd.type != "coupler") continue;
    JointRT j;
    j.id = jd.id;
    j.type = jd.type;
    j.kind = JointRT::Kind::Coupler;
    for (int k = 0; k < 2; ++k) {
      j.coupled[k] = jointIdx(jd.joints.at(k));
      if (j.coupled[k] < 0) fail(jd.id, "joints", "no joint '" + jd.joints.at(k) + "'");
    }
    j.ratio = param(jd.params, "ratio", -1.0);
    j.firstRow = rows;
    j.nRows = 1;
    // Position level on the continuous coordinates (revolute angles count
    // whole turns), so a gear pair stays exact over any number of turns.
    addRows(jd.id, 1, true, {"q1 + ratio q2 - (q1 + ratio q2)(0)"});
    jointOut_.push_back(static_cast<int>(joints_.size()));
    joints_.push_back(j);
  }
  for (const ForceDef& fd : m.forces) {
    ForceRT f;
    f.id = fd.id;
    f.type = fd.type;
    f.I = markerIdx(fd.i, fd.id, "i");
    f.J = fd.j.empty() ? -1 : markerIdx(fd.j, fd.id, "j");
    f.ref = fd.ref.empty() ? -1 : markerIdx(fd.ref, fd.id, "ref");
    // Declared defaults first (mechanism_types.cpp), then what the file sets.
    if (const MechTypeDecl* t = findForceType(fd.type))
      for (const ParamDecl& d : t->params) f.p[d.name] = d.def;
    for (const auto& [k, v] : fd.params) f.p[k] = v;
    if (!fd.table.empty()) {
      f.hasTable = true;
      f.table = TimeFunction("table", {}, fd.table, fd.interpolation);
    }
    forces_.push_back(std::move(f));
  }
  // Winding states last: the part and multiplier slots stay where they were.
  // Every revolute joint has one, so every joint angle counts whole turns.
  for (JointRT& j : joints_)
    if (j.kind == JointRT::Kind::Revolute) {
      j.wind = n++;
      windings_.push_back({j.wind, j.I, j.J});
    }
  for (ForceRT& f : forces_)
    if (f.type == "rotational_spring_damper") {
      f.wind = n++;
      windings_.push_back({f.wind, f.I, f.J});
    }
  nStates_ = n;
  for (const JointRT& j : joints_) hasLimits_ = hasLimits_ || std::isfinite(j.lower) || std::isfinite(j.upper);

  y0_.assign(n, 0.0);
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    for (int k = 0; k < 3; ++k) {
      y0_[b.slot + k] = b.r0[k];
      y0_[b.slot + 7 + k] = b.v0[k];
      y0_[b.slot + 10 + k] = b.w0[k];
    }
    for (int k = 0; k < 4; ++k) y0_[b.slot + 3 + k] = b.p0[k];
  }
  trackWindings(y0_.data());  // from 0: the wrapped angles of the user's pose
  assemble();

  // Channels.
  auto ch = [&](const std::string& n2, const char* u) { channels_.push_back({n2, u}); };
  for (const PartRT& b : parts_) {
    for (const char* q : {"x", "y", "z"}) ch(b.id + "." + q, "m");
    for (const char* q : {"roll", "pitch", "yaw"}) ch(b.id + "." + q, "rad");
    for (const char* q : {"vx", "vy", "vz"}) ch(b.id + "." + q, "m/s");
    for (const char* q : {"wx", "wy", "wz"}) ch(b.id + "." + q, "rad/s");
    for (const char* q : {"ax", "ay", "az"}) ch(b.id + "." + q, "m/s2");
    for (const char* q : {"alpha_x", "alpha_y", "alpha_z"}) ch(b.id + "." + q, "rad/s2");
  }
  for (int o : jointOut_) {
    if (o < 0) {
      const std::string& id = lumpedJoints_[-1 - o].id;
      for (const char* q : {"Fx", "Fy", "Fz"}) ch(id + "." + q, "N");
      for (const char* q : {"Tx", "Ty", "Tz"}) ch(id + "." + q, "N m");
      continue;
    }
    const JointRT& j = joints_[o];
    if (j.type == "coupler") {
      ch(j.id + ".effort", "N|N m");
      continue;
    }
    for (const char* q : {"Fx", "Fy", "Fz"}) ch(j.id + "." + q, "N");
    for (const char* q : {"Tx", "Ty", "Tz"}) ch(j.id + "." + q, "N m");
    if (j.type == "revolute") {
      ch(j.id + ".angle", "rad");
      ch(j.id + ".rate", "rad/s");
      ch(j.id + ".alpha", "rad/s2");
    } else if (j.type == "translational" || j.type == "cylindrical") {
      ch(j.id + ".displacement", "m");
      ch(j.id + ".velocity", "m/s");
      ch(j.id + ".acceleration", "m/s2");
    }
  }
  for (const MotionRT& mo : motions_) {
    const bool rev = isRevolute(joints_[mo.joint].type);
    ch(mo.id + ".effort", rev ? "N m" : "N");
    ch(mo.id + ".value", rev ? "rad" : "m");
  }
  for (const ForceRT& f : forces_) {
    if (f.type == "bushing") {
      for (const char* q : {"Fx", "Fy", "Fz"}) ch(f.id + "." + q, "N");
      for (const char* q : {"Tx", "Ty", "Tz"}) ch(f.id + "." + q, "N m");
    } else if (f.type == "vforce") {
      for (const char* q : {"Fx", "Fy", "Fz"}) ch(f.id + "." + q, "N");
    } else if (f.type == "vtorque") {
      for (const char* q : {"Tx", "Ty", "Tz"}) ch(f.id + "." + q, "N m");
    } else if (f.type == "rotational_spring_damper" || (f.type == "sforce" && f.par("rotational") > 0.5)) {
      ch(f.id + ".T", "N m");
      if (f.type == "rotational_spring_damper") ch(f.id + ".angle", "rad");
    } else {
      ch(f.id + ".F", "N");
      if (f.type == "spring_damper") ch(f.id + ".length", "m");
      if (f.type == "impact") ch(f.id + ".penetration", "m");
    }
  }
  for (const char* q : {"E_kinetic", "E_potential", "E_total"}) ch(std::string("mechanism.") + q, "J");
  ch("mechanism.residual_position", "m");
  ch("mechanism.residual_velocity", "m/s");

  // Roots at contact onsets, so the integrator meets the kink there.
  for (const ForceRT& f : forces_)
    if (f.type == "impact") {
      const ForceRT* fp = &f;
      rootFns_.push_back([this, fp](double, const double*, const std::vector<Kin>& k) {
        const V3 z = markerAxes(fp->J, k).col(2);
        return z.dot(markerPoint(fp->I, k) - markerPoint(fp->J, k)) - fp->par("x1");
      });
    }
  for (const JointRT& j : joints_) {
    if (j.type == "coupler") continue;
    const JointRT* jp = &j;
    if (std::isfinite(j.lower))
      rootFns_.push_back([this, jp](double, const double* y, const std::vector<Kin>& k) {
        return jointCoordinate(*jp, k, y) - jp->lower;
      });
    if (std::isfinite(j.upper))
      rootFns_.push_back([this, jp](double, const double* y, const std::vector<Kin>& k) {
        return jp->upper - jointCoordinate(*jp, k, y);
      });
  }
}

void MultibodySystem::lumpFixedJoints(bool on) { gLump = on; }

std::vector<int> MultibodySystem::lumpWelded(const Mechanism& m, const ExternalLoads& loads,
                                             const std::vector<char>& userFixed) {
  const size_t nj = m.joints.size();
  std::vector<int> lumped(nj, -1);
  std::vector<char> pinned(nj, 0);  // a motion, coupler or actuator uses the joint
  std::vector<int> ji(nj, -1), jj(nj, -1);
  auto pin = [&](const std::string& id) {
    for (size_t a = 0; a < nj; ++a)
      if (m.joints[a].id == id) pinned[a] = 1;
  };
  for (size_t a = 0; a < nj; ++a) {
    const JointDef& jd = m.joints[a];
    if (jd.type == "coupler") {
      for (const std::string& id : jd.joints) pin(id);
      continue;
    }
    ji[a] = marker(jd.i);  // unknown: never lumped, and the joint's own check reports it
    jj[a] = marker(jd.j);
  }
  for (const MotionDef& md : m.motions) pin(md.joint);
  for (const std::string& id : loads.joints) pin(id);
  // References of each marker by force elements and actuators.
  std::vector<int> refs(markers_.size(), 0);
  auto ref = [&](const std::string& name) {
    if (const int k = name.empty() ? -1 : marker(name); k >= 0) ++refs[k];
  };
  for (const ForceDef& fd : m.forces) ref(fd.i), ref(fd.j), ref(fd.ref);
  for (const std::string& name : loads.markers) ref(name);
  std::vector<char> gone(bodies_.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    // Uses of each body's markers: a body used by one fixed joint alone is a leaf.
    std::vector<int> uses(bodies_.size(), 0);
    for (size_t k = 0; k < markers_.size(); ++k) uses[markers_[k].body] += refs[k];
    for (size_t a = 0; a < nj; ++a)
      if (lumped[a] < 0 && ji[a] >= 0 && jj[a] >= 0) ++uses[markers_[ji[a]].body], ++uses[markers_[jj[a]].body];
    for (size_t a = 0; a < nj && !changed; ++a) {
      if (m.joints[a].type != "fixed" || lumped[a] >= 0 || pinned[a] || ji[a] < 0 || jj[a] < 0) continue;
      for (int side = 0; side < 2 && !changed; ++side) {
        const int ml = side == 0 ? ji[a] : jj[a], mo = side == 0 ? jj[a] : ji[a];
        const int bl = markers_[ml].body, bo = markers_[mo].body;
        if (bl == bo || bodies_[bl].ground || userFixed[bl] || uses[bl] != 1) continue;
        BodyRT& L = bodies_[bl];
        BodyRT& C = bodies_[bo];
        // The weld's equations (P_I = P_J, z_I . x_J = z_I . y_J = x_I . y_J
        // = 0) also hold with two of I's axes reversed against J's: the
        // branch nearest the user's pose, as the assembly would find it.
        const M3 D = (rotation(C.p0) * markers_[mo].A).transpose() * (rotation(L.p0) * markers_[ml].A);
        M3 S = M3::Identity();
        double best = D.trace();
        for (const V3& sg : {V3(1, -1, -1), V3(-1, 1, -1), V3(-1, -1, 1)})
          if (sg.dot(D.diagonal()) > best) best = sg.dot(D.diagonal()), S = sg.asDiagonal();
        // The leaf's frame in the carrier's part frame, from the markers
        // alone: the assembly would move the leaf there anyway.
        const M3 R = markers_[mo].A * S * markers_[ml].A.transpose();
        const V3 t = markers_[mo].s + C.cm - R * (markers_[ml].s + L.cm);
        LumpedJointRT lj;
        lj.id = m.joints[a].id;
        lj.I = ji[a];
        lj.J = jj[a];
        lj.leafIsI = side == 0;
        for (size_t p = 0; p < parts_.size(); ++p)
          if (parts_[p].body == bl) {
            lj.group.push_back(static_cast<int>(p));
            parts_[p].body = bo;
            parts_[p].lumped = true;
            parts_[p].t = t + R * parts_[p].t;
            parts_[p].R = R * parts_[p].R;
          }
        lumpedJoints_.push_back(std::move(lj));
        // Composite mass, centre of mass and inertia about it, carrier axes
        // (the ground stays the world frame).
        V3 cm = C.cm;
        if (!C.ground) {
          const V3 q = t + R * L.cm;  // the leaf's centre of mass
          const double mt = C.m + L.m;
          if (mt > 0.0) cm = (C.m * C.cm + L.m * q) / mt;
          C.J = C.J + steiner(C.m, C.cm - cm) + R * L.J * R.transpose() + steiner(L.m, q - cm);
          C.m = mt;
          C.Jinv = mt > 0.0 && C.J.determinant() > 0.0 ? M3(C.J.inverse()) : M3(M3::Zero());
          // The carrier's initial pose and velocity kept, now of the composite's centre of mass.
          const M3 A0 = rotation(C.p0);
          const V3 ww = A0 * C.w0, o = C.r0 - A0 * C.cm, vo = C.v0 - ww.cross(A0 * C.cm);
          C.r0 = o + A0 * cm;
          C.v0 = vo + ww.cross(A0 * cm);
        }
        for (MarkerRT& mk : markers_)
          if (mk.body == bl) {
            mk.s = t + R * (mk.s + L.cm) - cm;
            mk.A = R * mk.A;
            mk.body = bo;
          } else if (mk.body == bo) {
            mk.s += C.cm - cm;
          }
        C.cm = cm;
        gone[bl] = 1;
        lumped[a] = static_cast<int>(lumpedJoints_.size()) - 1;
        changed = true;
      }
    }
  }
  // Drop the lumped bodies.
  std::vector<int> index(bodies_.size(), -1);
  std::vector<BodyRT> kept;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!gone[b]) {
      index[b] = static_cast<int>(kept.size());
      kept.push_back(std::move(bodies_[b]));
    }
  bodies_ = std::move(kept);
  for (MarkerRT& mk : markers_) mk.body = index[mk.body];
  for (PartRT& p : parts_) p.body = index[p.body];
  return lumped;
}

void MultibodySystem::partMotion(const PartRT& p, const Kin& kb, const V3& ab, const V3& alphab, V3& r, V3& a,
                                 M3& A) const {
  const V3 d = kb.A * (p.t + p.R * p.cm - bodies_[p.body].cm);
  r = kb.r + d;
  a = ab + alphab.cross(d) + kb.ww.cross(kb.ww.cross(d));
  A = kb.A * p.R;
}

void MultibodySystem::partKinematics(const double* y, int part, Kin& k) const {
  const PartRT& p = parts_[part];
  Kin kb;
  bodyKinematics(y, p.body, kb);
  const V3 d = kb.A * (p.t + p.R * p.cm - bodies_[p.body].cm);
  k.r = kb.r + d;
  k.v = kb.v + kb.ww.cross(d);
  k.A = kb.A * p.R;
  k.p = fromMatrix(k.A);
  k.ww = kb.ww;
  k.w = k.A.transpose() * kb.ww;
}

int MultibodySystem::marker(const std::string& name) const {
  for (size_t i = 0; i < markers_.size(); ++i)
    if (markers_[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<MultibodySystem::StateDecl> MultibodySystem::stateDecls(double atolPos) const {
  std::vector<StateDecl> d(nStates_);
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    const char* xyz[] = {"x", "y", "z"};
    for (int k = 0; k < 3; ++k) {
      d[b.slot + k] = {b.id + ".r" + xyz[k], "m", std::string("dr/dt - v + Phi_r^T mu   [centre of mass]"), true, atolPos};
      // Velocities as tight as positions: the velocity constraints are met
      // only as well as Newton meets these states.
      d[b.slot + 7 + k] = {b.id + ".v" + xyz[k], "m/s", "dv/dt - (F - Phi_r^T lambda)/m", true, atolPos};
      d[b.slot + 10 + k] = {b.id + ".w" + xyz[k] + "'", "rad/s", "dw'/dt - J'^-1 (n' - w' x J'w' - Phi_pi'^T lambda)",
                            true, atolPos};
    }
    for (int k = 0; k < 4; ++k)
      d[b.slot + 3 + k] = {b.id + ".e" + std::to_string(k), "1",
                           "dp/dt - 1/2 L^T w' + 2 L^T Phi_pi'^T mu + p mu_n   [Euler parameters]", true, atolPos};
    d[b.slot + 13] = {b.id + ".mu_n", "1", "(p.p - 1)/2", false, kMultiplierAtol};
  }
  for (const RowInfo& r : rowInfo_) {
    if (r.mu >= 0) d[r.mu] = {r.owner + ".mu", "1", r.equation + "   [position level]", false, kMultiplierAtol};
    d[r.lambda] = {r.owner + ".lambda", "N", "d/dt(" + r.equation + ")   [velocity level]", false, kMultiplierAtol};
  }
  // Only the branch (whole turns) is taken from a winding state; it is
  // integrated as tightly as the positions all the same.
  for (const JointRT& j : joints_)
    if (j.wind >= 0)
      d[j.wind] = {j.id + ".winding", "rad", "d theta/dt - rate   [continuous angle: the atan2 branch nearest theta]", true, atolPos};
  for (const ForceRT& f : forces_)
    if (f.wind >= 0)
      d[f.wind] = {f.id + ".winding", "rad", "d theta/dt - rate   [continuous angle: the atan2 branch nearest theta]", true, atolPos};
  return d;
}

std::vector<std::vector<int>> MultibodySystem::couplingGroups() const {
  std::vector<std::vector<int>> g;
  auto bodyStates = [&](int b, std::vector<int>& v) {
    if (bodies_[b].ground) return;
    for (int k = 0; k < 14; ++k) v.push_back(bodies_[b].slot + k);
  };
  // Joint limit stops act like force elements between the joint's parts.
  for (const JointRT& j : joints_) {
    if (j.kind == JointRT::Kind::Coupler || (!std::isfinite(j.lower) && !std::isfinite(j.upper))) continue;
    std::vector<int> v;
    bodyStates(markers_[j.I].body, v);
    bodyStates(markers_[j.J].body, v);
    if (!v.empty()) g.push_back(v);
  }
  for (const ForceRT& f : forces_) {
    std::vector<int> v;
    bodyStates(markers_[f.I].body, v);
    if (f.J >= 0) bodyStates(markers_[f.J].body, v);
    if (f.ref >= 0) bodyStates(markers_[f.ref].body, v);
    if (!v.empty()) g.push_back(v);
  }
  return g;
}

std::vector<std::pair<int, int>> MultibodySystem::couplingEntries() const {
  std::vector<std::pair<int, int>> e;
  auto block = [&](int r0, int nr, int c0, int nc) {
    for (int i = 0; i < nr; ++i)
      for (int j = 0; j < nc; ++j) e.emplace_back(r0 + i, c0 + j);
  };
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    const int s = b.slot;
    for (int a = 0; a < 3; ++a) e.emplace_back(s + a, s + 7 + a);  // dr/dt - v
    block(s + 3, 4, s + 3, 4);                                      // Euler parameter rows: p, w', mu_n
    block(s + 3, 4, s + 10, 3);
    block(s + 3, 4, s + 13, 1);
    block(s + 10, 3, s + 10, 3);  // gyroscopic w' x J w'
    block(s + 13, 1, s + 3, 4);   // normalisation
  }
  for (const Winding& w : windings_)  // d theta/dt - z_J . (w_I - w_J)
    for (int m : {w.I, w.J}) {
      const BodyRT& b = bodies_[markers_[m].body];
      if (b.ground) continue;
      block(w.state, 1, b.slot + 3, 4);
      block(w.state, 1, b.slot + 10, 3);
    }
  // Parts each constraint row acts on, and whether its Jacobian row depends
  // on the parts' positions r: only the dot-2 primitive's does (the point and
  // dot-1 rows' coefficients depend on the orientations alone).
  std::vector<std::vector<int>> rowBodies(rowInfo_.size());
  std::vector<char> rowOnR(rowInfo_.size(), 0);
  using K = JointRT::Kind;
  auto hasDot2 = [](const JointRT& j) { return j.kind == K::Translational || j.kind == K::Cylindrical || j.kind == K::Planar; };
  auto addBodies = [&](int r, const JointRT& j, bool onR) {
    rowOnR[r] = onR;
    if (j.kind == K::Coupler) {
      for (int c : j.coupled)
        for (int m : {joints_[c].I, joints_[c].J}) rowBodies[r].push_back(markers_[m].body);
    } else {
      rowBodies[r].push_back(markers_[j.I].body);
      rowBodies[r].push_back(markers_[j.J].body);
    }
  };
  for (const JointRT& j : joints_) {
    const bool onR = j.kind == K::Coupler ? joints_[j.coupled[0]].kind != K::Revolute || joints_[j.coupled[1]].kind != K::Revolute
                                          : hasDot2(j);
    for (int r = j.firstRow; r < j.firstRow + j.nRows; ++r) addBodies(r, j, onR);
  }
  for (const MotionRT& mo : motions_) addBodies(mo.row, joints_[mo.joint], joints_[mo.joint].kind != K::Revolute);
  for (size_t r = 0; r < rowInfo_.size(); ++r) {
    const RowInfo& info = rowInfo_[r];
    if (!info.active) continue;  // y = 0: the diagonal only
    for (int b : rowBodies[r]) {
      if (bodies_[b].ground) continue;
      const int s = bodies_[b].slot;
      if (info.mu >= 0) {
        block(info.mu, 1, s, 7);  // Phi(r, p)
        block(s, 7, info.mu, 1);  // Phi_q^T mu in the position rows
      }
      const int q0 = rowOnR[r] ? 0 : 3;  // first coordinate C depends on: r, or p only
      block(info.lambda, 1, s + q0, 13 - q0);  // C v + Phi_t
      block(s + 7, 6, info.lambda, 1);         // reactions C^T lambda
      // C depends on the parts' positions, in the momentum rows (times lambda)
      // and in the position rows (times mu). mu vanishes on the solution, but
      // not during Newton's iteration: without those entries a ladder of 32
      // four-bars stalled (corrector failures at t = 0.78 s).
      for (int b2 : rowBodies[r])
        if (!bodies_[b2].ground) {
          block(s + 7, 6, bodies_[b2].slot + q0, 7 - q0);
          if (info.mu >= 0) block(s, 7, bodies_[b2].slot + q0, 7 - q0);
        }
    }
  }
  return e;
}

// ------------------------------------------------------------------ kinematics

void MultibodySystem::bodyKinematics(const double* y, int i, Kin& q) const {
  const BodyRT& b = bodies_[i];
  if (b.ground) {
    q.r.setZero();
    q.v.setZero();
    q.w.setZero();
    q.ww.setZero();
    q.p = Q4(1, 0, 0, 0);
    q.A.setIdentity();
    return;
  }
  const double* s = y + b.slot;
  q.r = V3(s[0], s[1], s[2]);
  q.p = Q4(s[3], s[4], s[5], s[6]);
  q.v = V3(s[7], s[8], s[9]);
  q.w = V3(s[10], s[11], s[12]);
  q.A = rotation(q.p);
  q.ww = q.A * q.w;
}

void MultibodySystem::kinematics(const double* y, std::vector<Kin>& k) const {
  k.resize(bodies_.size());
  for (size_t i = 0; i < bodies_.size(); ++i) bodyKinematics(y, static_cast<int>(i), k[i]);
}

int MultibodySystem::joint(const std::string& id) const {
  for (size_t i = 0; i < joints_.size(); ++i)
    if (joints_[i].id == id) return static_cast<int>(i);
  return -1;
}

double MultibodySystem::jointCoordinateAt(const double* y, int j, double* rate) const {
  // Only the joint's two parts: sensors and attached actuators read this
  // at every evaluation and root check (so no allocation either: a run's
  // threads each keep their scratch).
  thread_local std::vector<Kin> k;
  if (k.size() < bodies_.size()) k.resize(bodies_.size());
  bodyKinematics(y, markers_[joints_[j].I].body, k[markers_[joints_[j].I].body]);
  bodyKinematics(y, markers_[joints_[j].J].body, k[markers_[joints_[j].J].body]);
  return jointCoordinate(joints_[j], k, y, rate);
}

void MultibodySystem::trackWindings(double* y) const {
  if (windings_.empty()) return;
  std::vector<Kin> k;
  kinematics(y, k);
  for (const Winding& w : windings_) y[w.state] = relativeAngle(w.I, w.J, k, w.state, y, nullptr);
}

void MultibodySystem::predict(std::vector<double>& y, double dt) const {
  std::vector<double> dx;
  for (const BodyRT& b : bodies_)
    if (!b.ground)
      for (int a = 7; a < 13; ++a) dx.push_back(y[b.slot + a]);
  setPositions(y, Eigen::Map<Eigen::VectorXd>(dx.data(), static_cast<Eigen::Index>(dx.size())), dt);
}

double MultibodySystem::motionTurn(double t0, double t1) const {
  double most = 0.0;
  for (const MotionRT& mo : motions_) {
    if (joints_[mo.joint].kind != JointRT::Kind::Revolute) continue;
    auto value = [&](double t) {
      if (mo.velocity) return mo.q0 + mo.f.integral(t);
      double f, df, ddf;
      mo.f.eval(t, f, df, ddf);
      return f;
    };
    double path = 0.0, last = value(t0);
    for (int i = 1; i <= 16; ++i) {
      const double v = value(t0 + (t1 - t0) * i / 16.0);
      path += std::abs(v - last);
      last = v;
    }
    most = std::max(most, path);
  }
  return most;
}

// A torque (revolute) or force (translational, cylindrical) along the
// joint's coordinate: on I's part, and the reaction on J's part.
void MultibodySystem::applyJointEffort(int j, const std::vector<Kin>& k, double f) {
  const JointRT& jt = joints_[j];
  const V3 z = markerAxes(jt.J, k).col(2);
  const int bi = markers_[jt.I].body, bj = markers_[jt.J].body;
  if (isRevolute(jt.type)) {
    applyForce(bi, k[bi].r, V3::Zero(), f * z);
    applyForce(bj, k[bj].r, V3::Zero(), -f * z);
  } else {
    const V3 P = markerPoint(jt.I, k);
    applyForce(bi, P, f * z);
    applyForce(bj, P, -f * z);
  }
}

void MultibodySystem::markerState(const double* y, int m, V3& pos, V3& vel) const {
  const MarkerRT& mk = markers_[m];
  const BodyRT& b = bodies_[mk.body];
  if (b.ground) {
    pos = mk.s;
    vel.setZero();
    return;
  }
  const double* s = y + b.slot;
  const M3 A = rotation(Q4(s[3], s[4], s[5], s[6]));
  const V3 arm = A * mk.s;
  pos = V3(s[0], s[1], s[2]) + arm;
  vel = V3(s[7], s[8], s[9]) + (A * V3(s[10], s[11], s[12])).cross(arm);
}

V3 MultibodySystem::markerPoint(int m, const std::vector<Kin>& k) const {
  const MarkerRT& mk = markers_[m];
  return k[mk.body].r + k[mk.body].A * mk.s;
}
V3 MultibodySystem::markerVelocity(int m, const std::vector<Kin>& k) const {
  const MarkerRT& mk = markers_[m];
  return k[mk.body].v + k[mk.body].ww.cross(k[mk.body].A * mk.s);
}
M3 MultibodySystem::markerAxes(int m, const std::vector<Kin>& k) const { return k[markers_[m].body].A * markers_[m].A; }

// ------------------------------------------------------------------ constraints

namespace {
// The primitives write into a row the caller placed (the residual builds
// every row at every evaluation: no copies).
struct Prims {
  const std::vector<MarkerRT>& mk;
  const std::vector<Kin>& k;
  // Component `axis` (world) of P_I - P_J.
  void point(Row& r, int I, int J, int axis) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 n = V3::Unit(axis);
    r.n = 0;
    r.phit = 0.0;
    r.phi = n.dot(ki.r + ki.A * a.s - kj.r - kj.A * b.s);
    r.add(a.body, n, a.s.cross(ki.A.row(axis).transpose()));
    r.add(b.body, -n, -b.s.cross(kj.A.row(axis).transpose()));
  }
  Row point(int I, int J, int axis) const {
    Row r;
    point(r, I, J, axis);
    return r;
  }
  // The three components of P_I - P_J: the same rows as point(), the
  // marker offsets rotated once.
  template <class NextRow>
  void points(NextRow next, int I, int J) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 d = ki.r + ki.A * a.s - kj.r - kj.A * b.s;
    for (int axis = 0; axis < 3; ++axis) {
      Row& r = next();
      const V3 n = V3::Unit(axis);
      r.n = 0;
      r.phit = 0.0;
      r.phi = n.dot(d);
      r.add(a.body, n, a.s.cross(ki.A.row(axis).transpose()));
      r.add(b.body, -n, -b.s.cross(kj.A.row(axis).transpose()));
    }
  }
  // Axis ai of I dotted with axis aj of J.
  void dot1(Row& r, int I, int ai, int J, int aj) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 ub = a.A.col(ai), wb = b.A.col(aj), u = ki.A * ub, w = kj.A * wb;
    r.n = 0;
    r.phit = 0.0;
    r.phi = u.dot(w);
    r.add(a.body, V3::Zero(), ub.cross(ki.A.transpose() * w));
    r.add(b.body, V3::Zero(), wb.cross(kj.A.transpose() * u));
  }
  Row dot1(int I, int ai, int J, int aj) const {
    Row r;
    dot1(r, I, ai, J, aj);
    return r;
  }
  // Axis aj of J dotted with P_I - P_J.
  void dot2(Row& r, int I, int J, int aj) const {
    const MarkerRT &a = mk[I], &b = mk[J];
    const Kin &ki = k[a.body], &kj = k[b.body];
    const V3 wb = b.A.col(aj), w = kj.A * wb;
    const V3 d = ki.r + ki.A * a.s - kj.r - kj.A * b.s;
    r.n = 0;
    r.phit = 0.0;
    r.phi = w.dot(d);
    r.add(a.body, w, a.s.cross(ki.A.transpose() * w));
    r.add(b.body, -w, -b.s.cross(kj.A.transpose() * w) + wb.cross(kj.A.transpose() * d));
  }
  Row dot2(int I, int J, int aj) const {
    Row r;
    dot2(r, I, J, aj);
    return r;
  }
};

Row combine(const Row& a, double ca, const Row& b, double cb) {
  Row r;
  for (int i = 0; i < a.n; ++i) r.add(a.b[i], ca * a.r[i], ca * a.p[i]);
  for (int i = 0; i < b.n; ++i) r.add(b.b[i], cb * b.r[i], cb * b.p[i]);
  r.phi = ca * a.phi + cb * b.phi;
  return r;
}
}  // namespace

void MultibodySystem::jointRows(const JointRT& j, const std::vector<Kin>& k, std::vector<Row>& out, size_t& n) const {
  const Prims P{markers_, k};
  const int I = j.I, J = j.J;
  // Rows of the last build are overwritten in place (each primitive sets
  // every field it uses); new ones appended on the first build.
  auto row = [&]() -> Row& {
    if (n == out.size()) out.emplace_back();
    return out[n++];
  };
  auto pts = [&] { P.points(row, I, J); };
  using K = JointRT::Kind;
  switch (j.kind) {
    case K::Spherical:
      pts();
      break;
    case K::Revolute:
      pts();
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      break;
    case K::Translational:
    case K::Cylindrical:
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      P.dot2(row(), I, J, 0);
      P.dot2(row(), I, J, 1);
      if (j.kind == K::Translational) P.dot1(row(), I, 0, J, 1);
      break;
    case K::Universal:
      pts();
      P.dot1(row(), I, 0, J, 1);
      break;
    case K::Planar:
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      P.dot2(row(), I, J, 2);
      break;
    case K::Fixed:
      pts();
      P.dot1(row(), I, 2, J, 0);
      P.dot1(row(), I, 2, J, 1);
      P.dot1(row(), I, 0, J, 1);
      break;
    case K::Coupler:
      break;
  }
}

double MultibodySystem::relativeAngle(int I, int J, const std::vector<Kin>& k, int wind, const double* y,
                                      double* rate) const {
  const M3 AI = markerAxes(I, k), AJ = markerAxes(J, k);
  if (rate) *rate = AJ.col(2).dot(k[markers_[I].body].ww - k[markers_[J].body].ww);
  const double a = std::atan2(AI.col(0).dot(AJ.col(1)), AI.col(0).dot(AJ.col(0)));
  if (wind < 0 || !y) return a;
  // The branch nearest the winding state: continuous through +-pi, counting turns.
  const double ref = y[wind];
  return ref + std::remainder(a - ref, 2.0 * std::numbers::pi);
}

double MultibodySystem::jointCoordinate(const JointRT& j, const std::vector<Kin>& k, const double* y, double* rate) const {
  if (j.kind == JointRT::Kind::Revolute) return relativeAngle(j.I, j.J, k, j.wind, y, rate);
  const M3 AJ = markerAxes(j.J, k);
  const V3 d = markerPoint(j.I, k) - markerPoint(j.J, k);
  if (rate) {
    const V3 dd = markerVelocity(j.I, k) - markerVelocity(j.J, k);
    *rate = AJ.col(2).dot(dd) + k[markers_[j.J].body].ww.cross(AJ.col(2)).dot(d);
  }
  return AJ.col(2).dot(d);
}

double MultibodySystem::jointAcceleration(const JointRT& j, const std::vector<Kin>& k, const std::vector<V3>& acc,
                                          const std::vector<V3>& alpha) const {
  const int bi = markers_[j.I].body, bj = markers_[j.J].body;
  const V3 z = markerAxes(j.J, k).col(2), wJ = k[bj].ww, zd = wJ.cross(z);  // z_J and its rate
  if (j.kind == JointRT::Kind::Revolute)  // d/dt of z . (w_I - w_J)
    return z.dot(alpha[bi] - alpha[bj]) + zd.dot(k[bi].ww - k[bj].ww);
  // d2/dt2 of z . d, d = P_I - P_J: z . d'' + 2 z' . d' + z'' . d.
  auto pointAcc = [&](int m, int b) {
    const V3 s = k[b].A * markers_[m].s;
    return V3(acc[b] + alpha[b].cross(s) + k[b].ww.cross(k[b].ww.cross(s)));
  };
  const V3 d = markerPoint(j.I, k) - markerPoint(j.J, k);
  const V3 dd = markerVelocity(j.I, k) - markerVelocity(j.J, k);
  const V3 ddd = pointAcc(j.I, bi) - pointAcc(j.J, bj);
  return z.dot(ddd) + 2.0 * zd.dot(dd) + (alpha[bj].cross(z) + wJ.cross(zd)).dot(d);
}

// Derivative of the joint coordinate (angle about z_J, or travel along z_J).
Row MultibodySystem::coordinateRow(const JointRT& j, const std::vector<Kin>& k, const double* y) const {
  if (j.kind == JointRT::Kind::Revolute) {
    const V3 z = markerAxes(j.J, k).col(2);
    Row r;
    const int bi = markers_[j.I].body, bj = markers_[j.J].body;
    r.add(bi, V3::Zero(), k[bi].A.transpose() * z);
    r.add(bj, V3::Zero(), -(k[bj].A.transpose() * z));
    r.phi = jointCoordinate(j, k, y);
    return r;
  }
  return Prims{markers_, k}.dot2(j.I, j.J, 2);
}

void MultibodySystem::buildRows(double t, const double* y, const std::vector<Kin>& k, std::vector<Row>& out) const {
  size_t n = 0;
  auto put = [&](const Row& r) {
    if (n == out.size()) out.push_back(r);
    else out[n] = r;
    ++n;
  };
  for (const JointRT& j : joints_)
    if (j.kind != JointRT::Kind::Coupler) jointRows(j, k, out, n);
  for (const MotionRT& mo : motions_) {
    const JointRT& j = joints_[mo.joint];
    double f, df, ddf;
    mo.f.eval(t, f, df, ddf);
    if (mo.velocity) {
      df = f;
      f = mo.q0 + mo.f.integral(t);
    }
    // On the continuous coordinate: a revolute motion sets the angle with its
    // turns, so f(t) has one solution, not one per half turn.
    Row r = coordinateRow(j, k, y);
    r.phi -= f;
    r.phit = -df;
    put(r);
  }
  for (const JointRT& j : joints_)
    if (j.kind == JointRT::Kind::Coupler) {
      Row r = combine(coordinateRow(joints_[j.coupled[0]], k, y), 1.0, coordinateRow(joints_[j.coupled[1]], k, y), j.ratio);
      r.phi -= j.c0;
      put(r);
    }
  out.resize(n);
}

// ------------------------------------------------------------------ forces

void MultibodySystem::applyForce(int b, const V3& P, const V3& f, const V3& tau) {
  if (bodies_[b].ground) return;
  if (pushed_) (*pushed_)[b] = 1;
  const Kin& k = kin_[b];
  F_[b] += f;
  N_[b] += k.A.transpose() * ((P - k.r).cross(f) + tau);
}

void MultibodySystem::forces(double t, const double* y, const std::vector<Kin>& k) {
  if (forces_.empty() && !hasLimits_) return;
  forceValues(t, y, k, forceVals_);
}

// Applies every force element (and joint limit) and returns the values the
// channels show, in channel order.
void MultibodySystem::forceValues(double t, const double* y, const std::vector<Kin>& k, std::vector<double>& vals) {
  vals.clear();
  for (const JointRT& j : joints_) {
    using K = JointRT::Kind;
    if (!std::isfinite(j.lower) && !std::isfinite(j.upper)) continue;
    if (j.kind != K::Revolute && j.kind != K::Translational && j.kind != K::Cylindrical) continue;
    double rate = 0.0;
    const double q = jointCoordinate(j, k, y, &rate);
    double f = 0.0;
    if (std::isfinite(j.lower)) f += contact(j.lower - q, -rate, j.k, j.e, j.c, j.d);
    if (std::isfinite(j.upper)) f -= contact(q - j.upper, rate, j.k, j.e, j.c, j.d);
    if (f == 0.0) continue;
    const V3 z = markerAxes(j.J, k).col(2);
    const int bi = markers_[j.I].body, bj = markers_[j.J].body;
    if (isRevolute(j.type)) {
      applyForce(bi, k[bi].r, V3::Zero(), f * z);
      applyForce(bj, k[bj].r, V3::Zero(), -f * z);
    } else {
      const V3 P = markerPoint(j.I, k);
      applyForce(bi, P, f * z);
      applyForce(bj, P, -f * z);
    }
  }
  for (const ForceRT& fe : forces_) {
    const int bi = markers_[fe.I].body;
    const int bj = fe.J >= 0 ? markers_[fe.J].body : -1;
    const V3 PI = markerPoint(fe.I, k);
    const double sc = fe.scale(t);
    if (fe.type == "spring_damper") {
      const V3 PJ = markerPoint(fe.J, k);
      const V3 d = PJ - PI;
      const double l = d.norm();
      const V3 u = l > 0 ? V3(d / l) : V3::UnitZ();
      const double ldot = u.dot(markerVelocity(fe.J, k) - markerVelocity(fe.I, k));
      // Tension: pulls I towards J.
      const double T = fe.par("stiffness") * (l - fe.par("free_length")) + fe.par("damping") * ldot - fe.par("preload");
      applyForce(bi, PI, T * u);
      applyForce(bj, PJ, -T * u);
      vals.push_back(-T);  // positive = pushing apart, like the preload
      vals.push_back(l);
    } else if (fe.type == "rotational_spring_damper") {
      const V3 z = markerAxes(fe.J, k).col(2);
      double rate = 0.0;
      const double th = relativeAngle(fe.I, fe.J, k, fe.wind, y, &rate);
      const double T = -fe.par("stiffness") * (th - fe.par("free_angle")) - fe.par("damping") * rate + fe.par("preload");
      applyForce(bi, k[bi].r, V3::Zero(), T * z);
      applyForce(bj, k[bj].r, V3::Zero(), -T * z);
      vals.push_back(T);
      vals.push_back(th);
    } else if (fe.type == "bushing") {
      const M3 AI = markerAxes(fe.I, k), AJ = markerAxes(fe.J, k);
      const V3 PJ = markerPoint(fe.J, k);
      const V3 d = AJ.transpose() * (PI - PJ);
      const Eigen::AngleAxisd aa(M3(AJ.transpose() * AI));
      const V3 th = aa.angle() * aa.axis();
      const V3 wJ = AJ.transpose() * k[bj].ww;
      const V3 dd = AJ.transpose() * (markerVelocity(fe.I, k) - markerVelocity(fe.J, k)) - wJ.cross(d);
      const V3 wr = AJ.transpose() * (k[bi].ww - k[bj].ww);
      V3 F, T;
      const char* kn[] = {"kx", "ky", "kz"};
      const char* cn[] = {"cx", "cy", "cz"};
      const char* ktn[] = {"ktx", "kty", "ktz"};
      const char* ctn[] = {"ctx", "cty", "ctz"};
      for (int a = 0; a < 3; ++a) {
        F[a] = -fe.par(kn[a]) * d[a] - fe.par(cn[a]) * dd[a];
        T[a] = -fe.par(ktn[a]) * th[a] - fe.par(ctn[a]) * wr[a];
      }
      applyForce(bi, PI, AJ * F, AJ * T);
      applyForce(bj, PI, -(AJ * F), -(AJ * T));
      for (int a = 0; a < 3; ++a) vals.push_back(F[a]);
      for (int a = 0; a < 3; ++a) vals.push_back(T[a]);
    } else if (fe.type == "sforce") {
      const double v = fe.par("value") * sc;
      if (fe.par("rotational") > 0.5) {
        const V3 z = markerAxes(fe.I, k).col(2);
        applyForce(bi, k[bi].r, V3::Zero(), v * z);
        if (bj >= 0) applyForce(bj, k[bj].r, V3::Zero(), -v * z);
      } else if (bj >= 0) {
        const V3 PJ = markerPoint(fe.J, k);
        const V3 d = PI - PJ;
        const double l = d.norm();
        const V3 u = l > 0 ? V3(d / l) : V3::UnitZ();
        applyForce(bi, PI, v * u);
        applyForce(bj, PJ, -v * u);
      } else {
        applyForce(bi, PI, v * markerAxes(fe.I, k).col(2));
      }
      vals.push_back(v);
    } else if (fe.type == "vforce" || fe.type == "vtorque") {
      const M3 R = fe.ref >= 0 ? markerAxes(fe.ref, k) : M3::Identity();
      const bool force = fe.type == "vforce";
      const V3 c = force ? V3(fe.par("fx"), fe.par("fy"), fe.par("fz")) : V3(fe.par("tx"), fe.par("ty"), fe.par("tz"));
      const V3 v = R * c * sc;
      if (force) {
        applyForce(bi, PI, v);
        if (bj >= 0) applyForce(bj, PI, -v);
      } else {
        applyForce(bi, PI, V3::Zero(), v);
        if (bj >= 0) applyForce(bj, PI, V3::Zero(), -v);
      }
      for (int a = 0; a < 3; ++a) vals.push_back(v[a]);
    } else if (fe.type == "impact") {
      const V3 z = markerAxes(fe.J, k).col(2);
      const V3 PJ = markerPoint(fe.J, k);
      const V3 d = PI - PJ;
      const double x = z.dot(d);
      const double xd = z.dot(markerVelocity(fe.I, k) - markerVelocity(fe.J, k)) + k[bj].ww.cross(z).dot(d);
      const double pen = fe.par("x1") - x;
      const double F = contact(pen, -xd, fe.par("stiffness"), fe.par("exponent"), fe.par("damping"), fe.par("depth"));
      applyForce(bi, PI, F * z);
      applyForce(bj, PI, -F * z);
      vals.push_back(F);
      vals.push_back(std::max(pen, 0.0));
    }
  }
}

// ------------------------------------------------------------------ residual

void MultibodySystem::residual(double t, const double* y, const double* yp, double* res) {
  const size_t nb = bodies_.size();
  kinematics(y, kin_);
  F_.assign(nb, V3::Zero());
  N_.assign(nb, V3::Zero());
  CR_.assign(nb, V3::Zero());
  CP_.assign(nb, V3::Zero());
  for (size_t b = 0; b < nb; ++b)
    if (!bodies_[b].ground) F_[b] = bodies_[b].m * g_;
  forces(t, y, kin_);
  if (externalForces) externalForces(t, y, kin_, *this);
  buildRows(t, y, kin_, rowsScratch_);
  for (size_t i = 0; i < rowsScratch_.size(); ++i) {
    const RowInfo& info = rowInfo_[i];
    const Row& r = rowsScratch_[i];
    if (!info.active) {
      if (info.mu >= 0) res[info.mu] = y[info.mu];
      res[info.lambda] = y[info.lambda];
      continue;
    }
    const double lam = y[info.lambda], mu = info.mu >= 0 ? y[info.mu] : 0.0;
    double vel = r.phit;
    for (int q = 0; q < r.n; ++q) {
      const int b = r.b[q];
      if (bodies_[b].ground) continue;
      F_[b] -= r.r[q] * lam;
      N_[b] -= r.p[q] * lam;
      CR_[b] += r.r[q] * mu;
      CP_[b] += r.p[q] * mu;
      vel += r.r[q].dot(kin_[b].v) + r.p[q].dot(kin_[b].w);
    }
    // Regularised by compliance_ (see multibody.h): the iteration matrix
    // stays regular where the constraints lose rank.
    if (info.mu >= 0) res[info.mu] = r.phi - compliance_ * mu;
    res[info.lambda] = vel - compliance_ * lam;
  }
  for (size_t b = 0; b < nb; ++b) {
    const BodyRT& B = bodies_[b];
    if (B.ground) continue;
    const Kin& k = kin_[b];
    const int s = B.slot;
    const Eigen::Matrix<double, 3, 4> L = Lmat(k.p);
    const Q4 pd = 0.5 * L.transpose() * k.w - 2.0 * L.transpose() * CP_[b] - k.p * y[s + 13];
    const V3 acc = F_[b] / B.m;
    const V3 alpha = B.Jinv * (N_[b] - k.w.cross(B.J * k.w));
    for (int a = 0; a < 3; ++a) {
      res[s + a] = yp[s + a] - k.v[a] + CR_[b][a];
      res[s + 7 + a] = yp[s + 7 + a] - acc[a];
      res[s + 10 + a] = yp[s + 10 + a] - alpha[a];
    }
    for (int a = 0; a < 4; ++a) res[s + 3 + a] = yp[s + 3 + a] - pd[a];
    res[s + 13] = 0.5 * (k.p.squaredNorm() - 1.0);
  }
  for (const Winding& w : windings_) {
    // The rate alone (relativeAngle's): no atan2 and one marker axis.
    const MarkerRT &mi = markers_[w.I], &mj = markers_[w.J];
    const V3 z = kin_[mj.body].A * mj.A.col(2);
    res[w.state] = yp[w.state] - z.dot(kin_[mi.body].ww - kin_[mj.body].ww);
  }
}

void MultibodySystem::appliedForces(double t, const double* y, std::vector<V3>& F, std::vector<V3>& N, double* rates) {
  const size_t nb = bodies_.size();
  kinematics(y, kin_);
  if (rates) windingRatesOf(kin_, rates);
  F_.assign(nb, V3::Zero());
  N_.assign(nb, V3::Zero());
  for (size_t b = 0; b < nb; ++b)
    if (!bodies_[b].ground) F_[b] = bodies_[b].m * g_;
  forces(t, y, kin_);
  if (externalForces) externalForces(t, y, kin_, *this);
  F = F_;
  N = N_;
}

// ------------------------------------------------------------------ assembly

Eigen::MatrixXd MultibodySystem::matrixOf(const std::vector<Row>& rows) const {
  std::vector<int> col(bodies_.size(), -1);
  int nm = 0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) col[b] = 6 * nm++;
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(static_cast<int>(rows.size()), 6 * nm);
  for (size_t i = 0; i < rows.size(); ++i)
    for (int q = 0; q < rows[i].n; ++q) {
      const int c = col[rows[i].b[q]];
      if (c < 0) continue;
      C.block<1, 3>(i, c) += rows[i].r[q].transpose();
      C.block<1, 3>(i, c + 3) += rows[i].p[q].transpose();
    }
  return C;
}

Eigen::SparseMatrix<double> MultibodySystem::sparseOf(const std::vector<Row>& rows) const {
  std::vector<int> col(bodies_.size(), -1);
  int nm = 0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) col[b] = 6 * nm++;
  std::vector<Eigen::Triplet<double>> tr;
  for (size_t i = 0; i < rows.size(); ++i)
    for (int q = 0; q < rows[i].n; ++q) {
      const int c = col[rows[i].b[q]];
      if (c < 0) continue;
      for (int a = 0; a < 3; ++a) {
        tr.emplace_back(static_cast<int>(i), c + a, rows[i].r[q][a]);
        tr.emplace_back(static_cast<int>(i), c + 3 + a, rows[i].p[q][a]);
      }
    }
  SpMat C(static_cast<Eigen::Index>(rows.size()), 6 * nm);
  C.setFromTriplets(tr.begin(), tr.end());  // sums duplicates, as matrixOf does
  return C;
}

bool MultibodySystem::denseAssembly() const {
  int nm = 0;
  for (const BodyRT& b : bodies_)
    if (!b.ground) ++nm;
  return gForceDense || 6 * nm <= kDenseAssemblyUpTo;
}

void MultibodySystem::forceDense(bool on) { gForceDense = on; }

std::vector<Row> MultibodySystem::activeRows(const std::vector<Row>& rows) const {
  std::vector<Row> act;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rowInfo_[i].active) act.push_back(rows[i]);
  return act;
}

Eigen::MatrixXd MultibodySystem::constraintMatrix(const std::vector<Row>& rows, bool activeOnly) const {
  return matrixOf(activeOnly ? activeRows(rows) : rows);
}

void MultibodySystem::setPositions(std::vector<double>& y, const Eigen::VectorXd& dx, double scale) const {
  // Windings move with the linearised change of their angle first, then take
  // the nearest branch: a step of more than half a turn keeps its turns.
  if (!windings_.empty()) {
    std::vector<Kin> k;
    kinematics(y.data(), k);
    std::vector<int> col(bodies_.size(), -1);
    int nm = 0;
    for (size_t b = 0; b < bodies_.size(); ++b)
      if (!bodies_[b].ground) col[b] = 6 * nm++;
    auto turn = [&](int m) {  // world rotation of the marker's part
      const int b = markers_[m].body;
      return col[b] < 0 ? V3(V3::Zero()) : V3(k[b].A * dx.segment<3>(col[b] + 3));
    };
    for (const Winding& w : windings_)
      y[w.state] += scale * markerAxes(w.J, k).col(2).dot(turn(w.I) - turn(w.J));
  }
  int c = 0;
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    for (int a = 0; a < 3; ++a) y[b.slot + a] += scale * dx[c + a];
    Q4 p(y[b.slot + 3], y[b.slot + 4], y[b.slot + 5], y[b.slot + 6]);
    p = rotated(p / p.norm(), scale * dx.segment<3>(c + 3));
    for (int a = 0; a < 4; ++a) y[b.slot + 3 + a] = p[a];
    c += 6;
  }
  trackWindings(y.data());
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
      if (it >= 100 || stall >= 8) {
        // Least-squares has converged to a point that misses: the loop cannot close.
        std::vector<std::pair<double, std::string>> worst;
        for (size_t i = 0; i < sel.size(); ++i)
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
        if (!icOwners.empty()) o << ", and that the joints' initial conditions can be met together";
        const std::string who = worst.empty() ? "mechanism" : worst.front().second.substr(0, worst.front().second.find(' '));
        fail(who, "", o.str());
      }
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
  }
  kinematics(y.data(), k);
  buildRows(0.0, y.data(), k, rows);
  findRedundant(rows);
  initialConditionRows(k, y.data(), true, ics);
  projectVelocities(0.0, y, &ics);
  reportStart(user);
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

// ------------------------------------------------------------------ consistent accelerations

void MultibodySystem::writeKinematicDerivatives(double* y, double* yp) const {
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    const int s = b.slot;
    const Q4 p(y[s + 3], y[s + 4], y[s + 5], y[s + 6]);
    const V3 w(y[s + 10], y[s + 11], y[s + 12]);
    const Q4 pd = 0.5 * Lmat(p).transpose() * w;
    for (int a = 0; a < 3; ++a) yp[s + a] = y[s + 7 + a];
    for (int a = 0; a < 4; ++a) yp[s + 3 + a] = pd[a];
    y[s + 13] = 0.0;
  }
  for (const RowInfo& r : rowInfo_)
    if (r.mu >= 0) y[r.mu] = 0.0;
  if (!windings_.empty()) {
    std::vector<double> rates(windings_.size());
    windingRates(y, rates.data());
    for (size_t i = 0; i < windings_.size(); ++i) yp[windings_[i].state] = rates[i];
  }
}

// gamma = -d/dt (C v + Phi_t) at fixed v: the right-hand side of C a = gamma.
// Central differences along the motion; the step keeps the truncation error
// near 1e-10 relative. Only the constraint rows are built at the shifted
// poses (the forces do not enter; multipliers are zero in yv).
Eigen::VectorXd MultibodySystem::accelerationRhs(double t, const std::vector<double>& yv) {
  const double eps = 1e-5;
  int m = 0;
  for (const RowInfo& r : rowInfo_)
    if (r.active) ++m;
  auto velocityRows = [&](double h) {
    shifted_ = yv;  // positions moved along the current velocities
    for (const BodyRT& b : bodies_) {
      if (b.ground) continue;
      const int s = b.slot;
      for (int a = 0; a < 3; ++a) shifted_[s + a] += h * yv[s + 7 + a];
      Q4 p(shifted_[s + 3], shifted_[s + 4], shifted_[s + 5], shifted_[s + 6]);
      p = rotated(p, h * V3(yv[s + 10], yv[s + 11], yv[s + 12]));
      for (int a = 0; a < 4; ++a) shifted_[s + 3 + a] = p[a];
    }
    kinematics(shifted_.data(), kinShifted_);
    buildRows(t + h, shifted_.data(), kinShifted_, rowsShifted_);
    Eigen::VectorXd g(m);
    int i = 0;
    for (size_t ri = 0; ri < rowsShifted_.size(); ++ri) {
      if (!rowInfo_[ri].active) continue;
      const Row& r = rowsShifted_[ri];
      double vel = r.phit;  // as the residual's velocity row
      for (int q = 0; q < r.n; ++q) {
        const int b = r.b[q];
        if (bodies_[b].ground) continue;
        vel += r.r[q].dot(kinShifted_[b].v) + r.p[q].dot(kinShifted_[b].w);
      }
      g[i++] = vel;
    }
    return g;
  };
  const Eigen::VectorXd plus = velocityRows(eps);
  return -(plus - velocityRows(-eps)) / (2.0 * eps);
}

void MultibodySystem::requireMass() const {
  for (const BodyRT& b : bodies_) {
    if (b.ground) continue;
    if (!(b.m > 0.0))
      fail(b.id, "mass",
           "is 0 kg: a simulation needs a positive mass on every moving part (a massless part is allowed welded by a "
           "fixed joint to a part with mass, and in the kinematic and static analyses)");
    if (!(b.Jinv.allFinite() && b.Jinv.norm() > 0.0))
      fail(b.id, "inertia",
           "is not positive definite: a simulation needs every moving part's inertia tensor positive definite "
           "(Ixx, Iyy, Izz > 0)");
  }
}

void MultibodySystem::solveAccelerations(double t, double* y, double* yp, const std::vector<V3>* F,
                                         const std::vector<V3>* Nb) {
  requireMass();
  const bool knownAcc = F != nullptr;
  std::vector<int> moving, col(bodies_.size(), -1);
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) {
      col[b] = 6 * static_cast<int>(moving.size());
      moving.push_back(static_cast<int>(b));
    }
  const int n6 = 6 * static_cast<int>(moving.size());
  // Unconstrained accelerations from the applied forces (lambda = 0).
  Eigen::VectorXd a0(n6);
  std::vector<double> yv;
  if (knownAcc) {
    kinematics(y, kin_);
    buildRows(t, y, kin_, rowsScratch_);
    for (size_t q = 0; q < moving.size(); ++q) {
      const BodyRT& B = bodies_[moving[q]];
      const Kin& k = kin_[moving[q]];
      a0.segment<3>(6 * q) = (*F)[moving[q]] / B.m;
      a0.segment<3>(6 * q + 3) = B.Jinv * ((*Nb)[moving[q]] - k.w.cross(B.J * k.w));
    }
  } else {
    const int N = nStates_;
    yv.assign(y, y + N);
    for (const RowInfo& r : rowInfo_) {
      yv[r.lambda] = 0.0;
      if (r.mu >= 0) yv[r.mu] = 0.0;
    }
    std::vector<double> zero(N, 0.0), res(N);
    residual(t, yv.data(), zero.data(), res.data());
    for (size_t q = 0; q < moving.size(); ++q) {
      const int s = bodies_[moving[q]].slot;
      for (int a = 0; a < 3; ++a) {
        a0[6 * q + a] = -res[s + 7 + a];
        a0[6 * q + 3 + a] = -res[s + 10 + a];
      }
    }
  }
  // The rows at these positions (built by the residual, or above).
  const std::vector<Row>& rows = rowsScratch_;
  int m = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    if (rowInfo_[i].active) ++m;
  Eigen::VectorXd gamma(m);
  if (knownAcc) {  // C a of the given accelerations
    int i = 0;
    for (size_t ri = 0; ri < rows.size(); ++ri) {
      if (!rowInfo_[ri].active) continue;
      const Row& r = rows[ri];
      double v = 0.0;
      for (int q = 0; q < r.n; ++q) {
        const BodyRT& B = bodies_[r.b[q]];
        if (B.ground) continue;
        v += r.r[q].dot(V3(yp[B.slot + 7], yp[B.slot + 8], yp[B.slot + 9])) +
             r.p[q].dot(V3(yp[B.slot + 10], yp[B.slot + 11], yp[B.slot + 12]));
      }
      gamma[i++] = v;
    }
  } else {
    gamma = accelerationRhs(t, yv);
  }
  Eigen::VectorXd lam = Eigen::VectorXd::Zero(m);
  Eigen::VectorXd acc;  // a0 - M^-1 C^T lambda (with given accelerations: not needed)
  if (!knownAcc) acc = a0;
  // Small mechanisms: a dense S = C M^-1 C^T (a sparse factorisation's
  // analysis costs more than the whole dense solve below ~20 parts, and
  // this runs at every output row); C and M^-1 C^T stay row by row, as the
  // rows hold them (a row touches at most four parts).
  if (m > 0 && (n6 <= kDenseAccelerationsUpTo || gForceDense)) {
    // Scratch kept across calls (this runs at every output row): entries of
    // C and M^-1 C^T row by row, and per part its (row, entry) pairs in
    // increasing row order, flat.
    using Entry = AccEntry;
    auto& ent = accEnt_;
    auto& cnt = accCnt_;
    ent.resize(m);
    cnt.assign(m, 0);
    const size_t nb = bodies_.size();
    accOnStart_.assign(nb + 1, 0);
    for (size_t ri = 0; ri < rows.size(); ++ri)
      if (rowInfo_[ri].active)
        for (int q = 0; q < rows[ri].n; ++q)
          if (col[rows[ri].b[q]] >= 0) ++accOnStart_[rows[ri].b[q] + 1];
    for (size_t b = 0; b < nb; ++b) accOnStart_[b + 1] += accOnStart_[b];
    accOnFill_.assign(accOnStart_.begin(), accOnStart_.end() - 1);
    accOn_.resize(accOnStart_[nb]);
    int i = 0;
    for (size_t ri = 0; ri < rows.size(); ++ri) {
      if (!rowInfo_[ri].active) continue;
      const Row& r = rows[ri];
      for (int q = 0; q < r.n; ++q) {
        if (col[r.b[q]] < 0) continue;
        const BodyRT& B = bodies_[r.b[q]];
        accOn_[accOnFill_[r.b[q]]++] = {i, cnt[i]};
        ent[i][cnt[i]++] = {r.b[q], r.r[q], r.p[q], r.r[q] / B.m, B.Jinv * r.p[q]};
      }
      ++i;
    }
    // The lower triangle alone (the Cholesky below reads no more): a part's
    // rows are listed in increasing order.
    Eigen::MatrixXd& S = accS_;
    S.setZero(m, m);
    for (size_t b = 0; b < nb; ++b) {
      const int first = accOnStart_[b], last = accOnStart_[b + 1];
      for (int x = first; x < last; ++x) {
        const auto [j, qb] = accOn_[x];
        const Entry& ej = ent[j][qb];
        for (int w = x; w < last; ++w) {
          const auto [i2, qa] = accOn_[w];
          S(i2, j) += ent[i2][qa].r.dot(ej.mr) + ent[i2][qa].p.dot(ej.mp);
        }
      }
    }
    S.diagonal().array() += compliance_;  // the DAE's regularisation: finite where a loop loses rank
    auto a0Lin = [&](int b) { return a0.segment<3>(col[b]); };
    auto a0Ang = [&](int b) { return a0.segment<3>(col[b] + 3); };
    for (int i2 = 0; i2 < m; ++i2) {  // C a0 - gamma
      double v = 0.0;
      for (int q = 0; q < cnt[i2]; ++q) v += ent[i2][q].r.dot(a0Lin(ent[i2][q].body)) + ent[i2][q].p.dot(a0Ang(ent[i2][q].body));
      lam[i2] = v - gamma[i2];
    }
    // Cholesky in place (lower triangle, right-looking by columns so the
    // inner loops run down contiguous columns and skip the zeros: two rows
    // meet only on a part they share), then the two triangular solves.
    // Eigen's blocked LLT costs more on so few rows.
    double* A = S.data();
    for (int k = 0; k < m; ++k) {
      double* colK = A + static_cast<size_t>(k) * m;
      if (!(colK[k] > 0.0)) fail("mechanism", "", "singular constraint set (a joint fixes what another already fixes?)");
      const double d = std::sqrt(colK[k]);
      colK[k] = d;
      for (int i = k + 1; i < m; ++i) colK[i] /= d;
      for (int j = k + 1; j < m; ++j) {
        const double ljk = colK[j];
        if (ljk == 0.0) continue;
        double* __restrict colJ = A + static_cast<size_t>(j) * m;
        for (int i = j; i < m; ++i) colJ[i] -= ljk * colK[i];
      }
    }
    for (int k = 0; k < m; ++k) {  // L z = b
      const double* colK = A + static_cast<size_t>(k) * m;
      lam[k] /= colK[k];
      const double zk = lam[k];
      if (zk != 0.0)
        for (int i = k + 1; i < m; ++i) lam[i] -= colK[i] * zk;
    }
    for (int k = m - 1; k >= 0; --k) {  // L^T x = z
      const double* colK = A + static_cast<size_t>(k) * m;
      double v = lam[k];
      for (int i = k + 1; i < m; ++i) v -= colK[i] * lam[i];
      lam[k] = v / colK[k];
    }
    for (int i2 = 0; i2 < m && !knownAcc; ++i2)  // a = a0 - M^-1 C^T lambda
      for (int q = 0; q < cnt[i2]; ++q) {
        const Entry& e = ent[i2][q];
        acc.segment<3>(col[e.body]) -= e.mr * lam[i2];
        acc.segment<3>(col[e.body] + 3) -= e.mp * lam[i2];
      }
  } else if (m > 0) {
    // Sparse C and M^-1 C^T: a chain's S = C M^-1 C^T is banded, so the cost
    // grows linearly with the number of parts.
    std::vector<Eigen::Triplet<double>> tc, tm;
    int i = 0;
    for (size_t ri = 0; ri < rows.size(); ++ri) {
      if (!rowInfo_[ri].active) continue;
      const Row& r = rows[ri];
      for (int q = 0; q < r.n; ++q) {
        const int c = col[r.b[q]];
        if (c < 0) continue;
        const BodyRT& B = bodies_[r.b[q]];
        const V3 jp = B.Jinv * r.p[q];
        for (int a = 0; a < 3; ++a) {
          tc.emplace_back(i, c + a, r.r[q][a]);
          tc.emplace_back(i, c + 3 + a, r.p[q][a]);
          tm.emplace_back(c + a, i, r.r[q][a] / B.m);
          tm.emplace_back(c + 3 + a, i, jp[a]);
        }
      }
      ++i;
    }
    Eigen::SparseMatrix<double> C(m, n6), MinvCt(n6, m);
    C.setFromTriplets(tc.begin(), tc.end());
    MinvCt.setFromTriplets(tm.begin(), tm.end());
    Eigen::SparseMatrix<double> I(m, m);
    I.setIdentity();
    const Eigen::SparseMatrix<double> S = C * MinvCt + compliance_ * I;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(S);
    if (ldlt.info() != Eigen::Success) fail("mechanism", "", "singular constraint set (a joint fixes what another already fixes?)");
    lam = ldlt.solve(C * a0 - gamma);
    if (!knownAcc) acc = a0 - MinvCt * lam;
  }
  int i2 = 0;
  for (const RowInfo& r : rowInfo_) {
    if (r.active) y[r.lambda] = lam[i2++];
    else y[r.lambda] = 0.0;
  }
  if (!knownAcc)
    for (size_t q = 0; q < moving.size(); ++q) {
      const int s = bodies_[moving[q]].slot;
      for (int a = 0; a < 3; ++a) {
        yp[s + 7 + a] = acc[6 * q + a];
        yp[s + 10 + a] = acc[6 * q + 3 + a];
      }
    }
  writeKinematicDerivatives(y, yp);
}

void MultibodySystem::makeConsistent(double t, double* y, double* yp) { solveAccelerations(t, y, yp); }

void MultibodySystem::multipliersFor(double t, double* y, double* yp, const std::vector<V3>& F,
                                     const std::vector<V3>& N) {
  solveAccelerations(t, y, yp, &F, &N);
}

// ------------------------------------------------------------------ statics and kinematics

void MultibodySystem::staticEquilibrium(double t, std::vector<double>& y, std::vector<double>& yp) {
  std::vector<int> moving;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) {
      moving.push_back(static_cast<int>(b));
      for (int a = 7; a < 13; ++a) y[bodies_[b].slot + a] = 0.0;  // at rest
    }
  if (moving.empty()) {  // everything welded to the ground: at rest as it is
    yp.assign(nStates_, 0.0);
    return;
  }
  std::vector<int> act;
  for (size_t i = 0; i < rowInfo_.size(); ++i)
    if (rowInfo_[i].active) act.push_back(static_cast<int>(i));
  const int n6 = 6 * static_cast<int>(moving.size()), m = static_cast<int>(act.size()), n = n6 + m;
  std::vector<double> zero(nStates_, 0.0), res(nStates_);
  // G = [applied + reaction forces per part (world force, part-frame torque); Phi]
  auto G = [&](const std::vector<double>& yy) {
    residual(t, yy.data(), zero.data(), res.data());
    Eigen::VectorXd g(n);
    for (size_t q = 0; q < moving.size(); ++q) {
      const BodyRT& B = bodies_[moving[q]];
      g.segment<3>(6 * q) = F_[moving[q]];  // already includes -C^T lambda
      g.segment<3>(6 * q + 3) = N_[moving[q]] - kin_[moving[q]].w.cross(B.J * kin_[moving[q]].w);
    }
    for (int i = 0; i < m; ++i) g[n6 + i] = res[rowInfo_[act[i]].mu];
    return g;
  };
  const bool dense = denseAssembly();
  // Large models: the Jacobian by finite differences over groups of columns
  // that share no row of G (columnGroups), its structure the DAE's
  // (couplingEntries, couplingGroups: the same parts and constraints) plus
  // the parts externalForces act on, all coupled with each other (they are
  // assumed to depend on those parts' positions alone, as the actuators' do).
  // About 20 evaluations of G per Newton step on a chain or a ladder, for
  // any N, where the dense path takes one per column, and a sparse LU.
  std::vector<std::vector<int>> colRows, groups;
  if (!dense) {
    // Local state -> first of its Jacobian columns (and how many); local
    // equation -> first of its rows of G.
    std::vector<int> colAt(nStates_, -1), colsN(nStates_, 0), rowAt(nStates_, -1), rowsN(nStates_, 0);
    for (size_t q = 0; q < moving.size(); ++q) {
      const int s = bodies_[moving[q]].slot, c0 = 6 * static_cast<int>(q);
      for (int a = 0; a < 7; ++a) colAt[s + a] = c0 + (a < 3 ? 0 : 3), colsN[s + a] = 3;  // r -> dr, p -> dpi'
      for (int a = 7; a < 13; ++a) rowAt[s + a] = c0, rowsN[s + a] = 6;
    }
    for (int i = 0; i < m; ++i) {
      colAt[rowInfo_[act[i]].lambda] = n6 + i, colsN[rowInfo_[act[i]].lambda] = 1;
      rowAt[rowInfo_[act[i]].mu] = n6 + i, rowsN[rowInfo_[act[i]].mu] = 1;
    }
    std::vector<std::pair<int, int>> entries = couplingEntries();
    auto couple = [&](const std::vector<int>& states) {
      for (int r : states)
        for (int c : states) entries.emplace_back(r, c);
    };
    for (const std::vector<int>& grp : couplingGroups()) couple(grp);
    if (externalForces) {
      std::vector<char> pushed(bodies_.size(), 0);
      kinematics(y.data(), kin_);
      F_.assign(bodies_.size(), V3::Zero());
      N_.assign(bodies_.size(), V3::Zero());
      pushed_ = &pushed;
      try {
        externalForces(t, y.data(), kin_, *this);
      } catch (...) {
        pushed_ = nullptr;
        throw;
      }
      pushed_ = nullptr;
      std::vector<int> states;
      for (size_t b = 0; b < bodies_.size(); ++b)
        if (pushed[b])
          for (int a = 0; a < 14; ++a) states.push_back(bodies_[b].slot + a);
      couple(states);
    }
    // Blocks (first column, first row) of G's Jacobian, then their entries.
    std::vector<std::pair<int, int>> blocks;
    std::vector<int> colN(n, 0), rowN(n, 0);
    for (const auto& [r, c] : entries) {
      if (rowAt[r] < 0 || colAt[c] < 0) continue;
      blocks.emplace_back(colAt[c], rowAt[r]);
      colN[colAt[c]] = colsN[c];
      rowN[rowAt[r]] = rowsN[r];
    }
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    colRows.assign(n, {});
    for (const auto& [c, r] : blocks)
      for (int j = 0; j < colN[c]; ++j)
        for (int i = 0; i < rowN[r]; ++i) colRows[c + j].push_back(r + i);
    groups = columnGroups(colRows, n);
  }
  auto noUniqueEquilibrium = [&](Eigen::Index rank) {
    fail("mechanism", "", "no unique static equilibrium: " + std::to_string(n - rank) +
                              " direction(s) with neither stiffness nor constraint (add a spring, a motion or a joint)");
  };
  double scaleF = 1.0;
  for (int b : moving) scaleF = std::max(scaleF, bodies_[b].m * g_.norm());
  auto norm = [&](const Eigen::VectorXd& g) { return std::sqrt(g.head(n6).squaredNorm() / (scaleF * scaleF) + 1e6 * g.tail(m).squaredNorm()); };
  auto apply = [&](std::vector<double>& yy, const Eigen::VectorXd& dz, double s) {
    setPositions(yy, dz.head(n6), s);
    for (int i = 0; i < m; ++i) yy[rowInfo_[act[i]].lambda] += s * dz[n6 + i];
  };
  auto fdStep = [&](int c) { return c < n6 ? 1e-7 : 1e-6 * std::max(1.0, std::abs(y[rowInfo_[act[c - n6]].lambda])); };
  Eigen::VectorXd g = G(y);
  std::vector<Kin> k;
  std::vector<Row> rows;
  for (int it = 0; it < 200; ++it) {
    // The reactions that best balance the applied forces at these positions
    // first: Newton then linearises about the right reactions' geometric
    // stiffness. From lambda = 0 a lever pushed by a cylinder took a first
    // step the wrong way and stalled where that stiffness vanished.
    if (m > 0) {
      kinematics(y.data(), k);
      buildRows(t, y.data(), k, rows);
      Eigen::VectorXd dl;
      if (dense) {
        dl = constraintMatrix(rows, true).transpose().completeOrthogonalDecomposition().solve(g.head(n6));
      } else {
        // Least squares C^T dl = forces (C^T has full column rank: the
        // redundant rows are off) by the normal equations C C^T dl = C f:
        // only Newton's start, which then solves for lambda itself; linear
        // in N where a sparse QR of C^T grew like N^2. The QR where C C^T
        // is singular (a loop at a change point).
        const SpMat Cs = sparseOf(activeRows(rows)), Ct = Cs.transpose();
        const Eigen::SimplicialLDLT<SpMat> ne(Cs * Ct);
        if (ne.info() == Eigen::Success) dl = ne.solve(Eigen::VectorXd(Cs * g.head(n6)));
        if (ne.info() != Eigen::Success || !dl.allFinite()) {
          Eigen::SparseQR<SpMat, Eigen::COLAMDOrdering<int>> ls(Ct);
          if (ls.info() != Eigen::Success) fail("mechanism", "", "sparse QR of the constraint matrix failed");
          dl = ls.solve(Eigen::VectorXd(g.head(n6)));
        }
      }
      for (int i = 0; i < m; ++i) y[rowInfo_[act[i]].lambda] += dl[i];
      g = G(y);
    }
    Eigen::VectorXd dz;
    if (dense) {
      Eigen::MatrixXd Jm(n, n);
      for (int c = 0; c < n; ++c) {
        std::vector<double> yy = y;
        Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
        const double h = fdStep(c);
        e[c] = h;
        apply(yy, e, 1.0);
        Jm.col(c) = (G(yy) - g) / h;
      }
      Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Jm);
      if (qr.rank() < n) noUniqueEquilibrium(qr.rank());
      dz = qr.solve(-g);
    } else {
      std::vector<Eigen::Triplet<double>> tr;
      for (const std::vector<int>& grp : groups) {
        std::vector<double> yy = y;
        Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
        for (int c : grp) e[c] = fdStep(c);
        apply(yy, e, 1.0);
        const Eigen::VectorXd d = G(yy) - g;
        for (int c : grp)
          for (int r : colRows[c]) tr.emplace_back(r, c, d[r] / e[c]);
      }
      SpMat Js(n, n);
      Js.setFromTriplets(tr.begin(), tr.end());
      // LU (far cheaper than a sparse QR here). Where it meets a zero pivot, the
      // dense path's QR counts the missing directions for the message (the
      // sparse QR is not rank-revealing: it found 63 of a free chain's 64),
      // up to 4000 unknowns (128 MB); above, the sparse QR's count.
      Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu(Js);
      if (lu.info() != Eigen::Success) {
        Eigen::Index rank = n - 1;
        if (n <= 4000) {
          rank = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(Eigen::MatrixXd(Js)).rank();
        } else {
          Js.makeCompressed();
          const Eigen::SparseQR<SpMat, Eigen::COLAMDOrdering<int>> qr(Js);
          if (qr.info() == Eigen::Success) rank = qr.rank();
        }
        noUniqueEquilibrium(std::min<Eigen::Index>(rank, n - 1));
      }
      dz = lu.solve(Eigen::VectorXd(-g));
    }
    // At most a tenth of a turn per step: where the stiffness of a
    // direction vanishes (a pendulum held level) Newton's step is huge, and
    // a rotation by millions of radians lands anywhere on the circle, the
    // windings counting every turn of it.
    double turnMax = 0.0;
    for (size_t q = 0; q < moving.size(); ++q) turnMax = std::max(turnMax, dz.segment<3>(6 * q + 3).norm());
    double s = turnMax > kMaxStaticTurn ? kMaxStaticTurn / turnMax : 1.0;
    const double n0 = norm(g);
    std::vector<double> yy;
    Eigen::VectorXd g1;
    for (int ls = 0; ls < 30; ++ls, s *= 0.5) {
      yy = y;
      apply(yy, dz, s);
      // Back onto the constraints before judging the step: a turn taken
      // along the linearised joints leaves a second-order gap that the
      // constraint weight would otherwise let through only in tiny steps.
      projectPositions(t, yy);
      g1 = G(yy);
      if (norm(g1) < n0 || ls == 29) break;
    }
    y = yy;
    g = g1;
    if (dz.head(n6).cwiseAbs().maxCoeff() * s < 1e-12 && g.tail(m).cwiseAbs().maxCoeff() < 1e-11 &&
        g.head(n6).cwiseAbs().maxCoeff() < 1e-9 * scaleF)
      break;
    if (it == 199) fail("mechanism", "", "static equilibrium did not converge in 200 Newton iterations");
  }
  yp.assign(nStates_, 0.0);
  writeKinematicDerivatives(y.data(), yp.data());
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

void MultibodySystem::kinematic(double t, std::vector<double>& y, std::vector<double>& yp) {
  if (dof_ != 0)
    fail("mechanism", "motions",
         "kinematic analysis needs a fully driven mechanism; " + std::to_string(dof_) +
             " degree(s) of freedom remain (add motions or run a dynamic analysis)");
  if (nStates_ == 0) {  // everything welded to the ground
    yp.clear();
    return;
  }
  for (int it = 0; correctPositions(t, y); ++it)
    if (it == 50)
      fail("mechanism", "",
           "kinematic analysis: the constraints cannot be met at t = " + numberText(t) + " s (a lock-up position?)");
  std::vector<Kin> k;
  std::vector<Row> rows;
  projectVelocities(t, y);
  yp.assign(nStates_, 0.0);
  // Accelerations from C a = gamma (the mechanism is fully driven, so the
  // masses do not matter), then the reactions from M a = Q - C^T lambda.
  std::vector<int> moving;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) moving.push_back(static_cast<int>(b));
  const int n6 = 6 * static_cast<int>(moving.size());
  kinematics(y.data(), k);
  buildRows(t, y.data(), k, rows);
  // Large models: C (square, 0 DOF) by a sparse LU, used again transposed
  // for the reactions; a sparse least-squares fallback where it is singular.
  const bool dense = denseAssembly();
  const Eigen::MatrixXd C = dense ? constraintMatrix(rows, true) : Eigen::MatrixXd();
  const SpMat Cs = dense ? SpMat() : sparseOf(activeRows(rows));
  Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
  bool luOk = false;
  if (!dense && Cs.rows() == Cs.cols()) {
    lu.compute(Cs);
    luOk = lu.info() == Eigen::Success;
  }
  std::vector<double> yv = y;
  for (const RowInfo& r : rowInfo_) yv[r.lambda] = 0.0;
  const Eigen::VectorXd gamma = accelerationRhs(t, yv);
  const Eigen::VectorXd acc = dense  ? Eigen::VectorXd(C.completeOrthogonalDecomposition().solve(gamma))
                              : luOk ? Eigen::VectorXd(lu.solve(gamma))
                                     : minimumNorm(Cs, gamma);
  // Applied forces at lambda = 0, then C^T lambda = Q - M a - gyroscopic.
  std::vector<double> zero(nStates_, 0.0), res(nStates_);
  residual(t, yv.data(), zero.data(), res.data());
  Eigen::VectorXd Q(n6);
  for (size_t q = 0; q < moving.size(); ++q) {
    const BodyRT& B = bodies_[moving[q]];
    const Kin& kk = kin_[moving[q]];
    Q.segment<3>(6 * q) = F_[moving[q]] - B.m * acc.segment<3>(6 * q);
    Q.segment<3>(6 * q + 3) = N_[moving[q]] - kk.w.cross(B.J * kk.w) - B.J * acc.segment<3>(6 * q + 3);
  }
  Eigen::VectorXd lam;
  if (dense) {
    lam = C.transpose().completeOrthogonalDecomposition().solve(Q);
  } else if (luOk) {
    lam = lu.transpose().solve(Q);
  } else {
    const SpMat Ct = Cs.transpose();
    Eigen::SparseQR<SpMat, Eigen::COLAMDOrdering<int>> ls(Ct);
    if (ls.info() != Eigen::Success) fail("mechanism", "", "sparse QR of the constraint matrix failed");
    lam = ls.solve(Q);
  }
  int i2 = 0;
  for (const RowInfo& r : rowInfo_) y[r.lambda] = r.active ? lam[i2++] : 0.0;
  for (size_t q = 0; q < moving.size(); ++q) {
    const int s = bodies_[moving[q]].slot;
    for (int a = 0; a < 3; ++a) {
      yp[s + 7 + a] = acc[6 * q + a];
      yp[s + 10 + a] = acc[6 * q + 3 + a];
    }
  }
  writeKinematicDerivatives(y.data(), yp.data());
}

// ------------------------------------------------------------------ outputs

void MultibodySystem::constraintResiduals(double t, const double* y, double& pos, double& vel) {
  std::vector<Kin> k;
  std::vector<Row> rows;
  kinematics(y, k);
  buildRows(t, y, k, rows);
  residualsOf(rows, k, pos, vel);
}

void MultibodySystem::residualsOf(const std::vector<Row>& rows, const std::vector<Kin>& k, double& pos,
                                  double& vel) const {
  pos = vel = 0.0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rowInfo_[i].active) continue;
    if (rowInfo_[i].mu >= 0) pos = std::max(pos, std::abs(rows[i].phi));
    double v = rows[i].phit;
    for (int q = 0; q < rows[i].n; ++q) v += rows[i].r[q].dot(k[rows[i].b[q]].v) + rows[i].p[q].dot(k[rows[i].b[q]].w);
    vel = std::max(vel, std::abs(v));
  }
}

double MultibodySystem::kineticEnergy(const double* y) const {
  std::vector<Kin> k;
  kinematics(y, k);
  double e = 0.0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) e += 0.5 * bodies_[b].m * k[b].v.squaredNorm() + 0.5 * k[b].w.dot(bodies_[b].J * k[b].w);
  return e;
}

double MultibodySystem::potentialEnergy(double /*t: springs have no time tables*/, const double* y) {
  std::vector<Kin> k;
  kinematics(y, k);
  double e = 0.0;
  for (size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].ground) e -= bodies_[b].m * g_.dot(k[b].r);
  for (const ForceRT& f : forces_) {
    if (f.type == "spring_damper") {
      const double l = (markerPoint(f.J, k) - markerPoint(f.I, k)).norm(), dl = l - f.par("free_length");
      e += 0.5 * f.par("stiffness") * dl * dl - f.par("preload") * dl;
    } else if (f.type == "rotational_spring_damper") {
      const double th = relativeAngle(f.I, f.J, k, f.wind, y, nullptr) - f.par("free_angle");
      e += 0.5 * f.par("stiffness") * th * th - f.par("preload") * th;
    } else if (f.type == "impact") {
      const V3 z = markerAxes(f.J, k).col(2);
      const double pen = f.par("x1") - z.dot(markerPoint(f.I, k) - markerPoint(f.J, k));
      if (pen > 0) e += f.par("stiffness") * std::pow(pen, f.par("exponent") + 1) / (f.par("exponent") + 1);
    } else if (f.type == "bushing") {
      const M3 AJ = markerAxes(f.J, k);
      const V3 d = AJ.transpose() * (markerPoint(f.I, k) - markerPoint(f.J, k));
      const Eigen::AngleAxisd aa(M3(AJ.transpose() * markerAxes(f.I, k)));
      const V3 th = aa.angle() * aa.axis();
      e += 0.5 * (f.par("kx") * d.x() * d.x() + f.par("ky") * d.y() * d.y() + f.par("kz") * d.z() * d.z() +
                  f.par("ktx") * th.x() * th.x() + f.par("kty") * th.y() * th.y() + f.par("ktz") * th.z() * th.z());
    }
  }
  return e;
}

void MultibodySystem::outputs(double t, const double* y, const double* yp, double* row, bool rowsCurrent) {
  const size_t nb = bodies_.size();
  if (!rowsCurrent) kinematics(y, kin_);
  F_.assign(nb, V3::Zero());
  N_.assign(nb, V3::Zero());
  std::vector<double> fv;
  forceValues(t, y, kin_, fv);
  if (!rowsCurrent) buildRows(t, y, kin_, rowsScratch_);
  // Each body's centre of mass acceleration and angular acceleration (world).
  std::vector<V3> acc(nb, V3::Zero()), alpha(nb, V3::Zero());
  for (size_t b = 0; b < nb; ++b) {
    const BodyRT& B = bodies_[b];
    if (B.ground) continue;
    acc[b] = V3(yp[B.slot + 7], yp[B.slot + 8], yp[B.slot + 9]);
    alpha[b] = kin_[b].A * V3(yp[B.slot + 10], yp[B.slot + 11], yp[B.slot + 12]);
  }
  int c = 0;
  for (const PartRT& P : parts_) {
    const BodyRT& B = bodies_[P.body];
    const Kin& k = kin_[P.body];
    const V3 s = k.A * (P.t - B.cm);  // COM -> part frame origin
    const V3 o = k.r + s;
    const V3 rpy = toRpy(P.lumped ? M3(k.A * P.R) : k.A);
    const V3 v = k.v + k.ww.cross(s);
    const V3& a = acc[P.body];
    const V3 ao = a + alpha[P.body].cross(s) + k.ww.cross(k.ww.cross(s));
    for (int q = 0; q < 3; ++q) row[c + q] = o[q];
    for (int q = 0; q < 3; ++q) row[c + 3 + q] = rpy[q];
    for (int q = 0; q < 3; ++q) row[c + 6 + q] = v[q];
    for (int q = 0; q < 3; ++q) row[c + 9 + q] = k.ww[q];
    for (int q = 0; q < 3; ++q) row[c + 12 + q] = ao[q];
    for (int q = 0; q < 3; ++q) row[c + 15 + q] = alpha[P.body][q];
    c += 18;
  }
  for (int out : jointOut_) {
    if (out < 0) {
      // A lumped weld carries only its leaf's weight and inertia: the
      // leaf's Newton-Euler balance, about the I marker.
      const LumpedJointRT& lj = lumpedJoints_[-1 - out];
      const V3 P = markerPoint(lj.I, kin_);
      V3 F = V3::Zero(), T = V3::Zero();
      for (int p : lj.group) {
        const PartRT& pt = parts_[p];
        const Kin& kb = kin_[pt.body];
        V3 r, a;
        M3 A;
        partMotion(pt, kb, acc[pt.body], alpha[pt.body], r, a, A);
        const M3 Jw = A * pt.J * A.transpose();
        const V3 f = pt.m * (a - g_);
        F += f;
        T += Jw * alpha[pt.body] + kb.ww.cross(Jw * kb.ww) + (r - P).cross(f);
      }
      if (!lj.leafIsI) F = -F, T = -T;
      for (int q = 0; q < 3; ++q) row[c + q] = F[q];
      for (int q = 0; q < 3; ++q) row[c + 3 + q] = T[q];
      c += 6;
      continue;
    }
    const JointRT& j = joints_[out];
    if (j.type == "coupler") {
      row[c++] = rowInfo_[j.firstRow].active ? -y[rowInfo_[j.firstRow].lambda] : 0.0;
      continue;
    }
    // Reaction on I's part, at the I marker, world axes (ADAMS convention).
    const int bi = markers_[j.I].body;
    V3 F = V3::Zero(), Nb = V3::Zero();
    for (int r = j.firstRow; r < j.firstRow + j.nRows; ++r) {
      if (!rowInfo_[r].active) continue;
      const Row& rw = rowsScratch_[r];
      const double lam = y[rowInfo_[r].lambda];
      for (int q = 0; q < rw.n; ++q)
        if (rw.b[q] == bi) {
          F -= rw.r[q] * lam;
          Nb -= rw.p[q] * lam;
        }
    }
    const V3 P = markerPoint(j.I, kin_);
    const V3 T = kin_[bi].A * Nb - (P - kin_[bi].r).cross(F);
    for (int q = 0; q < 3; ++q) row[c + q] = F[q];
    for (int q = 0; q < 3; ++q) row[c + 3 + q] = T[q];
    c += 6;
    if (j.type == "revolute" || j.type == "translational" || j.type == "cylindrical") {
      double rate = 0.0;
      row[c++] = jointCoordinate(j, kin_, y, &rate);
      row[c++] = rate;
      row[c++] = jointAcceleration(j, kin_, acc, alpha);
    }
  }
  for (const MotionRT& mo : motions_) {
    double f, df, ddf;
    mo.f.eval(t, f, df, ddf);
    if (mo.velocity) f = mo.q0 + mo.f.integral(t);
    const double lam = y[rowInfo_[mo.row].lambda];
    // Generalised force on I along the coordinate: -lambda dPhi/dq, dPhi/dq = 1.
    row[c++] = -lam;
    row[c++] = f;
  }
  for (double v : fv) row[c++] = v;
  const double ek = kineticEnergy(y), ep = potentialEnergy(t, y);
  row[c++] = ek;
  row[c++] = ep;
  row[c++] = ek + ep;
  double pos = 0.0, vel = 0.0;
  residualsOf(rowsScratch_, kin_, pos, vel);
  row[c++] = pos;
  row[c++] = vel;
}

void MultibodySystem::roots(double t, const double* y, double* g) {
  std::vector<Kin> k;
  kinematics(y, k);
  for (size_t i = 0; i < rootFns_.size(); ++i) g[i] = rootFns_[i](t, y, k);
}

}  // namespace pm::mb
