// MultibodySystem's contact pairs (issue 27): the shapes of mechanism.contacts
// at their markers, their IMPACT and friction forces applied to the two
// bodies at every contact point, a root at each pair's signed distance (the
// integrator steps onto the onset and the loss of contact), and per pair the
// channels of contact::channelDecls(). The geometry and force laws are
// mechanics/contact's.
#include "mechanics/multibody.h"

namespace pm::mb {

namespace {

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
    contacts_.push_back(std::move(p));
  }
}

contact::PairResult MultibodySystem::contactOf(const contact::PairRT& p, const std::vector<Kin>& k) const {
  const int ba = markers_[p.I].body, bb = markers_[p.J].body;
  const contact::BodyMotion ma{k[ba].r, k[ba].v, k[ba].ww}, mbm{k[bb].r, k[bb].v, k[bb].ww};
  return contact::evaluate(p, frameOf(markerPoint(p.I, k), markerAxes(p.I, k)), ma,
                           frameOf(markerPoint(p.J, k), markerAxes(p.J, k)), mbm);
}

void MultibodySystem::contactForces(const std::vector<Kin>& k, std::vector<double>& vals) {
  for (const contact::PairRT& p : contacts_) {
    const contact::PairResult r = contactOf(p, k);
    const int ba = markers_[p.I].body, bb = markers_[p.J].body;
    for (size_t i = 0; i < r.forces.size(); ++i) {
      const V3& P = r.geometry.points[i].point;
      applyForce(bb, P, r.forces[i].force);
      applyForce(ba, P, -r.forces[i].force);
    }
    contact::channelValues(r, vals);
  }
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
  for (const contact::PairRT& p : contacts_) e += contactOf(p, k).elasticEnergy;
  return e;
}

void MultibodySystem::contactCouplings(std::vector<std::vector<int>>& groups) const {
  for (const contact::PairRT& p : contacts_) {
    std::vector<int> v;
    for (int b : {markers_[p.I].body, markers_[p.J].body})
      if (!bodies_[b].ground)
        for (int s = 0; s < 14; ++s) v.push_back(bodies_[b].slot + s);
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
  return contactOf(contacts_[pair], k);
}

}  // namespace pm::mb
