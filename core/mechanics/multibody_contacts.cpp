// MultibodySystem's contact pairs (issue 27): the shapes of mechanism.contacts
// at their markers, their IMPACT and friction forces applied to the two
// bodies at every contact point, a root at each pair's signed distance (the
// integrator steps onto the onset and the loss of contact), and per pair the
// channels of contact::channelDecls(). A pair with a stick state
// (contact::hasStickState) owns contact::kStickStates differential states,
// its bristle z and twist s, and a couple about the normal. The
// static analysis anchors the pairs (anchorContacts: their slip and, with a
// torsion_radius, their turn about the normal) and checks the friction limit
// after (frictionConeBreach: force and couple within the stick state's ellipse). The geometry and force laws are
// mechanics/contact's.
#include "mechanics/multibody.h"

#include "model/message_text.h"

#include <algorithm>
#include <cmath>

namespace pm::mb {

namespace {

// Tangential stiffness per unit normal force of a static anchor: the stick
// state's sigma0, with delta = 1 um for a pair without one.
constexpr double kStaticStickDeformation = 1e-6;

double anchorStiffness(const contact::FrictionParams& f) {
  const double delta = f.stictionDeformation > 0.0 ? f.stictionDeformation : kStaticStickDeformation;
  return std::max(f.muStatic, f.muDynamic) / delta;
}

contact::Frame frameOf(const V3& p, const M3& R) {
  contact::Frame f;
  f.p = p;
  f.R = R;
  return f;
}

}  // namespace

void MultibodySystem::addContacts(const Mechanism& m) {
  for (const ContactDef& d : m.contacts) {
    const int I = markerOf(d.i.marker, d.id, "i.marker"), J = markerOf(d.j.marker, d.id, "j.marker");
    contact::Shape probe;
    for (const auto* s : {&d.i, &d.j})
      if (auto e = contact::shapeOf(*s, probe))
        throw std::runtime_error(d.id + ": " + (s == &d.i ? "i." : "j.") + e->field + ": " + e->message);
    contact::PairRT p = contact::makePair(d, I, J);
    if (!contact::supported(p.a.kind, p.b.kind))
      throw std::runtime_error(d.id + ": j.shape: no contact between a " + d.i.shape + " and a " + d.j.shape +
                               " (see docs/file-format.md, contacts)");
    if (markers_[I].body == markers_[J].body)
      throw std::runtime_error(d.id + ": j.marker: both shapes are on the same rigid body");
    if (contact::hasStickState(p.friction)) {
      p.stick = nStates_;
      nStates_ += contact::kStickStates;
    }
    contacts_.push_back(std::move(p));
  }
  stickRates_.assign(contacts_.size(), contact::StickRate::Zero());
}

contact::PairResult MultibodySystem::contactOf(const contact::PairRT& p, const double* y, const std::vector<Kin>& k,
                                               contact::StickRate* stickRate) const {
  const int ba = markers_[p.I].body, bb = markers_[p.J].body;
  const contact::BodyMotion ma{k[ba].r, k[ba].v, k[ba].ww}, mbm{k[bb].r, k[bb].v, k[bb].ww};
  const bool anchored = static_cast<size_t>(&p - contacts_.data()) < anchors_.size();
  const double* stick = y && p.stick >= 0 && !anchored ? y + p.stick : nullptr;
  return contact::evaluate(p, frameOf(markerPoint(p.I, k), markerAxes(p.I, k)), ma,
                           frameOf(markerPoint(p.J, k), markerAxes(p.J, k)), mbm, stick, stickRate);
}

void MultibodySystem::contactForces(const double* y, const std::vector<Kin>& k, std::vector<double>& vals) {
  for (size_t i = 0; i < contacts_.size(); ++i) {
    const contact::PairRT& p = contacts_[i];
    contact::PairResult r = contactOf(p, y, k, &stickRates_[i]);
    if (i < anchors_.size() && anchors_[i].on) anchorForces(static_cast<int>(i), k, r);
    const int ba = markers_[p.I].body, bb = markers_[p.J].body;
    for (size_t q = 0; q < r.forces.size(); ++q) {
      const V3& P = r.geometry.points[q].point;
      applyForce(bb, P, r.forces[q].force);
      applyForce(ba, P, -r.forces[q].force);
    }
    if (r.torque != V3::Zero()) {
      applyForce(bb, r.point, V3::Zero(), r.torque);
      applyForce(ba, r.point, V3::Zero(), -r.torque);
    }
    contact::channelValues(r, vals);
  }
}

void MultibodySystem::writeStickRates(const double* y, double* yp) const {
  if (std::none_of(contacts_.begin(), contacts_.end(), [](const contact::PairRT& p) { return p.stick >= 0; })) return;
  std::vector<Kin> k;
  kinematics(y, k);
  for (const contact::PairRT& p : contacts_) {
    if (p.stick < 0) continue;
    contact::StickRate rate = contact::StickRate::Zero();
    contactOf(p, y, k, &rate);
    for (int a = 0; a < contact::kStickStates; ++a) yp[p.stick + a] = rate[a];
  }
}

void MultibodySystem::anchorContacts(const double* y) {
  std::vector<Kin> k;
  kinematics(y, k);
  anchors_.assign(contacts_.size(), StickAnchor{});
  for (size_t i = 0; i < contacts_.size(); ++i) {
    const contact::PairRT& p = contacts_[i];
    if (!(p.friction.muStatic > 0.0)) continue;
    const Kin &ka = k[markers_[p.I].body], &kb = k[markers_[p.J].body];
    anchors_[i] = {true, ka.A.transpose() * kb.A, ka.A.transpose() * (kb.r - ka.r)};
  }
}

void MultibodySystem::anchorForces(int pair, const std::vector<Kin>& k, contact::PairResult& r) const {
  const contact::PairRT& p = contacts_[pair];
  const StickAnchor& an = anchors_[pair];
  const Kin &ka = k[markers_[p.I].body], &kb = k[markers_[p.J].body];
  const double sigma = anchorStiffness(p.friction);
  r.friction = V3::Zero();
  for (size_t q = 0; q < r.forces.size(); ++q) {
    // B's material point at the contact point, and where it would be had B
    // kept its pose relative to A: the difference across n is the slip.
    const V3& P = r.geometry.points[q].point;
    const V3& n = r.geometry.points[q].normal;
    const V3 xb = kb.A.transpose() * (P - kb.r);
    const V3 u = P - (ka.r + ka.A * (an.t + an.R * xb)), ut = u - n.dot(u) * n;
    contact::PointForce& f = r.forces[q];
    f.friction = -sigma * f.normal * ut;
    f.force = f.normal * n + f.friction;
    r.friction += f.friction;
  }
  // A point's own patch (torsion_radius rho_0) resists B's turn about n
  // since the anchor, as the stick state's twist does: sigma N rho_0^2 per
  // radian (the points' spread already resists it through their springs).
  const double r0 = p.friction.torsionRadius;
  if (r0 > 0.0 && r.normal > 0.0) {
    const Eigen::AngleAxisd turn(ka.A.transpose() * kb.A * an.R.transpose());  // in A's axes
    const V3& n = r.geometry.normal;
    const double theta = n.dot(ka.A * (turn.angle() * turn.axis()));
    r.torque = -sigma * r.normal * r0 * r0 * theta * n;
  }
}

std::string MultibodySystem::frictionConeBreach(const double* y) const {
  std::vector<Kin> k;
  kinematics(y, k);
  for (size_t i = 0; i < anchors_.size(); ++i) {
    if (!anchors_[i].on) continue;
    const contact::PairRT& p = contacts_[i];
    contact::PairResult r = contactOf(p, y, k);
    anchorForces(static_cast<int>(i), k, r);
    const double need = r.friction.norm(), allowed = p.friction.muStatic * r.normal;
    // The couple about n against the pair's torsional arm: force and couple
    // must lie within the stick state's ellipse,
    // (F / (mu_s N))^2 + (T / (mu_s N rho))^2 <= 1.
    const double T = std::abs(contact::twistTorque(r));
    std::vector<double> normals;
    for (const contact::PointForce& f : r.forces) normals.push_back(f.normal);
    const double rho = r.forces.empty() ? 0.0
                                        : contact::twistArm(r.geometry.points, normals, r.geometry.normal,
                                                            p.friction.torsionRadius).arm;
    const double twistShare = rho > 0.0 && allowed > 0.0 ? T / (allowed * rho) : 0.0;
    const bool twists = twistShare > 1e-6;  // below, its share of the ellipse is rounding
    if (twists && std::hypot(need / allowed, twistShare) > 1.0 + 1e-9)
      return "contact " + p.id + ": no static equilibrium: holding the parts at rest needs a friction force of " +
             numberText(need) + " N and a twisting couple of " + numberText(T) + " N m against a normal force of " +
             numberText(r.normal) + " N and a torsional arm of " + numberText(rho) +
             " m: (F / (mu_static N))^2 + (T / (mu_static N arm))^2 = " +
             numberText(std::pow(need / allowed, 2) + twistShare * twistShare) +
             " above 1 with mu_static = " + numberText(p.friction.muStatic) + " (the part slips: run a dynamic analysis)";
    if (!twists && need > allowed * (1.0 + 1e-9))
      return "contact " + p.id + ": no static equilibrium: holding the parts at rest needs a friction force of " +
             numberText(need) + " N against a normal force of " + numberText(r.normal) + " N, a ratio of " +
             numberText(need / r.normal) + " above mu_static = " + numberText(p.friction.muStatic) +
             " (the part slides: run a dynamic analysis)";
  }
  return "";
}

void MultibodySystem::declareContactChannels() {
  for (const contact::PairRT& p : contacts_)
    for (const contact::ChannelDecl& d : contact::channelDecls()) channels_.push_back({p.id + "." + d.name, d.unit});
}

void MultibodySystem::declareContactRoots() {
  // The signed distance is continuous through the onset (narrow_phase.h):
  // its zero is where the force law kinks.
  for (const contact::PairRT& p : contacts_) {
    const contact::PairRT* pp = &p;
    rootFns_.push_back([this, pp](double, const double*, const std::vector<Kin>& k) {
      return contact::collide(pp->a, frameOf(markerPoint(pp->I, k), markerAxes(pp->I, k)), pp->b,
                              frameOf(markerPoint(pp->J, k), markerAxes(pp->J, k)))
          .distance;
    });
  }
}

double MultibodySystem::contactEnergy(const std::vector<Kin>& k) const {
  double e = 0.0;
  for (const contact::PairRT& p : contacts_) e += contactOf(p, nullptr, k).elasticEnergy;
  return e;
}

void MultibodySystem::contactCouplings(std::vector<std::vector<int>>& groups) const {
  for (const contact::PairRT& p : contacts_) {
    std::vector<int> v;
    for (int b : {markers_[p.I].body, markers_[p.J].body})
      if (!bodies_[b].ground)
        for (int s = 0; s < 14; ++s) v.push_back(bodies_[b].slot + s);
    if (p.stick >= 0)
      for (int a = 0; a < contact::kStickStates; ++a) v.push_back(p.stick + a);
    if (!v.empty()) groups.push_back(v);
  }
}

int MultibodySystem::contactIndex(const std::string& id) const {
  for (size_t i = 0; i < contacts_.size(); ++i)
    if (contacts_[i].id == id) return static_cast<int>(i);
  return -1;
}

contact::PairResult MultibodySystem::contactAt(const double* y, int pair) const {
  std::vector<Kin> k;
  kinematics(y, k);
  return contactOf(contacts_[pair], y, k);
}

}  // namespace pm::mb
