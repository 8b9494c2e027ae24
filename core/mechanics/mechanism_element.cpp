#include "mechanics/mechanism_element.h"

#include "solver/system.h"

#include <vector>

namespace pm {

MechanismElement::MechanismElement(const Mechanism& m)
    : Element("mechanism"), mb_(std::make_unique<mb::MultibodySystem>(m)) {
  for (const JointDef& j : m.joints) jointIds_.push_back(j.id);
  mb_->externalForces = [this](double, const double* y, const std::vector<mb::Kin>& k, mb::MultibodySystem& sys) {
    if (cur_) {
      applyAttachments(*cur_, k, sys);
    } else if (held_) {  // an analysis with the circuit held
      syncHeld(y);
      held_->withEval(0.0, heldY_.data(), heldYp_.data(), [&](Eval& e) { applyAttachments(e, k, sys); });
    }
  };
}

void MechanismElement::applyAttachments(const Eval& e, const std::vector<mb::Kin>& k, mb::MultibodySystem& sys) const {
  for (const Attachment& a : attachments_) {
    if (a.joint >= 0) {
      sys.applyJointEffort(a.joint, k, a.force(e));
      continue;
    }
    const mb::V3 pb = sys.markerPoint(a.barrel, k), pr = sys.markerPoint(a.rod, k);
    const mb::V3 d = pr - pb;
    const double l = d.norm();
    if (!(l > 0.0)) continue;
    const mb::V3 u = d / l;
    const double F = a.force(e);
    sys.applyForce(sys.markerBody(a.rod), pr, F * u);
    sys.applyForce(sys.markerBody(a.barrel), pb, -F * u);
  }
}

void MechanismElement::holdCircuit(System& sys, std::vector<double> y) {
  held_ = &sys;
  heldY_ = std::move(y);
  heldYp_.assign(heldY_.size(), 0.0);
}

void MechanismElement::syncHeld(const double* y) {
  for (const Attachment& a : attachments_) {
    if (a.xState < 0) continue;
    double rate = 0.0, q = 0.0;
    if (a.joint >= 0) {
      q = mb_->jointCoordinateAt(y, a.joint, &rate);
    } else {
      mb::V3 pb, vb, pr, vr;
      mb_->markerState(y, a.barrel, pb, vb);
      mb_->markerState(y, a.rod, pr, vr);
      q = (pr - pb).norm();
      rate = q > 0.0 ? (pr - pb).dot(vr - vb) / q : 0.0;
    }
    heldY_[a.xState] = q - a.offset;
    heldY_[a.vState] = rate;
  }
}

std::vector<std::pair<std::string, double>> MechanismElement::heldForces(const double* y) {
  std::vector<std::pair<std::string, double>> f;
  if (!held_) return f;
  syncHeld(y);
  held_->withEval(0.0, heldY_.data(), heldYp_.data(), [&](Eval& e) {
    for (const Attachment& a : attachments_) f.emplace_back(a.owner, a.force(e));
  });
  return f;
}

int MechanismElement::markerIndex(const std::string& ref) const {
  const int m = mb_->marker(ref);
  if (m < 0) throw std::runtime_error("no marker '" + ref + "' in the mechanism (write '<part>.<marker>')");
  return m;
}

int MechanismElement::jointIndex(const std::string& id, bool revoluteOnly) const {
  const int j = mb_->joint(id);
  if (j < 0) throw std::runtime_error("no joint '" + id + "' in the mechanism");
  if (revoluteOnly && mb_->jointType(j) != "revolute")
    throw std::runtime_error("joint '" + id + "' is " + mb_->jointType(j) + ", not revolute");
  return j;
}

double MechanismElement::jointCoordinate(const Eval& e, int joint, double* rate) const {
  return mb_->jointCoordinateAt(e.y + base_, joint, rate);
}

double MechanismElement::initialJointCoordinate(int joint) const {
  return mb_->jointCoordinateAt(mb_->initialState().data(), joint, nullptr);
}

std::vector<int> MechanismElement::jointPartStates(int joint) const {
  std::vector<int> v;
  for (int b : mb_->jointBodies(joint)) {
    const auto& body = mb_->bodies()[b];
    if (!body.ground)
      for (int k = 0; k < 14; ++k) v.push_back(base_ + body.slot + k);
  }
  return v;
}

double MechanismElement::distance(const Eval& e, int barrel, int rod, double* rate) const {
  mb::V3 pb, vb, pr, vr;
  mb_->markerState(e.y + base_, barrel, pb, vb);
  mb_->markerState(e.y + base_, rod, pr, vr);
  const mb::V3 d = pr - pb;
  const double l = d.norm();
  if (rate) *rate = l > 0.0 ? d.dot(vr - vb) / l : 0.0;
  return l;
}

double MechanismElement::initialDistance(int barrel, int rod) const {
  mb::V3 pb, vb, pr, vr;
  mb_->markerState(mb_->initialState().data(), barrel, pb, vb);
  mb_->markerState(mb_->initialState().data(), rod, pr, vr);
  return (pr - pb).norm();
}

std::vector<int> MechanismElement::forceRows(const std::vector<int>& partStates) {
  std::vector<int> v;
  for (size_t k = 0; k < partStates.size(); ++k)
    if (k % 14 >= 7 && k % 14 < 13) v.push_back(partStates[k]);
  return v;
}

std::vector<int> MechanismElement::partStates(int marker) const {
  std::vector<int> v;
  const auto& b = mb_->bodies()[mb_->markerBody(marker)];
  if (!b.ground)
    for (int k = 0; k < 14; ++k) v.push_back(base_ + b.slot + k);
  return v;
}

void MechanismElement::setup(SystemBuilder& b) {
  const auto decls = mb_->stateDecls(b.absTolPosition());
  const auto& y0 = mb_->initialState();
  for (size_t i = 0; i < decls.size(); ++i) {
    const auto& d = decls[i];
    const int s = b.state(d.name, d.unit, d.differential ? StateKind::Differential : StateKind::Algebraic, y0[i],
                          d.atol, d.equation);
    if (i == 0) base_ = s;
  }
  for (auto g : mb_->couplingGroups()) {
    for (int& s : g) s += base_;
    b.couple(std::move(g));
  }
  auto entries = mb_->couplingEntries();
  for (auto& [r, c] : entries) r += base_, c += base_;
  b.entries(std::move(entries));
  for (const auto& c : mb_->channels()) b.channelNamed(c.name, c.unit);
  if (mb_->numRoots() > 0) b.roots(mb_->numRoots());
  b.highIndex();
  // Part positions, orientations and velocities, and joint coordinates and
  // rates, as signals for sensors, switches and controllers.
  for (const auto& body : mb_->bodies()) {
    if (body.ground) continue;
    const int s = base_ + body.slot;
    const char* xyz[] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      b.publishNamed(body.id + ".cm_" + xyz[a], [s, a](const Eval& e) { return e.y[s + a]; });
      b.publishNamed(body.id + ".v" + xyz[a], [s, a](const Eval& e) { return e.y[s + 7 + a]; });
      const char* rpy[] = {"roll", "pitch", "yaw"};
      b.publishNamed(body.id + "." + rpy[a], [s, a](const Eval& e) {
        return mb::toRpy(mb::rotation(mb::Q4(e.y[s + 3], e.y[s + 4], e.y[s + 5], e.y[s + 6]).normalized()))[a];
      });
    }
  }
  for (const std::string& id : jointIds_) {
    const int j = mb_->joint(id);
    const std::string& type = mb_->jointType(j);
    const bool rev = type == "revolute";
    if (!rev && type != "translational" && type != "cylindrical") continue;
    b.publishNamed(id + (rev ? ".angle" : ".displacement"),
                   [this, j](const Eval& e) { return mb_->jointCoordinateAt(e.y + base_, j, nullptr); });
    b.publishNamed(id + (rev ? ".rate" : ".velocity"), [this, j](const Eval& e) {
      double rate = 0.0;
      mb_->jointCoordinateAt(e.y + base_, j, &rate);
      return rate;
    });
  }
}

void MechanismElement::evaluate(Eval& e) {
  cur_ = &e;
  mb_->residual(e.t, e.y + base_, e.yp + base_, e.res + base_);
  cur_ = nullptr;
}

void MechanismElement::roots(const Eval& e, double* g) { mb_->roots(e.t, e.y + base_, g); }

void MechanismElement::output(const Eval& e, double* channels) {
  // Reactions and accelerations from the index-1 equations at the output
  // point: the integrator's multipliers are index-2 variables outside its
  // error test, accurate only to the Newton tolerance.
  const int n = mb_->size();
  std::vector<double> y(e.y + base_, e.y + base_ + n), yp(e.yp + base_, e.yp + base_ + n);
  cur_ = &e;
  mb_->makeConsistent(e.t, y.data(), yp.data());
  mb_->outputs(e.t, y.data(), yp.data(), channels);
  cur_ = nullptr;
}

void MechanismElement::makeConsistent(System& sys, double t, double* y, double* yp) {
  sys.withEval(t, y, yp, [&](Eval& e) {
    cur_ = &e;
    mb_->makeConsistent(t, y + base_, yp + base_);
    cur_ = nullptr;
  });
}

}  // namespace pm
