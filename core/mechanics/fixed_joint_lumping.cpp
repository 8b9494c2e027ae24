// Parts welded into another body (or the ground) by fixed joints that
// carry nothing else are merged into it before the states are laid out
// (MultibodyOptions::lumpFixedJoints): a welded assembly is one rigid body.
#include "mechanics/multibody.h"

namespace pm::mb {

namespace {

// Inertia of a point mass m at d about the origin (parallel-axis theorem).
M3 steiner(double m, const V3& d) { return m * (d.squaredNorm() * M3::Identity() - d * d.transpose()); }

}  // namespace

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
  // A contact's force on a leaf would be missing from the weld's reaction (the leaf's own balance).
  for (const ContactDef& c : m.contacts) ref(c.i.marker), ref(c.j.marker);
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
          // A carrier at rest takes a moving leaf's velocity instead (a beam's
          // root node welded to a hub given a velocity): its rigid field.
          if (C.v0.isZero(0.0) && C.w0.isZero(0.0) && !(L.v0.isZero(0.0) && L.w0.isZero(0.0))) {
            const V3 wl = rotation(L.p0) * L.w0;
            C.v0 = L.v0 + wl.cross(C.r0 - L.r0);
            C.w0 = A0.transpose() * wl;
          }
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

}  // namespace pm::mb
