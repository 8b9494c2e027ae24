// MultibodySystem's constructor as a sequence of build steps: bodies and
// markers, lumping, state slots and constraint rows (joints, motions,
// couplers), force elements, windings, the assembled start, then the
// result channels and root functions.
#include "mechanics/multibody.h"

#include "mechanics/beam/beam_bodies.h"
#include "mechanics/multibody_error.h"
#include "model/mechanism_types.h"

#include <cmath>
#include <stdexcept>

namespace pm::mb {

namespace {

double param(const std::map<std::string, double>& p, const char* n, double def) {
  auto it = p.find(n);
  return it == p.end() ? def : it->second;
}

bool isRevolute(const std::string& t) { return t == "revolute"; }

// The readable constraint equations of a joint type (empty: unknown type).
std::vector<std::string> jointEquations(const std::string& type) {
  const std::vector<std::string> pt = {"x_I - x_J", "y_I - y_J", "z_I - z_J"};
  const std::string zx = "z_I . x_J", zy = "z_I . y_J", xy = "x_I . y_J", dx = "x_J . (P_I - P_J)",
                    dy = "y_J . (P_I - P_J)", dz = "z_J . (P_I - P_J)";
  if (type == "spherical") return pt;
  if (type == "revolute") return {pt[0], pt[1], pt[2], zx, zy};
  if (type == "translational") return {zx, zy, dx, dy, xy};
  if (type == "cylindrical") return {zx, zy, dx, dy};
  if (type == "universal") return {pt[0], pt[1], pt[2], xy};
  if (type == "planar") return {zx, zy, dz};
  if (type == "fixed") return {pt[0], pt[1], pt[2], zx, zy, xy};
  return {};
}

JointRT::Kind jointKind(const std::string& type) {
  using K = JointRT::Kind;
  return type == "spherical"       ? K::Spherical
         : type == "revolute"      ? K::Revolute
         : type == "translational" ? K::Translational
         : type == "cylindrical"   ? K::Cylindrical
         : type == "universal"     ? K::Universal
         : type == "planar"        ? K::Planar
                                   : K::Fixed;
}

}  // namespace

MultibodySystem::MultibodySystem(const Mechanism& user, const ExternalLoads& loads, const MultibodyOptions& options)
    : g_(v3(user.gravity)), forceDense_(options.forceDense) {
  // Flexible bodies become node bodies and force elements (decision 0017);
  // their markers keep the user's names.
  const Mechanism m = beam::withNodeBodies(user);
  const std::vector<char> userFixed = addBodies(m);
  if (!user.flexible_bodies.empty())
    for (MarkerRT& mk : markers_) mk.name = beam::userMarkerName(user, mk.name);
  setCompliance();
  const std::vector<int> lumped = options.lumpFixedJoints ? lumpWelded(m, loads, userFixed) : std::vector<int>(m.joints.size(), -1);
  nStates_ = 0;  // counts the slots as they are given out
  for (BodyRT& b : bodies_)
    if (!b.ground) {
      b.slot = nStates_;
      nStates_ += 14;
    }
  addJoints(m, lumped);
  addMotions(m);
  addCouplers(m);
  addLatches(m);
  addForces(m);
  addContacts(m);
  addWindings();
  for (const JointRT& j : joints_) hasLimits_ = hasLimits_ || std::isfinite(j.lower) || std::isfinite(j.upper);
  setInitialState();
  declareChannels();
  declareRoots();
}

std::vector<char> MultibodySystem::addBodies(const Mechanism& m) {
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
  return userFixed;
}

void MultibodySystem::setCompliance() {
  double massSum = 0.0;
  int massCount = 0;
  for (const BodyRT& b : bodies_)
    if (!b.ground && b.m > 0.0) massSum += b.m, ++massCount;
  if (massCount > 0) compliance_ = 1e-12 * massCount / massSum;
}

int MultibodySystem::markerOf(const std::string& ref, const std::string& owner, const char* field) const {
  const int k = marker(ref);
  if (k < 0) fail(owner, field, "no marker '" + ref + "'");
  return k;
}

void MultibodySystem::addRows(const std::string& owner, int count, bool position, const std::vector<std::string>& eqs) {
  for (int r = 0; r < count; ++r) {
    RowInfo ri;
    ri.owner = owner;
    ri.equation = r < static_cast<int>(eqs.size()) ? eqs[r] : "";
    ri.mu = position ? nStates_++ : -1;
    ri.lambda = nStates_++;
    rowInfo_.push_back(ri);
  }
}

void MultibodySystem::addJoints(const Mechanism& m, const std::vector<int>& lumped) {
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
    j.I = markerOf(jd.i, jd.id, "i");
    j.J = markerOf(jd.j, jd.id, "j");
    j.lower = param(jd.params, "lower", -INFINITY);
    j.upper = param(jd.params, "upper", INFINITY);
    j.k = param(jd.params, "limit_stiffness", 1e6);
    j.e = param(jd.params, "limit_exponent", 1.5);
    j.c = param(jd.params, "limit_damping", 100.0);
    j.d = param(jd.params, "limit_depth", 1e-4);
    j.icValue = jd.initial.value;
    j.icRate = jd.initial.rate;
    const std::vector<std::string> eqs = jointEquations(j.type);
    if (eqs.empty()) fail(jd.id, "type", "unknown joint type '" + jd.type + "'");
    j.kind = jointKind(j.type);
    j.firstRow = static_cast<int>(rowInfo_.size());
    j.nRows = static_cast<int>(eqs.size());
    addRows(jd.id, j.nRows, true, eqs);
    jointOut_.push_back(static_cast<int>(joints_.size()));
    joints_.push_back(j);
  }
}

void MultibodySystem::addMotions(const Mechanism& m) {
  for (const MotionDef& md : m.motions) {
    MotionRT mo;
    mo.id = md.id;
    mo.joint = joint(md.joint);
    if (mo.joint < 0) fail(md.id, "joint", "no joint '" + md.joint + "'");
    mo.velocity = md.quantity == "velocity";
    mo.f = TimeFunction(md.function, md.params, md.table, md.interpolation);
    mo.row = static_cast<int>(rowInfo_.size());
    addRows(md.id, 1, true,
            {(isRevolute(joints_[mo.joint].type) ? "angle - f(t)" : "displacement - f(t)") +
             std::string(mo.velocity ? ", f = q0 + integral of the velocity" : "")});
    motions_.push_back(std::move(mo));
  }
}

void MultibodySystem::addCouplers(const Mechanism& m) {
  for (const JointDef& jd : m.joints) {
    if (jd.type != "coupler") continue;
    JointRT j;
    j.id = jd.id;
    j.type = jd.type;
    j.kind = JointRT::Kind::Coupler;
    for (int k = 0; k < 2; ++k) {
      j.coupled[k] = joint(jd.joints.at(k));
      if (j.coupled[k] < 0) fail(jd.id, "joints", "no joint '" + jd.joints.at(k) + "'");
    }
    j.ratio = param(jd.params, "ratio", -1.0);
    j.firstRow = static_cast<int>(rowInfo_.size());
    j.nRows = 1;
    // Position level on the continuous coordinates (revolute angles count
    // whole turns), so a gear pair stays exact over any number of turns.
    addRows(jd.id, 1, true, {"q1 + ratio q2 - (q1 + ratio q2)(0)"});
    jointOut_.push_back(static_cast<int>(joints_.size()));
    joints_.push_back(j);
  }
}

void MultibodySystem::addLatches(const Mechanism& m) {
  firstLatchRow_ = static_cast<int>(rowInfo_.size());
  for (const LatchDef& d : m.latches) {
    LatchRT l;
    l.id = d.id;
    l.joint.id = d.id;
    l.joint.type = d.type;
    l.joint.kind = jointKind(d.type);
    const std::vector<std::string> eqs = jointEquations(d.type);
    if (eqs.empty() || d.type == "coupler") fail(d.id, "type", "unknown latch type '" + d.type + "'");
    l.joint.I = markerOf(d.i, d.id, "i");
    l.userJ = markerOf(d.j, d.id, "j");
    if (markers_[l.joint.I].body == markers_[l.userJ].body) fail(d.id, "j", "both markers are on the same rigid body");
    // The anchor: where J's frame is while the latch holds (engageLatch
    // moves it to I's frame); "#" keeps it out of the markers' names.
    MarkerRT anchor = markers_[l.userJ];
    anchor.name = d.id + "#anchor";
    l.joint.J = static_cast<int>(markers_.size());
    markers_.push_back(anchor);
    l.capture = param(d.params, "capture_radius", 0.0);
    l.closingTime = param(d.params, "closing_time", 0.0);
    l.joint.firstRow = static_cast<int>(rowInfo_.size());
    l.joint.nRows = static_cast<int>(eqs.size());
    addRows(d.id, l.joint.nRows, true, eqs);
    for (int r = l.joint.firstRow; r < l.joint.firstRow + l.joint.nRows; ++r) rowInfo_[r].active = false;
    latches_.push_back(std::move(l));
  }
}

void MultibodySystem::addForces(const Mechanism& m) {
  for (const ForceDef& fd : m.forces) {
    ForceRT f;
    f.id = fd.id;
    f.type = fd.type;
    f.I = markerOf(fd.i, fd.id, "i");
    f.J = fd.j.empty() ? -1 : markerOf(fd.j, fd.id, "j");
    f.ref = fd.ref.empty() ? -1 : markerOf(fd.ref, fd.id, "ref");
    // Declared defaults first (mechanism_types.cpp), then what the file sets.
    if (const MechTypeDecl* t = findForceType(fd.type))
      for (const ParamDecl& d : t->params) f.p[d.name] = d.def;
    for (const auto& [k, v] : fd.params) f.p[k] = v;
    if (!fd.table.empty()) {
      f.hasTable = true;
      f.table = TimeFunction("table", {}, fd.table, fd.interpolation);
    }
    f.decode();
    forces_.push_back(std::move(f));
  }
}

void MultibodySystem::addWindings() {
  // Winding states last: the part and multiplier slots stay where they were.
  // Every revolute joint has one, so every joint angle counts whole turns.
  for (JointRT& j : joints_)
    if (j.kind == JointRT::Kind::Revolute) {
      j.wind = nStates_++;
      windings_.push_back({j.wind, j.I, j.J});
    }
  for (ForceRT& f : forces_)
    if (f.type == "rotational_spring_damper") {
      f.wind = nStates_++;
      windings_.push_back({f.wind, f.I, f.J});
    }
}

void MultibodySystem::setInitialState() {
  y0_.assign(nStates_, 0.0);
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
}

int MultibodySystem::marker(const std::string& name) const {
  for (size_t i = 0; i < markers_.size(); ++i)
    if (markers_[i].name == name) return static_cast<int>(i);
  return -1;
}

int MultibodySystem::joint(const std::string& id) const {
  for (size_t i = 0; i < joints_.size(); ++i)
    if (joints_[i].id == id) return static_cast<int>(i);
  return -1;
}

}  // namespace pm::mb
